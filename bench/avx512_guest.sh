#!/usr/bin/env bash
# avx512_guest.sh: run a script on an emulated AVX-512 CPU, for counting the binary an AVX-512
# node runs where no such CPU is at hand. The guest is Bochs 2.7's Skylake-X model (AVX-512 F,
# CD, BW, DQ and VL: x86-64-v4, what -march=skylake-avx512 targets), booting a small Linux built
# from Debian's linux-source-6.1 and a busybox initramfs. (QEMU's TCG has no AVX-512; Bochs's
# Tiger Lake model stops while Linux boots.) Bochs interprets every instruction: code runs about
# 55x slower than natively, so use small sizes; timings inside mean nothing, counts of what
# executed do. Run one thread: the guest has one CPU, and with two threads taking turns on it
# XSBench's checksum changed from run to run and runs crashed (vector registers not restored
# across a switch, by Bochs or by the guest kernel's XSAVE handling: not traced).
#   avx512_guest.sh [--bin FILE]... [--file SRC:DEST]... [--out DIR] [--timeout S] [--memory MIB] SCRIPT
# --bin copies FILE into /bin with the shared libraries ldd lists, at their paths; --file copies
# SRC (file or folder) to DEST. SCRIPT runs as root under busybox sh in /work; its output is
# printed here and its exit status is this script's. What it writes under $OUT (/out) comes back
# into DIR, compressed over the serial console (the guest's only way out). The first use installs
# Bochs, isolinux, xorriso, busybox-static and the kernel's build dependencies with apt, and
# builds the kernel into ${AVX512_GUEST_CACHE:-/var/cache/larm-avx512-guest} (minutes, once).
set -euo pipefail
bins=() files=() limit=3600 memory=1024 outdir=""
while [[ $# -gt 1 ]]; do
  case $1 in
    --bin) bins+=("$2"); shift 2 ;;
    --file) files+=("$2"); shift 2 ;;
    --out) outdir=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    *) echo "avx512_guest.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
script=${1:?usage: avx512_guest.sh [--bin FILE]... [--file SRC:DEST]... [--timeout S] SCRIPT}
[[ -r $script ]] || { echo "avx512_guest.sh: cannot read the script $script" >&2; exit 2; }
[[ $limit =~ ^[0-9]+$ && $memory =~ ^[0-9]+$ ]] || { echo "avx512_guest.sh: --timeout and --memory take whole numbers" >&2; exit 2; }
for b in "${bins[@]}"; do [[ -f $b ]] || { echo "avx512_guest.sh: no such program $b" >&2; exit 2; }; done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${AVX512_GUEST_CACHE:-/var/cache/larm-avx512-guest}
mkdir -p "$cache"
packages=(bochs bochsbios vgabios isolinux syslinux-common xorriso busybox-static cpio flex bison bc libelf-dev libssl-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  apt-get update -qq > /dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi
kernel=$cache/bzImage
[[ -s $kernel ]] || "$here/avx512_guest_kernel.sh" "$cache"

work=$(mktemp -d)
bochs_pid=""
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  if [[ -n $bochs_pid ]]; then
    kill "$bochs_pid" 2> /dev/null || true
    wait "$bochs_pid" 2> /dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
root=$work/root
mkdir -p "$root"/{bin,proc,sys,dev,tmp,work,out} "$work/iso/isolinux"
cp /bin/busybox "$root/bin/"
for a in sh mount poweroff cat echo ls sleep grep sed awk mkdir rm cp wc head tail tr cut sort \
  uniq env test true false find od tar gzip base64 dmesg; do ln -sf busybox "$root/bin/$a"; done
add_bin() {
  cp "$1" "$root/bin/"
  ldd "$1" 2> /dev/null | grep -o '/[^ ]*' | while read -r lib; do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}
for b in "${bins[@]}"; do add_bin "$b"; done
for f in "${files[@]}"; do
  src=${f%%:*} dst=${f#*:}
  mkdir -p "$root$(dirname "$dst")"
  cp -r "$src" "$root$dst"
done
cp "$script" "$root/work/run.sh"
cat > "$root/init" << 'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp
# POSIX shared memory (LLVM's OpenMP runtime opens it at start)
mkdir -p /dev/shm; mount -t tmpfs shm /dev/shm
export PATH=/bin HOME=/tmp OUT=/out
# LLVM's OpenMP runtime faults (SIGSEGV) reading the topology from Bochs's CPUID; with its affinity
# off it does not read it. One CPU: nothing to place.
export KMP_AFFINITY=disabled
echo "@@guest start"
cd /work && sh ./run.sh; rc=$?
echo "@@guest output"
(cd /out && tar -cf - .) | gzip -9 | base64
echo "@@guest exit=$rc"
# The console's output queue drains after the shell returns; a power-off now would cut it.
sleep 3
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2> /dev/null | gzip -1) > "$work/iso/isolinux/initrd.gz"
cp "$kernel" "$work/iso/isolinux/vmlinuz"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$work/iso/isolinux/"
cat > "$work/iso/isolinux/isolinux.cfg" << 'CFG'
default linux
prompt 0
label linux
  kernel vmlinuz
  append initrd=initrd.gz console=ttyS0,115200 panic=-1 quiet idle=poll
CFG
xorriso -as mkisofs -quiet -o "$work/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
  -no-emul-boot -boot-load-size 4 -boot-info-table "$work/iso" 2> /dev/null
cat > "$work/bochsrc" << RC
megs: $memory
cpu: model=corei7_skylake_x, count=1, ips=50000000
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/bochs/VGABIOS-lgpl-latest
ata0-master: type=cdrom, path=$work/boot.iso, status=inserted
boot: cdrom
display_library: rfb, options="timeout=0"
com1: enabled=1, mode=file, dev=$work/serial.out
log: $work/bochs.log
panic: action=fatal
clock: sync=none, time0=local
RC
# Debian's Bochs is built with its debugger, which reads commands first: "c" runs the guest.
# Bochs does not power off on the guest's request, so the guest's last line ends it; timeout
# ends it too if this script is killed before it can.
printf 'c\n' | timeout -k 10 "$limit" bochs -q -f "$work/bochsrc" > "$work/bochs.out" 2>&1 &
bochs_pid=$!
deadline=$((SECONDS + limit))
while kill -0 "$bochs_pid" 2> /dev/null && ((SECONDS < deadline)); do
  grep -q -E '@@guest exit=|reboot: (System halted|Power down)' "$work/serial.out" 2> /dev/null && break
  sleep 2
done
out=$(tr -d '\r' < "$work/serial.out" 2> /dev/null || true)
rc=$(sed -n 's/.*@@guest exit=\([0-9]*\).*/\1/p' <<< "$out" | tail -1)
sed -n '/@@guest start/,/@@guest output/p' <<< "$out" | sed '1d;$d'
if [[ -n $rc && -n $outdir ]]; then
  mkdir -p "$outdir"
  sed -n '/@@guest output/,/@@guest exit=/p' <<< "$out" | sed '1d;$d' | base64 -d | tar -xzm -C "$outdir" ||
    echo "avx512_guest.sh: the guest's files did not come back whole" >&2
fi
if [[ -z $rc ]]; then
  echo "avx512_guest.sh: the guest did not finish within ${limit} s" >&2
  tail -3 "$work/bochs.log" >&2 || true
  exit 3
fi
exit "$rc"

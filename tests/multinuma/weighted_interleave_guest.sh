#!/usr/bin/env bash
# larm run --weighted-interleave on a machine of several NUMA nodes: a throw-away QEMU guest
# (TCG) with two one-core nodes and a memory-only one, booting Debian's backported kernel (Linux
# 6.12: weighted interleave came in 6.9; Debian 12's own kernel, 6.1, refuses it, which
# weights_run_test.py checks wherever the running kernel lacks it). In the guest larm sets the
# weights (--set-weights) and page_census counts where 4096 pages landed (move_pages); the host
# checks each node's share against the weights within 2 %, and the refusals (weights that differ
# from the kernel's, an unknown node) with one line and exit 2.
#   weighted_interleave_guest.sh LARM PAGE_CENSUS [WORK_DIR]
# Exit 77 (ctest's skip code) when qemu or the kernel cannot be had; any other failure fails.
set -euo pipefail
larm=$(readlink -f "$1")
census=$(readlink -f "$2")
work=${3:-$(mktemp -d /tmp/larm-weighted.XXXXXX)}
mkdir -p "$work"
cache=${LARM_VM_CACHE:-/var/cache/larm-vm}
mkdir -p "$cache" 2>/dev/null || cache=$HOME/.cache/larm-vm && mkdir -p "$cache"
skip() { echo "SKIP: $*" >&2; exit 77; }

apt_install() {
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}
if ! command -v qemu-system-x86_64 >/dev/null || ! command -v cpio >/dev/null || [[ ! -x /bin/busybox ]]; then
  apt_install qemu-system-x86 busybox-static cpio || skip "qemu-system-x86, busybox-static or cpio cannot be installed"
fi

# The backported kernel, fetched by apt from bookworm-backports with lists of its own (the
# machine's sources are left as they are; apt checks the archive's signatures).
kernels="$cache/backports"
kernel=$(ls "$kernels"/vmlinuz-6.1[2-9]* "$kernels"/vmlinuz-6.[2-9][0-9]* 2>/dev/null | head -1 || true)
if [[ -z $kernel ]]; then
  mkdir -p "$kernels/lists/partial"
  echo "deb http://deb.debian.org/debian bookworm-backports main" > "$kernels/sources.list"
  apt_options=(-o "Dir::Etc::SourceList=$kernels/sources.list" -o Dir::Etc::SourceParts=/dev/null
               -o "Dir::State::Lists=$kernels/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
               -o APT::Sandbox::User=root)
  (
    cd "$kernels"
    apt-get "${apt_options[@]}" update -qq >/dev/null 2>&1
    apt-get "${apt_options[@]}" download linux-image-amd64 >/dev/null 2>&1
    image=$(dpkg-deb -f linux-image-amd64_*.deb Depends | grep -o 'linux-image-[0-9][^ ,]*' | head -1)
    apt-get "${apt_options[@]}" download "$image" >/dev/null 2>&1
    rm -rf unpacked && dpkg-deb -x "$image"_*.deb unpacked
    cp unpacked/boot/vmlinuz-* . && rm -rf unpacked ./*.deb lists
  ) || skip "the kernel of bookworm-backports cannot be downloaded"
  kernel=$(ls "$kernels"/vmlinuz-* | head -1)
fi
echo "guest kernel: $(basename "$kernel")"

root="$work/root"
rm -rf "$root" && mkdir -p "$root"/{bin,proc,sys,dev,tmp}
cp /bin/busybox "$root/bin/"
for applet in sh mount poweroff cat echo; do ln -sf busybox "$root/bin/$applet"; done
cp "$larm" "$root/bin/larm"
cp "$census" "$root/bin/page_census"
ldd "$larm" "$census" | grep -o '/[^ ]*' | grep -v ':$' | sort -u | while read -r library; do
  mkdir -p "$root$(dirname "$library")"
  cp -L "$library" "$root$library"
done
cat > "$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
export PATH=/bin HOME=/tmp
echo 0 > /proc/sys/kernel/numa_balancing
echo "@@kernel $(cat /proc/sys/kernel/osrelease)"
# The kernel's weights start at 1: 3:1 differs and is refused without --set-weights.
larm run --weighted-interleave 0:3,1:1 -- page_census 16 > /tmp/differ.txt 2>&1
echo "@@differ status=$?"; cat /tmp/differ.txt; echo "@@end"
larm run --weighted-interleave 5:1 -- page_census 16 > /tmp/unknown.txt 2>&1
echo "@@unknown status=$?"; cat /tmp/unknown.txt; echo "@@end"
for spec in 0:3,1:1 0:1,1:1,2:2 0:1,2:4; do
  larm run --weighted-interleave $spec --set-weights -- page_census 4096 > /tmp/census.txt 2>&1
  echo "@@census $spec status=$?"; cat /tmp/census.txt; echo "@@end"
done
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$work/initrd.gz")

timeout 900 qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 1280M \
  -object memory-backend-ram,size=512M,id=m0 -object memory-backend-ram,size=512M,id=m1 \
  -object memory-backend-ram,size=256M,id=m2 \
  -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 \
  -numa node,nodeid=2,memdev=m2 \
  -kernel "$kernel" -initrd "$work/initrd.gz" -append "console=ttyS0 panic=-1 quiet" \
  -nographic -no-reboot > "$work/console.log" 2>&1 || true
tr -d '\r' < "$work/console.log" > "$work/console.txt"
"${PYTHON:-python3}" "$(dirname "$0")/check_weighted.py" "$work/console.txt"

#!/usr/bin/env bash
# avx512_guest_kernel.sh CACHE: build the small Linux that avx512_guest.sh boots under Bochs, from
# Debian's linux-source-6.1, into CACHE/bzImage. tinyconfig plus what a busybox initramfs, the
# serial console and threaded programs need: under Bochs it boots in about 15 s.
# Bochs 2.7 (its Tiger Lake model, where this was seen) reports a compacted XSAVE area larger than
# the sum of the components it enables (2752 bytes for 2432), which Linux 6.1 takes for an
# inconsistency and then turns XSAVE off, and with it AVX and AVX-512. The build accepts an area at
# least as large as the components need (the buffer is then big enough).
set -euo pipefail
cache=${1:?usage: avx512_guest_kernel.sh CACHE}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
echo "avx512_guest_kernel.sh: building the guest's kernel (minutes, once)" >&2
(cd "$build" && apt-get download linux-source-6.1 > /dev/null 2>&1) ||
  { apt-get update -qq > /dev/null 2>&1 || true; (cd "$build" && apt-get download linux-source-6.1 > /dev/null); }
dpkg-deb --fsys-tarfile "$build"/linux-source-6.1_*.deb | tar -x -C "$build" --wildcards './usr/src/linux-source-6.1.tar.xz'
tar -xJf "$build/usr/src/linux-source-6.1.tar.xz" -C "$build"
src=$build/linux-source-6.1
xstate=$src/arch/x86/kernel/fpu/xstate.c
grep -q $'\treturn size == kernel_size;' "$xstate" ||
  { echo "avx512_guest_kernel.sh: $xstate has changed: its XSAVE size check is not where expected" >&2; exit 1; }
sed -i -e $'s/\treturn size == kernel_size;/\treturn size <= kernel_size;/' \
  -e 's/XSTATE_WARN_ON(size != kernel_size,/XSTATE_WARN_ON(size > kernel_size,/' "$xstate"
make -C "$src" tinyconfig > /dev/null
"$src/scripts/config" --file "$src/.config" -e 64BIT -e SMP -e BLK_DEV_INITRD -e RD_GZIP -e PRINTK \
  -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE -e BINFMT_ELF -e BINFMT_SCRIPT -e PROC_FS -e SYSFS \
  -e DEVTMPFS -e TMPFS -e SHMEM -e FUTEX -e EPOLL -e EVENTFD -e SIGNALFD -e TIMERFD -e AIO \
  -e FILE_LOCKING -e INOTIFY_USER -e MULTIUSER -e POSIX_TIMERS -e HIGH_RES_TIMERS -e PROC_SYSCTL \
  -e ADVISE_SYSCALLS -e MEMBARRIER -e RSEQ -e PERF_EVENTS -e NET -e UNIX -e X86_TSC
make -C "$src" olddefconfig > /dev/null
make -C "$src" -j"$(nproc)" bzImage > "$build/make.log" 2>&1 ||
  { tail -20 "$build/make.log" >&2; exit 1; }
install -m 644 "$src/arch/x86/boot/bzImage" "$cache/bzImage.tmp"
mv "$cache/bzImage.tmp" "$cache/bzImage"

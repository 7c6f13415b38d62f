#!/bin/bash
# Run a command as root on a cgroup v2 host: a virtual machine booting Debian 12's
# kernel (cgroup v2 only, every controller) over this machine's own files.
#
# This project's machines mount cgroup v1; current distributions, Docker and most
# cloud machines mount only v2. The README's sandbox figures for v2 hosts come from
# here. Not part of `make test` (it needs root, QEMU and minutes): run it by hand.
#
#   tools/cgroup2-vm.sh '.venv/bin/arena sandbox'
#
# The guest sees / read-only through 9p with an overlay in its memory, so nothing
# it writes lands here; the command runs in this checkout with /work/vm-out shared
# for output (out.txt). QEMU emulates the processor (TCG): KVM, offered inside this
# project's machines, did not boot the kernel. It runs about ten times slower. Needs: qemu-system-x86, busybox-static, cpio
# (installed here when missing, as root).
set -euo pipefail
command=${1:?"usage: $0 'COMMAND' (run in this checkout, as root, in the VM)"}
here=$(cd "$(dirname "$0")/.." && pwd)
work=${CGROUP2_VM_DIR:-/var/tmp/arena-cgroup2-vm}
kernel=6.1.0-56-amd64
mkdir -p "$work/out"
for tool in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static cpio:cpio; do
  command -v "${tool%%:*}" >/dev/null || apt-get install -y -q "${tool#*:}" >/dev/null
done
if [ ! -f "$work/initrd.gz" ] || [ "$0" -nt "$work/initrd.gz" ]; then
  (cd "$work" && apt-get download "linux-image-$kernel" >/dev/null &&
    dpkg -x linux-image-"$kernel"_*.deb root)
  rm -rf "$work/initrd" && mkdir -p "$work/initrd"/{bin,mods,newroot,proc,sys,dev}
  cp "$(command -v busybox)" "$work/initrd/bin/"
  modules="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet
    9pnet_virtio netfs fscache 9p overlay"  # each after the modules it needs
  for module in $modules; do
    find "$work/root/lib/modules/$kernel" -name "$module.ko" -exec cp {} "$work/initrd/mods/" \;
  done
  cat > "$work/initrd/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for module in $(echo $modules); do insmod /mods/\$module.ko; done
mkdir -p /lower /upper
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro host /lower
mount -t tmpfs tmp /upper && mkdir -p /upper/u /upper/w
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w /newroot
mkdir -p /newroot/mnt/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /newroot/mnt/out
mount -t proc proc /newroot/proc; mount -t sysfs sys /newroot/sys
mount -t devtmpfs dev /newroot/dev; mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts; mount -t tmpfs shm /newroot/dev/shm
mount -t tmpfs tmp /newroot/tmp; mount -t tmpfs run /newroot/run
mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup
ip link set lo up  # loopback, as any booted system has (tests listen on 127.0.0.1)
if [ -f /newroot/mnt/out/systemd ]; then  # boot systemd, and run the command as a service
  cat > /newroot/etc/systemd/system/arena-vm.service <<UNIT
[Unit]
Wants=dbus.service systemd-logind.service
After=basic.target dbus.service systemd-logind.service
[Service]
Type=oneshot
ExecStart=/bin/bash /mnt/out/run.sh
ExecStopPost=/bin/systemctl poweroff --force --force
UNIT
  exec switch_root /newroot /lib/systemd/systemd systemd.unit=arena-vm.service
fi
# switch_root, not chroot: a chrooted process may not make user namespaces (bubblewrap
# as a normal user needs them). When the command ends, so does the machine.
exec switch_root /newroot /bin/bash /mnt/out/run.sh
EOF
  chmod +x "$work/initrd/init"
  (cd "$work/initrd" && find . | cpio -o -H newc 2>/dev/null | gzip) > "$work/initrd.gz"
fi
printf 'cd %q\nexport HOME=/root\n%s\n' "$here" "$command" > "$work/out/cmd.sh"
cat > "$work/out/run.sh" <<'EOF'
bash /mnt/out/cmd.sh > /mnt/out/out.txt 2>&1
echo "exit $?" >> /mnt/out/out.txt
sync
EOF
# CGROUP2_VM_SYSTEMD=1: boot systemd (its user managers, delegation) instead of a shell.
if [ -n "${CGROUP2_VM_SYSTEMD:-}" ]; then touch "$work/out/systemd"; else rm -f "$work/out/systemd"; fi
rm -f "$work/out/out.txt"
timeout "${CGROUP2_VM_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -cpu max -m 4096 \
  -smp 2 -nographic -no-reboot -nodefaults -serial stdio \
  -kernel "$work/root/boot/vmlinuz-$kernel" -initrd "$work/initrd.gz" \
  -append "console=ttyS0 panic=-1 quiet" \
  -virtfs local,path=/,mount_tag=host,security_model=passthrough,readonly=on,multidevs=remap \
  -virtfs local,path="$work/out",mount_tag=out,security_model=passthrough > "$work/console.log"
cat "$work/out/out.txt"

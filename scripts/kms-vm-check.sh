#!/usr/bin/env bash
# Checks `lamina show` on a real KMS device without a GPU: boots Debian's
# kernel under QEMU with its bochs display (a DRM card with one connector),
# straight into `lamina show --kms` from an initramfs that holds the release
# binary and Mesa's software drivers; takes a screendump while it shows and
# one after it exits, and compares the first with a headless render of the
# same frame. Slow (a few minutes, software emulation) and needs network for
# packages: a developer check, not part of CI.
#
#   scripts/kms-vm-check.sh [scene.json]    # default: a card and a moving dot
#   LAMINA_KMS_LEGACY=1 scripts/kms-vm-check.sh   # legacy modesetting and page flips
#
# QEMU 7.2's emulation of AVX miscomputes some of llvmpipe's 256-bit code (a
# #f0f0f0 fill comes out white, in headless renders too), so the guest CPU
# has SSE 4.2 only.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$(pwd)
work=${WORK:-/tmp/lamina-kms-vm}
kernel_package=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
kver=${kernel_package#linux-image-}
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  qemu-system-x86 busybox-static cpio kmod netpbm >/dev/null   # no recommends: ghostscript would add a Helvetica (Nimbus Sans) that changes text goldens
swift build -c release --product lamina >/dev/null
mkdir -p "$work"
scene=${1:-}
if [ -z "$scene" ]; then
  scene=$work/scene.json
  cat > "$scene" <<'JSON'
{"lamina": 1, "canvas": {"width": 1024, "height": 768, "background": "#203040"},
 "root": {"sublayers": [
   {"class": "CAGradientLayer", "frame": [0, 0, 1024, 768], "colors": ["#102040", "#406080"]},
   {"frame": [112, 184, 800, 400], "backgroundColor": "#f0f0f0", "cornerRadius": 24,
    "shadowOpacity": 0.5, "shadowRadius": 12, "shadowOffset": [0, 8]},
   {"name": "dot", "frame": [200, 360, 60, 60], "backgroundColor": "#ff6000", "cornerRadius": 30,
    "animations": [{"keyPath": "position.x", "fromValue": 230, "toValue": 790,
                    "duration": 2, "fillMode": "both"}]}]}}
JSON
fi

# The kernel and the bochs driver's modules.
if [ ! -d "$work/kernel/lib/modules/$kver" ]; then
  (cd "$work" && apt-get download "$kernel_package" >/dev/null 2>&1 && dpkg-deb -x "$kernel_package"_*.deb kernel)
  depmod -b "$work/kernel" "$kver"
fi

# The initramfs: busybox, the modules, lamina and every library it loads.
root=$work/root
rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,tmp,usr/share/glvnd/egl_vendor.d}
cp /usr/bin/busybox "$root/bin/"
for a in sh mount sleep echo modprobe poweroff ls kill pidof grep; do ln -sf busybox "$root/bin/$a"; done
modules=$work/kernel/lib/modules/$kver
mkdir -p "$root/lib/modules/$kver" && cp "$modules"/modules.* "$root/lib/modules/$kver/"
for m in $(grep "^kernel/drivers/gpu/drm/tiny/bochs.ko:" "$modules/modules.dep" | tr -d ':'); do
  mkdir -p "$root/lib/modules/$kver/$(dirname "$m")" && cp "$modules/$m" "$root/lib/modules/$kver/$m"
done
copy() { for f in "$@"; do [ -e "$root$f" ] || { mkdir -p "$root$(dirname "$f")"; cp -L "$f" "$root$f"; }; done; }
binary=$project/.build/release/lamina
drivers=(/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0 /usr/lib/x86_64-linux-gnu/dri/kms_swrast_dri.so
  /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so /usr/lib/x86_64-linux-gnu/libgbm.so.1)
copy "$binary" "${drivers[@]}" /lib64/ld-linux-x86-64.so.2
for f in "$binary" "${drivers[@]}"; do copy $(ldd "$f" | awk '/=> \//{print $3}'); done
cp /usr/share/glvnd/egl_vendor.d/50_mesa.json "$root/usr/share/glvnd/egl_vendor.d/"
cp "$scene" "$root/scene.json"
cat > "$root/init" <<EOS
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp
modprobe bochs
n=0; while [ ! -e /dev/dri/card0 ] && [ \$n -lt 50 ]; do sleep 0.1; n=\$((n+1)); done
echo "LAMINA START"
# Stopped as systemd stops a kiosk: SIGTERM (the duration is only a backstop).
HOME=/tmp LAMINA_KMS_LEGACY=${LAMINA_KMS_LEGACY:-0} $binary show /scene.json --kms --duration 120 --stats 2>&1 | grep -v "MESA\|failed to load\|pci id" &
sleep 40
kill -TERM \$(pidof lamina)
wait
echo "LAMINA EXIT"
sleep 8
poweroff -f
EOS
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 > "$work/initrd.gz")

rm -f "$work/serial.log" "$work/monitor.sock"
qemu-system-x86_64 -accel tcg,thread=multi -cpu qemu64,+ssse3,+sse4.1,+sse4.2,+popcnt -smp 2 \
  -m 3072 -kernel "$work/kernel/boot/vmlinuz-$kver" -initrd "$work/initrd.gz" \
  -append "console=ttyS0 edd=off quiet" -vga std -display none \
  -serial "file:$work/serial.log" -monitor "unix:$work/monitor.sock,server,nowait" &
qemu=$!
trap 'kill $qemu 2>/dev/null || true' EXIT
monitor() {
  python3 - "$work/monitor.sock" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(0.3); s.recv(4096)
s.send(sys.argv[2].encode() + b"\n"); time.sleep(1.5); s.recv(65536)
PY
}
wait_for() { for _ in $(seq 1 400); do grep -q "$1" "$work/serial.log" 2>/dev/null && return 0; sleep 1; done; return 1; }
wait_for "lamina: showing" || { echo "FAIL: lamina show did not start"; cat "$work/serial.log"; exit 1; }
sleep 15
monitor "screendump $work/showing.ppm"
wait_for "LAMINA EXIT" || { echo "FAIL: lamina show did not exit"; exit 1; }
sleep 2
monitor "screendump $work/after.ppm"
grep -a "lamina:" "$work/serial.log"
grep -aq "display released" "$work/serial.log" || { echo "FAIL: SIGTERM did not release the display"; exit 1; }

# The expected panel: the headless render at the fitted scale, centered.
read -r width height < <(head -2 "$work/showing.ppm" | tail -1)
python3 - "$scene" "$width" "$height" "$binary" "$work" <<'PY'
import json, subprocess, sys
scene, W, H, binary, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
canvas = json.load(open(scene))["canvas"]
scale = min(W / canvas["width"], H / canvas["height"])
subprocess.run([binary, "render", scene, "--time", "5", "--scale", repr(scale),
                "-o", f"{work}/expected.png"], check=True)
png = subprocess.run(["pngtopnm", f"{work}/expected.png"], check=True, capture_output=True).stdout
def ppm(data):
    parts = data.split(b"\n", 3)
    w, h = map(int, parts[1].split())
    return w, h, parts[3]
ew, eh, expected = ppm(png)
sw, sh, shown = ppm(open(f"{work}/showing.ppm", "rb").read())
ox, oy = (sw - ew) // 2, (sh - eh) // 2
off = worst = 0
for y in range(sh):
    for x in range(sw):
        s = shown[(y * sw + x) * 3:(y * sw + x) * 3 + 3]
        if ox <= x < ox + ew and oy <= y < oy + eh:
            e = expected[((y - oy) * ew + x - ox) * 3:((y - oy) * ew + x - ox) * 3 + 3]
        else:
            e = b"\0\0\0"
        d = max(abs(a - b) for a, b in zip(s, e))
        worst = max(worst, d)
        off += d > 2
print(f"screen {sw}x{sh}, canvas {ew}x{eh} at ({ox}, {oy}): {off} pixels off by more than 2, max diff {worst}")
after = ppm(open(f"{work}/after.ppm", "rb").read())[2]
print("after exit the screen", "changed back" if after != shown else "still shows the scene")
sys.exit(0 if off <= sw * sh // 1000 and after != shown else 1)
PY
echo "PASS"

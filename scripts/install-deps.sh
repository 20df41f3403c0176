#!/usr/bin/env bash
# Installs the Debian packages Lamina builds, tests and renders with, when
# any is missing. Safe to run again: it does nothing when all are present.
set -euo pipefail

packages=(
  pkg-config
  libegl1-mesa-dev libgles2-mesa-dev libgbm-dev libdrm-dev
  libegl-mesa0 libgl1-mesa-dri   # the EGL vendor and llvmpipe (swrast_dri.so)
  libpng-dev libjpeg62-turbo-dev libwebp-dev
  libspng-dev   # PNG encoding (LaminaOutput: the zlib level and row filters chosen)
  libzip-dev zlib1g-dev   # dotLottie archives and .tgs stickers (LaminaLottie)
  duktape-dev   # the JavaScript engine Lottie expressions run in (lamina-expr, a sandboxed child)
  libinput-dev libudev-dev   # touch and pointer under KMS (LaminaDisplay)
  libwayland-dev libwayland-bin wayland-protocols   # the Wayland window (wayland-scanner checks the glue)
  weston   # the tests show scenes on its headless backend and screenshot it
  xvfb xdotool   # and click on a window of its X11 backend: taps from a real seat
  libcairo2-dev libpango1.0-dev libharfbuzz-dev fonts-dejavu-core fonts-wqy-microhei   # shapes and text (LaminaDraw, Core Text; CJK fallback)
  libfreetype-dev   # its anti-aliasing rasterizer fills the paths drawn on the CPU (LaminaDraw)
  ffmpeg   # encodes --video .mp4/.webm/.gif/.apng/.mov (the program, run as a child;
           # ffprobe comes with it) and decodes the videos in the tests
  python3 python3-pip   # the Ray driver (distributed/), the benchmark scripts, the fuzzer
                        # (scripts/fuzz.py, which the tests run) and the soak scripts
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

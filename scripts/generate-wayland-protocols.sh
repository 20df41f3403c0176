#!/usr/bin/env bash
# Regenerates Sources/CWaylandProtocols from the protocol descriptions that
# Debian's wayland-protocols installs, with wayland-scanner (libwayland-dev).
# SwiftPM cannot compile C that a build plugin generates, so the scanner's
# output is committed; a test checks it still matches what this script makes.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Sources/CWaylandProtocols}"
protocols=/usr/share/wayland-protocols
mkdir -p "$out/include"
for xml in stable/xdg-shell/xdg-shell.xml stable/viewporter/viewporter.xml \
  staging/fractional-scale/fractional-scale-v1.xml; do
  name=$(basename "$xml" .xml)
  wayland-scanner private-code "$protocols/$xml" "$out/$name-protocol.c"
  wayland-scanner client-header "$protocols/$xml" "$out/include/$name-client-protocol.h"
done

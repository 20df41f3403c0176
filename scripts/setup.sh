#!/usr/bin/env bash
# Fresh Debian machine with the Swift toolchain: installs what is missing,
# builds the lamina command, and renders the example scene to hello.png on
# the default headless path (EGL, llvmpipe when there is no GPU). hello.png
# is ignored by git (.gitignore), so the checkout stays clean.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product lamina
.build/release/lamina render Examples/hello.json -o hello.png
echo "wrote $(pwd)/hello.png"

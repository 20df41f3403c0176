#!/usr/bin/env bash
# Installs what is missing, then runs every test (unit, render, loader).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
# Shape layers drawn by Cairo on every driver, so that goldens do not depend
# on the GPU (docs/rendering.md, "Paths on the CPU"); the GPU path's own
# tests turn it off themselves.
export LAMINA_PATHS="${LAMINA_PATHS:-cpu}"
swift test --skip-build "$@"

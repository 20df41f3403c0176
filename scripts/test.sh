#!/usr/bin/env bash
# Installs what is missing, then runs every test (unit, render, loader).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"

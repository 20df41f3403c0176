#!/usr/bin/env bash
# Generated scenes against the metamorphic relations, for long runs
# (docs/metamorphic-testing.md). Findings are shrunk and written to a folder.
#
#   scripts/metamorphic.sh --count 10000 [--seed 1] [--out metamorphic-findings]
#   scripts/metamorphic.sh --duration 3600 [--seed 50000]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product lamina-metamorphic
exec .build/release/lamina-metamorphic "$@"

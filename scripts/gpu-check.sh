#!/usr/bin/env bash
# Checks a lamina binary on a machine with a GPU: which EGL platform it
# picks and what it reports, the reference scenes rendered on each platform
# that works there (compared with the references when Python has Pillow and
# NumPy), and the benchmark scenes timed.
#
#   scripts/gpu-check.sh LAMINA OUTDIR [REFERENCE_DIR] [BENCH_SCENES_DIR]
set -uo pipefail
lamina=$1; out=$2
ref=${3:-Tests/LaminaRenderTests/Fixtures/reference}
bench=${4:-Benchmarks/scenes}
mkdir -p "$out"

for platform in default device gbm surfaceless; do
  if [ "$platform" = default ]; then unset LAMINA_EGL_PLATFORM; else export LAMINA_EGL_PLATFORM=$platform; fi
  echo "== lamina info ($platform)"
  "$lamina" info || continue
  mkdir -p "$out/$platform"
  for scene in "$ref"/scenes/*.json; do
    name=$(basename "$scene" .json)
    "$lamina" render "$scene" -o "$out/$platform/$name.png" 2>&1 | head -2
  done
done
unset LAMINA_EGL_PLATFORM

if python3 -c "import PIL, numpy" 2>/dev/null; then
  for dir in "$out"/*/; do
    echo "== reference comparison: $dir"
    for png in "$dir"*.png; do
      name=$(basename "$png" .png)
      expected="$ref/expected/$name.png"
      [ -f "$expected" ] || continue
      python3 - "$png" "$expected" <<'PY'
import sys, numpy as np
from PIL import Image
a = np.asarray(Image.open(sys.argv[1]).convert('RGBA')).astype(float) / 255
b = np.asarray(Image.open(sys.argv[2]).convert('RGBA')).astype(float) / 255
if a.shape != b.shape:
    print(f"{sys.argv[1]}: size {a.shape} != {b.shape}"); sys.exit()
def over(x, bg): return x[..., :3] * x[..., 3:] + bg * (1 - x[..., 3:])
d = np.maximum(abs(over(a, 0) - over(b, 0)), abs(over(a, 1) - over(b, 1)))
off = (np.round(d * 255).max(axis=2) > 8).mean()
print(f"{sys.argv[1].split('/')[-1]}: {off*100:.2f}% off, max {int(round(d.max()*255))}")
PY
    done
  done
fi

echo "== bench"
for scene in "$bench"/*.json; do
  [ "$(basename "$scene")" = manifest.json ] && continue
  "$lamina" bench "$scene" --json > "$out/bench-$(basename "$scene" .json).json" 2>&1
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['scene'], d['platform'], 'median ms', round(d['frameMs']['median'],2), 'cpu', round(d['cpuMs']['median'],2), 'gpu', round(d['gpuMs']['median'],2))" "$out/bench-$(basename "$scene" .json).json" 2>/dev/null || cat "$out/bench-$(basename "$scene" .json).json" | head -3
done

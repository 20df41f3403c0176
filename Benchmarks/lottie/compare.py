#!/usr/bin/env python3
"""Lamina against rlottie on Lottie documents, back to back, one table.

    python3 Benchmarks/lottie/compare.py --lamina .build/release/lamina \\
        --size 1024 FILE.json [FILE.json ...] > table.md

For each document: `lamina bench FILE --size SxS --frames N --json` (frames
looping over ip..op at the document's rate), then rlottie_bench.py on the
same document, frames and size, one right after the other. Prints a
markdown table: the medians, their ratio, and where Lamina's frame time
goes (cpu / gpu, draws, offscreen passes) for the rows where it is slower.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def lamina_bench(lamina, path, size, frames):
    run = subprocess.run(
        [lamina, "bench", path, "--size", f"{size}x{size}", "--frames", str(frames), "--json"],
        capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        return {"error": (run.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(run.stdout)


def rlottie_bench(path, size, frames):
    run = subprocess.run(
        [sys.executable, os.path.join(HERE, "rlottie_bench.py"), "--size", str(size),
         "--frames", str(frames), path],
        capture_output=True, text=True, timeout=600)
    line = (run.stdout.strip().splitlines() or ["{}"])[-1]
    return json.loads(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    print("| document | lamina ms | rlottie ms | lamina / rlottie | lamina cpu / gpu ms"
          " | cpu: Lamina's own / driver in GL calls ms | largest own stage | draws, offscreen passes |")
    print("| --- | ---: | ---: | ---: | --- | --- | --- | --- |")
    for path in args.files:
        name = os.path.basename(path)
        lam = lamina_bench(args.lamina, path, args.size, args.frames)
        rl = rlottie_bench(path, args.size, args.frames)
        if "error" in lam or "error" in rl:
            print(f"| {name} | {lam.get('error', '')} | {rl.get('error', '')} | | | | | |", flush=True)
            continue
        l_ms = lam["frameMs"]["median"]
        r_ms = rl["median_ms"]
        stages = {k: v for k, v in lam.get("cpuStagesMs", {}).items() if not k.startswith("gl")}
        own_stage = max(stages, key=stages.get) if stages else ""
        print(f"| {name} | {l_ms:.2f} | {r_ms:.2f} | {l_ms / r_ms:.2f} | "
              f"{lam['cpuMs']['median']:.2f} / {lam['gpuMs']['median']:.2f} | "
              f"{lam['laminaCpuMs']['median']:.2f} / {lam['driverCpuMs']['median']:.2f} | "
              f"{own_stage} {stages.get(own_stage, 0):.2f} | "
              f"{lam['drawCallsPerFrame']:.0f}, {lam['offscreenPassesPerFrame']:.0f} |", flush=True)


if __name__ == "__main__":
    main()

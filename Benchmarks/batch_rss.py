#!/usr/bin/env python3
"""Memory of one long `lamina batch`: 10,000 jobs over 1,000 different
images must keep a flat resident set once its caches are full.

    swift build -c release --product lamina
    python3 Benchmarks/batch_rss.py [--lamina .build/release/lamina] [--jobs 10000]
                                    [--images 1000] [--memory-budget 64M]

Writes `--images` different 160×160 PNGs (100 KiB each decoded, 100 MB in
all, so a 64M budget, half for decoded images and half for textures, must
drop and reload), then `--jobs` jobs, each an inline 128×128 scene showing
four images picked at random (seeded) and written to one of 100 PNG files.
The jobs go to `lamina batch -` on standard input, and the batch's VmRSS is
sampled with the number of jobs finished. Prints RSS at 1%, 2.5%, 5% and
each tenth of the run, the spread and the least-squares slope after warm-up (the first
`--warmup` jobs), and one JSON line. Standard library only.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_common import rss_kib, small_scene, write_images  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--jobs", type=int, default=10000)
    parser.add_argument("--images", type=int, default=1000)
    parser.add_argument("--memory-budget", default="64M")
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="lamina-rss-")
    try:
        print(f"writing {args.images} images ...", file=sys.stderr)
        names = write_images(os.path.join(folder, "images"), args.images, 160, seed=args.seed)
        os.makedirs(os.path.join(folder, "out"))
        rng = random.Random(args.seed)
        lines = []
        for i in range(args.jobs):
            chosen = rng.sample(names, 4)
            scene = small_scene(rng, {f"i{k}": n for k, n in enumerate(chosen)}, 128, 128)
            lines.append(json.dumps(
                {"scene": scene, "base": "images", "output": f"out/{i % 100:02d}.png"},
                separators=(",", ":")) + "\n")

        process = subprocess.Popen(
            [os.path.abspath(args.lamina), "batch", "-", "--memory-budget", args.memory_budget],
            cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        done = [0]
        failures = []

        def feed():
            for line in lines:
                process.stdin.write(line.encode())
            process.stdin.close()

        def read():
            for raw in process.stdout:
                result = json.loads(raw)
                if not result["ok"]:
                    failures.append(result)
                done[0] += 1

        threads = [threading.Thread(target=feed), threading.Thread(target=read)]
        for t in threads:
            t.start()
        samples = []  # (jobs done, RSS KiB, seconds)
        start = time.perf_counter()
        while process.poll() is None:
            rss = rss_kib(process.pid)
            if rss is not None:
                samples.append((done[0], rss, time.perf_counter() - start))
            time.sleep(0.1)
        for t in threads:
            t.join()
        seconds = time.perf_counter() - start
        if process.returncode != 0 or failures:
            raise SystemExit(
                f"batch exited {process.returncode}: {process.stderr.read().decode()} {failures[:3]}")

        steady = [(n, rss) for n, rss, _ in samples if n >= args.warmup]
        xs = [n for n, _ in steady]
        ys = [rss for _, rss in steady]
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mean_x) * (y - mean_y) for x, y in steady) / max(
            1e-9, sum((x - mean_x) ** 2 for x in xs))
        marks = []
        for target in [args.jobs // 100, args.jobs // 40, args.jobs // 20] + [
                args.jobs * tenth // 10 for tenth in range(1, 11)]:
            at = next((rss for n, rss, _ in samples if n >= target), samples[-1][1])
            marks.append((target, at))
        print(f"| jobs done | {' | '.join(str(n) for n, _ in marks)} |")
        print(f"| --- | {' | '.join('---' for _ in marks)} |")
        print(f"| RSS MiB | {' | '.join(f'{rss / 1024:.1f}' for _, rss in marks)} |")
        summary = {
            "jobs": args.jobs, "images": args.images, "memoryBudget": args.memory_budget,
            "seconds": round(seconds, 1), "jobsPerSecond": round(args.jobs / seconds, 1),
            "peakMiB": round(max(r for _, r, _ in samples) / 1024, 1),
            "afterWarmup": {
                "minMiB": round(min(ys) / 1024, 1), "maxMiB": round(max(ys) / 1024, 1),
                "slopeKiBPer1000Jobs": round(slope * 1000, 1), "samples": len(ys)},
        }
        print(json.dumps(summary))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Jobs per second of `lamina batch` against one `lamina render` process per
job, for the same jobs, measured back to back; and the per-job overhead
that batch mode leaves (a job whose scene draws nothing).

    swift build -c release --product lamina
    python3 Benchmarks/batch_throughput.py [--lamina .build/release/lamina] [--jobs 200]

Two sets of jobs, each run both ways, twice, alternating (the best of two
is kept: these machines are shared and noisy):

- small: `--jobs` different 320×180 scenes (four image cards with rounded
  corners out of 40 images, a gradient bar, a text label), one PNG each;
- empty: `--jobs` jobs of a 1×1 scene with no layers: what a job costs
  besides its pixels (parsing the job and the scene, a frame, a 1-pixel PNG
  written and renamed, the result line).

Prints a table and one JSON line. Standard library only.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_common import small_scene, write_images, write_jsonl  # noqa: E402


def run_batch(lamina, jobs_file, folder):
    start = time.perf_counter()
    run = subprocess.run([lamina, "batch", jobs_file], cwd=folder, capture_output=True)
    seconds = time.perf_counter() - start
    results = [json.loads(line) for line in run.stdout.decode().splitlines()]
    if run.returncode != 0 or not all(r["ok"] for r in results):
        raise SystemExit(f"batch failed: {run.stderr.decode()} {results[:3]}")
    return seconds, sum(r["ms"] for r in results) / 1000


def run_processes(lamina, jobs, folder):
    start = time.perf_counter()
    for job in jobs:
        run = subprocess.run(
            [lamina, "render", job["scene"], "-o", job["output"]], cwd=folder, capture_output=True)
        if run.returncode != 0:
            raise SystemExit(f"render failed: {run.stderr.decode()}")
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    lamina = os.path.abspath(args.lamina)
    folder = tempfile.mkdtemp(prefix="lamina-throughput-")
    try:
        names = write_images(os.path.join(folder, "images"), 40, 128)
        rng = random.Random(7)
        sets = {"small": [], "empty": []}
        for i in range(args.jobs):
            chosen = rng.sample(names, 4)
            scene = small_scene(rng, {f"i{k}": f"images/{n}" for k, n in enumerate(chosen)})
            path = f"scene-{i:04d}.json"
            with open(os.path.join(folder, path), "w") as f:
                json.dump(scene, f)
            sets["small"].append({"scene": path, "output": f"out/small-{i:04d}.png"})
        with open(os.path.join(folder, "empty.json"), "w") as f:
            json.dump({"lamina": 1, "canvas": {"width": 1, "height": 1}, "root": {}}, f)
        sets["empty"] = [{"scene": "empty.json", "output": f"out/empty-{i % 10}.png"}
                         for i in range(args.jobs)]
        os.makedirs(os.path.join(folder, "out"))

        rows = {}
        for name, jobs in sets.items():
            jobs_file = os.path.join(folder, f"{name}.jsonl")
            write_jsonl(jobs_file, jobs)
            best_batch, best_jobs, best_process = float("inf"), float("inf"), float("inf")
            for _ in range(args.repeat):
                seconds, in_jobs = run_batch(lamina, jobs_file, folder)
                best_batch, best_jobs = min(best_batch, seconds), min(best_jobs, in_jobs)
                best_process = min(best_process, run_processes(lamina, jobs, folder))
            n = len(jobs)
            rows[name] = {
                "jobs": n,
                "batchJobsPerSecond": round(n / best_batch, 1),
                "processJobsPerSecond": round(n / best_process, 1),
                "speedup": round(best_process / best_batch, 2),
                "batchMsPerJob": round(1000 * best_batch / n, 3),
                "processMsPerJob": round(1000 * best_process / n, 3),
                # The sum of the result lines' "ms": the jobs themselves, without
                # the process start and the first context.
                "batchJobMsPerJob": round(1000 * best_jobs / n, 3),
            }
        rows["machine"] = {"cores": os.cpu_count()}
        print("| jobs | batch jobs/s | render processes jobs/s | speed-up | batch ms/job | "
              "process ms/job |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name in sets:
            r = rows[name]
            print(f"| {name} ({r['jobs']}) | {r['batchJobsPerSecond']} | "
                  f"{r['processJobsPerSecond']} | {r['speedup']}× | {r['batchMsPerJob']} | "
                  f"{r['processMsPerJob']} |")
        print(json.dumps(rows))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

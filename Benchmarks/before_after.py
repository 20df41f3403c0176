#!/usr/bin/env python3
"""Two lamina binaries against the physical limit, back to back, per scene.

    python3 Benchmarks/before_after.py BEFORE/lamina AFTER/lamina [--runs 2] [--scenes a,b]

For each benchmark scene, in order: the limit (Benchmarks/limit, with one
pre-blurred quad per shadowed layer), the before binary, the after binary,
each with `lamina bench`'s default protocol (10 warm-up frames, 120 timed,
from 10 s at 60 fps); `--runs` rounds of that. Prints a Markdown table of
the medians of the runs' median frame times and their ratios to the limit.
Needs a quiet machine: nothing else running. Python 3 standard library.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = ["grid", "cards", "cubes", "blur", "nineslice", "shapes", "gradients", "masks", "text",
          "particles", "kiosk"]


def bench(binary, scene):
    out = subprocess.run([binary, "bench", os.path.join(HERE, "scenes", scene + ".json"), "--json"],
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    return report["frameMs"]["median"], report.get("cpuMs", {}).get("median")


def limit(binary_file):
    out = subprocess.run([os.path.join(HERE, "limit", "limit"), binary_file], check=True,
                         capture_output=True, text=True)
    text = out.stdout + out.stderr
    match = re.search(r"RESULT median_ms ([0-9.]+)", text)
    if not match:
        sys.exit("limit printed no median: " + text)
    return float(match.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--scenes", default=",".join(SCENES))
    args = ap.parse_args()
    scenes = args.scenes.split(",")
    work = tempfile.mkdtemp(prefix="lamina-before-after-")
    prepared = {}
    for scene in scenes:  # made before any timing
        path = os.path.join(work, scene + ".bin")
        subprocess.run([sys.executable, os.path.join(HERE, "limit", "prep.py"),
                        os.path.join(HERE, "scenes", scene + ".json"), path, "--shadows"],
                       check=True, capture_output=True)
        prepared[scene] = path
    rows = {s: {"limit": [], "before": [], "after": [], "before cpu": [], "after cpu": []}
            for s in scenes}
    for run in range(args.runs):
        for scene in scenes:
            r = rows[scene]
            r["limit"].append(limit(prepared[scene]))
            ms, cpu = bench(args.before, scene)
            r["before"].append(ms)
            r["before cpu"].append(cpu)
            ms, cpu = bench(args.after, scene)
            r["after"].append(ms)
            r["after cpu"].append(cpu)
            print(f"run {run + 1} {scene}: limit {r['limit'][-1]:.1f}, before {r['before'][-1]:.1f}, "
                  f"after {r['after'][-1]:.1f} ms", file=sys.stderr)
    print("| scene | limit ms | before ms | after ms | before / limit | after / limit | "
          "after / before | before cpu ms | after cpu ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for scene in scenes:
        r = {k: statistics.median(v) for k, v in rows[scene].items() if all(x is not None for x in v)}
        print(f"| {scene} | {r['limit']:.1f} | {r['before']:.1f} | {r['after']:.1f} | "
              f"{r['before'] / r['limit']:.2f} | {r['after'] / r['limit']:.2f} | "
              f"{r['after'] / r['before']:.2f} | {r.get('before cpu', 0):.1f} | "
              f"{r.get('after cpu', 0):.1f} |")


if __name__ == "__main__":
    main()

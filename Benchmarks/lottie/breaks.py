#!/usr/bin/env python3
"""Why the batches of Lottie frames break: draws, offscreen passes and the
batches by why each began (`lamina bench --json`'s `batchBreaksPerFrame`),
for one binary or two (before and after), on the project's Lottie table.

    python3 Benchmarks/lottie/breaks.py --lamina .build/release/lamina \\
        [--before OLD/lamina] [--top 12] --table > breaks.md

Counts come from the renderer's counters, not from timings: the machine
need not be quiet. Documents: as compare.py's --table (read in place).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (the document set)


def counts(lamina, path, size, frames):
    run = subprocess.run(
        [lamina, "bench", path, "--size", f"{size}x{size}", "--frames", str(frames),
         "--warmup", "5", "--json"], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        return None
    return json.loads(run.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--before")
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--rlottie-repo", default="/work/.mirror/Samsung+rlottie/repo")
    parser.add_argument("--conformance", default=os.path.join(
        HERE, "..", "..", "..", "shared", "lottie", "conformance", "data"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        documents = [(os.path.basename(f), f) for f in args.files]
        if args.table:
            documents += compare.rlottie_documents(args.rlottie_repo, folder)[0]
            documents += compare.conformance_documents(args.conformance, 0)
        rows = []
        for name, path in documents:
            now = counts(args.lamina, path, args.size, args.frames)
            was = counts(args.before, path, args.size, args.frames) if args.before else None
            if now is None:
                continue
            rows.append((was or now, name, was, now))
    rows.sort(key=lambda r: -r[0]["drawCallsPerFrame"])
    head = "| document |"
    if args.before:
        head += " draws before | offscreen before |"
    print(head + " draws | offscreen passes | batches a frame by why each began |")
    print("| --- |" + (" ---: | ---: |" if args.before else "") + " ---: | ---: | --- |")
    for _, name, was, now in rows[: args.top]:
        breaks = sorted(now.get("batchBreaksPerFrame", {}).items(), key=lambda kv: -kv[1])
        line = f"| {name} |"
        if was:
            line += f" {was['drawCallsPerFrame']:.0f} | {was['offscreenPassesPerFrame']:.1f} |"
        line += (f" {now['drawCallsPerFrame']:.1f} | {now['offscreenPassesPerFrame']:.1f} | "
                 + ", ".join(f"{k} {v:.1f}" for k, v in breaks) + " |")
        print(line)


if __name__ == "__main__":
    main()

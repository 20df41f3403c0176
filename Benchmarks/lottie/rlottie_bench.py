#!/usr/bin/env python3
"""Times rlottie (the peer: CPU, one thread) on Lottie documents, as
`lamina bench` times Lamina: the same frames at the same size.

    pip install rlottie-python
    python3 Benchmarks/lottie/rlottie_bench.py --size 1024 FILE.json [FILE.json ...]

For each document it renders 10 untimed warm-up frames, then `--frames`
timed frames looping over ip..op at the document's frame rate (frame i is
document frame ip + i, wrapping at op, the loop `lamina bench` runs on a
Lottie document), at SIZE x SIZE pixels (rlottie fits the animation
into the buffer as `lamina bench --size` does), and prints one JSON line:
file, median and p95 milliseconds per frame.
"""
import argparse
import json
import statistics
import sys
import time

try:
    from rlottie_python import LottieAnimation
except ImportError:
    sys.exit("rlottie_bench.py: pip install rlottie-python")


def bench(path, size, frames, warmup):
    anim = LottieAnimation.from_file(path)
    total = anim.lottie_animation_get_totalframe()
    if total <= 0:
        raise ValueError(f"{path}: no frames")
    times = []
    for i in range(warmup + frames):
        start = time.perf_counter()
        anim.lottie_animation_render(frame_num=i % total, width=size, height=size)
        elapsed = (time.perf_counter() - start) * 1000
        if i >= warmup:
            times.append(elapsed)
    times.sort()
    return {
        "file": path,
        "size": size,
        "frames": frames,
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 3),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=10)
    args = parser.parse_args()
    for path in args.files:
        try:
            print(json.dumps(bench(path, args.size, args.frames, args.warmup)), flush=True)
        except Exception as error:  # one bad file must not stop the table
            print(json.dumps({"file": path, "error": str(error)}), flush=True)


if __name__ == "__main__":
    main()

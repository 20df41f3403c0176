#!/usr/bin/env python3
"""Times ThorVG (the second peer: CPU software canvas) on Lottie documents,
as rlottie_bench.py times rlottie and `lamina bench` times Lamina.

    pip install thorvg-python
    python3 Benchmarks/lottie/thorvg_bench.py --size 512 --threads 0 FILE.json [...]
    python3 Benchmarks/lottie/thorvg_bench.py --size 512 --check FILE.json

For each document it renders 10 untimed warm-up frames, then `--frames`
timed frames, frame i being document frame i % totalframes (frames counted
from ip, the loop rlottie_bench.py and `lamina bench` run), at SIZE x SIZE
pixels (the picture fitted into the buffer, aspect kept, centred), and
prints one JSON line: file, median and p95 milliseconds per frame. A
document that fails prints {"file", "error"} and the next one runs.

One timed frame is: set the frame, canvas update, draw (clearing the
ARGB8888 target), sync — sync waits until the rasterizer has written every
pixel, so the frame is really rendered inside the timed region, whatever
the thread count.

--threads N: the worker threads ThorVG's task scheduler spawns besides the
calling thread (tvg_engine_init's argument). 0 (the default) rasterizes on
the calling thread only. 'defaults' uses one worker per CPU the process
may run on (the library itself has no default thread count).

--check: also counts the nonzero pixels of the last timed frame and adds
"nonzero_pixels" to the line (an empty buffer means nothing was drawn).
"""
import argparse
import json
import os
import statistics
import sys
import time

try:
    from thorvg_python import Colorspace, Engine, EngineOption, LottieAnimation, Result, SwCanvas
except ImportError:
    sys.exit("thorvg_bench.py: pip install thorvg-python")


def default_threads():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def check(result, what):
    if result != Result.SUCCESS:
        raise RuntimeError(f"{what}: {Result(result).name}")


def render(animation, canvas, frame):
    # INSUFFICIENT_CONDITION: the frame is the current one (a one-frame
    # document); ThorVG keeps the scene and the draw below still rasterizes.
    result = animation.set_frame(frame)
    if result not in (Result.SUCCESS, Result.INSUFFICIENT_CONDITION):
        raise RuntimeError(f"set_frame({frame}): {Result(result).name}")
    check(canvas.update(), "update")
    check(canvas.draw(True), "draw")
    check(canvas.sync(), "sync")


def nonzero_pixels(buffer):
    try:
        import numpy
        return int(numpy.count_nonzero(numpy.ctypeslib.as_array(buffer)))
    except ImportError:
        return sum(1 for pixel in buffer if pixel)


def bench(engine, path, size, frames, warmup, count_pixels):
    canvas = SwCanvas(engine, EngineOption.DEFAULT)  # DEFAULT: no partial (smart) redraw
    animation = LottieAnimation(engine)
    try:
        check(canvas.set_target(size, size, size, Colorspace.ARGB8888), "set_target")
        picture = animation.get_picture()
        check(picture.load(os.path.abspath(path)), f"load {path}")
        _, total = animation.get_total_frame()
        if total <= 0:
            raise ValueError(f"{path}: no frames")
        _, width, height = picture.get_size()
        if width <= 0 or height <= 0:
            raise ValueError(f"{path}: empty picture size {width}x{height}")
        scale = min(size / width, size / height)
        check(picture.set_size(width * scale, height * scale), "set_size")
        check(picture.translate((size - width * scale) / 2, (size - height * scale) / 2), "translate")
        check(canvas.add(picture), "add")
        times = []
        for i in range(warmup + frames):
            start = time.perf_counter()
            render(animation, canvas, i % total)
            elapsed = (time.perf_counter() - start) * 1000
            if i >= warmup:
                times.append(elapsed)
        times.sort()
        line = {
            "file": path,
            "size": size,
            "frames": frames,
            "median_ms": round(statistics.median(times), 3),
            "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 3),
        }
        if count_pixels:
            line["nonzero_pixels"] = nonzero_pixels(canvas.buffer_arr)
        return line
    finally:
        # The canvas holds a reference to the animation's picture: release
        # the canvas first, then the animation that owns the picture.
        canvas.destroy()
        animation._del()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--threads", default="0",
                        help="worker threads besides the caller: a number (0: none) or 'defaults'")
    parser.add_argument("--check", action="store_true",
                        help="add the nonzero pixel count of the last frame")
    args = parser.parse_args()
    threads = default_threads() if args.threads == "defaults" else int(args.threads)
    engine = Engine(threads=threads)  # the thread count is fixed by the first init
    if engine.init_result != Result.SUCCESS:
        sys.exit(f"thorvg_bench.py: engine init: {Result(engine.init_result).name}")
    for path in args.files:
        try:
            line = bench(engine, path, args.size, args.frames, args.warmup, args.check)
            line["threads"] = threads
            print(json.dumps(line), flush=True)
        except Exception as error:  # one bad file must not stop the table
            print(json.dumps({"file": path, "error": str(error)}), flush=True)


if __name__ == "__main__":
    main()

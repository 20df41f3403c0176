#!/usr/bin/env python3
"""Real Lottie files through Lamina, every frame, and against ThorVG at a few.

    python3 Benchmarks/lottie/realfiles.py --lamina .build/debug/lamina \\
        --out /tmp/realfiles --samples 3 FILE.json [FILE.json ...]

For each document:

1. Every frame: `lamina render FILE --frames all --video -` (standard
   output thrown away) with LAMINA_FRAME_BUDGET=2, so a frame that takes
   more than 2 s ends the run with the watchdog's message; a crash is a
   signal, a hang runs into --timeout. Expressions fall back to their
   keyframed values (`--expressions fallback`) so a failing one does not
   hide the rest; how many fell back is counted from the warnings.
2. At --samples frames spread over ip..op: `lamina render --frame F` and
   ThorVG (thorvg-python) at the document's size, both over black and over
   white; a pixel is off when a channel differs by more than 8/255 on
   either (the conformance measure). The PNGs stay in --out, side by side,
   to be looked at.

Prints one JSON line per document. The files are read in place and never
copied into the repository (docs/lottie.md, "Real files").
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy
from PIL import Image

try:
    from thorvg_python import Colorspace, Engine, EngineOption, LottieAnimation, Result, SwCanvas
except ImportError:
    sys.exit("realfiles.py: pip install thorvg-python")


def thorvg_frame(engine, path, frame, width, height):
    """ThorVG's frame (document frame `frame`) as premultiplied RGBA floats."""
    canvas = SwCanvas(engine, EngineOption.DEFAULT)
    animation = LottieAnimation(engine)
    try:
        result = canvas.set_target(width, height, width, Colorspace.ABGR8888)
        if result != Result.SUCCESS:
            raise RuntimeError(f"set_target: {Result(result).name}")
        picture = animation.get_picture()
        if picture.load(os.path.abspath(path)) != Result.SUCCESS:
            raise RuntimeError("ThorVG could not load it")
        _, w, h = picture.get_size()
        picture.set_size(width, height)
        canvas.add(picture)
        animation.set_frame(frame)
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        pixels = numpy.ctypeslib.as_array(canvas.buffer_arr).copy()
        rgba = pixels.view(numpy.uint8).reshape(height, width, 4).astype(numpy.float64)
        return rgba
    finally:
        canvas.destroy()
        animation._del()


def colors_255(node):
    """Divides 0-255 fill and stroke colours (`c` of `fl`, `st`; old exports)
    by 255 in place; True when there were any."""
    found = False
    if isinstance(node, dict):
        if node.get("ty") in ("fl", "st") and isinstance(node.get("c"), dict):
            k = node["c"].get("k")
            values = [k] if k and isinstance(k[0], (int, float)) else [
                f.get(key) for f in (k or []) if isinstance(f, dict) for key in ("s", "e")]
            for v in values:
                if isinstance(v, list) and any(isinstance(x, (int, float)) and x > 1 for x in v[:3]):
                    v[:] = [x / 255 if isinstance(x, (int, float)) else x for x in v]
                    found = True
        for value in node.values():
            found = colors_255(value) or found
    elif isinstance(node, list):
        for value in node:
            found = colors_255(value) or found
    return found


def lamina_frame(png):
    """Lamina's PNG (straight alpha) as premultiplied RGBA floats."""
    rgba = numpy.asarray(Image.open(png).convert("RGBA")).astype(numpy.float64)
    rgba[..., :3] *= rgba[..., 3:4] / 255
    return rgba


def off_share(a, b):
    """Share of pixels with a channel more than 8/255 apart over black or white."""
    if a.shape != b.shape:
        return 1.0
    off = numpy.zeros(a.shape[:2], dtype=bool)
    for background in (0.0, 255.0):
        ca = a[..., :3] + background * (1 - a[..., 3:4] / 255)
        cb = b[..., :3] + background * (1 - b[..., 3:4] / 255)
        off |= (numpy.abs(ca - cb) > 8).any(axis=2)
    return float(off.mean())


def every_frame(lamina, path, timeout):
    env = dict(os.environ, LAMINA_FRAME_BUDGET="2")
    start = time.monotonic()
    try:
        run = subprocess.run(
            ["nice", "-n", "10", lamina, "render", path, "--frames", "all", "--video", "-",
             "--expressions", "fallback", "--verbose"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "hang", "seconds": timeout}
    text = run.stderr.decode(errors="replace")
    line = {"status": run.returncode, "seconds": round(time.monotonic() - start, 1)}
    m = re.search(r"(\d+) frames in ([\d.]+) s: ([\d.]+) ms a frame", text)
    if m:
        line["frames"] = int(m.group(1))
        line["ms_a_frame"] = float(m.group(3))
    line["fell_back"] = len(re.findall(r"\bexpression\b[^\n]*\.x\b", text))
    if run.returncode != 0:
        line["error"] = text.strip().splitlines()[-1:] if text.strip() else []
    return line


def main():
    if len(sys.argv) == 7 and sys.argv[1] == "--thorvg-frame":
        _, _, path, frame, width, height, png = sys.argv
        engine = Engine(threads=0)
        rgba = thorvg_frame(engine, path, float(frame), int(width), int(height))
        Image.fromarray(rgba.astype(numpy.uint8), "RGBA").save(png)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--lamina", default=".build/debug/lamina")
    parser.add_argument("--out", default="/tmp/realfiles")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--no-every-frame", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for path in args.files:
        doc = json.load(open(path))
        ip, op = float(doc.get("ip", 0)), float(doc.get("op", 0))
        width, height = int(doc.get("w", 0)), int(doc.get("h", 0))
        name = os.path.splitext(os.path.basename(path))[0]
        # Old exports' 0-255 colours: Lamina reads them as lottie-web does;
        # ThorVG wraps them, so it gets a copy divided by 255 (in --out,
        # beside the file's own folder's images through a link).
        thorvg_path = path
        if colors_255(doc):
            thorvg_path = os.path.join(os.path.dirname(os.path.abspath(path)), f".{name}-thorvg.json")
            with open(thorvg_path, "w") as f:
                json.dump(doc, f)
        line = {"file": path, "size": [width, height], "frames": [ip, op]}
        if not args.no_every_frame:
            line["every_frame"] = every_frame(args.lamina, path, args.timeout)
        count = max(0, args.samples)
        frames = sorted({int(ip + (op - ip) * (i + 1) / (count + 1)) for i in range(count)})
        line["samples"] = []
        if thorvg_path != path:
            line["colors_255"] = True
        for frame in frames:
            png = os.path.join(args.out, f"{name}-{frame}-lamina.png")
            run = subprocess.run(
                ["nice", "-n", "10", args.lamina, "render", path, "--frame", str(frame), "-o", png,
                 "--expressions", "fallback", "--quiet"], capture_output=True, timeout=args.timeout)
            sample = {"frame": frame}
            if run.returncode != 0:
                sample["lamina_error"] = run.stderr.decode(errors="replace").strip()[-300:]
                line["samples"].append(sample)
                continue
            # ThorVG in a process of its own: it crashes on some files.
            theirs_png = os.path.join(args.out, f"{name}-{frame}-thorvg.png")
            try:
                run = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--thorvg-frame", thorvg_path,
                     str(frame - ip), str(width), str(height), theirs_png],
                    capture_output=True, timeout=args.timeout)
                error = None if run.returncode == 0 else (
                    run.stderr.decode(errors="replace").strip()[-200:] or f"status {run.returncode}")
            except subprocess.TimeoutExpired:
                error = "ThorVG ran past the timeout"
            if error:  # ThorVG refusing a file is a result too
                sample["thorvg_error"] = error
                line["samples"].append(sample)
                continue
            theirs = numpy.asarray(Image.open(theirs_png)).astype(numpy.float64)
            sample["off_percent"] = round(100 * off_share(lamina_frame(png), theirs), 1)
            line["samples"].append(sample)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()

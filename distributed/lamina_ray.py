#!/usr/bin/env python3
"""Renders one animation on many machines with Ray: the frames are split
into shards, each shard is a Ray task that runs `lamina batch` on a worker,
and the driver joins what the shards made, in order, into what one
`lamina render --frames` would have written (byte for byte).

    python3 distributed/lamina_ray.py render SCENE.json --frames 0..239 --fps 60 \\
        --video out.y4m --shards 8 [--address auto] [--lamina PATH]
    python3 distributed/lamina_ray.py render SCENE.json --frames 0..239 \\
        --output-dir frames [--pattern 'frame-%04d.png'] --shards 8
    python3 distributed/lamina_ray.py shard --frames 0..239 --shards 8 --index 3   # -> 120..149
    python3 distributed/lamina_ray.py join --video out.y4m part-0.y4m part-1.y4m ...

`shard` and `join` need no Ray: they are the same shard arithmetic and the
same join for other schedulers (the Kubernetes Indexed Job in k8s/ uses
them). See README.md beside this file.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# --- shards -----------------------------------------------------------------


def parse_frames(text):
    """`A..B` (inclusive) or `N`: (first, last)."""
    parts = text.split("..")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        numbers = []
    if len(parts) not in (1, 2) or len(numbers) != len(parts) or min(numbers) < 0:
        raise ValueError(f"--frames expects FIRST..LAST or N (whole numbers >= 0), got '{text}'")
    first, last = numbers[0], numbers[-1]
    if last < first:
        raise ValueError(f"--frames: the last frame ({last}) comes before the first ({first})")
    return first, last


def shard_ranges(first, last, shards):
    """Splits frames first..last into at most `shards` contiguous ranges of
    sizes differing by at most one, earlier shards the larger: shard i of n
    is always the same range, whoever computes it."""
    count = last - first + 1
    shards = max(1, min(shards, count))
    size, extra = divmod(count, shards)
    ranges = []
    start = first
    for i in range(shards):
        length = size + (1 if i < extra else 0)
        ranges.append((start, start + length - 1))
        start += length
    return ranges


# --- joining ----------------------------------------------------------------


def split_y4m(data, name="segment"):
    """A YUV4MPEG2 stream as (header line, [frames]), each frame with its
    `FRAME` line; checks that every frame has the size the header says."""
    end = data.find(b"\n")
    if end < 0 or not data.startswith(b"YUV4MPEG2 "):
        raise ValueError(f"{name}: not a YUV4MPEG2 stream")
    header = data[: end + 1]
    fields = {f[:1]: f[1:] for f in header.split()[1:]}
    width, height = int(fields[b"W"]), int(fields[b"H"])
    chroma = fields.get(b"C", b"420jpeg")
    if not chroma.startswith(b"420"):
        raise ValueError(f"{name}: only 4:2:0 streams are joined, found C{chroma.decode()}")
    frame_bytes = width * height + 2 * ((width + 1) // 2) * ((height + 1) // 2)
    frames = []
    i = end + 1
    while i < len(data):
        eol = data.find(b"\n", i)
        if eol < 0 or not data.startswith(b"FRAME", i) or eol + 1 + frame_bytes > len(data):
            raise ValueError(f"{name}: truncated or malformed frame {len(frames)}")
        frames.append(data[i : eol + 1 + frame_bytes])
        i = eol + 1 + frame_bytes
    return header, frames


def join_y4m(segments, names=None):
    """One stream from segments of the same video, in order: one header (all
    must be equal), then every segment's frames."""
    names = names or [f"segment {i}" for i in range(len(segments))]
    header = None
    out = []
    for data, name in zip(segments, names):
        h, frames = split_y4m(data, name)
        if header is None:
            header = h
            out.append(h)
        elif h != header:
            raise ValueError(f"{name}: header {h!r} differs from the first segment's {header!r}")
        out.extend(frames)
    if header is None:
        raise ValueError("no segments to join")
    return b"".join(out)


def write_atomically(path, data):
    """Writes `data` under a temporary name beside `path`, then renames it."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


PATTERN = re.compile(r"(?:[^%]|%%)*%0?[0-9]*d(?:[^%]|%%)*")


def frame_name(pattern, n):
    """The file name `lamina render -o PATTERN` gives frame n: one `%d`,
    `%Nd` (space-padded) or `%0Nd` (zero-padded); `%%` is a literal %."""
    if not PATTERN.fullmatch(pattern):
        raise ValueError(f"--pattern needs one %d (or %04d) for the frame number, got '{pattern}'")
    return pattern % n


# --- the shard task ---------------------------------------------------------


class ShardFailed(RuntimeError):
    """A shard's `lamina batch` reported its job failed (or did not run)."""


def find_lamina(name):
    """`name` as given when it is a path, else looked up on this worker's PATH."""
    if os.sep in name:
        return name
    found = shutil.which(name)
    if not found:
        raise ShardFailed(f"no '{name}' on this worker's PATH (pass --lamina PATH)")
    return found


def render_shard(lamina, scene, first, last, fps, scale, video, frames):
    """Renders frames first..last with one `lamina batch` on this machine, in
    a private folder, and returns what it wrote: the y4m segment's bytes
    (`video`) and [(frame, PNG bytes)] (`frames`), either None when not
    asked for. Runs on a Ray worker (or anywhere: other schedulers, tests)."""
    with tempfile.TemporaryDirectory(prefix="lamina-shard-") as folder:
        jobs = []
        if video:
            jobs.append(os.path.join(folder, "segment.y4m"))
        if frames:
            jobs.append(os.path.join(folder, "f-%d.png"))
        lines = []
        for output in jobs:
            job = {"scene": scene, "frames": [first, last], "output": output}
            # No rate: a Lottie document's own (fr), a scene's 60.
            if fps is not None:
                job["fps"] = fps
            if scale is not None:
                job["scale"] = scale
            lines.append(json.dumps(job))
        run = subprocess.run(
            [find_lamina(lamina), "batch", "-"],
            input=("\n".join(lines) + "\n").encode(),
            capture_output=True,
            timeout=24 * 3600,
        )
        results = [json.loads(line) for line in run.stdout.decode().splitlines() if line.strip()]
        if run.returncode != 0 or len(results) != len(jobs) or not all(r.get("ok") for r in results):
            errors = [r["error"] for r in results if "error" in r] or [run.stderr.decode().strip()]
            raise ShardFailed(
                f"frames {first}..{last}: lamina batch exited {run.returncode}: {'; '.join(errors)}")
        segment = None
        if video:
            with open(jobs[0], "rb") as f:
                segment = f.read()
        pngs = None
        if frames:
            pngs = []
            for n in range(first, last + 1):
                with open(os.path.join(folder, f"f-{n}.png"), "rb") as f:
                    pngs.append((n, f.read()))
        return segment, pngs


# --- the driver -------------------------------------------------------------


def render(args):
    """Starts (or joins) Ray, renders the shards as tasks, joins them."""
    import ray  # only the render command needs Ray

    first, last = parse_frames(args.frames)
    ranges = shard_ranges(first, last, args.shards)
    if args.output_dir:
        frame_name(args.pattern, first)  # a bad pattern fails before any work
    scene = os.path.basename(args.scene) if args.ship else os.path.abspath(args.scene)

    init = {"address": args.address, "log_to_driver": False}
    if args.address is None:
        init.update(num_cpus=args.num_cpus, include_dashboard=False)
    if args.ship:
        # The scene's folder travels with the job; workers start inside it.
        init["runtime_env"] = {"working_dir": os.path.dirname(os.path.abspath(args.scene))}
    started = time.time()
    ray.init(**init)
    try:
        gpus = args.gpus
        if gpus == "auto":
            gpus = 1 if ray.cluster_resources().get("GPU", 0) > 0 else 0
        task = ray.remote(render_shard).options(
            num_gpus=int(gpus), num_cpus=1, max_retries=args.max_retries,
            retry_exceptions=True)
        refs = [
            task.remote(args.lamina, scene, a, b, args.fps, args.scale,
                        args.video is not None, args.output_dir is not None)
            for a, b in ranges
        ]
        # Results come back in shard order, whichever finished first.
        results = ray.get(refs)
    finally:
        ray.shutdown()

    if args.video:
        names = [f"frames {a}..{b}" for a, b in ranges]
        write_atomically(args.video, join_y4m([segment for segment, _ in results], names))
    if args.output_dir:
        # Frames into one folder, each file written whole under its own name.
        for _, pngs in results:
            for n, data in pngs:
                write_atomically(os.path.join(args.output_dir, frame_name(args.pattern, n)), data)
    print(json.dumps({
        "ok": True, "video": args.video, "outputDir": args.output_dir,
        "frames": last - first + 1, "shards": len(ranges), "gpusPerTask": int(gpus),
        "seconds": round(time.time() - started, 3)}))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    r = commands.add_parser("render", help="render an animation as Ray tasks and join it")
    r.add_argument("scene", help="the scene file (on a path every worker can read, or --ship)")
    r.add_argument("--frames", required=True, help="FIRST..LAST, inclusive")
    r.add_argument("--fps", type=float, default=None,
                   help="frames per second (default: a Lottie document's fr, a scene's 60)")
    r.add_argument("--scale", type=float, default=None)
    r.add_argument("--video", help="one YUV4MPEG2 file joined from the shards")
    r.add_argument("--output-dir", help="a folder for the PNG frames (with --video too: both)")
    r.add_argument("--pattern", default="frame-%04d.png", help="PNG file names (default frame-%%04d.png)")
    r.add_argument("--shards", type=int, default=None,
                   help="how many tasks (default: the cluster's CPUs, or GPUs when it has them)")
    r.add_argument("--address", default=None,
                   help="a Ray cluster ('auto' or ray://HOST:10001); default: a local Ray")
    r.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray (default: all)")
    r.add_argument("--lamina", default=os.environ.get("LAMINA", "lamina"),
                   help="the lamina binary on the workers (default $LAMINA, else lamina on PATH)")
    r.add_argument("--gpus", default="auto", choices=["auto", "0", "1"],
                   help="GPUs per task: auto is 1 when the cluster has GPUs")
    r.add_argument("--max-retries", type=int, default=3, help="Ray retries of a failed shard")
    r.add_argument("--ship", action="store_true",
                   help="send the scene's folder to the workers (Ray runtime_env working_dir)")

    s = commands.add_parser("shard", help="print shard INDEX's frame range, FIRST..LAST")
    s.add_argument("--frames", required=True)
    s.add_argument("--shards", type=int, required=True)
    s.add_argument("--index", type=int, required=True)

    j = commands.add_parser("join", help="join y4m segments, in the order given, into one")
    j.add_argument("--video", required=True, help="the joined YUV4MPEG2 file")
    j.add_argument("segments", nargs="+")

    args = parser.parse_args(argv)
    try:
        if args.command == "shard":
            first, last = parse_frames(args.frames)
            ranges = shard_ranges(first, last, args.shards)
            if not 0 <= args.index < args.shards:
                raise ValueError(f"--index must be in 0..{args.shards - 1}, got {args.index}")
            if args.index >= len(ranges):
                return 0  # more shards than frames: this one has nothing to do
            a, b = ranges[args.index]
            print(f"{a}..{b}")
            return 0
        if args.command == "join":
            segments = []
            for path in args.segments:
                with open(path, "rb") as f:
                    segments.append(f.read())
            write_atomically(args.video, join_y4m(segments, args.segments))
            return 0
        if not args.video and not args.output_dir:
            raise ValueError("render needs --video OUT.y4m, --output-dir DIR, or both")
        if args.shards is None:
            args.shards = 0
        if args.shards < 0:
            raise ValueError("--shards must be at least 1")
        if args.shards == 0:
            args.shards = default_shards(args)
        return render(args)
    except (ValueError, OSError) as error:
        print(f"lamina_ray: {error}", file=sys.stderr)
        return 2 if isinstance(error, ValueError) else 1
    except Exception as error:  # a shard that failed past its retries
        print(f"lamina_ray: {error}", file=sys.stderr)
        return 1


def default_shards(args):
    """One shard per CPU (or GPU) the cluster will have: the local Ray's
    --num-cpus, else this machine's cores; on a cluster, 4 per node is a
    reasonable start, so pass --shards there."""
    if args.address is None:
        return args.num_cpus or os.cpu_count() or 1
    return 8


if __name__ == "__main__":
    sys.exit(main())

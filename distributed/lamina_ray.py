#!/usr/bin/env python3
"""Renders one animation on many machines with Ray: the frames are split
into shards, each shard is a Ray task that runs `lamina batch` on a worker,
and the driver joins what the shards made, in order, into what one
`lamina render --frames` would have written: byte for byte for PNG frames
and y4m; for MP4, WebM and MOV the shards' segments joined without
re-encoding (ffmpeg's concat demuxer; each segment starts on a keyframe);
for GIF and APNG the shards' PNG frames encoded once.

    python3 distributed/lamina_ray.py render SCENE.json --frames 0..239 --fps 60 \\
        --video out.mp4 [--codec NAME] [--crf N | --bitrate R] --shards 8 \\
        [--address auto] [--lamina PATH]
    python3 distributed/lamina_ray.py render SCENE.json --frames 0..239 \\
        --output-dir frames [--pattern 'frame-%04d.png'] --shards 8
    python3 distributed/lamina_ray.py shard --frames 0..239 --shards 8 --index 3   # -> 120..149

    python3 distributed/lamina_ray.py join --video out.y4m part-0.y4m part-1.y4m ...
    python3 distributed/lamina_ray.py join --video out.mp4 part-0.mp4 part-1.mp4 ...

The scene reads only files in its own folder and below unless `--assets
DIR` (repeatable) or `--allow-any-path` say more, as with `lamina`;
`--output-root DIR` confines `--video` and `--output-dir` to DIR.

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


# --- encoded video -----------------------------------------------------------

# The video formats `lamina render --video` writes, by extension.
VIDEO_FORMATS = ("y4m", "mp4", "webm", "gif", "apng", "mov")
# Joined from segments without re-encoding (each starts on a keyframe).
SEGMENTED = ("mp4", "webm", "mov")
# Encoded once from the shards' PNG frames (a palette, or one lossless stream).
FROM_FRAMES = ("gif", "apng")
# What lamina's VideoEncoder does for a GIF (Sources/LaminaRender/Output/
# VideoEncoder.swift); kept equal so that a joined GIF is the one-machine GIF.
MAX_PALETTE_SAMPLE = 32


def video_format(path):
    """The format a video path's extension names, as lamina reads it."""
    name = os.path.basename(path)
    ext = name.rsplit(".", 1)[1].lower() if "." in name else ""
    if ext not in VIDEO_FORMATS:
        known = ", ".join("." + f for f in VIDEO_FORMATS)
        what = f"has the unknown extension '.{ext}'" if ext else "has no extension"
        raise ValueError(f"{path}: the video {what}; lamina writes {known}")
    return ext


def palette_sample(count):
    """The frames (0-based) a GIF's palette is chosen from: at most
    MAX_PALETTE_SAMPLE, evenly spread from the first to the last."""
    n = min(count, MAX_PALETTE_SAMPLE)
    if n <= 1:
        return [0] if count > 0 else []
    return [i * (count - 1) // (n - 1) for i in range(n)]


def rational(fps):
    """`fps` as NUM/DEN, as lamina gives it to ffmpeg (29.97 -> 30000/1001)."""
    if fps == round(fps):
        return f"{int(fps)}/1"
    for den in (1001, 1000, 100, 10):
        num = fps * den
        if round(num) >= 1 and abs(num - round(num)) < 1e-6 * num:
            return f"{int(round(num))}/{den}"
    return f"{int(round(fps * 1000))}/1000"


def ffmpeg_program():
    found = os.environ.get("LAMINA_FFMPEG") or shutil.which("ffmpeg")
    if not found:
        raise ValueError("joining encoded video needs ffmpeg (scripts/install-deps.sh installs it)")
    return found


def run_ffmpeg(arguments, what):
    run = subprocess.run([ffmpeg_program(), "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                          *arguments], capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"{what}: ffmpeg failed: {run.stderr.decode().strip()[-2000:]}")
    return run.stdout


def temporary_beside(path):
    """A new hidden file name beside `path`, for a write that is renamed,
    with the permissions a new file gets (mkstemp's are owner-only)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)
    return temporary


def produce_atomically(path, make):
    """Calls make(temporary) to write the file, then renames it to `path`;
    on any failure the temporary goes and `path` is untouched."""
    temporary = temporary_beside(path)
    try:
        make(temporary)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def has_alpha_mode(segment):
    """True when a WebM segment says its VP9 carries alpha."""
    ffprobe = os.path.join(os.path.dirname(ffmpeg_program()), "ffprobe")
    run = subprocess.run([ffprobe if os.path.exists(ffprobe) else "ffprobe", "-v", "error",
                          "-show_entries", "stream_tags=alpha_mode", "-of", "csv=p=0", segment],
                         capture_output=True)
    return run.stdout.decode().strip() == "1"


def join_segments(segments, output):
    """Joins MP4, WebM or MOV segments of one video, in order, into
    `output` without re-encoding: ffmpeg's concat demuxer, which offsets
    each segment's timestamps by the durations before it."""
    fmt = video_format(output)
    if fmt not in SEGMENTED:
        raise ValueError(f"{output}: only {', '.join(SEGMENTED)} segments are joined as they are")
    for segment in segments:
        if video_format(segment) != fmt:
            raise ValueError(f"{segment}: not a .{fmt} segment")
    with tempfile.TemporaryDirectory(prefix="lamina-join-") as folder:
        listing = os.path.join(folder, "segments.txt")
        with open(listing, "w") as f:
            for segment in segments:
                quoted = os.path.abspath(segment).replace("'", "'\\''")
                f.write(f"file '{quoted}'\n")
        extra = []
        if fmt == "mp4":
            extra = ["-movflags", "+faststart"]
        if fmt == "webm" and has_alpha_mode(segments[0]):
            extra = ["-metadata:s:v:0", "alpha_mode=1"]
        produce_atomically(output, lambda temporary: run_ffmpeg(
            ["-f", "concat", "-safe", "0", "-i", listing, "-map", "0:v", "-c", "copy", *extra,
             "-f", {"mp4": "mp4", "webm": "webm", "mov": "mov"}[fmt], "file:" + temporary],
            f"joining {output}"))


def encode_frames(pattern, first, count, fps, output, transparent):
    """Encodes PNG frames `first`..`first + count - 1` (file names by the
    printf `pattern`) once into a GIF or APNG at `output`, as lamina would:
    APNG lossless with alpha; GIF with a palette chosen from a sample of
    the frames (palettegen holds statistics, not frames), dithered."""
    fmt = video_format(output)
    rate = rational(fps)
    source = ["-framerate", rate, "-start_number", str(first), "-i", "file:" + pattern]
    if fmt == "apng":
        produce_atomically(output, lambda temporary: run_ffmpeg(
            [*source, "-frames:v", str(count), "-c:v", "apng", "-pix_fmt", "rgba", "-plays", "0",
             "-pred", "mixed", "-f", "apng", "file:" + temporary], f"encoding {output}"))
        return
    if fmt != "gif":
        raise ValueError(f"{output}: only GIF and APNG are encoded from frames")
    reserve = "1" if transparent else "0"
    with tempfile.TemporaryDirectory(prefix="lamina-palette-") as folder:
        # The sample, as links s-0.png, s-1.png, ... to the frames.
        for i, index in enumerate(palette_sample(count)):
            os.symlink(os.path.abspath(pattern % (first + index)),
                       os.path.join(folder, f"s-{i}.png"))
        palette = os.path.join(folder, "palette.png")
        pixel = "rgba" if transparent else "rgb0"
        run_ffmpeg(["-framerate", rate, "-i", "file:" + os.path.join(folder, "s-%d.png"), "-vf",
                    f"format={pixel},palettegen=stats_mode=full:reserve_transparent={reserve}",
                    "-frames:v", "1", "-update", "1", "-f", "image2", "-c:v", "png",
                    "file:" + palette], f"choosing the palette of {output}")
        use = "paletteuse=dither=sierra2_4a" + (":alpha_threshold=128" if transparent else "")
        produce_atomically(output, lambda temporary: run_ffmpeg(
            [*source, "-i", "file:" + palette, "-frames:v", str(count), "-filter_complex",
             f"[0:v]format={pixel}[v];[v][1:v]{use}", "-loop", "0", "-f", "gif",
             "file:" + temporary], f"encoding {output}"))


def png_has_transparency(data):
    """True when a PNG (as lamina writes them) has a pixel that is not opaque."""
    run = subprocess.run([ffmpeg_program(), "-v", "error", "-f", "png_pipe", "-i", "-",
                          "-f", "rawvideo", "-pix_fmt", "rgba", "-"], input=data,
                         capture_output=True, check=True)
    return any(a != 255 for a in run.stdout[3::4])


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


def render_shard(lamina, scene, first, last, fps, scale, video, frames, encoding=None, access=()):
    """Renders frames first..last with one `lamina batch` on this machine, in
    a private folder, and returns what it wrote: the video segment's bytes
    (`video`: True or "y4m" for YUV4MPEG2, else "mp4", "webm" or "mov",
    encoded with `encoding`, a dict of codec, crf, bitrate) and
    [(frame, PNG bytes)] (`frames`), either None when not asked for.
    `access`: lamina's `--assets DIR` / `--allow-any-path` options, passed
    through. Runs on a Ray worker (or anywhere: other schedulers, tests)."""
    if video is True:
        video = "y4m"
    with tempfile.TemporaryDirectory(prefix="lamina-shard-") as folder:
        jobs = []
        if video:
            jobs.append(os.path.join(folder, "segment." + video))
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
            if video and output == jobs[0]:
                job.update({k: v for k, v in (encoding or {}).items() if v is not None})
            lines.append(json.dumps(job))
        run = subprocess.run(
            [find_lamina(lamina), "batch", "-", "--output-root", folder, *access],
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


def access_options(args):
    """`--assets DIR`... and `--allow-any-path` for the shards' `lamina
    batch` (folders made absolute: workers start elsewhere)."""
    options = []
    for folder in args.assets or []:
        if not os.path.isdir(folder):
            raise ValueError(f"--assets: '{folder}' is not a folder")
        options += ["--assets", os.path.abspath(folder)]
    if args.allow_any_path:
        options.append("--allow-any-path")
    return options


def inside_root(path, root):
    """Whether writing `path` stays inside the folder `root`: its real
    folder (links resolved) lies in root's, and the name itself is no link."""
    real_root = os.path.realpath(root)
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    if os.path.islink(path):
        return False
    return os.path.commonpath([real_root, folder]) == real_root


def check_output_root(args):
    """`--output-root DIR`: --video and --output-dir must lie in DIR."""
    if args.output_root is None:
        return
    if not os.path.isdir(args.output_root):
        raise ValueError(f"--output-root: '{args.output_root}' is not a folder")
    for flag, path in (("--video", args.video), ("--output-dir", args.output_dir)):
        if path is None:
            continue
        target = path if flag == "--video" else os.path.join(path, "x")
        if not inside_root(target, args.output_root):
            raise ValueError(
                f"{flag}: cannot write '{path}': not inside --output-root {args.output_root}"
                " (no absolute paths elsewhere, no '..' or links that lead out)")


def render(args):
    """Starts (or joins) Ray, renders the shards as tasks, joins them."""
    first, last = parse_frames(args.frames)
    check_output_root(args)
    access = access_options(args)
    import ray  # only the render command needs Ray

    ranges = shard_ranges(first, last, args.shards)
    if args.output_dir:
        frame_name(args.pattern, first)  # a bad pattern fails before any work
    # The format (and ffmpeg, to join) before any work; GIF and APNG come
    # from the shards' PNG frames, the others as segments.
    fmt = video_format(args.video) if args.video else None
    if fmt and fmt != "y4m":
        ffmpeg_program()
    encoding = {"codec": args.codec, "crf": args.crf, "bitrate": args.bitrate}
    if fmt in (None, "y4m") and any(v is not None for v in encoding.values()):
        raise ValueError("--codec, --crf and --bitrate go with an encoded --video (.mp4, ...)")
    segment = fmt if fmt in ("y4m",) + SEGMENTED else None
    want_frames = args.output_dir is not None or fmt in FROM_FRAMES
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
                        segment, want_frames, encoding, access)
            for a, b in ranges
        ]
        # Results come back in shard order, whichever finished first.
        results = ray.get(refs)
    finally:
        ray.shutdown()

    if args.video:
        finish_video(args.video, ranges, results, args.fps)
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


def finish_video(video, ranges, results, fps):
    """Joins the shards' results into the one video at `video`: y4m
    segments by concatenation, MP4/WebM/MOV segments by ffmpeg's concat
    demuxer (no re-encoding), GIF/APNG by encoding the PNG frames once.
    `results` are render_shard's, in shard order."""
    fmt = video_format(video)
    if fmt == "y4m":
        names = [f"frames {a}..{b}" for a, b in ranges]
        write_atomically(video, join_y4m([segment for segment, _ in results], names))
        return
    with tempfile.TemporaryDirectory(prefix="lamina-join-") as folder:
        if fmt in SEGMENTED:
            paths = []
            for i, (segment, _) in enumerate(results):
                paths.append(os.path.join(folder, f"part-{i:04d}.{fmt}"))
                with open(paths[-1], "wb") as f:
                    f.write(segment)
            join_segments(paths, video)
            return
        first = ranges[0][0]
        count = ranges[-1][1] - first + 1
        transparent = False
        sample = {first + i for i in palette_sample(count)}
        for _, pngs in results:
            for n, data in pngs:
                with open(os.path.join(folder, f"f-{n}.png"), "wb") as f:
                    f.write(data)
                if fmt == "gif" and n in sample and not transparent:
                    transparent = png_has_transparency(data)
        encode_frames(os.path.join(folder, "f-%d.png"), first, count, fps, video, transparent)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    r = commands.add_parser("render", help="render an animation as Ray tasks and join it")
    r.add_argument("scene", help="the scene file (on a path every worker can read, or --ship)")
    r.add_argument("--frames", required=True, help="FIRST..LAST, inclusive")
    r.add_argument("--fps", type=float, default=None,
                   help="frames per second (default: a Lottie document's fr, a scene's 60)")
    r.add_argument("--scale", type=float, default=None)
    r.add_argument("--video", help="one video joined from the shards: .mp4, .webm, .mov, .gif,"
                   " .apng or .y4m, as lamina render --video")
    r.add_argument("--codec", help="the ffmpeg encoder of the segments (lamina render --codec)")
    r.add_argument("--crf", type=int, help="the segments' quality (lamina render --crf)")
    r.add_argument("--bitrate", help="the segments' bitrate (lamina render --bitrate)")
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
    r.add_argument("--assets", action="append", metavar="DIR",
                   help="let the scene read files in DIR too (repeatable; a path every"
                        " worker can read); by default only its own folder and below")
    r.add_argument("--allow-any-path", action="store_true",
                   help="let the scene read any file (trusted input only)")
    r.add_argument("--output-root", metavar="DIR",
                   help="--video and --output-dir must lie in DIR (links resolved)")

    s = commands.add_parser("shard", help="print shard INDEX's frame range, FIRST..LAST")
    s.add_argument("--frames", required=True)
    s.add_argument("--shards", type=int, required=True)
    s.add_argument("--index", type=int, required=True)

    j = commands.add_parser(
        "join", help="join y4m, mp4, webm or mov segments, in the order given, into one")
    j.add_argument("--video", required=True, help="the joined file (the segments' format)")
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
            if video_format(args.video) != "y4m":
                join_segments(args.segments, args.video)
                return 0
            segments = []
            for path in args.segments:
                with open(path, "rb") as f:
                    segments.append(f.read())
            write_atomically(args.video, join_y4m(segments, args.segments))
            return 0
        if not args.video and not args.output_dir:
            raise ValueError("render needs --video OUT.mp4 (or .webm, .mov, .gif, .apng, .y4m),"
                             " --output-dir DIR, or both")
        if args.shards is None:
            args.shards = 0
        if args.shards < 0:
            raise ValueError("--shards must be at least 1")
        if args.shards == 0:
            args.shards = default_shards(args)
        return render(args)
    except (ValueError, OSError, RuntimeError) as error:
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

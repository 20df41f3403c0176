#!/usr/bin/env python3
"""Soak tests: does memory stay flat over a million frames or an hour of kiosk?

  scripts/soak.py render [--frames 1000000] [--scene Benchmarks/scenes/particles.json] [--scale 0.2]
      `lamina render SCENE --frames 0..N-1 --scale S --video -`, its standard
      output read and thrown away by this script (a pipe, not a file), the
      process's resident memory sampled every --interval seconds.

  scripts/soak.py show [--duration 3600] [--scene Benchmarks/scenes/kiosk.json] [--reload-every 0.36]
      weston's headless backend (as the tests start it) and `lamina show
      SCENE --stats` on it for --duration seconds, resident memory sampled;
      with --reload-every the scene file is replaced that often (two
      versions in turn: 10,000 reloads an hour at 0.36 s), so reloads soak too.

Both print one line per sample (seconds, frames so far, RSS MB), then a
summary: the samples' count, first and last RSS, the peak, and the slope of
a least-squares line through the samples after the first --warmup fraction
(MB per hour, and for render MB per 100,000 frames), with a verdict: flat
when the fitted growth over the whole run is under --flat-mb. The last line
is the summary as JSON, for Benchmarks/results.md.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def slope(points):
    """Least-squares slope of (x, y) points, or 0 for fewer than two."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    if sxx == 0:
        return 0.0
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx


def summarize(kind, samples, args, extra):
    """samples: (seconds, frames, rss)."""
    # Start-up (before the first frame, and the first --warmup of the run)
    # fills caches once; the slope is over what follows.
    started = [x for x in samples if x[1] is None or x[1] > 0]
    kept = started[max(1, int(len(started) * args.warmup)):] or started or samples
    per_second = slope([(s[0], s[2]) for s in kept])
    summary = {
        "kind": kind, "scene": os.path.relpath(args.scene, ROOT), "samples": len(samples),
        "seconds": round(samples[-1][0], 1) if samples else 0,
        "frames": samples[-1][1] if samples else 0,
        "rss_first_mb": round(samples[0][2], 1) if samples else 0,
        "rss_last_mb": round(samples[-1][2], 1) if samples else 0,
        "rss_peak_mb": round(max(s[2] for s in samples), 1) if samples else 0,
        "slope_mb_per_hour": round(per_second * 3600, 3),
    }
    frames = [(s[1], s[2]) for s in kept if s[1] is not None]
    if kind == "render" and len(frames) > 1:
        summary["slope_mb_per_100k_frames"] = round(slope(frames) * 100000, 3)
    duration = kept[-1][0] - kept[0][0] if len(kept) > 1 else 0
    summary["fitted_growth_mb"] = round(per_second * duration, 2)
    summary["flat"] = abs(summary["fitted_growth_mb"]) < args.flat_mb
    summary.update(extra)
    print("samples %d, RSS %.1f → %.1f MB (peak %.1f), slope %.3f MB/hour%s, fitted growth %.2f MB: %s"
          % (summary["samples"], summary["rss_first_mb"], summary["rss_last_mb"], summary["rss_peak_mb"],
             summary["slope_mb_per_hour"],
             (", %.3f MB per 100k frames" % summary["slope_mb_per_100k_frames"])
             if "slope_mb_per_100k_frames" in summary else "",
             summary["fitted_growth_mb"], "flat" if summary["flat"] else "NOT flat"))
    print(json.dumps(summary))
    return 0 if summary["flat"] else 1


def soak_render(args):
    counted = {"bytes": 0, "frames": 0}
    cmd = [args.binary, "render", args.scene, "--frames", "0..%d" % (args.frames - 1),
           "--fps", str(args.fps), "--scale", str(args.scale), "--video", "-"]
    print("running: " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)

    def read():
        header = b""
        header_length = None
        frame_bytes = None
        while True:
            chunk = proc.stdout.read(1 << 20)
            if not chunk:
                return
            counted["bytes"] += len(chunk)
            if header_length is None:
                header += chunk[:4096]
                if b"\n" in header:
                    line = header.split(b"\n")[0].decode()
                    header_length = len(line) + 1
                    w = int([f for f in line.split() if f.startswith("W")][0][1:])
                    h = int([f for f in line.split() if f.startswith("H")][0][1:])
                    frame_bytes = 6 + w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
            if frame_bytes:
                counted["frames"] = (counted["bytes"] - header_length) // frame_bytes
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    errors = []
    err_reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    err_reader.start()
    samples = []
    start = time.time()
    try:
        while proc.poll() is None:
            rss = rss_mb(proc.pid)
            if rss is not None:
                t = time.time() - start
                samples.append((t, counted["frames"], rss))
                print("%9.1f s %10d frames %8.1f MB" % (t, counted["frames"], rss), flush=True)
            if args.duration and time.time() - start > args.duration:
                proc.send_signal(signal.SIGTERM)
                break
            time.sleep(args.interval)
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGTERM)
    proc.wait()
    reader.join(5)
    err_reader.join(5)
    stderr = (errors[0] if errors else b"").decode("utf-8", "replace").strip()
    print("lamina exited %d after %d frames (%.0f fps)%s" % (
        proc.returncode, counted["frames"], counted["frames"] / max(1e-9, time.time() - start),
        (": " + stderr[-500:]) if stderr else ""))
    return summarize("render", samples, args, {"exit_status": proc.returncode,
                                               "frames_read": counted["frames"], "stderr": stderr[-500:]})


def soak_show(args):
    weston = shutil.which("weston")
    if not weston:
        print("soak: weston is not installed (scripts/install-deps.sh)", file=sys.stderr)
        return 2
    runtime = tempfile.mkdtemp(prefix="lamina-soak-")
    os.chmod(runtime, 0o700)
    socket = "lamina-soak-%d" % os.getpid()
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY=socket)
    compositor = subprocess.Popen(
        [weston, "--backend=headless-backend.so", "--use-pixman", "--width=%d" % args.width,
         "--height=%d" % args.height, "--socket=%s" % socket, "--idle-time=0", "--no-config",
         "--log=%s" % os.path.join(runtime, "weston.log")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 15
    while not os.path.exists(os.path.join(runtime, socket)):
        if time.time() > deadline or compositor.poll() is not None:
            print("soak: weston did not start", file=sys.stderr)
            compositor.kill()
            return 2
        time.sleep(0.05)
    scene = os.path.join(runtime, "kiosk.json")
    with open(args.scene) as f:
        doc = json.load(f)
    # The copy's images are found where the original's are.
    base = os.path.dirname(args.scene)
    for key, value in (doc.get("images") or {}).items():
        if isinstance(value, str) and not value.startswith("/"):
            doc["images"][key] = os.path.join(base, value)
    original = json.dumps(doc)
    # The second version differs in size (a trailing space), so each write is a change.
    versions = [original, original + " "]
    with open(scene, "w") as f:
        f.write(versions[0])
    log_path = os.path.join(runtime, "show.log")
    log = open(log_path, "w")
    show = subprocess.Popen([args.binary, "show", scene, "--stats"], env=env,
                            stdout=subprocess.DEVNULL, stderr=log)
    samples = []
    reloads = 0
    start = time.time()
    next_reload = start + (args.reload_every or 0)
    last_sample = 0.0
    try:
        while show.poll() is None and time.time() - start < args.duration:
            now = time.time()
            if args.reload_every and now >= next_reload:
                reloads += 1
                staged = scene + ".tmp"
                with open(staged, "w") as f:
                    f.write(versions[reloads % 2])
                os.rename(staged, scene)
                next_reload = now + args.reload_every
            if now - last_sample >= args.interval:
                rss = rss_mb(show.pid)
                if rss is not None:
                    t = now - start
                    samples.append((t, None, rss))
                    print("%9.1f s %8d reloads %8.1f MB" % (t, reloads, rss), flush=True)
                last_sample = now
            time.sleep(min(0.05, args.reload_every or 0.05))
    except KeyboardInterrupt:
        pass
    running = show.poll() is None
    show.send_signal(signal.SIGTERM)
    try:
        show.wait(15)
    except subprocess.TimeoutExpired:
        show.kill()
        show.wait()
    compositor.terminate()
    compositor.wait()
    log.close()
    with open(log_path) as f:
        text = f.read()
    shutil.rmtree(runtime, ignore_errors=True)
    stats = [l for l in text.splitlines() if "stats:" in l]
    presented = [l for l in text.splitlines() if "presented" in l]
    reloaded = text.count("reloaded ")
    if not running:
        print(text[-2000:])
    print("lamina show %s; %d reloads written, %d reported reloaded; %s" % (
        "ran to the end" if running else "EXITED EARLY (status %s)" % show.returncode,
        reloads, reloaded, (presented or stats or ["no statistics"])[-1]))
    code = summarize("show", samples, args, {
        "ran_to_the_end": running, "reloads_written": reloads, "reloads_reported": reloaded,
        "last_stats": (stats or [""])[-1][-300:]})
    return code if running else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for name in ("render", "show"):
        p = sub.add_parser(name)
        p.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "lamina"))
        p.add_argument("--scene", default=os.path.join(
            ROOT, "Benchmarks", "scenes", "particles.json" if name == "render" else "kiosk.json"))
        p.add_argument("--interval", type=float, default=10, help="seconds between RSS samples")
        p.add_argument("--warmup", type=float, default=0.1, help="fraction of samples left out of the slope")
        p.add_argument("--flat-mb", type=float, default=5, help="fitted growth below which memory is flat")
    r = sub.choices["render"]
    r.add_argument("--frames", type=int, default=1000000)
    r.add_argument("--fps", type=float, default=60)
    r.add_argument("--scale", type=float, default=0.2)
    r.add_argument("--duration", type=float, help="stop after this many seconds (a trial)")
    s = sub.choices["show"]
    s.add_argument("--duration", type=float, default=3600)
    s.add_argument("--reload-every", type=float, help="replace the scene file every so many seconds")
    s.add_argument("--width", type=int, default=320)
    s.add_argument("--height", type=int, default=240)
    args = parser.parse_args()
    args.scene = os.path.abspath(args.scene)
    if not os.access(args.binary, os.X_OK):
        print("soak: no lamina at %s (swift build -c release --product lamina)" % args.binary, file=sys.stderr)
        return 2
    return soak_render(args) if args.mode == "render" else soak_show(args)


if __name__ == "__main__":
    sys.exit(main())

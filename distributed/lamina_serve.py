#!/usr/bin/env python3
"""A render service on Ray Serve: scenes and Lottie documents in over HTTP,
PNG frames and videos out, from replicas that each keep one warm
`lamina batch -` process and send it jobs on its standard input.

    python3 distributed/lamina_serve.py --port 8000 [--host 127.0.0.1] [--lamina PATH]
        [--num-replicas N | --min-replicas A --max-replicas B] [--gpus auto|0|1]
    serve run distributed.lamina_serve:app                    # defaults, from the root
    serve run distributed.lamina_serve:build_app lamina=/path/lamina num_replicas=4

    POST /render    a job ({"scene": {...}, "time": 1.5, "format": "png"}) or a bare
                    document (scene or Lottie JSON, dotLottie or .tgs bytes) with the
                    options as query parameters: the PNG or video's bytes
    POST /info      what `lamina info --json` says of a document
    GET  /healthz   {"ok": true, ...} while the replica's worker runs
    GET  /metrics   requests, errors by kind, frames, queue depth, frame time
                    percentiles, replica memory (Prometheus text format)

Requests are untrusted: the body, canvas, frame count and total pixels are
checked before any work, every job has a time budget, and a scene reads no
file outside its own upload (an empty folder; `lamina batch
--scene-root/--output-root`). A request over a limit gets 413 (the body) or
422 with the limit's name; a full queue 503 with Retry-After. See
docs/servers.md, "A render service".
"""

import argparse
import collections
import concurrent.futures
import glob
import itertools
import json
import math
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

# --- the API, without Ray ----------------------------------------------------

# Output formats, their file extension and content type.
FORMATS = {
    "png": ("png", "image/png"),
    "mp4": ("mp4", "video/mp4"),
    "webm": ("webm", "video/webm"),
    "gif": ("gif", "image/gif"),
    "apng": ("apng", "image/apng"),
    "mov": ("mov", "video/quicktime"),
    "y4m": ("y4m", "video/x-yuv4mpeg2"),
}
# The job keys a request may give (`lamina batch` reads them); `base` and
# `output` are the service's own.
OPTION_KEYS = (
    "time", "frame", "frames", "marker", "fps", "scale", "background", "quiet",
    "codec", "crf", "bitrate",
)
NUMBER_OPTIONS = ("time", "frame", "fps", "scale", "crf")
REQUEST_KEYS = ("scene", "format") + OPTION_KEYS


class Limits:
    """What one request may ask for; each is checked before any work, and
    a request over one is answered with its name."""

    def __init__(self, max_body_bytes=32 << 20, max_canvas_pixels=1 << 24, max_frames=600,
                 max_total_pixels=1 << 30, time_budget_s=60.0):
        # The body: a scene or Lottie document, or a dotLottie archive (as
        # lamina's own maxSceneFileBytes).
        self.maxBodyBytes = int(max_body_bytes)
        # One frame's pixels (width × height × scale²).
        self.maxCanvasPixels = int(max_canvas_pixels)
        # Frames of one request.
        self.maxFrames = int(max_frames)
        # Frames × pixels of one request.
        self.maxTotalPixels = int(max_total_pixels)
        # Seconds a job may render before its worker is ended and restarted.
        self.timeBudget = float(time_budget_s)

    def as_dict(self):
        return dict(vars(self))


class RequestError(Exception):
    """A request answered with an error: the HTTP status, the message, the
    kind (for the metrics) and, when a limit refused it, the limit's name."""

    def __init__(self, status, message, kind, limit=None, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        self.limit = limit
        self.headers = headers or {}

    def body(self):
        out = {"error": self.message, "kind": self.kind}
        if self.limit:
            out["limit"] = self.limit
        return json.dumps(out).encode()


def bad(message, kind="bad_request", status=422):
    return RequestError(status, message, kind)


def over(limit, message, status=422):
    return RequestError(status, message, "limit", limit=limit)


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} does not fit a double")
    return value


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def parse_json(body, what="the body"):
    """The JSON value of `body`; NaN, infinities and numbers past a double
    are refused as lamina refuses them."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise bad(f"{what}: not UTF-8 (byte {e.start})", status=400)
    try:
        return json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise bad(f"{what}: line {e.lineno} column {e.colno}: {e.msg}", status=400)
    except ValueError as e:
        raise bad(f"{what}: {e}", status=400)
    except RecursionError:
        raise bad(f"{what}: nested too deeply", status=400)


def document_kind(body):
    """'json', 'lottie' (a dotLottie zip) or 'tgs' (gzip) by content."""
    head = body.lstrip()[:1]
    if head in (b"{", b"["):
        return "json"
    if body.startswith(b"PK\x03\x04"):
        return "lottie"
    if body.startswith(b"\x1f\x8b"):
        return "tgs"
    raise RequestError(415, "the body is neither a JSON job or document, nor a dotLottie"
                       " (.lottie) or .tgs file", "bad_request")


def query_options(query):
    """Job options from query parameters (strings), typed as a job's keys."""
    options = {}
    for key, value in query.items():
        if key == "format":
            options[key] = value
        elif key not in OPTION_KEYS:
            raise bad(f"unknown query parameter '{key}' (a render takes"
                      f" {', '.join(('format',) + OPTION_KEYS)})")
        elif key in NUMBER_OPTIONS:
            try:
                options[key] = _finite_float(value)
            except ValueError:
                raise bad(f"{key}: expected a number, found '{value[:64]}'")
            if key == "crf" and options[key] == int(options[key]):
                options[key] = int(options[key])
        elif key == "quiet":
            if value not in ("true", "false"):
                raise bad(f"quiet: expected true or false, found '{value[:64]}'")
            options[key] = value == "true"
        elif key == "frames":
            parts = value.split(",")
            options[key] = value if len(parts) == 1 else [_int_or(p) for p in parts]
        else:
            options[key] = value
    return options


def _int_or(text):
    try:
        return int(text)
    except ValueError:
        return text


class Render:
    """A render request read: the document (a JSON value, or bytes with the
    file extension lamina reads them by), the job options and the format."""

    def __init__(self, document, options, fmt, upload_ext=None):
        self.document = document
        self.options = options
        self.format = fmt
        self.upload_ext = upload_ext


def read_render(body, query):
    """A POST /render body and its query parameters, read into a `Render`;
    `RequestError` for what is malformed."""
    kind = document_kind(body)
    if kind != "json":
        options = query_options(query)
        fmt = options.pop("format", "png")
        return _checked(Render(body, options, fmt, upload_ext=kind))
    value = parse_json(body)
    if not isinstance(value, dict):
        raise bad(f"the body: expected a job or a document object, found {_kind(value)}")
    if "scene" in value:
        if query:
            raise bad("options go in the job or in the query, not both (query: "
                      + ", ".join(sorted(query)) + ")")
        for key in value:
            if key in ("base", "output"):
                raise bad(f"{key}: the service chooses where files go; a request names"
                          " a 'format'")
            if key not in REQUEST_KEYS:
                raise bad(f"unknown key '{key}' (a render request has"
                          f" {', '.join(REQUEST_KEYS)})")
        scene = value["scene"]
        if not isinstance(scene, dict):
            raise bad("scene: expected a scene or Lottie object inline, found "
                      + (_kind(scene) + " (the service reads no file paths)"
                         if isinstance(scene, str) else _kind(scene)))
        options = {k: v for k, v in value.items() if k not in ("scene", "format")}
        fmt = value.get("format", "png")
        return _checked(Render(scene, options, fmt))
    options = query_options(query)
    fmt = options.pop("format", "png")
    return _checked(Render(value, options, fmt))


def _checked(render):
    if not isinstance(render.format, str) or render.format.lower() not in FORMATS:
        raise bad(f"format: expected one of {', '.join(FORMATS)}, found"
                  f" {json.dumps(render.format)[:64]}")
    render.format = render.format.lower()
    sequence = "frames" in render.options or "marker" in render.options
    if render.format == "png" and sequence:
        raise bad("format: a png is one frame; frames go to a video format"
                  " (mp4, webm, gif, apng, mov, y4m)")
    if render.format != "png" and not sequence:
        raise bad(f"frames: a {render.format} video needs 'frames' (or 'marker')")
    return render


def _kind(value):
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def document_facts(document):
    """(width, height, scale, lottie) of a JSON document as lamina would
    read them, or None where the document does not say (lamina's own
    checks answer those). `lottie`: (ip, op, fr, markers) of a Lottie one."""
    if not isinstance(document, dict):
        return None
    if "lamina" in document:
        canvas = document.get("canvas")
        if not isinstance(canvas, dict):
            return None
        w, h = _number(canvas.get("width")), _number(canvas.get("height"))
        s = _number(canvas.get("scale", 1))
        if w is None or h is None or s is None:
            return None
        return w, h, s, None
    w, h = _number(document.get("w")), _number(document.get("h"))
    if w is None or h is None:
        return None
    ip, op, fr = (_number(document.get(k)) for k in ("ip", "op", "fr"))
    markers = {}
    for m in document.get("markers") or []:
        if isinstance(m, dict) and isinstance(m.get("cm"), str):
            markers[m["cm"]] = (_number(m.get("tm")) or 0, _number(m.get("dr")) or 0)
    lottie = (ip or 0, op or 0, fr or 60, markers) if fr else None
    return w, h, 1, lottie


def info_facts(info):
    """The same facts from `lamina info --json` (a dotLottie or .tgs)."""
    if info.get("kind") == "scene":
        c = info.get("canvas", {})
        return c.get("width", 0), c.get("height", 0), c.get("scale", 1), None
    markers = {m["name"]: (m["startFrame"], m["durationFrames"]) for m in info.get("markers", [])}
    return (info.get("width", 0), info.get("height", 0), 1,
            (info.get("inPoint", 0), info.get("outPoint", 0), info.get("frameRate", 60), markers))


def frame_count(options, lottie):
    """How many frames a request renders (an upper bound where the
    document decides and does not say)."""
    frames = options.get("frames")
    marker = options.get("marker")
    if frames is None and marker is None:
        return 1
    if isinstance(frames, str) and frames != "all":
        parts = frames.split("..")
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            return 1  # the batch names what is wrong
        return max(1, int(numbers[-1] - numbers[0]) + 1) if len(parts) <= 2 else 1
    if isinstance(frames, (int, float)) and not isinstance(frames, bool):
        return 1
    if isinstance(frames, list):
        if len(frames) == 2 and all(_number(f) is not None for f in frames):
            return max(1, int(frames[1] - frames[0]) + 1)
        return 1
    if lottie is None:
        return 1  # "all" or a marker of a scene: the batch refuses it
    ip, op, fr, markers = lottie
    fps = _number(options.get("fps")) or fr
    per = fr / fps if fps > 0 else 1

    def index(frame):
        return math.ceil((frame - ip) / per - 1e-9)

    if marker is not None:
        if marker not in markers:
            return 1
        start, duration = markers[marker]
        first = max(0, index(start))
        end = min(index(op), index(start + duration))
        return max(1, end - first)
    return max(1, index(op))


def check_limits(limits, facts, options):
    """Refuses, naming the limit, what is over one."""
    if facts is None:
        return
    w, h, s, lottie = facts
    scale = _number(options.get("scale")) or s or 1
    pixels = math.ceil(w * scale) * math.ceil(h * scale)
    if pixels > limits.maxCanvasPixels:
        raise over("maxCanvasPixels",
                   f"canvas: {math.ceil(w * scale)}×{math.ceil(h * scale)} pixels = {pixels},"
                   f" over the limit of {limits.maxCanvasPixels} (maxCanvasPixels)")
    frames = frame_count(options, lottie)
    if frames > limits.maxFrames:
        raise over("maxFrames", f"frames: {frames}, over the limit of {limits.maxFrames}"
                   " (maxFrames)")
    if frames * pixels > limits.maxTotalPixels:
        raise over("maxTotalPixels",
                   f"frames × pixels: {frames} × {pixels} = {frames * pixels}, over the limit of"
                   f" {limits.maxTotalPixels} (maxTotalPixels)")


class Scratch:
    """Where a replica's jobs read and write, under one temporary root.

    An inline scene (nearly every request) costs no folder of its own: its
    base is `inline/`, which is empty and stays so (a scene reads nothing
    there, and nothing of another request), and its result is one file in
    `out/` named by the request's number, read and removed as the request
    is answered. An upload (a dotLottie or .tgs file, which may name files
    beside it) gets a folder of its own, `uN/`, with its result, removed
    with the request."""

    def __init__(self, root=None):
        self.root = os.path.realpath(root or tempfile.mkdtemp(prefix="lamina-serve-"))
        self.inline = os.path.join(self.root, "inline")
        self.outputs = os.path.join(self.root, "out")
        for folder in (self.inline, self.outputs):
            os.makedirs(folder, exist_ok=True)
        self.sequence = itertools.count(1)

    def take(self, render):
        """The places of a request: its upload written, where it is one."""
        number = next(self.sequence)
        ext = FORMATS[render.format][0]
        if not render.upload_ext:
            return Places(self.inline, os.path.join(self.outputs, f"r{number}.{ext}"))
        folder = self.folder(number)
        upload = os.path.join(folder, "upload." + render.upload_ext)
        with open(upload, "wb") as f:
            f.write(render.document)
        return Places(folder, os.path.join(folder, "out." + ext), folder=folder, upload=upload)

    def folder(self, number=None):
        """A new empty folder of a request's own."""
        folder = os.path.join(self.root, f"u{number or next(self.sequence)}")
        os.mkdir(folder)
        return folder

    @staticmethod
    def result(places):
        """The bytes of a finished job's output."""
        with open(places.output, "rb") as f:
            return f.read()

    def release(self, places):
        """Removes what the request left: its output, the temporary files
        of a job whose worker ended while writing it (the batch writes
        `.NAME.*.tmp` beside an output and renames it), its folder."""
        if places.folder:
            shutil.rmtree(places.folder, ignore_errors=True)
            return
        try:
            os.unlink(places.output)
        except FileNotFoundError:
            # It failed: a temporary file is left only where its worker ended.
            name = os.path.basename(places.output)
            for left in glob.glob(os.path.join(glob.escape(self.outputs), f".{name}.*")):
                try:
                    os.unlink(left)
                except OSError:
                    pass

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


class Places:
    """A request's places: the scene's base (an upload's folder, or the
    empty `inline/`), the output's path, the upload's path and the
    request's own folder where it has one."""

    def __init__(self, base, output, folder=None, upload=None):
        self.base = base
        self.output = output
        self.folder = folder
        self.upload = upload

    def folders(self):
        """The folders a job message may name, for `tidy`."""
        return (self.folder,) if self.folder else (self.base, os.path.dirname(self.output))


def job_line(render, places):
    """The `lamina batch` job line of `render` in `places` (an inline
    scene's base: it reads nothing else)."""
    job = {}
    if places.upload:
        job["scene"] = places.upload
    else:
        job["scene"] = render.document
        job["base"] = places.base
    job.setdefault("quiet", True)
    job.update(render.options)
    job["output"] = places.output
    text = json.dumps(job, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode() + b"\n"


LIMIT_NAME = re.compile(r"\((max[A-Za-z]+|min[A-Za-z]+|frameTimeBudget)\)")


def tidy(message, *folders):
    """A batch message as a client reads it: the request's folders left
    out, `stdin:N` named 'request'."""
    message = re.sub(r"^stdin:\d+(:\d+)?", "request", message)
    for folder in folders:
        message = message.replace(folder + os.sep, "").replace(folder, "request")
    return message


def failed_job(result, *folders):
    """The `RequestError` of a failed job's result line: the job or its
    document is 4xx ("kind": "input"), the machine's failure 5xx."""
    message = tidy(str(result.get("error", "the job failed")), *folders)
    if result.get("kind") == "service":
        return RequestError(500, message, "service")
    found = LIMIT_NAME.search(message)
    if found:
        return RequestError(422, message, "limit", limit=found.group(1))
    return RequestError(422, message, "input")


# --- the warm worker ----------------------------------------------------------


class WorkerDied(Exception):
    """The batch process ended while a job was in it."""


class TimeBudgetExceeded(Exception):
    """The job ran past the request's time budget; its worker was ended."""


class _Job:
    def __init__(self, line, internal=False):
        self.line = line
        self.future = concurrent.futures.Future()
        self.started = None
        self.timed_out = False
        self.internal = internal


# A job that makes the context and compiles the shaders before any request.
WARM_UP = {"lamina": 1, "canvas": {"width": 8, "height": 8},
           "root": {"sublayers": [{"frame": [1, 1, 6, 6], "backgroundColor": "#336699",
                                   "cornerRadius": 2, "opacity": 0.5}]}}


class Worker:
    """One `lamina batch -` process and the jobs in its standard input, in
    order. A writer thread writes jobs as they come (the batch reads the
    next while the replica waits for the last), so the process never waits
    for the replica; a reader thread answers them from the result lines.
    When the process ends, the job that was in it fails (`WorkerDied`, or
    `TimeBudgetExceeded` when the budget ended it), and a new process, warmed
    up first, runs the jobs that were behind it."""

    def __init__(self, lamina, scratch, budget_s, memory_budget="512M"):
        self.lamina = lamina
        self.scratch = scratch
        self.root = scratch.root
        self.budget_s = budget_s
        self.memory_budget = memory_budget
        # The jobs written to the process, oldest (the one rendering) first.
        self.pending = collections.deque()
        self.lock = threading.Lock()
        self.outbox = queue.Queue()
        self.process = None
        self.restarts = 0
        # Seconds the process had no job in its input (done with one, the
        # next not yet written): a replica that cannot keep its batch fed.
        self.idle_s = 0.0
        self._idle_since = None
        self.closed = False
        with self.lock:
            warm = self._spawn_locked()
        self._warm = [warm]
        threading.Thread(target=self._write, name="lamina-serve-jobs", daemon=True).start()
        threading.Thread(target=self._watch, name="lamina-serve-budget", daemon=True).start()

    @property
    def pid(self):
        process = self.process
        return process.pid if process else None

    def _spawn_locked(self):
        """A new process with its warm-up job written (`self.lock` held)."""
        env = dict(os.environ)
        env.setdefault("LAMINA_FRAME_BUDGET", str(max(1.0, self.budget_s)))
        self.process = subprocess.Popen(
            [self.lamina, "batch", "-", "--output-root", self.root, "--scene-root", self.root,
             "--memory-budget", self.memory_budget],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=self.root, env=env)
        threading.Thread(target=self._read, args=(self.process,), name="lamina-serve-results",
                         daemon=True).start()
        places = Places(self.scratch.inline, os.path.join(self.scratch.outputs, "warm-up.png"))
        warm = _Job(job_line(Render(WARM_UP, {}, "png"), places), internal=True)
        self._append_locked(warm)
        self._put(self.process, warm.line)
        return warm

    def _append_locked(self, job):
        self.pending.append(job)
        if self.pending[0] is job:
            job.started = time.monotonic()
            if self._idle_since is not None:
                self.idle_s += job.started - self._idle_since
                self._idle_since = None

    def idle_seconds(self):
        """`idle_s` with the wait going on now."""
        since = self._idle_since
        return self.idle_s + (time.monotonic() - since if since is not None else 0.0)

    def warm(self, timeout=120):
        """Waits until the process has rendered its warm-up job."""
        for job in self._warm:
            job.future.result(timeout)

    def submit(self, line):
        """A future of the job's result line (a dict); never blocks."""
        job = _Job(line)
        self.outbox.put(job)
        return job.future

    def _write(self):
        while True:
            job = self.outbox.get()
            if job is None:
                return
            with self.lock:
                process = self.process
                self._append_locked(job)
            # Outside the lock: a long line waits for the batch to read it.
            self._put(process, job.line)

    @staticmethod
    def _put(process, line):
        try:
            process.stdin.write(line)
            process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass  # the process ended: its reader answers the job

    def _read(self, process):
        for raw in process.stdout:
            try:
                result = json.loads(raw)
            except ValueError:
                continue
            with self.lock:
                if process is not self.process or not self.pending:
                    continue
                job = self.pending.popleft()
                if self.pending:
                    self.pending[0].started = time.monotonic()
                else:
                    self._idle_since = time.monotonic()
            job.future.set_result(result)
        status = process.wait()
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        with self.lock:
            if process is not self.process or self.closed:
                return
            jobs = [j for j in self.pending if not j.internal]
            starting = bool(self.pending) and self.pending[0].internal
            self.pending.clear()
            self.restarts += 1
        if starting:
            # It ended before its first job: nothing was the requests' fault,
            # but they cannot wait for a worker that may never start.
            for job in jobs:
                job.future.set_exception(WorkerDied(how + " while starting"))
            jobs = []
            time.sleep(1)
        head = jobs.pop(0) if jobs else None
        with self.lock:
            if self.closed:
                return
            self._warm = [self._spawn_locked()]
            # In the same order, before anything written after the swap
            # (the writer waits for the lock); a blocked write holds it
            # only until the batch reads its line.
            for job in jobs:
                job.started = None
                self._append_locked(job)
                self._put(self.process, job.line)
        if head is not None:
            if head.timed_out:
                head.future.set_exception(TimeBudgetExceeded(self.budget_s))
            else:
                head.future.set_exception(WorkerDied(how))

    def _watch(self):
        # Reads without the lock: a write that holds it must not stop the
        # budget.
        while not self.closed:
            time.sleep(0.1)
            try:
                head = self.pending[0]
            except IndexError:
                continue
            process = self.process
            if head.started and not head.timed_out and not head.internal \
                    and time.monotonic() - head.started > self.budget_s:
                head.timed_out = True
                process.kill()

    def close(self):
        self.closed = True
        self.outbox.put(None)
        process = self.process
        if process:
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


# --- metrics --------------------------------------------------------------------


def rss_bytes(pid):
    """The resident set of process `pid` (Linux), or 0."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, TypeError):
        pass
    return 0


class Stats:
    """One replica's counts; snapshots are merged across replicas."""

    SAMPLES = 2048

    def __init__(self, replica):
        self.replica = replica
        self.requests = collections.Counter()  # (endpoint, status)
        self.errors = collections.Counter()  # kind
        self.frames = 0
        self.frame_ms = collections.deque(maxlen=self.SAMPLES)
        self.request_ms = collections.deque(maxlen=self.SAMPLES)
        self.queue = 0
        self.memory = {}
        self.restarts = 0
        self.idle_s = 0.0

    def snapshot(self):
        return {
            "replica": self.replica, "requests": [[e, s, n] for (e, s), n in self.requests.items()],
            "errors": dict(self.errors), "frames": self.frames,
            "frame_ms": list(self.frame_ms), "request_ms": list(self.request_ms),
            "queue": self.queue, "memory": dict(self.memory), "restarts": self.restarts,
            "idle_s": self.idle_s,
            "at": time.time(),
        }


def _quantile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def prometheus(snapshots, stale_s=60):
    """The Prometheus text of the replicas' snapshots: counters summed,
    gauges per replica (those that reported in the last `stale_s`)."""
    requests = collections.Counter()
    errors = collections.Counter()
    frames = restarts = queue = 0
    idle_s = 0.0
    frame_ms, request_ms = [], []
    now = time.time()
    live = [s for s in snapshots if now - s["at"] < stale_s]
    for s in snapshots:
        for e, status, n in s["requests"]:
            requests[(e, status)] += n
        errors.update(s["errors"])
        frames += s["frames"]
        restarts += s["restarts"]
        idle_s += s.get("idle_s", 0.0)
    for s in live:
        queue += s["queue"]
        frame_ms += s["frame_ms"]
        request_ms += s["request_ms"]
    out = [
        "# HELP lamina_serve_requests_total Requests answered, by endpoint and status.",
        "# TYPE lamina_serve_requests_total counter",
    ]
    for (e, status), n in sorted(requests.items()):
        out.append(f'lamina_serve_requests_total{{endpoint="{e}",status="{status}"}} {n}')
    out += ["# HELP lamina_serve_errors_total Requests answered with an error, by kind.",
            "# TYPE lamina_serve_errors_total counter"]
    for kind, n in sorted(errors.items()):
        out.append(f'lamina_serve_errors_total{{kind="{kind}"}} {n}')
    out += ["# HELP lamina_serve_frames_rendered_total Frames the workers rendered for requests.",
            "# TYPE lamina_serve_frames_rendered_total counter",
            f"lamina_serve_frames_rendered_total {frames}",
            "# HELP lamina_serve_worker_restarts_total Worker processes restarted after ending.",
            "# TYPE lamina_serve_worker_restarts_total counter",
            f"lamina_serve_worker_restarts_total {restarts}",
            "# HELP lamina_serve_worker_idle_seconds_total Seconds the workers waited with no job"
            " written to them.",
            "# TYPE lamina_serve_worker_idle_seconds_total counter",
            f"lamina_serve_worker_idle_seconds_total {idle_s:.3f}",
            "# HELP lamina_serve_queue_depth Render requests in the replicas (rendering or waiting).",
            "# TYPE lamina_serve_queue_depth gauge",
            f"lamina_serve_queue_depth {queue}"]
    for name, values, what in (("frame", frame_ms, "One frame's time in its job (job time /"
                                " frames), the latest samples of each replica."),
                               ("request", request_ms, "A render request's time in its"
                                " replica, waiting included.")):
        out += [f"# HELP lamina_serve_{name}_seconds {what}",
                f"# TYPE lamina_serve_{name}_seconds summary"]
        for q in (0.5, 0.9, 0.99):
            value = _quantile(values, q)
            shown = "NaN" if math.isnan(value) else f"{value / 1000:.6f}"
            out.append(f'lamina_serve_{name}_seconds{{quantile="{q}"}} {shown}')
        out.append(f"lamina_serve_{name}_seconds_count {len(values)}")
        out.append(f"lamina_serve_{name}_seconds_sum {sum(values) / 1000:.6f}")
    out += ["# HELP lamina_serve_memory_bytes Resident memory of each replica and its worker.",
            "# TYPE lamina_serve_memory_bytes gauge"]
    for s in live:
        for process, n in sorted(s["memory"].items()):
            out.append(f'lamina_serve_memory_bytes{{replica="{s["replica"]}",'
                       f'process="{process}"}} {n}')
    out += ["# HELP lamina_serve_replicas Replicas that reported in the last minute.",
            "# TYPE lamina_serve_replicas gauge", f"lamina_serve_replicas {len(live)}"]
    return "\n".join(out) + "\n"


# --- the Ray Serve application --------------------------------------------------

DEFAULT_LAMINA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              ".build", "release", "lamina")
METRICS_ACTOR = "lamina_serve_metrics"
METRICS_NAMESPACE = "lamina_serve"

try:
    import ray
    from ray import serve
    from starlette.requests import Request
    from starlette.responses import Response
except ImportError:  # the functions above still work (and are tested) without Ray
    ray = serve = None


if serve is not None:

    @ray.remote(num_cpus=0)
    class MetricsBoard:
        """Every replica's latest snapshot, for GET /metrics on any of them."""

        def __init__(self):
            self.snapshots = {}

        def update(self, snapshot):
            self.snapshots[snapshot["replica"]] = snapshot

        def text(self):
            return prometheus(list(self.snapshots.values()))

    class LaminaService:
        """A replica: one warm `lamina batch -` worker and the HTTP routes."""

        def __init__(self, lamina=None, limits=None, memory_budget="512M"):
            self.lamina = os.path.abspath(lamina or os.environ.get("LAMINA") or DEFAULT_LAMINA)
            self.limits = Limits(**(limits or {}))
            self.scratch = Scratch()
            self.worker = Worker(self.lamina, self.scratch, self.limits.timeBudget, memory_budget)
            self.worker.warm()
            self.stats = Stats(uuid.uuid4().hex[:8])
            self.board = MetricsBoard.options(
                name=METRICS_ACTOR, namespace=METRICS_NAMESPACE, get_if_exists=True,
                lifetime="detached").remote()
            self.last_push = 0.0
            self._push(force=True)

        def __del__(self):
            try:
                self.worker.close()
                self.scratch.close()
            except Exception:
                pass

        def check_health(self):
            if self.worker.process is None or self.worker.process.poll() is not None:
                # The reader restarts it; a replica whose worker is down now
                # reports it only if it stays so.
                time.sleep(1)
                if self.worker.process.poll() is not None:
                    raise RuntimeError("the lamina batch worker is not running")

        def _push(self, force=False):
            now = time.monotonic()
            if not force and now - self.last_push < 1.0:
                return
            self.last_push = now
            self.stats.memory = {"replica": rss_bytes(os.getpid()),
                                 "worker": rss_bytes(self.worker.pid)}
            self.stats.restarts = self.worker.restarts
            self.stats.idle_s = self.worker.idle_seconds()
            self.board.update.remote(self.stats.snapshot())

        async def __call__(self, request: Request):
            path = request.url.path.rstrip("/") or "/"
            route = {("POST", "/render"): "render", ("POST", "/info"): "info",
                     ("GET", "/healthz"): "healthz", ("GET", "/metrics"): "metrics"}
            endpoint = route.get((request.method, path))
            start = time.monotonic()
            try:
                if endpoint is None:
                    known = [p for (_, p) in route]
                    status = 405 if path in known else 404
                    raise RequestError(status, f"{request.method} {path}: the service has"
                                       " POST /render, POST /info, GET /healthz, GET /metrics",
                                       "bad_request")
                response = await getattr(self, endpoint)(request)
            except RequestError as e:
                self.stats.errors[e.kind] += 1
                response = Response(e.body(), status_code=e.status, headers=e.headers,
                                    media_type="application/json")
            except Exception as e:  # the service's own failure, never the client's
                self.stats.errors["service"] += 1
                response = Response(RequestError(500, f"the service failed: {e}", "service")
                                    .body(), status_code=500, media_type="application/json")
            self.stats.requests[(endpoint or "other", response.status_code)] += 1
            if endpoint == "render":
                self.stats.request_ms.append((time.monotonic() - start) * 1000)
            self._push()
            return response

        async def _body(self, request):
            length = request.headers.get("content-length")
            limit = self.limits.maxBodyBytes
            if length is not None and length.isdigit() and int(length) > limit:
                raise over("maxBodyBytes", f"the body: {length} bytes, over the limit of {limit}"
                           " (maxBodyBytes)", status=413)
            chunks, size = [], 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise over("maxBodyBytes", f"the body: more than {limit} bytes, over the"
                               f" limit of {limit} (maxBodyBytes)", status=413)
                chunks.append(chunk)
            body = b"".join(chunks)
            if not body.strip():
                raise bad("the body is empty: send a job or a document", status=400)
            return body

        async def render(self, request):
            body = await self._body(request)
            render = read_render(body, dict(request.query_params))
            if not render.upload_ext:
                check_limits(self.limits, document_facts(render.document), render.options)
            places = self.scratch.take(render)
            self.stats.queue += 1
            try:
                if render.upload_ext:
                    info = await self._info(places.upload, places.folder)
                    check_limits(self.limits, info_facts(info), render.options)
                line = job_line(render, places)
                try:
                    result = await asyncio_wrap(self.worker.submit(line))
                except WorkerDied as e:
                    raise RequestError(500, f"the render worker (lamina batch) ended ({e}) while"
                                       " rendering this request; it was restarted", "worker_died")
                except TimeBudgetExceeded:
                    raise over("timeBudget", "the job ran past the request's time budget of"
                               f" {self.limits.timeBudget:g} s (timeBudget)")
                if not result.get("ok"):
                    raise failed_job(result, *places.folders())
                data = self.scratch.result(places)
                frames = int(result.get("frames", 1))
                self.stats.frames += frames
                self.stats.frame_ms.append(float(result.get("ms", 0)) / max(1, frames))
                return Response(data, media_type=FORMATS[render.format][1],
                                headers={"X-Lamina-Frames": str(frames),
                                         "X-Lamina-Ms": str(result.get("ms", ""))})
            finally:
                self.stats.queue -= 1
                self.scratch.release(places)

        async def _info(self, upload, folder):
            """`lamina info --json` of the document `upload` in `folder`."""
            import asyncio
            process = await asyncio.create_subprocess_exec(
                self.lamina, "info", upload, "--json", stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=folder)
            try:
                out, err = await asyncio.wait_for(process.communicate(), 30)
            except asyncio.TimeoutError:
                process.kill()
                raise RequestError(500, "lamina info took more than 30 s", "service")
            if process.returncode != 0:
                message = err.decode(errors="replace").strip()
                message = re.sub(r"^lamina: ", "", message)
                raise RequestError(422, tidy(message, folder), "input")
            info = json.loads(out)
            info["file"] = os.path.basename(upload)
            return info

        async def info(self, request):
            body = await self._body(request)
            kind = document_kind(body)
            if kind == "json":
                value = parse_json(body)
                if isinstance(value, dict) and "scene" in value:
                    value = value["scene"]
                if not isinstance(value, dict):
                    raise bad("the body: expected a scene or Lottie object, found "
                              + _kind(value))
                body = json.dumps(value, ensure_ascii=False, allow_nan=False).encode()
            folder = self.scratch.folder()
            try:
                upload = os.path.join(folder, "upload." + kind)
                with open(upload, "wb") as f:
                    f.write(body)
                info = await self._info(upload, folder)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            return Response(json.dumps(info).encode(), media_type="application/json")

        async def healthz(self, request):
            process = self.worker.process
            ok = process is not None and process.poll() is None
            body = {"ok": ok, "replica": self.stats.replica, "worker_pid": self.worker.pid,
                    "restarts": self.worker.restarts, "queue": self.stats.queue,
                    "limits": self.limits.as_dict()}
            return Response(json.dumps(body).encode(), status_code=200 if ok else 503,
                            media_type="application/json")

        async def metrics(self, request):
            self._push(force=True)
            text = await self.board.text.remote()
            return Response(text.encode(), media_type="text/plain; version=0.0.4")


async def asyncio_wrap(future):
    import asyncio
    return await asyncio.wrap_future(future)


def deployment_options(num_replicas=None, min_replicas=None, max_replicas=None, gpus="auto",
                       max_ongoing=16, max_queued=8, retry_after_s=1):
    """The Serve deployment's options: one replica per GPU where the
    cluster has them (num_gpus=1), else on CPUs; a fixed count or
    autoscaling; bounded concurrency per replica and a bounded queue at
    the proxy, answered 503 with Retry-After when full.

    `max_ongoing` is deep on purpose: a request in the replica costs a line
    in its batch's pipe, and keeps the batch fed; one that waits at Ray's
    proxy for a full replica is routed again only after a backoff (up to
    0.5 s) and a queue-length probe of the replica, during which the batch
    can run dry (`lamina_serve_worker_idle_seconds_total`)."""
    if gpus == "auto":
        gpus = int(ray.cluster_resources().get("GPU", 0)) if ray.is_initialized() else 0
    gpus = int(gpus)
    actor = {"num_gpus": 1, "num_cpus": 1} if gpus > 0 else {"num_cpus": 1}
    options = {
        "ray_actor_options": actor,
        "max_ongoing_requests": int(max_ongoing),
        "max_queued_requests": int(max_queued),
        "health_check_period_s": 5,
    }
    try:
        from ray.serve.config import BackpressureConfig
        options["backpressure_config"] = BackpressureConfig(status_code=503,
                                                            retry_after_s=retry_after_s)
    except ImportError:  # an older Serve: 503 without Retry-After
        pass
    if min_replicas is not None or max_replicas is not None:
        options["autoscaling_config"] = {
            "min_replicas": int(min_replicas or 1),
            "max_replicas": int(max_replicas or max(1, gpus) or 1),
            "target_ongoing_requests": max(1, int(max_ongoing) // 2),
        }
    else:
        options["num_replicas"] = int(num_replicas or max(1, gpus))
    return options


def build_app(args=None):
    """The application, for `serve run distributed.lamina_serve:build_app
    key=value ...` (keys: lamina, num_replicas, min_replicas, max_replicas,
    gpus, max_ongoing, max_queued, max_body_bytes, max_canvas_pixels,
    max_frames, max_total_pixels, time_budget_s, memory_budget)."""
    args = dict(args or {})
    limit_keys = ("max_body_bytes", "max_canvas_pixels", "max_frames", "max_total_pixels",
                  "time_budget_s")
    limits = {k: float(args.pop(k)) for k in limit_keys if k in args}
    lamina = args.pop("lamina", None)
    memory_budget = args.pop("memory_budget", "512M")
    options = deployment_options(**args)
    deployment = serve.deployment(LaminaService, name="lamina", **options)
    return deployment.bind(lamina=lamina, limits=limits, memory_budget=memory_budget)


app = build_app() if serve is not None else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--lamina", help="the lamina binary (default: $LAMINA or the release"
                        " build beside this folder)")
    parser.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    parser.add_argument("--num-replicas", type=int)
    parser.add_argument("--min-replicas", type=int, help="autoscaling from this many")
    parser.add_argument("--max-replicas", type=int, help="autoscaling up to this many")
    parser.add_argument("--gpus", default="auto", help="auto (num_gpus=1 per replica when the"
                        " cluster has GPUs), 0 or 1")
    parser.add_argument("--max-ongoing", type=int, default=16,
                        help="requests in one replica at once (one renders, the rest wait in"
                        " its batch's input)")
    parser.add_argument("--max-queued", type=int, default=8,
                        help="requests waiting for a replica; past it: 503 with Retry-After")
    parser.add_argument("--max-body-bytes", type=int)
    parser.add_argument("--max-canvas-pixels", type=int)
    parser.add_argument("--max-frames", type=int)
    parser.add_argument("--max-total-pixels", type=int)
    parser.add_argument("--time-budget", type=float, dest="time_budget_s")
    parser.add_argument("--memory-budget", default="512M",
                        help="each worker's lamina batch --memory-budget")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local Ray")
    args = parser.parse_args(argv)
    if serve is None:
        print("lamina_serve: Ray Serve is not installed (scripts/install-python-deps.sh)",
              file=sys.stderr)
        return 2
    lamina = os.path.abspath(args.lamina or os.environ.get("LAMINA") or DEFAULT_LAMINA)
    if not os.access(lamina, os.X_OK):
        print(f"lamina_serve: no lamina at {lamina} (--lamina PATH)", file=sys.stderr)
        return 2
    init = {"address": args.address} if args.address else {"num_cpus": args.num_cpus}
    ray.init(include_dashboard=False, **{k: v for k, v in init.items() if v is not None})
    serve.start(http_options={"host": args.host, "port": args.port})
    app_args = {k: v for k, v in vars(args).items()
                if v is not None and k in ("num_replicas", "min_replicas", "max_replicas", "gpus",
                                           "max_ongoing", "max_queued", "max_body_bytes",
                                           "max_canvas_pixels", "max_frames", "max_total_pixels",
                                           "time_budget_s", "memory_budget")}
    app_args["lamina"] = lamina
    # SIGTERM (a service manager, kill) shuts down as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    serve.run(build_app(app_args), name="lamina", route_prefix="/")
    print(f"lamina_serve: listening on http://{args.host}:{args.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        serve.shutdown()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Load on the render service (distributed/lamina_serve.py): N concurrent
clients on loopback for a bounded time, against the same jobs through one
`lamina batch` on the same machine.

    swift build -c release --product lamina
    nice -n 10 python3 Benchmarks/serve_load.py --minutes 10 --clients 8 \\
        [--lamina .build/release/lamina] [--replicas 1] [--baseline-minutes 2]

1. The baseline: the job mix (small inline scenes to PNG, a Lottie frame
   to PNG, a ten-frame scene clip to MP4) written to one `lamina batch -`,
   the next line always waiting, for `--baseline-minutes`: jobs per second.
2. The service, started on 127.0.0.1 with `--replicas` replicas and a
   queue of `--max-queued`, and `--clients` clients sending the same mix
   for `--minutes`: every answer's status (2xx, or 503 when the queue is
   full; anything else is a failure), jobs per second answered 2xx,
   latency percentiles, each replica's memory (the replica process and
   its worker) after warm-up and at the end, and the seconds the workers
   waited with no job written to them after warm-up (near 0 when the
   service keeps its batch fed), from GET /metrics. The service runs with
   its own --max-ongoing and --max-queued unless they are given.

Prints a table and one JSON line; exit status 1 when a request got another
status or the connection failed. Standard library only (the service needs
Ray Serve: scripts/install-python-deps.sh).
"""

import argparse
import collections
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LOTTIE = os.path.join(ROOT, "Tests/LaminaLottieTests/Fixtures/success.json")


def scene(rng):
    """A small card scene with no files: gradients, rounded and shadowed
    layers, an animation."""
    layers = []
    for i in range(5):
        layers.append({
            "frame": [10 + 56 * i, 40 + rng.uniform(-10, 10), 48, 64],
            "backgroundColor": "#%06x" % rng.randrange(1 << 24), "cornerRadius": 8,
            "shadowOpacity": 0.5, "shadowRadius": 4, "shadowOffset": [0, 2],
            "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.3,
                            "duration": 1}]})
    layers.append({"class": "CAGradientLayer", "frame": [0, 150, 320, 30],
                   "colors": ["#%06x" % rng.randrange(1 << 24), "#202020"]})
    return {"lamina": 1, "canvas": {"width": 320, "height": 180, "background": "#f4f4f4"},
            "root": {"sublayers": layers}}


def job_mix(count=24, seed=7):
    """(request job, format) pairs: mostly PNGs of different scenes, a
    Lottie frame every fourth, a clip every eighth."""
    rng = random.Random(seed)
    with open(LOTTIE) as f:
        lottie = json.load(f)
    jobs = []
    for i in range(count):
        if i % 8 == 7:
            jobs.append({"scene": scene(rng), "frames": "0..9", "fps": 10, "format": "mp4"})
        elif i % 4 == 3:
            jobs.append({"scene": lottie, "frame": i % 60})
        else:
            jobs.append({"scene": scene(rng), "time": rng.uniform(0, 1)})
    return jobs


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- one lamina batch ---------------------------------------------------------


def baseline(lamina, jobs, seconds):
    """Jobs per second of one `lamina batch -` fed the mix in a loop."""
    folder = os.path.realpath(tempfile.mkdtemp(prefix="lamina-serve-load-"))
    lines = []
    for i, job in enumerate(jobs):
        line = {k: v for k, v in job.items() if k != "format"}
        line["base"] = folder
        line["quiet"] = True
        line["output"] = os.path.join(folder, f"out-{i}.{job.get('format', 'png')}")
        lines.append(json.dumps(line, separators=(",", ":")).encode() + b"\n")
    # A session of its own, as the service has: where the kernel shares the
    # CPU between sessions (autogroups), the batch then gets the share the
    # service gets on a machine that others are using.
    process = subprocess.Popen([lamina, "batch", "-", "--output-root", folder,
                                "--scene-root", folder], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, cwd=folder, start_new_session=True)
    stop = threading.Event()

    def feed():
        # Two lines ahead of the results: the batch never waits for a job.
        i = 0
        while not stop.is_set():
            with written:
                while sent[0] - done[0] >= 2 and not stop.is_set():
                    written.wait(0.1)
            process.stdin.write(lines[i % len(lines)])
            process.stdin.flush()
            with written:
                sent[0] += 1
            i += 1
        process.stdin.close()

    written = threading.Condition()
    sent, done = [0], [0]
    # One warm-up job before the clock starts (the service's replicas warm up too).
    process.stdin.write(lines[0])
    process.stdin.flush()
    json.loads(process.stdout.readline())
    feeder = threading.Thread(target=feed, daemon=True)
    start = time.monotonic()
    feeder.start()
    failed = 0
    while time.monotonic() - start < seconds:
        result = json.loads(process.stdout.readline())
        failed += not result["ok"]
        with written:
            done[0] += 1
            written.notify()
    elapsed = time.monotonic() - start
    count = done[0]
    stop.set()
    for _ in process.stdout:
        pass
    process.wait()
    subprocess.run(["rm", "-rf", folder])
    return {"jobs": count, "seconds": round(elapsed, 1), "jobsPerSecond": count / elapsed,
            "failed": failed}


# --- the service ------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def scrape(port):
    """{replica: bytes} of the replica process and its worker together, and
    the seconds the workers waited with no job written to them."""
    _, text = get(port, "/metrics")
    text = text.decode()
    out = collections.Counter()
    for m in re.finditer(r'lamina_serve_memory_bytes\{replica="(\w+)",process="\w+"\} (\d+)',
                         text):
        out[m.group(1)] += int(m.group(2))
    idle = re.search(r"^lamina_serve_worker_idle_seconds_total (\S+)$", text, re.M)
    return dict(out), float(idle.group(1)) if idle else float("nan")


def client(port, jobs, index, stride, deadline, record):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    bodies = [json.dumps(j).encode() for j in jobs]
    i = index
    while time.monotonic() < deadline:
        body = bodies[i % len(bodies)]
        i += stride
        start = time.monotonic()
        try:
            connection.request("POST", "/render", body,
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            status = response.status
            if status == 503:
                time.sleep(float(response.getheader("Retry-After") or 1))
        except (OSError, http.client.HTTPException) as e:
            status = f"connection: {type(e).__name__}"
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        record(status, time.monotonic() - start)


def load(args, jobs):
    port = args.port or free_port()
    log = open(os.path.join(tempfile.gettempdir(), f"lamina-serve-load-{port}.log"), "wb")
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    service = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "distributed/lamina_serve.py"), "--port", str(port),
         "--lamina", args.lamina, "--num-replicas", str(args.replicas)]
        + [f"--{key.replace('_', '-')}={value}" for key, value in
           (("max_ongoing", args.max_ongoing), ("max_queued", args.max_queued))
           if value is not None],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if service.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the service did not start (see {log.name})")
            time.sleep(0.5)
        statuses = collections.Counter()
        latencies = []
        lock = threading.Lock()
        marks = {}

        def record(status, seconds):
            with lock:
                statuses[status] += 1
                if status == 200:
                    latencies.append(seconds)

        seconds = args.minutes * 60
        warmup = min(60.0, seconds / 6)
        start = time.monotonic()
        threads = [threading.Thread(target=client, args=(port, jobs, c, args.clients,
                                                         start + seconds, record))
                   for c in range(args.clients)]
        for t in threads:
            t.start()
        time.sleep(warmup)
        with lock:
            marks["warm"] = (time.monotonic(), statuses[200])
        first_memory, first_idle = scrape(port)
        for t in threads:
            t.join()
        end = time.monotonic()
        last_memory, last_idle = scrape(port)
        ok_after_warmup = statuses[200] - marks["warm"][1]
        return {
            "clients": args.clients, "replicas": args.replicas, "seconds": round(end - start, 1),
            "statuses": {str(k): v for k, v in sorted(statuses.items(), key=str)},
            "jobsPerSecond": ok_after_warmup / (end - marks["warm"][0]),
            "latencyMs": {f"p{int(q * 100)}": round(percentile(latencies, q) * 1000, 1)
                          for q in (0.5, 0.9, 0.99)},
            "workerIdleSeconds": round(last_idle - first_idle, 2),
            "memoryAfterWarmup": first_memory, "memoryAtEnd": last_memory,
            "memoryGrowthMiB": {r: round((last_memory.get(r, 0) - b) / 2**20, 1)
                                for r, b in first_memory.items()},
        }
    finally:
        # The service, not its group: it shuts its own Ray down.
        service.send_signal(signal.SIGTERM)
        try:
            service.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(service.pid, signal.SIGKILL)
        log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lamina", default=os.path.join(ROOT, ".build/release/lamina"))
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--baseline-minutes", type=float,
                        help="the one-batch run (default: the load's, at most 2)")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--max-ongoing", type=int, help="the service's (default: its own)")
    parser.add_argument("--max-queued", type=int, help="the service's (default: its own)")
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    args.lamina = os.path.abspath(args.lamina)
    jobs = job_mix()
    base_minutes = args.baseline_minutes or min(args.minutes, 2)
    one = baseline(args.lamina, jobs, base_minutes * 60)
    served = load(args, jobs)
    ratio = served["jobsPerSecond"] / one["jobsPerSecond"]
    bad = {k: v for k, v in served["statuses"].items() if k not in ("200", "503")}
    print(f"one lamina batch: {one['jobsPerSecond']:.2f} jobs/s ({one['jobs']} jobs in"
          f" {one['seconds']} s, {one['failed']} failed)")
    print(f"service, {args.clients} clients, {args.replicas} replica(s):"
          f" {served['jobsPerSecond']:.2f} jobs/s after warm-up ({ratio:.1%} of one batch)")
    print(f"answers: {served['statuses']}   latency (200): {served['latencyMs']}")
    print(f"the workers waited with no job written to them: {served['workerIdleSeconds']} s"
          " after warm-up")
    print(f"memory after warm-up: {served['memoryAfterWarmup']}, at the end:"
          f" {served['memoryAtEnd']}, growth MiB: {served['memoryGrowthMiB']}")
    print(json.dumps({"batch": one, "service": served, "ratio": ratio}))
    return 1 if bad or one["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

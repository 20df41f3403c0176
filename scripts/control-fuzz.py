#!/usr/bin/env python3
"""Fuzzes the control channel of a headless display (docs/display.md).

usage: scripts/control-fuzz.py [--minutes 30] [--lamina .build/release/lamina]

Starts `lamina show --headless 320x200 --control unix:...` on a scene with a
text layer, a replicator and a shape, then for the given time sends
malformed JSON, wrong types, huge and non-finite values, deep nesting,
random edits and floods from several connections. It checks that every
well-formed line gets exactly one reply, that the display keeps answering
a ping within 2 s, that it never exits, and that its memory (VmRSS) stays
within 16 MiB of what it was after the first minute. Exit status 1 on any
failure.
"""
import argparse, json, os, random, socket, subprocess, sys, tempfile, time

SCENE = {"lamina": 1, "canvas": {"width": 320, "height": 200, "background": "#204060"},
         "root": {"sublayers": [
             {"name": "box", "frame": [0, 40, 20, 20], "backgroundColor": "#ff8000"},
             {"name": "price", "class": "CATextLayer", "frame": [100, 10, 200, 30],
              "string": "1.00", "fontSize": 20},
             {"name": "rep", "class": "CAReplicatorLayer", "frame": [0, 100, 10, 10],
              "instanceCount": 3, "instanceTransform": [{"translate": [12, 0, 0]}],
              "sublayers": [{"name": "cell", "frame": [0, 0, 8, 8], "backgroundColor": "#ffffff"}]},
             {"name": "shape", "class": "CAShapeLayer", "frame": [200, 100, 100, 100],
              "path": "M0 0 L100 0 L50 80 Z", "fillColor": "#00ff00"}]}}
LAYERS = ["box", "price", "rep", "cell", "shape", "root", "root.sublayers[0]", "nope", "root.sublayers[99]"]
KEYS = ["opacity", "position", "position.x", "bounds", "frame", "string", "fontSize", "instanceCount",
        "transform", "backgroundColor", "path", "cornerRadius", "shadowRadius", "filters", "sublayers",
        "transform.rotation.z", "lineWidth", "instanceDelay", "wobble", "", "a" * 300]
VALUES = [0, 1, -1, 0.5, 1e9, -1e9, 1e300, 1e-300, 2**53, "x", "", "#ff0000", "#12", None, True,
          [], [1], [1, 2], [1, 2, 3, 4], [1e308] * 16, {}, {"a": 1}, [[[[]]]], "M0 0 L1e9 1e9",
          [{"rotate": 1e9}], [{"scale": [0, 0, 0]}], "x" * 100000, 100000, 1000000]


def rand_value():
    v = random.choice(VALUES)
    return v


def rand_edit():
    kind = random.choice(["set", "add", "remove", "add-animation", "remove-animation", "junk"])
    layer = random.choice(LAYERS)
    if kind == "set":
        return {"set": {"layer": layer, "key": random.choice(KEYS), "value": rand_value()}}
    if kind == "add":
        child = {"name": random.choice(["n", "box"]), "frame": [random.uniform(-1e4, 1e4), 0, 10, 10],
                 random.choice(KEYS): rand_value()}
        if random.random() < 0.2:
            child = {"class": "CAReplicatorLayer", "instanceCount": random.choice([10, 1000, 100000]),
                     "sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 1000}]}
        return {"add": {"parent": layer, "index": random.choice([0, 1, 99, -1, 0.5]), "layer": child}}
    if kind == "remove":
        return {"remove": {"layer": layer}}
    if kind == "add-animation":
        return {"add-animation": {"layer": layer, "key": random.choice(["a", "b"]),
                                  "animation": {"keyPath": random.choice(KEYS), "fromValue": rand_value(),
                                                "toValue": rand_value(), "duration": random.choice([0, 1, 1e9, -1])}}}
    if kind == "remove-animation":
        return {"remove-animation": {"layer": layer, "key": random.choice(["a", "b", "c"])}}
    return {random.choice(["frob", "set", "transaction"]): rand_value()}


def rand_line():
    r = random.random()
    if r < 0.15:  # malformed bytes
        junk = random.choice([b"{", b"}", b"[", b"\xff\xfe", b"{\"set\":", b"nul", b"\x00", b"{\"a\":1,}",
                              b"[" * 10000, b"1e999", b"\"\\ud800\""])
        return junk * random.randint(1, 3)
    if r < 0.5:
        cmd = rand_edit()
    elif r < 0.7:
        cmd = {"transaction": {"changes": [rand_edit() for _ in range(random.randint(0, 8))],
                               "duration": random.choice([0, 0.4, -1, 1e12, "x"]),
                               "timingFunction": random.choice(["linear", "nope", [0, 0, 1, 1], [1e9] * 4]),
                               "completion": random.choice([True, False, 1])}}
    elif r < 0.8:
        cmd = {"get": {"layer": random.choice(LAYERS), "key": random.choice(KEYS),
                       "presentation": random.choice([True, False, "x"])}}
    elif r < 0.85:
        cmd = {"snapshot": {"file": random.choice(["a.png", "../a.png", "/etc/a.png", "d/a.png", "a.jpg", 3])}}
    elif r < 0.9:
        cmd = {"replace": {"file": random.choice(["scene.json", "../x.json", "/etc/passwd", "none.json"])}}
    else:
        cmd = {random.choice(["subscribe", "unsubscribe"]): random.choice(["frames", ["taps", "x"], 3])}
    if random.random() < 0.3:
        cmd["id"] = random.choice([1, "x", [1], None, "y" * 300])
    return json.dumps(cmd).encode()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(10)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--lamina", default=".build/debug/lamina")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    random.seed(args.seed)
    work = tempfile.mkdtemp(prefix="lamina-fuzz-")
    os.chmod(work, 0o700)
    os.makedirs(f"{work}/out/d")
    with open(f"{work}/scene.json", "w") as f:
        json.dump(SCENE, f)
    sock = f"{work}/c.sock"
    show = subprocess.Popen([args.lamina, "show", f"{work}/scene.json", "--headless", "320x200",
                             "--control", f"unix:{sock}", "--output-root", f"{work}/out"],
                            stderr=open(f"{work}/show.err", "w"))
    for _ in range(100):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    end = time.time() + args.minutes * 60
    sent = replies = floods = 0
    baseline = None
    start = time.time()
    next_sample = start + 60
    trace = []
    failures = []
    try:
        while time.time() < end:
            if show.poll() is not None:
                failures.append(f"lamina show exited with {show.returncode}")
                break
            if random.random() < 0.05:  # a flood on its own connection, never read
                floods += 1
                f = connect(sock)
                try:
                    f.sendall(b"{\"ping\": {}}\n" * 5000)
                except OSError:
                    pass
                f.close()
                continue
            c = connect(sock)
            lines = [rand_line() for _ in range(random.randint(1, 40))]
            # Only lines without a newline inside count; each gets one reply.
            payload = b"\n".join(l.replace(b"\n", b" ") for l in lines) + b"\n"
            expected = sum(1 for l in lines if l.strip(b" \t"))
            c.sendall(payload)
            got = 0
            buf = b""
            deadline = time.time() + 10
            while got < expected and time.time() < deadline:
                try:
                    chunk = c.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    obj = json.loads(line)
                    if "event" not in obj:
                        got += 1
            sent += expected
            replies += got
            if got != expected:
                failures.append(f"{expected} lines, {got} replies: {payload[:200]!r}")
            c.close()
            # The display still answers quickly.
            p = connect(sock)
            t0 = time.time()
            p.sendall(b"{\"ping\": {}}\n")
            reply = p.makefile("rb").readline()
            if not reply.startswith(b"{\"ok\"") or time.time() - t0 > 2:
                failures.append(f"ping: {reply!r} after {time.time() - t0:.2f} s")
            p.close()
            if baseline is None and time.time() - start > 60:
                baseline = rss_kib(show.pid)
            if time.time() >= next_sample:
                next_sample += 60
                trace.append(rss_kib(show.pid) // 1024)
            if len(failures) > 20:
                break
        rss = rss_kib(show.pid) if show.poll() is None else 0
        print(f"sent {sent} lines, {replies} replies, {floods} floods; "
              f"RSS after 1 min {baseline} KiB, at the end {rss} KiB; each minute (MiB): {trace}")
        if baseline and rss > baseline + 16 * 1024:
            failures.append(f"memory grew from {baseline} to {rss} KiB")
    finally:
        show.terminate()
        show.wait(timeout=10)
    for f in failures[:20]:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Soaks the control channel (docs/display.md): four clients send COUNT
commands in total over MINUTES to a headless display at 60 Hz.

usage: scripts/control-soak.py [--minutes 10] [--commands 100000] [--lamina .build/release/lamina]

Each client sends a steady stream of sets, transactions, gets and pings,
waiting for each reply. At the end it prints the replies received (every
command must get one), the display's missed vblanks (from its 'stats'
events, subscribed by a fifth connection) and its memory (VmRSS, sampled
each second), comparing the first minute's mean with the last's (within
2 %). A dot moves all the time, so every vblank presents a frame; before
the clients start, the display runs --baseline seconds with no commands,
and the missed vblanks per minute of both phases are printed: what the
machine misses anyway, and what it misses with the channel busy. Exit
status 1 when a check fails.
"""
import argparse, json, os, socket, subprocess, sys, tempfile, threading, time

SCENE = {"lamina": 1, "canvas": {"width": 640, "height": 360, "background": "#204060"},
         "root": {"sublayers": [
             {"name": "price", "class": "CATextLayer", "frame": [20, 20, 300, 40], "string": "0",
              "fontSize": 32},
             {"name": "bar", "frame": [20, 200, 10, 20], "anchorPoint": [0, 0.5],
              "backgroundColor": "#ff8000"},
             {"name": "dot", "frame": [300, 300, 20, 20], "backgroundColor": "#ffffff",
              "cornerRadius": 10,
              "animations": [{"keyPath": "position.x", "fromValue": 300, "toValue": 600,
                              "duration": 2, "autoreverses": True, "repeatCount": 1000000}]}]}}


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--commands", type=int, default=100000)
    ap.add_argument("--lamina", default=".build/release/lamina")
    ap.add_argument("--baseline", type=float, default=60)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="lamina-soak-")
    os.chmod(work, 0o700)
    with open(f"{work}/scene.json", "w") as f:
        json.dump(SCENE, f)
    sock = f"{work}/c.sock"
    show = subprocess.Popen([args.lamina, "show", f"{work}/scene.json", "--headless", "640x360",
                             "--rate", "60", "--control", f"unix:{sock}"],
                            stderr=open(f"{work}/show.err", "w"))
    for _ in range(100):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    duration = args.minutes * 60
    per_client = args.commands // 4
    interval = duration / per_client
    counts = [0, 0, 0, 0]
    errors = []
    stats = []

    def client(n):
        # Up to 16 commands in flight (the display allows 64 a client):
        # replies are read on their own thread.
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sock)
        window = threading.Semaphore(16)

        def read():
            r = s.makefile("rb")
            for _ in range(per_client):
                line = r.readline()
                if not line:
                    errors.append({"error": "connection closed"})
                    return
                reply = json.loads(line)
                if reply.get("ok") is not True:
                    errors.append(reply)
                counts[n] += 1
                window.release()

        reader = threading.Thread(target=read)
        reader.start()
        start = time.time()
        for i in range(per_client):
            k = i % 4
            if k == 0:
                cmd = {"set": {"layer": "price", "key": "string", "value": str(i)}}
            elif k == 1:
                cmd = {"transaction": {"duration": 0.3, "changes": [
                    {"set": {"layer": "bar", "key": "bounds.size.width", "value": (i * 7) % 600}}]}}
            elif k == 2:
                cmd = {"get": {"layer": "dot", "key": "position", "presentation": True}}
            else:
                cmd = {"ping": {}}
            window.acquire()
            s.sendall((json.dumps(cmd) + "\n").encode())
            delay = start + (i + 1) * interval - time.time()
            if delay > 0:
                time.sleep(delay)
        reader.join()
        s.close()

    def watch():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sock)
        s.sendall(b'{"subscribe": "stats"}\n')
        for line in s.makefile("rb"):
            obj = json.loads(line)
            if obj.get("event") == "stats":
                stats.append(obj)

    threading.Thread(target=watch, daemon=True).start()
    time.sleep(2)
    base_start = stats[-1] if stats else {"missedVblanks": 0, "presented": 0}
    time.sleep(args.baseline)
    base_end = stats[-1] if stats else base_start
    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    samples = []
    t0 = time.time()
    while any(t.is_alive() for t in threads):
        samples.append((time.time() - t0, rss_kib(show.pid)))
        time.sleep(1)
    show.terminate()
    show.wait(timeout=10)
    first = [v for t, v in samples if t < 60]
    last = [v for t, v in samples if t > samples[-1][0] - 60]
    m1 = sum(first) / max(1, len(first))
    m2 = sum(last) / max(1, len(last))
    end = stats[-1] if stats else base_end
    def per_minute(a, b, seconds):
        return (b["missedVblanks"] - a["missedVblanks"]) / max(seconds, 1e-9) * 60
    print(f"baseline {args.baseline:.0f} s: {base_end['presented'] - base_start['presented']} frames, "
          f"{per_minute(base_start, base_end, args.baseline):.1f} missed vblanks/min; soak: "
          f"{end['presented'] - base_end['presented']} frames, "
          f"{per_minute(base_end, end, samples[-1][0] if samples else 1):.1f} missed vblanks/min")
    print(f"commands {sum(counts)} of {per_client * 4}, error replies {len(errors)}, "
          f"last stats {stats[-1] if stats else None}, RSS first minute {m1:.0f} KiB, last minute {m2:.0f} KiB "
          f"({(m2 - m1) / m1 * 100 if m1 else 0:+.2f} %)")
    ok = sum(counts) == per_client * 4 and not errors and m1 and abs(m2 - m1) / m1 <= 0.02
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

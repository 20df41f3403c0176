#!/usr/bin/env python3
"""Feeds a running kiosk: `lamina show Examples/signage.json --control unix:$XDG_RUNTIME_DIR/kiosk.sock`
then `python3 Examples/control.py unix:$XDG_RUNTIME_DIR/kiosk.sock LAYER`.

Every few seconds it sets LAYER's opacity and position in one transaction
(animated over 0.4 s, as Core Animation's implicit animations would) and
prints the reply; taps on the display are printed as they come.
"""
import json
import random
import socket
import sys
import time


def connect(address):
    if address.startswith("tcp:"):
        host, port = address[4:].rsplit(":", 1)
        return socket.create_connection((host.strip("[]"), int(port)))
    path = address[5:] if address.startswith("unix:") else address
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: control.py ADDRESS LAYER")
    conn = connect(sys.argv[1])
    lines = conn.makefile("r", encoding="utf-8")
    layer = sys.argv[2]

    def command(obj):
        conn.sendall((json.dumps(obj) + "\n").encode())
        while True:  # events may come before the reply
            reply = json.loads(lines.readline())
            if "event" in reply:
                print("event:", reply)
                continue
            return reply

    print(command({"subscribe": ["taps"]}))
    while True:
        change = {"transaction": {
            "duration": 0.4, "timingFunction": "easeInEaseOut",
            "changes": [
                {"set": {"layer": layer, "key": "opacity", "value": random.choice([0.4, 1])}},
                {"set": {"layer": layer, "key": "position.x", "value": random.randint(100, 400)}},
            ]}}
        reply = command(change)
        if "error" in reply:
            print("refused:", reply["error"], file=sys.stderr)
        else:
            print(reply)
        time.sleep(3)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fuzzes Lottie expressions: random and hostile expressions in small
documents, loaded by one long-running `lamina batch` (so that memory growth
across documents shows), each job checked.

  scripts/fuzz-expressions.py [--minutes 30] [--seed 1] [--lamina .build/debug/lamina]

Each document has a few layers whose properties (transform, an effect
slider, a shape's size and path) carry expressions made from the After
Effects API the importer supports, mixed with hostile ones (endless loops,
deep recursion, huge allocations, non-numbers, forged output). Every job
must end as `ok` or as a clean error naming the file and a JSON path, within
the expression limits (CPU 10 s, wall 30 s) plus a margin; the batch must not
crash; its resident memory must not keep growing; no `lamina-expr` may be
left running. Findings are written to OUT (default /tmp/lamina-fuzz-expr).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

CALLS = [
    "wiggle({n}, {n})", "wiggle({n}, {n}, {i}, 0.5)", "loopOut('{loop}')", "loopOut('{loop}', {i})",
    "loopIn('{loop}')", "loopOutDuration('{loop}', {n})", "linear(time, 0, {n}, {v}, {v})",
    "ease(time, {v}, {v})", "easeIn({e}, 0, 1, {v}, {v})", "easeOut({e}, {v}, {v})", "add({v}, {v})",
    "sub({v}, {v})", "mul({v}, {n})", "div({v}, {n})", "length({v})", "normalize({v})",
    "clamp({e}, {n}, {n})", "random({v})", "gaussRandom({n}, {n})", "noise({e})",
    "valueAtTime({e})", "velocityAtTime({e})", "speedAtTime(time)", "framesToTime({e})",
    "timeToFrames({e})", "Math.sin({e})", "Math.pow({e}, {e})", "$bm_sum({v}, {v})", "$bm_mul({v}, {e})",
    "$bm_div({v}, {e})", "thisComp.layer('{layer}').transform.position",
    "thisComp.layer({i}).transform.rotation", "thisComp.layer('{layer}').toComp({v})",
    "thisLayer.fromComp({v})", "effect('S')('Slider')", "effect('S')(1)", "thisComp.layer('{layer}')(6)(2)",
    "content('G').content('R').size", "content('G')(3)('ADBE Vector Position')",
    "thisProperty.propertyGroup(1)({i})", "key({i}).value", "nearestKey(time).time", "comp('{comp}').layer(1)",
    "thisComp.layer('{layer}').content('G').content('P').path.pointOnPath({e})", "createPath([[0,0],[{n},{n}]])",
    "thisComp.layer('B').mask('M').maskExpansion", "thisComp.layer('B').mask(1)(3)", "thisComp.layer('T').text.sourceText.length",
    "thisLayer.width", "thisComp.layer('{layer}').sourceRectAtTime(time).width",
    "thisLayer.sourceRectAtTime({e}, true).top", "sourceRectAtTime().height", "thisComp.marker.numKeys",
    "thisComp.marker.nearestKey(time).time", "thisComp.marker.key({i}).duration", "marker.numKeys",
    "posterizeTime({n})", "smooth({n}, {i})", "temporalWiggle({n}, {n})",
]
HOSTILE = [
    "while (true) {}", "for (;;) { Math.sqrt(2); }", "function f(n) { return f(n + 1) + 1; } f(0)",
    "var a = []; for (;;) a.push(new Array(100000));", "var s = 'x'; while (true) s = s + s;",
    "new Array(1e9).join('x')", "throw 1", "undefined", "null", "({})", "'text'", "NaN", "Infinity",
    "1e308 * 10", "[]", "new Array(200000).join('1,').split(',').map(Number)",
    "__emit('V 0 [[1e300]]'); __emit('D'); 1", "__emit('F forged'); 0", "__emit('B 99999'); while(true){}",
    "Array.prototype.map = null; [1, 2].map(function (x) { return x; })",
    "Object.defineProperty(Object.prototype, 'value', {get: function () { throw 1; }}); 0",
    "eval('while(1){}')", "Function('return this')().Date", "typeof require == 'undefined' ? 1 : require('fs')",
    "JSON.stringify(thisComp).length", "var o = {}; o.o = o; JSON.stringify(o)", "this.__run = null; 1",
    "value.constructor.constructor('return 1')()", "[time, time, time, time, time, time, time]",
    "'\u2028'", "\\u0000", "/(a+)+$/.test(new Array(40).join('a') + 'b') ? 1 : 0",
]


def expression(rng, depth=0):
    if depth == 0 and rng.random() < 0.05:
        return rng.choice(HOSTILE)

    def fill(template):
        out = template
        for key, make in [
            ("{n}", lambda: str(rng.choice([0, 1, 2, 0.5, -3, 100, 1e6, -1e-9]))),
            ("{i}", lambda: str(rng.choice([0, 1, 2, 3, -1, 99]))),
            ("{loop}", lambda: rng.choice(["cycle", "pingpong", "offset", "continue", "bogus"])),
            ("{layer}", lambda: rng.choice(["A", "B", "missing"])),
            ("{comp}", lambda: rng.choice(["Main", "Inner", "nope"])),
            ("{v}", lambda: rng.choice(["value", "[1, 2]", "[3, 4, 5]", "time", "7"])),
            ("{e}", lambda: expression(rng, depth + 1) if depth < 3 else "time"),
        ]:
            while key in out:
                out = out.replace(key, make(), 1)
        return out

    e = fill(rng.choice(CALLS))
    if rng.random() < 0.3 and depth < 3:
        e = f"{e} {rng.choice(['+', '-', '*', '/', '%'])} {expression(rng, depth + 1)}"
    if rng.random() < 0.2:
        e = f"var $bm_rt; $bm_rt = {e};"
    return e


def document(rng):
    def prop(k):
        p = {"a": 0, "k": k}
        if rng.random() < 0.25:
            p["x"] = expression(rng)
        return p

    def animated(a, b):
        return {"a": 1, "k": [{"t": 0, "s": a, "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": b}]}

    square = {"v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0]] * 3, "o": [[0, 0]] * 3, "c": True}
    path = {"a": 0, "k": square}
    if rng.random() < 0.4:
        path["x"] = expression(rng)
    shapes = [{"ty": "gr", "nm": "G", "it": [
        {"ty": "rc", "nm": "R", "s": prop([10, 10]), "p": prop([0, 0]), "r": prop(0)},
        {"ty": "sh", "nm": "P", "ks": path},
        {"ty": "fl", "c": prop([1, 0, 0, 1]), "o": prop(100)},
        {"ty": "tr", "p": prop([5, 5]), "a": {"a": 0, "k": [0, 0]}, "s": prop([100, 100]), "r": prop(0), "o": prop(100)}]}]
    position = animated([0, 0], [20, 30]) if rng.random() < 0.5 else prop([10, 10])
    if "x" not in position and rng.random() < 0.5:
        position["x"] = expression(rng)
    layers = [
        {"ty": 4, "nm": "A", "ind": 1, "ip": 0, "op": 30, "st": 0, "shapes": shapes,
         "ks": {"p": position, "r": prop(0), "s": prop([100, 100]), "o": prop(100), "a": prop([0, 0])},
         "ef": [{"ty": 5, "nm": "S", "mn": "ADBE Slider Control",
                 "ef": [{"ty": 0, "nm": "Slider", "mn": "ADBE Slider Control-0001", "v": prop(3)}]}]},
        {"ty": 3, "nm": "B", "ind": 2, "parent": 1, "ip": 0, "op": 30, "st": 0,
         "ks": {"p": prop([1, 2]), "r": prop(10)},
         "masksProperties": [{"nm": "M", "mode": "a", "pt": {"a": 0, "k": square}, "o": prop(100), "x": prop(0)}]},
    ]
    text = {"k": [{"t": 0, "s": {"t": "abc", "s": 10}}]}
    if rng.random() < 0.5:
        text["x"] = rng.choice(["text.sourceText + 1", "Math.round(time * 100)", "value.split('').reverse().join('')",
                                "thisComp.layer('A').mask", "new Array(30000).join('x')", expression(rng)])
    layers.append({"ty": 5, "nm": "T", "ind": 3, "ip": 0, "op": 30, "st": 0, "ks": {"p": prop([0, 0])},
                   "t": {"d": text}})
    return {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 16, "h": 16, "nm": "Main", "layers": layers}


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def helpers_running(parent):
    out = subprocess.run(["ps", "-o", "pid=,ppid=,etimes=,comm=", "--ppid", str(parent)], capture_output=True, text=True)
    return [line for line in out.stdout.splitlines() if "lamina-expr" in line and int(line.split()[2]) > 40]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lamina", default=".build/debug/lamina")
    ap.add_argument("--out", default="/tmp/lamina-fuzz-expr")
    ap.add_argument("--policy", default="evaluate", choices=["evaluate", "fallback"],
                    help="LAMINA_EXPRESSIONS for the batch: fail a document, or keep keyframed values")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    proc = subprocess.Popen(
        [args.lamina, "batch", "-", "--output-root", args.out], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, bufsize=1, env=dict(os.environ, LAMINA_EXPRESSIONS=args.policy))
    kinds = {}
    end = time.time() + args.minutes * 60
    findings, jobs, ok, errors, slowest = [], 0, 0, 0, 0.0
    rss = []
    while time.time() < end:
        doc = document(rng)
        job = {"scene": doc, "frame": rng.choice([0, 5, 12, 29]), "output": os.path.join(args.out, "frame.png"),
               "quiet": True}
        start = time.time()
        proc.stdin.write(json.dumps(job) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        took = time.time() - start
        jobs += 1
        slowest = max(slowest, took)
        if not line:
            findings.append(("crash", proc.wait(), doc))
            break
        result = json.loads(line)
        if result.get("ok"):
            ok += 1
        else:
            errors += 1
            message = result.get("error", "")
            kind = message.split("expression: ")[-1][:50]
            kinds[kind] = kinds.get(kind, 0) + 1
            if ".x: expression:" not in message and "maxExpression" not in message:
                findings.append(("error without an expression path", message, doc))
        if took > 45:
            findings.append(("slow", took, doc))
        stuck = helpers_running(proc.pid)
        if stuck:
            findings.append(("helper left running", stuck, doc))
        if jobs % 50 == 0:
            rss.append(rss_kib(proc.pid))
            print(f"{jobs} jobs: {ok} ok, {errors} errors, slowest {slowest:.1f} s, rss {rss[-1]} KiB", flush=True)
    proc.stdin.close()
    proc.wait()
    # Memory: the last quarter's resident size against the first quarter's.
    if len(rss) >= 8 and all(rss):
        q = len(rss) // 4
        first, last = max(rss[q:2 * q]), max(rss[-q:])
        if last > first * 1.5 + 20000:
            findings.append(("memory growth", f"{first} KiB -> {last} KiB", None))
    print(f"{jobs} jobs: {ok} ok, {errors} clean errors, slowest {slowest:.1f} s, rss {rss[:1]} .. {rss[-1:]} KiB")
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {count:5}  {kind}")
    with open(os.path.join(args.out, "findings.json"), "w") as f:
        json.dump([{"kind": k, "detail": str(d), "document": doc} for k, d, doc in findings], f, indent=1)
    for k, d, _ in findings:
        print(f"FINDING {k}: {str(d)[:300]}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes the three Lottie documents of `lamina bench`'s built-in suite
(deterministic: `python3 make_lottie.py --out DIR` rewrites them byte for
byte). Each stands for a kind of real file: a character (overlapping
shapes, fills and strokes, moving), confetti (many small layers turning
and falling), and a matte (a precomposition under a track matte, with a
mask and a gradient). 512x512, 60 fps, 2 s."""
import argparse
import json
import math
import os
import random

W = H = 512
FR = 60
OP = 120


def static(v):
    return {"a": 0, "k": v}


def animated(keys):
    """Keyframes [(t, value)] with an ease."""
    out = []
    for i, (t, v) in enumerate(keys):
        k = {"t": t, "s": v if isinstance(v, list) else [v]}
        if i < len(keys) - 1:
            n = len(k["s"])
            k["i"] = {"x": [0.4] * n, "y": [1] * n}
            k["o"] = {"x": [0.6] * n, "y": [0] * n}
        out.append(k)
    return {"a": 1, "k": out}


def transform(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100):
    return {
        "p": p if isinstance(p, dict) else static([p[0], p[1], 0]),
        "a": static([a[0], a[1], 0]), "s": static([s[0], s[1], 100]),
        "r": r if isinstance(r, dict) else static(r), "o": static(o),
    }


def group_transform():
    return {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
            "r": static(0), "o": static(100)}


def shape_layer(ind, shapes, ks, **extra):
    layer = {"ddd": 0, "ind": ind, "ty": 4, "nm": f"shape {ind}", "ip": 0, "op": OP, "st": 0,
             "sr": 1, "ks": ks, "shapes": shapes}
    layer.update(extra)
    return layer


def color(rng):
    return [round(rng.random(), 3), round(rng.random(), 3), round(rng.random(), 3), 1]


def character():
    rng = random.Random(37)
    layers = []
    for i in range(48):
        kind = i % 3
        size = 40 + rng.random() * 120
        if kind == 0:
            geometry = {"ty": "el", "p": static([0, 0]), "s": static([size, size * 0.8])}
        elif kind == 1:
            geometry = {"ty": "rc", "p": static([0, 0]), "s": static([size, size * 0.6]),
                        "r": static(size * 0.1)}
        else:
            geometry = {"ty": "sr", "sy": 1, "pt": static(5 + i % 3), "p": static([0, 0]),
                        "r": static(0), "ir": static(size * 0.2), "or": static(size * 0.5),
                        "is": static(0), "os": static(0)}
        items = [geometry, {"ty": "fl", "c": static(color(rng)), "o": static(85)}]
        if i % 2 == 0:
            items.append({"ty": "st", "c": static([0.1, 0.1, 0.15, 1]), "o": static(100),
                          "w": static(3 + i % 4), "lc": 2, "lj": 2})
        items.append(group_transform())
        x, y = 96 + rng.random() * 320, 96 + rng.random() * 320
        dx, dy = rng.uniform(-30, 30), rng.uniform(-30, 30)
        ks = transform(
            p=animated([(0, [x, y, 0]), (OP // 2, [x + dx, y + dy, 0]), (OP, [x, y, 0])]),
            r=animated([(0, 0), (OP, rng.choice([-20, 20]))]))
        layers.append(shape_layer(i + 1, [{"ty": "gr", "it": items}], ks))
    return document("suite-character", layers)


def confetti():
    rng = random.Random(83)
    layers = []
    for i in range(160):
        x = rng.random() * W
        w, h = 6 + rng.random() * 8, 10 + rng.random() * 10
        items = [{"ty": "rc", "p": static([0, 0]), "s": static([w, h]), "r": static(1)},
                 {"ty": "fl", "c": static(color(rng)), "o": static(100)}, group_transform()]
        start = -40 + rng.random() * 420
        ks = transform(
            p=animated([(0, [x, start, 0]), (OP, [x + rng.uniform(-40, 40), start + 240, 0])]),
            r=animated([(0, 0), (OP, rng.choice([-1, 1]) * rng.uniform(180, 720))]))
        layers.append(shape_layer(i + 1, [{"ty": "gr", "it": items}], ks))
    return document("suite-confetti", layers)


def matte():
    rng = random.Random(11)
    inner = []
    for i in range(24):
        items = [{"ty": "el", "p": static([0, 0]), "s": static([60, 60])},
                 {"ty": "fl", "c": static(color(rng)), "o": static(90)}, group_transform()]
        angle = 2 * math.pi * i / 24
        x, y = 256 + 150 * math.cos(angle), 256 + 150 * math.sin(angle)
        ks = transform(p=animated([(0, [x, y, 0]), (OP, [512 - x, 512 - y, 0])]))
        inner.append(shape_layer(i + 1, [{"ty": "gr", "it": items}], ks))
    gradient = {"ty": "gf", "o": static(100), "r": 1, "t": 1, "s": static([0, 0]),
                "e": static([512, 512]), "g": {"p": 3, "k": static(
                    [0, 0.1, 0.2, 0.6, 0.5, 0.9, 0.5, 0.2, 1, 0.2, 0.8, 0.7])}}
    background = shape_layer(
        2, [{"ty": "gr", "it": [{"ty": "rc", "p": static([256, 256]), "s": static([512, 512]),
                                 "r": static(0)}, gradient, group_transform()]}],
        transform(),
        masksProperties=[{"mode": "a", "inv": False, "o": static(100), "x": static(0),
                          "pt": animated([(0, ellipse_path(256, 256, 220, 160)),
                                          (OP, ellipse_path(256, 256, 160, 220))])}])
    matte_layer = shape_layer(
        3, [{"ty": "gr", "it": [{"ty": "rc", "p": static([0, 0]), "s": static([360, 120]),
                                 "r": static(60)},
                                {"ty": "fl", "c": static([1, 1, 1, 1]), "o": static(100)},
                                group_transform()]}],
        transform(p=static([256, 256, 0]), r=animated([(0, 0), (OP, 180)])), td=1)
    precomp = {"ddd": 0, "ind": 4, "ty": 0, "nm": "ring", "refId": "ring", "ip": 0, "op": OP,
               "st": 0, "sr": 1, "w": W, "h": H, "tt": 1, "ks": transform()}
    doc = document("suite-matte", [matte_layer, precomp, background])
    doc["assets"] = [{"id": "ring", "layers": inner}]
    return doc


def ellipse_path(cx, cy, rx, ry):
    k = 0.5523
    return [{"c": True,
             "v": [[cx, cy - ry], [cx + rx, cy], [cx, cy + ry], [cx - rx, cy]],
             "i": [[-rx * k, 0], [0, -ry * k], [rx * k, 0], [0, ry * k]],
             "o": [[rx * k, 0], [0, ry * k], [-rx * k, 0], [0, -ry * k]]}]


def document(name, layers):
    return {"v": "5.7.4", "nm": name, "fr": FR, "ip": 0, "op": OP, "w": W, "h": H, "ddd": 0,
            "assets": [], "layers": layers}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    for make in (character, confetti, matte):
        doc = make()
        with open(os.path.join(args.out, doc["nm"] + ".json"), "w") as f:
            json.dump(doc, f, separators=(",", ":"), sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()

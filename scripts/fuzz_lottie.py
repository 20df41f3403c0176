"""Lottie inputs for scripts/fuzz.py: hostile Lottie documents, dotLottie
archives and .tgs stickers for `lamina render` and `lamina info`.

Three sources, chosen per input by its seed:

- mutations of real documents: the conformance documents
  (../shared/lottie/conformance/data/**.json, read in place, never copied)
  and the test fixtures (Tests/LaminaLottieTests/Fixtures and its
  lottie/ folder), with a few
  structure-aware mutations each (types swapped, extreme numbers, keys
  removed, arrays grown, keyframes multiplied, expressions added);
- synthetic hostile documents: deep precomp nesting, a precomp that
  contains itself (directly or through another), huge repeater counts
  (nested), huge keyframe and vertex arrays, data-URI bombs, assets and
  fonts given as URLs, NaN and 1e999 numbers, wrong types;
- archives: a dotLottie or .tgs of a document, or a zip or gzip bomb, a
  lying size, an entry named outside the archive, a truncated archive.

Every document is written as text (NaN and 1e999 are not JSON: they are
written in on purpose). Commands: single frames (`--time`, `--frame`),
short sequences, `--frames all` and `--marker` as dry runs (a document may
ask for a billion frames: that is asked, not a hang), `--background`,
`--quiet`, and `lamina info`.
"""

import copy
import glob
import gzip
import io
import json
import math
import os
import random
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(ROOT, "..", "shared", "lottie", "conformance", "data")
FIXTURES = os.path.join(ROOT, "Tests", "LaminaLottieTests", "Fixtures", "lottie")
# The Lottie goldens' documents (masks, time remapping, effects, text from
# glyph shapes, merge paths: what the importer's tests cover).
LOTTIE_FIXTURES = os.path.join(ROOT, "Tests", "LaminaLottieTests", "Fixtures")
# Keys the shrinker keeps: without them a document is not Lottie any more.
TOP_KEYS = ("v", "fr", "ip", "op", "w", "h", "layers")


def load_corpus(max_bytes):
    """[(path, document)] of the conformance documents and the fixtures."""
    corpus = []
    paths = sorted(glob.glob(os.path.join(CONFORMANCE, "**", "*.json"), recursive=True))
    paths += sorted(glob.glob(os.path.join(FIXTURES, "*.json")))
    paths += sorted(glob.glob(os.path.join(LOTTIE_FIXTURES, "*.json")))
    for path in paths:
        try:
            if os.path.getsize(path) > max_bytes:
                continue
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and all(k in doc for k in TOP_KEYS):
            corpus.append((path, doc))
    return corpus


def base_document(w=200, h=200, op=60):
    return {"v": "5.7.4", "fr": 30, "ip": 0, "op": op, "w": w, "h": h, "ddd": 0, "assets": [],
            "layers": []}


def static(value):
    return {"a": 0, "k": value}


def transform():
    return {"o": static(100), "r": static(0), "p": static([100, 100, 0]), "a": static([0, 0, 0]),
            "s": static([100, 100, 100])}


def shape_layer(shapes, ind=1):
    return {"ddd": 0, "ind": ind, "ty": 4, "nm": "s%d" % ind, "sr": 1, "ip": 0, "op": 60, "st": 0,
            "ks": transform(), "shapes": shapes}


def rect_group(extra=()):
    return {"ty": "gr", "it": [
        {"ty": "rc", "d": 1, "s": static([40, 40]), "p": static([0, 0]), "r": static(4)},
        *extra,
        {"ty": "fl", "c": static([1, 0, 0, 1]), "o": static(100), "r": 1},
        {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
         "r": static(0), "o": static(100)}]}


def precomp_layer(ref, ind=1):
    return {"ddd": 0, "ind": ind, "ty": 0, "refId": ref, "sr": 1, "ip": 0, "op": 60, "st": 0,
            "w": 200, "h": 200, "ks": transform()}


def keyframes(count, dims=2):
    return {"a": 1, "k": [{"t": i, "s": [i % 200] * dims, "o": {"x": [0.3], "y": [0]},
                           "i": {"x": [0.7], "y": [1]}} for i in range(count)]}


BOMBS = {}


def synthetic(rng, png_bomb, png):
    """A hostile document made from nothing; returns (name, document)."""
    kind = rng.choice(["deep-precomp", "self-precomp", "cycle-precomp", "repeater", "keyframes",
                       "vertices", "data-uri-bomb", "url-assets", "url-font", "many-layers",
                       "huge-canvas", "zero-rate", "huge-op", "text"])
    doc = base_document()
    if kind == "deep-precomp":
        depth = rng.choice([50, 200, 1000])
        doc["assets"] = [{"id": "c%d" % i, "layers": [precomp_layer("c%d" % (i + 1))]}
                         for i in range(depth)]
        doc["assets"].append({"id": "c%d" % depth, "layers": [shape_layer([rect_group()])]})
        doc["layers"] = [precomp_layer("c0")]
    elif kind == "self-precomp":
        doc["assets"] = [{"id": "me", "layers": [precomp_layer("me"), shape_layer([rect_group()], 2)]}]
        doc["layers"] = [precomp_layer("me")]
    elif kind == "cycle-precomp":
        doc["assets"] = [{"id": "a", "layers": [precomp_layer("b")]},
                         {"id": "b", "layers": [precomp_layer("c")]},
                         {"id": "c", "layers": [precomp_layer("a")]}]
        doc["layers"] = [precomp_layer("a"), precomp_layer("a", 2)]
    elif kind == "repeater":
        copies = rng.choice([1e4, 1e6, 1e9, 1e300])
        inner = {"ty": "gr", "it": [rect_group()["it"][0],
                                    {"ty": "rp", "c": static(copies), "o": static(0), "m": 1,
                                     "tr": {"ty": "tr", "p": static([1, 0]), "a": static([0, 0]),
                                            "s": static([100, 100]), "r": static(1),
                                            "so": static(100), "eo": static(100)}},
                                    rect_group()["it"][-2], rect_group()["it"][-1]]}
        nested = inner
        for _ in range(rng.choice([1, 3, 6])):
            nested = {"ty": "gr", "it": [nested, {"ty": "rp", "c": static(100), "o": static(0), "m": 1,
                                                  "tr": {"ty": "tr", "p": static([2, 2]),
                                                         "a": static([0, 0]), "s": static([100, 100]),
                                                         "r": static(3), "so": static(100),
                                                         "eo": static(100)}},
                                         rect_group()["it"][-1]]}
        doc["layers"] = [shape_layer([nested])]
    elif kind == "keyframes":
        layer = shape_layer([rect_group()])
        layer["ks"]["p"] = keyframes(rng.choice([10001, 100000, 300000]), 3)
        doc["layers"] = [layer]
    elif kind == "vertices":
        n = rng.choice([20001, 100000, 300000])
        vertices = [[math.cos(i) * 90 + 100, math.sin(i * 1.1) * 90 + 100] for i in range(n)]
        zeros = [[0, 0]] * n
        doc["layers"] = [shape_layer([{"ty": "gr", "it": [
            {"ty": "sh", "ks": static({"c": True, "v": vertices, "i": zeros, "o": zeros})},
            {"ty": "fl", "c": static([0, 0, 1, 1]), "o": static(100), "r": 2},
            rect_group()["it"][-1]]}])]
    elif kind == "data-uri-bomb":
        import base64
        # A real bomb (zeros, 400 MB decoded; made once), or a header that lies.
        if rng.random() < 0.6:
            side = 10000
            if side not in BOMBS:
                BOMBS[side] = png_bomb(side, side)
            payload = BOMBS[side]
        else:
            side = rng.choice([30000, 100000, 1 << 20])
            payload = png(4, 4, ihdr_size=(side, side))
        doc["assets"] = [{"id": "img", "w": side, "h": side, "e": 1, "u": "",
                          "p": "data:image/png;base64," + base64.b64encode(payload).decode()}]
        doc["layers"] = [{"ddd": 0, "ind": 1, "ty": 2, "refId": "img", "sr": 1, "ip": 0, "op": 60,
                          "st": 0, "ks": transform()}]
    elif kind == "url-assets":
        url = rng.choice(["http://127.0.0.1:9/", "https://example.com/", "file:///etc/",
                          "ftp://example.com/", "//example.com/", "/etc/", "../../../../etc/"])
        doc["assets"] = [{"id": "img", "w": 10, "h": 10, "e": rng.choice([0, 1]), "u": url,
                          "p": rng.choice(["passwd", "img.png", "shadow"])}]
        doc["layers"] = [{"ddd": 0, "ind": 1, "ty": 2, "refId": "img", "sr": 1, "ip": 0, "op": 60,
                          "st": 0, "ks": transform()}]
    elif kind == "url-font":
        doc["fonts"] = {"list": [{"fName": "F", "fFamily": "F", "fStyle": "Regular", "ascent": 75,
                                  "fPath": rng.choice(["http://127.0.0.1:9/f.ttf", "file:///etc/passwd"]),
                                  "origin": 3}]}
        doc["layers"] = [{"ddd": 0, "ind": 1, "ty": 5, "sr": 1, "ip": 0, "op": 60, "st": 0,
                          "ks": transform(),
                          "t": {"d": {"k": [{"s": {"s": 40, "f": "F", "t": "hello", "j": 0,
                                                   "tr": 0, "lh": 48, "ls": 0, "fc": [0, 0, 0]},
                                             "t": 0}]},
                                "p": {}, "m": {"g": 1, "a": static([0, 0])}, "a": []}}]
    elif kind == "many-layers":
        doc["layers"] = [shape_layer([rect_group()], i + 1) for i in range(rng.choice([2000, 20000]))]
    elif kind == "huge-canvas":
        doc["w"] = rng.choice([1e9, 16385, -5, 0])
        doc["h"] = rng.choice([1e9, 2, 0])
        doc["layers"] = [shape_layer([rect_group()])]
    elif kind == "zero-rate":
        doc["fr"] = rng.choice([0, -30, 1e-300, 1e300])
        doc["layers"] = [shape_layer([rect_group()])]
    elif kind == "huge-op":
        doc["op"] = rng.choice([1e9, 1e15, 1e300])
        doc["markers"] = [{"cm": "all", "tm": 0, "dr": doc["op"]}, {"cm": "neg", "tm": -1e300, "dr": 5}]
        doc["layers"] = [shape_layer([rect_group()])]
    else:
        text = rng.choice(["x" * 100000, "\u0000\u202e" * 1000, "", "é" * 30000])
        doc["layers"] = [{"ddd": 0, "ind": 1, "ty": 5, "sr": 1, "ip": 0, "op": 60, "st": 0,
                          "ks": transform(),
                          "t": {"d": {"k": [{"s": {"s": rng.choice([40, 1e6, -1]), "f": "Sans",
                                                   "t": text, "j": 0, "tr": 0, "lh": 48, "ls": 0,
                                                   "fc": [0, 0, 0]}, "t": 0}]},
                                "p": {}, "m": {"g": 1, "a": static([0, 0])},
                                "a": [{"s": {"t": 0, "r": 1}, "a": {"o": static(0)}}]}}]
    return "synthetic " + kind, doc


def nodes(value, path=()):
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((value, k))
            out.extend(nodes(v, path + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((value, i))
            out.extend(nodes(v, path + (i,)))
    return out


WEIRD = [None, True, "", "x", [], {}, -1, 0, 1e308, -1e308, 1e-320, 2 ** 63, [1e308, 1e308],
         {"a": 1, "k": None}, {"a": 1, "k": []}, {"a": 1, "k": [{"t": 0}]}, [[[]]], "#zz"]


def mutate(doc, rng):
    """One structure-aware mutation of `doc` in place; returns its name."""
    positions = nodes(doc)
    if not positions:
        return "none"
    container, key = rng.choice(positions)
    value = container[key]
    kind = rng.choice(["type", "number", "delete", "grow", "keyframes", "expression", "nest",
                       "ip-op", "refs", "number"])
    if kind == "type":
        container[key] = copy.deepcopy(rng.choice(WEIRD))
    elif kind == "number":
        numbers = [(c, k) for c, k in positions
                   if isinstance(c[k], (int, float)) and not isinstance(c[k], bool)]
        if numbers:
            c, k = rng.choice(numbers)
            c[k] = rng.choice([1e300, -1e300, 1e9, -1e9, 0, -1, 1e-300, 65536, 2 ** 53 + 1,
                               c[k] * 1000, -c[k]])
    elif kind == "delete":
        if isinstance(container, dict):
            del container[key]
        elif container:
            container.pop(key)
    elif kind == "grow":
        if isinstance(value, list) and value and len(json.dumps(value)) < 2000:
            container[key] = value * rng.choice([100, 1000, 5000])
    elif kind == "keyframes":
        animated = [(c, k) for c, k in positions
                    if isinstance(c[k], dict) and c[k].get("a") == 1 and isinstance(c[k].get("k"), list)]
        if animated:
            c, k = rng.choice(animated)
            frames = c[k]["k"]
            if frames and len(json.dumps(frames)) < 5000:
                c[k]["k"] = [dict(f, t=i) if isinstance(f, dict) else f
                             for i, f in enumerate(frames * (20000 // max(1, len(frames))))]
    elif kind == "expression":
        props = [(c, k) for c, k in positions if isinstance(c[k], dict) and "k" in c[k] and "a" in c[k]]
        if props:
            c, k = rng.choice(props)
            c[k]["x"] = rng.choice(["wiggle(5, 50)", "loopOut()", "while(true){}", "x" * 10000])
    elif kind == "nest":
        if isinstance(container, (dict, list)):
            nested = value
            for _ in range(rng.choice([100, 300])):
                nested = {"ty": "gr", "it": [nested]}
            container[key] = nested
    elif kind == "ip-op":
        doc[rng.choice(["ip", "op", "fr"])] = rng.choice([0, -1, 1e9, 1e-9, 1e300, 59.5])
        if rng.random() < 0.5:
            doc["markers"] = [{"cm": "m", "tm": rng.choice([0, -100, 1e9]), "dr": rng.choice([0, -5, 1e12])}]
    else:
        layers = [(c, k) for c, k in positions if k in ("refId", "parent", "ind", "tt", "td", "tp")]
        if layers:
            c, k = rng.choice(layers)
            c[k] = rng.choice([c[k], "missing", 0, -1, 1, 99999, None])
    return kind


def to_text(doc, rng):
    """The document as JSON text; sometimes with NaN or 1e999 written in."""
    text = json.dumps(doc)
    if rng.random() < 0.08:
        marker = rng.choice(['"k": 100', '"k": 0', '"fr": ', '"w": '])
        text = text.replace(marker, marker.replace("100", "NaN").replace("0", "1e999"), 1)
    return text


def archive(rng, text):
    """(file name, bytes): the document in a dotLottie or .tgs, or a bomb."""
    data = text.encode()
    kind = rng.choice(["lottie", "lottie", "tgs", "tgs", "zip-bomb", "ratio-bomb", "gzip-bomb",
                       "gzip-liar", "traversal", "absolute", "truncated", "no-animation",
                       "manifest-missing"])
    if kind in ("tgs", "gzip-bomb", "gzip-liar"):
        if kind == "tgs":
            return "fuzz.tgs", gzip.compress(data)
        bomb = gzip.compress(b" " * (rng.choice([33, 64, 200]) << 20), compresslevel=9)
        if kind == "gzip-liar":
            bomb = bomb[:-4] + (100).to_bytes(4, "little")
        return "fuzz.tgs", bomb
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        if kind != "manifest-missing":
            z.writestr("manifest.json", json.dumps({"version": "1", "activeAnimationId": "a",
                                                    "animations": [{"id": "a"}]}))
        if kind != "no-animation":
            z.writestr("animations/a.json" if kind != "manifest-missing" else "animations/b.json", data)
        z.writestr("images/img_0.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
        if kind == "zip-bomb":
            z.writestr("images/bomb.png", b"\0" * (rng.choice([40, 200]) << 20))
        elif kind == "ratio-bomb":
            z.writestr("animations/z.json", b" " * (8 << 20))
        elif kind == "traversal":
            z.writestr("../../" + rng.choice(["evil.json", "images/x.png"]), b"{}")
        elif kind == "absolute":
            z.writestr("/tmp/evil.json", b"{}")
    blob = out.getvalue()
    if kind == "truncated":
        blob = blob[: rng.randrange(4, max(5, len(blob)))]
    return "fuzz.lottie", blob


VARIANTS = ["png", "png", "time", "frame", "frames", "all", "marker", "video", "scale",
            "background", "quiet", "info", "info-json"]


def command_for(variant, rng, path, work):
    """(arguments, expected outputs, stdout is video) for a Lottie input."""
    out = os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    png = os.path.join(out, "out.png")
    if variant in ("info", "info-json"):
        return ["info", path] + (["--json"] if variant == "info-json" else []), [], False
    cmd = ["render", path]
    if variant in ("png", "time", "frame", "scale", "background", "quiet"):
        cmd += ["-o", png]
        if variant == "time":
            cmd += ["--time", repr(rng.choice([0.5, 3, 1e6, 1e9]))]
        elif variant == "frame":
            cmd += ["--frame", repr(rng.choice([0, 12.5, 59, 1e6, -1]))]
        elif variant == "scale":
            cmd += ["--scale", repr(rng.choice([0.01, 0.3, 2, 8]))]
        elif variant == "background":
            cmd += ["--background", rng.choice(["#ffffff", "#00000080", "#12345678"])]
        else:
            cmd += ["--quiet"]
        return cmd, [png], False
    if variant == "frames":
        last = rng.choice([0, 2])
        cmd += ["--frames", "0..%d" % last, "--scale", "0.25", "-o", os.path.join(out, "f-%04d.png")]
        return cmd, [os.path.join(out, "f-%04d.png" % n) for n in range(last + 1)], False
    if variant in ("all", "marker"):
        # Dry runs: a document may ask for a billion frames.
        cmd += ["--frames", "all"] if variant == "all" else ["--marker", rng.choice(["m", "loop", "x"])]
        cmd += ["-o", os.path.join(out, "f-%04d.png"), "--dry-run"]
        return cmd, [], False
    cmd += ["--frames", "0..%d" % rng.choice([0, 2]), "--scale", "0.25", "--video",
            os.path.join(out, "out.y4m")]
    return cmd, [os.path.join(out, "out.y4m")], False


def generate(rng, corpus, png_bomb, png):
    """(source, document or None, file name, bytes, mutations) of one input."""
    if corpus and rng.random() < 0.6:
        path, original = rng.choice(corpus)
        doc = copy.deepcopy(original)
        source = os.path.relpath(path, ROOT)
        applied = [mutate(doc, rng) for _ in range(rng.choice([1, 1, 2, 3]))]
    else:
        source, doc = synthetic(rng, png_bomb, png)
        applied = [source]
    text = to_text(doc, rng)
    if rng.random() < 0.2:
        name, data = archive(rng, text)
        applied.append("archive")
        return source, None, name, data, applied
    if rng.random() < 0.03:
        text = text[: rng.randrange(1, max(2, len(text)))]
        applied.append("cut")
        return source, None, "fuzz.json", text.encode(), applied
    return source, doc, "fuzz.json", text.encode(), applied

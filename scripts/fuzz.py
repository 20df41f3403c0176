#!/usr/bin/env python3
"""Lamina's fuzzer: hostile scene files for `lamina render`, found, shrunk and saved.

A seeded, structure-aware mutator of the project's own scenes (the test
fixtures, Examples/ and Benchmarks/scenes): each input is a valid scene with
a few mutations (types swapped, extreme numbers, huge counts, deep nesting,
long arrays, path data with enormous arcs and curves, images with lying
headers, truncated and corrupt PNG and JPEG made here, image paths that
escape the allowed folders: absolute, `../`, links the fuzzer makes, URLs),
rendered by
`lamina render` (single frames, `--frames` sequences and `--video`, with odd
flags) under a timeout and a resident-memory limit. Each outcome is classed:

  render          exit 0, the output is there and whole, nothing on stderr
  error           a clean error: exit 1 naming the scene file (or a usage error, exit 2)
  crash           killed by a signal (a Swift trap is SIGILL or SIGTRAP)
  hang            still running at the timeout
  memory          resident memory past the limit
  slow            a frame past its time budget (a clean error, but a limit too loose)
  partial-output  a failed run left a file behind (a temporary, a frame, a video)
  no-path         an error message that does not name the scene file
  stderr-noise    exit 0 but something on standard error
  bad-output      exit 0 but an output missing, empty or not PNG/YUV4MPEG2
  bad-status      any other exit status
  escape          exit 0 although the scene names an image outside the folders
                  it may read (a secret PNG in a private temporary folder)

The last ten are findings: each is shrunk (layers, keys and list items
removed, numbers simplified, while the outcome stays the same) and saved
under OUT/findings/CLASS-SEED-INDEX/ with its images and the command.
Same seed and count, same inputs: a run is reproducible.

A share of the inputs (--lottie-share, default 0.3) are Lottie documents,
dotLottie archives and .tgs stickers instead (scripts/fuzz_lottie.py:
mutated conformance documents, synthetic hostile ones, archive bombs),
rendered and described (`lamina info`) the same way.

  scripts/fuzz.py --seed 1 --count 200                # 200 inputs from seed 1
  scripts/fuzz.py --seed 7 --duration 3600 --jobs 2   # an hour
  scripts/fuzz.py --replay OUT/findings/crash-7-31    # run a saved finding again
  scripts/fuzz.py --check-escapes                     # each escaping image path once

Exit status: 0 when nothing was found, 1 when something was, 2 on bad usage.
The last line of output is a JSON summary (inputs, seeds, outcome counts,
findings) that a test or a note can quote.
"""

import argparse
import copy
import json
import os
import random
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_lottie  # noqa: E402
FINDINGS = ["crash", "hang", "memory", "slow", "partial-output", "no-path", "stderr-noise",
            "bad-output", "bad-status", "escape"]

# --------------------------------------------------------------------------
# Images made here: valid, lying, truncated, corrupt, bombs.


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, rows=None, ihdr_size=None, color_type=6):
    """A PNG of width x height (RGBA unless told); ihdr_size lies in the header."""
    w, h = ihdr_size or (width, height)
    channels = {6: 4, 2: 3, 0: 1}[color_type]
    if rows is None:
        row = b"\x00" + bytes([200, 60, 30, 255][:channels]) * width
        raw = row * height
    else:
        raw = rows
    ihdr = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def png_bomb(width, height):
    """A valid PNG of zeros: tiny on disk, width*height*4 bytes decoded."""
    row = b"\x00" * (1 + 4 * width)
    c = zlib.compressobj(9)
    parts = [c.compress(row) for _ in range(height)]
    parts.append(c.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", b"".join(parts)) + png_chunk(b"IEND", b""))


def jpeg_segment(marker, payload):
    return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg_tables():
    dqt = jpeg_segment(0xDB, b"\x00" + bytes([1] * 64))
    # One Huffman code ('0') for symbol 0 in DC table 0 and AC table 0:
    # category 0 for DC, EOB for AC.
    counts = bytes([1] + [0] * 15)
    dht = jpeg_segment(0xC4, b"\x00" + counts + b"\x00") + jpeg_segment(0xC4, b"\x10" + counts + b"\x00")
    return dqt + dht


def jpeg(width, height, sof_size=None, truncate=False):
    """A flat grayscale baseline JPEG: every block DC 0, AC all zero."""
    w, h = sof_size or (width, height)
    sof = jpeg_segment(0xC0, struct.pack(">BHHB", 8, h, w, 1) + b"\x01\x11\x00")
    sos = jpeg_segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    blocks = ((width + 7) // 8) * ((height + 7) // 8)
    bits = "00" * blocks  # DC category 0, then EOB, per block
    bits += "1" * (-len(bits) % 8)
    data = bytearray(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    data = bytes(data).replace(b"\xff", b"\xff\x00")
    if truncate:
        data = data[: len(data) // 3]
    out = b"\xff\xd8" + jpeg_tables() + sof + sos + data
    return out if truncate else out + b"\xff\xd9"


def jpeg_progressive(scans_per_band=14, bands=63):
    """An 8x8 progressive JPEG whose progression is valid and very long:
    DC then every AC coefficient on its own, each refined bit by bit."""
    sof = jpeg_segment(0xC2, struct.pack(">BHHB", 8, 8, 8, 1) + b"\x01\x11\x00")
    out = b"\xff\xd8" + jpeg_tables() + sof
    top = min(13, scans_per_band - 1)

    def scan(ss, se, ah, al):
        return jpeg_segment(0xDA, b"\x01\x01\x00" + bytes([ss, se, (ah << 4) | al])) + b"\x7f"
    out += scan(0, 0, 0, top)
    for a in range(top, 0, -1):
        out += scan(0, 0, a, a - 1)
    for k in range(1, bands + 1):
        out += scan(k, k, 0, top)
        for a in range(top, 0, -1):
            out += scan(k, k, a, a - 1)
    return out + b"\xff\xd9"


def corrupt(data, rng):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
    return bytes(b)


IMAGE_KINDS = ["png", "png-lying", "png-truncated", "png-corrupt", "png-bomb", "jpeg",
               "jpeg-lying", "jpeg-truncated", "jpeg-corrupt", "jpeg-scans", "not-image",
               "empty", "png-wide"]


def make_image(kind, rng, folder):
    """Writes an image of `kind` into `folder` (once per kind and variant) and returns its path."""
    variant = rng.randrange(3)
    name = os.path.join(folder, "%s-%d.%s" % (kind, variant, "jpg" if kind.startswith("jpeg") else "png"))
    if os.path.exists(name):
        return name
    size = [(16, 16), (300, 7), (1, 1)][variant]
    if kind == "png":
        data = png(*size)
    elif kind == "png-lying":
        data = png(4, 4, ihdr_size=[(100000, 100000), (16384, 16384), (2 ** 31 - 1, 1)][variant])
    elif kind == "png-truncated":
        full = png(64, 64)
        data = full[: len(full) * (variant + 1) // 5]
    elif kind == "png-corrupt":
        data = corrupt(png(32, 32), rng)
    elif kind == "png-bomb":
        data = png_bomb(*[(16384, 4096), (8192, 8192), (16384, 16384)][variant])
    elif kind == "png-wide":
        data = png(*[(16385, 1), (1, 20000), (4096, 4096)][variant])
    elif kind == "jpeg":
        data = jpeg(*size)
    elif kind == "jpeg-lying":
        data = jpeg(8, 8, sof_size=[(60000, 60000), (16384, 16384), (65535, 1)][variant])
    elif kind == "jpeg-truncated":
        data = jpeg(256, 256, truncate=True)
    elif kind == "jpeg-corrupt":
        data = corrupt(jpeg(64, 64), rng)
    elif kind == "jpeg-scans":
        data = jpeg_progressive(scans_per_band=[14, 3, 2][variant], bands=[63, 63, 40][variant])
    elif kind == "not-image":
        data = b'{"lamina": 1}'
    else:
        data = b""
    with open(name, "wb") as f:
        f.write(data)
    return name


# --------------------------------------------------------------------------
# The corpus and its mutations.

EXTREME = [1e308, -1e308, 1e-308, -1e-308, 0, -0.0, -1, 1e9, -1e9, 1e7 + 1, 1e15, 1e19,
           2 ** 31, 2 ** 53, 4294967296, 0.5, 1e-9, 1e6, 123456789.123, 1e300, 3.4e38]
# Just inside the limits (docs/limits.md): these load, and must still render
# in bounded time and memory.
NEAR_LIMIT = [1e7, -1e7, 9999999.5, 1e6, -1e6, 999999, 500, 499.9, 2048, 16384, 8192,
              1e-300, 5e-324, 1 / 1024, 1024, 99999, 100000, 1e9, -1e9, 0.0001]
HUGE_COUNTS = [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 9, 4294967295]
NEAR_COUNTS = [99999, 100000, 50000, 316, 1000, 20000]
COUNT_KEYS = ["shadowRadius", "cornerRadius", "borderWidth", "speed", "duration", "timeOffset",
              "beginTime", "zPosition", "anchorPointZ", "rasterizationScale", "contentsScale",
              "opacity", "shadowOpacity", "repeatCount"]
CLASS_KEYS = {
    "CAReplicatorLayer": ["instanceCount", "instanceDelay"],
    "CAEmitterLayer": ["birthRate", "lifetime", "velocity", "scale", "spin"],
    "CATextLayer": ["fontSize"],
    "CAShapeLayer": ["lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd"],
}
# Lists whose length is free (a frame or a color has a fixed one).
FREE_LISTS = {"sublayers", "colors", "locations", "values", "keyTimes", "filters",
              "backgroundFilters", "animations", "lineDashPattern", "emitterCells",
              "timingFunctions", "maskedCorners"}


def load_corpus(max_bytes):
    folders = [os.path.join(ROOT, "Tests"), os.path.join(ROOT, "Examples"),
               os.path.join(ROOT, "Benchmarks", "scenes")]
    scenes = []
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            if "findings" in dirpath.split(os.sep):
                continue
            for name in sorted(filenames):
                if not name.endswith(".json") or name == "manifest.json":
                    continue
                path = os.path.join(dirpath, name)
                if os.path.getsize(path) > max_bytes:
                    continue
                try:
                    with open(path, "rb") as f:
                        doc = json.loads(f.read())
                except (ValueError, UnicodeDecodeError):
                    continue
                if isinstance(doc, dict) and doc.get("lamina") == 1 and "root" in doc:
                    scenes.append((path, doc))
    return scenes


def absolutize_images(doc, scene_path):
    images = doc.get("images")
    if isinstance(images, dict):
        base = os.path.dirname(scene_path)
        for k, v in list(images.items()):
            if isinstance(v, str) and not v.startswith("/"):
                images[k] = os.path.join(base, v)
    return doc


def nodes(value, path=()):
    """Every (container, key) under value, depth first."""
    out = []
    if isinstance(value, dict):
        for k in list(value.keys()):
            out.append((value, k))
            out.extend(nodes(value[k]))
    elif isinstance(value, list):
        for i in range(len(value)):
            out.append((value, i))
            out.extend(nodes(value[i]))
    return out


def layers(doc):
    """Every layer object of the scene (root, sublayers, masks)."""
    found = []

    def walk(layer):
        if not isinstance(layer, dict):
            return
        found.append(layer)
        subs = layer.get("sublayers")
        if isinstance(subs, list):
            for s in subs:
                walk(s)
        walk(layer.get("mask"))
    walk(doc.get("root"))
    return found


def random_path(rng):
    kind = rng.randrange(6)
    big = rng.choice([1e7, 1e9, 1e15, 1e300, 1e308, 5e6])
    if kind == 0:
        return "M 0 0 A %g %g 0 1 1 %g %g Z" % (big, big, rng.choice([1, big]), rng.choice([1, -big]))
    if kind == 1:
        return "M 0 0 C %g %g %g %g 10 10" % (big, -big, -big, big)
    if kind == 2:
        return "M 0 0 " + "l 1 1 " * rng.choice([1000, 50000, 120000])
    if kind == 3:
        return "M 0 0 " + ("a 5e6 5e6 0 1 1 5e6 5e6 " * rng.choice([3, 10, 40]))
    if kind == 4:
        return "M 0 0 " + "q 1e6 -1e6 2e6 0 " * rng.choice([10, 100])
    return "M 1e-308 1e-308 L 1e308 0 Z"


def random_text(rng):
    choices = [
        "\u0000nul\u0000", "x" * rng.choice([100, 19999, 20001, 100000]),
        "\u0301" * 5000, "\u202eRTL\u202d" * 200, "\ud83d\ude00" * 3000, "\ufeff\ufffe\uffff",
        "a\u200d" * 4000, "\n" * 3000, "\t\r\x0b\x0c", "مرحبا" * 500, "",
    ]
    return rng.choice(choices)


def new_layer(rng, depth=0):
    layer = {"frame": [rng.uniform(-50, 150), rng.uniform(-50, 150), rng.uniform(0, 120),
                       rng.uniform(0, 120)], "backgroundColor": "#3366cc"}
    pick = rng.randrange(9)
    if pick == 0:
        layer["class"] = "CAReplicatorLayer"
        layer["instanceCount"] = rng.choice(HUGE_COUNTS)
        layer["instanceTransform"] = [{"translate": [3, 0, 0]}]
        layer["sublayers"] = [new_layer(rng, depth + 1) if depth < 3 else {"frame": [0, 0, 4, 4], "backgroundColor": "#ff0000"}]
    elif pick == 1:
        layer["class"] = "CAEmitterLayer"
        layer["birthRate"] = rng.choice([1, 1e3, 1e6, 1e9])
        layer["lifetime"] = rng.choice([1, 1e3, 1e9])
        cell = {"birthRate": rng.choice([10, 1e4, 1e9]), "lifetime": rng.choice([1, 100, 1e9]),
                "velocity": rng.choice([10, 1e9]), "contents": "__image__"}
        if rng.random() < 0.5:
            cell["emitterCells"] = [dict(cell)]
        layer["emitterCells"] = [cell]
    elif pick == 2:
        layer["filters"] = [{"name": "CIGaussianBlur", "inputRadius": rng.choice([10, 500, 501, 1e9])}
                            for _ in range(rng.choice([1, 16, 17, 200]))]
    elif pick == 3:
        layer["shadowOpacity"] = 1
        layer["shadowRadius"] = rng.choice([100, 500, 1e308])
        layer["shadowPath"] = random_path(rng) if rng.random() < 0.3 else None
        layer["sublayers"] = [{"frame": [0, 0, 10, 10], "backgroundColor": "#00ff00"}]
    elif pick == 4:
        layer["class"] = "CAShapeLayer"
        layer["path"] = random_path(rng)
        layer["strokeColor"] = "#000000"
        layer["lineWidth"] = rng.choice([1, 1e6, 1e9])
        if rng.random() < 0.5:
            layer["lineDashPattern"] = [rng.choice([1e-300, 1e-9, 0.001, 0, 1])] * rng.choice([2, 256, 257])
    elif pick == 5:
        layer["class"] = "CATextLayer"
        layer["string"] = random_text(rng)
        layer["fontSize"] = rng.choice([12, 2048, 1e6, 0, -5])
        layer["font"] = rng.choice(["DejaVu Sans", "No Such Font", "", "\u0000", "Sans Bold 9999"])
        layer["isWrapped"] = rng.random() < 0.5
    elif pick == 6:
        layer["contents"] = "__image__"
        layer["contentsScale"] = rng.choice([1, 1e-3, 1 / 1024, 1024, 1e9])
    elif pick == 7:
        layer["mask"] = {"frame": [0, 0, 50, 50], "backgroundColor": "#000000",
                         "filters": [{"name": "CIGaussianBlur", "inputRadius": 50}]}
        layer["opacity"] = 0.5
        layer["sublayers"] = [{"frame": [0, 0, 10, 10], "backgroundColor": "#ff0000"},
                              {"frame": [5, 5, 10, 10], "backgroundColor": "#00ff00"}]
    else:
        layer["animations"] = [random_animation(rng)]
    return layer


def random_animation(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return {"class": "CASpringAnimation", "keyPath": "position.x", "fromValue": 0, "toValue": 100,
                "mass": rng.choice([1e-308, 1, 1e9]), "stiffness": rng.choice([1e-308, 100, 1e9]),
                "damping": rng.choice([0, 1e9, 1e-308]), "initialVelocity": rng.choice([0, 1e9, -1e9]),
                "duration": rng.choice([1, 1e9])}
    if kind == 1:
        return {"keyPath": rng.choice(["shadowRadius", "bounds.size.width", "position", "transform.scale",
                                       "cornerRadius", "opacity", "zPosition", "transform.rotation.z"]),
                "byValue": None, "fromValue": None,
                "toValue": rng.choice([1e9, -1e9, 1e7]) if rng.random() < 0.7 else [1e9, 1e9],
                "isAdditive": True, "isCumulative": True, "repeatCount": rng.choice([1e9, 1e30, "infinity"]),
                "duration": rng.choice([1e-308, 1e-9, 0.001, 1])}
    if kind == 2:
        n = rng.choice([2, 10001, 5000])
        return {"class": "CAKeyframeAnimation", "keyPath": "opacity",
                "values": [rng.random() for _ in range(n)], "duration": 1}
    if kind == 3:
        return {"class": "CAKeyframeAnimation", "keyPath": "position", "path": random_path(rng),
                "duration": rng.choice([1, 1e-300]), "calculationMode": rng.choice(["paced", "cubicPaced", "linear"]),
                "rotationMode": "auto"}
    return {"keyPath": "opacity", "fromValue": 0, "toValue": 1, "speed": rng.choice([1e-308, 1e9, -1e9]),
            "timeOffset": rng.choice([1e9, -1e9]), "beginTime": rng.choice([-1e9, 1e9]),
            "autoreverses": True, "fillMode": "both"}


def clean_none(value):
    if isinstance(value, dict):
        return {k: clean_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [clean_none(v) for v in value]
    return value


def mutate(doc, rng, images_folder):
    """One mutation of `doc` (in place); returns its name."""
    all_layers = layers(doc)
    if not all_layers:
        # The root went in an earlier mutation: a fresh one to mutate.
        doc["root"] = {}
        all_layers = layers(doc)
    choice = rng.randrange(16)
    if choice == 0:  # an extreme number, or one just inside the limits
        targets = [(c, k) for c, k in nodes(doc) if isinstance(c[k], (int, float)) and not isinstance(c[k], bool)]
        near = rng.random() < 0.6
        for _ in range(rng.choice([1, 1, 3, 10])):
            if targets:
                c, k = rng.choice(targets)
                c[k] = rng.choice(NEAR_LIMIT if near else EXTREME)
        return "near-limit-number" if near else "extreme-number"
    if choice == 1 and rng.random() < 0.5:
        choice = 8
    if choice == 1:  # a value of another type
        targets = nodes(doc)
        if targets:
            c, k = rng.choice(targets)
            c[k] = rng.choice(["", "#zz", [], {}, True, None, [1, 2, 3], {"a": 1}, 7, "infinity"])
        return "type"
    if choice == 2:  # a count or radius key set to a huge value (or the largest allowed)
        near = rng.random() < 0.6
        for _ in range(rng.choice([1, 2, 4])):
            layer = rng.choice(all_layers)
            keys = COUNT_KEYS + CLASS_KEYS.get(layer.get("class"), [])
            if "animations" in layer and rng.random() < 0.5:
                keys = ["animations"]
            key = rng.choice(keys)
            value = rng.choice(NEAR_COUNTS + NEAR_LIMIT if near else HUGE_COUNTS + EXTREME)
            if key == "animations":
                if isinstance(layer["animations"], list) and layer["animations"] and \
                        isinstance(layer["animations"][0], dict):
                    anim = rng.choice(layer["animations"])
                    if isinstance(anim, dict):
                        anim[rng.choice(["repeatCount", "duration", "speed", "timeOffset", "beginTime",
                                         "fromValue", "toValue", "byValue"])] = value
            else:
                layer[key] = value
        return "near-limit-count" if near else "count"
    if choice == 3:  # deep nesting
        layer = rng.choice(all_layers)
        depth = rng.choice([50, 99, 101, 170])
        extra = rng.choice([{}, {"filters": [{"name": "CIGaussianBlur", "inputRadius": 30}]},
                            {"opacity": 0.5}, {"masksToBounds": True, "cornerRadius": 5},
                            {"shadowOpacity": 1, "shadowRadius": 40}])
        inner = {"frame": [0, 0, 40, 40], "backgroundColor": "#ff00ff"}
        for _ in range(depth):
            inner = dict(extra, frame=[1, 1, 60, 60], sublayers=[inner, {"frame": [0, 0, 2, 2], "backgroundColor": "#000000"}])
        layer.setdefault("sublayers", [])
        if isinstance(layer["sublayers"], list):
            layer["sublayers"].append(inner)
        return "nesting"
    if choice == 4:  # a long list
        targets = [(c, k) for c, k in nodes(doc) if isinstance(c[k], list) and c[k]
                   and (k in FREE_LISTS or rng.random() < 0.05)]
        if targets:
            c, k = rng.choice(targets)
            size = len(json.dumps(c[k]))
            # Long, not enormous: the file limit is tested on its own.
            factors = [f for f in (10, 100, 3000) if size * f < 4000000] or [2]
            c[k] = c[k] * rng.choice(factors)
        return "long-list"
    if choice == 5:  # many siblings
        layer = rng.choice(all_layers)
        template = new_layer(rng)
        layer["sublayers"] = (layer.get("sublayers") if isinstance(layer.get("sublayers"), list) else []) + \
            [copy.deepcopy(template) for _ in range(rng.choice([50, 300, 2000]))]
        return "siblings"
    if choice == 6:  # path data
        layer = rng.choice(all_layers)
        layer["class"] = "CAShapeLayer"
        layer.pop("sublayers", None) if rng.random() < 0.2 else None
        layer["path"] = random_path(rng)
        layer["strokeColor"] = "#ff0000"
        return "path"
    if choice == 7 and rng.random() < 0.25:  # an image path that leaves the allowed folders
        kind, path = escaping_path(rng, images_folder)
        name = "fuzz%d" % rng.randrange(4)
        doc.setdefault("images", {})
        if isinstance(doc["images"], dict):
            doc["images"][name] = path
        rng.choice(all_layers)["contents"] = name
        return "escape-" + kind
    if choice == 7:  # an image
        kind = rng.choice(IMAGE_KINDS)
        name = "fuzz%d" % rng.randrange(4)
        doc.setdefault("images", {})
        if isinstance(doc["images"], dict):
            doc["images"][name] = make_image(kind, rng, images_folder)
            if rng.random() < 0.4:  # entries naming one file
                for j in range(3):
                    doc["images"]["%s-dup%d" % (name, j)] = doc["images"][name]
        layer = rng.choice(all_layers)
        layer["contents"] = name
        return "image-" + kind
    if choice == 8:  # a new hostile layer
        layer = rng.choice(all_layers)
        subs = layer.get("sublayers")
        layer["sublayers"] = (subs if isinstance(subs, list) else []) + [new_layer(rng)]
        return "layer"
    if choice == 9:  # a hostile animation
        layer = rng.choice(all_layers)
        anims = layer.get("animations")
        layer["animations"] = (anims if isinstance(anims, list) else []) + [random_animation(rng)]
        return "animation"
    if choice == 10:  # the canvas
        canvas = doc.get("canvas")
        if isinstance(canvas, dict):
            key = rng.choice(["width", "height", "scale"])
            canvas[key] = rng.choice([16384, 16385, 1e-308, 8, 8.0001, 0.001, 1e9, 8192, 32768])
        return "canvas"
    if choice == 11:  # a transform
        layer = rng.choice(all_layers)
        layer[rng.choice(["transform", "sublayerTransform"])] = rng.choice([
            [{"perspective": rng.choice([1e-308, 1e-9, -1e-300])}],
            [{"scale": [1e7, 1e7, 1]}], [{"scale": [1e-308, 1e-308, 1]}],
            [{"rotate": [1e9, 0, 1, 0]}], [{"translate": [1e9, 0, 0]}],
            [0] * 16, [1e7] * 16, [{"matrix": [1e-308] * 16}]])
        return "transform"
    if choice == 12:  # text
        layer = rng.choice(all_layers)
        layer["class"] = "CATextLayer"
        layer["string"] = random_text(rng)
        layer["fontSize"] = rng.choice([1, 36, 2048, 2049, 1e-308])
        return "text"
    if choice == 13:  # replicators in replicators, emitters in replicators
        inner = {"class": "CAEmitterLayer", "birthRate": 100, "emitterCells": [
            {"birthRate": 100, "lifetime": 10, "contents": "__image__"}]} if rng.random() < 0.5 else \
            {"frame": [0, 0, 3, 3], "backgroundColor": "#00ffff"}
        levels = rng.choice([2, 3, 4])
        # Often a product just under the instance limit.
        fair = int(100000 ** (1.0 / levels)) if rng.random() < 0.5 else None
        for _ in range(levels):
            inner = {"class": "CAReplicatorLayer",
                     "instanceCount": fair or rng.choice([10, 100, 1000, 100000]),
                     "instanceTransform": rng.choice([[{"translate": [1, 1, 0]}], [{"rotate": [0.1, 0, 0, 1]}],
                                                      [{"scale": [1.01, 1.01, 1]}]]),
                     "sublayers": [inner]}
        layer = rng.choice(all_layers)
        subs = layer.get("sublayers")
        layer["sublayers"] = (subs if isinstance(subs, list) else []) + [inner]
        return "multiply"
    if choice == 14:  # filters
        layer = rng.choice(all_layers)
        key = rng.choice(["filters", "backgroundFilters"])
        layer[key] = [rng.choice([
            {"name": "CIGaussianBlur", "inputRadius": rng.choice([0, 100, 500, 1e308])},
            {"name": "CIColorMatrix", "inputRVector": [1e9, 0, 0, 0]},
            {"name": "CIHueAdjust", "inputAngle": 1e9},
            {"name": "CIColorControls", "inputContrast": -1e9}]) for _ in range(rng.choice([1, 4, 16, 17]))]
        return "filters"
    # a key removed or a whole subtree duplicated
    targets = [(c, k) for c, k in nodes(doc) if isinstance(c, dict)]
    if targets:
        c, k = rng.choice(targets)
        del c[k]
    return "remove"


# A valid PNG outside every folder a fuzzed scene may read (a private
# temporary folder): a run that renders a scene naming it leaked it.
SECRET_MARK = "lamina-fuzz-secret"
_secret = []


def secret_png():
    """The secret PNG's path (made on first use; removed by main at the end)."""
    if not _secret:
        folder = tempfile.mkdtemp(prefix=SECRET_MARK + "-")
        path = os.path.join(folder, "secret.png")
        with open(path, "wb") as f:
            f.write(png(8, 8))
        _secret.append(path)
    return _secret[0]


ESCAPE_KINDS = ["absolute", "dotdot", "link-file", "link-folder", "url"]
REFUSAL = "not allowed, missing or unreadable"


def escaping_path(rng, images_folder, kind=None):
    """(kind, path) of an image path that must be refused: the secret by its
    absolute path, by `../` from the scene's folder, through a link to it
    (or to its folder) made in the fuzzer's images folder, or as a URL."""
    secret = secret_png()
    levels = 30 if kind else rng.choice([2, 8, 30])
    kind = kind or rng.choice(ESCAPE_KINDS)
    if kind == "absolute":
        return kind, secret
    if kind == "dotdot":
        # The scene is written to OUT/lamina-fuzz-*/fuzz.json: up to the root, then down.
        return kind, "../" * levels + secret.lstrip("/")
    if kind == "url":
        return kind, rng.choice(["file://", "file:"]) + secret
    link = os.path.join(images_folder, "escape-%s.%s" % (kind, "png" if kind == "link-file" else "d"))
    if not os.path.lexists(link):
        os.symlink(secret if kind == "link-file" else os.path.dirname(secret), link)
    return kind, link if kind == "link-file" else os.path.join(link, "secret.png")


def has_escape(doc):
    """Whether a scene names an image that it may not read."""
    images = doc.get("images") if isinstance(doc, dict) else None
    return isinstance(images, dict) and any(
        isinstance(v, str) and (SECRET_MARK in v or "/escape-link-" in v) for v in images.values())


def fill_images(doc, rng, images_folder):
    """Points every `__image__` placeholder at an image entry."""
    text = json.dumps(doc)
    if "__image__" not in text:
        return doc
    doc.setdefault("images", {})
    if not isinstance(doc["images"], dict):
        doc["images"] = {}
    doc["images"]["particle"] = make_image("png", rng, images_folder)
    return json.loads(text.replace('"__image__"', '"particle"'))


# --------------------------------------------------------------------------
# Running lamina and classing what happens.

VARIANTS = ["png", "png", "png", "time", "frames", "frames0", "video", "video-stdout", "scale",
            "fps", "devnull", "symlink", "missing-dir"]


def command_for(variant, rng, scene, work):
    out = os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    # The corpus's images (by absolute path) and those made here may be
    # read; nothing else (the escape mutations).
    images_folder = os.path.join(os.path.dirname(work), "images")
    cmd = ["render", scene, "--assets", ROOT, "--assets", images_folder]
    expected = []
    stdout_video = False
    if variant in ("png", "time", "scale", "devnull", "symlink", "missing-dir"):
        target = os.path.join(out, "out.png")
        if variant == "devnull":
            target = null_device(work)
        elif variant == "symlink":
            real = os.path.join(out, "real.png")
            os.symlink(real, target)
            expected = [real]
        elif variant == "missing-dir":
            target = os.path.join(out, "no", "such", "dir", "out.png")
        else:
            expected = [target]
        cmd += ["-o", target]
        if variant == "time":
            cmd += ["--time", repr(rng.choice([0.5, 3, 1e6, 1e9, 123.456]))]
        if variant == "scale":
            cmd += ["--scale", repr(rng.choice([0.01, 2, 8]))]
    elif variant in ("frames", "frames0", "fps"):
        first = 0 if variant == "frames0" else rng.choice([0, 3, 1000000])
        last = first if variant == "frames0" else first + rng.choice([0, 1, 3])
        cmd += ["--frames", "%d..%d" % (first, last), "-o", os.path.join(out, "f-%04d.png")]
        if variant == "fps":
            cmd += ["--fps", repr(rng.choice([0.001, 10000, 29.97, 1]))]
        expected = [os.path.join(out, "f-%04d.png" % n) for n in range(first, last + 1)]
    elif variant == "video":
        cmd += ["--frames", "0..%d" % rng.choice([0, 2]), "--video", os.path.join(out, "out.y4m")]
        expected = [os.path.join(out, "out.y4m")]
    else:
        cmd += ["--frames", "0..1", "--video", "-"]
        stdout_video = True
    return cmd, expected, stdout_video


def null_device(work):
    """A character device to write to: a private node like /dev/null (made
    when running as root, so that a regression replaces that node and not
    the machine's /dev/null), else /dev/null itself (which a user who is
    not root cannot replace)."""
    node = os.path.join(work, "null")
    if not os.path.exists(node):
        try:
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except (OSError, AttributeError):
            return "/dev/null"
    return node


def is_device(path):
    try:
        return stat.S_ISCHR(os.lstat(path).st_mode)
    except OSError:
        return False


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_lamina(binary, args, timeout, memory_mb, env):
    """Runs lamina; returns (outcome of the process, status, stdout head, stderr, seconds, peak MB)."""
    start = time.time()
    out_file = tempfile.TemporaryFile()
    err_file = tempfile.TemporaryFile()
    proc = subprocess.Popen([binary] + args, stdout=out_file, stderr=err_file, env=env,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    peak = 0
    killed = None
    while True:
        try:
            proc.wait(timeout=0.05)
            break
        except subprocess.TimeoutExpired:
            pass
        peak = max(peak, rss_kb(proc.pid))
        if peak > memory_mb * 1024:
            killed = "memory"
        elif time.time() - start > timeout:
            killed = "hang"
        if killed:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
            break
    seconds = time.time() - start
    out_file.seek(0)
    stdout = out_file.read(64)
    out_file.seek(0, os.SEEK_END)
    stdout_size = out_file.tell()
    err_file.seek(0)
    stderr = err_file.read(20000).decode("utf-8", "replace")
    return killed, proc.returncode, (stdout, stdout_size), stderr, seconds, peak / 1024


def classify(binary, scene_path, cmd, expected, stdout_video, work, timeout, memory_mb, env,
             escaped=False):
    out = os.path.join(work, "out")
    before = set()
    for dirpath, _, files in os.walk(out):
        for f in files:
            before.add(os.path.join(dirpath, f))
    for dirpath, dirs, _ in os.walk(out):
        for d in dirs:
            before.add(os.path.join(dirpath, d))
    killed, status, (stdout, stdout_size), stderr, seconds, peak = run_lamina(binary, cmd, timeout, memory_mb, env)
    result = {"status": status, "seconds": round(seconds, 2), "peak_mb": round(peak, 1),
              "stderr": stderr.strip()[-2000:]}
    if killed:
        result["class"] = killed
        return result
    if status < 0:
        result["class"] = "crash"
        result["signal"] = -status
        return result
    if status == 0 and escaped:
        result["class"] = "escape"
        return result
    left = []
    for dirpath, dirs, files in os.walk(out):
        for f in files + dirs:
            p = os.path.join(dirpath, f)
            if p not in before and p not in expected:
                left.append(os.path.relpath(p, out))
    scene_name = os.path.basename(scene_path)
    devices = [a for a in cmd if a.endswith("/null") or a == "/dev/null"]
    for device in devices:
        if not is_device(device):
            result["class"] = "partial-output"
            result["detail"] = "replaced the device %s" % device
            if device != "/dev/null":
                os.unlink(device)
            return result
    if status == 0:
        for path in expected:
            try:
                with open(path, "rb") as f:
                    head = f.read(16)
            except OSError:
                result["class"] = "bad-output"
                result["detail"] = "missing " + os.path.basename(path)
                return result
            if not (head.startswith(b"\x89PNG") or head.startswith(b"YUV4MPEG2")):
                result["class"] = "bad-output"
                result["detail"] = "not PNG or y4m: " + os.path.basename(path)
                return result
        if stdout_video and not stdout.startswith(b"YUV4MPEG2"):
            result["class"] = "bad-output"
            result["detail"] = "standard output is not y4m"
            return result
        if left:
            result["class"] = "partial-output"
            result["detail"] = "left: " + ", ".join(sorted(left)[:5])
            return result
        # A Lottie import names what it left out, once per kind (the
        # command's contract; --quiet silences it): that is not noise.
        noise = [line for line in stderr.splitlines()
                 if line.strip() and ": left out (not supported): " not in line]
        result["class"] = "stderr-noise" if noise else "render"
        return result
    # A failure leaves nothing: no output, no temporary, no frame.
    made = [p for p in expected if os.path.lexists(p) and p not in before]
    if made or left:
        result["class"] = "partial-output"
        result["detail"] = "left: " + ", ".join(sorted([os.path.relpath(p, out) for p in made] + left)[:5])
        return result
    if status == 2:
        result["class"] = "error"
        return result
    if status != 1:
        result["class"] = "bad-status"
        return result
    # A frame past its time budget is a clean error, but says a limit is too loose.
    if "(frameTimeBudget)" in stderr:
        result["class"] = "slow"
        return result
    # An error names the scene file, or (an output that cannot be written) the output.
    if (scene_name + ":") not in stderr and "cannot write '" not in stderr:
        result["class"] = "no-path"
        return result
    result["class"] = "error"
    return result


def reset_out(work):
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)


def attempt(binary, doc, variant_args, work, timeout, memory_mb, env, name="fuzz.json"):
    """Writes doc (a document, its text or bytes) as the input file `name`
    and runs the command; returns the result."""
    scene_path = os.path.join(work, name)
    with open(scene_path, "wb" if isinstance(doc, bytes) else "w") as f:
        if isinstance(doc, (str, bytes)):
            f.write(doc)
        else:
            json.dump(doc, f)
    reset_out(work)
    cmd, expected, stdout_video = variant_args(scene_path)
    result = classify(binary, scene_path, cmd, expected, stdout_video, work, timeout, memory_mb, env,
                      escaped=has_escape(doc))
    result["command"] = ["lamina"] + [a.replace(work, ".") for a in cmd]
    return result


# --------------------------------------------------------------------------
# Shrinking a finding.

def shrink(binary, doc, klass, variant_args, work, timeout, memory_mb, env, budget_runs,
           budget_seconds, signal_no=None):
    """Greedy reduction: removes list items and object keys, halves lists and
    strings and simplifies numbers, biggest parts first, while the class (and
    a crash's signal) stays the same."""
    start = time.time()
    runs = 0
    current = copy.deepcopy(doc)

    def same(result):
        return result["class"] == klass and (signal_no is None or result.get("signal") == signal_no)

    def options(value, container, key):
        out = ["delete"]
        if isinstance(value, list) and len(value) > 1:
            out.append("halve")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value not in (0, 1):
            out.append("one")
        if isinstance(value, str) and len(value) > 8 and key != "class":
            out.append("halve")
        return out

    progress = True
    while progress and runs < budget_runs and time.time() - start < budget_seconds:
        progress = False
        positions = nodes(current)
        order = sorted(range(len(positions)),
                       key=lambda i: -len(json.dumps(positions[i][0][positions[i][1]])))
        for index in order:
            if runs >= budget_runs or time.time() - start > budget_seconds:
                break
            c, k = positions[index]
            if c is current and k in ("lamina", "canvas", "root") + fuzz_lottie.TOP_KEYS:
                continue
            for option in options(c[k], c, k):
                trial = copy.deepcopy(current)
                c2, k2 = nodes(trial)[index]
                if option == "delete":
                    del c2[k2]
                elif option == "halve":
                    c2[k2] = c2[k2][: len(c2[k2]) // 2]
                else:
                    c2[k2] = 1
                runs += 1
                if same(attempt(binary, trial, variant_args, work, timeout, memory_mb, env)):
                    current = trial
                    progress = True
                    break
            if progress:
                break
    return current, runs


# --------------------------------------------------------------------------

def generate(rng, corpus, images_folder):
    path, original = rng.choice(corpus)
    doc = absolutize_images(copy.deepcopy(original), path)
    applied = []
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        applied.append(mutate(doc, rng, images_folder))
    doc = clean_none(fill_images(doc, rng, images_folder))
    text = None
    if rng.random() < 0.03:
        # Not JSON at all, or cut short.
        raw = json.dumps(doc)
        text = raw[: rng.randrange(1, max(2, len(raw)))] if rng.random() < 0.5 else raw.replace("1", "NaN", 1)
        applied.append("syntax")
    return os.path.relpath(path, ROOT), doc, text, applied


def write_test_images(folder):
    """The hostile images the test suite decodes (Tests/LaminaSceneTests/Fixtures/hostile)."""
    os.makedirs(folder, exist_ok=True)
    rng = random.Random("hostile-images")
    full_png = png(64, 64)
    files = {
        "lying-100000.png": png(4, 4, ihdr_size=(100000, 100000)),
        "lying-16384.png": png(4, 4, ihdr_size=(16384, 16384)),
        "lying-wide.png": png(4, 4, ihdr_size=(16385, 4)),
        "short-data.png": png(4, 4, ihdr_size=(64, 64)),
        "truncated.png": full_png[: len(full_png) // 2],
        "corrupt.png": corrupt(full_png, rng),
        "small.jpg": jpeg(24, 16),
        "lying-60000.jpg": jpeg(8, 8, sof_size=(60000, 60000)),
        "lying-8192.jpg": jpeg(8, 8, sof_size=(8192, 8192)),
        "truncated.jpg": jpeg(256, 256, truncate=True),
        "scans.jpg": jpeg_progressive(),
        "not-an-image.png": b'{"lamina": 1}',
    }
    files.update(hostile_webp())
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def check_escapes(binary, work, images_folder, timeout, memory_mb, env):
    """Each kind of escaping image path once, in a small scene: each must be
    a clean error with the refusal message (never a render). Returns
    {kind: class}, "escape" where the secret image was read."""
    classes = {}
    for kind in ESCAPE_KINDS:
        _, path = escaping_path(random.Random(kind), images_folder, kind)
        doc = {"lamina": 1, "canvas": {"width": 8, "height": 8}, "images": {"x": path},
               "root": {"sublayers": [{"frame": [0, 0, 8, 8], "contents": "x"}]}}
        result = attempt(binary, doc, lambda p: command_for("png", random.Random(kind), p, work),
                         work, timeout, memory_mb, env)
        klass = result["class"]
        if klass == "error" and REFUSAL not in result["stderr"]:
            klass = "escape"
        classes[kind] = klass
    return classes


def hostile_webp():
    """Hostile WebP files, cut or patched from the valid ones the tests keep
    (made with cwebp): a VP8L header saying 16384x16384, a file cut in its
    bitstream and one cut in its header, a RIFF of noise, and a still image
    whose VP8X header claims an animation."""
    images = os.path.join(ROOT, "Tests", "LaminaSceneTests", "Fixtures", "images")
    with open(os.path.join(images, "quads-lossy.webp"), "rb") as f:
        lossy = f.read()
    with open(os.path.join(images, "quads-lossless-alpha.webp"), "rb") as f:
        lossless = bytearray(f.read())
    with open(os.path.join(images, "quads-lossy-alpha.webp"), "rb") as f:
        extended = bytearray(f.read())
    # VP8L: after the 0x2f signature, 14 bits of width - 1, 14 of height - 1,
    # one of alpha and three of version, least significant first.
    bits = int.from_bytes(lossless[21:25], "little")
    lying = bytearray(lossless)
    lying[21:25] = (16383 | (16383 << 14) | (bits & (0xF << 28))).to_bytes(4, "little")
    noise_rng = random.Random(7)
    noise = bytes(noise_rng.randrange(256) for _ in range(200))
    animated = bytearray(extended)
    animated[20] |= 0x02  # VP8X flags: animation
    return {
        "lying-16384.webp": bytes(lying),
        "truncated.webp": lossy[:48],
        "short.webp": lossy[:20],
        "garbage.webp": b"RIFF" + struct.pack("<I", len(noise) + 4) + b"WEBP" + noise,
        "animated.webp": bytes(animated),
    }


def save_finding(folder, name, doc, text, result, meta):
    target = os.path.join(folder, name)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    images = doc.get("images") if isinstance(doc, dict) else None
    if isinstance(images, dict):
        os.makedirs(os.path.join(target, "images"), exist_ok=True)
        for key, value in list(images.items()):
            if isinstance(value, str) and os.path.isfile(value) and not has_escape({"images": {key: value}}):
                local = os.path.join("images", os.path.basename(value))
                shutil.copyfile(value, os.path.join(target, local))
                images[key] = local
    with open(os.path.join(target, "scene.json"), "w") as f:
        if text is not None:
            f.write(text)
        else:
            json.dump(doc, f, indent=1)
    with open(os.path.join(target, "finding.json"), "w") as f:
        json.dump(dict(meta, result=result), f, indent=1)
    return target


def lottie_input(args, seed_string, i, corpus, work, env, counts, findings, seen):
    """One Lottie input (scripts/fuzz_lottie.py): made, run, classed, and
    when a finding shrunk (a JSON document) and saved with its command."""
    rng = random.Random(seed_string)
    try:
        source, doc, name, data, applied = fuzz_lottie.generate(rng, corpus, png_bomb, png)
    except RecursionError:
        print("input %s: nested too deep to generate, skipped" % seed_string, file=sys.stderr, flush=True)
        return
    variant = rng.choice(fuzz_lottie.VARIANTS)
    cmd_seed = seed_string + "cmd"

    def variant_args(path, variant=variant, cmd_seed=cmd_seed):
        return fuzz_lottie.command_for(variant, random.Random(cmd_seed), path, work)
    result = attempt(args.binary, data, variant_args, work, args.timeout, args.memory_mb, env, name=name)
    klass = result["class"]
    counts[klass] = counts.get(klass, 0) + 1
    if not args.quiet:
        print("%6d %-15s %5.1fs %6.0fMB %-40s %s" % (i, klass, result["seconds"], result["peak_mb"],
                                                       ("lottie " + source)[-40:], ",".join(applied)), flush=True)
    if klass not in FINDINGS:
        return
    key = (klass, result.get("signal"), tuple(sorted(set(applied))))
    meta = {"seed": args.seed, "index": i, "seed_string": seed_string, "source": source,
            "mutations": applied, "variant": variant, "class": klass, "input": name}
    if doc is not None and not args.no_shrink and key not in seen:
        shrunk, runs = shrink(args.binary, doc, klass, variant_args, work, args.timeout,
                              args.memory_mb, env, args.shrink_runs, args.shrink_seconds,
                              result.get("signal"))
        meta["shrink_runs"] = runs
        final = attempt(args.binary, shrunk, variant_args, work, args.timeout, args.memory_mb, env)
        if final["class"] == klass:
            result = final
            data = json.dumps(shrunk).encode()
    seen.add(key)
    folder = os.path.join(args.out, "findings", "%s-%d-%d" % (klass, args.seed, i))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    with open(os.path.join(folder, "finding.json"), "w") as f:
        json.dump(dict(meta, result=result), f, indent=1)
    findings.append({"class": klass, "index": i, "folder": os.path.relpath(folder, ROOT),
                     "mutations": applied, "stderr": result["stderr"][-300:],
                     "command": result["command"]})
    if not args.quiet:
        print("       finding saved: %s" % folder, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="first seed (each input i uses seed:i)")
    parser.add_argument("--count", type=int, help="how many inputs")
    parser.add_argument("--duration", type=float, help="run for this many seconds")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "lamina"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "fuzz"))
    parser.add_argument("--timeout", type=float, default=30, help="seconds before a run is a hang")
    parser.add_argument("--memory-mb", type=float, default=4096, help="resident memory that is a finding")
    parser.add_argument("--max-scene-bytes", type=int, default=400000, help="corpus scenes up to this size")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--shrink-runs", type=int, default=150)
    parser.add_argument("--shrink-seconds", type=float, default=300)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--lottie-share", type=float, default=0.3,
                        help="the share of inputs that are Lottie documents or archives (0...1)")
    parser.add_argument("--replay", help="run a saved finding folder again")
    parser.add_argument("--check-escapes", action="store_true",
                        help="run each kind of escaping image path once; exit 1 unless all are refused")
    parser.add_argument("--write-images", metavar="DIR",
                        help="write the hostile test images (the tests' fixtures) into DIR and stop")
    args = parser.parse_args()

    if args.write_images:
        write_test_images(args.write_images)
        return 0

    if not os.access(args.binary, os.X_OK):
        print("fuzz: no lamina binary at %s (swift build -c release --product lamina)" % args.binary, file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("LAMINA_FRAME_BUDGET", str(max(1.0, args.timeout * 0.6)))
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="lamina-fuzz-", dir=args.out)
    # A copy of the binary: a rebuild while the fuzzer runs does not change what it tests.
    copied = os.path.join(work, "lamina-under-test")
    shutil.copy2(args.binary, copied)
    args.binary = copied
    images_folder = os.path.join(args.out, "images")
    os.makedirs(images_folder, exist_ok=True)

    if args.check_escapes:
        classes = check_escapes(args.binary, work, images_folder, args.timeout, args.memory_mb, env)
        shutil.rmtree(work, ignore_errors=True)
        for secret in _secret:
            shutil.rmtree(os.path.dirname(secret), ignore_errors=True)
        print(json.dumps({"escapes": classes}))
        return 0 if all(c == "error" for c in classes.values()) else 1

    if args.replay:
        with open(os.path.join(args.replay, "finding.json")) as f:
            meta = json.load(f)
        variant = meta["variant"]
        if meta.get("input"):
            # A Lottie input: its own file, its own commands.
            with open(os.path.join(args.replay, meta["input"]), "rb") as f:
                data = f.read()
            result = attempt(args.binary, data, lambda p: fuzz_lottie.command_for(
                variant, random.Random(meta["seed_string"] + "cmd"), p, work),
                work, args.timeout, args.memory_mb, env, name=meta["input"])
            print(json.dumps(result, indent=1))
            shutil.rmtree(work, ignore_errors=True)
            return 1 if result["class"] in FINDINGS else 0
        scene = os.path.join(args.replay, "scene.json")
        with open(scene) as f:
            text = f.read()
        try:
            doc = absolutize_images(json.loads(text), scene)
        except ValueError:
            doc = text
        result = attempt(args.binary, doc, lambda p: command_for(variant, random.Random(meta["seed_string"] + "cmd"), p, work),
                         work, args.timeout, args.memory_mb, env)
        print(json.dumps(result, indent=1))
        shutil.rmtree(work, ignore_errors=True)
        return 1 if result["class"] in FINDINGS else 0

    if args.count is None and args.duration is None:
        args.count = 100
    corpus = load_corpus(args.max_scene_bytes)
    lottie_corpus = fuzz_lottie.load_corpus(args.max_scene_bytes * 10) if args.lottie_share > 0 else []
    if not corpus:
        print("fuzz: no scenes found under Tests/, Examples/, Benchmarks/scenes", file=sys.stderr)
        return 2
    counts = {}
    findings = []
    seen = set()
    start = time.time()
    i = 0
    try:
        while True:
            if args.count is not None and i >= args.count:
                break
            if args.duration is not None and time.time() - start >= args.duration:
                break
            seed_string = "%d:%d" % (args.seed, i)
            # Lottie or scene, drawn apart from the input's own stream: with
            # --lottie-share 0 every seed makes the scene it always made.
            if args.lottie_share > 0 and random.Random(seed_string + "kind").random() < args.lottie_share:
                lottie_input(args, seed_string, i, lottie_corpus, work, env, counts, findings, seen)
                i += 1
                continue
            rng = random.Random(seed_string)
            try:
                source, doc, text, applied = generate(rng, corpus, images_folder)
            except RecursionError:
                # A mutation nested the scene deeper than Python's own walks
                # reach (the final hour-long run stopped here after 24 minutes):
                # such an input is past the loader's nesting limit anyway.
                print("input %s: nested too deep to generate, skipped" % seed_string,
                      file=sys.stderr, flush=True)
                i += 1
                continue
            variant = rng.choice(VARIANTS)
            cmd_seed = seed_string + "cmd"

            def variant_args(scene_path, variant=variant, cmd_seed=cmd_seed):
                return command_for(variant, random.Random(cmd_seed), scene_path, work)
            result = attempt(args.binary, text if text is not None else doc, variant_args, work,
                             args.timeout, args.memory_mb, env)
            klass = result["class"]
            counts[klass] = counts.get(klass, 0) + 1
            if not args.quiet:
                print("%6d %-15s %5.1fs %6.0fMB %-40s %s" % (i, klass, result["seconds"], result["peak_mb"],
                                                               source[-40:], ",".join(applied)), flush=True)
            if klass in FINDINGS:
                key = (klass, result.get("signal"), tuple(sorted(set(applied))))
                meta = {"seed": args.seed, "index": i, "seed_string": seed_string, "source": source,
                        "mutations": applied, "variant": variant, "class": klass}
                shrunk = doc
                if text is None and not args.no_shrink and key not in seen:
                    shrunk, runs = shrink(args.binary, doc, klass, variant_args, work, args.timeout,
                                          args.memory_mb, env, args.shrink_runs, args.shrink_seconds,
                                          result.get("signal"))
                    meta["shrink_runs"] = runs
                    final = attempt(args.binary, shrunk, variant_args, work, args.timeout, args.memory_mb, env)
                    if final["class"] == klass:
                        result = final
                    else:
                        shrunk = doc
                seen.add(key)
                folder = save_finding(os.path.join(args.out, "findings"), "%s-%d-%d" % (klass, args.seed, i),
                                      copy.deepcopy(shrunk), text, result, meta)
                findings.append({"class": klass, "index": i, "folder": os.path.relpath(folder, ROOT),
                                 "mutations": applied, "stderr": result["stderr"][-300:],
                                 "command": result["command"]})
                if not args.quiet:
                    print("       finding saved: %s" % folder, flush=True)
            i += 1
    except KeyboardInterrupt:
        pass
    shutil.rmtree(work, ignore_errors=True)
    for secret in _secret:
        shutil.rmtree(os.path.dirname(secret), ignore_errors=True)
    summary = {"seed": args.seed, "inputs": i, "seconds": round(time.time() - start, 1),
               "outcomes": counts, "findings": findings}
    print(json.dumps(summary))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

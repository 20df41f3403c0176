"""What the batch benchmarks share: PNG files written with the standard
library, small scenes, running lamina and reading its memory."""

import json
import os
import random
import struct
import zlib


def write_png(path, width, height, rgba):
    """An 8-bit RGBA PNG of `rgba` (width × height × 4 bytes, rows top down)."""
    stride = width * 4
    rows = b"".join(b"\0" + rgba[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def write_images(folder, count, size, seed=1):
    """`count` different size×size opaque images (seeded noise in a band of
    one hue per image, with a flat stripe every eighth row, so that they
    compress somewhat, like photos), named img-NNNN.png; returns their
    names."""
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    names = []
    for i in range(count):
        pixels = bytearray(rng.randbytes(size * size * 4))
        base = bytes([rng.randrange(256), rng.randrange(256), rng.randrange(256), 255])
        # Quarter-strength noise around the image's own color.
        for c in range(3):
            pixels[c::4] = bytes((base[c] + (v >> 2)) & 255 for v in pixels[c::4])
        pixels[3::4] = b"\xff" * (size * size)
        stride = size * 4
        for y in range(0, size, 8):
            pixels[y * stride:(y + 1) * stride] = base * size
        name = f"img-{i:04d}.png"
        write_png(os.path.join(folder, name), size, size, bytes(pixels))
        names.append(name)
    return names


def small_scene(rng, images, width=320, height=180):
    """A small card-like scene: a background, image cards with rounded
    corners and shadows, a gradient bar, a label; `images` maps names to
    paths."""
    layers = []
    for i, name in enumerate(images):
        x = 20 + i * (width - 40) / max(1, len(images))
        layers.append({
            "bounds": [0, 0, 64, 64], "position": [x + 32, 70 + rng.uniform(-10, 10)],
            "contents": name, "cornerRadius": 8, "masksToBounds": True,
            "transform.rotation.z": rng.uniform(-0.2, 0.2)})
    layers.append({
        "class": "CAGradientLayer", "frame": [20, height - 40, width - 40, 12],
        "colors": [f"#{rng.randrange(1 << 24):06x}", f"#{rng.randrange(1 << 24):06x}"],
        "startPoint": [0, 0.5], "endPoint": [1, 0.5], "cornerRadius": 6})
    layers.append({
        "class": "CATextLayer", "frame": [20, height - 24, width - 40, 16],
        "string": f"job {rng.randrange(100000)}", "fontSize": 11, "foregroundColor": "#ffffff"})
    return {
        "lamina": 1,
        "canvas": {"width": width, "height": height,
                   "background": f"#{rng.randrange(1 << 24):06x}"},
        "images": images,
        "root": {"sublayers": layers},
    }


def rss_kib(pid):
    """The resident set of process `pid`, in KiB (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def write_jsonl(path, jobs):
    with open(path, "w") as f:
        for job in jobs:
            f.write(json.dumps(job, separators=(",", ":")) + "\n")

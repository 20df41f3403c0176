"""What the batch benchmarks share: PNG files written with the standard
library, small scenes, running lamina and reading its memory."""

import json
import os
import random
import struct
import zlib


def write_png(path, width, height, pixel):
    """An 8-bit RGBA PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b, a)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))


def write_images(folder, count, size, seed=1):
    """`count` different size×size images (a gradient, a disc, noise), named
    img-NNNN.png; returns their names."""
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    names = []
    for i in range(count):
        r0, g0, b0 = rng.randrange(256), rng.randrange(256), rng.randrange(256)
        cx, cy, radius = rng.uniform(0, size), rng.uniform(0, size), rng.uniform(size / 6, size / 2)
        noise = random.Random(seed * 100003 + i)
        cells = [noise.randrange(48) for _ in range(64)]

        def pixel(x, y):
            inside = (x - cx) ** 2 + (y - cy) ** 2 < radius * radius
            n = cells[(x * 7 + y * 13) % 64]
            return ((r0 + x + n) % 256, (g0 + y) % 256, (b0 + (96 if inside else 0)) % 256,
                    255 if inside or (x + y) % 9 else 200)

        name = f"img-{i:04d}.png"
        write_png(os.path.join(folder, name), size, size, pixel)
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

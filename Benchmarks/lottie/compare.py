#!/usr/bin/env python3
"""Lamina against rlottie and ThorVG on Lottie documents, back to back.

    python3 Benchmarks/lottie/compare.py --lamina .build/release/lamina \\
        --mode both --table > table.md
    python3 Benchmarks/lottie/compare.py --mode one-core FILE.json [FILE.json ...]

For each document: `lamina bench FILE --size SxS --frames N --warmup W
--json` (frames looping over ip..op at the document's rate), then
rlottie_bench.py, then thorvg_bench.py on the same document, frames and
size, one right after the other. Prints a markdown table per mode: the
medians, their ratios, where Lamina's frame time goes (cpu / gpu, draws,
offscreen passes), then the geometric means of the three frame times and of
both ratios over the documents all three rendered, and how many documents
Lamina renders faster than each peer.

Modes (Benchmarks/lottie/README.md):
  one-core  every renderer pinned to one core (`taskset -c CORE`); Lamina
            with LP_NUM_THREADS=1 so llvmpipe rasterizes on the calling
            thread; rlottie is single-threaded; ThorVG with 0 worker threads.
  defaults  nothing pinned; llvmpipe's default threads; ThorVG with one
            worker thread per usable CPU.
  both      one-core's table, then defaults'.

--table takes the project's document set instead of FILE arguments: the 22
largest top-level example/resource/*.json of rlottie's repository (read
from its git directory with `git show` into a temporary folder, removed at
the end: they are never committed), the conformance documents
layers/precomp-nested.json, shape-modifiers/offset-path.json and
properties/gradient-ease.json, and the N largest conformance documents
(--largest-conformance; *-meta.json skipped). The documents used are
printed above the tables.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_RLOTTIE_REPO = "/work/.mirror/Samsung+rlottie/repo"
DEFAULT_CONFORMANCE = os.path.join(ROOT, "..", "shared", "lottie", "conformance", "data")
RLOTTIE_RESOURCES = "example/resource"
RLOTTIE_COUNT = 22
NAMED_CONFORMANCE = [
    "layers/precomp-nested.json",
    "shape-modifiers/offset-path.json",
    "properties/gradient-ease.json",
]


# ---- the runs ---------------------------------------------------------------

def mode_setup(mode, core):
    """(command prefix, Lamina's environment, ThorVG's --threads) for a mode."""
    env = dict(os.environ)
    if mode == "one-core":
        env["LP_NUM_THREADS"] = "1"
        return ["taskset", "-c", str(core)], env, "0"
    env.pop("LP_NUM_THREADS", None)  # llvmpipe picks its own thread count
    return [], env, "defaults"


def last_error(run):
    lines = (run.stderr or "").strip().splitlines()
    return lines[-1] if lines else f"exit status {run.returncode}"


def lamina_bench(prefix, env, lamina, path, args):
    run = subprocess.run(
        prefix + [lamina, "bench", path, "--size", f"{args.size}x{args.size}",
                  "--frames", str(args.frames), "--warmup", str(args.warmup), "--json"],
        capture_output=True, text=True, timeout=600, env=env)
    if run.returncode != 0:
        return {"error": last_error(run)}
    try:
        return json.loads(run.stdout)
    except ValueError:
        return {"error": "no JSON report"}


def peer_bench(prefix, script, path, args, extra=()):
    run = subprocess.run(
        prefix + [sys.executable, os.path.join(HERE, script), "--size", str(args.size),
                  "--frames", str(args.frames), "--warmup", str(args.warmup), *extra, path],
        capture_output=True, text=True, timeout=600)
    lines = run.stdout.strip().splitlines()
    try:
        result = json.loads(lines[-1]) if lines else {}
    except ValueError:
        result = {}
    if "median_ms" not in result and "error" not in result:
        result = {"error": last_error(run)}  # crashed before its JSON line
    return result


# ---- the table --------------------------------------------------------------

HEADER = ("| document | lamina ms | rlottie ms | ThorVG ms | lamina / rlottie | lamina / ThorVG"
          " | lamina cpu / gpu ms | cpu: Lamina's own / driver in GL calls ms"
          " | largest own stage | draws, offscreen passes |")
RULE = "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |"


def cell(result, key):
    if "error" in result:
        return "error: " + result["error"].replace("|", "\\|")
    return f"{result[key]:.2f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else ""


def geomean(values):
    if not values:
        return "n/a"
    return f"{math.exp(sum(math.log(v) for v in values) / len(values)):.2f}"


def run_mode(mode, documents, args):
    prefix, env, threads = mode_setup(mode, args.core)
    pinned = f"`taskset -c {args.core}`, LP_NUM_THREADS=1, ThorVG 0 worker threads" \
        if mode == "one-core" else "nothing pinned, llvmpipe's default threads, ThorVG --threads defaults"
    print(f"\n### mode {mode} ({pinned}; {args.size}x{args.size}, {args.frames} frames)\n")
    print(HEADER)
    print(RULE, flush=True)
    rows = []
    for label, path in documents:
        lam = lamina_bench(prefix, env, args.lamina, path, args)
        rl = peer_bench(prefix, "rlottie_bench.py", path, args)
        tv = peer_bench(prefix, "thorvg_bench.py", path, args, ("--threads", threads))
        l_ms = None if "error" in lam else lam["frameMs"]["median"]
        r_ms = None if "error" in rl else rl["median_ms"]
        t_ms = None if "error" in tv else tv["median_ms"]
        rows.append((l_ms, r_ms, t_ms))
        lam_cell = "error: " + lam["error"].replace("|", "\\|") if l_ms is None else f"{l_ms:.2f}"
        detail = " | | | "  # four empty cells
        if l_ms is not None:
            stages = {k: v for k, v in lam.get("cpuStagesMs", {}).items() if not k.startswith("gl")}
            own_stage = max(stages, key=stages.get) if stages else ""
            detail = (f"{lam['cpuMs']['median']:.2f} / {lam['gpuMs']['median']:.2f} | "
                      f"{lam['laminaCpuMs']['median']:.2f} / {lam['driverCpuMs']['median']:.2f} | "
                      f"{own_stage} {stages.get(own_stage, 0):.2f} | "
                      f"{lam['drawCallsPerFrame']:.0f}, {lam['offscreenPassesPerFrame']:.0f}")
        print(f"| {label} | {lam_cell} | {cell(rl, 'median_ms')} | {cell(tv, 'median_ms')} | "
              f"{ratio(l_ms, r_ms)} | {ratio(l_ms, t_ms)} | {detail} |", flush=True)
    complete = [row for row in rows if None not in row]
    print()
    print(f"Geometric means over the {len(complete)} of {len(rows)} documents all three rendered: "
          f"lamina {geomean([r[0] for r in complete])} ms, "
          f"rlottie {geomean([r[1] for r in complete])} ms, "
          f"ThorVG {geomean([r[2] for r in complete])} ms; "
          f"lamina / rlottie {geomean([r[0] / r[1] for r in complete])}, "
          f"lamina / ThorVG {geomean([r[0] / r[2] for r in complete])}.")
    vs_rl = [r for r in rows if r[0] is not None and r[1] is not None]
    vs_tv = [r for r in rows if r[0] is not None and r[2] is not None]
    print(f"Lamina faster than rlottie on {sum(r[0] < r[1] for r in vs_rl)} of {len(vs_rl)} documents, "
          f"than ThorVG on {sum(r[0] < r[2] for r in vs_tv)} of {len(vs_tv)}.", flush=True)


# ---- the document set ---------------------------------------------------------

def git(repo, *argv):
    return subprocess.run(["git", "-C", repo, *argv], capture_output=True, check=True).stdout


def rlottie_documents(repo, folder):
    """The RLOTTIE_COUNT largest top-level example/resource/*.json blobs at HEAD,
    written into folder; [(label, path)] largest first, and the commit."""
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    listing = git(repo, "ls-tree", "-l", "-z", "HEAD", RLOTTIE_RESOURCES + "/")
    blobs = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, name = entry.split(b"\t", 1)
        _, kind, _, size = meta.split()
        name = name.decode()
        if kind == b"blob" and name.endswith(".json"):
            blobs.append((-int(size), name))
    documents = []
    for _, name in sorted(blobs)[:RLOTTIE_COUNT]:
        path = os.path.join(folder, os.path.basename(name))
        with open(path, "wb") as out:
            out.write(git(repo, "show", f"{commit}:{name}"))
        documents.append((os.path.basename(name), path))
    return documents, commit


def conformance_documents(folder, largest):
    """The named conformance documents, then the `largest` largest others."""
    documents = []
    for name in NAMED_CONFORMANCE:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            sys.exit(f"compare.py: no conformance document {path}")
        documents.append((name, path))
    candidates = []
    for directory, _, files in os.walk(folder):
        for file in files:
            if file.endswith(".json") and not file.endswith("-meta.json"):
                path = os.path.join(directory, file)
                name = os.path.relpath(path, folder)
                if name not in NAMED_CONFORMANCE:
                    candidates.append((-os.path.getsize(path), name, path))
    documents += [(name, path) for _, name, path in sorted(candidates)[:largest]]
    return documents


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("files", nargs="*", help="Lottie documents (or --table)")
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--mode", choices=["one-core", "defaults", "both"], default="one-core")
    parser.add_argument("--core", type=int, default=0, help="the core one-core mode pins to")
    parser.add_argument("--table", action="store_true", help="the project's document set")
    parser.add_argument("--rlottie-repo", default=DEFAULT_RLOTTIE_REPO,
                        help="rlottie's git directory (bare or a checkout)")
    parser.add_argument("--conformance", default=DEFAULT_CONFORMANCE,
                        help="the conformance data folder")
    parser.add_argument("--largest-conformance", type=int, default=5, metavar="N")
    args = parser.parse_args()
    if not args.table and not args.files:
        parser.error("give Lottie documents or --table")
    modes = ["one-core", "defaults"] if args.mode == "both" else [args.mode]
    with tempfile.TemporaryDirectory(prefix="lamina-lottie-") as folder:
        documents = [(os.path.basename(path), path) for path in args.files]
        if args.table:
            rlottie, commit = rlottie_documents(args.rlottie_repo, folder)
            conformance = conformance_documents(args.conformance, args.largest_conformance)
            documents += rlottie + conformance
            print(f"Documents ({len(documents)}): the {len(rlottie)} largest of rlottie's "
                  f"{RLOTTIE_RESOURCES} at {commit[:12]} ({', '.join(n for n, _ in rlottie)}); "
                  f"conformance ({os.path.normpath(args.conformance)}): "
                  f"{', '.join(n for n, _ in conformance)}.")
        else:
            print(f"Documents ({len(documents)}): {', '.join(p for _, p in documents)}.")
        for mode in modes:
            run_mode(mode, documents, args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Tests of the distributed driver: shard arithmetic and joining, a real
local Ray (two workers, one shard failing once) whose joined result must
equal a single `lamina render` byte for byte, and the Kubernetes recipe's
scripts run for every index.

    LAMINA=.build/debug/lamina python3 -m unittest distributed/test_lamina_ray.py -v

The Swift suite runs it (Tests/LaminaRenderTests/DistributedTests.swift)
after scripts/install-python-deps.sh has installed Ray.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import lamina_ray  # noqa: E402

LAMINA = os.path.abspath(os.environ.get("LAMINA", os.path.join(ROOT, ".build/debug/lamina")))
SCENE = os.path.join(ROOT, "Tests/LaminaRenderTests/Fixtures/batch/show.json")
# A Lottie document: frames 10..70 at 30 fps, 200x100.
LOTTIE = os.path.join(ROOT, "Tests/LaminaLottieTests/Fixtures/lottie/timing.json")


def lamina(*arguments):
    run = subprocess.run([LAMINA, *arguments], capture_output=True, timeout=300)
    if run.returncode != 0:
        raise AssertionError(f"lamina {arguments}: {run.stderr.decode()}")


def read(path):
    with open(path, "rb") as f:
        return f.read()


class ShardsAndJoins(unittest.TestCase):
    def test_shards_cover_the_range_in_order(self):
        for first, last, shards in [(0, 9, 4), (5, 6, 4), (0, 239, 8), (10, 10, 1), (3, 100, 7)]:
            ranges = lamina_ray.shard_ranges(first, last, shards)
            self.assertEqual(ranges[0][0], first)
            self.assertEqual(ranges[-1][1], last)
            for (a, b), (c, _) in zip(ranges, ranges[1:]):
                self.assertEqual(c, b + 1)
            sizes = [b - a + 1 for a, b in ranges]
            self.assertLessEqual(max(sizes) - min(sizes), 1)
            self.assertEqual(sizes, sorted(sizes, reverse=True))
        self.assertEqual(lamina_ray.shard_ranges(0, 9, 4), [(0, 2), (3, 5), (6, 7), (8, 9)])
        self.assertEqual(lamina_ray.shard_ranges(5, 6, 4), [(5, 5), (6, 6)])

    def test_frame_names_follow_lamina_patterns(self):
        self.assertEqual(lamina_ray.frame_name("frame-%04d.png", 7), "frame-0007.png")
        self.assertEqual(lamina_ray.frame_name("f%d.png", 12), "f12.png")
        self.assertEqual(lamina_ray.frame_name("100%%-%3d.png", 5), "100%-  5.png")
        for bad in ["plain.png", "f-%s.png", "%d-%d.png"]:
            with self.assertRaises(ValueError):
                lamina_ray.frame_name(bad, 1)

    def test_join_keeps_one_header_and_every_frame_in_order(self):
        header = b"YUV4MPEG2 W2 H2 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n"

        def frame(n):
            return b"FRAME\n" + bytes([n, n, n, n, 128 + n, 64 + n])

        a = header + frame(0) + frame(1)
        b = header + frame(2)
        self.assertEqual(lamina_ray.join_y4m([a, b]), header + frame(0) + frame(1) + frame(2))
        with self.assertRaisesRegex(ValueError, "differs"):
            lamina_ray.join_y4m([a, header.replace(b"F30:1", b"F25:1") + frame(2)])
        with self.assertRaisesRegex(ValueError, "truncated"):
            lamina_ray.join_y4m([a, b[:-1]])
        with self.assertRaisesRegex(ValueError, "not a YUV4MPEG2"):
            lamina_ray.join_y4m([b"RIFF"])

    def test_shard_command_prints_the_range(self):
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "lamina_ray.py"), "shard", "--frames", "0..239",
             "--shards", "8", "--index", "3"], capture_output=True, check=True)
        self.assertEqual(out.stdout.decode(), "90..119\n")


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
class Access(unittest.TestCase):
    """The shards read what `lamina` lets a scene read; --assets and
    --allow-any-path pass through; --output-root confines the outputs."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="lamina-ray-access-")
        os.makedirs(os.path.join(self.scratch, "scene"))
        os.makedirs(os.path.join(self.scratch, "secret"))
        shutil.copy(os.path.join(ROOT, "Tests/LaminaRenderTests/Fixtures/batch/images/photo.png"),
                    os.path.join(self.scratch, "secret", "photo.png"))
        self.scene = os.path.join(self.scratch, "scene", "scene.json")
        with open(self.scene, "w") as f:
            json.dump({"lamina": 1, "canvas": {"width": 16, "height": 16},
                       "images": {"p": "../secret/photo.png"},
                       "root": {"sublayers": [{"frame": [0, 0, 16, 16], "contents": "p"}]}}, f)

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_a_shard_is_confined_unless_told_otherwise(self):
        with self.assertRaisesRegex(lamina_ray.ShardFailed,
                                    r"cannot read '\.\./secret/photo\.png': not allowed, missing or unreadable"):
            lamina_ray.render_shard(LAMINA, self.scene, 0, 1, 12, None, True, False)
        for access in (["--assets", os.path.join(self.scratch, "secret")], ["--allow-any-path"]):
            segment, _ = lamina_ray.render_shard(LAMINA, self.scene, 0, 1, 12, None, True, False,
                                                 access=access)
            self.assertTrue(segment.startswith(b"YUV4MPEG2 W16 H16"))

    def test_outputs_outside_the_output_root_are_refused_before_any_work(self):
        out = os.path.join(self.scratch, "out")
        os.makedirs(out)
        os.symlink(os.path.join(self.scratch, "secret"), os.path.join(out, "leak"))
        for flag, path in (("--video", os.path.join(self.scratch, "x.y4m")),
                           ("--video", os.path.join(out, "..", "x.y4m")),
                           ("--video", os.path.join(out, "leak", "x.y4m")),
                           ("--output-dir", os.path.join(out, "leak"))):
            run = subprocess.run(
                [sys.executable, os.path.join(HERE, "lamina_ray.py"), "render", self.scene,
                 "--frames", "0..1", flag, path, "--output-root", out, "--lamina", LAMINA],
                capture_output=True, timeout=60)
            self.assertEqual(run.returncode, 2, run.stderr.decode())
            self.assertIn(f"{flag}: cannot write '{path}': not inside --output-root {out}",
                          run.stderr.decode())
        self.assertEqual(sorted(os.listdir(self.scratch)), ["out", "scene", "secret"])
        self.assertEqual(os.listdir(os.path.join(self.scratch, "secret")), ["photo.png"])
        self.assertTrue(lamina_ray.inside_root(os.path.join(out, "new", "b.y4m"), out))
        self.assertTrue(lamina_ray.inside_root(os.path.join(out, "b.y4m"), out))


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
class LottieShard(unittest.TestCase):
    """A shard of a Lottie document, as a Ray worker renders it (without
    Ray): at the document's own frame rate, its frames those of a single
    `lamina render --frames all`."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="lamina-lottie-shard-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_a_shard_is_its_frames_of_the_whole_render(self):
        segment, pngs = lamina_ray.render_shard(LAMINA, LOTTIE, 20, 39, None, None, True, True)
        header, frames = lamina_ray.split_y4m(segment)
        self.assertTrue(header.startswith(b"YUV4MPEG2 W200 H100 F30:1"), header)
        self.assertEqual(len(frames), 20)
        self.assertEqual([n for n, _ in pngs], list(range(20, 40)))
        whole = os.path.join(self.scratch, "all.y4m")
        lamina("render", LOTTIE, "--frames", "all", "--video", whole)
        whole_header, whole_frames = lamina_ray.split_y4m(read(whole))
        self.assertEqual(whole_header, header)
        self.assertEqual(len(whole_frames), 60)
        self.assertEqual(whole_frames[20:40], frames)
        lamina("render", LOTTIE, "--frames", "20..39", "-o", os.path.join(self.scratch, "f-%d.png"))
        for n, data in pngs:
            self.assertEqual(read(os.path.join(self.scratch, f"f-{n}.png")), data, n)


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
class RayRender(unittest.TestCase):
    def setUp(self):
        try:
            import ray  # noqa: F401
        except ImportError:
            self.skipTest("ray is not installed (scripts/install-python-deps.sh installs it)")
        self.scratch = tempfile.mkdtemp(prefix="lamina-ray-test-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.scratch, *names)

    def test_shards_on_two_workers_join_to_a_single_render_and_a_failed_shard_is_retried(self):
        # A lamina that fails the first time it is given frames 4..7 (the
        # middle shard of 0..11 in three), as a crashing worker would.
        marker = self.path("failed-once")
        wrapper = self.path("flaky-lamina")
        with open(wrapper, "w") as f:
            f.write(f"""#!/bin/sh
jobs=$(cat)
case "$jobs" in
  *'"frames": [4, 7]'*)
    if [ ! -e '{marker}' ]; then touch '{marker}'; echo 'injected failure' >&2; exit 1; fi ;;
esac
printf '%s\\n' "$jobs" | exec '{LAMINA}' "$@"
""")
        os.chmod(wrapper, 0o755)
        run = subprocess.run(
            [sys.executable, os.path.join(HERE, "lamina_ray.py"), "render", SCENE,
             "--frames", "0..11", "--fps", "12", "--shards", "3", "--num-cpus", "2",
             "--video", self.path("joined.y4m"), "--output-dir", self.path("frames"),
             "--lamina", wrapper, "--max-retries", "2"],
            capture_output=True, timeout=240, cwd=self.scratch)
        self.assertEqual(run.returncode, 0, run.stderr.decode()[-3000:])
        summary = json.loads(run.stdout.decode().strip().splitlines()[-1])
        self.assertEqual(summary["shards"], 3)
        self.assertEqual(summary["frames"], 12)
        self.assertEqual(summary["gpusPerTask"], 0)
        self.assertTrue(os.path.exists(marker), "the failing shard never ran")

        lamina("render", SCENE, "--frames", "0..11", "--fps", "12", "--video", self.path("one.y4m"))
        self.assertEqual(read(self.path("joined.y4m")), read(self.path("one.y4m")))
        lamina("render", SCENE, "--frames", "0..11", "--fps", "12",
               "-o", self.path("one", "frame-%04d.png"))
        names = sorted(os.listdir(self.path("frames")))
        self.assertEqual(names, [f"frame-{n:04d}.png" for n in range(12)])
        for name in names:
            self.assertEqual(read(self.path("frames", name)), read(self.path("one", name)), name)

        ffmpeg = shutil.which("ffmpeg")
        if ffmpeg:
            decoded = subprocess.run(
                [ffmpeg, "-v", "error", "-i", self.path("joined.y4m"), "-f", "rawvideo",
                 "-pix_fmt", "yuv420p", "-"], capture_output=True, check=True).stdout
            self.assertEqual(len(decoded), 12 * 160 * 100 * 3 // 2)


FFMPEG = shutil.which("ffmpeg")
FFPROBE = shutil.which("ffprobe")
VIDEO_SCENES = os.path.join(ROOT, "Tests/LaminaRenderTests/Fixtures/video")
# The codec's tolerance against the PNG renders (dB); APNG is exact.
MINIMUM_PSNR = {"mp4": 40, "webm": 40, "mov": 40, "gif": 30, "apng": float("inf")}


def probe(path):
    """ffprobe's view of a video's one stream, frames counted, and its frame times."""
    run = subprocess.run([FFPROBE, "-v", "error", "-count_frames", "-show_streams", "-of", "json",
                          path], capture_output=True, check=True)
    streams = json.loads(run.stdout)["streams"]
    assert len(streams) == 1, streams
    times = subprocess.run([FFPROBE, "-v", "error", "-show_entries", "frame=pts_time", "-of",
                            "csv=p=0", path], capture_output=True, check=True).stdout.decode()
    return streams[0], [float(t.split(",")[0]) for t in times.split() if t.split(",")[0]]


def decode(path, stream):
    """The frames as straight RGBA, from YUV with the matrix the tags name
    (VP9 through libvpx-vp9, which keeps the alpha)."""
    arguments = [FFMPEG, "-v", "error", "-nostdin"]
    if stream["codec_name"] == "vp9":
        arguments += ["-c:v", "libvpx-vp9"]
    arguments += ["-i", path]
    if stream.get("color_space") in ("bt709", "smpte170m"):
        matrix = "bt709" if stream["color_space"] == "bt709" else "bt601"
        arguments += ["-vf", f"scale=in_color_matrix={matrix}:in_range=tv"
                             ":flags=accurate_rnd+full_chroma_int"]
    data = subprocess.run(arguments + ["-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                          capture_output=True, check=True).stdout
    size = stream["width"] * stream["height"] * 4
    return [data[i:i + size] for i in range(0, len(data), size)]


def psnr(a, b):
    """PSNR (dB) of the premultiplied colors and of the alpha of two
    straight-RGBA frames."""
    color = alpha = 0.0
    for i in range(0, len(b), 4):
        aa, ba = a[i + 3] / 255, b[i + 3] / 255
        for c in range(3):
            color += (a[i + c] * aa - b[i + c] * ba) ** 2
        alpha += (a[i + 3] - b[i + 3]) ** 2
    pixels = len(b) // 4

    def db(mse):
        return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)
    return db(color / (3 * pixels)), db(alpha / pixels)


class VideoChecks:
    """A joined video against one `lamina render --video` of the same
    frames: the same stream (codec, pixel format, size, rate, frames, color
    tags, alpha), frames at n / fps, and frames that match the PNG renders
    within the codec's tolerance."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="lamina-join-test-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.scratch, *names)

    def check_against_single(self, joined, scene, fmt, frames=8, fps=10):
        single = self.path("single." + fmt)
        lamina("render", scene, "--frames", f"0..{frames - 1}", "--fps", str(fps),
               "--video", single)
        lamina("render", scene, "--frames", f"0..{frames - 1}", "--fps", str(fps),
               "-o", self.path("ref", "f-%d.png"))
        ours, times = probe(joined)
        theirs, _ = probe(single)
        for key in ["codec_name", "profile", "pix_fmt", "width", "height", "r_frame_rate",
                    "nb_read_frames", "color_space", "color_primaries", "color_transfer",
                    "color_range"]:
            self.assertEqual(ours.get(key), theirs.get(key), f"{fmt}: {key}")
        # The AlphaMode element reads back as alpha_mode; a copied tag as ALPHA_MODE.
        def alpha_mode(stream):
            return {k.lower(): v for k, v in stream.get("tags", {}).items()}.get("alpha_mode")
        self.assertEqual(alpha_mode(ours), alpha_mode(theirs), f"{fmt}: alpha_mode")
        self.assertEqual(int(ours["nb_read_frames"]), frames)
        self.assertEqual(len(times), frames, fmt)
        for n, t in enumerate(times):
            self.assertAlmostEqual(t, n / fps, places=3, msg=f"{fmt}: frame {n}")
        decoded = decode(joined, ours)
        self.assertEqual(len(decoded), frames)
        for n, frame in enumerate(decoded):
            ref = subprocess.run([FFMPEG, "-v", "error", "-i", self.path("ref", f"f-{n}.png"),
                                  "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                                 capture_output=True, check=True).stdout
            if fmt == "apng":
                self.assertEqual(frame, ref, f"{fmt}: frame {n} exactly")
                continue
            color, alpha = psnr(frame, ref)
            self.assertGreater(color, MINIMUM_PSNR[fmt], f"{fmt}: frame {n}")
            if fmt != "gif":
                self.assertGreater(alpha, MINIMUM_PSNR[fmt], f"{fmt}: frame {n} alpha")



@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
@unittest.skipUnless(FFMPEG and FFPROBE, "no ffmpeg (scripts/install-deps.sh installs it)")
class JoinedVideo(VideoChecks, unittest.TestCase):
    """Shards rendered as render_shard renders them (here, without Ray) and
    joined by finish_video, each format."""

    def test_each_format_joins_to_a_single_render(self):
        ranges = lamina_ray.shard_ranges(0, 7, 3)
        for fmt, name in [("mp4", "card"), ("webm", "badge"), ("mov", "badge"),
                          ("gif", "card"), ("apng", "badge")]:
            with self.subTest(fmt):
                scene = os.path.join(VIDEO_SCENES, name + ".json")
                segment = fmt if fmt in lamina_ray.SEGMENTED else None
                results = [lamina_ray.render_shard(LAMINA, scene, a, b, 10, None, segment,
                                                   segment is None, {})
                           for a, b in ranges]
                joined = self.path("joined." + fmt)
                lamina_ray.finish_video(joined, ranges, results, 10)
                self.check_against_single(joined, scene, fmt)
                self.assertEqual([n for n in os.listdir(self.scratch) if n.startswith(".")], [])

    def test_join_command_and_unknown_extensions(self):
        scene = os.path.join(VIDEO_SCENES, "card.json")
        parts = []
        for i, (a, b) in enumerate(lamina_ray.shard_ranges(0, 7, 2)):
            parts.append(self.path(f"part-{i}.mp4"))
            lamina("render", scene, "--frames", f"{a}..{b}", "--fps", "10", "--video", parts[-1])
        run = subprocess.run([sys.executable, os.path.join(HERE, "lamina_ray.py"), "join",
                              "--video", self.path("joined.mp4"), *parts], capture_output=True)
        self.assertEqual(run.returncode, 0, run.stderr.decode())
        self.check_against_single(self.path("joined.mp4"), scene, "mp4")
        for bad in ["out.xyz", "out"]:
            run = subprocess.run([sys.executable, os.path.join(HERE, "lamina_ray.py"), "render",
                                  scene, "--frames", "0..7", "--video", self.path(bad)],
                                 capture_output=True)
            self.assertEqual(run.returncode, 2)
            self.assertIn("lamina writes .y4m, .mp4", run.stderr.decode())
        self.assertFalse(os.path.exists(self.path("out.xyz")))


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
@unittest.skipUnless(FFMPEG and FFPROBE, "no ffmpeg (scripts/install-deps.sh installs it)")
class RayVideo(VideoChecks, unittest.TestCase):
    """A real local Ray renders VP9-with-alpha segments and the driver
    joins them: the same checks against one `lamina render`."""

    def setUp(self):
        try:
            import ray  # noqa: F401
        except ImportError:
            self.skipTest("ray is not installed (scripts/install-python-deps.sh installs it)")
        super().setUp()

    def test_ray_shards_join_to_a_single_webm_with_alpha(self):
        scene = os.path.join(VIDEO_SCENES, "badge.json")
        joined = self.path("joined.webm")
        run = subprocess.run(
            [sys.executable, os.path.join(HERE, "lamina_ray.py"), "render", scene,
             "--frames", "0..7", "--fps", "10", "--shards", "3", "--num-cpus", "2",
             "--video", joined, "--lamina", LAMINA],
            capture_output=True, timeout=240, cwd=self.scratch)
        self.assertEqual(run.returncode, 0, run.stderr.decode()[-3000:])
        summary = json.loads(run.stdout.decode().strip().splitlines()[-1])
        self.assertEqual((summary["shards"], summary["frames"]), (3, 8))
        self.check_against_single(joined, scene, "webm")


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina binary at {LAMINA}")
class KubernetesRecipe(unittest.TestCase):
    """Runs the container scripts of distributed/k8s/ here, one index after
    the other, as the Indexed Job's pods would, with this lamina on PATH."""

    def setUp(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("PyYAML is not installed (Ray brings it)")
        self.scratch = tempfile.mkdtemp(prefix="lamina-k8s-test-")
        self.bin = os.path.join(self.scratch, "bin")
        os.makedirs(self.bin)
        os.symlink(LAMINA, os.path.join(self.bin, "lamina"))
        self.jobs = {}
        for name in ["lamina-render-job.yaml", "lamina-join-job.yaml"]:
            with open(os.path.join(HERE, "k8s", name)) as f:
                for document in yaml.safe_load_all(f):
                    self.jobs[document["metadata"]["name"]] = document

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def run_pod(self, job, index=None, **env):
        spec = job["spec"]["template"]["spec"]["containers"][0]
        environment = {e["name"]: e["value"] for e in spec.get("env", [])}
        environment.update(env)
        environment["PATH"] = self.bin + os.pathsep + os.environ["PATH"]
        if index is not None:
            environment["JOB_COMPLETION_INDEX"] = str(index)
        run = subprocess.run(spec["command"] + spec["args"], env=environment,
                             capture_output=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr.decode())
        return run

    def test_the_indexed_job_renders_the_same_shards_and_joins_to_a_single_render(self):
        render = self.jobs["lamina-render"]
        self.assertEqual(render["spec"]["completionMode"], "Indexed")
        shards = int(render["spec"]["completions"])
        env = {e["name"]: e["value"]
               for e in render["spec"]["template"]["spec"]["containers"][0]["env"]}
        self.assertEqual(int(env["SHARDS"]), shards)
        # The script's arithmetic is the driver's, for the manifest's range and others.
        script = render["spec"]["template"]["spec"]["containers"][0]["args"][0]
        arithmetic = script.split('case "$OUTPUT"')[0]
        for first, last, count in [(0, 239, shards), (0, 9, 4), (5, 6, 4), (3, 100, 7)]:
            expected = lamina_ray.shard_ranges(first, last, count)
            for i in range(count):
                out = subprocess.run(
                    ["/bin/sh", "-c", arithmetic + 'echo "$first..$last"'],
                    env={"JOB_COMPLETION_INDEX": str(i), "FIRST_FRAME": str(first),
                         "LAST_FRAME": str(last), "SHARDS": str(count),
                         "PATH": os.environ["PATH"]},
                    capture_output=True)
                want = f"{expected[i][0]}..{expected[i][1]}" if i < len(expected) else ""
                self.assertEqual(out.stdout.decode().strip(), want,
                                 f"{first}..{last} in {count}, index {i}")

        video = os.path.join(self.scratch, "out", "show.y4m")
        for i in range(3):
            self.run_pod(render, i, SCENE=SCENE, FIRST_FRAME="0", LAST_FRAME="11", FPS="12",
                         SHARDS="3", OUTPUT=video)
        parts = sorted(os.listdir(os.path.dirname(video)))
        self.assertEqual(parts, [f"show.part-{i:04d}.y4m" for i in range(3)])
        self.run_pod(self.jobs["lamina-join"], OUTPUT=video)
        single = os.path.join(self.scratch, "single.y4m")
        lamina("render", SCENE, "--frames", "0..11", "--fps", "12", "--video", single)
        self.assertEqual(read(video), read(single))

        pattern = os.path.join(self.scratch, "png", "f-%03d.png")
        for i in range(3):
            self.run_pod(render, i, SCENE=SCENE, FIRST_FRAME="0", LAST_FRAME="11", FPS="12",
                         SHARDS="3", OUTPUT=pattern)
        self.assertEqual(sorted(os.listdir(os.path.dirname(pattern))),
                         [f"f-{n:03d}.png" for n in range(12)])


if __name__ == "__main__":
    unittest.main()

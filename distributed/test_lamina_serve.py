"""The render service (lamina_serve.py) on loopback: it starts on 127.0.0.1
with one replica, renders a scene and a Lottie document (JSON and
dotLottie) to PNG and MP4 with the bytes `lamina render` writes for the
same options, answers malformed and oversized requests with their status
and message, survives its worker killed mid-request and a job past its
time budget, and answers 503 with Retry-After when its queue is full. A
replica's worker and its scratch folders are tested without Ray too.

    LAMINA=.build/debug/lamina python3 -m unittest -v distributed/test_lamina_serve.py

Skipped, saying so, where Ray Serve is not installed
(scripts/install-python-deps.sh installs it).
"""

import collections
import concurrent.futures
import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import lamina_serve  # noqa: E402

LAMINA = os.path.abspath(os.environ.get("LAMINA", os.path.join(ROOT, ".build/debug/lamina")))
LOTTIE = os.path.join(ROOT, "Tests/LaminaLottieTests/Fixtures/success.json")

# An animated scene with no files: a gradient card sliding, a rounded
# shape, a fade.
SCENE = {
    "lamina": 1,
    "canvas": {"width": 64, "height": 48, "background": "#20242c"},
    "root": {"sublayers": [
        {"class": "CAGradientLayer", "frame": [4, 4, 40, 24], "colors": ["#ff6600", "#3366ff"],
         "cornerRadius": 6,
         "animations": [{"keyPath": "position.x", "fromValue": 24, "toValue": 40, "duration": 1}]},
        {"frame": [30, 26, 28, 18], "backgroundColor": "#88cc44", "cornerRadius": 9,
         "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.2, "duration": 1}]},
    ]},
}
# Seconds of blurred shadows (about 0.1 s a frame): killed, or timed out,
# in the middle.
SLOW_SCENE = {
    "lamina": 1, "canvas": {"width": 256, "height": 256, "background": "#ffffff"},
    "root": {"sublayers": [
        {"frame": [8 * i, 8 * i, 96, 96], "backgroundColor": "#3366ff", "cornerRadius": 12,
         "shadowOpacity": 1, "shadowRadius": 24, "shadowOffset": [4, 4],
         "animations": [{"keyPath": "position.x", "fromValue": 40, "toValue": 200,
                         "duration": 1}]}
        for i in range(16)]},
}
SLOW = "frames=0..299&fps=60&format=y4m&scale=4"

try:
    import ray.serve  # noqa: F401
    HAVE_SERVE = True
except ImportError:
    HAVE_SERVE = False


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipUnless(HAVE_SERVE, "Ray Serve is not installed (scripts/install-python-deps.sh)")
@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina at {LAMINA} (set LAMINA)")
class Service(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="lamina-serve-test-")
        cls.port = free_port()
        cls.base = f"http://127.0.0.1:{cls.port}"
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_DEDUP_LOGS="0")
        cls.log = open(os.path.join(cls.scratch, "service.log"), "wb")
        cls.service = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "lamina_serve.py"), "--host", "127.0.0.1",
             "--port", str(cls.port), "--lamina", LAMINA, "--num-cpus", "2",
             "--num-replicas", "1", "--max-ongoing", "2", "--max-queued", "1",
             "--max-body-bytes", str(1 << 20), "--max-frames", "600",
             "--time-budget", "4"],
            stdout=cls.log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _, body = cls.get("/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            if cls.service.poll() is not None or time.monotonic() > deadline:
                cls.tearDownClass()
                raise RuntimeError("the service did not start: " + cls.service_log())
            time.sleep(0.5)

    @classmethod
    def tearDownClass(cls):
        if cls.service.poll() is None:
            # The service, not its group: it shuts its own Ray down.
            cls.service.send_signal(signal.SIGTERM)
            try:
                cls.service.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(cls.service.pid, signal.SIGKILL)
                cls.service.wait()
        cls.log.close()

    @classmethod
    def service_log(cls):
        cls.log.flush()
        with open(os.path.join(cls.scratch, "service.log"), "rb") as f:
            return f.read()[-4000:].decode(errors="replace")

    @classmethod
    def request(cls, method, path, body=None, headers=None, timeout=60):
        req = urllib.request.Request(cls.base + path, data=body, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    @classmethod
    def get(cls, path):
        return cls.request("GET", path)

    @classmethod
    def post(cls, path, body, **kwargs):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        return cls.request("POST", path, body, **kwargs)

    def render(self, document_path, *options, video=None):
        """What `lamina render` writes for the document and options (a PNG,
        or a video of the format `video`)."""
        out = os.path.join(self.scratch, f"expected-{time.monotonic_ns()}.{video or 'png'}")
        args = [LAMINA, "render", document_path, *options]
        args += ["--video", out] if video else ["-o", out]
        subprocess.run(args, check=True, capture_output=True)
        with open(out, "rb") as f:
            return f.read()

    def error(self, status, headers, body):
        self.assertEqual(headers.get("content-type"), "application/json", body)
        return json.loads(body)

    # --- results equal to lamina render -----------------------------------------

    def test_a_scene_to_png_and_mp4_is_what_lamina_render_writes(self):
        path = os.path.join(self.scratch, "scene.json")
        with open(path, "w") as f:
            json.dump(SCENE, f)
        status, headers, png = self.post("/render", {"scene": SCENE, "time": 0.5})
        self.assertEqual((status, headers.get("content-type")), (200, "image/png"), png[:300])
        self.assertEqual(png, self.render(path, "--time", "0.5"))
        status, _, bare = self.post("/render?time=0.5&scale=2", SCENE)
        self.assertEqual(status, 200, bare[:300])
        self.assertEqual(bare, self.render(path, "--time", "0.5", "--scale", "2"))
        status, headers, mp4 = self.post(
            "/render", {"scene": SCENE, "frames": "0..9", "fps": 10, "format": "mp4"})
        self.assertEqual((status, headers.get("content-type")), (200, "video/mp4"), mp4[:300])
        self.assertEqual(headers.get("x-lamina-frames"), "10")
        self.assertEqual(mp4, self.render(path, "--frames", "0..9", "--fps", "10", video="mp4"))

    def test_a_lottie_document_to_png_and_mp4_is_what_lamina_render_writes(self):
        with open(LOTTIE, "rb") as f:
            document = f.read()
        status, _, png = self.post("/render?frame=30", document)
        self.assertEqual(status, 200, png[:300])
        self.assertEqual(png, self.render(LOTTIE, "--frame", "30"))
        status, _, mp4 = self.post("/render?frames=0..29&format=mp4", document)
        self.assertEqual(status, 200, mp4[:300])
        self.assertEqual(mp4, self.render(LOTTIE, "--frames", "0..29", video="mp4"))
        # The same animation in a dotLottie archive, sent as its bytes.
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("manifest.json", json.dumps({"animations": [{"id": "check"}]}))
            z.writestr("animations/check.json", document)
        dotlottie = os.path.join(self.scratch, "check.lottie")
        with open(dotlottie, "wb") as f:
            f.write(archive.getvalue())
        status, _, png = self.post("/render?frame=30", archive.getvalue())
        self.assertEqual(status, 200, png[:300])
        self.assertEqual(png, self.render(dotlottie, "--frame", "30"))
        status, headers, info = self.post("/info", archive.getvalue())
        self.assertEqual(status, 200, info)
        info = json.loads(info)
        self.assertEqual((info["kind"], info["packaging"], info["frames"]),
                         ("lottie", "dotLottie", 60))

    def test_info_describes_a_scene(self):
        status, _, body = self.post("/info", SCENE)
        self.assertEqual(status, 200, body)
        info = json.loads(body)
        self.assertEqual((info["kind"], info["canvas"]["width"], info["animations"]),
                         ("scene", 64, 2))

    # --- bad requests ---------------------------------------------------------------

    def test_malformed_requests_get_their_status_and_message(self):
        cases = [
            (b'{"scene": {', 400, "the body: line 1 column 12"),
            (b"\xff\xfe", 415, "neither a JSON job or document"),
            (b"[1, 2]", 422, "expected a job or a document object, found an array"),
            ({"scene": "/etc/passwd"}, 422,
             "scene: expected a scene or Lottie object inline, found a string"),
            ({"scene": SCENE, "output": "/tmp/x.png"}, 422, "output: the service chooses"),
            ({"scene": SCENE, "base": "/"}, 422, "base: the service chooses"),
            ({"scene": SCENE, "fsp": 3}, 422, "unknown key 'fsp'"),
            ({"scene": SCENE, "time": "soon"}, 422,
             "request: time: expected a number, found a string"),
            ({"scene": SCENE, "format": "bmp"}, 422, "format: expected one of png, mp4"),
            ({"scene": SCENE, "format": "mp4"}, 422, "frames: a mp4 video needs 'frames'"),
            ({"scene": dict(SCENE, root={"opacity": "half"})}, 422,
             "request: root.opacity: expected a number, found a string"),
            ({"scene": dict(SCENE, images={"p": "../../etc/passwd"},
                            root={"contents": "p"})}, 422,
             "images.p: cannot read '../../etc/passwd': not allowed"),
            ({"scene": dict(SCENE, images={"p": "/etc/hostname"}, root={"contents": "p"})},
             422, "cannot read '/etc/hostname': not allowed"),
        ]
        for body, status, message in cases:
            with self.subTest(body=str(body)[:80]):
                got, headers, answer = self.post("/render", body)
                self.assertEqual(got, status, answer)
                self.assertIn(message, self.error(got, headers, answer)["error"])
        status, headers, answer = self.post("/render?tme=1", SCENE)
        self.assertEqual(status, 422)
        self.assertIn("unknown query parameter 'tme'", json.loads(answer)["error"])
        status, _, answer = self.post("/render?time=x", SCENE)
        self.assertEqual((status, json.loads(answer)["error"]),
                         (422, "time: expected a number, found 'x'"))
        status, _, _ = self.get("/render")
        self.assertEqual(status, 405)
        status, _, _ = self.get("/nowhere")
        self.assertEqual(status, 404)

    def test_requests_over_a_limit_name_it(self):
        big = dict(SCENE, canvas={"width": 8000, "height": 8000})
        # A body announced over the limit is refused before it is sent.
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.putrequest("POST", "/render")
        connection.putheader("Content-Length", str((1 << 20) + 1))
        connection.endheaders()
        response = connection.getresponse()
        error = json.loads(response.read())
        connection.close()
        self.assertEqual((response.status, error["limit"]), (413, "maxBodyBytes"), error)
        self.assertIn("over the limit of 1048576 (maxBodyBytes)", error["error"])
        cases = [
            ({"scene": big}, 422, "maxCanvasPixels"),
            ({"scene": SCENE, "scale": 8, "time": 0}, 200, None),
            ({"scene": SCENE, "frames": "0..600", "format": "y4m"}, 422, "maxFrames"),
            ({"scene": dict(SCENE, canvas={"width": 1024, "height": 1024}), "scale": 2,
              "frames": "0..599", "format": "y4m"}, 422, "maxTotalPixels"),
            # lamina's own limits come back with their names too.
            ({"scene": dict(SCENE, root={"shadowRadius": 900})}, 422, "maxBlurRadius"),
        ]
        for body, status, limit in cases:
            with self.subTest(limit=limit):
                got, headers, answer = self.post("/render", body)
                self.assertEqual(got, status, answer[:300])
                if limit:
                    error = self.error(got, headers, answer)
                    self.assertEqual(error["limit"], limit, error)
                    self.assertIn(f"({limit})", error["error"])

    def test_a_job_past_its_time_budget_is_ended_and_the_next_succeeds(self):
        status, headers, answer = self.post(f"/render?{SLOW}", SLOW_SCENE, timeout=60)
        self.assertEqual(status, 422, answer[:300])
        error = self.error(status, headers, answer)
        self.assertEqual(error["limit"], "timeBudget", error)
        status, _, png = self.post("/render", {"scene": SCENE, "time": 0.25})
        self.assertEqual(status, 200, png[:300])

    def test_a_worker_killed_mid_request_is_an_error_and_the_next_request_succeeds(self):
        _, _, health = self.get("/healthz")
        pid = json.loads(health)["worker_pid"]
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            slow = pool.submit(self.post, f"/render?{SLOW}", SLOW_SCENE)
            # Killed once the job is in the worker. A loaded machine takes a
            # while to start it, and while the replica is full Ray answers
            # 503 (to the job: it is sent again after Retry-After; to
            # /healthz: it is asked again). What was seen is in the message.
            deadline = time.monotonic() + 60
            seen = collections.Counter()
            while True:
                if slow.done():
                    status, headers, answer = slow.result()
                    seen[f"job {status}"] += 1
                    self.assertEqual(status, 503, f"the job ended before it could be killed:"
                                     f" {answer[:300]!r}; seen {dict(seen)};"
                                     f" service log: {self.service_log()}")
                    time.sleep(float(headers.get("retry-after", 1)))
                    slow = pool.submit(self.post, f"/render?{SLOW}", SLOW_SCENE)
                status, _, health = self.get("/healthz")
                seen[f"healthz {status}"] += 1
                if status == 200 and json.loads(health)["queue"] > 0:
                    break
                self.assertLess(time.monotonic(), deadline,
                                f"the job never reached the worker; seen {dict(seen)};"
                                f" service log: {self.service_log()}")
                time.sleep(0.05)
            time.sleep(0.3)
            os.kill(pid, signal.SIGKILL)
            status, headers, answer = slow.result()
        self.assertEqual(status, 500, answer[:300])
        error = self.error(status, headers, answer)
        self.assertEqual(error["kind"], "worker_died")
        self.assertIn("ended (signal 9) while rendering this request", error["error"])
        status, _, png = self.post("/render", {"scene": SCENE, "time": 0.25})
        self.assertEqual(status, 200, png[:300])
        _, _, health = self.get("/healthz")
        self.assertNotEqual(json.loads(health)["worker_pid"], pid)

    def test_a_full_queue_answers_503_with_retry_after(self):
        # Two in the replica and one waiting: of eight at once, some are refused.
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(
                lambda _: self.post("/render?frames=0..59&fps=60&format=y4m&scale=4", SCENE),
                range(8)))
        statuses = sorted(a[0] for a in answers)
        self.assertEqual(set(statuses) - {200, 503}, set(), statuses)
        self.assertIn(503, statuses)
        self.assertIn(200, statuses)
        for status, headers, _ in answers:
            if status == 503:
                self.assertEqual(headers.get("retry-after"), "1", headers)

    def test_health_and_metrics(self):
        status, _, health = self.get("/healthz")
        self.assertEqual(status, 200)
        self.assertTrue(json.loads(health)["ok"])
        self.post("/render", {"scene": SCENE})
        status, headers, text = self.get("/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(headers.get("content-type", "").startswith("text/plain"))
        text = text.decode()
        for name in ("lamina_serve_requests_total{endpoint=\"render\",status=\"200\"}",
                     "lamina_serve_frames_rendered_total", "lamina_serve_queue_depth",
                     "lamina_serve_worker_idle_seconds_total",
                     "lamina_serve_frame_seconds{quantile=\"0.99\"}",
                     "lamina_serve_memory_bytes{replica="):
            self.assertIn(name, text)


@unittest.skipUnless(os.access(LAMINA, os.X_OK), f"no lamina at {LAMINA} (set LAMINA)")
class WorkerJobs(unittest.TestCase):
    """A replica's worker without Ray: jobs written at once, their results
    in their own files, nothing left after."""

    def test_jobs_at_once_render_what_lamina_render_writes_and_leave_nothing(self):
        scratch = lamina_serve.Scratch(tempfile.mkdtemp(prefix="lamina-serve-test-"))
        self.addCleanup(scratch.close)
        worker = lamina_serve.Worker(LAMINA, scratch, 30)
        self.addCleanup(worker.close)
        worker.warm()
        idle = worker.idle_seconds()
        time.sleep(0.2)
        # Nothing written: the batch waits, and the metric counts it.
        self.assertGreaterEqual(worker.idle_seconds() - idle, 0.2)
        renders = [lamina_serve.Render(SCENE, {"time": t}, "png") for t in (0, 0.25, 0.5, 0.75)]
        places = [scratch.take(r) for r in renders]
        futures = [worker.submit(lamina_serve.job_line(r, p)) for r, p in zip(renders, places)]
        results = [f.result(60) for f in futures]
        self.assertEqual([r["ok"] for r in results], [True] * 4, results)
        expected = tempfile.mkdtemp(prefix="lamina-serve-test-")
        self.addCleanup(shutil.rmtree, expected, True)
        path = os.path.join(expected, "scene.json")
        with open(path, "w") as f:
            json.dump(SCENE, f)
        for render, place in zip(renders, places):
            out = os.path.join(expected, f"{render.options['time']}.png")
            subprocess.run([LAMINA, "render", path, "--time", str(render.options["time"]),
                            "-o", out], check=True, capture_output=True)
            with open(out, "rb") as f:
                self.assertEqual(scratch.result(place), f.read(), render.options)
            scratch.release(place)
        self.assertEqual(os.listdir(scratch.inline), [])
        self.assertEqual(sorted(os.listdir(scratch.outputs)), ["warm-up.png"])


class Unit(unittest.TestCase):
    """The request reading and the limits, without a service."""

    def test_frame_counts(self):
        lottie = (0, 60, 30, {"in": (0, 20), "late": (50, 100)})
        count = lamina_serve.frame_count
        self.assertEqual(count({}, None), 1)
        self.assertEqual(count({"frames": "0..59"}, None), 60)
        self.assertEqual(count({"frames": [10, 19]}, None), 10)
        self.assertEqual(count({"frames": "all"}, lottie), 60)
        self.assertEqual(count({"frames": "all", "fps": 60}, lottie), 120)
        self.assertEqual(count({"marker": "in"}, lottie), 20)
        self.assertEqual(count({"marker": "late"}, lottie), 10)

    def test_messages_name_the_request(self):
        tidy = lamina_serve.tidy
        self.assertEqual(tidy("stdin:4: root.opacity: x", "/tmp/r1"), "request: root.opacity: x")
        self.assertEqual(tidy("/tmp/r1/upload.lottie: layers[0]: y", "/tmp/r1"),
                         "upload.lottie: layers[0]: y")
        error = lamina_serve.failed_job(
            {"ok": False, "error": "stdin:2: canvas: ... (maxCanvasPixels)", "kind": "input"},
            "/tmp/r1")
        self.assertEqual((error.status, error.limit), (422, "maxCanvasPixels"))
        error = lamina_serve.failed_job({"ok": False, "error": "x", "kind": "service"}, "/r")
        self.assertEqual(error.status, 500)
        # An inline scene's messages name neither its (shared) base nor its output.
        places = lamina_serve.Places("/s/inline", "/s/out/r7.png")
        self.assertEqual(tidy("cannot write '/s/out/r7.png'", *places.folders()),
                         "cannot write 'r7.png'")

    def test_scratch_leaves_nothing_behind(self):
        scratch = lamina_serve.Scratch(tempfile.mkdtemp(prefix="lamina-serve-test-"))
        self.addCleanup(scratch.close)
        inline = lamina_serve.Render(SCENE, {}, "png")
        first, second = scratch.take(inline), scratch.take(inline)
        # Inline scenes share an empty base (they read nothing there) and
        # write a file each, named by the request.
        self.assertEqual((first.base, second.base), (scratch.inline, scratch.inline))
        self.assertNotEqual(first.output, second.output)
        self.assertEqual(os.path.dirname(first.output), scratch.outputs)
        line = json.loads(lamina_serve.job_line(inline, first))
        self.assertEqual((line["base"], line["output"]), (scratch.inline, first.output))
        with open(first.output, "wb") as f:
            f.write(b"png")
        self.assertEqual(scratch.result(first), b"png")
        scratch.release(first)
        # A job whose worker ended while it wrote leaves the batch's
        # temporary file beside the output; its release removes it.
        left = os.path.join(scratch.outputs, "." + os.path.basename(second.output) + ".9-1-0.tmp")
        with open(left, "wb") as f:
            f.write(b"half")
        scratch.release(second)
        # An upload gets a folder of its own, the document written in it.
        upload = scratch.take(lamina_serve.Render(b"PK\x03\x04", {}, "png", upload_ext="lottie"))
        self.assertEqual((upload.base, os.path.dirname(upload.output)), (upload.folder,) * 2)
        with open(upload.upload, "rb") as f:
            self.assertEqual(f.read(), b"PK\x03\x04")
        self.assertEqual(json.loads(lamina_serve.job_line(inline, upload))["scene"],
                         upload.upload)
        scratch.release(upload)
        self.assertEqual(sorted(os.listdir(scratch.root)), ["inline", "out"])
        self.assertEqual(os.listdir(scratch.inline) + os.listdir(scratch.outputs), [])


if __name__ == "__main__":
    unittest.main()

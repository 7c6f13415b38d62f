"""``arena serve`` under load: uploads to active and to the first rated game, the ladder's
games/s against ``arena tournament`` while viewers poll the leaderboard, and the
leaderboard's latency.

A real server (``arena serve`` on a free loopback port, in a temporary folder)
and a real HTTP client (the standard library's), as in the tests:

1. ``uploads``: N versions of the Python kit (each a distinct file), one after
   the other while the league plays: seconds from the POST to ``active`` and to
   the version's first rated game, p50 and p95. ``--rust N`` does the same for
   the Rust kit, each version built from a clean target folder, jailed and
   offline.
2. ``ladder``: the ladder's games/s over ``--seconds`` (after a warm-up) while
   ``--viewers`` simulated people each fetch ``GET /api/v1/leaderboard`` every
   5 s (jittered, open loop), against ``arena tournament`` of the same bots with
   the same ``--jobs`` (sampled, isolated as the ladder is) in the same run.
3. ``latency``: the leaderboard page and ``GET /api/v1/leaderboard`` under that
   load, p50/p95, and the closed-loop maximum of requests/s (8 threads);
   and the CPUs the viewers' own client (this process: a thread and a new
   connection per request) and the web app used meanwhile: on a small
   machine both take their share from the games.

It prints one JSON object and one line per figure. Run from a clone after
``make test`` has made ``.venv``::

    .venv/bin/python benchmarks/serve.py --uploads 20 --rust 20 --viewers 200
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from arena.bots.sandbox import cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
KITS = ROOT / "sample_bots"
HOUSE = ("greedy_bot", "random_bot", "greedy_bot", "random_bot")
PASSWORD = "a long benchmark phrase"


def config(jobs: int) -> str:
    bots = "".join(
        f'[[bots]]\nname = "house{n}"\ncommand = "python3 -m arena.samples.{module}"\n'
        for n, module in enumerate(HOUSE)
    )
    return (
        f'name = "bench"\nplayers = 4\ndeals = 1\nschedule = "sampled"\n{bots}'
        f"[server]\nsubmissions_per_day = 1000\nmatch_share = 0\n"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Server:
    """A running ``arena serve``."""

    def __init__(self, folder: Path, jobs: int) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = folder / "bench.toml"
        self.config.write_text(config(jobs))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", str(self.config), "--port", str(self.port),
             "--jobs", str(jobs)],
            cwd=folder, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/v1/leaderboard", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.results = folder / "results" / "bench"

    def token(self, name: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "arena", "serve", str(self.config), "--invite", name,
             "--port", str(self.port)],
            cwd=self.folder, capture_output=True, text=True, check=True,
        )  # fmt: skip
        code = done.stdout.strip().rsplit("/", 1)[1]
        answer = self.call("POST", "/api/v1/join", {"code": code, "user": name,
                                                    "password": PASSWORD})  # fmt: skip
        return str(answer["token"])

    def call(self, method: str, path: str, data: Any = None, token: str = "",
             upload: bytes | None = None) -> Any:  # fmt: skip
        request = urllib.request.Request(self.url + path, method=method)
        if data is not None:
            request.data = json.dumps(data).encode()
        if upload is not None:
            boundary = "bench"
            request.data = (
                f'--{boundary}\r\nContent-Disposition: form-data; name="bot"; '
                'filename="bot.zip"\r\nContent-Type: application/zip\r\n\r\n'.encode()
                + upload + f"\r\n--{boundary}--\r\n".encode()
            )  # fmt: skip
            request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    def done(self) -> int:
        path = self.results / "results.sqlite"
        if not path.is_file():
            return 0
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as db:
            return int(db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[0])

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=120)


def archive(kit: Path, name: str, mark: str) -> bytes:
    """The kit as a .zip named ``name``, a comment ``mark`` making its files distinct."""
    buffer = io.BytesIO()
    skip = {"target", "build", "node_modules", "__pycache__", "dist", "bin"}
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(kit.rglob("*")):
            if not path.is_file() or skip & set(path.relative_to(kit).parts):
                continue
            text = path.read_bytes()
            if path.name == "bot.toml":
                text = (
                    b"\n".join(
                        f'name = "{name}"'.encode() if line.startswith(b"name") else line
                        for line in text.splitlines()
                    )
                    + f"\n# {mark}\n".encode()
                )
            out.writestr(f"bot/{path.relative_to(kit)}", text)
    return buffer.getvalue()


def uploads(server: Server, kit: str, count: int, label: str) -> dict[str, Any]:
    """``count`` versions of a kit, one after the other: seconds to active and to the
    first rated game."""
    token = server.token(f"author-{kit}")
    to_active: list[float] = []
    to_game: list[float] = []
    failed = 0
    for n in range(count):
        started = time.monotonic()
        answer = server.call("POST", "/api/v1/bots", token=token,
                             upload=archive(KITS / kit, f"{kit}bot", f"{label}-{n}"))  # fmt: skip
        version = answer["version"]
        active = None
        while time.monotonic() - started < 900:
            state = server.call("GET", f"/api/v1/versions/{version}")
            if state["status"] == "failed":
                failed += 1
                print(f"  {version}: failed: {state['reason']}", file=sys.stderr)
                break
            if state["status"] == "active" and active is None:
                active = time.monotonic() - started
                to_active.append(active)
            if active is not None and state["games"] > 0:
                to_game.append(time.monotonic() - started)
                break
            time.sleep(0.25)
    figures: dict[str, Any] = {"uploads": count, "failed": failed}
    for name, values in (("to_active_s", to_active), ("to_first_game_s", to_game)):
        if values:
            figures[name] = {"p50": round(percentile(values, 0.5), 1),
                             "p95": round(percentile(values, 0.95), 1)}  # fmt: skip
    return figures


def page_or_api(index: int) -> str:
    """Half the viewers watch the page ``/``, half ``GET /api/v1/leaderboard``."""
    return "/" if index % 2 else "/api/v1/leaderboard"


class Viewers:
    """``count`` people, each fetching its path (``path_of(index)``) every ``every_s``
    (jittered), open loop: a request is sent on time whether or not the one before has
    been answered, with at most ``most_in_flight`` under way (past it a request is not
    sent, and counted in :attr:`skipped`: the client's own bound, so that a slow server
    cannot make it start threads without end)."""

    def __init__(
        self,
        url: str,
        count: int,
        every_s: float = 5.0,
        path_of: Callable[[int], str] = page_or_api,
        most_in_flight: int = 512,
    ) -> None:
        self.url, self.count, self.every_s, self.path_of = url, count, every_s, path_of
        self.latencies: dict[str, list[float]] = {path_of(n): [] for n in range(count)}
        self.errors = 0
        self.skipped = 0
        self.in_flight = threading.BoundedSemaphore(most_in_flight)
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def _fetch(self, path: str) -> None:
        started = time.monotonic()
        try:
            urllib.request.urlopen(self.url + path, timeout=30).read()
        except (OSError, urllib.error.HTTPError):
            with self.lock:
                self.errors += 1
            return
        finally:
            self.in_flight.release()
        with self.lock:
            self.latencies[path].append(time.monotonic() - started)

    def _person(self, index: int) -> None:
        rng = random.Random(index)
        path = self.path_of(index)
        due = time.monotonic() + rng.uniform(0, self.every_s)
        while not self.stopping.is_set():
            wait = due - time.monotonic()
            if wait > 0 and self.stopping.wait(wait):
                return
            if self.in_flight.acquire(blocking=False):
                threading.Thread(target=self._fetch, args=(path,), daemon=True).start()
            else:
                with self.lock:
                    self.skipped += 1
            due += self.every_s * rng.uniform(0.8, 1.2)

    def __enter__(self) -> Viewers:
        for index in range(self.count):
            threading.Thread(target=self._person, args=(index,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()


def closed_loop(url: str, seconds: float = 10.0, threads: int = 8) -> float:
    """Requests/s of ``GET /api/v1/leaderboard`` with ``threads`` clients back to back."""
    count = [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < end:
            urllib.request.urlopen(url + "/api/v1/leaderboard", timeout=30).read()
            with lock:
                count[0] += 1

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return count[0] / seconds


def child_pid(parent: int, role: str) -> int:
    """The pid of ``arena serve``'s child ``role`` (web, builder, ladder), 0 if not found."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == parent and b"arena.server.child" in words and role.encode() in words:
            return int(entry.name)
    return 0


def tournament_rate(folder: Path, jobs: int, seconds: float) -> float:
    """Games/s of ``arena tournament`` of the ladder's field (the house bots and a Python
    kit bot, sampled, isolated as the ladder is, the same --jobs), over about ``seconds``
    after its first games."""
    out = folder / "tournament"
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *(
            arg for n, module in enumerate(HOUSE)
            for arg in ("--bot", f"house{n}=python3 -m arena.samples.{module}")),
         "--bot", f"pythonbot={KITS / 'python'}",
         "--players", "4", "--deals", "1", "--schedule", "sampled", "--rounds", "100000",
         "--max-games", "10000000", "--isolate-rotations", "--jobs", str(jobs), "--quiet",
         "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def done() -> int:
        path = out / "results.sqlite"
        if not path.is_file():
            return 0
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as db:
            return int(db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[0])

    try:
        while done() < 20:
            time.sleep(0.5)
        first, started = done(), time.monotonic()
        time.sleep(seconds)
        return (done() - first) / (time.monotonic() - started)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--rust", type=int, default=0, help="Rust kit versions (0: none)")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    given = parser.parse_args()
    report: dict[str, Any] = {"jobs": given.jobs, "viewers": given.viewers}
    with tempfile.TemporaryDirectory(prefix="arena-bench-serve-") as scratch:
        folder = Path(scratch)
        server = Server(folder, given.jobs)
        try:
            while server.done() < 20:
                time.sleep(0.5)
            report["python_uploads"] = uploads(server, "python", given.uploads, "py")
            if given.rust:
                report["rust_uploads"] = uploads(server, "rust", given.rust, "rs")
            time.sleep(5)  # no build running: the league alone
            first, started = server.done(), time.monotonic()
            time.sleep(given.seconds)
            alone = (server.done() - first) / (time.monotonic() - started)
            report["ladder_alone_games_per_s"] = round(alone, 2)
            web = child_pid(server.process.pid, "web")
            with Viewers(server.url, given.viewers) as viewers:
                time.sleep(5)
                first, started = server.done(), time.monotonic()
                client, served = os.times(), cpu_seconds(web)
                time.sleep(given.seconds)
                ladder = (server.done() - first) / (time.monotonic() - started)
                window = time.monotonic() - started
                now = os.times()
                client_cpu = now.user + now.system - client.user - client.system
                report["viewers_client_cpus"] = round(client_cpu / window, 3)
                report["web_app_cpus"] = round((cpu_seconds(web) - served) / window, 3)
            report["ladder_games_per_s"] = round(ladder, 2)
            for path, values in viewers.latencies.items():
                key = "page" if path == "/" else "api"
                report[f"{key}_latency_ms"] = {
                    "requests": len(values),
                    "p50": round(1000 * statistics.median(values), 1) if values else None,
                    "p95": round(1000 * percentile(values, 0.95), 1) if values else None,
                }
            report["viewer_errors"] = viewers.errors
            report["closed_loop_requests_per_s"] = round(closed_loop(server.url), 1)
        finally:
            server.stop()
        tournament = tournament_rate(folder, given.jobs, given.seconds)
        report["tournament_games_per_s"] = round(tournament, 2)
        report["ladder_over_tournament"] = round(ladder / tournament, 3) if tournament else None
    print(json.dumps(report))
    for key, value in report.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()

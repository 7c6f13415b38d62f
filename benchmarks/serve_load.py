"""``arena serve`` under load: 200 and 1,000 viewers while 10 authors upload at once.

A real server (``arena serve`` on a free loopback port, in a temporary folder: 4
house bots and 10 authors' Python kit bots, 4 seats, sampled, ``match_share =
0``) and real HTTP clients in this process, as in ``benchmarks/serve.py``, whose
server, archives and viewers this reuses. After a warm-up (each author's first
version active), four windows of ``--seconds`` each:

1. **unwatched**: the league alone, the ladder's games/s (the baseline);
2. **200 viewers**: each fetches the leaderboard page ``/``, ``GET
   /api/v1/leaderboard`` or a bot's page ``/bots/NAME`` (a third each) every
   5 s, jittered, open loop (40 requests/s), at most 512 requests under way
   (the client's own bound: past it a request is counted as skipped, not
   sent);
3. **200 viewers**, then **1,000 viewers** (200 requests/s), each while the 10
   authors upload a new version each at once at the window's start (their
   builds and checks then run in the window too).

For each window: the ladder's games/s and its ratio to the unwatched window,
each path's requests, p50 and p95 latency, errors and skipped requests, the
uploads' seconds to their 202 (p50, p95) and errors, and the CPUs the web app
and the viewers' own client used. It prints one JSON object and one line per
figure. From a clone after ``make test`` has made ``.venv``::

    .venv/bin/python benchmarks/serve_load.py --seconds 60
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import KITS, Server, Viewers, archive, child_pid, percentile

from arena.bots.sandbox import cpu_seconds

AUTHORS = 10
#: What the viewers of a window watch, by viewer: the page, the API, a bot's page.
PAGES = ("/", "/api/v1/leaderboard", "/bots/")


def watched(index: int) -> str:
    """Viewer ``index``'s path: a third each of :data:`PAGES`, the bots' pages spread over
    the authors' bots."""
    kind = PAGES[index % len(PAGES)]
    return kind + f"bot{index // len(PAGES) % AUTHORS}" if kind == "/bots/" else kind


def upload_all(server: Server, tokens: list[str], mark: str) -> dict[str, Any]:
    """Each author uploads a new version of their bot at once; seconds to each 202."""
    seconds: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def one(n: int) -> None:
        started = time.monotonic()
        try:
            server.call("POST", "/api/v1/bots", token=tokens[n],
                        upload=archive(KITS / "python", f"bot{n}", f"{mark}-{n}"))  # fmt: skip
        except (OSError, urllib.error.HTTPError) as error:
            with lock:
                errors.append(str(error))
            return
        with lock:
            seconds.append(time.monotonic() - started)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures: dict[str, Any] = {"uploads": len(tokens), "errors": len(errors)}
    if seconds:
        figures["to_202_s"] = {"p50": round(percentile(seconds, 0.5), 2),
                               "p95": round(percentile(seconds, 0.95), 2)}  # fmt: skip
    return figures


def settled(server: Server, names: list[str], timeout: float = 900) -> None:
    """Wait until each version of ``names`` is active or failed."""
    deadline = time.monotonic() + timeout
    for name in names:
        while server.call("GET", f"/api/v1/versions/{name}")["status"] not in ("active", "failed"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{name} never settled")
            time.sleep(0.5)


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it: the web app runs inside
    bubblewrap (its own user, a pid namespace), a grandchild of the server."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, todo = 0.0, [pid]
    while todo:
        here = todo.pop()
        total += cpu_seconds(here)
        todo += children.get(here, [])
    return total


def window(
    server: Server, seconds: float, viewers: int, tokens: list[str], mark: str
) -> dict[str, Any]:
    """One window of ``seconds``: the ladder's games/s with ``viewers`` watching and, if
    ``tokens``, the authors uploading at its start."""
    web = child_pid(server.process.pid, "web")
    figures: dict[str, Any] = {"viewers": viewers, "uploading": len(tokens)}
    watching = Viewers(server.url, viewers, path_of=watched) if viewers else None
    if watching is not None:
        watching.__enter__()
    try:
        time.sleep(2)
        first, started = server.done(), time.monotonic()
        client, served = os.times(), tree_cpu_seconds(web)
        if tokens:
            figures["uploads"] = upload_all(server, tokens, mark)
        time.sleep(max(0.0, seconds - (time.monotonic() - started)))
        span = time.monotonic() - started
        figures["ladder_games_per_s"] = round((server.done() - first) / span, 2)
        now = os.times()
        figures["web_app_cpus"] = round((tree_cpu_seconds(web) - served) / span, 3)
        figures["client_cpus"] = round((now.user + now.system - client.user - client.system)
                                       / span, 3)  # fmt: skip
    finally:
        if watching is not None:
            watching.__exit__()
    if watching is not None:
        for path in PAGES:
            values = [v for key, got in watching.latencies.items() if key.startswith(path)
                      and (path != "/" or key == "/") for v in got]  # fmt: skip
            figures[path] = {
                "requests": len(values),
                "p50_ms": round(1000 * statistics.median(values), 1) if values else None,
                "p95_ms": round(1000 * percentile(values, 0.95), 1) if values else None,
            }
        figures["errors"] = watching.errors
        figures["skipped"] = watching.skipped
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--viewers", type=int, nargs="+", default=[200, 1000])
    given = parser.parse_args()
    report: dict[str, Any] = {"jobs": given.jobs, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="arena-bench-load-") as scratch:
        server = Server(Path(scratch), given.jobs)
        try:
            tokens = [server.token(f"author{n}") for n in range(AUTHORS)]
            upload_all(server, tokens, "warm")
            settled(server, [f"bot{n}" for n in range(AUTHORS)])
            time.sleep(5)
            alone = window(server, given.seconds, 0, [], "")
            report["unwatched"] = alone
            base = alone["ladder_games_per_s"]
            plan = [(given.viewers[0], False)] + [(count, True) for count in given.viewers]
            version = 1
            for count, uploading in plan:
                if uploading:
                    version += 1
                figures = window(server, given.seconds, count, tokens if uploading else [],
                                 f"v{version}")  # fmt: skip
                figures["ladder_over_unwatched"] = (
                    round(figures["ladder_games_per_s"] / base, 3) if base else None
                )
                report[f"{count}_viewers{'_uploading' if uploading else ''}"] = figures
                if uploading:
                    settled(server, [f"bot{n}@{version}" for n in range(AUTHORS)])
        finally:
            server.stop()
    print(json.dumps(report))
    for key, value in report.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()

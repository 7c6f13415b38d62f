"""Tournament scale: memory over 2k, 20k and 100k games, and the time to print a leaderboard.

Runs a real tournament (five C random bots, 4 per table, duplicate deals,
``--jobs 2``) of 100,000 games into a temporary results folder and records
the peak RSS of the coordinator and of each worker when 2,000, 20,000 and
100,000 games are done: the floor is the 2,000-game figure (flat memory
means the later ones stay near it). Then it times ``arena leaderboard`` on
the finished folder, against its floor in the same run: starting Python and
importing the leaderboard command's module, which it pays at every run; and the
store's damage checks: the quick one a leaderboard runs and SQLite's full
integrity check that a resume and a report run (it reads the whole file, so
its time per MB of results.sqlite says what a larger folder costs). Prints
JSON and lines.

    .venv/bin/python benchmarks/tournament_scale.py [--games 100000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.bots.sandbox import detect
from arena.bots.spec import parse_bots
from arena.events.run import open_store, play
from arena.game import Rules
from arena.protocol import Limits
from arena.results.store import DATABASE, open_existing
from arena.tournament.event import TournamentEvent

ROOT = Path(__file__).resolve().parent.parent


def peak_rss_mb(pid: int | None = None) -> float:
    """Peak resident memory (VmHWM) of a process, in MiB (this one by default)."""
    if pid is None:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="a multiple of 20")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    subprocess.run(["make", "-s", "-C", str(ROOT / "sample_bots/c")], check=True)
    bot = ROOT / "sample_bots/c/random_bot"
    specs = parse_bots([f"c{i}={bot}" for i in range(5)])
    event = TournamentEvent(
        bots=tuple(specs),
        players=4,
        deals=args.games // 20,
        seed=1,
        rules=Rules(players=4),
        limits=Limits(),
    )
    marks: dict[str, dict[str, object]] = {}
    checkpoints = {min(mark, args.games) for mark in (2_000, 20_000, 100_000)} | {args.games}

    def progress(done: int, total: int, seconds: float) -> None:
        if done in checkpoints:
            workers = [p.pid for p in multiprocessing.active_children() if p.pid]
            marks[f"{done}"] = {
                "seconds": round(seconds, 1),
                "coordinator_peak_rss_mb": round(peak_rss_mb(), 1),
                "worker_peak_rss_mb": [round(peak_rss_mb(pid), 1) for pid in workers],
            }

    with tempfile.TemporaryDirectory(prefix="arena-scale-") as folder:
        sandbox = detect()
        store = open_store(event, Path(folder), sandbox)
        outcome = play(event, store, jobs=args.jobs, sandbox=sandbox, progress=progress)
        store.close()
        leaderboard_s = import_s = float("inf")
        for _ in range(3):  # best of three, for both
            start = time.perf_counter()
            printed = subprocess.run(
                [sys.executable, "-m", "arena", "leaderboard", folder],
                capture_output=True,
                text=True,
                check=True,
            )
            leaderboard_s = min(leaderboard_s, time.perf_counter() - start)
            start = time.perf_counter()
            # What `arena leaderboard` imports (a command imports its own module only).
            subprocess.run([sys.executable, "-c", "import arena.cli.results"], check=True)
            import_s = min(import_s, time.perf_counter() - start)
        checks = {}
        for full in (False, True):
            best = float("inf")
            for _ in range(3):
                opened = open_existing(Path(folder))
                start = time.perf_counter()
                opened.check(full=full)
                best = min(best, time.perf_counter() - start)
                opened.close()
            checks["integrity_check_seconds" if full else "quick_check_seconds"] = round(best, 3)
        database_mb = (Path(folder) / DATABASE).stat().st_size / 2**20
    report = {
        "benchmark": "tournament_scale",
        "games": outcome.done,
        "jobs": args.jobs,
        "games_per_s": round(outcome.played / outcome.seconds, 1),
        "at": marks,
        "leaderboard_seconds": round(leaderboard_s, 3),
        "import_floor_seconds": round(import_s, 3),
        "database_mb": round(database_mb, 1),
        **checks,
    }
    print(json.dumps(report))
    for done, figures in sorted(marks.items(), key=lambda kv: int(kv[0])):
        print(
            f"after {done} games: coordinator peak RSS {figures['coordinator_peak_rss_mb']} MiB, "
            f"workers {figures['worker_peak_rss_mb']} MiB"
        )
    print(
        f"{outcome.done} games at {report['games_per_s']} games/s; "
        f"arena leaderboard took {leaderboard_s:.2f} s (a new process, import included; "
        f"floor: starting Python and importing arena.cli.results, {import_s:.2f} s)"
    )
    print(
        f"results.sqlite {database_mb:.1f} MB: the leaderboard's quick check took "
        f"{checks['quick_check_seconds']:.3f} s, the full integrity check (resume, report) "
        f"{checks['integrity_check_seconds']:.2f} s, "
        f"{checks['integrity_check_seconds'] / database_mb * 1000:.1f} ms per MB"
    )
    print(printed.stdout.splitlines()[2] if len(printed.stdout.splitlines()) > 2 else "")


if __name__ == "__main__":
    main()

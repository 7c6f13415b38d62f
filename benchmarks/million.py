"""A million games: a season-sized results folder, and what reading and resuming it costs.

Builds a folder of ``--games`` finished games (default 1,000,000) of
``--bots`` bots (default 1,000; sampled league, 4 per table, one deal)
through arena's own feed, store, ledger and ratings, with an executor that
plays nothing: each game's places are drawn from its seed (``field.py``'s
``Drawn``; no replays). While it builds, the coordinator's resident memory
(VmRSS, and the peak) is read at 0 games and at each tenth of the way.
Then, on the finished folder:

- the resume: a fresh ``open_store`` of the folder as a run left it (the
  board tables' check and the configuration's) timed, and SQLite's full
  integrity check apart (a resume after a crash runs it), then the same
  league played on for ``--more`` games: the coordinator's memory as it
  opens and as it ends;
- ``arena leaderboard`` (text, ``--format json``, ``--top 30 --pairwise``),
  each the median of ``--repeat`` runs, beside the floor every run pays
  (starting Python and importing ``arena.cli.results``);
- ``arena report`` (one run) and its page's size;
- bytes on disk per game (``results.sqlite`` once its WAL is checkpointed).

A ``--folder`` that already holds the games is reused (the build takes
minutes). Prints JSON and lines.

    .venv/bin/python benchmarks/million.py [--games 1000000] [--bots 1000]
        [--folder DIR] [--more 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from field import Drawn  # beside this file

from arena.bots.spec import BotSpec
from arena.events.run import open_store, play
from arena.game import Rules
from arena.protocol import Limits
from arena.results.store import DATABASE, untouched
from arena.tournament.event import TournamentEvent

ARENA = Path(sys.executable).with_name("arena")
JSON = dict[str, Any]


def rss_mb() -> tuple[float, float]:
    """This process's resident memory now (VmRSS) and at its peak, in MiB."""
    now = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    return round(now, 1), round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def league(bots: int, rounds: int) -> TournamentEvent:
    """The sampled league: ``bots`` bots, 4 a table, one deal (a round: one game a bot)."""
    return TournamentEvent(
        bots=tuple(BotSpec(f"b{n:04d}", ("true",), "benchmark") for n in range(bots)),
        players=4, deals=1, seed=3, rules=Rules(players=4), limits=Limits(),
        schedule="sampled", rounds=rounds,
    )  # fmt: skip


def games_in(folder: Path) -> int:
    """Finished games in the folder's store (0 when there is none)."""
    path = folder / DATABASE
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0])


def build(folder: Path, bots: int, rounds: int, games: int) -> JSON:
    """Play the league into ``folder``, reading memory at each tenth of ``games``."""
    memory: list[JSON] = [{"games": 0, "rss_mb": rss_mb()[0]}]
    marks = iter(games * tenth // 10 for tenth in range(1, 11))
    mark: int | None = next(marks)

    def progress(done: int, _total: int, seconds: float) -> None:
        nonlocal mark
        while mark is not None and done >= mark:
            now, _ = rss_mb()
            memory.append({"games": done, "rss_mb": now, "seconds": round(seconds, 1)})
            print(f"  {done:,} games, {seconds:.0f} s, RSS {now} MiB", file=sys.stderr)
            mark = next(marks, None)

    event = league(bots, rounds)
    store = open_store(event, folder, None)
    start = time.perf_counter()
    outcome = play(event, store, sandbox=None, executor=Drawn(), progress=progress)
    store.close()
    seconds = time.perf_counter() - start
    return {
        "games": outcome.done,
        "build_s": round(seconds, 1),
        "us_per_game": round(seconds / max(outcome.done, 1) * 1e6),
        "memory": memory,
        "peak_rss_mb": rss_mb()[1],
    }


def play_on(folder: Path, bots: int, more: int) -> JSON:
    """Open the folder again as a resume does (timed: the file is as a run left it), time
    SQLite's full check apart (what a resume after a crash adds), then play ``more``."""
    event = league(bots, games_in(folder) // bots + more // bots)  # its rounds, and more
    before = rss_mb()[0]
    start = time.perf_counter()
    store = open_store(event, folder, None)
    open_s = time.perf_counter() - start
    start = time.perf_counter()
    store.check(full=True)
    check_s = time.perf_counter() - start
    opened = rss_mb()[0]
    outcome = play(event, store, sandbox=None, executor=Drawn())
    store.close()
    return {
        "open_s": round(open_s, 2),
        "full_check_s": round(check_s, 2),
        "played": outcome.played,
        "rss_mb_before_open": before,
        "rss_mb_opened": opened,
        "rss_mb_after": rss_mb()[0],
    }


def median_s(command: list[str], repeat: int) -> float:
    """The median seconds of ``repeat`` runs of a command (which must succeed)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return round(statistics.median(times), 2)


def disk(folder: Path) -> JSON:
    """The store's bytes once its WAL is checkpointed into the file."""
    path = folder / DATABASE
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        games = int(db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0])
    size = path.stat().st_size
    return {"bytes": size, "games": games, "bytes_per_game": round(size / games)}


def run(args: argparse.Namespace, folder: Path) -> None:
    """Every step on ``folder``; print the figures."""
    rounds = args.games // args.bots
    figures: JSON = {"benchmark": "million", "bots": args.bots, "games_asked": args.games}
    if games_in(folder) < rounds * args.bots:
        print(f"building {args.games:,} games in {folder} ...", file=sys.stderr)
        figures["build"] = build(folder, args.bots, rounds, args.games)
    elif not untouched(folder):  # reused, last closed by an older arena: as a run leaves it
        open_store(league(args.bots, rounds), folder, None).close()
    figures["disk"] = disk(folder)
    floor = median_s([sys.executable, "-c", "import arena.cli.results"], args.repeat)
    figures["import_floor_s"] = floor
    for label, extra in (
        ("leaderboard", []),
        ("leaderboard_json", ["--format", "json"]),
        ("leaderboard_top30_pairwise", ["--top", "30", "--pairwise"]),
    ):
        command = [str(ARENA), "leaderboard", str(folder), *extra]
        figures[f"{label}_s"] = median_s(command, args.repeat)
    report = folder / "report.html"
    start = time.perf_counter()
    subprocess.run(
        [str(ARENA), "report", str(folder), "-o", str(report)], check=True, capture_output=True
    )
    figures["report_s"] = round(time.perf_counter() - start, 2)
    figures["report_mib"] = round(report.stat().st_size / 2**20, 2)
    if args.more:
        figures["play_on"] = play_on(folder, args.bots, args.more)
    print(json.dumps(figures))
    print(
        f"{args.bots:,} bots, {figures['disk']['games']:,} games, "
        f"{figures['disk']['bytes_per_game']} bytes a game on disk"
    )
    if "build" in figures:
        memory = ", ".join(f"{m['games']:,}: {m['rss_mb']}" for m in figures["build"]["memory"])
        print(f"build {figures['build']['build_s']} s; coordinator RSS MiB at {memory}")
    print(
        f"arena leaderboard {figures['leaderboard_s']} s (json {figures['leaderboard_json_s']} "
        f"s, --top 30 --pairwise {figures['leaderboard_top30_pairwise_s']} s; the import "
        f"floor {floor} s); arena report {figures['report_s']} s, {figures['report_mib']} MiB"
    )
    if args.more:
        on = figures["play_on"]
        print(
            f"resume: open {on['open_s']} s (a crash's full check adds {on['full_check_s']}"
            f" s); played {on['played']:,} more, RSS {on['rss_mb_opened']} MiB opened, "
            f"{on['rss_mb_after']} MiB after"
        )


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="a multiple of --bots")
    parser.add_argument("--bots", type=int, default=1000, help="a multiple of 4")
    parser.add_argument("--folder", type=Path, help="kept (and reused when it holds the games)")
    parser.add_argument("--more", type=int, default=20_000, help="games played on after")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.folder is not None:
        run(args, args.folder)
        return
    with tempfile.TemporaryDirectory(prefix="arena-million-") as folder:
        run(args, Path(folder))


if __name__ == "__main__":
    main()

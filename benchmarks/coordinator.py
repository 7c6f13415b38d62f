"""Coordinator cost: the CPU of everything that is not a worker, per finished game.

Each configuration plays a real tournament: four bots of one kind, 4 per
table, duplicate deals, the default sandbox, the results store, replays and
ratings, into a fresh folder. The tournament runs in this process, so
``getrusage(RUSAGE_SELF)`` around :func:`arena.events.run.run` is
the CPU of the coordinator and of every thread it adds (the group-commit
writer, the pool's threads, the Dask client); the workers and the bots are
other processes. Per configuration it prints:

- games/s of the tournament, against the bare referee floor (the same
  games played by ``jobs`` bare :func:`arena.referee.play_game` loops with
  the same persistent bots, storing nothing: ``tournament_speed.py``'s)
  and against a floor that also writes every replay (a new file and a
  rename, as workers do);
- ``--jobs 1`` plays in the coordinator: the total overhead over each floor,
  (the tournament's CPU - the floor's CPU) / games, all of this process;
- ``--jobs N``: the coordinator's CPU per game;
- the CPU per game of the bare SQL rows the results format keeps per game
  (:func:`store_rows_floor`), in the same rounds: the part of the
  coordinator's figure no code can remove while the format stays, and a
  gauge of the machine's speed in that moment;
- with ``--dask``: a cluster of N one-thread ``dask worker`` processes and a
  ``dask scheduler`` process, all started here with ``deploy/dask.yaml`` as
  docs/dask.md tells an organizer (``--dask-defaults``: with Dask's own
  settings instead; the scheduler's CPU is printed apart: it is the
  cluster's, not the coordinator's), the workers
  sharing the results folder (they write the replays); with ``--unshared``
  (root, Linux) also workers that cannot see it (each in a mount namespace
  of its own with an empty tmpfs over the folder), which send the replays
  back for the coordinator to write.

Rounds alternate the configurations and keep the best of each figure (the
machines are shared and noisy: the fastest games/s, the least CPU). The
results folder is removed after each measurement, outside it: deleting
thousands of replays is no part of a tournament. Prints one JSON object, then one line each.

    .venv/bin/python benchmarks/coordinator.py [--deals 1000] [--rounds 2] [--jobs 1 2]
        [--bots python c] [--dask] [--unshared] [--dask-defaults]
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tournament_speed import (  # beside this file
    arguments,
    play_floor,
    prepare,
    tournament_for,
)

from arena.bots.sandbox import Capabilities
from arena.events.run import open_store, play
from arena.results import skill
from arena.results.commit import COMMIT_GAMES, writing
from arena.results.store import SCHEMA, SCHEMA_V2, Store, run_script
from arena.tournament.event import TournamentEvent

JSON = dict[str, Any]
DASK = str(Path(sys.executable).with_name("dask"))
#: The Dask settings docs/dask.md gives an organizer's scheduler and workers.
DASK_CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "dask.yaml"


def cpu_seconds() -> float:
    """CPU of this process so far: all its threads, user and system."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int) -> float:
    """CPU of another process so far (from /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(play: Callable[[], int]) -> tuple[float, float, int]:
    """Seconds, CPU seconds of this process, and the games ``play`` reports."""
    cpu, start = cpu_seconds(), time.perf_counter()
    games = play()
    return time.perf_counter() - start, cpu_seconds() - cpu, games


def tournament(
    event: TournamentEvent, jobs: int, sandbox: Capabilities, pin: bool, folder: Path
) -> int:
    """One whole ``arena tournament`` into the empty ``folder``; the games played."""
    store = open_store(event, folder, sandbox)
    try:
        outcome = play(event, store, jobs=jobs, sandbox=sandbox, pin=pin)
    finally:
        store.close()
    assert outcome.played == outcome.total, outcome
    return outcome.played


def on_cluster(event: TournamentEvent, store: Store, sandbox: Capabilities, executor: Any) -> int:
    """The tournament on a Dask cluster, to its last commit; the games played."""
    try:
        return play(event, store, sandbox=sandbox, executor=executor).played
    finally:
        store.close()


def measured_in_folder(play: Callable[[Path], int]) -> tuple[float, float, int]:
    """:func:`measured` of ``play`` writing into a fresh folder, removed after the
    measurement: deleting a run's thousands of replays is no part of the run."""
    with tempfile.TemporaryDirectory(prefix="arena-coordinator-") as folder:
        return measured(lambda: play(Path(folder)))


def store_rows_floor(games: int, seats: int = 4) -> float:
    """CPU seconds of the bare SQL rows the results format keeps per game, for ``games`` games.

    The store's own schema, in a fresh file with the writer's settings: each
    game's pending row and seat rows as scheduled, then, in transactions of
    :data:`COMMIT_GAMES` games as the writer commits them, the game marked
    done, each seat's placement and each bot's rating after it. Nothing else
    (no rating, no standings, no progress): what any coordinator keeping
    this format pays, whatever its code. It moves with the machine's speed as
    the coordinator does, so the two measured together say how much of the
    coordinator's figure is the format's floor in that moment.
    """
    bots = [f"bot{n}" for n in range(seats)]
    with tempfile.TemporaryDirectory(prefix="arena-store-floor-") as folder:
        db = sqlite3.connect(Path(folder) / "results.sqlite", isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            writing(db)
            for script in (SCHEMA, SCHEMA_V2):
                run_script(db, script)
            db.executemany(
                "INSERT INTO bots (name, command, files_hash) VALUES (?, '', '')",
                [(bot,) for bot in bots],
            )
            start = cpu_seconds()
            for first in range(0, games, COMMIT_GAMES):
                batch = range(first, min(games, first + COMMIT_GAMES))
                db.execute("BEGIN IMMEDIATE")
                db.executemany(
                    "INSERT INTO games (ordinal, id, deal_set, rotation, seed, status) "
                    "VALUES (?, ?, ?, ?, ?, 'pending')",
                    [(g, f"g{g:08d}", g // seats, g % seats, g) for g in batch],
                )
                db.executemany(
                    "INSERT INTO seats (game, seat, bot) VALUES (?, ?, ?)",
                    [(g, seat, bot) for g in batch for seat, bot in enumerate(bots)],
                )
                db.execute("COMMIT")
                db.execute("BEGIN IMMEDIATE")
                db.executemany(
                    "UPDATE games SET status = 'done', decisions = ?, duration_ms = ?, "
                    "finished_at = ?, replay = ? WHERE ordinal = ?",
                    [(60, 5.0, 0.0, f"replays/g{g:08d}.jsonl", g) for g in batch],
                )
                db.executemany(
                    "UPDATE seats SET placement = ?, fault_kind = NULL, fault_detail = NULL "
                    "WHERE game = ? AND seat = ?",
                    [(seat + 1, g, seat) for g in batch for seat in range(seats)],
                )
                db.executemany(
                    "INSERT INTO ratings (game, bot, mu, sigma) VALUES (?, ?, ?, ?)",
                    [(g, bot, 25.0, 8.0) for g in batch for bot in bots],
                )
                db.execute("COMMIT")
            return cpu_seconds() - start
        finally:
            db.close()


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def dask_cluster(
    workers: int, *, hidden: Path | None, defaults: bool = False
) -> Iterator[tuple[str, int]]:
    """A ``dask scheduler`` and ``workers`` one-thread ``dask worker`` processes on this
    machine: its address and the scheduler's pid. ``hidden``: a folder the workers must not
    see (each gets an empty tmpfs over it, in a mount namespace of its own); ``defaults``:
    Dask's own settings, not :data:`DASK_CONFIG`."""
    address = f"tcp://127.0.0.1:{free_port()}"
    env = dict(os.environ)
    if not defaults:
        env["DASK_CONFIG"] = str(DASK_CONFIG)
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    worker = [DASK, "worker", address, "--nthreads", "1", "--no-dashboard"]
    if hidden is not None:
        command = f"mount -t tmpfs arena-hidden {hidden} && exec {' '.join(worker)}"
        worker = ["unshare", "--mount", "--propagation", "private", "sh", "-c", command]
    started = [
        subprocess.Popen(worker, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for _ in range(workers)
    ]
    try:
        yield address, scheduler.pid
    finally:
        for process in [*started, scheduler]:
            process.terminate()
        for process in [*started, scheduler]:
            process.wait(timeout=30)


def dask_runs(
    event: TournamentEvent,
    workers: int,
    sandbox: Capabilities,
    rounds: int,
    *,
    pin: bool,
    unshared: bool,
    defaults: bool = False,
) -> JSON:
    """Best of ``rounds`` Dask runs on a cluster started for them (its start not timed)."""
    from arena.execute.base import Setup  # noqa: PLC0415
    from arena.execute.cluster import connect  # noqa: PLC0415

    hidden = Path(tempfile.mkdtemp(prefix="arena-coordinator-dask-")) if unshared else None
    best: JSON = {}
    try:
        with dask_cluster(workers, hidden=hidden, defaults=defaults) as (address, scheduler):
            for _ in range(rounds):
                folder = Path(tempfile.mkdtemp(prefix="arena-coordinator-", dir=hidden))
                executor = connect(address)
                try:
                    executor.client.wait_for_workers(workers, timeout=60)
                    layers = executor.check(Setup.of(event, sandbox, folder), pin=pin)
                    store = open_store(event, folder, sandbox, layers=layers)
                    before = process_cpu(scheduler)
                    seconds, cpu, games = measured(
                        lambda: on_cluster(event, store, sandbox, executor)  # noqa: B023
                    )
                    scheduler_cpu = process_cpu(scheduler) - before
                finally:
                    executor.close()
                    shutil.rmtree(folder, ignore_errors=True)
                figures = {
                    "games_per_s": games / seconds,
                    "coordinator_us_per_game": cpu / games * 1e6,
                    "scheduler_us_per_game": scheduler_cpu / games * 1e6,
                }
                best = {  # each figure's best round on its own, as above
                    name: (max if name == "games_per_s" else min)(value, best.get(name, value))
                    for name, value in figures.items()
                }
    finally:
        if hidden is not None:
            shutil.rmtree(hidden, ignore_errors=True)
    return {key: round(value, 1) for key, value in best.items()}


def measure(kind: str, jobs: int, args: Any, sandbox: Capabilities) -> JSON:
    """One configuration's figures: best of the rounds of each run, alternated."""
    event = tournament_for(kind, args.deals)
    best: dict[str, tuple[float, float]] = {}  # name -> (games/s, CPU us per game)
    runs: dict[str, Callable[[Path], int]] = {
        "tournament": lambda folder: tournament(event, jobs, sandbox, args.pin, folder),
        "floor": lambda folder: play_floor(event, jobs, sandbox, args.pin),
        "floor_replays": lambda folder: play_floor(event, jobs, sandbox, args.pin, replays=folder),
    }
    store_floor = float("inf")
    for _ in range(args.rounds):
        for name, measure in runs.items():
            seconds, cpu, games = measured_in_folder(measure)
            # Each figure's best round on its own: noise only ever slows a run and
            # inflates its CPU (a busy neighbour's cache misses, stolen time).
            fastest, least = best.get(name, (0.0, float("inf")))
            best[name] = (max(fastest, games / seconds), min(least, cpu / games * 1e6))
        store_floor = min(store_floor, store_rows_floor(games) / games * 1e6)
    games_per_s = best["tournament"][0]
    figures: JSON = {
        "bot": kind,
        "jobs": jobs,
        "games": event.plan().games,
        "tournament_games_per_s": round(games_per_s, 1),
        "floor_games_per_s": round(best["floor"][0], 1),
        "floor_replays_games_per_s": round(best["floor_replays"][0], 1),
        "ratio": round(games_per_s / best["floor"][0], 3),
        "ratio_to_replay_floor": round(games_per_s / best["floor_replays"][0], 3),
    }
    if jobs == 1:  # the games play in the coordinator, as in the floors: the differences
        figures["overhead_us_per_game"] = round(best["tournament"][1] - best["floor"][1], 1)
        figures["overhead_over_replay_floor_us_per_game"] = round(
            best["tournament"][1] - best["floor_replays"][1], 1
        )
    else:
        figures["coordinator_us_per_game"] = round(best["tournament"][1], 1)
    figures["store_rows_floor_us_per_game"] = round(store_floor, 1)
    if args.dask and jobs >= 2:
        for shared in (True, False) if args.unshared else (True,):
            figures["dask_shared" if shared else "dask_unshared"] = dask_runs(
                event,
                jobs,
                sandbox,
                args.rounds,
                pin=args.pin,
                unshared=not shared,
                defaults=args.dask_defaults,
            )
    return figures


def describe(figures: JSON) -> str:
    """One configuration as a line."""
    head = (
        f"{figures['bot']} bots, --jobs {figures['jobs']}: tournament "
        f"{figures['tournament_games_per_s']:.1f} games/s, floor {figures['floor_games_per_s']:.1f}"
        f" (x{figures['ratio']:.2f}), floor writing replays "
        f"{figures['floor_replays_games_per_s']:.1f} (x{figures['ratio_to_replay_floor']:.2f}); "
    )
    if "overhead_us_per_game" in figures:
        head += (
            f"CPU over the floor {figures['overhead_us_per_game']:.0f} us/game, over the "
            f"floor writing replays {figures['overhead_over_replay_floor_us_per_game']:.0f}"
        )
    else:
        head += f"coordinator {figures['coordinator_us_per_game']:.0f} us CPU/game"
    head += f" (the store's rows alone {figures['store_rows_floor_us_per_game']:.0f})"
    for name in ("dask_shared", "dask_unshared"):
        if name in figures:
            dask = figures[name]
            head += (
                f"; Dask ({name.removeprefix('dask_')} folder) {dask['games_per_s']:.1f} games/s, "
                f"coordinator {dask['coordinator_us_per_game']:.0f} us/game, scheduler "
                f"{dask['scheduler_us_per_game']:.0f} us/game"
            )
    return head


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = arguments(__doc__.splitlines()[0], deals=1000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--dask", action="store_true", help="also on a Dask cluster")
    parser.add_argument("--unshared", action="store_true", help="and workers blind to the folder")
    parser.add_argument(
        "--dask-defaults", action="store_true", help="the cluster with Dask's own settings"
    )
    parser.set_defaults(rounds=2)
    args = parser.parse_args()
    sandbox = prepare(args.bots)
    results = [measure(kind, jobs, args, sandbox) for kind in args.bots for jobs in args.jobs]
    print(
        json.dumps(
            {
                "benchmark": "coordinator",
                "python": platform.python_version(),
                "cpus": multiprocessing.cpu_count(),
                "compiled_rater": not skill.__file__.endswith(".py"),
                "sandbox": list(sandbox.layers),
                "results": results,
            }
        )
    )
    for figures in results:
        print(describe(figures))


if __name__ == "__main__":
    main()

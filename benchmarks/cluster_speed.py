"""Dask executor speed: games/s on a LocalCluster against the local executor, equal workers.

For each bot kind it plays the same tournament (four persistent bots of one
kind, 4 per table, duplicate deals, default sandbox, results store, replay
files, ratings) into fresh folders, alternately with ``--jobs N`` and on a
Dask LocalCluster of N one-thread worker processes (``--dask local:N``), and
keeps the best round of each: the machines are shared and noisy. Both pin
each worker to a CPU of its own unless ``--no-pin``.

The Dask figure is the games of ``run()`` alone, as the local one is (it
starts its pool of processes); the cluster's start and the check that every
worker can start every bot are timed apart (``setup_s``), since a tournament
pays them once; ``dask_whole_games_per_s`` counts them in.
Prints one JSON object and one human line per configuration.

    .venv/bin/python benchmarks/cluster_speed.py [--deals 500] [--rounds 3] [--workers 2]
"""

from __future__ import annotations

import json
import multiprocessing
import platform
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tournament_speed import (  # beside this file
    arguments,
    prepare,
    tournament_for,
    tournament_run,
)

from arena.bots.sandbox import Capabilities
from arena.events.run import open_store, play
from arena.execute.base import Setup
from arena.execute.cluster import connect
from arena.tournament.event import TournamentEvent

JSON = dict[str, Any]


def dask_run(
    event: TournamentEvent, workers: int, sandbox: Capabilities, pin: bool
) -> tuple[float, float]:
    """Games/s of ``arena tournament --dask local:N``, and the seconds its setup took."""
    with tempfile.TemporaryDirectory(prefix="arena-speed-") as folder:
        start = time.perf_counter()
        executor = connect(f"local:{workers}")
        try:
            layers = executor.check(Setup.of(event, sandbox, Path(folder)), pin=pin)
            setup_s = time.perf_counter() - start
            store = open_store(event, Path(folder), sandbox, layers=layers)
            start = time.perf_counter()
            outcome = play(event, store, sandbox=sandbox, executor=executor)
            seconds = time.perf_counter() - start
            store.close()
        finally:
            executor.close()
    assert outcome.played == outcome.total, outcome
    return outcome.played / seconds, setup_s


def measure(
    kind: str, workers: int, deals: int, rounds: int, sandbox: Capabilities, pin: bool
) -> JSON:
    """Best-of-``rounds`` games/s of each executor."""
    event = tournament_for(kind, deals)
    games = event.plan().games
    best_local = best_dask = best_whole = 0.0
    setups = []
    for _ in range(rounds):
        best_local = max(best_local, tournament_run(event, workers, sandbox, pin))
        rate, setup_s = dask_run(event, workers, sandbox, pin)
        best_dask = max(best_dask, rate)
        best_whole = max(best_whole, games / (games / rate + setup_s))
        setups.append(setup_s)
    return {
        "bot": kind,
        "workers": workers,
        "pinned": pin,
        "games": games,
        "local_games_per_s": round(best_local, 1),
        "dask_games_per_s": round(best_dask, 1),
        "overhead_pct": round(100.0 * (1.0 - best_dask / best_local), 1),
        "setup_s": round(min(setups), 2),
        "dask_whole_games_per_s": round(best_whole, 1),
        "whole_overhead_pct": round(100.0 * (1.0 - best_whole / best_local), 1),
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = arguments(__doc__.splitlines()[0], deals=500)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sandbox = prepare(args.bots)
    results = [
        measure(kind, args.workers, args.deals, args.rounds, sandbox, args.pin)
        for kind in args.bots
    ]
    print(
        json.dumps(
            {
                "benchmark": "cluster_speed",
                "python": platform.python_version(),
                "distributed": version("distributed"),
                "cpus": multiprocessing.cpu_count(),
                "sandbox": list(sandbox.layers),
                "rounds": args.rounds,
                "results": results,
            }
        )
    )
    for figures in results:
        print(
            f"4 {figures['bot']} bots, {figures['workers']} workers"
            f"{'' if figures['pinned'] else ', not pinned'}: --dask local "
            f"{figures['dask_games_per_s']:.1f} games/s, --jobs "
            f"{figures['local_games_per_s']:.1f} games/s: overhead "
            f"{figures['overhead_pct']:.1f}%; with the cluster's start and bot check "
            f"({figures['setup_s']:.2f} s), {figures['dask_whole_games_per_s']:.1f} games/s "
            f"over {figures['games']} games: overhead {figures['whole_overhead_pct']:.1f}%"
        )


if __name__ == "__main__":
    main()

"""Tournament speed: games/s of real tournaments against the bare referee, in one run.

For each bot kind (four persistent Python random bots, or four C random
bots) and each ``--jobs`` value it runs a real tournament with arena's own
runner (4 players per table, duplicate deals, default sandbox, results
store, replay files, ratings) into a fresh folder, and then plays the very
same schedule with the floor: ``jobs`` processes each running bare
:func:`arena.referee.play_game` on its share of the games with the same
persistent bot processes, storing and writing nothing, each pinned to a CPU
as the tournament's workers are (``--no-pin`` runs both unpinned). The ratio
tournament/floor is what the tournament machinery (the pool, the results
store, replays, ratings) costs on top of refereeing. Rounds alternate the two
and the best of each is kept, since the machines are shared and noisy.
Prints one JSON object and one human line per configuration.

    .venv/bin/python benchmarks/tournament_speed.py [--deals 250] [--rounds 3] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities, detect
from arena.bots.spec import BotSpec, parse_bots
from arena.events.run import open_store, play
from arena.events.schedule import ScheduledGame
from arena.execute.local import pinned, worker_cpus
from arena.game import Rules
from arena.protocol import Limits
from arena.referee import play_game, write_replay
from arena.tournament.event import TournamentEvent
from arena.tournament.schedule import round_robin_games

ROOT = Path(__file__).resolve().parent.parent
BOTS = {
    "python": f"{sys.executable} {ROOT / 'arena/samples/random_bot.py'}",
    "c": str(ROOT / "sample_bots/c/random_bot"),
}
JSON = dict[str, Any]


def tournament_for(kind: str, deals: int) -> TournamentEvent:
    """Four bots of ``kind``, 4 per table: ``deals`` deal sets of 4 rotations."""
    specs = parse_bots([f"{kind}{i}={BOTS[kind]}" for i in range(4)])
    return TournamentEvent(
        bots=tuple(specs),
        players=4,
        deals=deals,
        seed=7,
        rules=Rules(players=4),
        limits=Limits(),
    )


def tournament_run(event: TournamentEvent, jobs: int, sandbox: Capabilities, pin: bool) -> float:
    """Games/s of a whole ``arena tournament`` run into a fresh folder."""
    with tempfile.TemporaryDirectory(prefix="arena-speed-") as folder:
        store = open_store(event, Path(folder), sandbox)
        start = time.perf_counter()
        outcome = play(event, store, jobs=jobs, sandbox=sandbox, pin=pin)
        seconds = time.perf_counter() - start
        store.close()
    assert outcome.played == outcome.total, outcome
    return outcome.played / seconds


Share = tuple[list[BotSpec], list[ScheduledGame], Capabilities, int | None]


def _floor_worker(share: Share, replays: str | None = None) -> int:
    """Play a share of the games with bare play_game and persistent bots; return the faults.

    Pinned to the CPU given, as the tournament's workers are (its bots inherit it).
    ``replays``: a folder to write each game's replay to, as a worker does (a
    temporary name, then renamed).
    """
    specs, games, sandbox, cpu = share
    limits = Limits()
    faults = 0
    with pinned(cpu):
        players = {spec.name: ProcessPlayer(spec, limits, sandbox=sandbox) for spec in specs}
        try:
            for game in games:
                result = play_game(
                    [players[name] for name in game.seats],
                    Rules(players=4),
                    seed=game.seed,
                    game_id=game.game_id,
                    limits=limits,
                )
                faults += len(result.faults)
                if replays is not None:
                    partial = Path(replays) / f".{game.ordinal}.{os.getpid()}.partial"
                    write_replay(partial, result.lines)
                    os.replace(partial, Path(replays) / f"{game.game_id}.jsonl")
        finally:
            for player in players.values():
                player.close()
    return faults


def play_floor(
    event: TournamentEvent,
    jobs: int,
    sandbox: Capabilities,
    pin: bool,
    *,
    replays: Path | None = None,
) -> int:
    """Play the tournament's schedule with ``jobs`` bare referee loops; return its games.

    ``replays``: a folder where each loop also writes every game's replay, as a worker does.
    """
    games = round_robin_games(
        [spec.name for spec in event.bots],
        players=event.players,
        deals=event.deals,
        seed=event.seed,
    )
    cpus = worker_cpus(jobs) if pin else None
    shares: list[Share] = [
        (list(event.bots), games[i::jobs], sandbox, cpus[i] if cpus else None) for i in range(jobs)
    ]
    worker = partial(_floor_worker, replays=str(replays) if replays else None)
    if jobs == 1:
        faults = worker(shares[0])
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            faults = sum(pool.map(worker, shares))
    assert faults == 0, f"{faults} faults in the floor run"
    return len(games)


def floor_run(event: TournamentEvent, jobs: int, sandbox: Capabilities, pin: bool) -> float:
    """Games/s of the same schedule played by ``jobs`` bare referee loops."""
    start = time.perf_counter()
    games = play_floor(event, jobs, sandbox, pin)
    return games / (time.perf_counter() - start)


def measure(
    kind: str, jobs: int, deals: int, rounds: int, sandbox: Capabilities, pin: bool
) -> JSON:
    """Best-of-``rounds`` games/s of the tournament and of the floor."""
    event = tournament_for(kind, deals)
    best_tournament = best_floor = 0.0
    for _ in range(rounds):
        best_tournament = max(best_tournament, tournament_run(event, jobs, sandbox, pin))
        best_floor = max(best_floor, floor_run(event, jobs, sandbox, pin))
    return {
        "bot": kind,
        "jobs": jobs,
        "pinned": bool(pin and worker_cpus(jobs)),
        "games": event.plan().games,
        "tournament_games_per_s": round(best_tournament, 1),
        "floor_games_per_s": round(best_floor, 1),
        "ratio": round(best_tournament / best_floor, 3),
    }


def arguments(description: str, deals: int) -> argparse.ArgumentParser:
    """The options the tournament benchmarks share: deals, rounds, bots, pinning."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deals", type=int, default=deals, help="deal sets (4 games each)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", nargs="+", default=["python", "c"], choices=sorted(BOTS))
    parser.add_argument(
        "--pin", action=argparse.BooleanOptionalAction, default=True, help="as arena tournament"
    )
    return parser


def prepare(bots: list[str]) -> Capabilities:
    """Build the C bot when it is measured; the sandbox the bots will run in."""
    if "c" in bots:
        subprocess.run(["make", "-s", "-C", str(ROOT / "sample_bots/c")], check=True)
    return detect()


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = arguments(__doc__.splitlines()[0], deals=250)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    sandbox = prepare(args.bots)
    results = [
        measure(kind, jobs, args.deals, args.rounds, sandbox, args.pin)
        for kind in args.bots
        for jobs in args.jobs
    ]
    print(
        json.dumps(
            {
                "benchmark": "tournament_speed",
                "python": platform.python_version(),
                "cpus": multiprocessing.cpu_count(),
                "sandbox": list(sandbox.layers),
                "rounds": args.rounds,
                "results": results,
            }
        )
    )
    for figures in results:
        print(
            f"tournament, 4 {figures['bot']} bots, --jobs {figures['jobs']}"
            f"{'' if figures['pinned'] else ', not pinned'}: "
            f"{figures['tournament_games_per_s']:.1f} games/s; bare referee floor "
            f"{figures['floor_games_per_s']:.1f} games/s (ratio {figures['ratio']:.2f})"
        )


if __name__ == "__main__":
    main()

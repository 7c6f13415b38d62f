"""Referee cost per decision against the protocol floor, in one run.

The floor is a minimal stdlib loop that writes the very same bytes the
referee wrote (each request with the information lines queued before it,
captured during a referee run) to the same persistent bot processes and
reads one reply line per request: pipe traffic and the bots' own work,
nothing of the referee. The ratio referee/floor is what the referee adds.
Rounds alternate referee and floor runs and the best of each is kept, since
machines are shared and noisy. Like a tournament's worker, the process and
its bots run on one CPU (``--no-pin``: wherever the scheduler puts them).
Prints one JSON object and one human line per bot kind.

    .venv/bin/python benchmarks/referee.py [--games 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arena.bots.player import ProcessPlayer
from arena.bots.spec import BotSpec, parse_bot
from arena.game import Rules
from arena.protocol import Limits
from arena.referee import play_game
from arena.tournament.runner import worker_cpus

ROOT = Path(__file__).resolve().parent.parent
BOTS = {
    "python": f"{sys.executable} {ROOT / 'sample_bots/python/random_bot.py'}",
    "c": str(ROOT / "sample_bots/c/random_bot"),
}
JSON = dict[str, Any]
#: Best CPU seconds per decision of this process (the referee or the floor loop).
CPU: dict[str, float] = {}


class CapturingPlayer(ProcessPlayer):
    """A process player that keeps every block of bytes a request sent."""

    def __init__(
        self, spec: BotSpec, limits: Limits, seat: int, order: list[tuple[int, int]]
    ) -> None:
        super().__init__(spec, limits)
        self.sent: list[bytes] = []
        self.seat = seat
        self.order = order

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        self.order.append((self.seat, len(self.sent)))
        self.sent.append(b"".join([*self._queue, line]))
        return super().request(message, line, timeout_s)


def referee_run(players: list[CapturingPlayer], games: int, first: int) -> tuple[float, int]:
    """Seconds for ``games`` refereed games, and the decisions made."""
    decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for game in range(first, first + games):
        result = play_game(players, Rules(), seed=game, game_id=f"bench-{game}")
        assert not result.faults, result.faults
        decisions += result.decisions
    CPU["referee"] = min(CPU.get("referee", 1e9), (time.process_time() - cpu) / decisions)
    return time.perf_counter() - start, decisions


def floor_run(players: list[CapturingPlayer], order: list[tuple[int, int]]) -> float:
    """Seconds to write each captured block and read one line back, in play order."""
    fds = []
    for player in players:
        assert player.process is not None and player.process.proc is not None
        proc = player.process.proc
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), True)
        os.set_blocking(proc.stdin.fileno(), True)
        fds.append((proc.stdin.fileno(), proc.stdout.fileno()))
    start = time.perf_counter()
    cpu = time.process_time()
    for seat, index in order:
        write_fd, read_fd = fds[seat]
        os.write(write_fd, players[seat].sent[index])
        reply = os.read(read_fd, 65536)
        while not reply.endswith(b"\n"):
            reply += os.read(read_fd, 65536)
    elapsed = time.perf_counter() - start
    CPU["floor"] = min(CPU.get("floor", 1e9), (time.process_time() - cpu) / len(order))
    for player in players:
        assert player.process is not None
        os.set_blocking(player.process._out_fd, False)
        os.set_blocking(player.process._in_fd, False)
    return elapsed


def measure(kind: str, games: int, rounds: int) -> JSON:
    """Best-of-``rounds`` referee and floor microseconds per decision for one bot kind."""
    limits = Limits()
    order: list[tuple[int, int]] = []
    players = [
        CapturingPlayer(parse_bot(f"{kind}{seat}={BOTS[kind]}"), limits, seat, order)
        for seat in range(4)
    ]
    best_referee = best_floor = float("inf")
    decisions = 0
    try:
        referee_run(players, 5, 10_000)  # start the processes and warm up
        # The floor replays game_end lines too: they ride with the next game's
        # first request, exactly as the referee sent them.
        for round_no in range(rounds):
            for player in players:
                player.sent.clear()
            order.clear()
            seconds, decisions = referee_run(players, games, round_no * games)
            best_referee = min(best_referee, seconds / decisions)
            # Replay the captured traffic in the order it happened.
            best_floor = min(best_floor, floor_run(players, order) / decisions)
    finally:
        for player in players:
            player.close()
    cpu = dict(CPU)
    CPU.clear()
    return {
        "bot": kind,
        "referee_cpu_us_per_decision": round(cpu["referee"] * 1e6, 2),
        "floor_cpu_us_per_decision": round(cpu["floor"] * 1e6, 2),
        "decisions": decisions,
        "referee_us_per_decision": round(best_referee * 1e6, 2),
        "floor_us_per_decision": round(best_floor * 1e6, 2),
        "ratio": round(best_referee / best_floor, 3),
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", nargs="+", default=["python", "c"], choices=sorted(BOTS))
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run on one CPU, bots included, as a tournament's worker does (default)",
    )
    args = parser.parse_args()
    cpus = worker_cpus(1) if args.pin else None
    if cpus:  # the bots started below inherit it
        os.sched_setaffinity(0, cpus)
    if "c" in args.bots:
        subprocess.run(["make", "-s", "-C", str(ROOT / "sample_bots/c")], check=True)
    results = [measure(kind, args.games, args.rounds) for kind in args.bots]
    print(
        json.dumps(
            {
                "benchmark": "referee",
                "python": platform.python_version(),
                "games": args.games,
                "rounds": args.rounds,
                "pinned": bool(cpus),
                "results": results,
            }
        )
    )
    for figures in results:
        print(
            f"referee with {figures['bot']} bots: {figures['referee_us_per_decision']:.1f} us "
            f"per decision, floor {figures['floor_us_per_decision']:.1f} us, "
            f"ratio {figures['ratio']:.2f} (CPU of this process per decision: referee "
            f"{figures['referee_cpu_us_per_decision']:.1f} us, floor "
            f"{figures['floor_cpu_us_per_decision']:.1f} us)"
        )


if __name__ == "__main__":
    main()

"""Referee cost per decision against the protocol floor, in one run.

The floor is a minimal stdlib loop that writes the very same bytes the
referee wrote (each request with the information lines queued before it,
captured during a referee run) to the same persistent bot processes and
reads one reply line per request: pipe traffic and the bots' own work,
nothing of the referee. The ratio referee/floor is what the referee adds.
A second floor waits for each reply with ``poll`` before reading it, as a
referee must to stop waiting at a deadline (a blocking read cannot time
out); the ratio to it is what the referee adds beyond enforcing time limits.
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
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arena.bots.player import ProcessPlayer
from arena.bots.spec import BotSpec, parse_bot
from arena.execute.local import worker_cpus
from arena.game import Rules
from arena.protocol import Limits
from arena.referee import play_game

ROOT = Path(__file__).resolve().parent.parent
BOTS = {
    "python": f"{sys.executable} {ROOT / 'arena/samples/random_bot.py'}",
    "c": str(ROOT / "sample_bots/c/random_bot"),
}
JSON = dict[str, Any]
#: Best CPU seconds per decision of this process (the referee or the floor loop).
CPU: dict[str, float] = {}


class CapturingPlayer:
    """A bot process seat that keeps every block of bytes it wrote, in order.

    It wraps a :class:`ProcessPlayer` (a compiled class, so not subclassed)
    and mirrors its queue: information lines wait for the next request and go
    out with it in one write; ``game_end`` is written alone at the end of a
    game, with no reply to read.
    """

    def __init__(
        self, spec: BotSpec, limits: Limits, seat: int, order: list[tuple[int, int, bool]]
    ) -> None:
        self.player = ProcessPlayer(spec, limits)
        self.name = spec.name
        self.description = spec.command
        self.sent: list[bytes] = []
        self.seat = seat
        self.order = order
        self._queue: list[bytes] = []

    def _capture(self, block: list[bytes], reply: bool) -> None:
        self.order.append((self.seat, len(self.sent), reply))
        self.sent.append(b"".join(block))

    def start_game(self, message: JSON, line: bytes) -> None:
        self.player.start_game(message, line)
        self._queue = [line]

    def deliver(self, message: JSON, line: bytes) -> None:
        self.player.deliver(message, line)
        self._queue.append(line)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        self._capture([*self._queue, line], reply=True)
        self._queue = []
        return self.player.request(message, line, timeout_s)

    def end_game(self) -> None:
        if self._queue:
            self._capture(self._queue, reply=False)
        self._queue = []
        self.player.end_game()

    def abandon(self, error_line: bytes | None) -> None:
        self.player.abandon(error_line)

    def close(self) -> int | None:
        return self.player.close()


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


def floor_run(
    players: list[CapturingPlayer], order: list[tuple[int, int, bool]], *, deadline: bool
) -> float:
    """Seconds to write each captured block and read one line back, in play order.

    ``deadline``: wait for each reply with ``poll`` before reading it, as any
    referee that enforces a time limit must (the bare floor reads blocking).
    """
    fds = []
    for player in players:
        process = player.player.process
        assert process is not None and process.proc is not None
        proc = process.proc
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), not deadline)
        os.set_blocking(proc.stdin.fileno(), True)
        poller = select.poll()
        poller.register(proc.stdout.fileno(), select.POLLIN)
        fds.append((proc.stdin.fileno(), proc.stdout.fileno(), poller.poll))
    start = time.perf_counter()
    cpu = time.process_time()
    for seat, index, answered in order:
        write_fd, read_fd, wait = fds[seat]
        os.write(write_fd, players[seat].sent[index])
        if not answered:
            continue
        if deadline:
            wait(1000)
        reply = os.read(read_fd, 65536)
        while not reply.endswith(b"\n"):
            if deadline:
                wait(1000)
            reply += os.read(read_fd, 65536)
    elapsed = time.perf_counter() - start
    name = "deadline" if deadline else "floor"
    answers = sum(answered for _, _, answered in order)
    CPU[name] = min(CPU.get(name, 1e9), (time.process_time() - cpu) / answers)
    for player in players:
        process = player.player.process
        assert process is not None
        os.set_blocking(process._out_fd, False)
        os.set_blocking(process._in_fd, False)
    return elapsed


def measure(kind: str, games: int, rounds: int) -> JSON:
    """Best-of-``rounds`` referee and floors, microseconds per decision, for one bot kind."""
    limits = Limits()
    order: list[tuple[int, int, bool]] = []
    players = [
        CapturingPlayer(parse_bot(f"{kind}{seat}={BOTS[kind]}"), limits, seat, order)
        for seat in range(4)
    ]
    best = {"referee": float("inf"), "floor": float("inf"), "deadline": float("inf")}
    decisions = 0
    try:
        referee_run(players, 5, 10_000)  # start the processes and warm up
        # The floors replay the game_end writes too, exactly as the referee sent them.
        for round_no in range(rounds):
            for player in players:
                player.sent.clear()
            order.clear()
            seconds, decisions = referee_run(players, games, round_no * games)
            best["referee"] = min(best["referee"], seconds / decisions)
            # Replay the captured traffic in the order it happened.
            for deadline in (False, True):
                seconds = floor_run(players, order, deadline=deadline)
                name = "deadline" if deadline else "floor"
                best[name] = min(best[name], seconds / decisions)
    finally:
        for player in players:
            player.close()
    cpu = dict(CPU)
    CPU.clear()
    return {
        "bot": kind,
        "referee_cpu_us_per_decision": round(cpu["referee"] * 1e6, 2),
        "floor_cpu_us_per_decision": round(cpu["floor"] * 1e6, 2),
        "deadline_floor_cpu_us_per_decision": round(cpu["deadline"] * 1e6, 2),
        "decisions": decisions,
        "referee_us_per_decision": round(best["referee"] * 1e6, 2),
        "floor_us_per_decision": round(best["floor"] * 1e6, 2),
        "deadline_floor_us_per_decision": round(best["deadline"] * 1e6, 2),
        "ratio": round(best["referee"] / best["floor"], 3),
        "ratio_to_deadline_floor": round(best["referee"] / best["deadline"], 3),
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
            f"ratio {figures['ratio']:.2f}; floor with a deadline "
            f"{figures['deadline_floor_us_per_decision']:.1f} us, ratio "
            f"{figures['ratio_to_deadline_floor']:.2f} (CPU of this process per decision: "
            f"referee {figures['referee_cpu_us_per_decision']:.1f} us, floor "
            f"{figures['floor_cpu_us_per_decision']:.1f} us, with a deadline "
            f"{figures['deadline_floor_cpu_us_per_decision']:.1f} us)"
        )


if __name__ == "__main__":
    main()

"""How long a plan would take before any game of it: a few moves of each bot, timed.

``--dry-run`` said "time: unknown" until a folder had games to measure; a
tournament of 140 games with the search bot then took 7 min 26 s. Here each
distinct bot (already built: a dry run builds nothing) plays the first few
decisions of one game against in-process random players and is timed; a
game's length in decisions comes from in-process random games of the same
rules. The estimate is the plan's decisions at the bots' measured pace,
spread over the games played at once; its upper bound is every seat spending
its whole move time and bank, which a search bot does.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import BotFault, FaultKind
from arena.execute.game import play_one
from arena.game import Rules
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.simulate import mean_decisions

#: Decisions timed of each bot (the first, with its start-up, is left out).
MOVES = 4
#: Seconds all the calibration may take, whatever the field.
BUDGET_S = 3.0
#: Random games simulated to count a game's decisions.
SAMPLE_GAMES = 20

JSON = dict[str, Any]


@dataclass(frozen=True)
class Pace:
    """What the calibration measured."""

    #: Milliseconds a decision, by bot name (those timed).
    move_ms: Mapping[str, float]
    #: Decisions a seat makes in a game, on average (random play).
    decisions: float
    #: Bots not timed: not built yet, no answer, or past the budget.
    untimed: tuple[str, ...]
    #: Seconds a start took (process, hello, ready), by bot name.
    start_s: Mapping[str, float] = field(default_factory=dict)
    #: Seconds a decision costs besides the bot's answer (the referee, the other seats).
    overhead_s: float = 0.0

    def game_seconds(self, players: int) -> float:
        """Seconds a game takes at the measured pace (the timed bots' mean)."""
        if not self.move_ms:
            return 0.0
        mean = sum(self.move_ms.values()) / len(self.move_ms)
        return players * self.decisions * (mean / 1000.0 + self.overhead_s)

    def starts_seconds(self) -> float:
        """Seconds to start every bot timed once."""
        return sum(self.start_s.values())


class _Timed:
    """A bot's seat that times its answers and leaves the game after :data:`MOVES` + 1."""

    def __init__(self, inner: ProcessPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.description = inner.description
        self.times: list[float] = []
        self.start_s = 0.0
        #: From the end of its start to its last answer timed (None: not so far).
        self.ready_at = 0.0
        self.span_s: float | None = None

    def start_game(self, message: JSON, line: bytes) -> None:
        began = time.monotonic()
        self.inner.start_game(message, line)  # the process, hello and ready
        self.ready_at = time.monotonic()
        self.start_s = self.ready_at - began

    def deliver(self, message: JSON, line: bytes) -> None:
        self.inner.deliver(message, line)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        if len(self.times) > MOVES:  # enough: the seat plays on by the fallback move
            self.span_s = time.monotonic() - self.ready_at
            raise BotFault(FaultKind.CRASH, "calibrated")
        move, ms = self.inner.request(message, line, timeout_s)
        self.times.append(ms)
        return move, ms

    def end_game(self) -> None:
        self.inner.end_game()

    def abandon(self, error_line: bytes | None) -> None:
        self.inner.stop()


def calibrate(
    specs: Sequence[BotSpec],
    rules: Rules,
    limits: Limits,
    *,
    sandbox: Capabilities | None,
    skip: Sequence[str] = (),
) -> Pace:
    """Time the first moves of each distinct bot of ``specs`` but those in ``skip`` (not
    built), within :data:`BUDGET_S` in all; the rest are named untimed."""
    deadline = time.monotonic() + BUDGET_S
    measured: dict[str, float] = {}
    starts: dict[str, float] = {}
    overheads: list[float] = []
    untimed: list[str] = list(skip)
    seen: dict[tuple[object, ...], str] = {}
    for spec in specs:
        if spec.name in skip:
            continue
        key = (spec.argv, spec.home)
        if key in seen:  # the same command: the same pace
            if seen[key] in measured:
                measured[spec.name] = measured[seen[key]]
            continue
        seen[key] = spec.name
        if time.monotonic() >= deadline:
            untimed.append(spec.name)
            continue
        timed = _Timed(ProcessPlayer(spec, limits, sandbox=sandbox))
        others = [RandomPlayer(f"random-{seat}") for seat in range(1, rules.players)]
        try:
            play_one([timed, *others], rules, seed=1, game_id="calibrate", limits=limits)
        finally:
            timed.inner.close()
        if len(timed.times) > 1:
            later = timed.times[1:]
            measured[spec.name] = sum(later) / len(later)
            starts[spec.name] = timed.start_s
            if timed.span_s is not None:  # the referee's and the others' share of its span
                rest = timed.span_s - sum(timed.times) / 1000.0
                overheads.append(max(0.0, rest) / len(timed.times))
        else:
            untimed.append(spec.name)
    overhead = sum(overheads) / len(overheads) if overheads else 0.0
    return Pace(measured, _decisions(rules), tuple(untimed), starts, overhead)


@functools.lru_cache(maxsize=64)
def _decisions(rules: Rules) -> float:
    """Decisions a seat makes in a game, on average over random games of ``rules``."""
    return mean_decisions(rules, SAMPLE_GAMES) / rules.players

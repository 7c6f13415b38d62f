"""In-process players: the referee's :class:`~arena.referee.Player` without a process.

Used by ``arena check-bot`` as opponents and by tests of the referee. A
:class:`RandomPlayer` seeds its choices from the game id and its seat, as
protocol v1 suggests bots do, so games stay reproducible.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]
Chooser = Callable[[JSON], str]


class ScriptedPlayer:
    """A player whose answers come from a function of the request message.

    It keeps every message of its current game, for tests to inspect (only
    the current game's: a player may play millions of games).
    """

    def __init__(self, name: str, choose: Chooser, *, description: str = "in-process") -> None:
        self.name = name
        self.description = description
        self.choose = choose
        self.received: list[JSON] = []
        self.abandoned: list[JSON | None] = []
        self.games = 0

    def start_game(self, message: JSON, line: bytes) -> None:
        """Take ``game_start``; forget the previous game's messages."""
        self.games += 1
        self.received.clear()
        self.received.append(message)

    def deliver(self, message: JSON, line: bytes) -> None:
        """Take an information message."""
        self.received.append(message)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        """Answer with ``choose(message)`` in no measurable time."""
        self.received.append(message)
        return self.choose(message), 0.0

    def end_game(self) -> None:
        """Nothing to flush in-process."""

    def abandon(self, error_line: bytes | None) -> None:
        """Remember the error it was sent."""
        self.abandoned.append(json.loads(error_line) if error_line else None)

    def close(self) -> None:
        """Nothing to end (a worker lets its players go with this)."""


class RandomPlayer(ScriptedPlayer):
    """Uniformly random legal moves, seeded from the game id and the seat."""

    def __init__(self, name: str) -> None:
        super().__init__(name, self._choose, description="in-process random player")
        self._rng = random.Random(0)

    def start_game(self, message: JSON, line: bytes) -> None:
        """Reseed from the game id and seat."""
        super().start_game(message, line)
        self._rng = random.Random(f"{message['game']}/{message['seat']}")

    def _choose(self, request: JSON) -> str:
        legal: list[str] = request["legal"]
        return legal[int(self._rng.random() * len(legal))]


def first_legal(request: JSON) -> str:
    """Always the first legal move (the referee's own fallback)."""
    move: str = request["legal"][0]
    return move

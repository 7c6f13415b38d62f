"""The units of a match: finished games, in schedule order, turned into one number per deal set.

A deal set is one shuffle played in each of its K seat rotations (duplicate
deals). Its unit (see :mod:`arena.match.stats`):

- without a field: NEW's mean score over the set's rotations, minus 1/2;
- with a field: NEW's mean score minus BASE's, each over its own games of
  the set (the same deals, seats and opponents).

Only complete deal sets make units, taken in schedule order: a set whose
games are not all in is never counted early, since which games finish
first depends on their length, and a game's length on its result.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from arena.game.scoring import seat_scores


class FinishedGame(NamedTuple):
    """What a unit needs of one finished game."""

    ordinal: int
    deal_set: int
    #: The bots in seat order.
    seats: tuple[str, ...]
    #: Placements in seat order (competition numbering; faulted seats placed as stored).
    placements: tuple[int, ...]


class Played(Protocol):
    """A finished game as :meth:`Units.add` reads it (a :class:`FinishedGame`, a row of
    the store)."""

    @property
    def ordinal(self) -> int:
        """Its place in the schedule."""
        ...

    @property
    def deal_set(self) -> int:
        """The deal set it plays."""
        ...

    @property
    def seats(self) -> tuple[str, ...]:
        """The bots in seat order."""
        ...

    @property
    def placements(self) -> tuple[int, ...]:
        """Placements in seat order."""
        ...


class Unit(NamedTuple):
    """One deal set's unit, and the games it was made of (ordinals, in schedule order)."""

    deal_set: int
    value: float
    games: tuple[int, ...]


@dataclass
class _Set:
    games: list[int] = field(default_factory=list)
    scores: dict[str, list[float]] = field(default_factory=dict)


class Units:
    """Turns finished games into units, one per complete deal set, in schedule order.

    ``games_per_set``: the games of one deal set (K rotations; twice that
    with a field, NEW's and BASE's). Feed games in schedule order (by
    ordinal); a deal set is complete when all its games are in.
    """

    def __init__(self, new: str, base: str, *, games_per_set: int, paired: bool) -> None:
        self.new = new
        self.base = base
        self.games_per_set = games_per_set
        self.paired = paired
        self._open: dict[int, _Set] = {}

    def add(self, games: Iterable[Played]) -> Iterator[Unit]:
        """Take in games; yield the unit of each deal set they complete, in order."""
        for game in games:
            current = self._open.setdefault(game.deal_set, _Set())
            current.games.append(game.ordinal)
            scores = seat_scores(game.placements)
            for bot, score in zip(game.seats, scores, strict=True):
                if bot in (self.new, self.base):
                    current.scores.setdefault(bot, []).append(score)
            if len(current.games) == self.games_per_set:
                del self._open[game.deal_set]
                yield Unit(game.deal_set, self._unit(game.deal_set, current), tuple(current.games))

    def _unit(self, deal_set: int, played: _Set) -> float:
        new = played.scores.get(self.new, [])
        if not new:
            raise ValueError(f"deal set {deal_set} has no game of {self.new!r}")
        mean_new = sum(new) / len(new)
        if not self.paired:
            return mean_new - 0.5
        base = played.scores.get(self.base, [])
        if len(base) != len(new):
            raise ValueError(
                f"deal set {deal_set}: {len(new)} games of {self.new!r} but {len(base)} of "
                f"{self.base!r}"
            )
        return mean_new - sum(base) / len(base)

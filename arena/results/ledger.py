"""The rated prefix of a tournament in memory, and the rows each group commit writes.

A tournament's ratings are TrueSkill over its games in schedule order:
game ``n`` is rated once every game before it is. Doing that with SQL (read
the seats, the standings, write them back) for every game cost the
coordinator more than the rating itself, so the rated prefix lives here,
in memory: each bot's standing, the games finished beyond the prefix
(waiting for an earlier one), and where rounds end. :meth:`Ledger.record`
rates what a finished game completes and adds its rows to the open
:class:`Batch`, with what the game adds to the pairwise counts; :meth:`Ledger.seal`
closes the batch with the standings of the bots it touched, for one
transaction (:mod:`arena.results.commit`). Rows are written in the order
rated, so after any commit the store's rated prefix, standings, pairs and
round snapshots agree with its games, as one transaction per game made them.
(The pairwise counts were once added in SQL from the batch's seats: a
self-join that cost the writer ~30 us a game, against ~1 us here.)

Memory: a standing per bot of the field, the games finished out of order
(bounded by the games in flight at once), and the open batch (at most a
commit's games, and the pairs of bots they seat), never the plan.
"""

# arena: compiled with mypyc
from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from arena.errors import ArenaError
from arena.results.skill import FreeForAll


class CountedTwice(ArenaError):
    """A game recorded as finished that is finished already."""


@dataclass
class Standing:
    """A bot's row of the leaderboard."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    faults: dict[str, int] = field(default_factory=dict)


class Result(NamedTuple):
    """A finished game as rated: its bots in seat order, their places and fault kinds."""

    seats: tuple[str, ...]
    placements: tuple[int, ...]
    faults: tuple[str | None, ...]


@dataclass
class Batch:
    """The rows of one group commit, in the store's column order."""

    #: (decisions, duration_ms, finished_at, replay, ordinal) of each finished game.
    games: list[tuple[Any, ...]] = field(default_factory=list)
    #: (placement, fault_kind, fault_detail, game, seat).
    seats: list[tuple[Any, ...]] = field(default_factory=list)
    #: (game, bot, mu, sigma): each bot's rating after each game rated.
    ratings: list[tuple[Any, ...]] = field(default_factory=list)
    #: (round, bot, mu, sigma, games): the standings as each round's last game was rated.
    rounds: list[tuple[Any, ...]] = field(default_factory=list)
    #: (mu, sigma, games, wins, place_sum, faults, bot) of the bots rated (set by seal).
    standings: list[tuple[Any, ...]] = field(default_factory=list)
    #: (a, b) -> [games of the batch rated in which a placed above b, games of both]:
    #: what the batch adds to the store's pairwise counts.
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    #: The last game of the rated prefix once this batch is written.
    rated_through: int = -1
    #: When its first game was recorded (time.monotonic()).
    since: float = 0.0


class Ledger:
    """The rated prefix, its standings, and the open batch of rows."""

    def __init__(
        self,
        rater: FreeForAll,
        standings: dict[str, Standing],
        *,
        rated_through: int,
        waiting: dict[int, Result],
        round_ends: dict[int, int],
    ) -> None:
        """``waiting``: games finished beyond the rated prefix (from an earlier run);
        ``round_ends``: last game -> round, for the rounds not rated through yet."""
        self.rater = rater
        self.standings = standings
        self.rated_through = rated_through
        self.waiting = waiting
        self.round_ends = round_ends
        self.batch = Batch(rated_through=rated_through)
        #: Games in the open batch (the writer commits by this size).
        self.size = 0
        self._touched: set[str] = set()

    def round_scheduled(self, number: int, last_game: int) -> None:
        """A round was stored: its snapshot is taken once its last game is rated."""
        self.round_ends[last_game] = number

    def record(
        self,
        ordinal: int,
        seats: Sequence[str],
        placements: Sequence[int],
        *,
        faults: Mapping[int, tuple[str, str]],
        decisions: int,
        duration_ms: float,
        replay: str,
    ) -> None:
        """A finished game: its rows, and the ratings of every game it lets the prefix reach.

        ``seats``: its bots in seat order; ``faults``: seat -> (fault kind,
        detail) of the seats that faulted.

        Raises:
            CountedTwice: for a game recorded before (in this run or in the store).
        """
        if ordinal <= self.rated_through or ordinal in self.waiting:
            raise CountedTwice(f"game {ordinal} is not pending: it would count twice")
        batch = self.batch
        if not self.size:
            batch.since = time.monotonic()
        self.size += 1
        batch.games.append((decisions, duration_ms, time.time(), replay, ordinal))
        kinds: list[str | None] = []
        for seat, place in enumerate(placements):
            kind, detail = faults.get(seat, (None, None))
            batch.seats.append((place, kind, detail, ordinal, seat))
            kinds.append(kind)
        result = Result(tuple(seats), tuple(placements), tuple(kinds))
        if ordinal != self.rated_through + 1:
            self.waiting[ordinal] = result
            return
        self._rate(ordinal, result)
        waiting = self.waiting
        while (following := waiting.pop(self.rated_through + 1, None)) is not None:
            self._rate(self.rated_through + 1, following)

    def _rate(self, ordinal: int, result: Result) -> None:
        standings = self.standings
        seats, placements = result.seats, result.placements
        rows = [standings[bot] for bot in seats]
        new = self.rater.rate([(row.mu, row.sigma) for row in rows], placements)
        append = self.batch.ratings.append
        for bot, row, (mu, sigma), place, fault in zip(
            seats, rows, new, placements, result.faults, strict=True
        ):
            append((ordinal, bot, mu, sigma))
            row.mu, row.sigma = mu, sigma
            row.games += 1
            row.wins += place == 1
            row.place_sum += place
            if fault:
                row.faults[fault] = row.faults.get(fault, 0) + 1
        self._touched.update(seats)
        pairs = self.batch.pairs
        for a, bot_a in enumerate(seats):
            place_a = placements[a]
            for b, bot_b in enumerate(seats):
                if a != b:
                    counts = pairs.get((bot_a, bot_b))
                    if counts is None:
                        counts = pairs[(bot_a, bot_b)] = [0, 0]
                    counts[0] += place_a < placements[b]
                    counts[1] += 1
        self.rated_through = ordinal
        number = self.round_ends.pop(ordinal, None)
        if number is not None:
            self.batch.rounds.extend(
                (number, bot, row.mu, row.sigma, row.games) for bot, row in standings.items()
            )

    def seal(self) -> Batch:
        """Close the open batch (the standings of the bots it rated made final); open the next."""
        batch = self.batch
        standings = self.standings
        batch.standings = [
            (
                standings[bot].mu,
                standings[bot].sigma,
                standings[bot].games,
                standings[bot].wins,
                standings[bot].place_sum,
                json.dumps(standings[bot].faults, sort_keys=True),
                bot,
            )
            for bot in sorted(self._touched)
        ]
        batch.rated_through = self.rated_through
        self.batch = Batch(rated_through=self.rated_through)
        self.size = 0
        self._touched = set()
        return batch

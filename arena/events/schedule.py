"""What every schedule shares, whatever event it serves: the plan, the strategy interface,
the seeds and the games of a round.

A schedule is a strategy behind one small interface (:class:`Strategy`): it
is handed the field, and the standings when it asks for them, and returns
the next round's *tables* (the bots of one table, in seat order), or None
when it has no more. Everything else is shared: each table plays ``deals``
deal sets, each in every seat rotation (duplicate deals), and the games of
a round are numbered and seeded here (:func:`round_games`). The runner,
store and executors do not know which strategy plays. A tournament's
strategies are in :mod:`arena.tournament.schedule`, a match's in
:mod:`arena.match.schedule`.

This module is pure: no IO, no clock; randomness comes from seeds.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from arena.errors import ArenaError
from arena.results.games import ScheduledGame

__all__ = [
    "Ids",
    "Plan",
    "ScheduleError",
    "ScheduledGame",
    "Standings",
    "Strategy",
    "deal_set_seed",
    "round_games",
    "seeded",
]


class ScheduleError(ArenaError):
    """A tournament that cannot be scheduled (too few bots, bad table size, unknown schedule)."""


@dataclass(frozen=True)
class Plan:
    """What a schedule will play, as far as it is known before it is played."""

    schedule: str
    #: Games in the whole plan (for a stop rule: at most this many).
    games: int
    #: Fewest and most games of one bot.
    per_bot: tuple[int, int]
    #: Rounds (blocks for a round-robin; None when only a formula for the games is cheap).
    rounds: int | None
    #: Games of one round (None when rounds differ in size).
    per_round: int | None


Standings = Mapping[str, tuple[float, float]]

#: Rounds that mean a league with no end (the server's ladder): a bound no event
#: reaches, so readers say "N games so far", not "N of" a number of games never played.
ENDLESS_ROUNDS = 10**9


class Strategy(Protocol):
    """A schedule: the tables of each next round."""

    #: Whether pairing reads the standings (round r+1 then waits for rounds <= r-1).
    reads_standings: bool

    def next_round(self, number: int, standings: Standings | None) -> list[tuple[str, ...]] | None:
        """The tables of round ``number`` (1, 2, ...), in play order; None when there are no more.

        ``standings``: each bot's (mu, sigma) after every game of round
        ``number - 2`` (None before any round is rated).
        """
        ...

    def replay(self, tables: Sequence[tuple[str, ...]]) -> None:
        """Take in a round already scheduled (when a tournament resumes), as if just made."""
        ...

    def plan(self) -> Plan:
        """The plan, as far as it is known now."""
        ...


def deal_set_seed(tournament_seed: int, deal_set: int) -> int:
    """The seed of a deal set: a function of the tournament seed and the set's index only."""
    digest = hashlib.blake2b(f"{tournament_seed}/deal-set/{deal_set}".encode(), digest_size=6)
    return int.from_bytes(digest.digest(), "big")


def seeded(tournament_seed: int, purpose: str) -> random.Random:
    """A random generator for one purpose of one tournament (the same whenever it is made)."""
    digest = hashlib.blake2b(f"{tournament_seed}/{purpose}".encode(), digest_size=8)
    return random.Random(int.from_bytes(digest.digest(), "big"))


# ---------------------------------------------------------------------- games of a round


def round_games(
    tables: Sequence[tuple[str, ...]],
    *,
    number: int,
    first_ordinal: int,
    first_deal_set: int,
    deals: int,
    seed: int,
    ids: Ids,
    start: int = 0,
    stop: int | None = None,
    tables_per_deal: int = 1,
) -> Iterator[ScheduledGame]:
    """The games of one round's tables, in play order: per table, per deal set, per rotation.

    ``start`` and ``stop`` pick a slice of them (the round's game ``start``
    up to ``stop``), computed directly: a round of a round-robin with many
    deal sets is stored a chunk at a time, and a resume goes on mid-round.
    ``tables_per_deal`` consecutive tables play the same deal sets (a match
    with a field: NEW's table and BASE's).
    """
    players = len(tables[0]) if tables else 0
    per_table = deals * players
    end = len(tables) * per_table if stop is None else min(stop, len(tables) * per_table)
    # The seatings of the last table and the last deal set's seed: their games share them.
    seated: tuple[int, list[tuple[str, ...]]] = (-1, [])
    seed_of = (-1, 0)
    for index in range(start, end):
        table_index, rest = divmod(index, per_table)
        deal, rotation = divmod(rest, players)
        if seated[0] != table_index:
            table = tables[table_index]
            seated = (
                table_index,
                [
                    tuple(table[(seat + turn) % players] for seat in range(players))
                    for turn in range(players)
                ],
            )
        deal_set = first_deal_set + table_index // tables_per_deal * deals + deal
        if seed_of[0] != deal_set:
            seed_of = (deal_set, deal_set_seed(seed, deal_set))
        game_id = ids.game_id(number, table_index, deal, deal_set, rotation)
        yield ScheduledGame(
            first_ordinal + index,
            game_id,
            deal_set,
            rotation,
            seed_of[1],
            seated[1][rotation],
            number,
            table_index,
            ids.sent_id(game_id),
        )


class Ids(Protocol):
    """What names a round's games (a tournament's ids, a match's own)."""

    def game_id(self, number: int, table: int, deal: int, deal_set: int, rotation: int) -> str:
        """The id of one game, as stored (unique in its folder)."""
        ...

    def sent_id(self, game_id: str) -> str:
        """The id a game's bots are sent for its stored id, where it differs ("": the same)."""
        ...

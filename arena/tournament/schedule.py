"""The schedule of a tournament: every game, its seating and its seed, in order.

Round-robin: every k-subset of the bots (in the order the bots were given)
plays ``deals`` deal sets; a deal set is one seed played once per seat
rotation, so every bot of the table holds every seat's cards (duplicate
deals). Gauntlet: only the subsets that include the challenger. Game ids
sort in schedule order, and any game can be replayed alone with
``arena play --seed SEED`` and the same seating.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import ArenaError


class ScheduleError(ArenaError):
    """A tournament that cannot be scheduled (too few bots, bad table size)."""


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule."""

    ordinal: int
    game_id: str
    deal_set: int
    rotation: int
    seed: int
    seats: tuple[str, ...]


def deal_set_seed(tournament_seed: int, deal_set: int) -> int:
    """The seed of a deal set: a function of the tournament seed and the set's index only."""
    digest = hashlib.blake2b(f"{tournament_seed}/deal-set/{deal_set}".encode(), digest_size=6)
    return int.from_bytes(digest.digest(), "big")


def build_schedule(
    bots: Sequence[str],
    *,
    players: int,
    deals: int,
    seed: int,
    gauntlet: str | None = None,
) -> list[ScheduledGame]:
    """Every game of the tournament, in schedule order.

    Raises:
        ScheduleError: for fewer bots than seats, a bad table size or deal
            count, or a gauntlet challenger that is not among the bots.
    """
    if not 2 <= players <= 7:
        raise ScheduleError(f"--players takes 2..7, not {players}")
    if len(bots) < players:
        raise ScheduleError(f"{len(bots)} bots cannot fill a {players}-seat table")
    if deals < 1:
        raise ScheduleError(f"--deals takes a number >= 1, not {deals}")
    if gauntlet is not None and gauntlet not in bots:
        raise ScheduleError(f"gauntlet bot {gauntlet!r} is not among the bots")
    tables = [
        table
        for table in itertools.combinations(bots, players)
        if gauntlet is None or gauntlet in table
    ]
    games: list[ScheduledGame] = []
    deal_set = 0
    width = len(str(len(tables) * deals))
    for table in tables:
        for _ in range(deals):
            set_seed = deal_set_seed(seed, deal_set)
            for rotation in range(players):
                seats = tuple(table[(seat + rotation) % players] for seat in range(players))
                games.append(
                    ScheduledGame(
                        ordinal=len(games),
                        game_id=f"d{deal_set:0{width}d}-r{rotation}",
                        deal_set=deal_set,
                        rotation=rotation,
                        seed=set_seed,
                        seats=seats,
                    )
                )
            deal_set += 1
    return games

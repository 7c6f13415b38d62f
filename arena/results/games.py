"""A game of a schedule as the results folder stores it and the executors play it."""

from __future__ import annotations

from typing import NamedTuple


class ScheduledGame(NamedTuple):
    """One game of the schedule (a tuple: made, pickled to workers and back by the
    thousand a second, where a frozen dataclass cost the coordinator ~10x)."""

    ordinal: int
    game_id: str
    deal_set: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    round: int = 1
    table: int = 0
    #: The id the game's bots are sent where it differs from ``game_id`` (the two sides of
    #: a match's paired game share one); "" where it is ``game_id``.
    sent_id: str = ""

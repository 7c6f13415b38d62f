"""What the runner asks of an event: a tournament, a match, a server's ladder.

An event is a plugin of one runner (:func:`arena.events.run.run`): it says
what defines it (its key, compared when a folder is resumed), what a rerun
may change, its plan, and its feed (schedule, game ids, stop rule). The
runner, the feed, the store and the executors never ask which kind of event
they serve; only the event knows (fastchess's ``BaseTournament`` with its
round-robin and gauntlet subclasses is the model).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from arena.bots.spec import BotSpec
from arena.events.feed import Feed
from arena.events.schedule import Plan, Strategy
from arena.execute.base import GameSettings
from arena.results.store import Store


class Event(GameSettings, Protocol):
    """An event the runner plays (see the module)."""

    @property
    def kind(self) -> str:
        """What a results folder of this event is called in messages: tournament, match."""
        ...

    @property
    def players(self) -> int:
        """Seats at every table."""
        ...

    @property
    def seed(self) -> int:
        """The event's seed: every deal and every random choice of its schedule follow."""
        ...

    @property
    def halt_on_disable(self) -> bool:
        """Whether a bot that cannot start stops the run (a match: every bot must play)
        rather than forfeiting its games."""
        ...

    def key(self) -> dict[str, Any]:
        """What defines the event, as stored and compared when its folder is resumed."""
        ...

    def growable(self) -> tuple[str, ...]:
        """Keys of :meth:`key` a rerun may change (a league: more rounds, other bots)."""
        ...

    def plan(self) -> Plan:
        """What the schedule will play, as far as it is known before it is played.

        Raises:
            ScheduleError: for an event that cannot be scheduled.
        """
        ...

    def open_tables(self) -> tuple[int, int]:
        """The tables whose games may be played at once, and the games of one table
        (executors start no more workers than can be busy)."""
        ...

    def strategy(self) -> Strategy:
        """A fresh schedule of this event (its rounds' tables).

        Raises:
            ScheduleError: for an event that cannot be scheduled.
        """
        ...

    def with_bots(self, bots: tuple[BotSpec, ...]) -> Event:
        """The event with another field (a bot entered or retired at a round boundary).

        Raises:
            ScheduleError: for an event whose field is fixed (a round-robin, a match).
        """
        ...

    def feed(self, store: Store) -> Feed:
        """The games of ``store`` to play, the next rounds made as they are needed."""
        ...

    def status(self) -> Callable[[Store], str]:
        """A fresh reader of the event's one-line status for progress displays (a
        tournament's leader, a match's score difference and LLR): called as a display
        redraws, it reads the store no more than it needs."""
        ...


def common_key(event: Event, *, deals: int, gauntlet: str | None) -> dict[str, Any]:
    """The part of an event's key every kind stores, in the order folders hold it.

    ``deals`` and ``gauntlet`` are a tournament's; a match stores 1 and None,
    as folders made before events were kinds of their own do (a key must stay
    byte for byte what its folder holds, or the folder no longer resumes).
    """
    return {
        "bots": [[spec.name, spec.command] for spec in event.bots],
        "players": event.players,
        "deals": deals,
        "seed": event.seed,
        "rules": event.rules.to_dict(),
        "limits": event.limits.to_dict(),
        "resources": dict(event.resources),
        "gauntlet": gauntlet,
    }

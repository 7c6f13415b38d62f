"""A match as an event of the runner: NEW against BASE in rounds of paired deal sets.

Played, stored, resumed and rated by the same runner, feed and store as a
tournament (:mod:`arena.events`); what makes it a match is here: its
schedule (:class:`~arena.match.schedule.MatchSchedule`), its game ids (a
paired game's two sides share the id their bots are sent), and its stop
rule, the sequential test (:class:`~arena.match.result.MatchTest`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from arena.bots.spec import BotSpec
from arena.events.event import common_key
from arena.events.feed import Feed
from arena.events.schedule import Plan, ScheduleError
from arena.game import Rules
from arena.match.result import MatchTest
from arena.match.schedule import MatchDesign, MatchIds, MatchSchedule
from arena.protocol import Limits
from arena.results.store import Store


@dataclass(frozen=True)
class MatchEvent:
    """Everything that defines a match (and so must match when it is resumed)."""

    kind: ClassVar[str] = "match"
    #: A match whose NEW, BASE or an opponent cannot play means nothing: it stops.
    halt_on_disable: ClassVar[bool] = True
    #: A match's bots keep one process each across rotations (see ``GameSettings``).
    isolated: ClassVar[bool] = False

    #: NEW, then BASE's copies (no field), or NEW, BASE and the opponents' pool.
    bots: tuple[BotSpec, ...]
    players: int
    seed: int
    rules: Rules
    limits: Limits
    design: MatchDesign
    #: The most rounds (a rerun with more goes on in the same folder).
    rounds: int
    resources: tuple[tuple[str, int], ...] = ()

    def key(self) -> dict[str, Any]:
        """The match as stored, and compared on resume (the keys of folders made before a
        match was an event of its own, byte for byte)."""
        return {
            **common_key(self, deals=1, gauntlet=None),
            "schedule": "match",
            "rounds": self.rounds,
            "stop": None,
            "match": self.design.key(),
        }

    def growable(self) -> tuple[str, ...]:
        """A rerun may play more rounds."""
        return ("rounds",)

    def strategy(self) -> MatchSchedule:
        """A fresh schedule of this match.

        Raises:
            ScheduleError: for a table the design cannot fill, or no rounds.
        """
        return MatchSchedule(self.design, players=self.players, rounds=self.rounds, seed=self.seed)

    def plan(self) -> Plan:
        """At most :attr:`rounds` rounds (see :meth:`MatchSchedule.plan`).

        Raises:
            ScheduleError: as :meth:`strategy`.
        """
        return self.strategy().plan()

    def with_bots(self, bots: tuple[BotSpec, ...]) -> MatchEvent:
        """A match keeps its bots.

        Raises:
            ScheduleError: always.
        """
        raise ScheduleError("a match keeps its bots: NEW, BASE and the opponents it began with")

    def open_tables(self) -> tuple[int, int]:
        """Two rounds' tables: a round is made while the one before plays (it waits for
        the one before that); a table plays one deal set in every rotation."""
        return self.design.deals * self.design.tables_per_deal() * 2, self.players

    def feed(self, store: Store) -> Feed:
        """The match's games of ``store`` to play, stopped by the test under ``--sprt``."""
        return Feed(
            self.strategy(),
            store,
            deals=1,
            seed=self.seed,
            ids=MatchIds(paired=self.design.paired),
            stop=MatchTest(self.design, self.players) if self.design.sequential else None,
            field=[spec.name for spec in self.bots],
            tables_per_deal=self.design.tables_per_deal(),
        )

    def status(self) -> Callable[[Store], str]:
        """The progress line's score difference and LLR with the test's bounds, from a
        live test of its own (the runner's reads rounds as they are rated; this one reads
        them too as the display redraws, each round once, none after a verdict)."""
        live = MatchTest(self.design, self.players)

        def status(store: Store) -> str:
            live.advance(store, store.rated_rounds())
            lower, upper = live.sprt.bounds
            return (
                f"diff {live.running.mean:+.4f}, LLR {live.sprt.llr(live.running):.2f} "
                f"[{lower:.2f}, {upper:.2f}]"
            )

        return status

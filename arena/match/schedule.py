"""The schedule of a match without a field: NEW against K-1 copies of BASE, deal set by deal set.

A :class:`~arena.tournament.schedule.Strategy` like the tournament's, so a
match is played, stored, resumed and rated by the tournament's own
machinery. Every round is one table, NEW first and the copies of BASE after
it, played over ``deals`` deal sets in every seat rotation
(:func:`~arena.tournament.schedule.round_games` makes the games): NEW holds
each seat's cards once per deal set. BASE's games against itself alone are
never played: by symmetry they carry no information about NEW.

The rounds' size is fixed by the match, never by ``--jobs``: the sequential
test reads complete rounds in schedule order, so that its verdict falls on
the same games with any number of workers, on a cluster, and after a resume.
The plan is open-ended up to ``max_games``: a test that stops early leaves
the rest unplayed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena.tournament.schedule import Plan, ScheduleError, Standings

#: Deal sets in one round: the granularity of the test's checks (see the module).
DEAL_SETS_PER_ROUND = 4


class MatchSchedule:
    """NEW against the BASE copies, ``deals`` deal sets a round, up to ``max_games`` games."""

    reads_standings = False

    def __init__(
        self, new: str, bases: Sequence[str], *, deals: int = DEAL_SETS_PER_ROUND, max_games: int
    ) -> None:
        players = 1 + len(bases)
        if not 2 <= players <= 7:
            raise ScheduleError(f"--players takes 2..7, not {players}")
        if new in bases or len(set(bases)) != len(bases):
            raise ScheduleError("NEW and each copy of BASE need names of their own")
        if deals < 1 or max_games < 1:
            raise ScheduleError("a match needs at least one deal set and one game")
        self.table = (new, *bases)
        self.deals = deals
        self.per_round = deals * players
        #: Whole rounds only: a deal set is the test's unit, so a partial one is never played.
        self.rounds = max(1, math.ceil(max_games / self.per_round))
        self._made = 0

    def next_round(self, number: int, standings: Standings | None) -> list[tuple[str, ...]] | None:
        """The next round's one table, or None once ``max_games`` are scheduled."""
        if self._made >= self.rounds:
            return None
        self._made += 1
        return [self.table]

    def replay(self, tables: Sequence[tuple[str, ...]]) -> None:
        """Count a round already scheduled (a resumed match)."""
        if list(tables) != [self.table]:
            raise ScheduleError(f"this folder's match seats {list(tables)}, not {[self.table]}")
        self._made += 1

    def plan(self) -> Plan:
        """At most ``rounds`` rounds of one table; NEW plays every game."""
        games = self.rounds * self.per_round
        return Plan("match", games, (games, games), self.rounds, self.per_round)

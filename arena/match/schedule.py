"""The schedule of a match: NEW against BASE, deal set by deal set, in rounds of a fixed size.

A :class:`~arena.tournament.schedule.Strategy` like the tournament's, so a
match is played, stored, resumed and rated by the tournament's own
machinery. Each table plays one deal set in every seat rotation
(:func:`~arena.tournament.schedule.round_games` makes the games); a round is
``deals`` deal sets:

- without a field, ``deals`` tables of NEW and the K-1 copies of BASE: NEW
  holds each seat's cards once per deal set. BASE's games against itself
  alone are never played: by symmetry they carry no information about NEW;
- with a field, two tables per deal set, NEW's and BASE's, with the same
  opponents (K-1 drawn from the field for each deal set) in the same seats;
  the two share the deal set, its seed and its game ids
  (``tables_per_deal`` 2, :class:`MatchIds`).

A round's size is fixed by the match, never by ``--jobs``: the sequential
test reads complete rounds in schedule order, so that its verdict falls on
the same games with any number of workers, on a cluster, and after a resume.
The plan is open-ended up to ``rounds``: a test that stops early leaves the
rest unplayed. A round is a function of its number alone (opponents are
drawn from a generator seeded by the match seed and the round number).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.events.schedule import Plan, ScheduleError, Standings, seeded
from arena.match.stats import Sprt

#: Deal sets in one round when --deals does not say: the test's checks fall every this many.
DEAL_SETS_PER_ROUND = 8
#: What a copy's name adds to its bot's name (BASE~2, BASE~3; a field bot's copies alike).
COPY_MARK = "~"
#: What a paired game's id in the store adds to the id its bots are sent (one per side).
SIDES = ("new", "base")


@dataclass(frozen=True)
class MatchDesign:
    """What defines a match beyond a tournament's settings (stored with it, and compared
    when it is resumed)."""

    new: str
    base: str
    #: Without a field: the copies of BASE at NEW's table (BASE itself first). With one:
    #: the pool the opponents are drawn from.
    opponents: tuple[str, ...]
    paired: bool
    #: Deal sets a round (the sequential test is checked at round boundaries).
    deals: int = DEAL_SETS_PER_ROUND
    #: The test: its hypotheses and error rates (also a fixed-length match's verdict).
    sprt: Sprt = field(default_factory=Sprt)
    #: Whether the test may stop the match at a round boundary (--sprt).
    sequential: bool = False

    def key(self) -> dict[str, Any]:
        """The design as stored."""
        sprt = self.sprt
        return {
            "new": self.new,
            "base": self.base,
            "opponents": list(self.opponents),
            "paired": self.paired,
            "deals": self.deals,
            "sprt": {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta},
            "sequential": self.sequential,
        }

    @classmethod
    def from_key(cls, key: dict[str, Any]) -> MatchDesign:
        """The design a results folder stored (:meth:`key`)."""
        return cls(
            key["new"],
            key["base"],
            tuple(key["opponents"]),
            bool(key["paired"]),
            int(key["deals"]),
            Sprt(**key["sprt"]),
            bool(key["sequential"]),
        )

    def tables_per_deal(self) -> int:
        """Tables sharing one deal set: NEW's and BASE's with a field."""
        return 2 if self.paired else 1


def copies(name: str, count: int) -> list[str]:
    """``count`` seats' names for one bot: itself, then ``NAME~2``, ``NAME~3``, ..."""
    return [name, *(f"{name}{COPY_MARK}{index}" for index in range(2, count + 1))]


def copied_from(name: str) -> str:
    """The bot a copy plays: ``BASE`` for ``BASE~2``."""
    return name.split(COPY_MARK, 1)[0]


class MatchSchedule:
    """The rounds of a match (see the module)."""

    reads_standings = False

    def __init__(self, design: MatchDesign, *, players: int, rounds: int, seed: int) -> None:
        if not 2 <= players <= 7:
            raise ScheduleError.about("{players} takes 2..7, not {n}", n=players)
        if design.deals < 1 or rounds < 1:
            raise ScheduleError("a match needs at least one deal set and one round")
        if not design.paired and len(design.opponents) != players - 1:
            raise ScheduleError(f"{players} seats need {players - 1} copies of BASE")
        if design.paired and len(design.opponents) < players - 1:
            raise ScheduleError(f"{players} seats need {players - 1} opponents from the field")
        self.design = design
        self.players = players
        self.seed = seed
        self.per_round = design.deals * design.tables_per_deal() * players
        self.rounds = rounds
        self._made = 0

    def tables(self, number: int) -> list[tuple[str, ...]]:
        """Round ``number``'s tables, in play order."""
        design = self.design
        if not design.paired:
            return [(design.new, *design.opponents)] * design.deals
        rng = seeded(self.seed, f"match/round/{number}")
        tables: list[tuple[str, ...]] = []
        for _ in range(design.deals):
            drawn = tuple(rng.sample(design.opponents, self.players - 1))
            tables += [(design.new, *drawn), (design.base, *drawn)]
        return tables

    def next_round(self, number: int, standings: Standings | None) -> list[tuple[str, ...]] | None:
        """Round ``number``'s tables, or None past the plan's rounds."""
        if self._made >= self.rounds:
            return None
        self._made += 1
        return self.tables(number)

    def replay(self, tables: Sequence[tuple[str, ...]]) -> None:
        """Count a round already scheduled (a resumed match), checked against this match."""
        self._made += 1
        expected = self.tables(self._made)
        if list(tables) != expected:
            raise ScheduleError(
                f"round {self._made} of this folder seats {list(tables)[:2]}..., not "
                f"{expected[:2]}...: it holds another match"
            )

    def plan(self) -> Plan:
        """At most ``rounds`` rounds; NEW (and with a field BASE) plays in each table it heads."""
        games = self.rounds * self.per_round
        own = games // self.design.tables_per_deal()
        return Plan("match", games, (own, own), self.rounds, self.per_round)


class MatchIds:
    """Game ids of a match, in schedule order: ``m<deal set>-r<rotation>``, the deal set six
    digits wide (wider past a million).

    With a field, NEW's and BASE's games of one deal set and rotation are sent
    the SAME id (a seeded opponent then plays the same moves in both until the
    games diverge); the store, whose ids are unique, adds the side:
    ``m000012-r3~new`` and ``m000012-r3~base``. :func:`sent_id` gives the id
    sent from a stored one.
    """

    def __init__(self, *, paired: bool) -> None:
        self.paired = paired

    def game_id(self, number: int, table: int, deal: int, deal_set: int, rotation: int) -> str:
        """The stored id of one game."""
        shared = f"m{deal_set:06d}-r{rotation}"
        return f"{shared}{COPY_MARK}{SIDES[table % 2]}" if self.paired else shared

    def sent_id(self, game_id: str) -> str:
        """A paired game's id without its side (:func:`sent_id`); "" without a field."""
        return sent_id(game_id) if self.paired else ""


def sent_id(game_id: str) -> str:
    """The id a game's bots are sent for its stored id (the same but for a match's paired
    games, see :class:`MatchIds`)."""
    return game_id.split(COPY_MARK, 1)[0]

"""A match's test and result, read from its results store a round at a time.

The units are those of the complete rounds of the finished prefix, in
schedule order (:mod:`arena.match.units`): never games in the order they
happened to finish, so the verdict is the same with any ``--jobs``, on a
cluster, and after a resume. The sequential test is checked at every round
boundary; its first verdict is the match's result. The rounds played after
that (the runner schedules a round ahead while one is checked) are played
out and listed, not used.

Without ``--sprt`` nothing stops the match early, and its result is the
same likelihood ratio's verdict on all the rounds (H1 past the upper
bound, H0 below the lower one): a fixed-length test whose error rates the
same bounds keep below ``alpha / (1 - beta)`` and ``beta / (1 - alpha)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from arena.events.schedule import Standings
from arena.game.scoring import seat_scores
from arena.match.schedule import MatchDesign, copied_from
from arena.match.stats import Estimate, Running, Sprt, Verdict
from arena.match.units import Unit, Units
from arena.results.store import Placed, Store

#: Games with a fault listed by id (all are counted).
FAULTED_LISTED = 1000


@dataclass
class Side:
    """NEW's or BASE's games (without a field, BASE's copies together)."""

    bot: str
    games: int = 0
    score: float = 0.0
    wins: int = 0
    faults: int = 0

    def add(self, placement: int, score: float, fault: str | None) -> None:
        """Count one seat of one game."""
        self.games += 1
        self.score += score
        self.wins += placement == 1
        self.faults += fault is not None

    def to_dict(self) -> dict[str, Any]:
        """The side as ``--format json`` prints it."""
        games = self.games or 1
        return {
            "bot": self.bot,
            "games": self.games,
            "mean_score": round(self.score / games, 4),
            "wins": self.wins,
            "win_rate": round(self.wins / games, 4),
            "faults": self.faults,
        }


@dataclass
class MatchTest:
    """The units of a match's rounds, read from its store in order, and the test on them.

    Also the runner's stop rule (:class:`arena.events.feed.RoundStop`):
    after each round boundary it reads the rounds up to it and stops the
    schedule on a verdict. ``keep_units`` keeps every unit (for the report);
    the runner keeps none. Memory: the running figures, the LLR after each
    round, and at most :data:`FAULTED_LISTED` ids of games with a fault.
    """

    design: MatchDesign
    players: int
    keep_units: bool = False
    running: Running = field(default_factory=Running)
    #: Rounds read so far (1 .. through).
    through: int = 0
    #: The LLR after each round read (games used then, LLR).
    llr_path: list[tuple[int, float]] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    #: The verdict, once the test reached one, and the round it did at.
    verdict: Verdict = "continue"
    decided_after: int | None = None
    games: int = 0
    #: The games read in which a seat faulted (scored as placed: below every other seat):
    #: how many, and the first :data:`FAULTED_LISTED` of them.
    faults: int = 0
    faulted: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        design = self.design
        self._units = Units(
            design.new,
            design.base,
            games_per_set=self.players * design.tables_per_deal(),
            paired=design.paired,
        )
        self.new = Side(design.new)
        self.base = Side(design.base)

    @property
    def sprt(self) -> Sprt:
        """The test's hypotheses and error rates."""
        return self.design.sprt

    def advance(self, store: Store, through: int) -> Verdict:
        """Read rounds ``self.through + 1`` .. ``through`` (each wholly finished), checking
        the test after each; stop at the first verdict (the rounds after it are not used)."""
        while self.through < through and self.check() == "continue":
            number = self.through + 1
            span = store.round_span(number)
            if span is None:
                break
            before = self.games
            for unit in self._units.add(self._count(store.placed(*span))):
                self.running.add(unit.value)
                if self.keep_units:
                    self.units.append(unit)
            if self.games - before != span[1] - span[0] + 1:
                raise ValueError(f"round {number} is not finished")
            self.through = number
            self.llr_path.append((self.games, self.sprt.llr(self.running)))
        return self.check()

    def _count(self, games: Iterable[Placed]) -> Iterator[Placed]:
        """Pass ``games`` on, counting each side's seats and the faults as they go by."""
        design = self.design
        for game in games:
            self.games += 1
            if any(game.faults):
                self.faults += 1
                if len(self.faulted) < FAULTED_LISTED:
                    self.faulted.append(game.id)
            from_seats = zip(game.seats, game.placements, game.faults, strict=True)
            scores = seat_scores(game.placements)
            for (bot, placement, fault), score in zip(from_seats, scores, strict=True):
                if bot == design.new:
                    self.new.add(placement, score, fault)
                elif bot == design.base or (not design.paired and copied_from(bot) == design.base):
                    self.base.add(placement, score, fault)
            yield game

    def check(self) -> Verdict:
        """The test's verdict on the rounds read (recorded the first time it is not continue);
        only a sequential match has one before its end."""
        if self.verdict == "continue" and self.design.sequential:
            self.verdict = self.sprt.verdict(self.running)
            if self.verdict != "continue":
                self.decided_after = self.through
        return self.verdict

    # -- the runner's stop rule

    def settings(self, rounds: int | None) -> dict[str, Any]:
        """A verdict stands whatever the rounds (the test cannot change on a resume)."""
        return {"sprt": self.design.key()["sprt"]}

    def reached(self, boundary: int, standings: Standings, store: Store) -> dict[str, Any] | None:
        """Stop after round ``boundary`` on a verdict."""
        if self.advance(store, boundary) == "continue":
            return None
        return {"verdict": self.verdict, "decided_after": self.decided_after}


@dataclass(frozen=True)
class MatchResult:
    """A match's result as far as its store goes (see the module)."""

    result: str
    test: MatchTest
    #: Games finished in all, and those after the deciding round (played out, not used).
    played: int
    not_used: tuple[str, ...]
    #: Rounds wholly finished, and scheduled.
    finished_rounds: int
    sequential: bool

    def estimate(self) -> Estimate:
        """The mean unit, its interval, LOS and Elo."""
        return Estimate.of(self.test.running)

    def to_dict(self) -> dict[str, Any]:
        """The stable object ``--format json`` prints."""
        test, estimate = self.test, self.estimate()
        return {
            "result": self.result,
            "games": test.games,
            "pairs": test.running.n,
            "score_diff": _number(estimate.mean),
            "score_diff_ci95": [_number(x) for x in estimate.ci95],
            "elo": _number(estimate.elo),
            "elo_ci95": [_number(x) for x in estimate.elo_ci95],
            "los": _number(estimate.los),
            "worse": estimate.worse,
            "llr": _number(test.sprt.llr(test.running)),
            "llr_bounds": [_number(x) for x in test.sprt.bounds],
            "sprt": self.sequential,
            "elo0": test.sprt.elo0,
            "elo1": test.sprt.elo1,
            "alpha": test.sprt.alpha,
            "beta": test.sprt.beta,
            "played": self.played,
            "not_used": list(self.not_used),
            "faulted_games": test.faults,
            "faulted": test.faulted,
            "new": test.new.to_dict(),
            "base": test.base.to_dict(),
        }

    def lines(self) -> list[str]:
        """The result as ``--format table`` prints it."""
        test, estimate = self.test, self.estimate()
        design, sprt = test.design, test.sprt
        lower, upper = sprt.bounds
        llr = sprt.llr(test.running)
        lo, hi = estimate.ci95
        elo_lo, elo_hi = estimate.elo_ci95
        meaning = {
            "H1": f"{design.new} is better than {design.base}",
            "H0": f"{design.new} is not better than {design.base} by the margin",
            "inconclusive": "no verdict yet",
        }[self.result]
        if estimate.worse:  # "not better" undersells a clearly worse version
            meaning += f"; worse: Elo {estimate.elo:+.1f} [{elo_lo:+.1f}, {elo_hi:+.1f}]"
        when = (
            f"after round {test.decided_after}"
            if test.decided_after is not None
            else f"{'sequential' if self.sequential else 'fixed-length'} test, "
            f"{self.finished_rounds} round{'s' * (self.finished_rounds != 1)}"
        )
        lines = [
            f"Result: {self.result} ({meaning}), {when}: {test.running.n} deal sets, "
            f"{test.games} games",
            f"  score diff  {estimate.mean:+.4f}  95% [{lo:+.4f}, {hi:+.4f}]",
            f"  Elo         {estimate.elo:+.1f}  95% [{elo_lo:+.1f}, {elo_hi:+.1f}]"
            f"  (elo0 {sprt.elo0:g}, elo1 {sprt.elo1:g})",
            f"  LOS         {100 * estimate.los:.1f}%",
            f"  LLR         {llr:+.2f}  bounds [{lower:+.2f}, {upper:+.2f}]"
            f"  (alpha {sprt.alpha:g}, beta {sprt.beta:g})",
        ]
        for side in (test.new, test.base):
            data = side.to_dict()
            lines.append(
                f"  {side.bot}: {data['games']} seats, mean score {data['mean_score']:.4f}, "
                f"first {100 * data['win_rate']:.1f}%, faults {data['faults']}"
            )
        if test.faults:
            shown = ", ".join(test.faulted[:5]) + (", ..." if test.faults > 5 else "")
            lines.append(f"  Games with a fault (scored as placed): {test.faults}: {shown}")
        if self.not_used:
            lines.append(
                f"  Played out after the verdict, not used: {len(self.not_used)} games "
                f"({self.not_used[0]} .. {self.not_used[-1]})"
            )
        return lines


def _number(value: float) -> float | None:
    """A figure for JSON: rounded (never -0.0), None where it is infinite or undefined."""
    return round(value, 4) + 0.0 if math.isfinite(value) else None


def match_result(
    store: Store, design: MatchDesign, players: int, *, keep_units: bool = False
) -> MatchResult:
    """The match's result from ``store``: its test replayed over the finished rounds.

    The test's first verdict at a round boundary is the result; without
    one, ``inconclusive`` (or, without ``--sprt``, the verdict of the LLR on
    every finished round, see the module).
    """
    test = MatchTest(design, players, keep_units=keep_units)
    finished = store.rated_rounds()
    verdict = test.advance(store, finished)
    if not design.sequential:  # a test of fixed length: the same bounds, once at the end
        verdict = test.sprt.verdict(test.running)
    result = "inconclusive" if verdict == "continue" else verdict
    not_used: tuple[str, ...] = ()
    if test.decided_after is not None:
        span = store.round_span(test.decided_after + 1)
        if span is not None:
            later = store.placed(span[0], store.total())
            not_used = tuple(game.id for game in later)
    return MatchResult(result, test, store.done(), not_used, finished, design.sequential)

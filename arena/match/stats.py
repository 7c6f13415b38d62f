"""The statistics of ``arena match``: scores, units, Elo, and the sequential test (SPRT).

Pure functions and small accumulators, no IO: the runner feeds them the
units of the finished prefix, in schedule order.

**Score of a game.** A seat's score from the game's placements is a fact
of the rules: :func:`arena.game.scoring.seat_scores` (a game's scores sum
to K/2, the mean seat scores 1/2).

**Unit.** One deal set, played in each of its K seat rotations:
- without a field, NEW's mean score over the rotations minus 1/2 (BASE
  fills the other seats; under H0 the mean unit is exactly 0 by symmetry);
- with a field, NEW's mean score minus BASE's, each over the same deal
  set, seats and opponents.

**Elo.** The logistic Elo of the score ``s = 1/2 + mean unit`` against 1/2:
``-400 log10(1/s - 1)``; for K = 2 without a field, chess's Elo.

**The test.** A generalized SPRT (M. Van den Bergh's GSPRT) on the unit
with a normal approximation: the log-likelihood ratio of two normal laws of
the unit, with means ``mu(elo1)`` and ``mu(elo0)`` (``mu(E)`` the unit at
Elo E) and the variance estimated from the units themselves:

    LLR = n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 var)

This is the normal approximation of the GSPRT in logistic Elo that
fishtest computes (its ``LLR_logistic``). fastchess's "normalized" model is
the same kind of test, a normal law of the unit whatever the unit's own
law, but measures Elo in units of the unit's spread (normalized Elo); here
elo0/elo1 and the reported Elo are logistic, as bot authors read them.
The units are means of K game scores, not win/draw/loss counts, so no
trinomial or pentanomial model applies, and a normal one is exact in the
limit that matters (many units). The bounds are Wald's: ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``. ``elo0``/``elo1`` are in the logistic Elo above.

- No verdict before :data:`MIN_UNITS` units: the variance estimate of a
  handful of units is too rough to stop on.
- The variance has a floor, :data:`VARIANCE_FLOOR` (the variance of a unit
  that moves by 1/1000 of a game's score range): units that are all equal
  (a deterministic bot against itself, every unit exactly 0) give a large
  negative LLR and stop with H0 ("not better by the margin"), never H1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

#: Units before the test may stop.
MIN_UNITS = 20
#: The smallest variance of a unit the test assumes (see the module).
VARIANCE_FLOOR = 1e-6
#: The largest Elo difference a hypothesis may name (a score of 0.99999: past it the test
#: means nothing, and the score's arithmetic overflows far beyond).
MAX_ELO = 2000
#: z of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Below this, a mean unit or its standard error is rounding noise (units are small
#: fractions: a game's score is a multiple of 1 / (K - 1)).
NOISE = 1e-9

Verdict = Literal["H1", "H0", "continue"]


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference ``elo``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of a mean score (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def unit_of_elo(elo: float) -> float:
    """The mean unit at Elo ``elo``: ``score - 1/2``."""
    return score_of_elo(elo) - 0.5


class Running:
    """Count, mean and variance of units, one at a time (Welford: stable, O(1) memory)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, unit: float) -> None:
        """Take in one unit."""
        self.n += 1
        delta = unit - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (unit - self.mean)

    @property
    def variance(self) -> float:
        """The sample variance (0 below two units)."""
        return self._m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def settled(self) -> tuple[float, float]:
        """The mean and its standard error, each 0 where it is rounding noise: units of a
        bot against its own copy are 0 exactly, but their running mean comes out as
        -1e-17, which read as LOS 0.3% and a score diff of -0.0000."""
        mean = 0.0 if abs(self.mean) < NOISE else self.mean
        if self.n < 2:
            return mean, math.inf
        error = math.sqrt(self.variance / self.n)
        return mean, 0.0 if error < NOISE else error


@dataclass(frozen=True)
class Sprt:
    """A GSPRT of "NEW is better than BASE by elo1, not elo0" (see the module).

    Raises:
        ValueError: from :meth:`checked` for bounds or error rates that make no test.
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def checked(self) -> Sprt:
        """This test, if its settings make one.

        Raises:
            ValueError: naming the setting that does not.
        """
        for name, elo in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not -MAX_ELO <= elo <= MAX_ELO:  # also refuses nan
                raise ValueError(
                    f"{name} takes an Elo difference in -{MAX_ELO}..{MAX_ELO}, not {elo:g}"
                )
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), not {value:g}")
        return self

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) bounds of the LLR."""
        return (
            math.log(self.beta / (1.0 - self.alpha)),
            math.log((1.0 - self.beta) / self.alpha),
        )

    def llr(self, units: Running) -> float:
        """The log-likelihood ratio of H1 against H0 after ``units``."""
        if units.n == 0:
            return 0.0
        mu0, mu1 = unit_of_elo(self.elo0), unit_of_elo(self.elo1)
        variance = max(units.variance, VARIANCE_FLOOR)
        return units.n * (mu1 - mu0) * (2.0 * units.mean - mu0 - mu1) / (2.0 * variance)

    def verdict(self, units: Running) -> Verdict:
        """H1, H0, or continue (always before :data:`MIN_UNITS` units)."""
        if units.n < MIN_UNITS:
            return "continue"
        llr = self.llr(units)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return "continue"


@dataclass(frozen=True)
class Estimate:
    """What the units say of NEW against BASE: the mean unit, its interval, LOS, Elo."""

    units: int
    mean: float
    ci95: tuple[float, float]
    #: Likelihood of superiority: the probability that the true mean unit is above 0.
    los: float
    elo: float
    elo_ci95: tuple[float, float]

    @classmethod
    def of(cls, units: Running) -> Estimate:
        """The estimate from ``units`` (normal approximation of the mean)."""
        mean, error = units.settled
        low, high = mean - Z95 * error, mean + Z95 * error
        if error == 0.0:
            los = 0.5 if mean == 0.0 else float(mean > 0.0)
        elif math.isinf(error):
            los = 0.5
        else:
            los = 0.5 * math.erfc(-mean / error / math.sqrt(2.0))
        return cls(
            units=units.n,
            mean=mean,
            ci95=(low, high),
            los=los,
            elo=elo_of_score(0.5 + mean) + 0.0,  # + 0.0: -400 log10(1) is -0.0
            elo_ci95=(elo_of_score(0.5 + low) + 0.0, elo_of_score(0.5 + high) + 0.0),
        )

    @property
    def worse(self) -> bool:
        """Whether NEW is clearly worse than BASE: the whole 95% interval below 0."""
        return self.ci95[1] < 0.0

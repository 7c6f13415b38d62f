"""TrueSkill ratings of tournament games, with an explicit, stored environment.

The environment is TrueSkill's usual one (mu 25, sigma 25/3, beta 25/6)
with two changes that fit bots playing Knockout Whist:

- no dynamics factor (tau 0, TrueSkill's default is 25/300): tau models a
  person's skill drifting between games, but a bot is a fixed program (a
  changed one is refused, or entered anew as ``BOT@2``), so its skill does
  not move. With tau 25/300 a rating keeps wandering by about the gap
  between bots of close strength and the leaderboard never settles
  (benchmarks/field.py's convergence: Kendall tau-b levels off at ~0.83 on
  a 16-bot field of known order); with tau 0 sigma keeps falling with the
  games played and the order converges.
- a draw probability that fits Knockout Whist's shared places: the share
  of seat pairs that end a game on the same place, measured on random
  four-player... seven-player games (see :data:`DRAW_PROBABILITY`).

The environment is stored with a tournament's results, so a folder made
with other parameters keeps them when it is resumed. Players are ranked by
placement; games are rated in schedule order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import trueskill

from arena.results.skill import FreeForAll

#: Share of seat pairs sharing a place, by table size, measured on 1,500 random
#: games each (2 players never share a place; trueskill needs a small positive value).
DRAW_PROBABILITY: Mapping[int, float] = {
    2: 0.001,
    3: 0.086,
    4: 0.116,
    5: 0.146,
    6: 0.19,
    7: 0.238,
}


@dataclass(frozen=True)
class Environment:
    """The TrueSkill parameters of a tournament (stored with its results)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 0.0
    draw_probability: float = DRAW_PROBABILITY[4]

    @classmethod
    def for_table(cls, players: int) -> Environment:
        """The environment for tables of ``players`` seats."""
        return cls(draw_probability=DRAW_PROBABILITY[players])

    def to_dict(self) -> dict[str, float]:
        """The parameters as stored in ``results.sqlite``."""
        return asdict(self)

    def trueskill(self) -> trueskill.TrueSkill:
        """A trueskill environment with these parameters."""
        return trueskill.TrueSkill(
            mu=self.mu,
            sigma=self.sigma,
            beta=self.beta,
            tau=self.tau,
            draw_probability=self.draw_probability,
        )

    def free_for_all(self) -> FreeForAll:
        """The fast rater of free-for-all games in this environment (see
        :mod:`arena.results.skill`): the package's numbers, a tenth of its cost."""
        env = self.trueskill()
        # Each of its difference factors compares two one-bot teams: the margin of size 2.
        margin = trueskill.calc_draw_margin(self.draw_probability, 2, env)
        return FreeForAll(dynamic=self.tau, beta=self.beta, margin=float(margin))


@dataclass(frozen=True)
class StopRule:
    """Stop once the top ``top`` bots are likely in order (``--stop-top``, ``--stop-confidence``).

    Checked at round boundaries: each adjacent pair of the leaderboard's first
    ``top + 1`` bots (the last pair says the top ``top`` are the right ones)
    must be in order with posterior probability >= ``confidence``. The
    probability is TrueSkill's own estimate that the skill above is the
    larger, Phi((mu_a - mu_b) / sqrt(sigma_a^2 + sigma_b^2)); it is only as
    good as the model's fit (the README and benchmarks/field.py say how
    often it was right).
    """

    top: int
    confidence: float

    def weakest(self, standings: Mapping[str, tuple[float, float]]) -> float:
        """The smallest probability among the pairs checked (1.0 when there is no pair)."""
        rows = sorted(standings.items(), key=lambda item: (-(item[1][0] - 3 * item[1][1]), item[0]))
        pairs = itertools.pairwise(rows[: self.top + 1])
        return min((ordered_probability(a[1], b[1]) for a, b in pairs), default=1.0)

    def holds(self, standings: Mapping[str, tuple[float, float]]) -> bool:
        """Whether the top is ordered well enough to stop."""
        return self.weakest(standings) >= self.confidence

    def settings(self, rounds: int | None) -> dict[str, Any]:
        """What a stop is kept with: a rerun with other settings (more rounds, another
        rule) lifts it and goes on (see :class:`arena.events.feed.Feed`)."""
        return {"rounds": rounds, "stop": [self.top, self.confidence]}

    def reached(
        self, boundary: int, standings: Mapping[str, tuple[float, float]], store: object
    ) -> dict[str, Any] | None:
        """Whether the schedule stops after round ``boundary``: None to go on, else what
        the stop is recorded with (the weakest pair's probability)."""
        if not self.holds(standings):
            return None
        return {"weakest": round(self.weakest(standings), 4)}


#: A new tier starts below a bot that is above the next one with at least this probability.
TIER_CONFIDENCE = 0.95


def tiers(ratings: Sequence[tuple[float, float]]) -> list[int]:
    """Each bot's tier, for ratings (mu, sigma) in leaderboard order: 1 at the top, and a new
    tier below a bot whose skill is above the next one's with probability >= 0.95
    (:func:`ordered_probability`). Bots of one tier are ones the games have not told
    apart: ranks 2 to 7 of bots that play the same moves are one tier, not an order."""
    found: list[int] = []
    for index, rating in enumerate(ratings):
        apart = index and ordered_probability(ratings[index - 1], rating) >= TIER_CONFIDENCE
        found.append((found[-1] + 1 if apart else found[-1]) if found else 1)
    return found


def ordered_probability(above: tuple[float, float], below: tuple[float, float]) -> float:
    """TrueSkill's posterior probability that ``above``'s skill exceeds ``below``'s."""
    spread = math.sqrt(above[1] ** 2 + below[1] ** 2)
    return 0.5 * (1.0 + math.erf((above[0] - below[0]) / (spread * math.sqrt(2.0))))

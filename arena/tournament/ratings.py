"""TrueSkill ratings of tournament games, with an explicit, stored environment.

The environment is TrueSkill's usual one (mu 25, sigma 25/3, beta 25/6,
tau 25/300) with a draw probability that fits Knockout Whist's shared
places: the share of seat pairs that end a game on the same place, measured
on random four-player... seven-player games (see :data:`DRAW_PROBABILITY`).
Players are ranked by placement; games are rated in schedule order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import trueskill

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
    tau: float = 25.0 / 300
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


def rate(
    env: trueskill.TrueSkill,
    ratings: Mapping[str, tuple[float, float]],
    seats: Sequence[str],
    placements: Sequence[int],
) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of the bots of one game, ranked by their placements."""
    groups: list[tuple[Any, ...]] = [(env.create_rating(*ratings[bot]),) for bot in seats]
    rated = env.rate(groups, ranks=list(placements))
    return {bot: (group[0].mu, group[0].sigma) for bot, group in zip(seats, rated, strict=True)}

"""TrueSkill for free-for-all games, the numbers of ``trueskill`` 0.4.5 at a tenth of its cost.

Every finished game of a tournament is rated in schedule order on the
coordinator, so the rating's cost caps a tournament's pace: the
``trueskill`` package spends ~0.45 ms on a 4-seat game, most of it making
and dividing small Gaussian objects for a factor graph it rebuilds per game.
Arena's games are free-for-all (one bot per team, weight 1), and for that
shape the graph is a chain: each bot's skill, its performance, and one
difference factor between each two neighbours in placement order. This
module passes the same messages, in the same order, with the same
arithmetic, on plain floats; including the package's own approximations
(its ``erfc``, the fixed draw margin, the at most 10 sweeps stopping below
a change of 1e-4), so the results are the package's, bit for bit
(``tests/test_skill.py`` compares them game by game over thousands of
random games, with ties).

The names follow the package's factor graph: for the bot in sorted place
``k`` the skill variable r, the performance p and the team performance t,
and between places ``j`` and ``j + 1`` the difference d. A variable is
held as its precision ``pi`` and precision-adjusted mean ``tau``; each
message a factor sent to a variable is kept so that it can be replaced.
Powers are taken with :func:`math.pow` (what ``x ** 2`` calls for a float)
so that a compiled build (``setup.py``) calls the C library too, and gets
the same bits.
"""

# arena: compiled with mypyc
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

#: Sweeps over the difference factors, at most (the package's schedule).
SWEEPS: Final = 10
#: The largest change of a sweep below which the sweeps stop (``trueskill.DELTA``).
MIN_DELTA: Final = 0.0001
#: math.sqrt(2) and 1 / math.sqrt(2 * math.pi), written out: a compiled build inlines a
#: literal, where it looks up a computed global at every use (a test checks the values).
SQRT2: Final = 1.4142135623730951
PDF_SCALE: Final = 0.3989422804014327


def erfc(x: float) -> float:
    """The complementary error function as the package computes it (Numerical Recipes'
    Chebyshev fit ``erfcc``, fractional error below 1.2e-7), not :func:`math.erfc`."""
    z = abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    poly = -0.82215223 + t * 0.17087277
    poly = 1.48851587 + t * poly
    poly = -1.13520398 + t * poly
    poly = 0.27886807 + t * poly
    poly = -0.18628806 + t * poly
    poly = 0.09678418 + t * poly
    poly = 0.37409196 + t * poly
    poly = 1.00002368 + t * poly
    r = t * math.exp(-z * z - 1.26551223 + t * poly)
    return 2.0 - r if x < 0 else r


def cdf(x: float) -> float:
    """The standard normal distribution function (through :func:`erfc`)."""
    return 0.5 * erfc(-x / SQRT2)


def pdf(x: float) -> float:
    """The standard normal density."""
    return PDF_SCALE * math.exp(-(math.pow(x, 2.0) / 2))


def _larger(a: float, b: float) -> float:
    """``max(a, b)``, as the builtin picks (the first unless the second is larger)."""
    return b if b > a else a


def _held(mu: float, sigma: float) -> tuple[float, float]:
    """``(mu, sigma)`` as a package ``Rating`` gives them back: it holds precision and
    precision-adjusted mean, so its mu and sigma are computed from those again."""
    pi = math.pow(sigma, -2.0)
    return (pi * mu) / pi, math.sqrt(1 / pi)


def _sum(a_pi: float, a_tau: float, b_pi: float, b_tau: float, sign: float) -> tuple[float, float]:
    """A sum factor's message to one variable from the two others (``a + sign * b``), each
    less the factor's own message, as the package computes it: a zero precision there
    (an unbounded variance) makes the message's precision zero, not an error."""
    mu = 0.0 + (a_tau / a_pi if a_pi else a_pi)
    mu = mu + sign * (b_tau / b_pi if b_pi else b_pi)
    inverse = 1.0 / a_pi if a_pi else math.inf
    if inverse != math.inf:
        inverse = inverse + 1.0 / b_pi if b_pi else math.inf
    pi = 1.0 / inverse
    return pi, pi * mu


def _pass(pi: float, tau: float) -> tuple[float, float]:
    """A sum factor of one term passing ``(pi, tau)`` on, as the package computes it."""
    mu = 0.0 + (tau / pi if pi else pi)
    pi = 1.0 / (1.0 / pi if pi else math.inf)
    return pi, pi * mu


def _win(diff: float, margin: float) -> tuple[float, float]:
    """TrueSkill's v and w for a difference won by the higher place."""
    x = diff - margin
    denom = cdf(x)
    v = pdf(x) / denom if denom else -x
    w = v * (v + x)
    if not 0 < w < 1:
        raise FloatingPointError("TrueSkill: a rating too far from the others to update")
    return v, w


def _draw(diff: float, margin: float) -> tuple[float, float]:
    """TrueSkill's v and w for a shared place."""
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = cdf(a) - cdf(b)
    if not denom:
        raise FloatingPointError("TrueSkill: a rating too far from the others to update")
    v = ((pdf(b) - pdf(a)) / denom) * (-1 if diff < 0 else +1)
    # The package computes w from v of |diff|: the same magnitude, so the same square.
    v_abs = (pdf(b) - pdf(a)) / denom
    w = math.pow(v_abs, 2.0) + (a * pdf(a) - b * pdf(b)) / denom
    return v, w


class FreeForAll:
    """Rates free-for-all games in one TrueSkill environment (its tau, beta and draw margin)."""

    def __init__(self, *, dynamic: float, beta: float, margin: float) -> None:
        """``dynamic``: the package's tau; ``margin``: its draw margin for two players
        (``trueskill.calc_draw_margin(draw_probability, 2, env)``)."""
        self.dynamic = dynamic
        self.variance = math.pow(beta, 2.0)
        self.margin = margin

    def rate(
        self, ratings: Sequence[tuple[float, float]], placements: Sequence[int]
    ) -> list[tuple[float, float]]:
        """New (mu, sigma) of each seat, ranked by ``placements`` (lower is better, equal shares).

        Raises:
            FloatingPointError: as the package does, for a game its model cannot update.
        """
        count = len(ratings)
        if count < 2:
            raise ValueError("a game to rate needs two seats or more")
        order = sorted(range(count), key=placements.__getitem__)
        dynamic_sq = math.pow(self.dynamic, 2.0)
        places = [_Place(*ratings[k], dynamic_sq, self.variance) for k in order]
        links = [_Link(placements[order[j]] == placements[order[j + 1]]) for j in range(count - 1)]
        _sweep(places, links, self.margin)
        new: list[tuple[float, float]] = [(0.0, 0.0)] * count
        for k, seat in enumerate(order):
            new[seat] = places[k].skill(self.variance)
        return new


class _Place:
    """The bot in one place of the sorted order: its skill r (the prior), its performance
    p (the performance factor's message, p's only one until the end), its team
    performance t, and the team sum factor's message to t."""

    def __init__(self, mu: float, sigma: float, dynamic_sq: float, variance: float) -> None:
        held_mu, held_sigma = _held(mu, sigma)
        self.r_pi = math.pow(math.sqrt(math.pow(held_sigma, 2.0) + dynamic_sq), -2.0)
        self.r_tau = self.r_pi * held_mu
        a = 1.0 / (1.0 + variance * self.r_pi)
        self.p_pi = a * self.r_pi
        self.p_tau = a * self.r_tau
        self.sum_pi, self.sum_tau = _pass(self.p_pi, self.p_tau)
        self.t_pi = self.sum_pi
        self.t_tau = self.sum_tau

    def skill(self, variance: float) -> tuple[float, float]:
        """The new (mu, sigma): the team sum factor's message up to p, then the
        performance factor's up to r."""
        pi, tau = _pass(self.t_pi - self.sum_pi, self.t_tau - self.sum_tau)
        # Less the performance factor's own message, p is the sum factor's.
        msg_pi = (self.p_pi + pi) - self.p_pi
        msg_tau = (self.p_tau + tau) - self.p_tau
        a = 1.0 / (1.0 + variance * msg_pi)
        pi = self.r_pi + a * msg_pi
        tau = self.r_tau + a * msg_tau
        return _held(tau / pi, math.sqrt(1 / pi))


class _Link:
    """Between two neighbouring places: the difference d of their team performances,
    the difference factor's messages (to the left t, the right t, and d) and the
    truncation factor's message to d (won, or a shared place: ``tie``)."""

    def __init__(self, tie: bool) -> None:
        self.tie = tie
        self.d_pi = 0.0
        self.d_tau = 0.0
        self.left_pi = 0.0
        self.left_tau = 0.0
        self.right_pi = 0.0
        self.right_tau = 0.0
        self.diff_pi = 0.0
        self.diff_tau = 0.0
        self.trunc_pi = 0.0
        self.trunc_tau = 0.0


def _sweep(places: list[_Place], links: list[_Link], margin: float) -> None:
    """The package's schedule: along the differences and back until they settle, then
    the messages up to both ends."""
    last = len(links) - 1
    for _ in range(SWEEPS):
        if last == 0:
            _down(links[0], places[0], places[1])
            delta = _truncate(links[0], margin)
        else:
            delta = 0.0
            for j in range(last):
                link = links[j]
                _down(link, places[j], places[j + 1])
                delta = _larger(delta, _truncate(link, margin))
                _up_right(link, places[j], places[j + 1])
            for j in range(last, 0, -1):
                link = links[j]
                _down(link, places[j], places[j + 1])
                delta = _larger(delta, _truncate(link, margin))
                _up_left(link, places[j], places[j + 1])
        if delta <= MIN_DELTA:
            break
    _up_left(links[0], places[0], places[1])
    _up_right(links[last], places[last], places[last + 1])


def _down(link: _Link, left: _Place, right: _Place) -> None:
    """The difference factor to d: left t minus right t, each less this factor's message."""
    pi, tau = _sum(
        left.t_pi - link.left_pi,
        left.t_tau - link.left_tau,
        right.t_pi - link.right_pi,
        right.t_tau - link.right_tau,
        -1.0,
    )
    link.d_pi = (link.d_pi - link.diff_pi) + pi
    link.d_tau = (link.d_tau - link.diff_tau) + tau
    link.diff_pi = pi
    link.diff_tau = tau


def _truncate(link: _Link, margin: float) -> float:
    """The truncation factor to d; returns how much d moved."""
    d_pi = link.d_pi
    d_tau = link.d_tau
    div_pi = d_pi - link.trunc_pi
    div_tau = d_tau - link.trunc_tau
    sqrt_pi = math.sqrt(div_pi)
    diff = div_tau / sqrt_pi
    scaled = margin * sqrt_pi
    v, w = _draw(diff, scaled) if link.tie else _win(diff, scaled)
    denom = 1.0 - w
    pi = div_pi / denom
    tau = (div_tau + sqrt_pi * v) / denom
    link.trunc_pi = (pi + link.trunc_pi) - d_pi
    link.trunc_tau = (tau + link.trunc_tau) - d_tau
    link.d_pi = pi
    link.d_tau = tau
    pi_delta = abs(d_pi - pi)
    if pi_delta == math.inf:
        return 0.0
    return _larger(abs(d_tau - tau), math.sqrt(pi_delta))


def _up_right(link: _Link, left: _Place, right: _Place) -> None:
    """The difference factor to the right t: left t minus d, each less this factor's message."""
    pi, tau = _sum(
        left.t_pi - link.left_pi,
        left.t_tau - link.left_tau,
        link.d_pi - link.diff_pi,
        link.d_tau - link.diff_tau,
        -1.0,
    )
    right.t_pi = (right.t_pi - link.right_pi) + pi
    right.t_tau = (right.t_tau - link.right_tau) + tau
    link.right_pi = pi
    link.right_tau = tau


def _up_left(link: _Link, left: _Place, right: _Place) -> None:
    """The difference factor to the left t: d plus right t, each less this factor's message."""
    pi, tau = _sum(
        link.d_pi - link.diff_pi,
        link.d_tau - link.diff_tau,
        right.t_pi - link.right_pi,
        right.t_tau - link.right_tau,
        1.0,
    )
    left.t_pi = (left.t_pi - link.left_pi) + pi
    left.t_tau = (left.t_tau - link.left_tau) + tau
    link.left_pi = pi
    link.left_tau = tau

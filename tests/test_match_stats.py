"""The statistics of ``arena match``: scores, Elo, estimates, and the SPRT's error rates.

The error rates are measured by simulation (no bot processes): units drawn
from known laws whose mean is exactly the unit at elo0, or at elo1, each run
going on until the test stops (no truncation), 2,000 runs a case with fixed
seeds. Wald's bounds promise P(H1 | elo0) <= alpha / (1 - beta) and
P(H0 | elo1) <= beta / (1 - alpha); each measured rate must be within 3
standard errors of that.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable

import pytest

from arena.events.schedule import Plan, ScheduleError, round_games
from arena.game.scoring import seat_scores
from arena.match.schedule import MatchDesign, MatchIds, MatchSchedule, sent_id
from arena.match.stats import (
    MIN_UNITS,
    Estimate,
    Running,
    Sprt,
    elo_of_score,
    score_of_elo,
    unit_of_elo,
)
from arena.match.units import FinishedGame, Unit, Units

RUNS = 2000


def test_scores_sum_to_half_the_seats_and_ties_share_their_positions() -> None:
    assert seat_scores([1, 2, 3, 4]) == [1.0, 2 / 3, 1 / 3, 0.0]
    assert seat_scores([1, 2, 2, 4]) == [1.0, 0.5, 0.5, 0.0]
    assert seat_scores([2, 1]) == [0.0, 1.0]
    assert seat_scores([1, 1, 3]) == [0.75, 0.75, 0.0]
    for placements in ([1, 2, 2, 4], [1, 1, 1, 4, 5], [3, 1, 2], [1, 1]):
        assert math.isclose(sum(seat_scores(placements)), len(placements) / 2)


def test_elo_is_the_logistic_elo_of_the_score() -> None:
    assert elo_of_score(0.5) == 0.0
    assert math.isclose(elo_of_score(score_of_elo(123.0)), 123.0)
    assert math.isclose(score_of_elo(400.0), 10 / 11)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_the_estimate_of_known_units() -> None:
    units = Running()
    for value in (0.1, 0.3, 0.2, 0.0, 0.4):
        units.add(value)
    estimate = Estimate.of(units)
    assert math.isclose(estimate.mean, 0.2)
    assert math.isclose(units.variance, 0.025)
    half = 1.959963984540054 * math.sqrt(0.025 / 5)
    assert estimate.ci95 == pytest.approx((0.2 - half, 0.2 + half))
    assert estimate.los == pytest.approx(0.5 * math.erfc(-0.2 / math.sqrt(0.005) / math.sqrt(2)))
    assert estimate.elo == pytest.approx(elo_of_score(0.7))


def test_equal_units_stop_with_h0_never_h1() -> None:
    """A deterministic bot against itself: every unit exactly 0."""
    test = Sprt()
    units = Running()
    verdicts = []
    for _ in range(200):
        units.add(0.0)
        verdicts.append(test.verdict(units))
    assert verdicts[: MIN_UNITS - 1] == ["continue"] * (MIN_UNITS - 1)
    assert verdicts[MIN_UNITS - 1] == "H0"
    assert Estimate.of(units).los == 0.5


@pytest.mark.parametrize(
    ("elo0", "elo1", "alpha", "beta"),
    [(0, 5, 0.05, 0.05), (3, 1, 0.05, 0.05), (0, 5, 0.5, 0.05), (0, 5, 0.05, 0.0)],
)
def test_settings_that_make_no_test_are_refused(
    elo0: float, elo1: float, alpha: float, beta: float
) -> None:
    test = Sprt(elo0, elo1, alpha, beta)
    if (elo0, elo1, alpha, beta) == (0, 5, 0.05, 0.05):
        assert test.checked() is test
    else:
        with pytest.raises(ValueError, match="must be"):
            test.checked()


def four_seat_unit(mean: float) -> Callable[[random.Random], float]:
    """Units of a 4-seat deal set: the mean of 4 game scores in {0, 1/3, 2/3, 1} - 1/2,
    each score drawn with probabilities (1/4 - t, 1/4, 1/4, 1/4 + t): mean exactly 1/2 + t."""
    weights = [0.25 - mean, 0.25, 0.25, 0.25 + mean]
    values = [0.0, 1 / 3, 2 / 3, 1.0]

    def draw(rng: random.Random) -> float:
        return sum(rng.choices(values, weights, k=4)) / 4 - 0.5

    return draw


def head_to_head_unit(mean: float) -> Callable[[random.Random], float]:
    """Units of 2-seat game pairs: (score + score) / 2 - 1/2, each game won with 1/2 + mean."""

    def draw(rng: random.Random) -> float:
        return ((rng.random() < 0.5 + mean) + (rng.random() < 0.5 + mean)) / 2 - 0.5

    return draw


def error_rate(
    test: Sprt,
    law: Callable[[float], Callable[[random.Random], float]],
    elo: float,
    wrong: str,
    seed: int,
) -> float:
    """How often ``test`` ends with ``wrong`` on units at ``elo``, over :data:`RUNS` runs."""
    draw = law(unit_of_elo(elo))
    rng = random.Random(seed)
    wrongs = 0
    for _ in range(RUNS):
        units = Running()
        while (verdict := test.verdict(units)) == "continue":
            units.add(draw(rng))
        wrongs += verdict == wrong
    return wrongs / RUNS


@pytest.mark.parametrize(
    ("law", "test"),
    [
        (four_seat_unit, Sprt(elo0=0, elo1=20, alpha=0.05, beta=0.05)),
        (head_to_head_unit, Sprt(elo0=-10, elo1=25, alpha=0.05, beta=0.10)),
    ],
    ids=["4 seats", "2 seats"],
)
def test_the_error_rates_are_what_alpha_and_beta_promise(
    law: Callable[[float], Callable[[random.Random], float]], test: Sprt
) -> None:
    for elo, wrong, promised, seed in (
        (test.elo0, "H1", test.alpha / (1 - test.beta), 1),
        (test.elo1, "H0", test.beta / (1 - test.alpha), 2),
    ):
        rate = error_rate(test, law, elo, wrong, seed)
        error = math.sqrt(promised * (1 - promised) / RUNS)
        assert rate <= promised + 3 * error, (wrong, elo, rate, promised)


def rotations(
    deal_set: int, table: tuple[str, ...], placements: list[tuple[int, ...]]
) -> list[FinishedGame]:
    """The games of one deal set: ``table`` rotated once per game, placements by seat."""
    k = len(table)
    return [
        FinishedGame(
            deal_set * 10 + turn, deal_set, tuple(table[(seat + turn) % k] for seat in range(k)),
            places,
        )
        for turn, places in enumerate(placements)
    ]  # fmt: skip


def values(units: Iterable[Unit]) -> list[float]:
    return [unit.value for unit in units]


def test_a_unit_is_news_mean_score_over_a_complete_deal_set_minus_a_half() -> None:
    units = Units("new", "base", games_per_set=4, paired=False)
    table = ("new", "base", "base~2", "base~3")
    always_first = rotations(0, table, [(1, 2, 3, 4), (2, 3, 4, 1), (3, 4, 1, 2), (4, 1, 2, 3)])
    as_dealt = rotations(1, table, [(1, 2, 3, 4)] * 4)  # seat 0 wins: NEW sits there once
    assert list(units.add(always_first[:3])) == [], "an incomplete deal set is not a unit"
    [first] = units.add([as_dealt[0], always_first[3]])
    assert first == Unit(0, 0.5, (0, 1, 2, 3)), "the games it was made of, in schedule order"
    assert values(units.add(as_dealt[1:])) == [pytest.approx(0.0)]


def test_a_paired_unit_is_news_mean_score_minus_bases_on_the_same_deals() -> None:
    units = Units("new", "base", games_per_set=4, paired=True)
    games = rotations(3, ("new", "x", "y"), [(1, 2, 3), (2, 1, 3)])[:1]
    games += rotations(3, ("base", "x", "y"), [(2, 1, 3), (3, 1, 2)])[:1]
    games += [
        FinishedGame(31, 3, ("x", "new", "y"), (1, 1, 3)),
        FinishedGame(32, 3, ("x", "base", "y"), (1, 2, 3)),
    ]
    assert values(units.add(games)) == [pytest.approx((1.0 + 0.75) / 2 - (0.5 + 0.5) / 2)]
    with pytest.raises(ValueError, match="2 games of 'new' but 0 of 'base'"):
        list(Units("new", "base", games_per_set=2, paired=True).add(games[:1] + games[2:3]))


def all_rounds(schedule: MatchSchedule) -> list[list[tuple[str, ...]]]:
    rounds: list[list[tuple[str, ...]]] = []
    while (tables := schedule.next_round(len(rounds) + 1, None)) is not None:
        rounds.append(tables)
    return rounds


def test_the_match_schedule_seats_new_against_the_base_copies_in_whole_rounds() -> None:
    design = MatchDesign("new", "base", ("base", "base~2", "base~3"), False, deals=2)
    schedule = MatchSchedule(design, players=4, rounds=3, seed=7)
    assert schedule.plan() == Plan("match", 24, (24, 24), 3, 8), "whole rounds of 2 deal sets"
    rounds = all_rounds(schedule)
    assert rounds == [[("new", "base", "base~2", "base~3")] * 2] * 3
    games = list(
        round_games(rounds[0], number=1, first_ordinal=0, first_deal_set=0, deals=1, seed=7,
                    ids=MatchIds(paired=False))
    )  # fmt: skip
    assert [game.game_id for game in games[3:5]] == ["m000000-r3", "m000001-r0"]
    assert sorted(game.seats.index("new") for game in games) == [0, 0, 1, 1, 2, 2, 3, 3]
    resumed = MatchSchedule(design, players=4, rounds=3, seed=7)
    resumed.replay(rounds[0])
    resumed.replay(rounds[1])
    assert resumed.next_round(3, None) is not None and resumed.next_round(4, None) is None
    with pytest.raises(ScheduleError, match="holds another match"):
        MatchSchedule(design, players=4, rounds=3, seed=7).replay([("new", "x", "y", "z")])
    with pytest.raises(ScheduleError, match=r"players takes 2\.\.7, not 8"):
        MatchSchedule(design, players=8, rounds=3, seed=7)


def test_with_a_field_new_and_base_share_deals_seats_opponents_and_sent_ids() -> None:
    design = MatchDesign("new", "base", ("a", "b", "c", "d"), True, deals=3)
    rounds = all_rounds(MatchSchedule(design, players=3, rounds=2, seed=5))
    assert rounds == all_rounds(MatchSchedule(design, players=3, rounds=2, seed=5)), "seeded"
    assert rounds[0] != rounds[1], "each round draws its own opponents"
    for tables in rounds:
        assert len(tables) == 6
        for ours, theirs in zip(tables[::2], tables[1::2], strict=True):
            assert (ours[0], theirs[0]) == ("new", "base") and ours[1:] == theirs[1:]
            assert len(set(ours[1:])) == 2 and set(ours[1:]) <= set(design.opponents)
    games = list(
        round_games(rounds[0], number=1, first_ordinal=0, first_deal_set=0, deals=1, seed=5,
                    ids=MatchIds(paired=True), tables_per_deal=2)
    )  # fmt: skip
    assert len(games) == 18 and len({game.game_id for game in games}) == 18
    for new, base in zip(games[0:3] + games[6:9], games[3:6] + games[9:12], strict=True):
        assert (new.deal_set, new.seed, new.rotation) == (base.deal_set, base.seed, base.rotation)
        assert [bot.replace("new", "base") for bot in new.seats] == list(base.seats)
        assert new.game_id.endswith("~new") and base.game_id.endswith("~base")
        assert sent_id(new.game_id) == sent_id(base.game_id) == new.game_id[: -len("~new")]
    assert [game.deal_set for game in games[::3]] == [0, 0, 1, 1, 2, 2]

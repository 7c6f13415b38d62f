"""The schedules as pure functions: balance, repeats, determinism and resume.

Properties run over field sizes and seat counts (hypothesis) against the
pure schedulers; the games are expanded with the same code the feed uses.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.events.schedule import ScheduleError
from arena.results.ratings import StopRule, ordered_probability
from arena.tournament.schedule import (
    RoundRobin,
    Sampled,
    Swiss,
    cyclic_orbits,
    repeat_lower_bound,
    round_robin_games,
)

#: Tables looked at per case where a whole round-robin plan would be too long for a test.
PREFIX_TABLES = 1500


def names(n: int) -> list[str]:
    return [f"b{i:02d}" for i in range(n)]


def spread(counts: Counter[str], bots: Sequence[str]) -> int:
    values = [counts[bot] for bot in bots]
    return max(values) - min(values)


# ---------------------------------------------------------------------- round-robin


@pytest.mark.parametrize(
    ("n", "k"), [(n, k) for n in range(2, 13) for k in range(1, min(n, 7) + 1)]
)
def test_the_orbits_hold_every_subset_once(n: int, k: int) -> None:
    seen: set[tuple[int, ...]] = set()
    for subset, size in cyclic_orbits(n, k):
        for shift in range(size):
            member = tuple(sorted((x + shift) % n for x in subset))
            assert member not in seen
            seen.add(member)
    assert len(seen) == math.comb(n, k)


def test_round_robin_plays_every_table_with_duplicate_deals() -> None:
    bots = names(7)
    games = round_robin_games(bots, players=3, deals=2, seed=4)
    tables = Counter(frozenset(game.seats) for game in games)
    assert set(tables) == {frozenset(t) for t in itertools.combinations(bots, 3)}
    assert set(tables.values()) == {2 * 3}
    assert [g.game_id for g in games] == sorted(g.game_id for g in games)
    assert RoundRobin(bots, players=3, deals=2).plan().games == len(games)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 7), extra=st.integers(0, 33), gauntlet=st.booleans())
def test_round_robin_balance(k: int, extra: int, gauntlet: bool) -> None:
    """At every block's end every bot has played as many tables as any other; inside a
    block no bot is more than K tables ahead (the gauntlet bot aside, which plays all)."""
    n = k + extra
    if gauntlet and n == k:
        n += 1
    bots = names(n)
    challenger = bots[-1] if gauntlet else None
    others = [bot for bot in bots if bot != challenger]
    strategy = RoundRobin(bots, players=k, deals=1, gauntlet=challenger)
    counts: Counter[str] = Counter()
    seen = 0
    number = 1
    while seen < PREFIX_TABLES and (tables := strategy.next_round(number, None)) is not None:
        for table in tables:
            counts.update(table)
            assert spread(counts, others) <= k
            seen += 1
        assert spread(counts, others) == 0, "a block's end leaves every bot level"
        if challenger:
            assert counts[challenger] == seen
        number += 1
    if seen < PREFIX_TABLES:
        assert seen == strategy.tables()


def test_round_robin_plan_counts_are_formulas() -> None:
    plan = RoundRobin(names(200), players=4, deals=5).plan()
    assert plan.games == math.comb(200, 4) * 5 * 4
    assert plan.per_bot == (math.comb(199, 3) * 20,) * 2
    gauntlet = RoundRobin(names(10), players=3, deals=1, gauntlet="b09").plan()
    assert gauntlet.games == math.comb(9, 2) * 3
    assert gauntlet.per_bot == (8 * 3, math.comb(9, 2) * 3)


# ---------------------------------------------------------------------- sampled and swiss


def play_rounds(strategy: Sampled, rounds: int) -> list[list[tuple[str, ...]]]:
    made = []
    for number in range(1, rounds + 1):
        tables = strategy.next_round(number, None)
        assert tables is not None
        made.append(tables)
    return made


@settings(max_examples=80, deadline=None)
@given(
    k=st.integers(2, 7),
    extra=st.integers(0, 33),
    rounds=st.integers(1, 8),
    gauntlet=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_sampled_balance(k: int, extra: int, rounds: int, gauntlet: bool, seed: int) -> None:
    """Every prefix of the games keeps the bots' game counts within one table's games."""
    n = k + extra + (1 if gauntlet else 0)
    bots = names(n)
    challenger = bots[0] if gauntlet else None
    deals = 2
    strategy = Sampled(bots, players=k, deals=deals, seed=seed, rounds=rounds, gauntlet=challenger)
    others = [bot for bot in bots if bot != challenger]
    counts: Counter[str] = Counter()
    for tables in play_rounds(strategy, rounds):
        assert all(len(table) == k for table in tables)
        assert len({bot for table in tables for bot in table if bot != challenger}) == len(
            tables
        ) * (k - (1 if challenger else 0)), "a bot sits at one table a round"
        for table in tables:
            for _ in range(deals * k):  # the table's games, one by one
                counts.update(table)
                assert spread(counts, others) <= deals * k
    size = k - (1 if challenger else 0)
    assert sum(counts[b] for b in others) == rounds * (len(others) // size) * size * deals * k
    plan = strategy.plan()
    assert plan.per_bot[0] <= min(counts[b] for b in others)
    assert max(counts[b] for b in others) <= plan.per_bot[1]


def test_sampled_uses_known_designs_without_repeats() -> None:
    for n, k, rounds in [(16, 4, 5), (9, 3, 4), (25, 5, 6), (12, 2, 11), (64, 4, 21), (27, 3, 13)]:
        strategy = Sampled(names(n), players=k, deals=1, seed=3, rounds=rounds)
        play_rounds(strategy, rounds)
        assert strategy.repeats() == 0, (n, k)


@pytest.mark.parametrize(("n", "k", "rounds"), [(10, 4, 6), (13, 3, 6), (20, 4, 8), (30, 5, 9)])
def test_sampled_repeats_are_at_least_the_bound(n: int, k: int, rounds: int) -> None:
    strategy = Sampled(names(n), players=k, deals=1, seed=5, rounds=rounds)
    play_rounds(strategy, rounds)
    assert strategy.repeats() >= repeat_lower_bound(n, k, rounds)


def test_a_thousand_bots_meet_no_one_twice_in_three_rounds() -> None:
    strategy = Sampled(names(1000), players=4, deals=1, seed=1, rounds=3)
    play_rounds(strategy, 3)
    assert strategy.repeats() == 0


def test_sampled_is_deterministic_and_resumes_the_same() -> None:
    bots = names(11)
    whole = play_rounds(Sampled(bots, players=3, deals=1, seed=8, rounds=6), 6)
    assert whole == play_rounds(Sampled(bots, players=3, deals=1, seed=8, rounds=6), 6)
    assert whole != play_rounds(Sampled(bots, players=3, deals=1, seed=9, rounds=6), 6)
    resumed = Sampled(bots, players=3, deals=1, seed=8, rounds=6)
    for tables in whole[:3]:
        resumed.replay(tables)
    assert [resumed.next_round(n, None) for n in (4, 5, 6)] == whole[3:]
    assert resumed.next_round(7, None) is None


def test_swiss_seats_adjacent_standings_together() -> None:
    bots = names(12)
    strategy = Swiss(bots, players=4, deals=1, seed=2, rounds=5)
    standings = {bot: (30.0 - i, 1.0) for i, bot in enumerate(bots)}
    tables = strategy.next_round(3, standings)
    assert tables is not None
    assert [set(t) for t in tables] == [set(bots[0:4]), set(bots[4:8]), set(bots[8:12])]
    # The same tables again would all be repeats: a swap with the next table cuts them.
    again = strategy.next_round(4, standings)
    assert again is not None
    assert all(set(t) not in [set(u) for u in tables] for t in again)
    assert strategy.repeats() < 3 * 6


def test_swiss_before_any_standings_is_sampled() -> None:
    bots = names(16)
    swiss = Swiss(bots, players=4, deals=1, seed=2, rounds=5)
    sampled = Sampled(bots, players=4, deals=1, seed=2, rounds=5)
    assert swiss.next_round(1, None) == sampled.next_round(1, None)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": 0}, "rounds takes a number >= 1"),
        ({"players": 5}, "4 bots cannot fill a 5-seat table"),
        ({"gauntlet": "zz"}, "not among the bots"),
    ],
)
def test_impossible_sampled_schedules(kwargs: dict[str, object], message: str) -> None:
    settings_ = {"players": 3, "deals": 1, "seed": 0, "rounds": 2, **kwargs}
    with pytest.raises(ScheduleError, match=message):
        Sampled(names(4), **settings_)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the stop rule


def test_stop_rule_reads_the_order_not_sigma() -> None:
    rule = StopRule(top=2, confidence=0.9)
    apart = {"a": (40.0, 1.0), "b": (30.0, 1.0), "c": (20.0, 1.0), "d": (19.9, 1.0)}
    assert rule.holds(apart)  # a > b > c clearly; c vs d is below the top 2 + 1
    close = {"a": (40.0, 1.0), "b": (30.0, 1.0), "c": (29.5, 1.0), "d": (10.0, 1.0)}
    assert not rule.holds(close)  # b vs c decides who is second
    assert rule.weakest(close) == pytest.approx(ordered_probability((30.0, 1.0), (29.5, 1.0)))
    assert ordered_probability((25.0, 8.0), (25.0, 0.7)) == pytest.approx(0.5)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 7),
    extra=st.integers(0, 33),
    rounds=st.integers(3, 8),
    seed=st.integers(0, 1000),
)
def test_swiss_balance(k: int, extra: int, rounds: int, seed: int) -> None:
    """Swiss seats by standing, not by games played: counts stay within two tables' games."""
    bots = names(k + extra)
    strategy = Swiss(bots, players=k, deals=1, seed=seed, rounds=rounds)
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    for number in range(1, rounds + 1):
        standings = {bot: (rng.gauss(25, 3), 1.0) for bot in bots} if number > 2 else None
        tables = strategy.next_round(number, standings)
        assert tables is not None
        assert all(len(set(table)) == k for table in tables)
        for table in tables:
            for _ in range(k):
                counts.update(table)
                assert spread(counts, bots) <= 2 * k

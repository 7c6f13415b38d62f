"""Deck sources: reproducible per (seed, purpose, k), prefix-stable, uniform enough."""

from __future__ import annotations

import random
from collections import Counter

from arena.game.decks import RandomDecks, SeededDecks, StackedDecks


def test_seeded_decks_depend_only_on_seed_purpose_and_k() -> None:
    a, b = SeededDecks(7), SeededDecks(7)
    assert a.draw("deal", 3, 52) == b.draw("deal", 3, 52)
    assert sorted(a.draw("deal", 3, 52)) == list(range(52))
    assert a.draw("deal", 3, 52) != a.draw("deal", 4, 52)
    assert a.draw("deal", 3, 52) != a.draw("cut", 3, 52)
    assert a.draw("deal", 3, 52) != SeededDecks(8).draw("deal", 3, 52)


def test_drawing_fewer_cards_gives_a_prefix() -> None:
    decks = SeededDecks(123)
    full = decks.draw("deal", 1, 52)
    for count in (0, 1, 5, 29, 51):
        assert decks.draw("deal", 1, count) == full[:count]


def test_seeded_decks_are_roughly_uniform() -> None:
    """Each card lands on top about 1/52 of the time (a loose chi-square bound)."""
    decks = SeededDecks(99)
    trials = 26_000
    tops = Counter(decks.draw("deal", k, 1)[0] for k in range(trials))
    expected = trials / 52
    chi2 = sum((tops[c] - expected) ** 2 / expected for c in range(52))
    assert chi2 < 110  # 51 degrees of freedom: p < 1e-5 beyond this


def test_stacked_decks_put_given_cards_on_top() -> None:
    decks = StackedDecks({("deal", 1): [51, 50]})
    drawn = decks.draw("deal", 1, 52)
    assert drawn[:3] == [51, 50, 0]
    assert sorted(drawn) == list(range(52))
    assert decks.draw("deal", 2, 5) == SeededDecks(0).draw("deal", 2, 5)


def test_random_decks_draw_distinct_cards() -> None:
    cards = RandomDecks(random.Random(1)).draw("deal", 1, 52)
    assert sorted(cards) == list(range(52))

"""The fast free-for-all rater gives the ``trueskill`` package's numbers, bit for bit.

Both builds are checked: the module as imported (compiled by the install
where a C compiler exists) and its Python source loaded on its own, so the
fallback of a machine without a compiler is tested here too.
"""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena.results.skill
from arena.results.ratings import DRAW_PROBABILITY, Environment

SOURCE = Path(arena.results.skill.__file__).with_name("skill.py")


def _source_module() -> ModuleType:
    """``skill.py`` itself, imported under another name (never the compiled build)."""
    spec = importlib.util.spec_from_file_location("arena_skill_source", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-free, but keep imports of it consistent
    spec.loader.exec_module(module)
    return module


BUILDS = {"as installed": arena.results.skill, "python source": _source_module()}
Rater = Callable[[list[tuple[float, float]], list[int]], list[tuple[float, float]]]


def _rater(build: ModuleType, players: int) -> Rater:
    environment = Environment.for_table(players)
    fast = environment.free_for_all()
    rater = build.FreeForAll(dynamic=fast.dynamic, beta=environment.beta, margin=fast.margin)
    return rater.rate  # type: ignore[no-any-return]


def _reference(players: int) -> Rater:
    """The ``trueskill`` package itself, in the tournament's environment."""
    env = Environment.for_table(players).trueskill()

    def rated(ratings: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
        groups: list[tuple[Any, ...]] = [(env.create_rating(*rating),) for rating in ratings]
        return [(group[0].mu, group[0].sigma) for group in env.rate(groups, ranks=list(places))]

    return rated


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("players", sorted(DRAW_PROBABILITY))
def test_games_in_sequence_rate_as_the_package(build: str, players: int) -> None:
    """A small league played out: ratings carried from game to game (ties included) stay
    equal to the package's, not merely close."""
    fast, reference = _rater(BUILDS[build], players), _reference(players)
    rng = random.Random(players)
    field = 2 * players
    ratings = dict.fromkeys(range(field), (25.0, 25.0 / 3))
    for _ in range(400):
        seated = rng.sample(range(field), players)
        places = [rng.randint(1, players) for _ in seated]
        before = [ratings[bot] for bot in seated]
        new = fast(before, places)
        assert new == reference(before, places), (before, places)
        ratings.update(zip(seated, new, strict=True))


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 7),
    data=st.data(),
)
def test_any_game_rates_as_the_package(players: int, data: st.DataObject) -> None:
    """Ratings far apart, sigmas tiny and large, any placements (ties shared)."""
    ratings = data.draw(
        st.lists(
            st.tuples(st.floats(-20, 70), st.floats(0.05, 12)),
            min_size=players,
            max_size=players,
        )
    )
    places = data.draw(st.lists(st.integers(1, players), min_size=players, max_size=players))
    try:
        expected: list[tuple[float, float]] | type[FloatingPointError] = _reference(players)(
            ratings, places
        )
    except FloatingPointError:
        expected = FloatingPointError
    for build in BUILDS.values():
        fast = _rater(build, players)
        if expected is FloatingPointError:
            with pytest.raises(FloatingPointError):
                fast(ratings, places)
        else:
            assert fast(ratings, places) == expected


def test_a_game_the_model_cannot_update_raises_as_the_package_does() -> None:
    """A winner rated far below the loser, both certain: the package raises, and so do we."""
    ratings, places = [(0.0, 0.1), (400.0, 0.1)], [1, 2]
    with pytest.raises(FloatingPointError):
        _reference(2)(ratings, places)
    for build in BUILDS.values():
        with pytest.raises(FloatingPointError):
            _rater(build, 2)(ratings, places)


def test_the_constants_written_out_are_the_computed_ones() -> None:
    assert math.sqrt(2) == arena.results.skill.SQRT2
    assert 1 / math.sqrt(2 * math.pi) == arena.results.skill.PDF_SCALE


def test_one_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="two seats"):
        _rater(arena.results.skill, 2)([(25.0, 8.0)], [1])

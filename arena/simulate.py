"""In-process random play: a whole game without any bot process.

Used by ``arena simulate`` (the quickest look at the rules in action) and by
tests; the players are seeded random choosers, so the same seed gives the
same game.
"""

from __future__ import annotations

import random

from arena.game import GameState, Rules


def random_game(rules: Rules, seed: int, *, game_id: str = "") -> GameState:
    """Play one complete game of uniformly random legal moves.

    The deals come from ``seed``; the players' choices from a generator
    seeded with the same value, so the game is a function of ``seed`` alone.
    """
    return _played(rules, seed, game_id)[0]


def mean_decisions(rules: Rules, games: int) -> float:
    """Decisions a game of ``rules`` takes, on average over ``games`` random games (a
    dry run's estimate of a plan's length)."""
    return sum(_played(rules, seed, "")[1] for seed in range(games)) / games


def _played(rules: Rules, seed: int, game_id: str) -> tuple[GameState, int]:
    """A random game (see :func:`random_game`) and the decisions it took."""
    state = GameState(rules, seed, game_id=game_id)
    choose = random.Random(seed).choice
    decisions = 0
    while (pending := state.pending) is not None:
        state.apply(choose(pending.legal))
        decisions += 1
    return state, decisions

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
    state = GameState(rules, seed, game_id=game_id)
    choose = random.Random(seed).choice
    while (pending := state.pending) is not None:
        state.apply(choose(pending.legal))
    return state

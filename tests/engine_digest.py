"""A fingerprint of the engine's behaviour, computed the same way by either build.

:mod:`tests.test_compiled` runs :func:`digest` in this process (the compiled
engine, where the install built it) and in a child that imports the Python
source only. Equal digests mean the two builds play, log, copy, pickle,
rebuild positions and explain illegal moves identically, over random games
with every rule option.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from collections.abc import Iterator

from arena.errors import IllegalMove
from arena.game import GameState, Rules, request_state
from arena.game.cards import SUIT_CHARS
from arena.game.state import HANDS, PLAY

#: Every option that makes a situation of its own on: random games with these rules
#: reach dogs, blind dogs, face-up dogs, knocks, rainbows, redeals and tie cuts.
EVERY_SITUATION = Rules(
    players=5,
    blind_dog=True,
    upside_dog=True,
    rainbow=True,
    no_picture=True,
    eliminated_deals=True,
    trumps_broken=True,
)
#: Rule sets between them switching every option on.
RULE_SETS = (
    Rules(),
    Rules(players=2),
    Rules(players=7, dog_life="expanded", tie_break="random"),
    EVERY_SITUATION,
    Rules(players=3, dog_life="none", sweep_wins=True, dog_first_hand_only=True),
)
#: Moves to try where they are not legal, every kind of mistake among them.
WRONG = ("XX", "knock", "blind", "declare", "S", "AS", "2C", "TD", "QH")


def rebuild(state: GameState, horizon: int = HANDS) -> GameState:
    """``state`` rebuilt from the facts a search bot knows (all hands filled in)."""
    assert state.pending is not None
    return GameState.from_position(
        state.rules,
        state.decks,
        hand=state.hand,
        dealer=state.dealer,
        trump=SUIT_CHARS[state.trump],
        turn_up=state.turn_up,
        statuses=state.statuses,
        blind=state.blind,
        hands=state.hands,
        tricks=state.tricks,
        played=state.played,
        trick=state.trick,
        trick_leader=state.order[0],
        to_act=state.pending.seat,
        zero_event=state.zero_event,
        had_dog=state.had_dog,
        out_hand=state.out_hand,
        deals=state.deals,
        cuts=state.cuts,
        dog_cards=state.dog_cards,
        horizon=horizon,
        history=state.history,
    )


def _game(rules: Rules, seed: int) -> Iterator[object]:
    """Everything observable of one random game, a copy of it and a rebuilt position."""
    rng = random.Random(seed)
    state = GameState(rules, seed, game_id=f"g{seed}")
    twin: GameState | None = None
    thawed: GameState | None = None
    while (pending := state.pending) is not None:
        yield request_state(state, pending.seat)
        wrong = [move for move in WRONG if move not in pending.legal]
        # An illegal move, and a legal one from the wrong seat: nothing changes, and it says why.
        for move, seat in (
            (rng.choice(wrong), pending.seat),
            (pending.legal[0], (pending.seat + 1) % rules.players),
        ):
            try:
                state.apply(move, seat)
            except IllegalMove as error:
                yield str(error)
            else:
                raise AssertionError(f"{move!r} from seat {seat} was applied")
        if twin is None and pending.action == PLAY and rng.random() < 0.1:
            twin = state.copy(record=True)
            thawed = pickle.loads(pickle.dumps(state))  # decks included
            rebuilt = rebuild(state)
            yield rebuilt.legal_moves()
        if rng.random() < 0.01:
            state.record_fault(pending.seat, "timeout", "late")
        state.apply(rng.choice(pending.legal))
    yield state.log
    yield state.placements
    for other in (twin, thawed):
        if other is not None:
            while (pending := other.pending) is not None:
                other.apply(pending.legal[-1])
            yield other.log
    if twin is not None and thawed is not None:  # a pickled game plays on as its copy
        assert thawed.log == twin.log


def digest(games: int) -> str:
    """SHA-256 of everything ``games`` random games per rule set showed."""
    hasher = hashlib.sha256()
    for rules in RULE_SETS:
        for seed in range(games):
            for item in _game(rules, seed):
                hasher.update(json.dumps(item, sort_keys=True).encode())
    return hasher.hexdigest()


if __name__ == "__main__":
    print(digest(int(sys.argv[1])))

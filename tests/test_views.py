"""Views: a seat sees its own cards and the public record, never hidden cards."""

from __future__ import annotations

import random

from arena.game import GameState, Rules, explain_request, hand_start, request_state
from arena.game.cards import CARD_TEXT
from arena.game.views import current_leader
from tests.engine_digest import RULE_SETS, WRONG


def test_request_state_has_exactly_the_protocol_fields() -> None:
    state = GameState(Rules(), 11)
    assert state.pending is not None
    view = request_state(state, state.pending.seat)
    assert set(view) == {
        "seat", "hand", "hand_size", "dealer", "trump", "cards", "leader",
        "trick", "played", "tricks", "statuses", "turn_up", "history", "blind", "knocked",
    }  # fmt: skip
    assert view["hand"] == 1
    assert view["turn_up"] is not None and view["trump"] == view["turn_up"][1]
    assert len(view["cards"]) == 7
    assert view["leader"] == state.pending.seat == (state.dealer + 1) % 4


def test_views_of_different_seats_share_no_hidden_card() -> None:
    state = GameState(Rules(players=5), 3)
    hands = [set(request_state(state, seat)["cards"]) for seat in range(5)]
    for seat in range(5):
        for other in range(5):
            if seat != other:
                assert not hands[seat] & hands[other]


def test_hand_start_is_built_from_the_deal_record() -> None:
    state = GameState(Rules(players=3), 8)
    deal = next(r for r in state.log if r["type"] == "deal")
    message = hand_start(deal, 1)
    assert message == {
        "type": "hand_start",
        "hand": 1,
        "dealer": state.dealer,
        "cards": state.hands[1],
        "hand_size": 7,
        "turn_up": state.turn_up,
        "statuses": ["active"] * 3,
    }


def test_leader_follows_the_first_card_of_the_trick() -> None:
    state = GameState(Rules(), 21)
    assert state.pending is not None
    first = state.pending.seat
    state.apply(state.pending.legal[0])
    assert current_leader(state) == first
    view = request_state(state, state.pending.seat if state.pending else 0)
    assert view["trick"][0][0] == first
    assert view["played"] == view["trick"]


def test_views_are_snapshots() -> None:
    """Changing a view never changes the game."""
    state = GameState(Rules(), 4)
    assert state.pending is not None
    seat = state.pending.seat
    view = request_state(state, seat)
    view["cards"].clear()
    view["statuses"][0] = "out"
    assert len(state.hands[seat]) == 7
    assert state.statuses[0] == "active"
    rng = random.Random(0)
    while (pending := state.pending) is not None:
        state.apply(rng.choice(pending.legal))
    assert state.placements is not None


def test_a_request_alone_explains_a_wrong_move_as_the_engine_does() -> None:
    """A person's seat knows only its requests: its reasons must be the engine's, word for
    word, for every kind of mistake, at every decision of random games of every option."""
    explained = set()
    for rules in RULE_SETS:
        for seed in range(6):
            state = GameState(rules, seed)
            rng = random.Random(seed)
            while (pending := state.pending) is not None:
                request = {
                    "action": pending.action,
                    "legal": pending.legal,
                    "state": request_state(state, pending.seat),
                }
                for move in (*WRONG, *(card for card in CARD_TEXT if card not in pending.legal)):
                    if move in pending.legal:
                        continue
                    reason = explain_request(request, move)
                    assert reason == state.explain(move, pending.seat)
                    explained.add(reason.split(": ", 1)[1])
                state.apply(rng.choice(pending.legal))
    # Every reason the engine gives for a wrong move came up.
    for reason in (
        "it is not in your hand",
        "you must follow",
        "trumps (",  # trumps (hearts) have not been broken
        "a blind dog answers 'blind'",
        "a dog must play its card on the last trick",
        "only a dog may knock",
        "only a blind dog plays its card unseen",
        "expected one of",
        "name trumps with one of",
        "answer rainbow with pass or declare",
        "answer no_picture with pass or declare",
    ):
        assert any(text.startswith(reason) for text in explained), reason

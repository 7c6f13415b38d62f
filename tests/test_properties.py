"""Property tests: invariants of every game, over seeds x rule options x 2..7 players.

Each game is played by a seeded random chooser; at every decision the seat's
view is checked for leaks, and afterwards the whole log is re-checked by an
independent reading of the rules (trick winners, follow suit, hand sizes,
card accounting, statuses, placements).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.game import GameState, Rules, SeededDecks, request_state
from arena.game.cards import CARD_INDEX
from arena.game.state import DOG, KNOCK, PLAY, TRUMP
from tests.engine_digest import EVERY_SITUATION, rebuild

JSON = dict[str, Any]

rules_strategy = st.builds(
    Rules,
    players=st.integers(2, 7),
    dog_life=st.sampled_from(["standard", "expanded", "none"]),
    dog_first_hand_only=st.booleans(),
    blind_dog=st.booleans(),
    upside_dog=st.booleans(),
    rainbow=st.booleans(),
    no_picture=st.booleans(),
    trumps_broken=st.booleans(),
    eliminated_deals=st.booleans(),
    sweep_wins=st.booleans(),
    tie_break=st.sampled_from(["cut", "random"]),
)


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return CARD_INDEX[card] >> 2


def canonical(cards: list[str]) -> list[str]:
    return sorted(cards, key=CARD_INDEX.__getitem__)


def visible_cards(view: JSON) -> set[str]:
    """Every card text anywhere in a view."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and value in CARD_INDEX:
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(view)
    return found


def play_checked(rules: Rules, seed: int, chooser_seed: int) -> GameState:
    """Play a random game, checking each seat's view at each decision."""
    state = GameState(rules, seed)
    rng = random.Random(chooser_seed)
    while (pending := state.pending) is not None:
        seat = pending.seat
        view = request_state(state, seat)
        own = set(view["cards"])
        allowed = own | {card for _, card in view["played"]}
        if view["turn_up"]:
            allowed.add(view["turn_up"])
        allowed |= set(view.get("dog_cards", {}).values())
        assert visible_cards(view) <= allowed, "a view shows a card the seat may not see"
        if state.statuses[seat] == DOG and state.blind[seat]:
            assert view["cards"] == []
        else:
            assert view["cards"] == canonical(state.hands[seat])
        if pending.action == TRUMP:
            assert pending.legal == ["C", "H", "D", "S"]
            assert len(view["cards"]) == view["hand_size"], "chooser must see a full hand"
        if pending.action == PLAY:
            cards = [m for m in pending.legal if m in CARD_INDEX]
            assert cards == canonical(cards), "legal cards out of canonical order"
            if KNOCK in pending.legal:
                assert pending.legal[0] == KNOCK
        assert json.loads(json.dumps(view)) == view
        state.apply(rng.choice(pending.legal))
    return state


def check_log(state: GameState) -> None:
    """Re-check the whole game from its log, independently of the engine's code."""
    rules = state.rules
    n = rules.players
    log = state.log
    assert log[0]["event"] == "cut" and log[0]["purpose"] == "dealer"
    assert log[-1]["type"] == "game_end"
    statuses = ["active"] * n
    hand_no = 0
    trump = ""
    dealt: list[list[str]] = []
    played_this_hand: list[str] = []
    current: list[list[Any]] = []
    declared = False
    deals = 0
    for record in log:
        kind = record["type"]
        if kind == "deal":
            deals += 1
            assert record["statuses"] == statuses
            assert record["hand"] in (hand_no, hand_no + 1)
            hand_no = record["hand"]
            size = 8 - hand_no
            assert record["hand_size"] == size
            dealt = record["hands"]
            everything = [c for held in dealt for c in held]
            if record["turn_up"] is not None:
                everything.append(record["turn_up"])
            assert len(set(everything)) == len(everything) <= 52, "a card dealt twice"
            for seat in range(n):
                expected = {"active": size, "dog": 1, "out": 0}[statuses[seat]]
                assert len(dealt[seat]) == expected
            assert (record["turn_up"] is not None) == (hand_no == 1)
            played_this_hand = []
            declared = False
            current = []
        elif kind == "event":
            event = record["event"]
            if event == "trump":
                trump = record["suit"]
            elif event == "play":
                seat, card = record["seat"], record["card"]
                assert card in dealt[seat], "played a card it was not dealt"
                assert card not in played_this_hand
                if current:
                    led = suit(current[0][1])
                    held = [c for c in dealt[seat] if c not in played_this_hand]
                    if any(suit(c) == led for c in held):
                        assert suit(card) == led, "did not follow suit"
                played_this_hand.append(card)
                current.append([seat, card])
            elif event == "declare":
                declared = True
                assert not played_this_hand, "a declaration after the first lead"
            elif event == "knock":
                assert statuses[record["seat"]] == "dog"
            elif event == "trick":
                assert record["cards"] == current
                led = suit(current[0][1])
                trumps = [pc for pc in current if suit(pc[1]) == trump]
                pool = trumps or [pc for pc in current if suit(pc[1]) == led]
                assert record["winner"] == max(pool, key=lambda pc: rank(pc[1]))[0]
                current = []
        elif kind == "hand_end":
            assert record["hand"] == hand_no
            if declared:
                assert record["tricks"] == [0] * n
                assert record["statuses"] == statuses, "a declaration knocked someone out"
            else:
                assert sorted(played_this_hand) == sorted(c for h in dealt for c in h), (
                    "every dealt card is played in a hand"
                )
                assert sum(record["tricks"]) == 8 - hand_no
            new = record["statuses"]
            for seat in range(n):
                if statuses[seat] == "out":
                    assert new[seat] == "out", "nobody comes back from out"
                if record["tricks"][seat] > 0:
                    assert new[seat] == "active"
            assert any(s != "out" for s in new), "a hand left nobody in the game"
            if rules.dog_life == "none":
                assert "dog" not in new
            statuses = new
    end = log[-1]
    placements = end["placements"]
    assert len(placements) == n
    assert min(placements) == 1
    for place in placements:
        assert place == 1 + sum(other < place for other in placements), "not competition numbering"
    assert end["winner"] == placements.index(1)
    assert [s for s in range(n) if statuses[s] != "out"] == [state.winner]
    assert state.placements == placements


@settings(max_examples=300, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), chooser=st.integers(0, 2**16))
def test_invariants_hold_for_random_games(rules: Rules, seed: int, chooser: int) -> None:
    state = play_checked(rules, seed, chooser)
    check_log(state)


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), chooser=st.integers(0, 2**16))
def test_same_seed_same_moves_same_game(rules: Rules, seed: int, chooser: int) -> None:
    first = play_checked(rules, seed, chooser)
    second = play_checked(rules, seed, chooser)
    assert json.dumps(first.log) == json.dumps(second.log)


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), chooser=st.integers(0, 2**16))
def test_copy_plays_on_independently(rules: Rules, seed: int, chooser: int) -> None:
    """A copy taken mid-game finishes exactly like the original under the same choices."""
    state = GameState(rules, seed)
    rng = random.Random(chooser)
    for _ in range(rng.randrange(1, 60)):
        if state.pending is None:
            break
        state.apply(rng.choice(state.pending.legal))
    twin = state.copy(record=True)
    before = json.dumps(state.log)
    rng_a, rng_b = random.Random(1), random.Random(1)
    while (pending := twin.pending) is not None:
        twin.apply(rng_b.choice(pending.legal))
    assert json.dumps(state.log) == before, "playing the copy changed the original"
    while (pending := state.pending) is not None:
        state.apply(rng_a.choice(pending.legal))
    assert state.log == twin.log
    assert state.placements == twin.placements


def test_random_games_reach_every_rule_situation() -> None:
    """Guards the properties above from passing vacuously: random games with every
    option on do reach dogs, blind dogs, knocks, rainbows, redeals and tie cuts."""
    rules = EVERY_SITUATION
    seen: set[str] = set()
    for seed in range(400):
        state = play_checked(rules, seed, seed)
        check_log(state)
        for record in state.log:
            if record["type"] == "event":
                seen.add(record["event"] + ":" + str(record.get("what", record.get("purpose"))))
            if record["type"] == "deal":
                if record["blind"]:
                    seen.add("blind dog")
                if "dog_cards" in record:
                    seen.add("face-up dog")
    for situation in (
        "knock:None",
        "declare:rainbow",
        "declare:no_picture",
        "cut:trump",
        "blind dog",
        "face-up dog",
    ):
        assert situation in seen, situation


def _play_decision(rules: Rules, seed: int, chooser: int) -> GameState | None:
    """A game played at random to some play decision (None if it ended first)."""
    state = GameState(rules, SeededDecks(seed), record=False)
    rng = random.Random(chooser)
    for _ in range(rng.randrange(0, 80)):
        if state.pending is None:
            return None
        state.apply(rng.choice(state.pending.legal))
    if state.pending is None or state.pending.action != PLAY:
        return None
    return state


@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), chooser=st.integers(0, 2**16))
def test_a_position_rebuilt_from_its_facts_plays_on_identically(
    rules: Rules, seed: int, chooser: int
) -> None:
    """What a search bot builds from known facts behaves as the real game from there on."""
    state = _play_decision(rules, seed, chooser)
    if state is None:
        return
    assert state.pending is not None
    rebuilt = rebuild(state)
    assert rebuilt.pending == state.pending
    assert request_state(rebuilt, state.pending.seat) == request_state(state, state.pending.seat)
    moves = random.Random(chooser + 1)
    twin = random.Random(chooser + 1)
    while state.pending is not None:
        assert rebuilt.pending == state.pending
        move = moves.choice(state.pending.legal)
        assert twin.choice(rebuilt.pending.legal) == move
        state.apply(move)
        rebuilt.apply(move)
    assert rebuilt.pending is None
    assert rebuilt.placements == state.placements


@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), chooser=st.integers(0, 2**16))
def test_a_horizon_stops_the_game_where_the_next_deal_would_start(
    rules: Rules, seed: int, chooser: int
) -> None:
    """With its horizon at the current hand, a rebuilt game ends that hand as the real one does
    (statuses, who names trumps, the next size) and deals nothing more."""
    state = _play_decision(rules, seed, chooser)
    if state is None:
        return
    hand = state.hand
    stopped = rebuild(state, horizon=hand)
    moves = random.Random(chooser + 1)
    while state.pending is not None and state.hand == hand:
        move = moves.choice(state.pending.legal)
        state.apply(move)
        stopped.apply(move)
    assert stopped.hand == state.hand
    assert stopped.statuses == state.statuses
    assert stopped.winner == state.winner
    if state.winner is None:
        assert stopped.pending is None
        assert stopped.chooser == state.chooser
        assert stopped.hand_size == state.hand_size
        assert stopped.deals == state.deals - 1

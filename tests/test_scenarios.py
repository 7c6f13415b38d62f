"""Hand-built scenarios: each test stacks the decks of a few deals and checks one rule.

The deals are written as trick tables (see :mod:`tests.scenario`): one row per
trick, one column per seat, and the engine itself checks that every scripted
card is legal. Unless a test says otherwise the game has 4 seats, seat 3 is
the first dealer (so seat 0 leads hand 1), and the deal passes 0, 1, 2, ...
"""

from __future__ import annotations

import json

import pytest

from arena.errors import IllegalMove
from arena.game import ACTIVE, DOG, OUT, Decision, GameState, Rules, hand_start, request_state
from tests.scenario import (
    Deal,
    Trick,
    deal_records,
    events,
    finish,
    game_end,
    hand_ends,
    hand_sizes,
    mono_tricks,
    new_game,
    pending,
    play_hand,
    play_tricks,
    winners,
)

SUITS = ["C", "H", "D", "S"]
DECLARE = ["pass", "declare"]

# ---------------------------------------------------------------- hand 1 tables
# Hand 1, dealer 3, turn-up 2C (clubs are trumps); seat 0 leads.

#: Seat 3 takes no trick: tricks [3, 2, 2, 0], seat 0 names trumps next.
ZERO_FOR_3: list[Trick] = [
    # seat 0  seat 1  seat 2  seat 3
    ("AS", "2S", "3S", "4S"),  # 0
    ("5S", "KS", "6S", "7S"),  # 1
    ("8S", "9S", "QS", "TS"),  # 2
    ("AH", "2H", "3H", "4H"),  # 0
    ("5H", "KH", "6H", "7H"),  # 1
    ("8H", "9H", "QH", "TH"),  # 2
    ("AD", "2D", "3D", "4D"),  # 0
]

#: Seats 2 and 3 take no trick: tricks [4, 3, 0, 0].
ZERO_FOR_2_AND_3: list[Trick] = [
    ("AS", "2S", "3S", "4S"),  # 0
    ("5S", "KS", "6S", "7S"),  # 1
    ("AH", "2H", "3H", "4H"),  # 0
    ("5H", "KH", "6H", "7H"),  # 1
    ("AD", "2D", "3D", "4D"),  # 0
    ("5D", "KD", "6D", "7D"),  # 1
    ("QS", "8S", "9S", "TS"),  # 0
]

#: Seat 1 takes no trick: tricks [3, 0, 2, 2]; seat 1 is then first to lead hand 2.
ZERO_FOR_1: list[Trick] = [
    ("AS", "2S", "3S", "4S"),  # 0
    ("5S", "6S", "KS", "7S"),  # 2
    ("8S", "9S", "TS", "QS"),  # 3
    ("AH", "2H", "3H", "4H"),  # 0
    ("5H", "6H", "KH", "7H"),  # 2
    ("8H", "9H", "TH", "QH"),  # 3
    ("AD", "2D", "3D", "4D"),  # 0
]

#: Seat 0 takes no trick: tricks [0, 3, 2, 2]; seat 0 is the next dealer.
ZERO_FOR_0: list[Trick] = [
    ("2S", "AS", "3S", "4S"),  # 1
    ("5S", "6S", "KS", "7S"),  # 2
    ("8S", "9S", "TS", "QS"),  # 3
    ("2H", "AH", "3H", "4H"),  # 1
    ("5H", "6H", "KH", "7H"),  # 2
    ("8H", "9H", "TH", "QH"),  # 3
    ("2D", "AD", "3D", "4D"),  # 1
]

#: Everybody takes a trick: tricks [3, 2, 1, 1].
EVERYONE_SCORES: list[Trick] = [
    ("AS", "2S", "3S", "4S"),  # 0
    ("5S", "KS", "6S", "7S"),  # 1
    ("8S", "9S", "QS", "TS"),  # 2
    ("2H", "3H", "4H", "AH"),  # 3
    ("KH", "5H", "6H", "7H"),  # 0
    ("QH", "8H", "9H", "TH"),  # 0
    ("2D", "AD", "3D", "4D"),  # 1
]

#: Seat 1 takes all seven tricks.
SWEEP_BY_1: list[Trick] = [
    ("2S", "AS", "3S", "4S"),
    ("2H", "AH", "3H", "4H"),
    ("2D", "AD", "3D", "4D"),
    ("5S", "KS", "6S", "7S"),
    ("5H", "KH", "6H", "7H"),
    ("5D", "KD", "6D", "7D"),
    ("8S", "QS", "9S", "TS"),
]

#: Seats 0 and 2 tie with 3 tricks each, seat 1 takes 1, seat 3 none.
TIE_0_AND_2: list[Trick] = [
    ("AS", "2S", "3S", "4S"),  # 0
    ("5S", "6S", "KS", "7S"),  # 2
    ("AH", "2H", "3H", "4H"),  # 0
    ("5H", "6H", "KH", "7H"),  # 2
    ("AD", "2D", "3D", "4D"),  # 0
    ("5D", "6D", "KD", "7D"),  # 2
    ("8S", "QS", "9S", "TS"),  # 1
]

#: Hand 1 for the follow-suit checks (dealer 3, turn-up 2H: hearts are trumps).
MIXED_HANDS = [
    ["9S", "2C", "3C", "4C", "6C", "8C", "9C"],
    ["7H", "7S", "2D", "TS", "3S", "KH", "7C"],
    ["5C", "5H", "5D", "9H", "AC", "KD", "6D"],
    ["2S", "4S", "5S", "6S", "8S", "JS", "QS"],
]


def hand1(tricks: list[Trick], turn_up: str = "2C") -> Deal:
    """Hand 1 of a 4-seat game dealt by seat 3."""
    return Deal.from_tricks(3, tricks, turn_up)


def start_after_hand1(rules: Rules, tricks: list[Trick], *later: Deal | None) -> GameState:
    """A game that has played hand 1 by ``tricks`` and waits at the first decision of deal 2."""
    first = hand1(tricks)
    state = new_game(rules, [first, *later])
    play_hand(state, first)
    return state


def snapshot(state: GameState) -> str:
    """Everything an illegal move must leave unchanged, as one comparable string."""
    views = [request_state(state, s) for s in range(state.n)]
    return json.dumps(
        [
            state.log,
            list(state.pending or ()),
            state.hands,
            state.trick,
            state.played,
            state.tricks,
            state.statuses,
            state.trick_no,
            state.turn,
            views,
        ]
    )


# ---------------------------------------------------------------- tricks and legality


def test_trump_beats_the_led_suit() -> None:
    """A low trump from a seat void in the led suit beats the ace led and the king that
    followed; the trump's player takes the trick and leads the next one."""
    deal = Deal.from_hands(
        3,
        [
            ["AS", "2C", "3C", "4C", "5C", "6C", "7C"],
            ["3H", "4H", "5H", "6H", "7H", "8H", "9H"],
            ["KS", "QS", "JS", "TS", "9S", "8S", "7S"],
            ["AD", "KD", "QD", "JD", "TD", "9D", "8D"],
        ],
        turn_up="2H",
    )
    state = new_game(Rules(), [deal])
    assert events(state, "trump") == [
        {"type": "event", "event": "trump", "suit": "H", "seat": None}
    ]
    for card in ("AS", "3H", "KS", "AD"):
        state.apply(card)
    assert events(state, "trick") == [
        {
            "type": "event",
            "event": "trick",
            "winner": 1,
            "cards": [[0, "AS"], [1, "3H"], [2, "KS"], [3, "AD"]],
        }
    ]
    assert pending(state) == Decision(1, "play", ["4H", "5H", "6H", "7H", "8H", "9H"])
    view = request_state(state, 1)
    assert view["leader"] == 1
    assert view["tricks"] == [0, 1, 0, 0]
    assert view["trick"] == []


def test_follow_suit_and_void_legal_lists() -> None:
    """The leader may lead anything; a seat holding the led suit may play only that
    suit; a void seat may play any card; every list is in canonical order
    (rank 2..A, then suit C, H, D, S)."""
    state = new_game(Rules(), [Deal.from_hands(3, MIXED_HANDS, turn_up="2H")])
    assert pending(state) == Decision(0, "play", ["2C", "3C", "4C", "6C", "8C", "9C", "9S"])
    state.apply("9S")
    assert pending(state) == Decision(1, "play", ["3S", "7S", "TS"])
    state.apply("TS")
    assert pending(state) == Decision(2, "play", ["5C", "5H", "5D", "6D", "9H", "KD", "AC"])
    state.apply("5H")
    assert pending(state) == Decision(3, "play", ["2S", "4S", "5S", "6S", "8S", "JS", "QS"])
    state.apply("QS")
    assert winners(events(state, "trick")) == [2]  # the 5 of trumps


@pytest.mark.parametrize(
    ("move", "seat", "message"),
    [
        ("7H", None, "7H is not legal: you must follow spades"),
        ("AS", None, "AS is not legal: it is not in your hand"),
        ("knock", None, "knock is not legal: only a dog may knock"),
        ("blind", None, "blind is not legal: only a blind dog plays its card unseen"),
        ("3S", 2, "seat 2 may not move now: it is seat 1's turn"),
        ("H", None, "H is not a move: expected one of 3S, 7S, TS"),
    ],
)
def test_illegal_move_is_explained_and_leaves_the_state_untouched(
    move: str, seat: int | None, message: str
) -> None:
    """Seat 1 must follow the 9 of spades: each wrong answer raises IllegalMove with a
    plain sentence, and the game (log, hands, trick, views) is exactly as before."""
    state = new_game(Rules(), [Deal.from_hands(3, MIXED_HANDS, turn_up="2H")])
    state.apply("9S")
    before = snapshot(state)
    with pytest.raises(IllegalMove) as error:
        state.apply(move, seat)
    assert str(error.value) == message
    assert snapshot(state) == before
    state.apply("7S", 1)  # and the game goes on normally
    assert pending(state).seat == 2


def test_illegal_trump_choice_is_explained() -> None:
    """Naming a card instead of a suit as trumps is refused, nothing changes."""
    state = start_after_hand1(Rules(), ZERO_FOR_3)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=r"^7H is not legal: name trumps with one of C, H, D, S$"):
        state.apply("7H")
    assert snapshot(state) == before


# ---------------------------------------------------------------- Dog's Life and knock-outs

#: Hand 2 after ZERO_FOR_3 (dealer 0, seat 1 leads, dog 3 holds 2H): the dog loses
#: trick 1 and seat 2 takes nothing.
LATER_ZERO: list[Trick] = [
    # seat 0  seat 1  seat 2  dog 3
    ("3H", "AH", "4H", "2H"),  # 1
    ("AD", "2D", "3D", None),  # 0
    ("4D", "KD", "5D", None),  # 1
    ("AC", "2C", "3C", None),  # 0
    ("KC", "4C", "5C", None),  # 0
    ("QD", "6D", "7D", None),  # 0
]


def test_first_zero_trick_player_becomes_a_dog() -> None:
    """Hand 1: seat 3 takes no trick, so it gets a Dog's Life: status dog, one card in
    hand 2 while the others get six, and the top scorer names trumps."""
    state = start_after_hand1(Rules(), ZERO_FOR_3)
    assert hand_ends(state) == [
        {
            "type": "hand_end",
            "hand": 1,
            "tricks": [3, 2, 2, 0],
            "statuses": [ACTIVE, ACTIVE, ACTIVE, DOG],
            "chooser": 0,
        }
    ]
    deal = deal_records(state)[-1]
    assert (deal["hand"], deal["dealer"], deal["statuses"]) == (2, 0, [ACTIVE, ACTIVE, ACTIVE, DOG])
    assert hand_sizes(deal) == [6, 6, 6, 1]
    assert hand_start(deal, 3)["hand_size"] == 6
    assert len(hand_start(deal, 3)["cards"]) == 1
    assert pending(state) == Decision(0, "trump", SUITS)


def test_two_zero_trick_players_at_once_both_become_dogs() -> None:
    """The first zero-trick event of the game has two zero-trick players: both get a
    Dog's Life."""
    state = start_after_hand1(Rules(), ZERO_FOR_2_AND_3)
    assert hand_ends(state)[-1]["tricks"] == [4, 3, 0, 0]
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, DOG, DOG]
    assert hand_sizes(deal_records(state)[-1]) == [6, 6, 1, 1]


def test_later_zero_trick_player_is_out() -> None:
    """After the first zero-trick event, a player with no trick is out (seat 2), and so
    is the dog that did not win its trick (seat 3); both share the last place."""
    hand2 = Deal.from_tricks(0, LATER_ZERO)
    state = start_after_hand1(Rules(), ZERO_FOR_3, hand2)
    assert winners(play_hand(state, hand2, trump="S")) == [1, 0, 1, 0, 0, 0]
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 2,
        "tricks": [4, 2, 0, 0],
        "statuses": [ACTIVE, ACTIVE, OUT, OUT],
        "chooser": 0,
    }
    deal = deal_records(state)[-1]
    assert (deal["hand"], deal["dealer"]) == (3, 1)
    assert hand_sizes(deal) == [5, 5, 0, 0]
    finish(state)
    placements = game_end(state)["placements"]
    assert placements[2:] == [3, 3]
    assert sorted(placements[:2]) == [1, 2]


def test_sweep_under_standard_rules_gives_the_others_dogs_lives() -> None:
    """Standard rules: taking every trick does not win the game; the three others are
    the first zero-trick players and all become dogs."""
    state = start_after_hand1(Rules(), SWEEP_BY_1)
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 1,
        "tricks": [0, 7, 0, 0],
        "statuses": [DOG, ACTIVE, DOG, DOG],
        "chooser": 1,
    }
    assert pending(state) == Decision(1, "trump", SUITS)
    assert hand_sizes(deal_records(state)[-1]) == [1, 6, 1, 1]


def test_sweep_wins_ends_the_game_at_once() -> None:
    """``sweep_wins``: the seat taking every trick wins at once; the others are out in
    hand 1 and share second place; no further move is accepted."""
    state = start_after_hand1(Rules(sweep_wins=True), SWEEP_BY_1)
    assert state.pending is None
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 1,
        "tricks": [0, 7, 0, 0],
        "statuses": [OUT, ACTIVE, OUT, OUT],
        "chooser": None,
    }
    assert game_end(state) == {
        "type": "game_end",
        "game": "scenario",
        "placements": [2, 1, 2, 2],
        "winner": 1,
        "faults": {},
    }
    assert len(deal_records(state)) == 1
    with pytest.raises(IllegalMove, match="the game is over"):
        state.apply("AS")


#: Hand 2 after ZERO_FOR_1 (dealer 0): dog 1 (holding 2C) is due to lead.
DOG_DUE_TO_LEAD: list[Trick] = [
    # seat 0  dog 1  seat 2  seat 3
    ("AH", None, "2H", "3H"),  # the dog knocks; seat 2 leads; 0 wins
    ("AD", None, "2D", "3D"),  # 0
    ("KD", None, "4D", "5D"),  # 0
    ("KH", None, "4H", "5H"),  # 0
    ("AS", None, "2S", "3S"),  # 0
    ("AC", "2C", "3C", "4C"),  # 0: the dog must play on the last trick
]


def test_dog_due_to_lead_knocks_and_the_next_player_leads() -> None:
    """The dog left of the dealer is due to lead; it knocks, and the next seat on its
    left leads: it is the request's ``leader`` and may lead any card; the trick has
    three cards."""
    hand2 = Deal.from_tricks(0, DOG_DUE_TO_LEAD)
    state = start_after_hand1(Rules(), ZERO_FOR_1, hand2)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, DOG, ACTIVE, ACTIVE]
    state.apply("S")
    assert pending(state) == Decision(1, "play", ["knock", "2C"])
    assert request_state(state, 1)["leader"] == 1
    state.apply("knock")
    assert state.log[-1] == {"type": "event", "event": "knock", "seat": 1}
    assert pending(state) == Decision(2, "play", ["2H", "2D", "2S", "3C", "4H", "4D"])
    view = request_state(state, 2)
    assert view["leader"] == 2
    assert view["trick"] == []
    assert play_tricks(state, DOG_DUE_TO_LEAD[:1]) == [
        {"type": "event", "event": "trick", "winner": 0, "cards": [[2, "2H"], [3, "3H"], [0, "AH"]]}
    ]


#: Hand 2 after ZERO_FOR_2_AND_3 (dealer 0, spades trumps): dog 3 plays and loses trick 1,
#: dog 2 knocks then trumps trick 2, and seat 3 (left of dog 2) holds no card any more.
DOG_WINS: list[Trick] = [
    # seat 0  seat 1  dog 2  dog 3
    ("3H", "AH", None, "2H"),  # 1
    ("5H", "4H", "2S", None),  # dog 2 trumps and wins
    ("AD", "2D", None, None),  # seat 0 leads: the first seat left of dog 2 holding cards
    ("KD", "3D", None, None),  # 0
    ("AC", "2C", None, None),  # 0
    ("KC", "3C", None, None),  # 0
]


def test_dog_wins_a_trick_next_seat_with_cards_leads_and_it_rejoins() -> None:
    """A dog's winning card: the lead passes to the next seat on its left that still
    holds cards (skipping the other dog, whose card is gone); the dog is active again
    and gets a full hand next deal, while the dog that won nothing is out."""
    hand2 = Deal.from_tricks(0, DOG_WINS)
    state = start_after_hand1(Rules(), ZERO_FOR_2_AND_3, hand2)
    state.apply("S")
    play_tricks(state, DOG_WINS[:1])
    assert pending(state) == Decision(1, "play", ["2C", "2D", "3C", "3D", "4H"])
    state.apply("4H")
    assert pending(state) == Decision(2, "play", ["knock", "2S"])
    state.apply("2S")
    state.apply("5H")
    assert events(state, "trick")[-1]["winner"] == 2
    assert pending(state).seat == 0
    assert request_state(state, 0)["leader"] == 0
    play_tricks(state, DOG_WINS)
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 2,
        "tricks": [4, 1, 1, 0],
        "statuses": [ACTIVE, ACTIVE, ACTIVE, OUT],
        "chooser": 0,
    }
    deal = deal_records(state)[-1]
    assert (deal["hand"], deal["dealer"], deal["statuses"]) == (3, 1, [ACTIVE, ACTIVE, ACTIVE, OUT])
    assert hand_sizes(deal) == [5, 5, 5, 0]


#: Hand 2 after ZERO_FOR_3 (dealer 0, spades trumps): dog 3 knocks five times and must
#: play its 2S on the last trick, which it wins.
DOG_KNOCKS: list[Trick] = [
    # seat 0  seat 1  seat 2  dog 3
    ("2H", "AH", "3H", None),  # 1
    ("AD", "2D", "3D", None),  # 0
    ("KD", "4D", "5D", None),  # 0
    ("6D", "7D", "QD", None),  # 2
    ("AC", "2C", "3C", None),  # 0
    ("4C", "5C", "KC", "2S"),  # 3
]


def test_dog_that_knocked_until_the_last_trick_must_play() -> None:
    """A dog may knock on every trick but the last; there its only legal move is its
    card, and a knock is refused with a plain sentence."""
    hand2 = Deal.from_tricks(0, DOG_KNOCKS)
    state = start_after_hand1(Rules(), ZERO_FOR_3, hand2)
    state.apply("S")
    dog_choices: list[list[str]] = []
    while state.trick_no < 6:
        decision = pending(state)
        if decision.seat == 3:
            dog_choices.append(decision.legal)
            state.apply("knock")
        else:
            card = DOG_KNOCKS[state.trick_no - 1][decision.seat]
            assert card is not None
            state.apply(card)
    assert dog_choices == [["knock", "2S"]] * 5
    assert len(events(state, "knock")) == 5
    for card in ("4C", "5C", "KC"):
        state.apply(card)
    assert pending(state) == Decision(3, "play", ["2S"])
    before = snapshot(state)
    with pytest.raises(IllegalMove) as error:
        state.apply("knock")
    assert (
        str(error.value)
        == "knock is not legal: a dog must play its card on the last trick of a hand"
    )
    assert snapshot(state) == before
    state.apply("2S")
    assert winners(events(state, "trick"))[-6:] == [1, 0, 0, 2, 0, 3]
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, ACTIVE]
    assert hand_sizes(deal_records(state)[-1]) == [5, 5, 5, 5]


def test_no_dogs_life_after_the_first_zero_trick_event() -> None:
    """Standard rules: the Dog's Life belongs to the game's first zero-trick hand only.
    Hand 1 makes seat 3 a dog, in hand 2 it wins its way back and nobody takes zero,
    and in hand 3 seat 3 takes nothing: out, not a dog again."""
    hand2 = Deal.from_tricks(0, DOG_KNOCKS)
    hand3 = Deal.from_tricks(1, mono_tricks(4, [0, 1, 2, 0, 1]))
    state = start_after_hand1(Rules(), ZERO_FOR_3, hand2, hand3)
    play_hand(state, hand2, trump="S")
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, ACTIVE]
    play_hand(state, hand3)
    end = hand_ends(state)[-1]
    assert (end["hand"], end["tricks"]) == (3, [2, 2, 1, 0])
    assert end["statuses"] == [ACTIVE, ACTIVE, ACTIVE, OUT]


#: Hand 2 after ZERO_FOR_3 (dealer 0): dog 3 plays its 4H on trick 1 and loses.
DOG_FAILS: list[Trick] = [
    # seat 0  seat 1  seat 2  dog 3
    ("2H", "AH", "3H", "4H"),  # 1
    ("AD", "2D", "3D", None),  # 0
    ("4D", "5D", "KD", None),  # 2
    ("AC", "2C", "3C", None),  # 0
    ("KC", "4C", "5C", None),  # 0
    ("6D", "7D", "QD", None),  # 2
]

#: Hand 3 (dealer 1, seat 2 leads) when seat 3 is still a (blind) dog holding 9C.
HAND3_WITH_DOG_3 = Deal.from_hands(
    1,
    [
        ["2S", "3S", "4S", "5S", "6S"],
        ["7S", "8S", "9S", "TS", "JS"],
        ["2D", "3D", "4D", "5D", "6D"],
        ["9C"],
    ],
)


def test_dog_that_fails_is_out() -> None:
    """A dog whose card wins no trick is out, and receives nothing next deal."""
    hand2 = Deal.from_tricks(0, DOG_FAILS)
    state = start_after_hand1(Rules(), ZERO_FOR_3, hand2)
    assert winners(play_hand(state, hand2, trump="S")) == [1, 0, 2, 0, 0, 2]
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 2,
        "tricks": [3, 1, 2, 0],
        "statuses": [ACTIVE, ACTIVE, ACTIVE, OUT],
        "chooser": 0,
    }
    assert hand_sizes(deal_records(state)[-1]) == [5, 5, 5, 0]


def _blind_dog_game(rules: Rules) -> GameState:
    """Hand 1 makes seat 3 a dog, hand 2 it fails; the game waits for the blind dog's
    first decision in hand 3."""
    hand2 = Deal.from_tricks(0, DOG_FAILS)
    state = start_after_hand1(rules, ZERO_FOR_3, hand2, HAND3_WITH_DOG_3)
    play_hand(state, hand2, trump="S")
    state.apply("H")  # seat 0 names trumps for hand 3
    state.apply("2D")  # seat 2 leads
    return state


@pytest.mark.parametrize("upside_dog", [False, True])
def test_blind_dog_gets_a_blind_second_chance(upside_dog: bool) -> None:
    """``blind_dog``: the failed dog stays a dog with one card it may not see: its
    ``hand_start`` and request ``cards`` are [], its legal moves are knock and blind,
    and ``blind`` plays the hidden card. With ``upside_dog`` too, the blind card stays
    hidden from everyone (no ``dog_cards``)."""
    state = _blind_dog_game(Rules(blind_dog=True, upside_dog=upside_dog))
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, DOG]
    deal = deal_records(state)[-1]
    assert (deal["hand"], deal["statuses"], deal["blind"]) == (
        3,
        [ACTIVE, ACTIVE, ACTIVE, DOG],
        [3],
    )
    assert hand_sizes(deal) == [5, 5, 5, 1]
    assert hand_start(deal, 3)["cards"] == []
    assert hand_start(deal, 2)["cards"] == ["2D", "3D", "4D", "5D", "6D"]
    for seat in range(4):
        assert "dog_cards" not in hand_start(deal, seat)
        assert "dog_cards" not in request_state(state, seat)
    assert pending(state) == Decision(3, "play", ["knock", "blind"])
    assert request_state(state, 3)["cards"] == []
    state.apply("blind")
    assert state.log[-1] == {"type": "event", "event": "play", "seat": 3, "card": "9C"}


def test_blind_dog_naming_its_hidden_card_is_told_to_answer_blind() -> None:
    """A blind dog that answers with its actual (unseen) card is refused with the blind
    dog's explanation, not a follow-suit one, and nothing changes."""
    state = _blind_dog_game(Rules(blind_dog=True))
    before = snapshot(state)
    with pytest.raises(IllegalMove) as error:
        state.apply("9C")
    assert (
        str(error.value) == "9C is not legal: a blind dog answers 'blind' to play its unseen card"
    )
    assert snapshot(state) == before


# ---------------------------------------------------------------- choosing trumps


@pytest.mark.parametrize(("cut", "chooser"), [(["3C", "KD"], 2), (["AS", "KD"], 0)])
def test_tie_for_most_tricks_is_cut_among_the_tied_only(cut: list[str], chooser: int) -> None:
    """Seats 0 and 2 tie with 3 tricks: only they draw (in seat order), the highest card
    names trumps, and the cut is logged before the hand's ``hand_end``."""
    state = new_game(Rules(), [hand1(TIE_0_AND_2)], cuts={1: cut})
    play_hand(state, hand1(TIE_0_AND_2))
    cuts = [e for e in events(state, "cut") if e["purpose"] == "trump"]
    assert cuts == [
        {
            "type": "event",
            "event": "cut",
            "purpose": "trump",
            "draws": [[0, cut[0]], [2, cut[1]]],
            "winner": chooser,
        }
    ]
    end = hand_ends(state)[-1]
    assert state.log.index(cuts[0]) < state.log.index(end)
    assert (end["tricks"], end["chooser"]) == ([3, 1, 3, 0], chooser)
    assert pending(state) == Decision(chooser, "trump", SUITS)


@pytest.mark.parametrize(("draws", "chooser"), [(["2C", "AS"], 2), (["AS", "2C"], 0)])
def test_random_tie_break_picks_among_the_tied_without_a_cut(
    draws: list[str], chooser: int
) -> None:
    """``tie_break=random``: the chooser is drawn among the tied seats and no trump cut
    event is sent."""
    state = new_game(Rules(tie_break="random"), [hand1(TIE_0_AND_2)], ties={1: draws})
    play_hand(state, hand1(TIE_0_AND_2))
    assert [e["purpose"] for e in events(state, "cut")] == ["dealer"]
    assert hand_ends(state)[-1]["chooser"] == chooser
    assert pending(state) == Decision(chooser, "trump", SUITS)


# ---------------------------------------------------------------- dealing


@pytest.mark.parametrize(
    ("eliminated_deals", "dealers", "hand2_leader"),
    [(False, [3, 1, 2], 2), (True, [3, 0, 1], 1)],
)
def test_knocked_out_next_dealer(
    eliminated_deals: bool, dealers: list[int], hand2_leader: int
) -> None:
    """Seat 0, next to deal, is knocked out in hand 1 (``dog_life=none``). By default the
    deal skips it (seat 1 deals, seat 2 leads); with ``eliminated_deals`` it deals hand
    2 without cards of its own, seat 1 leads, and hand 3 passes on to seat 1."""
    rules = Rules(dog_life="none", eliminated_deals=eliminated_deals)
    hand2 = Deal.from_tricks(dealers[1], mono_tricks(4, [1, 2, 3, 1, 1, 2], seats=[1, 2, 3]))
    state = new_game(rules, [hand1(ZERO_FOR_0), hand2])
    play_hand(state, hand1(ZERO_FOR_0))
    assert hand_ends(state)[-1]["statuses"] == [OUT, ACTIVE, ACTIVE, ACTIVE]
    assert hand_sizes(deal_records(state)[-1]) == [0, 6, 6, 6]
    state.apply("C")
    assert pending(state).seat == hand2_leader
    assert request_state(state, hand2_leader)["leader"] == hand2_leader
    assert request_state(state, hand2_leader)["dealer"] == dealers[1]
    play_tricks(state, hand2.tricks)
    assert hand_ends(state)[-1]["statuses"] == [OUT, ACTIVE, ACTIVE, ACTIVE]
    assert [d["dealer"] for d in deal_records(state)] == dealers


@pytest.mark.parametrize(
    ("eliminated_deals", "dealers", "leaders"),
    [(False, [3, 2, 3], [0, 3, 2]), (True, [3, 0, 2], [0, 2, 3])],
)
def test_players_out_earlier_never_deal(
    eliminated_deals: bool, dealers: list[int], leaders: list[int]
) -> None:
    """Seats 0 and 1 are both knocked out in hand 1 (``dog_life=none``). With
    ``eliminated_deals`` seat 0, whose turn it is, deals hand 2 and the lead goes to
    the first seat in the game on its left (seat 2, skipping seat 1); for hand 3 seat
    1, out since hand 1 rather than in the hand just played, is skipped: seat 2 deals.
    Without the option both are skipped from hand 2 on."""
    rules = Rules(dog_life="none", eliminated_deals=eliminated_deals)
    first = Deal.from_tricks(3, mono_tricks(4, [2, 3, 2, 3, 2, 3, 2]), turn_up="2C")
    hand2 = Deal.from_tricks(dealers[1], mono_tricks(4, [2, 3, 2, 2, 3, 2], seats=[2, 3]))
    state = new_game(rules, [first, hand2])
    assert pending(state).seat == leaders[0]
    play_hand(state, first)
    assert hand_ends(state)[-1]["statuses"] == [OUT, OUT, ACTIVE, ACTIVE]
    assert pending(state) == Decision(2, "trump", SUITS)
    assert request_state(state, 2)["leader"] == leaders[1]
    assert request_state(state, 2)["dealer"] == dealers[1]
    state.apply("C")
    assert pending(state).seat == leaders[1]
    play_tricks(state, hand2.tricks)
    assert hand_ends(state)[-1]["tricks"] == [0, 0, 4, 2]
    assert request_state(state, 2)["leader"] == leaders[2]
    assert [d["dealer"] for d in deal_records(state)] == dealers
    assert hand_sizes(deal_records(state)[-1]) == [0, 0, 5, 5]


# ---------------------------------------------------------------- the end of the game


def test_hand_seven_decides_the_game() -> None:
    """Three seats play to hand 7 (seat 2 a dog since hand 6): every seat holds one
    card, the dog cannot knock on the only trick, and the winner of that trick (here
    the dog) wins; the other two are out in hand 7 and share second place."""
    plan = [
        Deal.from_tricks(2, mono_tricks(3, [0, 0, 0, 1, 1, 2, 2]), turn_up="2C"),
        Deal.from_tricks(0, mono_tricks(3, [0, 1, 2, 0, 1, 2])),
        Deal.from_tricks(1, mono_tricks(3, [0, 1, 2, 0, 1])),
        Deal.from_tricks(2, mono_tricks(3, [0, 1, 2, 0])),
        Deal.from_tricks(0, mono_tricks(3, [0, 1, 2])),
        Deal.from_tricks(1, mono_tricks(3, [0, 1])),
        Deal.from_hands(2, [["2C"], ["3C"], ["AC"]]),
    ]
    state = new_game(Rules(players=3), plan)
    for deal in plan[:6]:
        play_hand(state, deal)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, DOG]
    deal7 = deal_records(state)[-1]
    assert (deal7["hand"], deal7["hand_size"], deal7["statuses"]) == (7, 1, [ACTIVE, ACTIVE, DOG])
    state.apply("H")
    state.apply("2C")
    state.apply("3C")
    assert pending(state) == Decision(2, "play", ["AC"])
    state.apply("AC")
    assert state.pending is None
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 7,
        "tricks": [0, 0, 1],
        "statuses": [OUT, OUT, ACTIVE],
        "chooser": None,
    }
    assert game_end(state)["placements"] == [2, 2, 1]
    assert game_end(state)["winner"] == 2
    assert len(deal_records(state)) == 7


def test_two_player_game_to_hand_seven_grants_no_dog_after_it() -> None:
    """Two seats both take tricks in hands 1..6; in hand 7 the loser takes the game's
    first zero-trick hand, but after hand 7 no Dog's Life is granted: it is out."""
    plan = [
        Deal.from_tricks(1, mono_tricks(2, [0, 1, 0, 1, 0, 1, 0]), turn_up="2C"),
        Deal.from_tricks(0, mono_tricks(2, [0, 1, 0, 1, 0, 1])),
        Deal.from_tricks(1, mono_tricks(2, [0, 1, 0, 1, 0])),
        Deal.from_tricks(0, mono_tricks(2, [0, 1, 0, 1])),
        Deal.from_tricks(1, mono_tricks(2, [0, 1, 0])),
        Deal.from_tricks(0, mono_tricks(2, [0, 1])),
        Deal.from_tricks(1, [("AC", "2C")]),
    ]
    state = new_game(Rules(players=2), plan)
    for deal in plan:
        play_hand(state, deal)
    assert [e["statuses"] for e in hand_ends(state)] == [[ACTIVE, ACTIVE]] * 6 + [[ACTIVE, OUT]]
    assert hand_ends(state)[-1]["tricks"] == [1, 0]
    assert game_end(state)["placements"] == [1, 2]
    assert game_end(state)["winner"] == 0


#: Two seats, hand 2 (dealer 0, spades trumps): dog 1 knocks on every trick it may,
#: including when due to lead, so seat 0 plays one-card tricks.
TWO_PLAYER_DOG: list[Trick] = [
    # seat 0  dog 1
    ("AH", None),
    ("KH", None),
    ("QH", None),
    ("JH", None),
    ("TH", None),
    ("AS", "2C"),
]


def test_two_player_game_dog_knock_leaves_a_one_card_trick() -> None:
    """Two seats: seat 0 sweeps hand 1, seat 1 becomes a dog, is due to lead hand 2 and
    knocks, which leaves a valid trick of one card; its card loses on the last trick,
    so it is out and seat 0 wins."""
    hand1_deal = Deal.from_tricks(1, mono_tricks(2, [0] * 7), turn_up="2C")
    hand2 = Deal.from_tricks(0, TWO_PLAYER_DOG)
    state = new_game(Rules(players=2), [hand1_deal, hand2])
    play_hand(state, hand1_deal)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, DOG]
    state.apply("S")
    assert pending(state) == Decision(1, "play", ["knock", "2C"])
    tricks = play_hand(state, hand2)
    assert tricks[0] == {"type": "event", "event": "trick", "winner": 0, "cards": [[0, "AH"]]}
    assert tricks[-1]["cards"] == [[0, "AS"], [1, "2C"]]
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, OUT]
    assert game_end(state)["placements"] == [1, 2]


#: Hand 5 makes seats 1 and 2 dogs; in hand 6 (dealer 1, spades trumps) the two dogs
#: take both tricks.
TWO_DOGS_TAKE_ALL: list[Trick] = [
    # seat 0  dog 1  dog 2
    ("2H", None, "AS"),  # dog 2 leads the ace of trumps; dog 1 knocks
    ("3H", "2S", None),  # seat 0 leads; dog 1 trumps on the last trick
]


def test_two_dogs_take_every_trick_and_play_on() -> None:
    """The only active seat takes nothing while the two dogs take both tricks of hand 6:
    it is out, the dogs are active again and play hand 7 between them."""
    plan = [
        Deal.from_tricks(2, mono_tricks(3, [0, 0, 0, 1, 1, 2, 2]), turn_up="2C"),
        Deal.from_tricks(0, mono_tricks(3, [0, 0, 0, 1, 1, 2])),
        Deal.from_tricks(1, mono_tricks(3, [0, 0, 0, 1, 2])),
        Deal.from_tricks(2, mono_tricks(3, [0, 0, 1, 2])),
        Deal.from_tricks(0, mono_tricks(3, [0, 0, 0])),
        Deal.from_tricks(1, TWO_DOGS_TAKE_ALL),
        Deal.from_tricks(2, [(None, "AC", "2C")]),
    ]
    state = new_game(Rules(players=3), plan, cuts={1: ["2C", "AS"]})
    for deal in plan[:5]:
        play_hand(state, deal)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, DOG, DOG]
    assert winners(play_hand(state, plan[5], trump="S")) == [2, 1]
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 6,
        "tricks": [0, 1, 1],
        "statuses": [OUT, ACTIVE, ACTIVE],
        "chooser": 2,
    }
    deal7 = deal_records(state)[-1]
    assert (deal7["hand"], deal7["statuses"], hand_sizes(deal7)) == (
        7,
        [OUT, ACTIVE, ACTIVE],
        [0, 1, 1],
    )
    play_hand(state, plan[6])
    assert game_end(state)["placements"] == [3, 1, 2]


# ---------------------------------------------------------------- rule options

#: trumps_broken, hand 1 (dealer 3, turn-up 2S: spades trumps): seat 1 ruffs trick 1,
#: which breaks trumps, then leads a trump.
BREAKING: list[Trick] = [
    # seat 0  seat 1  seat 2  seat 3
    ("AH", "3S", "2H", "5H"),  # 1 ruffs
    ("KS", "4S", "7S", "8S"),  # 0: seat 1 leads a trump
    ("KH", "2D", "3H", "6H"),  # 0
    ("AD", "3D", "4D", "5D"),  # 0
    ("AC", "2C", "3C", "4C"),  # 0
    ("KD", "6D", "7D", "8D"),  # 0
    ("KC", "5C", "6C", "7C"),  # 0
]


def test_trumps_broken_forbids_leading_trumps_until_one_is_played() -> None:
    """``trumps_broken``: the first leader may not lead its trump (a plain sentence says
    why); once a trump has been played to a trick anyone may lead trumps; and the rule
    starts afresh in the next hand."""
    deal1 = Deal.from_tricks(3, BREAKING, turn_up="2S")
    deal2 = Deal.from_hands(
        0,
        [
            ["AD", "KD", "QD", "JD", "TD", "9D"],
            ["AH", "2C", "3C", "4C", "5C", "6C"],
            ["2S"],
            ["3S"],
        ],
    )
    state = new_game(Rules(trumps_broken=True), [deal1, deal2])
    assert pending(state) == Decision(0, "play", ["KC", "KH", "KD", "AC", "AH", "AD"])
    before = snapshot(state)
    with pytest.raises(IllegalMove) as error:
        state.apply("KS")
    assert str(error.value) == "KS is not legal: trumps (spades) have not been broken"
    assert snapshot(state) == before
    play_tricks(state, BREAKING[:1])
    assert pending(state) == Decision(1, "play", ["2C", "2D", "3D", "4S", "5C", "6D"])
    play_tricks(state, BREAKING)
    assert hand_ends(state)[-1]["tricks"] == [6, 1, 0, 0]
    state.apply("H")  # seat 0 names hearts; seat 1 leads hand 2
    assert pending(state) == Decision(1, "play", ["2C", "3C", "4C", "5C", "6C"])


def test_trumps_broken_leader_holding_only_trumps_may_lead_them() -> None:
    """``trumps_broken``: a leader holding nothing but trumps may lead any of them."""
    spades = ["3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    deal = Deal.from_hands(
        3,
        [
            spades,
            ["2H", "3H", "4H", "5H", "6H", "7H", "8H"],
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
        ],
        turn_up="2S",
    )
    state = new_game(Rules(trumps_broken=True), [deal])
    assert pending(state) == Decision(0, "play", spades)


def test_trumps_may_be_led_at_once_by_default() -> None:
    """Without ``trumps_broken`` the first leader may lead its trump."""
    state = new_game(Rules(), [Deal.from_tricks(3, BREAKING, turn_up="2S")])
    assert pending(state) == Decision(0, "play", ["KC", "KH", "KD", "KS", "AC", "AH", "AD"])


def _rainbow_game() -> GameState:
    """Hands 1-3 (seat 3 a dog after hand 3, seat 0 the chooser), then hand 4 dealt by
    seat 2 where seats 0 and 2 hold a rainbow; waits for the first rainbow offer."""
    plan = [
        Deal.from_tricks(3, mono_tricks(4, [0, 0, 1, 2, 3, 0, 1]), turn_up="2C"),
        Deal.from_tricks(0, mono_tricks(4, [0, 1, 2, 3, 0, 0])),
        Deal.from_tricks(1, mono_tricks(4, [0, 1, 2, 0, 0])),
        Deal.from_hands(
            2,
            [["2C", "3H", "4D", "5S"], ["TC", "JC", "QH", "KD"], ["6C", "7H", "8D", "9S"], ["AS"]],
        ),
    ]
    state = new_game(Rules(rainbow=True), plan, cuts={1: ["2C", "AS"]})
    for deal in plan[:3]:
        play_hand(state, deal)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, DOG]
    state.apply("H")
    return state


def test_rainbow_on_the_four_card_hand() -> None:
    """``rainbow``: on hand 4, after trumps are named, the eligible seats (one card of
    each suit, not the dog) are asked from the leader round; a declaration is revealed
    only after all have answered; the hand ends with no tricks, nobody is knocked out
    (the dog stays a dog) and the declarer names trumps for hand 5."""
    state = _rainbow_game()
    assert pending(state) == Decision(0, "rainbow", DECLARE)
    state.apply("declare")
    assert pending(state) == Decision(2, "rainbow", DECLARE)
    assert events(state, "declare") == []
    state.apply("pass")
    assert events(state, "declare") == [
        {
            "type": "event",
            "event": "declare",
            "seat": 0,
            "what": "rainbow",
            "cards": ["2C", "3H", "4D", "5S"],
        }
    ]
    assert hand_ends(state)[-1] == {
        "type": "hand_end",
        "hand": 4,
        "tricks": [0, 0, 0, 0],
        "statuses": [ACTIVE, ACTIVE, ACTIVE, DOG],
        "chooser": 0,
    }
    deal = deal_records(state)[-1]
    assert (deal["hand"], deal["hand_size"], deal["dealer"], deal["statuses"]) == (
        5,
        3,
        3,
        [ACTIVE, ACTIVE, ACTIVE, DOG],
    )
    assert hand_sizes(deal) == [3, 3, 3, 1]
    assert pending(state) == Decision(0, "trump", SUITS)


def test_several_rainbows_cut_among_the_declarers() -> None:
    """Two rainbows: both declarations are shown, and a trump cut among the two
    declarers (only) decides who names trumps next."""
    state = _rainbow_game()
    state.apply("declare")
    state.apply("declare")
    assert [e["seat"] for e in events(state, "declare")] == [0, 2]
    assert [e for e in events(state, "cut") if e["purpose"] == "trump"] == [
        {
            "type": "event",
            "event": "cut",
            "purpose": "trump",
            "draws": [[0, "2C"], [2, "AS"]],
            "winner": 2,
        }
    ]
    assert hand_ends(state)[-1]["chooser"] == 2
    assert pending(state) == Decision(2, "trump", SUITS)


#: Hand 2 hands for the no_picture redeals: seat 2 holds nothing above a ten; dog 3's
#: low card does not make it eligible.
NO_PICTURE_HANDS = [
    ["AS", "KS", "QS", "JS", "TS", "9S"],
    ["AH", "KH", "QH", "JH", "TH", "9H"],
    ["2C", "3C", "4C", "5C", "6C", "TC"],
    ["2H"],
]


def test_no_picture_redeals_the_same_hand_and_stops_after_three() -> None:
    """``no_picture`` on hand 2: the declaration voids the hand (all tricks 0, statuses
    kept), the next dealer redeals the same hand number and size, the same seat names
    trumps; after three redeals in a row no declaration is offered."""
    redeals = [Deal.from_hands(dealer, NO_PICTURE_HANDS) for dealer in (0, 1, 2, 3)]
    first = hand1(ZERO_FOR_3)
    state = new_game(Rules(no_picture=True), [first, *redeals])
    assert pending(state) == Decision(3, "no_picture", DECLARE)  # seat 3 holds no picture
    state.apply("pass")
    play_hand(state, first)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, DOG]
    for number, deal in enumerate(redeals[:3], start=1):
        assert deal_records(state)[-1]["dealer"] == deal.dealer
        assert pending(state) == Decision(0, "trump", SUITS)
        state.apply("S")
        assert pending(state) == Decision(2, "no_picture", DECLARE)
        state.apply("declare")
        assert events(state, "declare")[-1] == {
            "type": "event",
            "event": "declare",
            "seat": 2,
            "what": "no_picture",
            "cards": NO_PICTURE_HANDS[2],
        }
        assert hand_ends(state)[-1] == {
            "type": "hand_end",
            "hand": 2,
            "tricks": [0, 0, 0, 0],
            "statuses": [ACTIVE, ACTIVE, ACTIVE, DOG],
            "chooser": 0,
        }
        redeal = deal_records(state)[-1]
        assert redeal["hand"] == 2
        assert redeal["hand_size"] == 6
        assert redeal["dealer"] == redeals[number].dealer
        assert redeal["statuses"] == [ACTIVE, ACTIVE, ACTIVE, DOG]
        assert redeal["turn_up"] is None
        assert redeal["hands"] == redeals[number].seat_hands()
        assert len(events(state, "declare")) == number
    assert state.deals == 5
    assert pending(state) == Decision(0, "trump", SUITS)
    state.apply("S")
    assert pending(state).action == "play"
    assert pending(state).seat == 0  # the leader: left of dealer 3


def test_no_picture_on_hand_one_turns_up_a_new_card() -> None:
    """``no_picture`` on hand 1: the redeal is still hand 1 (7 cards), dealt by the next
    dealer, with a new turn-up that sets trumps; nobody names trumps."""
    hands = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
        ["8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ["8D", "9D", "TD", "JD", "QD", "KD", "AD"],
        ["8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ]
    deals = [Deal.from_hands(3, hands, turn_up="2S"), Deal.from_hands(0, hands, turn_up="2H")]
    state = new_game(Rules(no_picture=True), deals)
    assert pending(state) == Decision(0, "no_picture", DECLARE)
    state.apply("declare")
    assert hand_ends(state) == [
        {
            "type": "hand_end",
            "hand": 1,
            "tricks": [0, 0, 0, 0],
            "statuses": [ACTIVE, ACTIVE, ACTIVE, ACTIVE],
            "chooser": None,
        }
    ]
    redeal = deal_records(state)[-1]
    assert (redeal["hand"], redeal["hand_size"], redeal["dealer"], redeal["turn_up"]) == (
        1,
        7,
        0,
        "2H",
    )
    assert events(state, "trump")[-1] == {
        "type": "event",
        "event": "trump",
        "suit": "H",
        "seat": None,
    }
    assert pending(state) == Decision(0, "no_picture", DECLARE)


def test_no_picture_redeal_of_hand_one_is_still_the_first_deal() -> None:
    """``dog_first_hand_only`` with ``no_picture``: after hand 1 is voided and redealt,
    a zero-trick seat of the redealt hand 1 still gets a Dog's Life."""
    voided = Deal.from_hands(
        3,
        [
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
            ["8H", "9H", "TH", "JH", "QH", "KH", "AH"],
            ["8D", "9D", "TD", "JD", "QD", "KD", "AD"],
            ["8S", "9S", "TS", "JS", "QS", "KS", "AS"],
        ],
        turn_up="2S",
    )
    redealt = Deal.from_tricks(0, mono_tricks(4, [0, 1, 2, 0, 1, 2, 0]), turn_up="2C")
    state = new_game(Rules(no_picture=True, dog_first_hand_only=True), [voided, redealt])
    state.apply("declare")
    play_hand(state, redealt)
    end = hand_ends(state)[-1]
    assert (end["hand"], end["tricks"], end["statuses"]) == (
        1,
        [3, 2, 2, 0],
        [ACTIVE, ACTIVE, ACTIVE, DOG],
    )


#: Hand 2 after ZERO_FOR_3 (dealer 0, spades trumps): dog 3 trumps trick 2 and is back;
#: seat 2 takes nothing.
DOG_BACK_SEAT_2_ZERO: list[Trick] = [
    # seat 0  seat 1  seat 2  dog 3
    ("2H", "AH", "3H", None),  # 1
    ("4H", "5H", "6H", "2S"),  # 3
    ("AD", "2D", "3D", None),  # 0
    ("KD", "4D", "5D", None),  # 0
    ("AC", "2C", "3C", None),  # 0
    ("4C", "KC", "5C", None),  # 1
]

#: Hand 3 under ``expanded`` (dealer 1, spades trumps): dog 2 knocks on the lead, then
#: trumps trick 2; seat 3, a dog before, takes nothing.
EXPANDED_HAND3: list[Trick] = [
    # seat 0  seat 1  dog 2  seat 3
    ("2H", "AH", None, "3H"),  # 1
    ("4H", "5H", "2S", "6H"),  # 2
    ("AD", "2D", None, "3D"),  # 0
    ("AC", "2C", None, "3C"),  # 0
    ("KC", "4C", None, "5C"),  # 0
]


@pytest.mark.parametrize(("dog_life", "seat2"), [("standard", OUT), ("expanded", DOG)])
def test_expanded_gives_each_player_one_dogs_life(dog_life: str, seat2: str) -> None:
    """Seat 2's first zero-trick hand comes after the game's first zero-trick event:
    standard rules knock it out, ``expanded`` gives it a Dog's Life."""
    hand2 = Deal.from_tricks(0, DOG_BACK_SEAT_2_ZERO)
    state = start_after_hand1(Rules(dog_life=dog_life), ZERO_FOR_3, hand2)
    assert winners(play_hand(state, hand2, trump="S")) == [1, 3, 0, 0, 0, 1]
    end = hand_ends(state)[-1]
    assert (end["tricks"], end["statuses"]) == ([3, 2, 0, 1], [ACTIVE, ACTIVE, seat2, ACTIVE])


def test_expanded_second_zero_trick_hand_is_out() -> None:
    """``expanded``: seat 3, back from its Dog's Life, takes nothing again and is out,
    while seat 2's dog wins a trick and is active again."""
    hand2 = Deal.from_tricks(0, DOG_BACK_SEAT_2_ZERO)
    hand3 = Deal.from_tricks(1, EXPANDED_HAND3)
    state = start_after_hand1(Rules(dog_life="expanded"), ZERO_FOR_3, hand2, hand3)
    play_hand(state, hand2, trump="S")
    state.apply("S")
    assert pending(state) == Decision(2, "play", ["knock", "2S"])
    assert winners(play_hand(state, hand3)) == [1, 2, 0, 0, 0]
    end = hand_ends(state)[-1]
    assert (end["tricks"], end["statuses"]) == ([3, 1, 1, 0], [ACTIVE, ACTIVE, ACTIVE, OUT])


@pytest.mark.parametrize("upside_dog", [False, True])
def test_upside_dog_card_is_seen_by_all(upside_dog: bool) -> None:
    """``upside_dog``: the dog's card is in the deal record, every seat's
    ``hand_start`` and every seat's request state as ``dog_cards``; without the
    option no ``dog_cards`` appear anywhere."""
    hand2 = Deal.from_tricks(0, LATER_ZERO)
    state = start_after_hand1(Rules(upside_dog=upside_dog), ZERO_FOR_3, hand2)
    state.apply("S")
    deal = deal_records(state)[-1]
    expected = {"3": "2H"} if upside_dog else None
    assert deal.get("dog_cards") == expected
    for seat in range(4):
        assert hand_start(deal, seat).get("dog_cards") == expected
        assert request_state(state, seat).get("dog_cards") == expected
    assert hand_start(deal, 0)["cards"] == ["3H", "4D", "QD", "KC", "AC", "AD"]


@pytest.mark.parametrize(("dog_first_hand_only", "seat3"), [(False, DOG), (True, OUT)])
def test_dog_first_hand_only(dog_first_hand_only: bool, seat3: str) -> None:
    """Nobody takes zero tricks in hand 1; seat 3 takes none in hand 2: a Dog's Life
    under the standard rules, out under ``dog_first_hand_only``."""
    hand2 = Deal.from_tricks(0, mono_tricks(4, [0, 1, 2, 0, 0, 1]))
    rules = Rules(dog_first_hand_only=dog_first_hand_only)
    state = start_after_hand1(rules, EVERYONE_SCORES, hand2)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, ACTIVE]
    play_hand(state, hand2)
    end = hand_ends(state)[-1]
    assert (end["tricks"], end["statuses"]) == ([3, 2, 1, 0], [ACTIVE, ACTIVE, ACTIVE, seat3])


def test_dog_first_hand_only_still_grants_dogs_on_the_first_deal() -> None:
    """``dog_first_hand_only``: a zero-trick seat of hand 1 gets its Dog's Life."""
    state = start_after_hand1(Rules(dog_first_hand_only=True), ZERO_FOR_3)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, DOG]


def test_dog_life_none_knocks_out_at_once() -> None:
    """``dog_life=none``: the first zero-trick player is out at once and dealt nothing;
    ``blind_dog``, ``upside_dog`` and ``dog_first_hand_only`` change nothing."""
    rules = Rules(dog_life="none", blind_dog=True, upside_dog=True, dog_first_hand_only=True)
    state = start_after_hand1(rules, ZERO_FOR_3)
    assert hand_ends(state)[-1]["statuses"] == [ACTIVE, ACTIVE, ACTIVE, OUT]
    deal = deal_records(state)[-1]
    assert hand_sizes(deal) == [6, 6, 6, 0]
    assert deal["blind"] == []
    assert "dog_cards" not in deal
    assert pending(state) == Decision(0, "trump", SUITS)

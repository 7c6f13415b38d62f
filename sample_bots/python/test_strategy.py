"""The helpers, and the greedy strategy's choices in named situations.

(The arena's own suite also checks, on thousands of recorded requests, that the
strategy plays exactly the moves of the arena's Python greedy bot.)
"""

from __future__ import annotations

import unittest
from typing import Any

from cards import Card, Suit
from greedy import greedy
from helpers import (
    beats,
    budget_ms,
    decisions_left,
    outstanding,
    seeded_random,
    sort_legal,
    to_play,
    trick_winner,
    unseen,
)
from messages import Decision, Request, SeatCard, Time, decode
from strategy import Strategy


def request(action: str, legal: list[str], **state: Any) -> Request:
    """A request of a 3-seat game, seat 0 to move, hand 3 of 5 cards, hearts trumps, no card
    played yet; ``state`` overrides any of its state's fields (in their JSON form)."""
    fields: dict[str, Any] = {
        "seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "H", "cards": [],
        "leader": 0, "trick": [], "played": [], "tricks": [0, 0, 0],
        "statuses": ["active", "active", "active"], "turn_up": None, "history": [],
        "blind": [], "knocked": [],
    }  # fmt: skip
    fields.update(state)
    message = decode({
        "type": "request", "id": 7, "action": action, "legal": legal, "state": fields,
        "time": {"move_ms": 1000, "bank_ms": 10000},
    })  # fmt: skip
    assert isinstance(message, Request)
    return message


def cards(*texts: str) -> list[Card]:
    return [Card.parse(text) for text in texts]


class HelpersTest(unittest.TestCase):
    def test_who_wins_a_trick(self) -> None:
        trick = [SeatCard(1, Card.parse("9D")), SeatCard(2, Card.parse("KD"))]
        self.assertEqual(trick_winner(trick, Suit.HEARTS), trick[1])
        ruffed = [*trick, SeatCard(0, Card.parse("2H"))]
        self.assertEqual(trick_winner(ruffed, Suit.HEARTS), ruffed[2])
        self.assertEqual(trick_winner(ruffed, None), trick[1], "no trumps: the suit led")
        self.assertIsNone(trick_winner([], Suit.HEARTS))
        self.assertFalse(beats(Card.parse("AS"), Card.parse("2D"), Suit.HEARTS), "off suit")

    def test_legal_moves_by_kind(self) -> None:
        moves = sort_legal(request("play", ["knock", "7S"]).legal)
        self.assertEqual((moves.cards, moves.knock, moves.blind), (tuple(cards("7S")), True, False))
        offer = sort_legal(request("rainbow", ["pass", "declare"]).legal)
        self.assertTrue(offer.pass_ and offer.declare and not offer.cards)
        self.assertEqual(
            sort_legal(request("trump", ["C", "S"]).legal).suits, (Suit.CLUBS, Suit.SPADES)
        )

    def test_unseen_and_outstanding_cards(self) -> None:
        state = request(
            "play", ["2C"], cards=["2C", "AS"], played=[[1, "3C"]], turn_up="4C",
            dog_cards={"2": "5C"}, statuses=["active", "active", "dog"],
        ).state  # fmt: skip
        hidden = unseen(state)
        self.assertEqual(len(hidden), 52 - 5)
        self.assertFalse({*cards("2C", "AS", "3C", "4C", "5C")} & set(hidden))
        self.assertEqual(set(outstanding(state)) - set(hidden), {Card.parse("5C")})

    def test_seats_still_to_play_leave_out_the_dog_that_knocked(self) -> None:
        state = request(
            "play", ["2C"], seat=1, leader=0, trick=[[0, "9C"]], played=[[0, "9C"]],
            statuses=["active", "active", "dog", "dog", "out"],
            tricks=[0, 0, 0, 0, 0], knocked=[3],
        ).state  # fmt: skip
        self.assertEqual(to_play(state), [2])

    def test_the_time_budget_keeps_a_margin(self) -> None:
        state = request("play", ["2C"], cards=["2C", "3C", "4C"], hand=5).state
        self.assertEqual(decisions_left(state), 3 + 2 + 1)
        self.assertEqual(budget_ms(Time(1000, 6000), state), 800 + 500)
        self.assertEqual(budget_ms(Time(100, 0), state), 80)
        self.assertEqual(budget_ms(Time(50, 0), state), 40)  # 10% of 50 ms kept back: 45
        self.assertEqual(budget_ms(Time(0, 0), state), 0)

    def test_the_generator_depends_on_the_game_and_seat_only(self) -> None:
        draws = [seeded_random("g1", seat).random() for seat in (0, 1, 0)]
        self.assertEqual(draws[0], draws[2])
        self.assertNotEqual(draws[0], draws[1])


#: (why, the request, the move, the rule named in its info).
CHOICES: list[tuple[str, Request, str, str]] = [
    ("trumps: the longest and strongest suit", request(
        "trump", ["C", "H", "D", "S"], trump=None, cards=["2S", "9S", "JS", "QS", "AD"],
    ), "S", "strongest_suit"),
    ("trumps: equal strength goes to the later suit", request(
        "trump", ["C", "H", "D", "S"], trump=None, cards=["2C", "2D"],
    ), "D", "strongest_suit"),
    ("a weak hand declares its rainbow", request(
        "rainbow", ["pass", "declare"], hand=4, cards=["3H", "4S", "TD", "QC"],
    ), "declare", "weak_hand"),
    ("a strong hand plays its rainbow out", request(
        "rainbow", ["pass", "declare"], hand=4, cards=["AH", "KS", "TD", "QC"],
    ), "pass", "strong_hand"),
    ("no picture: always declared", request(
        "no_picture", ["pass", "declare"], cards=["2C", "3D", "4H", "5S", "6C", "7D"],
    ), "declare", "always_declare"),
    ("following: the cheapest card that wins", request(
        "play", ["2D", "TD", "AD"], cards=["2D", "TD", "AD", "3H"], leader=2,
        trick=[[2, "9D"]], played=[[2, "9D"]],
    ), "TD", "cheapest_winner"),
    ("following, beaten: the lowest card", request(
        "play", ["2D", "TD"], cards=["2D", "TD", "3H"], leader=2, trick=[[2, "QD"]],
        played=[[2, "QD"]],
    ), "2D", "follow_low"),
    ("void with no trick yet: ruff low", request(
        "play", ["3H", "8H", "5C"], cards=["3H", "8H", "5C"], leader=2, trick=[[2, "QD"]],
        played=[[2, "QD"]],
    ), "3H", "ruff"),
    ("void, a trick won, trumps short: discard from the shortest suit", request(
        "play", ["3H", "5C", "7C", "4S"], cards=["3H", "5C", "7C", "4S"], leader=2,
        trick=[[2, "QD"]], played=[[2, "QD"]], tricks=[1, 0, 0],
    ), "4S", "discard_short_suit"),
    ("leading: a card nobody can beat", request(
        "play", ["3D", "KS", "AS"], cards=["3D", "KS", "AS"],
    ), "AS", "lead_boss"),
    ("leading, no trick yet: the top trump", request(
        "play", ["3D", "AH"], cards=["3D", "AH"],
    ), "AH", "lead_top_trump"),
    ("leading, trumps only: the lowest", request(
        "play", ["3H", "9H"], cards=["3H", "9H"], tricks=[1, 0, 0],
    ), "3H", "lead_low_trump"),
    ("leading: low from the longest side suit", request(
        "play", ["2C", "4D", "9D", "KH"], cards=["2C", "4D", "9D", "KH"], tricks=[1, 0, 0],
    ), "4D", "lead_longest_suit"),
    ("a blind dog with nothing to beat knocks", request(
        "play", ["knock", "blind"], seat=1, cards=[], blind=[1],
        statuses=["active", "dog", "active"],
    ), "knock", "dog_knock"),
    ("a blind dog last on a low side card plays", request(
        "play", ["knock", "blind"], seat=1, leader=2, cards=[], blind=[1],
        statuses=["active", "dog", "active"], trick=[[2, "5C"], [0, "7C"]],
        played=[[2, "5C"], [0, "7C"]],
    ), "blind", "dog_blind_gamble"),
    ("a dog holding the top trump plays it", request(
        "play", ["knock", "AH"], seat=1, cards=["AH"], statuses=["active", "dog", "active"],
    ), "AH", "dog_top_trump"),
    ("a dog that wins as the last to play plays", request(
        "play", ["knock", "KC"], seat=1, leader=2, cards=["KC"],
        statuses=["active", "dog", "active"], trick=[[2, "5C"], [0, "7C"]],
        played=[[2, "5C"], [0, "7C"]],
    ), "KC", "dog_wins_last"),
    ("a dog that cannot be sure knocks", request(
        "play", ["knock", "KC"], seat=1, leader=0, cards=["KC"],
        statuses=["active", "dog", "active"], trick=[[0, "5C"]], played=[[0, "5C"]],
    ), "knock", "dog_knock"),
    ("a dog on the last trick must play", request(
        "play", ["2C"], seat=1, cards=["2C"], statuses=["active", "dog", "active"],
    ), "2C", "dog_must_play"),
    ("one legal card", request("play", ["7S"], cards=["7S"]), "7S", "only_move"),
]  # fmt: skip


GAME_START = decode({
    "type": "game_start", "game": "g3-1", "seat": 0, "players": ["a", "b", "c"],
    "rules": {"players": 3, "dog_life": "standard", "dog_first_hand_only": False,
              "blind_dog": False, "upside_dog": False, "rainbow": False, "no_picture": False,
              "trumps_broken": False, "eliminated_deals": False, "sweep_wins": False,
              "tie_break": "cut"},
})  # fmt: skip


def decided(strategy: Strategy, asked: Request) -> Decision:
    """What ``strategy`` chose for ``asked``, as a decision (this strategy always gives one)."""
    chosen = strategy.choose(asked.state, asked.legal, asked)
    assert isinstance(chosen, Decision)
    return chosen


class GreedyTest(unittest.TestCase):
    def test_each_rule_in_its_situation(self) -> None:
        for why, asked, move, rule in CHOICES:
            with self.subTest(why):
                chosen, named = greedy(asked.state, asked.legal, asked.action)
                self.assertEqual((str(chosen), named), (move, rule))
                self.assertIn(chosen, asked.legal)
                self.assertEqual(decided(Strategy(), asked), Decision(chosen, {"rule": rule}))

    def test_every_rule_is_shown_above(self) -> None:
        self.assertEqual(len({rule for _, _, _, rule in CHOICES}), 18)

    def test_eps_plays_random_moves_seeded_by_the_game_and_seat(self) -> None:
        legal = ["2D", "TD", "AD", "3S", "4S"]
        asked = request("play", legal, cards=legal)

        def rules(eps: float) -> list[tuple[str, object]]:
            strategy = Strategy(eps)
            strategy.observe(GAME_START)
            chosen = [decided(strategy, asked) for _ in range(40)]
            return [(str(each.move), each.info) for each in chosen]

        random_moves = rules(1.0)
        self.assertEqual(random_moves, rules(1.0), "the same game, the same moves")
        self.assertTrue(all(info == {"rule": "random"} for _, info in random_moves))
        self.assertGreater(len({move for move, _ in random_moves}), 1)
        self.assertEqual(rules(0.0), [("AD", {"rule": "lead_boss"})] * 40)
        half = [info == {"rule": "random"} for _, info in rules(0.5)]
        self.assertTrue(any(half) and not all(half))


if __name__ == "__main__":
    unittest.main()

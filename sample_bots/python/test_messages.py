"""The typed model: cards and moves in their wire form, every message read and written
back as it came, and lines that do not fit refused by name.

    python3 -m unittest        # in this folder: every test of the kit
"""

# ruff: noqa: E501  (the example lines are whole JSON messages, as on the wire)
from __future__ import annotations

import json
import unittest
from pathlib import Path

from cards import DECK, Card, Rank, Suit, Word, parse_move
from messages import (
    Action,
    CutEvent,
    GameEnd,
    HandStart,
    Hello,
    MoveReply,
    ProtocolError,
    Ready,
    Request,
    SeatCard,
    Status,
    TrumpEvent,
    Turn,
    decode,
    decode_line,
    encode,
)

#: One line of every message of protocol v1, both ways, with optional fields present and
#: absent and null values, as the guide shows them.
MESSAGES = [
    '{"type": "hello", "protocol": 1, "limits": {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 10000}}',
    '{"type": "game_start", "game": "g7-1", "seat": 0, "players": ["random15", "alice", "bob"], "rules": {"players": 3, "dog_life": "standard", "dog_first_hand_only": false, "blind_dog": false, "upside_dog": true, "rainbow": true, "no_picture": false, "trumps_broken": false, "eliminated_deals": false, "sweep_wins": false, "tie_break": "cut"}}',
    '{"type": "hand_start", "hand": 1, "dealer": 0, "cards": ["2D", "3S", "7S", "TH", "JD", "KS", "AS"], "hand_size": 7, "turn_up": "7C", "statuses": ["active", "active", "active"]}',
    '{"type": "hand_start", "hand": 5, "dealer": 1, "cards": ["4D", "9C", "QH"], "hand_size": 3, "turn_up": null, "statuses": ["active", "active", "dog"], "dog_cards": {"2": "7S"}}',
    '{"type": "event", "event": "trump", "suit": "C", "seat": null}',
    '{"type": "event", "event": "trump", "suit": "S", "seat": 2}',
    '{"type": "event", "event": "play", "seat": 1, "card": "QS"}',
    '{"type": "event", "event": "knock", "seat": 2}',
    '{"type": "event", "event": "trick", "winner": 2, "cards": [[2, "TC"], [0, "KC"], [1, "JC"]]}',
    '{"type": "event", "event": "declare", "seat": 2, "what": "rainbow", "cards": ["2C", "3D", "6S", "QH"]}',
    '{"type": "event", "event": "cut", "purpose": "trump", "draws": [[0, "TS"], [2, "4S"]], "winner": 0}',
    '{"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}',
    '{"type": "request", "id": 44, "action": "play", "legal": ["4H", "9H", "QH", "QD", "AD"], "state": {"seat": 0, "hand": 2, "hand_size": 6, "dealer": 2, "trump": "D", "cards": ["4H", "9H", "QH", "QD", "AD"], "leader": 0, "trick": [], "played": [[3, "3C"], [0, "9C"], [1, "5S"], [2, "6C"]], "tricks": [1, 0, 0, 0, 0], "statuses": ["active", "active", "active", "dog", "dog"], "turn_up": null, "history": [{"leader": 3, "moves": [[3, "3C"], [4, "knock"], [0, "9C"], [1, "5S"], [2, "6C"]], "winner": 0}], "blind": [], "knocked": [], "dog_cards": {"3": "3C", "4": "4D"}}, "time": {"move_ms": 1000, "bank_ms": 10000}}',
    '{"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}',
    '{"type": "error", "id": 46, "message": "5S is not legal: you must follow hearts; you forfeit this game"}',
    '{"type": "error", "message": "expected ready with a string name; you forfeit this game"}',
    '{"type": "hand_end", "hand": 1, "tricks": [0, 7], "statuses": ["out", "active"], "chooser": null}',
    '{"type": "game_end", "game": "g9-1", "placements": [1, 3, 2], "winner": 0, "faults": {"1": {"kind": "timeout", "detail": "no reply to request 12 within 1000 ms + 2310 ms of bank"}}}',
    '{"type": "bye"}',
    '{"type": "ready", "name": "random15", "version": "1.0", "author": "Ada"}',
    '{"type": "ready", "name": "random15"}',
    '{"type": "move", "id": 46, "move": "TH"}',
    '{"type": "move", "id": 35, "move": "AC", "info": {"line": ["AC"], "value": 0.005, "note": null}}',
]
#: Every line of the guide's examples and a recorded session, where this kit sits in the
#: arena's repository (a new bot's folder has no such file; the arena's suite reads it).
FIXTURE = Path(__file__).resolve().parent.parent.parent / "protocol/examples/roundtrip.jsonl"


class CardsTest(unittest.TestCase):
    def test_every_card_reads_and_writes_its_wire_form(self) -> None:
        self.assertEqual(len({str(card) for card in DECK}), 52)
        for card in DECK:
            self.assertIs(Card.parse(str(card)), card)
        ten = Card.parse("TD")
        self.assertEqual((ten.rank, ten.suit), (Rank.TEN, Suit.DIAMONDS))
        self.assertGreater(Card.parse("AS").rank, Card.parse("KS").rank)

    def test_the_canonical_order_is_rank_then_clubs_hearts_diamonds_spades(self) -> None:
        self.assertEqual([str(card) for card in DECK[:5]], ["2C", "2H", "2D", "2S", "3C"])
        self.assertEqual([card.index for card in DECK], list(range(52)))

    def test_a_move_is_a_card_a_suit_or_a_word(self) -> None:
        self.assertEqual(parse_move("TD"), Card(Rank.TEN, Suit.DIAMONDS))
        self.assertIs(parse_move("S"), Suit.SPADES)
        self.assertIs(parse_move("knock"), Word.KNOCK)
        self.assertEqual(parse_move("knock"), "knock")  # words and suits are strings too
        for wrong in ("10D", "td", "1X", "", "Knock", "SS"):
            with self.subTest(wrong=wrong), self.assertRaises(ValueError):
                parse_move(wrong)


class ModelTest(unittest.TestCase):
    def assert_round_trip(self, line: str) -> None:
        self.assertEqual(json.loads(encode(decode_line(line))), json.loads(line), line)

    def test_every_message_is_written_back_as_it_came(self) -> None:
        for line in MESSAGES:
            with self.subTest(line=line[:60]):
                self.assert_round_trip(line)

    def test_the_guides_examples_and_a_recorded_session_round_trip(self) -> None:
        if not FIXTURE.is_file():
            self.skipTest(f"not in the arena repository: no {FIXTURE}")
        lines = FIXTURE.read_text(encoding="utf-8").splitlines()
        self.assertGreater(len(lines), 100)
        for line in lines:
            self.assert_round_trip(line)

    def test_fields_are_typed(self) -> None:
        request = decode_line(MESSAGES[12])
        assert isinstance(request, Request)
        self.assertEqual(request.action, Action.PLAY)
        self.assertEqual(request.legal[0], Card.parse("4H"))
        state = request.state
        self.assertEqual(state.trump, Suit.DIAMONDS)
        self.assertEqual(state.played[0], SeatCard(3, Card.parse("3C")))
        self.assertEqual(state.history[0].moves[1], Turn(4, Word.KNOCK))
        self.assertEqual(state.dog_cards, {3: Card.parse("3C"), 4: Card.parse("4D")})
        self.assertEqual(state.statuses[3], Status.DOG)
        cut = decode_line(MESSAGES[10])
        assert isinstance(cut, CutEvent)
        self.assertEqual([seat for seat, _ in cut.draws], [0, 2])

    def test_null_and_absent_are_kept_apart(self) -> None:
        trump = decode_line(MESSAGES[4])
        assert isinstance(trump, TrumpEvent)
        self.assertIsNone(trump.seat)
        self.assertIn('"seat":null', encode(trump))  # null is written
        dealt = decode_line(MESSAGES[2])
        assert isinstance(dealt, HandStart)
        self.assertIsNone(dealt.dog_cards)
        self.assertNotIn("dog_cards", encode(dealt))  # absent stays absent
        self.assertEqual(encode(Ready("me")), '{"type":"ready","name":"me"}')
        self.assertEqual(encode(MoveReply(3, Word.PASS)), '{"type":"move","id":3,"move":"pass"}')
        reply = MoveReply(3, Card.parse("TD"), {"line": ["TD"], "value": None})
        self.assertEqual(json.loads(encode(reply))["info"], {"line": ["TD"], "value": None})

    def test_fields_this_model_does_not_know_are_kept(self) -> None:
        line = '{"type": "bye", "reason": "done", "stats": {"games": 3}}'
        self.assertEqual(decode_line(line).extra, {"reason": "done", "stats": {"games": 3}})
        self.assert_round_trip(line)
        nested = json.loads(MESSAGES[0])
        nested["limits"]["think_ms"] = 5
        hello = decode(nested)
        assert isinstance(hello, Hello)
        self.assertEqual(hello.limits.extra, {"think_ms": 5})
        self.assert_round_trip(json.dumps(nested))

    def test_a_line_that_does_not_fit_names_the_field(self) -> None:
        request = json.loads(MESSAGES[12])
        request["state"]["trick"] = [[1, "1X"]]
        cases = {
            json.dumps(request): 'request.state.trick[0][1]: expected a card like "TD", got "1X"',
            '{"type": "hello", "protocol": true, "limits": {}}': (
                "hello.protocol: expected an integer, got true"
            ),
            '{"type": "hand_end", "hand": 1, "tricks": [0, 7], "statuses": ["out", "active"]}': (
                "hand_end: missing field 'chooser'"
            ),
            '{"type": "game_end", "game": "g", "placements": [1], "winner": 0, "faults": '
            '{"01": {"kind": "crash", "detail": ""}}}': (
                "game_end.faults key '01': expected a seat number as a string, got \"01\""
            ),
            '{"type": "request", "id": 1, "action": "play", "legal": []}': (
                "request.legal: expected a list of at least 1, got []"
            ),
            "[1, 2]": "message: expected an object, got [1, 2]",
            "{not json": "not JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        }
        for line, why in cases.items():
            with self.subTest(line=line[:60]):
                with self.assertRaises(ProtocolError) as caught:
                    decode_line(line)
                self.assertEqual(str(caught.exception), why)
                self.assertFalse(caught.exception.unknown)

    def test_a_later_versions_message_is_marked_unknown(self) -> None:
        for line in ('{"type": "chat", "text": "hi"}', '{"type": "event", "event": "bid"}'):
            with self.subTest(line=line), self.assertRaises(ProtocolError) as caught:
                decode_line(line)
            self.assertTrue(caught.exception.unknown)

    def test_messages_are_values(self) -> None:
        first, again = decode_line(MESSAGES[17]), decode_line(MESSAGES[17])
        self.assertEqual(first, again)
        assert isinstance(first, GameEnd)
        self.assertEqual(first.faults[1].kind, "timeout")


if __name__ == "__main__":
    unittest.main()

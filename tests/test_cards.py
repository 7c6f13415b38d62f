"""Cards: the wire form round-trips, and the int order is the protocol's canonical order."""

from __future__ import annotations

import pytest

from arena.errors import ArenaError, CardError
from arena.game.cards import CARD_INDEX, CARD_SUIT, CARD_TEXT, DECK, Card, Rank, Suit, parse_card


def test_every_card_round_trips_through_its_wire_form() -> None:
    assert len(set(CARD_TEXT)) == 52
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert Card(card.rank, card.suit) is card
        assert CARD_SUIT[str(card)] == card.suit


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("TD", Rank.TEN, Suit.DIAMONDS), ("AS", Rank.ACE, Suit.SPADES), ("2C", Rank.TWO, Suit.CLUBS)],
)
def test_parse_reads_rank_and_suit(text: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert repr(card) == f"Card.parse({text!r})"


@pytest.mark.parametrize("text", ["1C", "TX", "td", "", "10D", "ASS"])
def test_bad_card_text_is_a_card_error(text: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)
    with pytest.raises(ValueError):
        Card.parse(text)


def test_card_error_belongs_to_the_hierarchy() -> None:
    assert issubclass(CardError, ArenaError)


def test_int_order_is_rank_then_suit_c_h_d_s() -> None:
    order = ["2C", "2H", "2D", "2S", "3C"]
    assert sorted(["3C", "2S", "2D", "2H", "2C"], key=CARD_INDEX.__getitem__) == order
    assert CARD_INDEX["AS"] == 51
    # The cut compares rank, then suit S > D > H > C: the same int order.
    assert CARD_INDEX["7S"] > CARD_INDEX["7D"] > CARD_INDEX["7H"] > CARD_INDEX["7C"]


def test_suit_parse_and_chars() -> None:
    assert Suit.parse("H") is Suit.HEARTS
    assert Suit.SPADES.char == "S"
    assert Rank.TEN.char == "T"
    with pytest.raises(CardError, match="is not a suit"):
        Suit.parse("X")

"""Cards, suits and ranks, and their wire form (``"TD"``, ``"S"``).

This module is the only place where the text form of a card is produced or
parsed. Inside the engine a card is a small int, ``rank_index * 4 + suit``,
because plain ints are what make random play fast; the ordering of those ints
is also the canonical order of the protocol (rank 2..A, then suit C, H, D, S)
and the order of a cut (rank, then suit S > D > H > C), so one comparison
serves both. :class:`Card` is the same int with a readable face, for code and
tests that want objects.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from arena.errors import CardError


class Suit(IntEnum):
    """The four suits; their values order them as the protocol lists them."""

    CLUBS = 0
    HEARTS = 1
    DIAMONDS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter wire form: ``"C"``, ``"H"``, ``"D"`` or ``"S"``."""
        return SUIT_CHARS[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its wire form.

        Raises:
            CardError: when ``text`` is not one of ``C H D S``.
        """
        index = SUIT_CHARS.find(text) if len(text) == 1 else -1
        if index < 0:
            raise CardError(f"{text!r} is not a suit: expected one of C, H, D, S")
        return cls(index)


class Rank(IntEnum):
    """Card ranks; the values are the usual face values (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The one-character wire form: ``"2"`` .. ``"9"``, then ``"T" "J" "Q" "K" "A"``."""
        return RANK_CHARS[self.value - 2]


SUIT_CHARS: Final = "CHDS"
RANK_CHARS: Final = "23456789TJQKA"
SUIT_NAMES: Final = ("clubs", "hearts", "diamonds", "spades")

#: Wire text of every card, indexed by the engine's card int.
CARD_TEXT: Final[tuple[str, ...]] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
#: Engine card int of every wire text.
CARD_INDEX: Final[dict[str, int]] = {text: i for i, text in enumerate(CARD_TEXT)}
#: Highest rank index that is not a picture card (the ten), for ``no_picture``.
TEN_INDEX: Final = RANK_CHARS.index("T")


def suit_of(card: int) -> int:
    """Suit (0..3) of an engine card int."""
    return card & 3


def rank_index(card: int) -> int:
    """Rank index (0 for a two .. 12 for an ace) of an engine card int."""
    return card >> 2


def parse_card(text: str) -> int:
    """Engine card int of a wire-form card such as ``"TD"``.

    Raises:
        CardError: when ``text`` is not a card.
    """
    try:
        return CARD_INDEX[text]
    except (KeyError, TypeError):
        raise CardError(
            f"{text!r} is not a card: expected a rank from {RANK_CHARS} and a suit from "
            f"{SUIT_CHARS}, e.g. 'TD'"
        ) from None


class Card(int):
    """An immutable playing card: an engine card int that prints as its wire form.

    ``Card(Rank.TEN, Suit.DIAMONDS)`` and ``Card.parse("TD")`` return the same
    interned object; ``str(card)`` is ``"TD"``.
    """

    __slots__ = ()

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[(int(rank) - 2) * 4 + int(suit)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card whose wire form is ``text``.

        Raises:
            CardError: when ``text`` is not a card.
        """
        return _CARDS[parse_card(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of an engine card int (0..51)."""
        return _CARDS[index]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank((self >> 2) + 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self & 3)

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_TEXT[self]!r})"


_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
#: The 52 cards in canonical order.
DECK: Final = _CARDS
#: Suit (0..3) of every wire text, for code that holds cards as text.
CARD_SUIT: Final[dict[str, int]] = {text: i & 3 for i, text in enumerate(CARD_TEXT)}

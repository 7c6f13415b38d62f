"""Cards, suits, ranks and moves, each with its wire form in one place.

A card on the wire is two characters, rank then suit: ``"TD"`` is the ten of
diamonds. Here it is a :class:`Card` of a :class:`Rank` and a :class:`Suit`:
``Card.parse("TD")`` reads one, ``str(card)`` writes it back, and
``card.rank > other.rank`` compares ranks (aces high). The 52 cards exist
once each (:data:`DECK`), so parsing a card is a dictionary look-up.

A move is a :class:`Card` (play it), a :class:`Suit` (name it trumps) or a
:class:`Word` (``knock``, ``blind``, ``pass``, ``declare``). ``Suit`` and
``Word`` are string enums, so ``move == "knock"`` and ``suit == "S"`` hold as
they read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Suit(StrEnum):
    """A suit, in the protocol's canonical order (the order of ``legal``): C, H, D, S."""

    CLUBS = "C"
    HEARTS = "H"
    DIAMONDS = "D"
    SPADES = "S"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """The suit written ``text`` (``"S"``).

        Raises:
            ValueError: for anything else.
        """
        suit = _SUITS.get(text)
        if suit is None:
            raise ValueError(f"not a suit: {text!r} (expected C, H, D or S)")
        return suit


class Rank(IntEnum):
    """A rank; its value is its face value (jack 11 .. ace 14), so ranks compare as numbers."""

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
        """Its wire character: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self - Rank.TWO]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank written ``text`` (``"T"``).

        Raises:
            ValueError: for anything else.
        """
        index = RANK_CHARS.find(text) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"not a rank: {text!r} (expected one of {RANK_CHARS})")
        return Rank(index + Rank.TWO)


#: The rank characters from low to high.
RANK_CHARS = "23456789TJQKA"
_SUITS = {suit.value: suit for suit in Suit}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``str(card)`` is its wire form (``"TD"``)."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return self.rank.char + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def index(self) -> int:
        """Its place in the canonical order (rank 2..A, then suit C, H, D, S): 0 to 51.

        ``sorted(cards, key=lambda card: card.index)`` sorts as ``legal`` lists cards.
        """
        return (self.rank - Rank.TWO) * 4 + _SUIT_ORDER[self.suit]

    @staticmethod
    def parse(text: str) -> Card:
        """The card written ``text`` (``"TD"``).

        Raises:
            ValueError: for anything else (``"10D"``, ``"td"``).
        """
        card = _CARDS.get(text)
        if card is None:
            raise ValueError(f"not a card: {text!r} (expected a rank then a suit, e.g. 'TD')")
        return card


_SUIT_ORDER = {suit: order for order, suit in enumerate(Suit)}
#: Every card, in the canonical order (rank 2..A, then suit C, H, D, S).
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
_CARDS = {str(card): card for card in DECK}


class Word(StrEnum):
    """The moves that are neither a card nor a suit."""

    #: A dog lets its turn go by.
    KNOCK = "knock"
    #: A blind dog plays its card unseen.
    BLIND = "blind"
    #: Answer to a declaration offer: do not declare.
    PASS = "pass"
    #: Answer to a declaration offer: declare (a rainbow, or no picture).
    DECLARE = "declare"


#: A move: a card to play, a suit to name as trumps, or a word.
Move = Card | Suit | Word
_WORDS = {word.value: word for word in Word}


def parse_move(text: str) -> Move:
    """The move written ``text``: a card (``"TD"``), a suit (``"S"``) or a word (``"knock"``).

    Raises:
        ValueError: for anything else.
    """
    move: Move | None = _CARDS.get(text) or _SUITS.get(text) or _WORDS.get(text)
    if move is None:
        raise ValueError(f"not a move: {text!r} (a card, a suit, knock, blind, pass or declare)")
    return move

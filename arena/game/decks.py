"""Where the engine's randomness comes from: shuffled decks, passed in.

The engine never owns a random generator. It asks a :class:`DeckSource` for
the top cards of a freshly shuffled deck, naming what the deck is for
(``"deal"``, ``"cut"``, ``"tie"``) and a counter ``k`` (the game's k-th deal,
redeals included; the k-th cut). Protocol v1 requires that the k-th deal
depend only on the game's seed and k, which is what lets a duplicate deal set
give every seat rotation the same cards.

:class:`SeededDecks` derives each deck from a hash of ``seed/purpose/k``
(BLAKE2b, 320 bits) decoded as a partial Fisher-Yates shuffle. It needs no
generator state, is the same on every platform and Python version, and costs
a few microseconds per deal, which matters when search bots simulate
thousands of games a second. Asking for fewer cards gives a prefix of the
same order, so the deck is well defined whatever the number of cards drawn.
"""

# arena: compiled with mypyc
from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

DECK_SIZE = 52


class DeckSource(Protocol):
    """A supplier of shuffled decks for the engine."""

    def draw(self, purpose: str, k: int, count: int) -> list[int]:
        """The top ``count`` cards (engine ints) of the deck for ``(purpose, k)``.

        Drawing fewer cards must give a prefix of drawing more.
        """
        ...


class SeededDecks:
    """Decks that depend only on an integer seed, the purpose and k."""

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __reduce__(self) -> tuple[type[SeededDecks], tuple[Any, ...]]:
        """Pickled as its constructor's arguments (the compiled class cannot be rebuilt blank)."""
        return SeededDecks, (self.seed,)

    def draw(self, purpose: str, k: int, count: int) -> list[int]:
        """The top ``count`` cards of the deck for ``(purpose, k)``."""
        digest = hashlib.blake2b(f"{self.seed}/{purpose}/{k}".encode(), digest_size=40).digest()
        return _unrank(int.from_bytes(digest, "big"), count)

    def __repr__(self) -> str:
        return f"SeededDecks({self.seed})"


class RandomDecks:
    """Decks drawn from a caller's :class:`random.Random`, ignoring k.

    For simulations (search bots sampling futures), where decks need only be
    random, not reproducible per deal.
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __reduce__(self) -> tuple[type[RandomDecks], tuple[Any, ...]]:
        """Pickled as its constructor's arguments (the compiled class cannot be rebuilt blank)."""
        return RandomDecks, (self.rng,)

    def draw(self, purpose: str, k: int, count: int) -> list[int]:
        """``count`` cards drawn at random without replacement."""
        return self.rng.sample(range(DECK_SIZE), count)


class StackedDecks:
    """Decks fixed in advance, for hand-built test positions and replays.

    ``decks`` maps ``(purpose, k)`` to the top of the deck; the remaining
    cards follow in canonical order. Decks not listed come from ``fallback``.
    """

    __slots__ = ("decks", "fallback")

    def __init__(
        self, decks: Mapping[tuple[str, int], Sequence[int]], fallback: DeckSource | None = None
    ) -> None:
        self.decks = {key: list(cards) for key, cards in decks.items()}
        self.fallback = fallback if fallback is not None else SeededDecks(0)

    def __reduce__(self) -> tuple[type[StackedDecks], tuple[Any, ...]]:
        """Pickled as its constructor's arguments (the compiled class cannot be rebuilt blank)."""
        return StackedDecks, (self.decks, self.fallback)

    def draw(self, purpose: str, k: int, count: int) -> list[int]:
        """The stacked top cards for ``(purpose, k)``, completed to ``count``."""
        top = self.decks.get((purpose, k))
        if top is None:
            return self.fallback.draw(purpose, k, count)
        seen = set(top)
        rest = [card for card in range(DECK_SIZE) if card not in seen]
        return (top + rest)[:count]


def _unrank(number: int, count: int) -> list[int]:
    """Decode ``number`` into the first ``count`` cards of a permutation.

    Each step takes the next mixed-radix digit of ``number`` (base 52, 51,
    ...) as the position of the drawn card among those left, which is a
    Fisher-Yates shuffle whose choices come from one large random integer.
    """
    pool = list(range(DECK_SIZE))
    drawn: list[int] = []
    append = drawn.append
    for left in range(DECK_SIZE, DECK_SIZE - count, -1):
        number, j = divmod(number, left)
        append(pool[j])
        pool[j] = pool[left - 1]
    return drawn


def stack_deal(
    players: int,
    dealer: int,
    hands: Mapping[int, Sequence[int]],
    *,
    hand_size: int,
    statuses: Sequence[str] | None = None,
    turn_up: int | None = None,
) -> list[int]:
    """The top of a deck that deals ``hands`` (seat -> cards) from ``dealer``.

    Inverts the engine's dealing order (one card at a time clockwise from the
    dealer's left; a dog gets one card, in the first round; out seats none).
    Seats missing from ``hands`` get the lowest cards nobody was given; the
    turn-up, if given, follows the dealt cards. For hand-built positions.

    Raises:
        ValueError: when a card is given twice or a hand has the wrong size.
    """
    statuses = list(statuses) if statuses is not None else ["active"] * players
    given = [card for cards in hands.values() for card in cards]
    if turn_up is not None:
        given.append(turn_up)
    if len(set(given)) != len(given):
        raise ValueError("a card is given twice")
    spare = [card for card in range(DECK_SIZE) if card not in set(given)]
    receivers = [
        (dealer + 1 + i) % players
        for i in range(players)
        if statuses[(dealer + 1 + i) % players] != "out"
    ]
    full: dict[int, list[int]] = {}
    for seat in receivers:
        want = hand_size if statuses[seat] == "active" else 1
        cards = list(hands.get(seat, ()))
        if seat not in hands:
            cards, spare = spare[:want], spare[want:]
        if len(cards) != want:
            raise ValueError(f"seat {seat} must be dealt {want} cards, not {len(cards)}")
        full[seat] = cards
    deck = []
    for round_no in range(hand_size):
        for seat in receivers:
            if round_no == 0 or statuses[seat] == "active":
                deck.append(full[seat][round_no])
    if turn_up is not None:
        deck.append(turn_up)
    return deck

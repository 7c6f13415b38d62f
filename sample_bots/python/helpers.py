"""What a strategy asks again and again: the legal moves by kind, who is winning the
trick, which cards are still hidden, who is still to play, and how long to think.

Each takes the typed model of ``messages.py``; none keeps any state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from cards import DECK, Card, Move, Suit, Word
from messages import SeatCard, State, Status, Time


@dataclass(frozen=True)
class LegalMoves:
    """The legal moves of a request, by kind."""

    #: The cards that may be played, in the order of ``legal``.
    cards: tuple[Card, ...]
    #: The suits that may be named trumps.
    suits: tuple[Suit, ...]
    #: A dog may let its turn go by.
    knock: bool
    #: A blind dog may play its unseen card.
    blind: bool
    #: A declaration offer (``rainbow``, ``no_picture``) may be passed...
    pass_: bool
    #: ...or declared.
    declare: bool


def sort_legal(legal: Iterable[Move]) -> LegalMoves:
    """``legal`` sorted by kind."""
    moves = tuple(legal)
    return LegalMoves(
        cards=tuple(move for move in moves if isinstance(move, Card)),
        suits=tuple(move for move in moves if isinstance(move, Suit)),
        knock=Word.KNOCK in moves,
        blind=Word.BLIND in moves,
        pass_=Word.PASS in moves,
        declare=Word.DECLARE in moves,
    )


def beats(card: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far: a higher
    card of ``best``'s suit, or a trump over a card that is not one."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def trick_winner(trick: Iterable[SeatCard], trump: Suit | None) -> SeatCard | None:
    """Who wins a trick, complete or in progress, and with which card: the highest trump,
    else the highest card of the suit led. ``None`` for an empty trick."""
    best: SeatCard | None = None
    for play in trick:
        if best is None or beats(play.card, best.card, trump):
            best = play
    return best


def winning(state: State) -> SeatCard | None:
    """Who is winning the trick in progress, and with which card (``None``: nothing played
    to it yet)."""
    return trick_winner(state.trick, state.trump)


def dog_card(state: State, seat: int) -> Card | None:
    """The face-up card of the dog at ``seat`` (``upside_dog``), if it was dealt one."""
    return (state.dog_cards or {}).get(seat)


def unseen(state: State) -> list[Card]:
    """The cards this seat has not seen, in the canonical order: the 52 less its own cards,
    the cards played this hand, the face-up dog cards and the turned-up card. Every card
    another seat holds is among them (but the face-up dog cards: see :func:`outstanding`),
    and so are the cards nobody was dealt."""
    seen = set(state.cards)
    seen.update(card for _, card in state.played)
    seen.update((state.dog_cards or {}).values())
    if state.turn_up is not None:
        seen.add(state.turn_up)
    return [card for card in DECK if card not in seen]


def outstanding(state: State) -> list[Card]:
    """The cards another seat may still play this hand, in the canonical order:
    :func:`unseen` and the face-up dog cards not played yet."""
    gone = set(state.cards)
    gone.update(card for _, card in state.played)
    if state.turn_up is not None:
        gone.add(state.turn_up)
    return [card for card in DECK if card not in gone]


def to_play(state: State) -> list[int]:
    """The seats that still have a turn in the trick in progress after this one, in turn
    order: active seats, and dogs that still hold their card and have not knocked in this
    trick."""
    seats = len(state.statuses)
    done = {seat for seat, _ in state.played}  # a dog's one card, once played, is gone
    done.update(state.knocked or ())
    after: list[int] = []
    seat = (state.seat + 1) % seats
    while seat not in (state.leader, state.seat):
        status = state.statuses[seat]
        if status == Status.ACTIVE or (status == Status.DOG and seat not in done):
            after.append(seat)
        seat = (seat + 1) % seats
    return after


def decisions_left(state: State) -> int:
    """About how many more requests this seat may get this game, this one included: one per
    card it holds now (at least one), and a full hand in each later hand. An upper bound
    for a seat that stays in (naming trumps adds one a hand)."""
    return max(len(state.cards), 1) + sum(8 - hand for hand in range(state.hand + 1, 8))


def time_left_ms(time: Time) -> int:
    """The hard limit for this move, in milliseconds: ``move_ms`` + ``bank_ms``. The clock
    started when the referee wrote the request: start yours when you read it."""
    return time.move_ms + time.bank_ms


def budget_ms(time: Time, state: State) -> int:
    """How long to think about this move, in milliseconds: 80% of ``move_ms``, plus an even
    share of half the bank over the decisions left, and never closer than 100 ms (or a
    tenth of the limit, when that is less) to the hard limit, for the reply to travel."""
    share = time.move_ms * 4 // 5 + time.bank_ms // 2 // decisions_left(state)
    margin = min(100, time_left_ms(time) // 10)
    return max(0, min(share, time_left_ms(time) - margin))


def seeded_random(game: str, seat: int) -> random.Random:
    """A generator seeded from the game id and the seat: the same game, the same numbers,
    whatever the process played before (reseed at each ``game_start``)."""
    return random.Random(f"{game}/{seat}")

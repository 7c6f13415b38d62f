"""The greedy sample strategy: :func:`greedy` is what ``strategy.py``'s ``Strategy.choose``
plays, a port of arena's greedy bot (``arena/samples/greedy_bot.py``) rule for rule, ties
included, so the two play the same moves:

- following: win the trick as cheaply as possible, else throw the lowest card;
  void in the suit led: trump only when it matters (no trick yet this hand, or
  trumps to spare), else discard the lowest card of a short suit;
- leading: a card nobody can beat in its suit, else low from the longest side
  suit;
- as a dog: play the card where it surely wins (the top trump left) or wins now
  with nobody left to play, else knock; a blind dog plays when it is last to act
  on a weak trick;
- trumps: the suit with the most length and high cards;
- declarations: rainbow on a weak hand (it voids the hand), always no_picture.

It keeps no memory: the request's ``state`` is the whole information set. Each move
comes with the name of the rule that picked it (``"cheapest_winner"`` and the like, the
same names in every starter kit). Read it for ideas, call it as a fallback, or ignore it.
"""

from __future__ import annotations

from cards import Card, Move, Rank, Suit, Word
from helpers import beats, sort_legal, winning
from messages import Action, State, Status

HIGH_CARD_POINTS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


def greedy(state: State, legal: tuple[Move, ...], action: Action) -> tuple[Move, str]:
    """The greedy bot's move, and the name of the rule that picked it."""
    if action == Action.TRUMP:
        return choose_trump(state.cards), "strongest_suit"
    if action == Action.RAINBOW:
        return (Word.DECLARE, "weak_hand") if weak_hand(state.cards) else (Word.PASS, "strong_hand")
    if action == Action.NO_PICTURE:
        return Word.DECLARE, "always_declare"  # a hand without pictures is weak: void it
    moves = sort_legal(legal)
    if moves.knock or moves.blind or state.statuses[state.seat] == Status.DOG:
        return play_as_dog(state, legal)
    if len(legal) == 1:
        return legal[0], "only_move"
    return follow(state, moves.cards) if state.trick else lead(state, moves.cards)


def points(cards: tuple[Card, ...] | list[Card]) -> int:
    """High-card points: ace 4, king 3, queen 2, jack 1."""
    return sum(HIGH_CARD_POINTS.get(card.rank, 0) for card in cards)


def weak_hand(cards: tuple[Card, ...]) -> bool:
    """Few high cards: worth voiding the hand with a rainbow."""
    return points(cards) < 5


def choose_trump(cards: tuple[Card, ...]) -> Suit:
    """The suit with the best length and high cards (ties: the later suit in C, H, D, S)."""

    def strength(order_and_suit: tuple[int, Suit]) -> int:
        order, suit = order_and_suit
        mine = [card for card in cards if card.suit == suit]
        # The Python bot's 2 * length + points + order / 10, times ten to stay in integers.
        return 20 * len(mine) + 10 * points(mine) + order

    return max(enumerate(Suit), key=strength)[1]


def unseen_higher(card: Card, state: State) -> list[Card]:
    """The cards of ``card``'s suit above it that are neither played nor in this hand."""
    gone = {played for _, played in state.played} | set(state.cards)
    return [
        higher
        for rank in Rank
        if rank > card.rank and (higher := Card(rank, card.suit)) not in gone
    ]


def seats_after_me(state: State) -> int:
    """How many seats may still play to this trick after this one: active seats, and dogs
    that have not played their card this hand. (Unlike ``helpers.to_play``, a dog that has
    knocked in this trick is counted, as the Python bot counts it.)"""
    seats = len(state.statuses)
    played_by = {seat for seat, _ in state.played}
    count = 0
    seat = (state.seat + 1) % seats
    while seat != state.leader:
        status = state.statuses[seat]
        if status == Status.ACTIVE or (status == Status.DOG and seat not in played_by):
            count += 1
        seat = (seat + 1) % seats
    return count


def play_as_dog(state: State, legal: tuple[Move, ...]) -> tuple[Move, str]:
    """A dog's move: its card where it surely wins, else a knock."""
    moves = sort_legal(legal)
    best = winning(state)
    if moves.blind:
        if not moves.knock:
            return Word.BLIND, "dog_must_play"
        # Play the unseen card only as the last to act on a trick a low side card is winning.
        weak = best is not None and best.card.suit != state.trump and best.card.rank <= Rank.EIGHT
        if weak and seats_after_me(state) == 0:
            return Word.BLIND, "dog_blind_gamble"
        return Word.KNOCK, "dog_knock"
    if not moves.cards:
        return legal[0], "only_move"
    card = moves.cards[0]
    if not moves.knock:
        return card, "dog_must_play"  # the hand's last trick: it must play
    if card.suit == state.trump and not unseen_higher(card, state):
        return card, "dog_top_trump"  # the top trump left: it wins wherever it is played
    if best is not None and beats(card, best.card, state.trump) and seats_after_me(state) == 0:
        return card, "dog_wins_last"
    return Word.KNOCK, "dog_knock"


def lowest(cards: list[Card] | tuple[Card, ...]) -> Card:
    """The first card of the lowest rank."""
    return min(cards, key=lambda card: card.rank)


def highest(cards: list[Card]) -> Card:
    """The first card of the highest rank."""
    return max(cards, key=lambda card: card.rank)


def lead(state: State, cards: tuple[Card, ...]) -> tuple[Card, str]:
    """The card to lead a trick with."""
    trump = state.trump
    sides = [card for card in cards if card.suit != trump]
    bosses = [card for card in sides if not unseen_higher(card, state)]
    if bosses:
        return highest(bosses), "lead_boss"
    trumps = [card for card in cards if card.suit == trump]
    if trumps and state.tricks[state.seat] == 0 and not unseen_higher(highest(trumps), state):
        return highest(trumps), "lead_top_trump"
    if not sides:
        return lowest(cards), "lead_low_trump"

    def length(suit: Suit) -> tuple[int, str]:  # ties: the suit letter last in the alphabet
        return sum(card.suit == suit for card in sides), suit.value

    longest = max(Suit, key=length)
    return lowest([card for card in sides if card.suit == longest]), "lead_longest_suit"


def follow(state: State, cards: tuple[Card, ...]) -> tuple[Card, str]:
    """The card to play to a trick already led."""
    trump = state.trump
    led = state.trick[0].card.suit
    best = winning(state) or state.trick[0]  # (never None: the trick was led)
    winners = [card for card in cards if beats(card, best.card, trump)]
    if any(card.suit == led for card in cards):  # following suit: every card is of it
        return (lowest(winners), "cheapest_winner") if winners else (lowest(cards), "follow_low")
    trumps = [card for card in winners if card.suit == trump]
    my_trumps = [card for card in cards if card.suit == trump]
    tricks_left = state.hand_size - sum(state.tricks)
    matters = state.tricks[state.seat] == 0 or len(my_trumps) * 2 >= max(1, tricks_left)
    if trumps and matters:
        return lowest(trumps), "ruff"
    discards = [card for card in cards if card.suit != trump] or list(cards)

    def length(suit: str) -> int:
        return sum(card.suit == suit for card in discards)

    # sorted(): the suit letter first in the alphabet takes a tie, as in the Python bot.
    shortest = min(sorted({card.suit.value for card in discards}), key=length)
    return lowest([card for card in discards if card.suit == shortest]), "discard_short_suit"

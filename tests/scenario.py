"""Hand-built deals for scenario tests: write the tricks, get the stacked decks.

A scenario writes each deal as the tricks it means to have played, one row per
trick and one column per seat (``None`` where a seat plays no card: a dog that
knocks, or a seat without cards)::

    HAND = [
        # seat 0  seat 1  seat 2  seat 3
        ("AS",    "2S",   "3S",   "4S"),  # seat 0 wins
        ...
    ]

:meth:`Deal.from_tricks` turns such a table into each seat's hand, and
:meth:`Deal.deck` into the top of the deck that makes the engine deal exactly
those hands from the given dealer (one card at a time clockwise from the
dealer's left, a dog once, an out seat never, then the turn-up on hand 1).
:func:`new_game` stacks the dealer cut and every deal; :func:`play_tricks`
then plays the table through the engine, which checks every card for
legality, so a scenario cannot silently describe an impossible game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.game import Decision, GameState, Rules, StackedDecks
from arena.game.cards import CARD_INDEX, RANK_CHARS

JSON = dict[str, Any]
#: One trick of a scenario: the card each seat plays, ``None`` for no card.
Trick = tuple[str | None, ...]

SUITS = ("C", "H", "D", "S")


def canonical(cards: Iterable[str]) -> list[str]:
    """Cards in the protocol's canonical order (rank 2..A, then suit C, H, D, S)."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


@dataclass(frozen=True)
class Deal:
    """One deal of a scenario: its dealer, each seat's hand, the turn-up, and the
    tricks to play (empty when the test plays the hand move by move)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turn_up: str | None = None
    tricks: tuple[Trick, ...] = ()

    @classmethod
    def from_tricks(cls, dealer: int, tricks: Sequence[Trick], turn_up: str | None = None) -> Deal:
        """The deal whose hands are exactly the cards each seat plays in ``tricks``."""
        n = len(tricks[0])
        assert all(len(row) == n for row in tricks), "every trick row needs one entry per seat"
        hands = tuple(
            tuple(canonical(card for row in tricks if (card := row[s]) is not None))
            for s in range(n)
        )
        return cls(dealer, hands, turn_up, tuple(tricks))

    @classmethod
    def from_hands(
        cls, dealer: int, hands: Sequence[Sequence[str]], turn_up: str | None = None
    ) -> Deal:
        """A deal given by each seat's hand (``[]`` for an out seat, one card for a dog)."""
        return cls(dealer, tuple(tuple(canonical(h)) for h in hands), turn_up)

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.hands)

    def seat_hands(self) -> list[list[str]]:
        """Each seat's hand in canonical order, as the engine's ``deal`` record shows it."""
        return [list(h) for h in self.hands]

    def deck(self) -> list[int]:
        """The top of the deck that deals these hands from this dealer (plus the turn-up)."""
        n = self.players
        size = max(len(h) for h in self.hands)
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        cards = [self.hands[s][r] for r in range(size) for s in order if r < len(self.hands[s])]
        if self.turn_up is not None:
            cards.append(self.turn_up)
        assert len(set(cards)) == len(cards), f"a card appears twice in the deal: {cards}"
        return [CARD_INDEX[c] for c in cards]


def dealer_cut(players: int, dealer: int) -> list[int]:
    """Cut cards (in seat order) that make ``dealer`` draw the highest card."""
    return [CARD_INDEX["AS"] if s == dealer else s for s in range(players)]


def new_game(
    rules: Rules,
    deals: Sequence[Deal | None],
    *,
    dealer: int | None = None,
    cuts: Mapping[int, Sequence[str]] | None = None,
    ties: Mapping[int, Sequence[str]] | None = None,
) -> GameState:
    """A recorded game whose first dealer and deals are stacked.

    Args:
        rules: the rule options.
        deals: the game's 1st, 2nd, ... deal (redeals count); ``None`` or a
            deal beyond the list comes from a fixed seeded deck.
        dealer: the first dealer; by default the first deal's dealer.
        cuts: the k-th trump-tie cut's cards, in the order the tied seats draw.
        ties: the k-th ``tie_break=random`` draw.
    """
    first = next(d for d in deals if d is not None)
    stacked: dict[tuple[str, int], list[int]] = {
        ("cut", 0): dealer_cut(rules.players, first.dealer if dealer is None else dealer)
    }
    for k, deal in enumerate(deals, start=1):
        if deal is not None:
            assert deal.players == rules.players, "a deal has the wrong number of seats"
            stacked["deal", k] = deal.deck()
    for k, cards in (cuts or {}).items():
        stacked["cut", k] = [CARD_INDEX[c] for c in cards]
    for k, cards in (ties or {}).items():
        stacked["tie", k] = [CARD_INDEX[c] for c in cards]
    return GameState(rules, StackedDecks(stacked), game_id="scenario")


def pending(state: GameState) -> Decision:
    """The decision the game waits for (fails the test when the game is over)."""
    assert state.pending is not None, "the game is over"
    return state.pending


def play_tricks(state: GameState, tricks: Sequence[Trick]) -> list[JSON]:
    """Play the current hand by the table ``tricks``, from the current trick.

    Stops at the end of the hand or once the tricks of the table are used up
    (so ``tricks[:2]`` plays two tricks and stops at the first decision of the
    third). A seat with ``None`` in its column knocks (it must be a dog); a
    blind dog answers ``"blind"``. Returns the ``trick`` events played.
    """
    deal_no = state.deals
    start = len(state.log)
    while (decision := state.pending) is not None and decision.action == "play":
        index = state.trick_no - 1
        if state.deals != deal_no or index >= len(tricks):
            break
        card = tricks[index][decision.seat]
        if card is None:
            move = "knock"
        elif state.blind[decision.seat]:
            move = "blind"
        else:
            move = card
        state.apply(move)
    return [r for r in state.log[start:] if r["type"] == "event" and r["event"] == "trick"]


def play_hand(state: GameState, deal: Deal, trump: str = "C") -> list[JSON]:
    """Check that the engine dealt ``deal``, name ``trump`` if asked, play its tricks.

    Returns the ``trick`` events of the hand.
    """
    record = deal_records(state)[-1]
    assert record["dealer"] == deal.dealer, "the deal did not pass as the scenario expects"
    assert record["hands"] == deal.seat_hands(), "the engine dealt other hands"
    if pending(state).action == "trump":
        state.apply(trump)
    tricks = play_tricks(state, deal.tricks)
    assert len(tricks) == len(deal.tricks), "the hand did not play out as scripted"
    return tricks


def mono_tricks(
    n: int, winners: Sequence[int], *, seats: Sequence[int] | None = None
) -> list[Trick]:
    """Tricks of a single suit each (clubs, hearts, diamonds, spades, clubs, ...).

    Every seat of ``seats`` (default: all) plays one card of the trick's suit
    and ``winners[t]`` holds the highest, so every trick is legal whoever
    leads it, and ``winners[t]`` wins it whatever the trump suit (not for
    ``trumps_broken``, where the leader may have to avoid trumps).
    """
    players = list(range(n)) if seats is None else list(seats)
    pools = {suit: [r + suit for r in reversed(RANK_CHARS)] for suit in SUITS}
    rows: list[Trick] = []
    for t, winner in enumerate(winners):
        pool = pools[SUITS[t % 4]]
        row: list[str | None] = [None] * n
        row[winner] = pool.pop(0)
        for s in players:
            if s != winner:
                row[s] = pool.pop(0)
        rows.append(tuple(row))
    return rows


def winners(tricks: Sequence[JSON]) -> list[int]:
    """The winner of each ``trick`` event."""
    return [t["winner"] for t in tricks]


def events(state: GameState, name: str) -> list[JSON]:
    """Every logged ``event`` named ``name``, in order."""
    return [r for r in state.log if r["type"] == "event" and r["event"] == name]


def deal_records(state: GameState) -> list[JSON]:
    """Every full-information ``deal`` record, in order."""
    return [r for r in state.log if r["type"] == "deal"]


def hand_ends(state: GameState) -> list[JSON]:
    """Every ``hand_end`` record, in order."""
    return [r for r in state.log if r["type"] == "hand_end"]


def game_end(state: GameState) -> JSON:
    """The ``game_end`` record (fails the test when the game is not over)."""
    last = state.log[-1]
    assert last["type"] == "game_end", "the game is not over"
    return last


def first_legal(state: GameState) -> str:
    """A chooser that always answers the first legal move."""
    return pending(state).legal[0]


def finish(state: GameState, chooser: Callable[[GameState], str] = first_legal) -> None:
    """Play the game to its end with ``chooser``."""
    while state.pending is not None:
        state.apply(chooser(state))


def hand_sizes(record: JSON) -> list[int]:
    """Cards dealt to each seat in a ``deal`` record."""
    return [len(h) for h in record["hands"]]

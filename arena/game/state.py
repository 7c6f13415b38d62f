"""The Knockout Whist engine: one game's state and every rule that moves it.

A :class:`GameState` always rests at a decision (``state.pending``: whose
turn, which action, the full list of legal moves in protocol order) or at the
end of the game (``pending is None``). :meth:`GameState.apply` checks a move
first and changes nothing when it is illegal (verify-then-apply); a legal
move is applied and the state runs on through everything that needs no
decision (finishing tricks, knock-outs, dealing, cuts) to the next one.

While ``record`` is true, every public happening is appended to ``log`` as a
dict in the exact shape of protocol v1 (``event``, ``hand_end``,
``game_end``) plus full-information ``deal`` records, so the log doubles as
the replay (the driver adds the ``move`` lines and the header). Search bots
turn ``record`` off and use :meth:`GameState.copy` to simulate cheaply.

Pure: no IO, no clock; randomness comes from the :class:`DeckSource` given.
Moves are the strings of the protocol, and held cards are kept as those same
strings (sorted in canonical order), so that legal moves, views and events
need no conversion on the hot path; :data:`CARD_INDEX` ranks them and
:data:`CARD_SUIT` gives their suit.
"""

# arena: compiled with mypyc
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from arena.errors import IllegalMove
from arena.game.cards import CARD_INDEX, CARD_SUIT, CARD_TEXT, SUIT_CHARS, SUIT_NAMES, TEN_INDEX
from arena.game.decks import DeckSource, SeededDecks
from arena.game.rules import Rules

ACTIVE: Final = "active"
DOG: Final = "dog"
OUT: Final = "out"

PLAY: Final = "play"
TRUMP: Final = "trump"
RAINBOW: Final = "rainbow"
NO_PICTURE: Final = "no_picture"

KNOCK: Final = "knock"
BLIND: Final = "blind"
PASS: Final = "pass"
DECLARE: Final = "declare"

#: Hands in a game; hand k deals ``HANDS + 1 - k`` cards to each non-dog.
HANDS: Final = 7
#: Consecutive ``no_picture`` redeals after which no declaration is offered.
MAX_REDEALS: Final = 3
#: The hand size on which a rainbow may be declared.
RAINBOW_HAND_SIZE: Final = 4
#: ``no_picture`` may be declared on hands of more cards than this.
NO_PICTURE_ABOVE: Final = 5

_SUIT_MOVES: Final = list(SUIT_CHARS)
_DECLARE_MOVES: Final = [PASS, DECLARE]

JSON = dict[str, Any]
#: A completed trick of the current hand, as the engine keeps it: the seats that had a turn
#: (in turn order), the cards played (in order; a seat of the first list missing here
#: knocked), and the winner. The two lists are the trick's own (a new trick gets new ones),
#: kept, not copied: recording a trick costs one tuple. :func:`arena.game.views.history`
#: gives the protocol's form.
CompletedTrick = tuple[list[int], list[tuple[int, str]], int]


class Decision(NamedTuple):
    """A decision the engine waits for: ``seat`` must answer ``action`` with one of ``legal``."""

    seat: int
    action: str
    legal: list[str]


_new_decision = tuple.__new__


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled or not, a class to build on
class GameState:
    """One game of Knockout Whist, from the cut for dealer to the placements.

    Attributes are public for reading (views, tests, bots); only
    :meth:`apply`, :meth:`record_fault` and (for searches)
    :meth:`set_hands` change them.
    """

    __slots__ = (
        "best",
        "best_seat",
        "blind",
        "chooser",
        "cuts",
        "dealer",
        "deals",
        "decks",
        "declarers",
        "declaring",
        "dog_cards",
        "faults",
        "first_leader",
        "game_id",
        "had_dog",
        "hand",
        "hand_size",
        "hands",
        "history",
        "horizon",
        "led",
        "log",
        "n",
        "order",
        "out_hand",
        "pending",
        "placements",
        "played",
        "record",
        "redeals",
        "rotations",
        "rules",
        "statuses",
        "trick",
        "trick_no",
        "tricks",
        "trump",
        "trump_played",
        "turn",
        "turn_up",
        "winner",
        "zero_event",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> GameState:
        """A bare instance, attributes unset: :meth:`copy` and :meth:`from_position` fill it.

        Written out because a class compiled with mypyc refuses
        ``object.__new__``; ``GameState.__new__`` works in both builds.
        """
        return super().__new__(cls)

    def __init__(
        self,
        rules: Rules,
        decks: DeckSource | int = 0,
        *,
        game_id: str = "",
        record: bool = True,
    ) -> None:
        """Start a game: cut for the first dealer, deal hand 1, stop at the first decision.

        Args:
            rules: the rule options, including the number of players.
            decks: where shuffled decks come from; an int is a seed for
                :class:`SeededDecks`.
            game_id: the id written into ``game_end``.
            record: keep the event log (turn off for fast simulation).
        """
        self.rules = rules
        self.n = n = rules.players
        self.decks: DeckSource = SeededDecks(decks) if isinstance(decks, int) else decks
        self.game_id = game_id
        self.record = record
        self.log: list[JSON] = []
        self.statuses: list[str] = [ACTIVE] * n
        self.blind: list[bool] = [False] * n
        self.had_dog: list[bool] = [False] * n
        self.out_hand: list[int] = [0] * n
        self.faults: dict[int, JSON] = {}
        self.zero_event = False
        self.hand = 1
        self.hand_size = HANDS
        self.horizon = HANDS
        self.deals = 0
        self.cuts = 0
        self.redeals = 0
        self.chooser: int | None = None
        self.trump = -1
        self.turn_up: str | None = None
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.dog_cards: dict[int, str] = {}
        self.tricks: list[int] = [0] * n
        self.played: list[tuple[int, str]] = []
        self.history: list[CompletedTrick] = []
        self.trick: list[tuple[int, str]] = []
        self.rotations = _rotations(n)
        self.trick_no = 0
        self.order: list[int] = []
        self.turn = 0
        self.first_leader = 0
        self.led = -1
        self.best = -1
        self.best_seat = -1
        self.trump_played = False
        self.declaring = ""
        self.declarers: list[int] = []
        self.placements: list[int] | None = None
        self.winner: int | None = None
        self.pending: Decision | None = None
        self.dealer = self._cut("dealer", 0, list(range(n)))
        self._start_hand()

    # ------------------------------------------------------------------ moves

    def apply(self, move: str, seat: int | None = None) -> None:
        """Play ``move`` for the seat whose turn it is.

        Args:
            move: a move string of protocol v1 (a card, a suit, ``knock``,
                ``blind``, ``pass`` or ``declare``).
            seat: if given, the seat that claims to move; checked.

        Raises:
            IllegalMove: when the game is over, it is not ``seat``'s turn or
                the move is not legal; nothing is changed.
        """
        pending = self.pending
        if pending is None or move not in pending[2] or (seat is not None and seat != pending[0]):
            raise IllegalMove(self.explain(move, seat))
        seat, action, _ = pending
        # == and not `is`: a state that was pickled holds equal strings, not these objects.
        if action != PLAY:
            if action == TRUMP:
                self.trump = SUIT_CHARS.index(move)
                if self.record:
                    self.log.append({"type": "event", "event": "trump", "suit": move, "seat": seat})
                self._offer_declarations()
            else:
                self._declare(seat, move)
            return
        # Playing a card is the hot path (millions of calls in simulations),
        # so it is written out here rather than in a helper.
        if move == KNOCK:
            if self.record:
                self.log.append({"type": "event", "event": "knock", "seat": seat})
        else:
            held = self.hands[seat]
            if move == BLIND:
                move = held.pop()
            else:
                held.remove(move)
            card = CARD_INDEX[move]
            suit = card & 3
            trick = self.trick
            if not trick:
                self.led = suit
                self.best = card
                self.best_seat = seat
            else:
                best = self.best
                best_suit = best & 3
                if (suit == best_suit and card > best) or (
                    suit == self.trump and best_suit != suit
                ):
                    self.best = card
                    self.best_seat = seat
            if suit == self.trump:
                self.trump_played = True
            pair = (seat, move)
            trick.append(pair)
            self.played.append(pair)
            if self.record:
                self.log.append({"type": "event", "event": "play", "seat": seat, "card": move})
        order = self.order
        turn = self.turn = self.turn + 1
        if turn < len(order):
            self._ask_play(order[turn])
        else:
            self._finish_trick()

    def record_fault(self, seat: int, kind: str, detail: str) -> None:
        """Note that ``seat`` faulted; it will be placed below every seat that did not.

        The game goes on (the driver plays the seat by a fallback); only the
        first fault of a seat is kept.

        Raises:
            ValueError: when the game is already over or the seat does not exist.
        """
        if self.pending is None:
            raise ValueError("the game is over: a fault can no longer change it")
        if not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} does not exist in a {self.n}-player game")
        self.faults.setdefault(seat, {"kind": kind, "detail": detail})

    def set_hands(self, hands: list[list[str]]) -> None:
        """Give the seats ``hands`` (a search's guess at the hidden cards, each seat holding as
        many as it does now) and ask the pending decision again from them.

        A play decision's legal moves follow the new hand. At a rainbow or no_picture
        offer, the seats asked are those the new hands make eligible, in the same turn
        order: earlier seats that declared and still may keep their answer, the others
        passed, and the seat asked now must stay eligible.

        Raises:
            ValueError: for a hand of another size, or a seat asked that the new hands
                would not ask.
        """
        if [len(held) for held in hands] != [len(held) for held in self.hands]:
            raise ValueError("each seat must hold as many cards as it does")
        self.hands = [sorted(held, key=CARD_INDEX.__getitem__) for held in hands]
        pending = self.pending
        if pending is None or pending.action == TRUMP:
            return
        if pending.action == PLAY:
            self._ask_play(pending.seat)
            return
        what = pending.action
        eligible = [
            s
            for s in self.rotations[self.first_leader]
            if self.statuses[s] == ACTIVE and _may_declare(what, self.hands[s])
        ]
        if pending.seat not in eligible:
            raise ValueError(f"seat {pending.seat} could not declare {what} with its new hand")
        turn = eligible.index(pending.seat)
        self.declarers = [s for s in self.declarers if s in eligible[:turn]]
        self.order = eligible
        self.turn = turn

    def legal_moves(self) -> list[str]:
        """The legal moves of the pending decision (empty when the game is over)."""
        return [] if self.pending is None else list(self.pending.legal)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.pending is None

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        decks: DeckSource,
        *,
        hand: int,
        dealer: int,
        trump: str,
        turn_up: str | None,
        statuses: list[str],
        blind: list[bool],
        hands: list[list[str]],
        tricks: list[int],
        played: Sequence[tuple[int, str] | list[Any]],
        trick: Sequence[tuple[int, str] | list[Any]],
        trick_leader: int,
        to_act: int,
        zero_event: bool,
        had_dog: list[bool],
        out_hand: list[int],
        deals: int = 0,
        cuts: int = 0,
        dog_cards: dict[int, str] | None = None,
        horizon: int = HANDS,
        history: Sequence[Any] | None = None,
    ) -> GameState:
        """A game set at a play decision in the middle of a hand, from known facts.

        For search bots: they fill in the hidden cards (``hands``) with a
        sample consistent with what they saw, and simulate on with
        ``decks`` for later deals. ``trick_leader`` is the seat that had the
        first turn of the current trick (a dog that knocked before the first
        card included); ``to_act`` the seat whose turn it is. ``history``:
        the hand's completed tricks, as a request's ``history`` or as
        :data:`CompletedTrick` (none: the new state's history starts empty).

        Raises:
            ValueError: when the position is not a play decision of ``to_act``.
        """
        n = rules.players
        state = cls.__new__(cls)
        state.rules = rules
        state.n = n
        state.decks = decks
        state._clear_extras()
        state.statuses = list(statuses)
        state.blind = list(blind)
        state.had_dog = list(had_dog)
        state.out_hand = list(out_hand)
        state.zero_event = zero_event
        state.hand = hand
        state.hand_size = HANDS + 1 - hand
        state.horizon = horizon
        state.deals = deals
        state.cuts = cuts
        state.dealer = dealer
        state.trump = SUIT_CHARS.index(trump)
        state.turn_up = turn_up
        state.hands = [sorted(held, key=CARD_INDEX.__getitem__) for held in hands]
        state.dog_cards = dict(dog_cards or {})
        state.tricks = list(tricks)
        # Pairs as tuples whatever the caller holds (JSON gives lists): the engine reads them so.
        state.played = [(seat, card) for seat, card in played]
        state.history = [_completed(entry) for entry in history or ()]
        state.trick = [(seat, card) for seat, card in trick]
        state.trick_no = sum(tricks) + 1
        state.rotations = _rotations(n)
        state._resume_trick(trick_leader, to_act)
        state.trump_played = any(CARD_INDEX[card] & 3 == state.trump for _, card in state.played)
        state._ask_play(to_act)
        return state

    def _clear_extras(self) -> None:
        """Empty what a game built by :meth:`from_position` starts without: no game id and
        no log (it records nothing: it is for simulation), no faults, no redeals, no seat to
        name trumps, no declaration under way, no placements and no winner."""
        self.game_id = ""
        self.record = False
        self.log = []
        self.faults = {}
        self.redeals = 0
        self.chooser = None
        self.declaring = ""
        self.declarers = []
        self.placements = None
        self.winner = None

    def copy(self, *, record: bool = False) -> GameState:
        """An independent copy for simulation; by default it keeps no log.

        Only the mutable containers are copied, so a copy costs a few
        microseconds.
        """
        other = GameState.__new__(GameState)
        # Every attribute by name (no loop over __slots__): a compiled class
        # has no __slots__ to read, and named stores are what make it fast.
        # tests/test_compiled.py checks that none is left out.
        other.rules = self.rules
        other.n = self.n
        other.decks = self.decks
        other.game_id = self.game_id
        other.zero_event = self.zero_event
        other.hand = self.hand
        other.hand_size = self.hand_size
        other.horizon = self.horizon
        other.deals = self.deals
        other.cuts = self.cuts
        other.redeals = self.redeals
        other.chooser = self.chooser
        other.dealer = self.dealer
        other.trump = self.trump
        other.turn_up = self.turn_up
        other.rotations = self.rotations
        other.trick_no = self.trick_no
        other.turn = self.turn
        other.first_leader = self.first_leader
        other.led = self.led
        other.best = self.best
        other.best_seat = self.best_seat
        other.trump_played = self.trump_played
        other.declaring = self.declaring
        other.placements = self.placements
        other.winner = self.winner
        other.pending = self.pending
        other.record = record
        other.log = list(self.log) if record else []
        other.statuses = list(self.statuses)
        other.blind = list(self.blind)
        other.had_dog = list(self.had_dog)
        other.out_hand = list(self.out_hand)
        other.faults = dict(self.faults)
        other.hands = [list(h) for h in self.hands]
        other.dog_cards = dict(self.dog_cards)
        other.tricks = list(self.tricks)
        other.played = list(self.played)
        other.history = list(self.history)
        other.trick = list(self.trick)
        other.order = list(self.order)
        other.declarers = list(self.declarers)
        if self.placements is not None:
            other.placements = list(self.placements)
        return other

    # ------------------------------------------------------------------ dealing

    def _start_hand(self) -> None:
        """Deal the current hand and stop at its first decision."""
        self.deals += 1
        statuses = self.statuses
        size = self.hand_size = HANDS + 1 - self.hand
        receivers = [s for s in self.rotations[(self.dealer + 1) % self.n] if statuses[s] != OUT]
        actives = [s for s in receivers if statuses[s] == ACTIVE]
        step = len(actives)
        count = position = len(receivers) + step * (size - 1)
        deck = self.decks.draw("deal", self.deals, count + (1 if self.hand == 1 else 0))
        # One card at a time clockwise from the dealer's left: the first round
        # reaches every receiver, later rounds only the active (non-dog) seats.
        hands: list[list[str]] = [[] for _ in range(self.n)]
        rest = deck[len(receivers) : count]
        for i, s in enumerate(receivers):
            if statuses[s] == ACTIVE:
                held = [deck[i], *rest[actives.index(s) :: step]]
                held.sort()
                hands[s] = [CARD_TEXT[c] for c in held]
            else:
                hands[s] = [CARD_TEXT[deck[i]]]
        self.hands = hands
        self.dog_cards = (
            {s: hands[s][0] for s in receivers if statuses[s] == DOG and not self.blind[s]}
            if self.rules.upside_dog
            else {}
        )
        self.tricks = [0] * self.n
        self.played = []
        self.history = []
        self.trick = []
        self.trick_no = 1
        self.trump_played = False
        self.first_leader = receivers[0]
        self.turn_up = CARD_TEXT[deck[position]] if self.hand == 1 else None
        self.trump = -1
        if self.record:
            self.log.append(self._deal_record())
        if self.hand == 1:
            self.trump = deck[position] & 3
            if self.record:
                self.log.append(
                    {
                        "type": "event",
                        "event": "trump",
                        "suit": SUIT_CHARS[self.trump],
                        "seat": None,
                    }
                )
            self._offer_declarations()
        else:
            chooser = self.chooser
            assert chooser is not None  # set by every hand_end that leads to another hand
            self.pending = Decision(chooser, TRUMP, _SUIT_MOVES)

    def _deal_record(self) -> JSON:
        record: JSON = {
            "type": "deal",
            "hand": self.hand,
            "dealer": self.dealer,
            "hands": [list(held) for held in self.hands],
            "turn_up": self.turn_up,
            "statuses": list(self.statuses),
            "hand_size": self.hand_size,
            "blind": [s for s in range(self.n) if self.statuses[s] == DOG and self.blind[s]],
        }
        if self.dog_cards:
            record["dog_cards"] = {str(s): card for s, card in self.dog_cards.items()}
        return record

    # ------------------------------------------------------------------ declarations

    def _offer_declarations(self) -> None:
        """Ask every eligible seat, from the leader round, about rainbow / no_picture."""
        rules = self.rules
        what = ""
        if rules.rainbow and self.hand_size == RAINBOW_HAND_SIZE:
            what = RAINBOW
        elif rules.no_picture and self.hand_size > NO_PICTURE_ABOVE and self.redeals < MAX_REDEALS:
            what = NO_PICTURE
        if what:
            eligible = [
                s
                for s in self.rotations[self.first_leader]
                if self.statuses[s] == ACTIVE and _may_declare(what, self.hands[s])
            ]
            if eligible:
                self.declaring = what
                self.declarers = []
                self.order = eligible
                self.turn = 0
                self.pending = Decision(eligible[0], what, _DECLARE_MOVES)
                return
        self._start_trick(self.first_leader)

    def _declare(self, seat: int, move: str) -> None:
        if move == DECLARE:
            self.declarers.append(seat)
        self.turn += 1
        if self.turn < len(self.order):
            self.pending = Decision(self.order[self.turn], self.declaring, _DECLARE_MOVES)
            return
        declarers = self.declarers
        if not declarers:
            self._start_trick(self.first_leader)
            return
        if self.record:
            for s in declarers:
                self.log.append(
                    {
                        "type": "event",
                        "event": "declare",
                        "seat": s,
                        "what": self.declaring,
                        "cards": list(self.hands[s]),
                    }
                )
        if self.declaring == RAINBOW:
            self.chooser = declarers[0] if len(declarers) == 1 else self._break_tie(declarers)
            self._log_hand_end()
            self._pass_deal(self.hand)
            self.hand += 1
        else:
            self.redeals += 1
            self._log_hand_end()
            self._pass_deal(self.hand)
        self._start_hand()

    # ------------------------------------------------------------------ tricks

    def _start_trick(self, first: int) -> None:
        """Open a trick led by the first seat holding cards from ``first`` round."""
        hands = self.hands
        self.order = [s for s in self.rotations[first] if hands[s]]
        self.turn = 0
        self.trick = []
        self.led = -1
        self.best = -1
        self.best_seat = -1
        self._ask_play(self.order[0])

    def _resume_trick(self, leader: int, to_act: int) -> None:
        """Take up the trick on the table (``trick``, set) as :meth:`from_position` is told
        it: the seats that have a turn in it, from ``leader`` on, whose turn it is
        (``to_act``), the suit led and the best card so far.

        Needs ``hands``, ``trump`` and ``rotations`` set too.

        Raises:
            ValueError: when ``to_act`` holds no card to play in this trick.
        """
        acted = {seat for seat, _ in self.trick}
        self.order = [s for s in self.rotations[leader] if self.hands[s] or s in acted]
        if to_act not in self.order or not self.hands[to_act]:
            raise ValueError(f"seat {to_act} holds no card to play in this trick")
        self.turn = self.order.index(to_act)
        self.first_leader = leader
        self.led = CARD_INDEX[self.trick[0][1]] & 3 if self.trick else -1
        self.best = -1
        self.best_seat = -1
        for seat, card in self.trick:
            index = CARD_INDEX[card]
            best = self.best
            if (
                best < 0
                or (index & 3 == best & 3 and index > best)
                or (index & 3 == self.trump and best & 3 != self.trump)
            ):
                self.best = index
                self.best_seat = seat

    def _ask_play(self, seat: int) -> None:
        """Set the pending decision of ``seat``, the next to act in the current trick."""
        held = self.hands[seat]
        if self.statuses[seat] == DOG:
            card = BLIND if self.blind[seat] else held[0]
            legal = [card] if self.trick_no == self.hand_size else [KNOCK, card]
        elif self.trick:
            led = self.led
            legal = [c for c in held if CARD_SUIT[c] == led] or held[:]
        elif self.trump_played or not self.rules.trumps_broken:
            legal = held[:]
        else:
            trump = self.trump
            legal = [c for c in held if CARD_SUIT[c] != trump] or held[:]
        # tuple.__new__ skips NamedTuple's Python-level __new__: this runs once a decision.
        self.pending = _new_decision(Decision, (seat, PLAY, legal))

    def _finish_trick(self) -> None:
        winner = self.best_seat
        self.tricks[winner] += 1
        self.history.append((self.order, self.trick, winner))
        if self.record:
            self.log.append(
                {
                    "type": "event",
                    "event": "trick",
                    "winner": winner,
                    "cards": [[s, card] for s, card in self.trick],
                }
            )
        if self.trick_no == self.hand_size:
            self._end_hand()
        else:
            self.trick_no += 1
            # An active winner holds cards and leads; a dog winner holds none,
            # so the lead passes to the next seat on its left holding cards.
            self._start_trick(winner)

    # ------------------------------------------------------------------ end of a hand

    def _end_hand(self) -> None:
        """Knock-outs, Dogs' Lives, the game's end or the next deal."""
        rules = self.rules
        hand = self.hand
        tricks = self.tricks
        old = self.statuses
        new = list(old)
        sweeper = -1
        if rules.sweep_wins:
            sweeper = next((s for s in range(self.n) if tricks[s] == self.hand_size), -1)
        final = hand == HANDS or sweeper >= 0
        zero_event = False
        for s in range(self.n):
            if old[s] == OUT:
                continue
            if tricks[s] > 0:
                new[s] = ACTIVE
                self.blind[s] = False
                continue
            zero_event = True
            if final:
                new[s] = OUT
            elif old[s] == DOG:
                if rules.blind_dog and rules.dogs and not self.blind[s]:
                    self.blind[s] = True
                else:
                    new[s] = OUT
            elif self._grants_dog(s):
                new[s] = DOG
                self.had_dog[s] = True
            else:
                new[s] = OUT
            if new[s] == OUT:
                self.out_hand[s] = hand
        self.zero_event = self.zero_event or zero_event
        self.statuses = new
        self.redeals = 0
        remaining = [s for s in range(self.n) if new[s] != OUT]
        if final or len(remaining) == 1:
            self.chooser = None
            self._log_hand_end()
            self._finish_game(sweeper if sweeper >= 0 else remaining[0])
            return
        most = max(tricks)
        tied = [s for s in range(self.n) if tricks[s] == most]
        self.chooser = tied[0] if len(tied) == 1 else self._break_tie(tied)
        self._log_hand_end()
        self._pass_deal(hand)
        self.hand = hand + 1
        if hand >= self.horizon:
            self.pending = None
            self.hand_size = HANDS + 1 - self.hand
            return
        self._start_hand()

    def _grants_dog(self, seat: int) -> bool:
        """Whether an active seat that took no trick this hand gets a Dog's Life."""
        rules = self.rules
        if not rules.dogs or (rules.dog_first_hand_only and self.hand != 1):
            return False
        if rules.dog_life == "expanded":
            return not self.had_dog[seat]
        return not self.zero_event

    def _pass_deal(self, hand: int) -> None:
        """Move the deal to the next seat on the dealer's left still in the game.

        Under ``eliminated_deals`` a seat knocked out in ``hand`` (the hand
        just played) still takes its turn to deal; seats out earlier are
        skipped either way.
        """
        statuses = self.statuses
        late = self.rules.eliminated_deals
        for s in self.rotations[(self.dealer + 1) % self.n]:
            if statuses[s] != OUT or (late and self.out_hand[s] == hand):
                self.dealer = s
                return

    def _log_hand_end(self) -> None:
        if self.record:
            self.log.append(
                {
                    "type": "hand_end",
                    "hand": self.hand,
                    "tricks": list(self.tricks),
                    "statuses": list(self.statuses),
                    "chooser": self.chooser,
                }
            )

    def _break_tie(self, tied: list[int]) -> int:
        """The seat among ``tied`` who names trumps, by a cut or silently at random."""
        self.cuts += 1
        if self.rules.tie_break == "cut":
            return self._cut("trump", self.cuts, tied)
        draws = self.decks.draw("tie", self.cuts, len(tied))
        return tied[draws.index(max(draws))]

    def _cut(self, purpose: str, k: int, seats: list[int]) -> int:
        """Each of ``seats`` draws from a fresh deck; the highest card wins."""
        draws = self.decks.draw("cut", k, len(seats))
        winner = seats[draws.index(max(draws))]
        if self.record:
            self.log.append(
                {
                    "type": "event",
                    "event": "cut",
                    "purpose": purpose,
                    "draws": [[s, CARD_TEXT[c]] for s, c in zip(seats, draws, strict=True)],
                    "winner": winner,
                }
            )
        return winner

    def _finish_game(self, winner: int) -> None:
        self.winner = winner
        self.pending = None
        self.out_hand[winner] = HANDS + 1
        self.placements = self.compute_placements()
        if self.record:
            first = self.placements.index(1)
            self.log.append(
                {
                    "type": "game_end",
                    "game": self.game_id,
                    "placements": list(self.placements),
                    "winner": first,
                    "faults": {str(s): dict(f) for s, f in sorted(self.faults.items())},
                }
            )

    def compute_placements(self) -> list[int]:
        """Places per seat (1 = winner, shared places in competition numbering).

        Later knock-outs rank higher; seats that faulted share the place below
        every seat that did not.
        """
        keys = [(1, 0) if s in self.faults else (0, -self.out_hand[s]) for s in range(self.n)]
        return [1 + sum(other < key for other in keys) for key in keys]

    # ------------------------------------------------------------------ messages

    def explain(self, move: object, seat: int | None = None) -> str:
        """A plain sentence saying why ``move`` (anything a player answered) is not legal now.

        What :meth:`apply` raises for it; the referee tells a faulted seat this
        without applying anything.
        """
        pending = self.pending
        if pending is None:
            return f"{move!r} is not legal: the game is over"
        if seat is not None and seat != pending.seat:
            return f"seat {seat} may not move now: it is seat {pending.seat}'s turn"
        return explain_move(
            move,
            pending.action,
            pending.legal,
            self.hands[pending.seat],
            dog=self.statuses[pending.seat] == DOG,
            blind=self.blind[pending.seat],
            led=self.led if self.trick else None,
            trump=self.trump,
        )


def explain_move(
    move: object,
    action: str,
    legal: Sequence[str],
    held: Sequence[str],
    *,
    dog: bool,
    blind: bool,
    led: int | None,
    trump: int,
) -> str:
    """A plain sentence saying why ``move`` is not one of ``legal`` for a seat.

    From the seat's own facts alone: its cards (``held``), whether it plays a
    dog (a ``blind`` one), the suit ``led`` to the trick in progress (None
    before its first card) and the ``trump`` suit. So the engine's
    :meth:`GameState.explain` and a seat that knows only its information set
    (:func:`arena.game.views.explain_request`, which a person's seat uses to
    say why an entry was refused) give the same words.
    """
    shown = move if isinstance(move, str) else repr(move)
    allowed = ", ".join(legal)
    if action == TRUMP:
        return f"{shown} is not legal: name trumps with one of {allowed}"
    if action != PLAY:
        return f"{shown} is not legal: answer {action} with pass or declare"
    if dog and blind and move != KNOCK:
        # Checked first: any other answer would tell the blind dog its own card.
        return f"{shown} is not legal: a blind dog answers 'blind' to play its unseen card"
    if move == KNOCK:
        if dog:
            return "knock is not legal: a dog must play its card on the last trick of a hand"
        return "knock is not legal: only a dog may knock"
    if move == BLIND:
        return "blind is not legal: only a blind dog plays its card unseen"
    if not isinstance(move, str) or move not in CARD_INDEX:
        return f"{shown} is not a move: expected one of {allowed}"
    if move not in held:
        return f"{move} is not legal: it is not in your hand"
    if led is not None:
        return f"{move} is not legal: you must follow {SUIT_NAMES[led]}"
    return f"{move} is not legal: trumps ({SUIT_NAMES[trump]}) have not been broken"


def _may_declare(what: str, held: list[str]) -> bool:
    """Whether a hand may declare a rainbow (one card of each suit) or no_picture."""
    if what == RAINBOW:
        return len(held) == RAINBOW_HAND_SIZE and len({CARD_SUIT[c] for c in held}) == len(held)
    return all(CARD_INDEX[c] >> 2 <= TEN_INDEX for c in held)


def _completed(entry: Any) -> CompletedTrick:
    """A completed trick as the engine keeps it, from its own form or the protocol's
    (``{"leader", "moves", "winner"}``, as a request's ``history`` gives it)."""
    if not isinstance(entry, dict):
        order, cards, winner = entry
        return ([int(s) for s in order], [(int(s), str(c)) for s, c in cards], int(winner))
    moves = entry["moves"]
    return (
        [int(seat) for seat, _ in moves],
        [(int(seat), str(move)) for seat, move in moves if move != KNOCK],
        int(entry["winner"]),
    )


_ROTATIONS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _rotations(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, every seat in clockwise order starting there (shared per n)."""
    table = _ROTATIONS.get(n)
    if table is None:
        table = _ROTATIONS[n] = tuple(
            tuple((first + i) % n for i in range(n)) for first in range(n)
        )
    return table

"""Knockout Whist as an OpenSpiel game: importing this module registers ``knockout_whist``.

``pyspiel.load_game("knockout_whist", {"players": 4, "rainbow": True})``:
parameters are ``players`` and every rule option. The rules are the
arena's engine (:class:`arena.game.GameState`), not a second copy.

Every random event is a chance node. The engine draws every card it needs
from a :class:`arena.game.DeckSource` (each deal, every cut: the first
dealer, a tie for most tricks, several rainbows; a ``no_picture`` redeal; a
``tie_break = random`` draw). Here that source holds only the cards chance
has drawn so far, and asks for more by raising: the state then becomes a
chance node that draws them one at a time (uniform over the cards not yet
drawn from that deck), and applies again, on a fresh copy of the engine's
state, the move that needed them. The cards drawn from a deck, in order,
are exactly a shuffled deck's top cards, so the games are the engine's own.

Player actions are those of :mod:`arena.research.encode` (52 cards, knock,
blind, four suits, declare, pass); chance outcomes are the 52 cards.
Returns: each seat's place score minus 1/2, summing to zero. The
observation (tensor and string) is the seat's information set, the facts
of a protocol request's ``state``; the information state (tensor and
string) adds everything the seat saw since the start (perfect recall).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pyspiel

from arena.game import ACTIVE, GameState, Rules, hand_start, request_state
from arena.game.cards import CARD_INDEX, CARD_SUIT, CARD_TEXT
from arena.game.decks import DECK_SIZE
from arena.game.rules import OPTION_NAMES
from arena.research.encode import (
    ACTION_OF,
    ACTIONS,
    ANSWERS,
    DECLARED,
    MOVES,
    encode,
    encode_history,
    history_size,
    observation_layout,
    observation_size,
    rewards,
)

JSON = dict[str, Any]

#: The most moves (chance draws included) a game can take, an upper bound: 7 hands, each
#: dealt up to 4 times (3 no_picture redeals), a deck a deal, a deck for every cut, and
#: every seat's turns.
MAX_GAME_LENGTH = 7 * 4 * DECK_SIZE + 16 * DECK_SIZE + 7 * 7 * 8 * 2

_DEFAULTS: JSON = Rules().to_dict()
_GAME_TYPE = pyspiel.GameType(
    short_name="knockout_whist",
    long_name="Knockout Whist (the arena's rules, every option)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={name: _DEFAULTS[name] for name in OPTION_NAMES},
)


class _NeedCards(Exception):
    """The engine asked for cards chance has not drawn yet."""

    def __init__(self, key: tuple[str, int], count: int) -> None:
        super().__init__(key, count)
        self.key = key
        self.count = count


class _ChanceDecks:
    """The decks chance has drawn so far: a prefix each, by (purpose, k)."""

    def __init__(self) -> None:
        self.drawn: dict[tuple[str, int], list[int]] = {}

    def draw(self, purpose: str, k: int, count: int) -> list[int]:
        cards = self.drawn.get((purpose, k), [])
        if len(cards) < count:
            raise _NeedCards((purpose, k), count)
        return cards[:count]


class KnockoutWhistGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game, for the given ``players`` and rule options."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**_DEFAULTS, **(params or {})}
        self.rules = Rules.from_dict(options)
        players = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=DECK_SIZE,
            num_players=players,
            min_utility=-0.5,
            max_utility=0.5,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> KnockoutWhistState:
        """The start: chance draws the cut for the first dealer."""
        return KnockoutWhistState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> KnockoutWhistObserver:
        """The observer of a seat's information: its state now, or (perfect recall) all it saw."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KnockoutWhistObserver(self.rules.players, perfect_recall=perfect)


class KnockoutWhistState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's state, and the draw chance owes it, if any."""

    def __init__(self, game: KnockoutWhistGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.decks = _ChanceDecks()
        self.engine: GameState | None = None
        #: The player move that needed cards, applied again once they are drawn.
        self.waiting: str | None = None
        self.need: _NeedCards | None = None
        #: Each seat's moves that no record shows yet, for its information state: its
        #: answers to declaration offers (a pass is seen by nobody else), by where in the
        #: engine's log they came.
        self.own: list[list[tuple[int, str]]] = [[] for _ in range(self.rules.players)]
        self._advance()

    def _advance(self) -> None:
        """Build the engine's state, or apply the waiting move, if chance has drawn enough."""
        try:
            if self.engine is None:
                self.engine = GameState(self.rules, self.decks, game_id="openspiel")
            elif self.waiting is not None:
                # A copy, never the engine itself: clones of this state share it (OpenSpiel
                # deep-copies a state, and the engine's copy is itself). Its log is what each
                # seat saw; its decks this state's own.
                trial = self.engine.copy(record=True)
                trial.decks = self.decks
                trial.apply(self.waiting)
                self.engine = trial
            self.waiting = None
            self.need = None
        except _NeedCards as need:
            self.need = need

    def current_player(self) -> int:
        """Chance while cards are owed, else the seat the engine waits for (or terminal)."""
        if self.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine is not None
        pending = self.engine.pending
        return int(pyspiel.PlayerId.TERMINAL) if pending is None else pending.seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and self.engine.pending is not None
        return sorted(ACTION_OF[move] for move in self.engine.pending.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet drawn from the deck being drawn, each as likely."""
        assert self.need is not None
        drawn = set(self.decks.drawn.get(self.need.key, []))
        left = [card for card in range(DECK_SIZE) if card not in drawn]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.need is not None:
            self.decks.drawn.setdefault(self.need.key, []).append(int(action))
            if len(self.decks.drawn[self.need.key]) >= self.need.count:
                self._advance()
            return
        assert self.engine is not None and self.engine.pending is not None
        move = MOVES[action]
        if move in ANSWERS:
            self.own[self.engine.pending.seat].append((len(self.engine.log), move))
        self.waiting = move
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {CARD_TEXT[action]}"
        return MOVES[action]

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.need is None and self.engine is not None and self.engine.pending is None

    def returns(self) -> list[float]:
        """Each seat's place score minus 1/2 at the end (zeros before)."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        assert self.engine is not None and self.engine.placements is not None
        return rewards(self.engine.placements)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, for IS-MCTS: the cards it has not
        seen dealt again among the seats that hold them, each keeping its count and holding
        no card of a suit it has shown it lacks (:func:`shown_voids`). The decision pending
        is asked again from the new hands (:meth:`arena.game.GameState.set_hands`).

        Uniform over such deals: shuffles are drawn until one fits, so each deal that fits is
        as likely. When :data:`RESAMPLE_TRIES` shuffles in a row do not (many voids, late in a
        hand), a deal that fits is built by matching cards to seats from a shuffle instead,
        which is not quite uniform. At a rainbow or no_picture offer to another seat, that
        seat keeps a hand that may declare: deals are drawn until one gives it such a hand,
        or, after :data:`RESAMPLE_TRIES`, it keeps its own. ``probability_sampler`` gives the
        numbers (in [0, 1)).
        """
        clone = self.clone()
        if clone.engine is None or clone.need is not None:
            return clone
        engine = clone.engine = clone.engine.copy(record=True)  # shared: changed only as a copy
        engine.decks = clone.decks
        blind = engine.statuses[player_id] == "dog" and engine.blind[player_id]
        public = set(engine.dog_cards.values())
        holders = [
            seat
            for seat in range(engine.n)
            if (seat != player_id or blind) and any(c not in public for c in engine.hands[seat])
        ]
        voids = shown_voids(engine)
        before = [list(held) for held in engine.hands]

        def deal(among: list[int]) -> list[list[str]]:
            hands = [list(held) for held in before]
            kept = {seat: [c for c in before[seat] if c in public] for seat in among}
            hidden = [c for seat in among for c in before[seat] if c not in public]
            counts = [len(before[seat]) - len(kept[seat]) for seat in among]
            lacks = [voids[seat] for seat in among]
            dealt = deal_fitting(hidden, lacks, counts, probability_sampler)
            for seat, cards in zip(among, dealt, strict=True):
                hands[seat] = kept[seat] + cards
            return hands

        pending = engine.pending
        asked = pending.seat if pending is not None and pending.action in DECLARED else None
        for _ in range(RESAMPLE_TRIES if asked in holders else 1):
            try:
                engine.set_hands(deal(holders))
                break
            except ValueError:  # the seat asked could not declare with the hand it was dealt
                continue
        else:
            engine.set_hands(deal([seat for seat in holders if seat != asked]))
        # The hand's deal record too: each seat's information state shows its dealt cards,
        # which are now what it holds and what it has played of them.
        at = max(i for i, record in enumerate(engine.log) if record["type"] == "deal")
        record = engine.log[at]
        hands = [list(cards) for cards in record["hands"]]
        for seat in holders:
            played = [card for who, card in engine.played if who == seat]
            hands[seat] = sorted(engine.hands[seat] + played, key=CARD_INDEX.__getitem__)
        engine.log[at] = {**record, "hands": hands}
        return clone

    def seen(self, seat: int) -> list[JSON]:
        """Every record of the game ``seat`` saw, as it saw them (a deal as its hand_start,
        with the deal's blind seats), and its own moves no record shows (``{"type": "own",
        "move": ...}``, where they came): its answers to declaration offers, and at a chance
        node its move that waits for the cards."""
        if self.engine is None:
            return []
        records: list[JSON] = [
            {**hand_start(record, seat), "blind": record["blind"]}
            if record["type"] == "deal"
            else record
            for record in self.engine.log
        ]
        for at, move in reversed(self.own[seat]):
            records.insert(at, {"type": "own", "move": move})
        pending = self.engine.pending
        waiting = self.waiting
        if waiting is not None and waiting not in ANSWERS and pending and pending.seat == seat:
            records.append({"type": "own", "move": self.waiting})
        return records

    def __str__(self) -> str:
        if self.engine is None:
            return "(chance draws the cut for the first dealer)"
        last = self.engine.log[-1] if self.engine.log else {}
        return json.dumps(last, separators=(",", ":"))


def shown_voids(engine: GameState) -> list[set[int]]:
    """The suits each seat has shown, in the current hand, that it holds none of.

    A player (not a dog: a dog may play its card on anything) that did not follow the
    suit led holds none of it; under ``trumps_broken``, a player that led a trump before
    any was played held nothing else.
    """
    voids: list[set[int]] = [set() for _ in range(engine.n)]
    trump = engine.trump
    broken = not engine.rules.trumps_broken
    tricks = [cards for _, cards, _ in engine.history]
    for cards in [*tricks, engine.trick]:
        if not cards:
            continue
        leader, lead = cards[0]
        led = CARD_SUIT[lead]
        if not broken and led == trump and engine.statuses[leader] == ACTIVE:
            voids[leader].update(suit for suit in range(4) if suit != trump)
        for seat, card in cards[1:]:
            if CARD_SUIT[card] != led and engine.statuses[seat] == ACTIVE:
                voids[seat].add(led)
        broken = broken or any(CARD_SUIT[card] == trump for _, card in cards)
    return voids


#: Shuffles drawn for a deal that fits the voids before one is built by matching; deals
#: drawn for one that lets the seat asked at an offer declare.
RESAMPLE_TRIES = 64


def deal_fitting(
    cards: list[str], voids: list[set[int]], counts: list[int], sampler: Any
) -> list[list[str]]:
    """``cards`` dealt in ``counts`` to seats lacking the suits ``voids`` names (a deal that
    fits exists: the game's own)."""

    def shuffle(items: list[Any]) -> None:  # Fisher-Yates with the sampler's numbers
        for index in range(len(items) - 1, 0, -1):
            other = min(int(sampler() * (index + 1)), index)
            items[index], items[other] = items[other], items[index]

    def split(order: list[str]) -> list[list[str]]:
        return [order[a:b] for a, b in itertools.pairwise(itertools.accumulate(counts, initial=0))]

    for _ in range(RESAMPLE_TRIES):
        cards = list(cards)
        shuffle(cards)
        hands = split(cards)
        if all(
            not any(CARD_SUIT[c] in lacks for c in hand)
            for hand, lacks in zip(hands, voids, strict=True)
        ):
            return hands
    # Many voids: match each card to a place in a hand that may hold it (augmenting paths),
    # cards and places in a shuffled order.
    places = [h for h, count in enumerate(counts) for _ in range(count)]
    shuffle(places)
    cards = list(cards)
    shuffle(cards)
    holder: list[int] = [-1] * len(places)  # the card in each place

    def place(card: int, tried: set[int]) -> bool:
        for at, hand in enumerate(places):
            if at in tried or CARD_SUIT[cards[card]] in voids[hand]:
                continue
            tried.add(at)
            if holder[at] < 0 or place(holder[at], tried):
                holder[at] = card
                return True
        return False

    for card in range(len(cards)):
        if not place(card, set()):
            raise AssertionError("no deal of the hidden cards fits the voids the game showed")
    matched: list[list[str]] = [[] for _ in counts]
    for at, card in enumerate(holder):
        matched[places[at]].append(cards[card])
    return matched


class KnockoutWhistObserver:
    """A seat's observation (its information set now) or information state (all it saw).

    The tensor of the observation is :func:`arena.research.encode.encode`'s vector, the
    one the environments give; the information state's adds
    :func:`~arena.research.encode.encode_history`'s. ``dict`` names the parts, views
    of the one tensor: those of :func:`~arena.research.encode.observation_layout`, and
    ``history``.
    """

    def __init__(self, players: int, *, perfect_recall: bool) -> None:
        self.players = players
        self.perfect_recall = perfect_recall
        self.size = observation_size(players)
        history = history_size(players) if perfect_recall else 0
        self.tensor = np.zeros(self.size + history, np.float32)
        self.dict = {
            name: self.tensor[place] for name, place in observation_layout(players).items()
        }
        if perfect_recall:
            self.dict["history"] = self.tensor[self.size :]

    def _state(self, state: KnockoutWhistState, player: int) -> JSON | None:
        engine = state.engine
        return None if engine is None else request_state(engine, player)

    def set_from(self, state: KnockoutWhistState, player: int) -> None:
        """The tensor of ``player``'s information set in ``state``."""
        self.tensor.fill(0.0)
        seat_state = self._state(state, player)
        if seat_state is None:
            return
        pending = state.engine.pending if state.engine is not None else None
        action = pending.action if pending is not None and pending.seat == player else None
        self.tensor[: self.size] = encode(seat_state, self.players, action)
        if self.perfect_recall:
            self.dict["history"][:] = encode_history(state.seen(player), self.players, player)

    def string_from(self, state: KnockoutWhistState, player: int) -> str:
        """``player``'s information set in ``state`` as JSON (with perfect recall: all the
        records it saw and its own moves: :meth:`KnockoutWhistState.seen`)."""
        if self.perfect_recall:
            return json.dumps({"seat": player, "seen": state.seen(player)}, separators=(",", ":"))
        return json.dumps(self._state(state, player), separators=(",", ":"), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, KnockoutWhistGame)

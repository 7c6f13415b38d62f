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
of a protocol request's ``state``; the information state string adds
everything the seat saw since the start (perfect recall).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from arena.game import GameState, Rules, hand_start, request_state
from arena.game.cards import CARD_INDEX, CARD_TEXT
from arena.game.decks import DECK_SIZE
from arena.game.rules import OPTION_NAMES
from arena.research.encode import ACTION_OF, ACTIONS, MOVES, encode, observation_size, rewards

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
    provides_information_state_tensor=False,
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
        #: Each seat's own moves (a pass is seen by nobody else), for its information state.
        self.own: list[list[str]] = [[] for _ in range(self.rules.players)]
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
        self.own[self.engine.pending.seat].append(move)
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
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        again among the seats that hold them (each keeping its count), for IS-MCTS.

        Uniform over those deals: it ignores what play revealed (a seat that did not
        follow suit holds none of it), so some deals it gives are ones the seat could rule
        out.
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
        hidden = [c for seat in holders for c in engine.hands[seat] if c not in public]
        for index in range(len(hidden) - 1, 0, -1):  # Fisher-Yates with the sampler's numbers
            other = min(int(probability_sampler() * (index + 1)), index)
            hidden[index], hidden[other] = hidden[other], hidden[index]
        for seat in holders:
            kept = [c for c in engine.hands[seat] if c in public]
            count = len(engine.hands[seat]) - len(kept)
            engine.hands[seat] = sorted(kept + hidden[:count], key=CARD_INDEX.__getitem__)
            hidden = hidden[count:]
        # The hand's deal record too: each seat's information state shows its dealt cards,
        # which are now what it holds and what it has played of them.
        at = max(i for i, record in enumerate(engine.log) if record["type"] == "deal")
        deal = engine.log[at]
        hands = [list(cards) for cards in deal["hands"]]
        for seat in holders:
            played = [card for who, card in engine.played if who == seat]
            hands[seat] = sorted(engine.hands[seat] + played, key=CARD_INDEX.__getitem__)
        engine.log[at] = {**deal, "hands": hands}
        return clone

    def seen(self, seat: int) -> list[JSON]:
        """Every record of the game ``seat`` saw, as it saw them (a deal as its hand_start)."""
        if self.engine is None:
            return []
        return [
            hand_start(record, seat) if record["type"] == "deal" else record
            for record in self.engine.log
        ]

    def __str__(self) -> str:
        if self.engine is None:
            return "(chance draws the cut for the first dealer)"
        last = self.engine.log[-1] if self.engine.log else {}
        return json.dumps(last, separators=(",", ":"))


class KnockoutWhistObserver:
    """A seat's observation (its information set now) or information state (all it saw)."""

    def __init__(self, players: int, *, perfect_recall: bool) -> None:
        self.players = players
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}

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
        self.tensor[:] = encode(seat_state, self.players, action)

    def string_from(self, state: KnockoutWhistState, player: int) -> str:
        """``player``'s information set in ``state`` as JSON (with perfect recall: all the
        records it saw and its own moves)."""
        if self.perfect_recall:
            return json.dumps(
                {"seat": player, "seen": state.seen(player), "own": state.own[player]},
                separators=(",", ":"),
            )
        return json.dumps(self._state(state, player), separators=(",", ":"), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, KnockoutWhistGame)

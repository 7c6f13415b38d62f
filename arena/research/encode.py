"""A seat's information set as arrays, and moves as action numbers: for learning agents.

The facts are exactly those of a protocol v1 request's ``state`` (the
seat's whole information set: :func:`arena.game.views.request_state`), so
an agent trained on the environments and one entered through
:mod:`arena.bridge` see the same arrays. Seats are written relative to the
observer (its own seat first, then clockwise), so one policy fits every
seat.

Actions: one fixed space of :data:`ACTIONS` numbers for every decision:
the 52 cards (in the engine's order: rank 2..A, then suit C, H, D, S), then
``knock``, ``blind``, the four suits (naming trumps: C, H, D, S),
``declare`` and ``pass``. The mask marks the legal ones.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from arena.game.cards import CARD_INDEX, CARD_TEXT, SUIT_CHARS
from arena.game.scoring import seat_scores

if TYPE_CHECKING:
    from gymnasium import spaces

JSON = dict[str, Any]
#: A policy: an agent's observation (:func:`observation_of`) to an action number, or to
#: ``(action, info)``.
Policy = Callable[[dict[str, Any]], Any]

#: The action numbers' moves, in order.
MOVES: tuple[str, ...] = (*CARD_TEXT, "knock", "blind", *SUIT_CHARS, "declare", "pass")
#: The size of the action space.
ACTIONS = len(MOVES)
#: Each move's action number.
ACTION_OF: dict[str, int] = {move: index for index, move in enumerate(MOVES)}
STATUSES = ("active", "dog", "out")
KINDS = ("play", "trump", "rainbow", "no_picture")
HANDS = 7
#: The most deals a game can have: its 7 hands, and up to 3 ``no_picture`` redeals in a row
#: of each of the two hands of more than 5 cards (the count starts again once a hand is
#: played).
DEALS = HANDS + 2 * 3
DECLARED = ("rainbow", "no_picture")
ANSWERS = ("pass", "declare")


@functools.cache
def observation_layout(players: int) -> Mapping[str, slice]:
    """Where each fact lies in the observation vector of a ``players``-seat game, by name.

    Seats are relative to the observer (its own first); a card is an index in the
    engine's order (rank 2..A, then suit); ``played``, ``trick``, ``dog_cards`` and
    ``statuses`` are a row per seat; ``history_cards`` a row of cards per completed
    trick of this hand, ``history_knocks`` a row of seats per completed trick.
    """
    cards, n = 52, players
    sizes = {
        "cards": cards,  # own hand
        "blind_card": 1,  # a blind dog (its card unseen)
        "played": n * cards,  # the cards each seat played this hand
        "trick": n * cards,  # the trick on the table, by seat
        "knocked": n,  # the seats that knocked in this trick
        "history_cards": HANDS * cards,  # the completed trick each played card fell in
        "history_knocks": HANDS * n,  # the seats that knocked in each completed trick
        "trump": 4,
        "turn_up": cards,  # the turned-up card
        "dog_cards": n * cards,  # face-up dog cards, by seat
        "statuses": n * len(STATUSES),
        "blind": n,  # blind dogs
        "tricks": n,  # tricks taken this hand (a seventh each)
        "hand": HANDS,  # hand number
        "hand_size": HANDS,  # cards dealt this hand
        "dealer": n,
        "leader": n,  # the seat leading this trick
        "action": len(KINDS),  # what is asked (zeros: nothing)
    }
    return _laid_out(sizes)


def _laid_out(sizes: dict[str, int]) -> Mapping[str, slice]:
    """Named parts of the given sizes, one after another."""
    starts = itertools.accumulate(sizes.values(), initial=0)  # one more than the sizes
    places = zip(sizes.items(), starts, strict=False)
    return MappingProxyType({name: slice(a, a + size) for (name, size), a in places})


@functools.cache
def _starts(layout: Callable[[int], Mapping[str, slice]], players: int) -> dict[str, int]:
    """Where each part of a layout starts: the offsets the encoders add to."""
    return {name: place.start for name, place in layout(players).items()}


def observation_size(players: int) -> int:
    """The length of the observation vector of a ``players``-seat game."""
    return int(observation_layout(players)["action"].stop)


def observation_space(players: int) -> spaces.Dict:
    """The Gymnasium space of an agent's observation: the vector and the action mask
    (Gymnasium is imported here: the bridge, which needs only the encoding, goes without)."""
    from gymnasium import spaces  # noqa: PLC0415 - see above

    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (observation_size(players),), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        }
    )


def encode(state: JSON, players: int, action: str | None = None) -> npt.NDArray[np.float32]:
    """The observation vector of a request's ``state`` (``action``: what is asked, if any),
    laid out as :func:`observation_layout` says.

    Raises:
        KeyError, ValueError: for a state that is not a protocol v1 request state.
    """
    n = players
    me = state["seat"]
    out = np.zeros(observation_size(n), dtype=np.float32)
    at = _starts(observation_layout, n)

    def rel(seat: int) -> int:
        return int(seat - me) % n

    for text in state["cards"]:
        out[at["cards"] + CARD_INDEX[text]] = 1.0
    out[at["blind_card"]] = 1.0 if me in state.get("blind", []) else 0.0
    for seat, card in state["played"]:
        out[at["played"] + rel(seat) * 52 + CARD_INDEX[card]] = 1.0
    for seat, card in state["trick"]:
        out[at["trick"] + rel(seat) * 52 + CARD_INDEX[card]] = 1.0
    for seat in state.get("knocked", []):
        out[at["knocked"] + rel(seat)] = 1.0
    for index, done in enumerate(state["history"]):
        for seat, move in done["moves"]:
            if move == "knock":
                out[at["history_knocks"] + index * n + rel(seat)] = 1.0
            else:
                out[at["history_cards"] + index * 52 + CARD_INDEX[move]] = 1.0
    if state["trump"]:
        out[at["trump"] + SUIT_CHARS.index(state["trump"])] = 1.0
    if state["turn_up"]:
        out[at["turn_up"] + CARD_INDEX[state["turn_up"]]] = 1.0
    for seat, text in state.get("dog_cards", {}).items():
        out[at["dog_cards"] + rel(int(seat)) * 52 + CARD_INDEX[text]] = 1.0
    for seat, status in enumerate(state["statuses"]):
        out[at["statuses"] + rel(seat) * 3 + STATUSES.index(status)] = 1.0
    for seat in state.get("blind", []):
        out[at["blind"] + rel(seat)] = 1.0
    for seat, count in enumerate(state["tricks"]):
        out[at["tricks"] + rel(seat)] = count / HANDS
    if 1 <= state["hand"] <= HANDS:
        out[at["hand"] + state["hand"] - 1] = 1.0
    if 1 <= state["hand_size"] <= HANDS:
        out[at["hand_size"] + state["hand_size"] - 1] = 1.0
    out[at["dealer"] + rel(state["dealer"])] = 1.0
    out[at["leader"] + rel(state["leader"])] = 1.0
    if action is not None:
        out[at["action"] + KINDS.index(action)] = 1.0
    return out


@functools.cache
def deal_layout(players: int) -> Mapping[str, slice]:
    """Where each fact lies in one deal's block of the history vector
    (:func:`encode_history`), by name; seats relative to the observer."""
    cards, n = 52, players
    return _laid_out(
        {
            "cards": cards,  # own cards dealt
            "hand": HANDS,  # hand number
            "hand_size": HANDS,  # cards dealt
            "dealer": n,
            "statuses": n * len(STATUSES),  # statuses at the deal
            "blind": n,  # blind dogs
            "turn_up": cards,  # the turned-up card
            "dog_cards": n * cards,  # face-up dog cards, by seat
            "trump": 4,
            "chooser": n,  # who names trumps (zeros: the turned-up card did)
            "declared": len(DECLARED),  # what was declared, if anything
            "answer": len(ANSWERS),  # this seat's answer to the offer, if it had one
            "shown": n * cards,  # the declarers' cards, shown by the declaration
            "played": n * cards,  # who played each card
            "trick_of": HANDS * cards,  # in which trick
            "knocks": HANDS * n,  # who knocked in each trick
        }
    )


def deal_size(players: int) -> int:
    """The length of one deal's block of the history vector (:func:`encode_history`)."""
    return int(deal_layout(players)["knocks"].stop)


def history_size(players: int) -> int:
    """The length of the history vector: a block for each of :data:`DEALS` deals."""
    return DEALS * deal_size(players)


def encode_history(records: Sequence[JSON], players: int, seat: int) -> npt.NDArray[np.float32]:
    """Everything ``seat`` saw of a game, as one vector: a block for each deal, in order.

    ``records`` are the game's records as the seat saw them: each deal as its
    ``hand_start`` message (with the deal's ``blind`` seats), then the public
    events (``trump``, ``declare``, ``knock``, ``play``, ``trick``),
    ``hand_end``, and the seat's answers to declaration offers, which nobody
    else sees, as ``{"type": "own", "move": "pass"}`` (or ``"declare"``)
    where they came. The cards a seat played, and in which trick, say the order of
    play too (each trick's leader follows from the one before), so two games
    the seat could tell apart give different vectors, with two exceptions: the
    cards drawn in a cut are left out (what the cut decided, the dealer or who
    names trumps, is kept: the chooser from the ``hand_end`` before the deal
    and from the ``trump`` event), and so is the seat's own card or suit that waits,
    at a chance node, for the cards it needs to be drawn. Blocks of deals not
    yet made are zeros.

    Raises:
        KeyError, ValueError, IndexError: for records that are not such records,
            or for more than :data:`DEALS` deals.
    """
    n = players
    size = deal_size(n)
    out = np.zeros(DEALS * size, dtype=np.float32)
    part = _starts(deal_layout, n)

    def rel(who: int) -> int:
        return int(who - seat) % n

    base = -size
    trick = 0
    chooser: int | None = None
    for record in records:
        kind = record["type"]
        if kind == "hand_start":
            base += size
            if base >= len(out):
                raise IndexError(f"more than {DEALS} deals")
            trick = 0
            at = {name: base + start for name, start in part.items()}
            _write_deal(out, at, record, rel, chooser)
            continue
        if kind == "hand_end":
            chooser = record.get("chooser")
        if base < 0:
            continue
        if kind == "own":
            if record["move"] in ANSWERS:
                out[at["answer"] + ANSWERS.index(record["move"])] = 1.0
        elif kind == "event":
            trick = _write_event(out, at, record, rel, trick, n)
    return out


def _write_deal(
    out: npt.NDArray[np.float32],
    at: dict[str, int],
    record: JSON,
    rel: Callable[[int], int],
    chooser: int | None,
) -> None:
    """Write a deal's ``hand_start`` into its block of the history vector.

    ``at``: where each fact of the block starts in ``out``; ``rel``: a seat
    relative to the observer; ``chooser``: who names trumps, as the ``hand_end``
    before the deal said (None: nobody yet, or the turned-up card).

    Raises:
        KeyError, ValueError, IndexError: for a record that is not a ``hand_start``.
    """
    for text in record["cards"]:
        out[at["cards"] + CARD_INDEX[text]] = 1.0
    out[at["hand"] + record["hand"] - 1] = 1.0
    out[at["hand_size"] + record["hand_size"] - 1] = 1.0
    out[at["dealer"] + rel(record["dealer"])] = 1.0
    for who, status in enumerate(record["statuses"]):
        out[at["statuses"] + rel(who) * 3 + STATUSES.index(status)] = 1.0
    for who in record.get("blind", ()):
        out[at["blind"] + rel(who)] = 1.0
    if record["turn_up"]:
        out[at["turn_up"] + CARD_INDEX[record["turn_up"]]] = 1.0
    for who, text in record.get("dog_cards", {}).items():
        out[at["dog_cards"] + rel(int(who)) * 52 + CARD_INDEX[text]] = 1.0
    if chooser is not None:  # named at the end of the hand before
        out[at["chooser"] + rel(chooser)] = 1.0


def _write_event(
    out: npt.NDArray[np.float32],
    at: dict[str, int],
    record: JSON,
    rel: Callable[[int], int],
    trick: int,
    n: int,
) -> int:
    """Write one public event of the deal into its block and return the tricks completed
    in the hand: ``trick``, or one more after a ``trick`` event.

    ``at`` and ``rel`` are as for :func:`_write_deal`; ``n``: the number of players.

    Raises:
        KeyError, ValueError, IndexError: for a record that is not such an event.
    """
    event = record["event"]
    if event == "trump":
        out[at["trump"] + SUIT_CHARS.index(record["suit"])] = 1.0
        if record["seat"] is not None:
            out[at["chooser"] + rel(record["seat"])] = 1.0
    elif event == "declare":
        out[at["declared"] + DECLARED.index(record["what"])] = 1.0
        for text in record["cards"]:
            out[at["shown"] + rel(record["seat"]) * 52 + CARD_INDEX[text]] = 1.0
    elif event == "play":
        card = CARD_INDEX[record["card"]]
        out[at["played"] + rel(record["seat"]) * 52 + card] = 1.0
        out[at["trick_of"] + trick * 52 + card] = 1.0
    elif event == "knock":
        out[at["knocks"] + trick * n + rel(record["seat"])] = 1.0
    elif event == "trick":
        trick += 1
    return trick


def action_mask(legal: list[str] | None) -> npt.NDArray[np.int8]:
    """1 for each legal move's action number, 0 elsewhere (all 0: not this seat's turn)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for move in legal or ():
        mask[ACTION_OF[move]] = 1
    return mask


def move_of(action: int) -> str:
    """The move an action number stands for.

    Raises:
        IndexError: for a number outside the action space.
    """
    if not 0 <= action < ACTIONS:
        raise IndexError(f"action {action} is outside 0..{ACTIONS - 1}")
    return MOVES[action]


def observation_of(request: JSON, players: int) -> dict[str, Any]:
    """A request as an agent is given it: its state's observation and its action mask."""
    return {
        "observation": encode(request["state"], players, request["action"]),
        "action_mask": action_mask(request["legal"]),
    }


def policy_answer(policy: Policy, request: JSON, players: int) -> tuple[str, Any]:
    """The move ``policy`` makes at a protocol request, and its info (``None``: none).

    Raises:
        IndexError: for an action number outside the action space; whatever the policy raises.
    """
    chosen = policy(observation_of(request, players))
    action, info = chosen if isinstance(chosen, tuple) else (chosen, None)
    return move_of(int(action)), info


def rewards(placements: Sequence[int]) -> list[float]:
    """Each seat's reward for a game's ``placements``: its place score (K - place) / (K - 1),
    shared places sharing their mean, minus 1/2, so that a game's rewards sum to zero."""
    return [score - 0.5 for score in seat_scores(placements)]

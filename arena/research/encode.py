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

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.game.cards import CARD_INDEX, CARD_TEXT, SUIT_CHARS
from arena.match.stats import seat_scores

JSON = dict[str, Any]

#: The action numbers' moves, in order.
MOVES: tuple[str, ...] = (*CARD_TEXT, "knock", "blind", *SUIT_CHARS, "declare", "pass")
#: The size of the action space.
ACTIONS = len(MOVES)
#: Each move's action number.
ACTION_OF: dict[str, int] = {move: index for index, move in enumerate(MOVES)}
STATUSES = ("active", "dog", "out")
KINDS = ("play", "trump", "rainbow", "no_picture")
HANDS = 7


def observation_size(players: int) -> int:
    """The length of the observation vector of a ``players``-seat game."""
    cards, n = 52, players
    return (
        cards  # own hand
        + 1  # holds a blind card (unseen)
        + n * cards  # cards each seat played this hand
        + n * cards  # the trick on the table, by seat
        + n  # seats that knocked in this trick
        + 4  # trumps
        + cards  # the turned-up card
        + cards  # face-up dog cards
        + n * len(STATUSES)
        + n  # blind dogs
        + n  # tricks taken this hand (a seventh each)
        + HANDS  # hand number
        + HANDS  # cards dealt this hand
        + n  # dealer
        + n  # leader of this trick
        + len(KINDS)  # what is asked (zeros: nothing)
    )


def encode(state: JSON, players: int, action: str | None = None) -> npt.NDArray[np.float32]:
    """The observation vector of a request's ``state`` (``action``: what is asked, if any).

    Raises:
        KeyError, ValueError: for a state that is not a protocol v1 request state.
    """
    n = players
    me = state["seat"]
    out = np.zeros(observation_size(n), dtype=np.float32)

    def rel(seat: int) -> int:
        return int(seat - me) % n

    at = 0

    def cards(offset: int, texts: Any) -> None:
        for text in texts:
            out[offset + CARD_INDEX[text]] = 1.0

    cards(at, state["cards"])
    at += 52
    out[at] = 1.0 if me in state.get("blind", []) else 0.0
    at += 1
    for seat, card in state["played"]:
        out[at + rel(seat) * 52 + CARD_INDEX[card]] = 1.0
    at += n * 52
    for seat, card in state["trick"]:
        out[at + rel(seat) * 52 + CARD_INDEX[card]] = 1.0
    at += n * 52
    for seat in state.get("knocked", []):
        out[at + rel(seat)] = 1.0
    at += n
    if state["trump"]:
        out[at + SUIT_CHARS.index(state["trump"])] = 1.0
    at += 4
    if state["turn_up"]:
        out[at + CARD_INDEX[state["turn_up"]]] = 1.0
    at += 52
    cards(at, state.get("dog_cards", {}).values())
    at += 52
    for seat, status in enumerate(state["statuses"]):
        out[at + rel(seat) * 3 + STATUSES.index(status)] = 1.0
    at += n * 3
    for seat in state.get("blind", []):
        out[at + rel(seat)] = 1.0
    at += n
    for seat, count in enumerate(state["tricks"]):
        out[at + rel(seat)] = count / HANDS
    at += n
    if 1 <= state["hand"] <= HANDS:
        out[at + state["hand"] - 1] = 1.0
    at += HANDS
    if 1 <= state["hand_size"] <= HANDS:
        out[at + state["hand_size"] - 1] = 1.0
    at += HANDS
    out[at + rel(state["dealer"])] = 1.0
    at += n
    out[at + rel(state["leader"])] = 1.0
    at += n
    if action is not None:
        out[at + KINDS.index(action)] = 1.0
    return out


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


def rewards(placements: Sequence[int]) -> list[float]:
    """Each seat's reward for a game's ``placements``: its place score (K - place) / (K - 1),
    shared places sharing their mean, minus 1/2, so that a game's rewards sum to zero."""
    return [score - 0.5 for score in seat_scores(placements)]

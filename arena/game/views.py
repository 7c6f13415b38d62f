"""What each seat may see: the ``state`` of a request and its ``hand_start``.

These functions are the only way information leaves a :class:`GameState` for
a seat, so "nothing hidden leaks" is checked here and only here: no other
seat's cards, no blind dog's own card, nothing of the undealt deck.
"""

# arena: compiled with mypyc
from __future__ import annotations

from typing import Any

from arena.game.cards import SUIT_CHARS
from arena.game.state import DOG, KNOCK, PLAY, GameState, explain_move

JSON = dict[str, Any]


def current_leader(state: GameState) -> int:
    """The seat leading the current trick.

    Before the first card of a trick is down this is the seat to act, which
    differs from the trick's first seat after a leading dog has knocked.
    """
    pending = state.pending
    if state.trick:
        return state.trick[0][0]
    if pending is not None and pending.action == PLAY:
        return pending.seat
    return state.first_leader


def history(state: GameState) -> list[JSON]:
    """The hand's completed tricks in the protocol's form: ``{"leader", "moves", "winner"}``,
    ``leader`` the seat whose card led and ``moves`` every turn, a knock as ``"knock"``."""
    return [
        {"leader": cards[0][0], "moves": _turns(order, cards, len(order)), "winner": winner}
        for order, cards, winner in state.history
    ]


def _turns(order: list[int], cards: list[tuple[int, str]], upto: int) -> list[list[Any]]:
    """The first ``upto`` turns of a trick as ``[seat, card or "knock"]``: its cards follow
    the order of its turns, so one pass over both finds the seats that knocked."""
    turns: list[list[Any]] = []
    played = 0
    for seat in order[:upto]:
        if played < len(cards) and cards[played][0] == seat:
            turns.append([seat, cards[played][1]])
            played += 1
        else:
            turns.append([seat, KNOCK])
    return turns


def knocked(state: GameState) -> list[int]:
    """The seats that knocked in the trick in progress, in turn order.

    Every seat of the trick's ``order`` before the one to act took its turn:
    those not in ``trick`` knocked. A completed trick's knocks are in ``history``.
    """
    pending = state.pending
    if pending is None or pending.action != PLAY or len(state.trick) == state.turn:
        return []
    return [seat for seat, move in _turns(state.order, state.trick, state.turn) if move == KNOCK]


def request_state(state: GameState, seat: int) -> JSON:
    """The ``state`` object of a protocol v1 request for ``seat``: its whole information set."""
    blind = state.statuses[seat] == DOG and state.blind[seat]
    view: JSON = {
        "seat": seat,
        "hand": state.hand,
        "hand_size": state.hand_size,
        "dealer": state.dealer,
        "trump": SUIT_CHARS[state.trump] if state.trump >= 0 else None,
        "cards": [] if blind else list(state.hands[seat]),
        "leader": current_leader(state),
        "trick": [[s, card] for s, card in state.trick],
        "played": [[s, card] for s, card in state.played],
        "tricks": list(state.tricks),
        "statuses": list(state.statuses),
        "turn_up": state.turn_up,
        "history": history(state),
        "blind": [s for s in range(state.n) if state.statuses[s] == DOG and state.blind[s]],
        "knocked": knocked(state),
    }
    if state.dog_cards:
        view["dog_cards"] = {str(s): card for s, card in state.dog_cards.items()}
    return view


def hand_start(deal: JSON, seat: int) -> JSON:
    """The ``hand_start`` message for ``seat`` from a full-information ``deal`` record."""
    blind = seat in deal["blind"]
    message: JSON = {
        "type": "hand_start",
        "hand": deal["hand"],
        "dealer": deal["dealer"],
        "cards": [] if blind else list(deal["hands"][seat]),
        "hand_size": deal["hand_size"],
        "turn_up": deal["turn_up"],
        "statuses": list(deal["statuses"]),
    }
    if "dog_cards" in deal:
        message["dog_cards"] = dict(deal["dog_cards"])
    return message


def explain_request(request: JSON, move: object) -> str:
    """Why ``move`` is not one of a request's ``legal`` moves, from the request alone.

    The same sentence :meth:`GameState.explain` gives, taken from the seat's
    information set (its ``state``) instead of the whole game: a person's
    seat holds only what it was sent, and says in these words why an entry
    was refused.
    """
    state = request["state"]
    seat = state["seat"]
    trick = state["trick"]
    trump = state["trump"]
    return explain_move(
        move,
        request["action"],
        request["legal"],
        state["cards"],
        dog=state["statuses"][seat] == DOG,
        blind=seat in state["blind"],
        led=SUIT_CHARS.index(trick[0][1][1]) if trick else None,
        trump=SUIT_CHARS.index(trump) if trump else -1,
    )

"""What a person typed, understood as a move: ``7h``, ``10H``, ``3``, ``knock``, ``hearts``.

A person does not type the wire form (``"TH"``), so this module reads the
forms people write: a rank (``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A``)
and a suit (a letter, a name or a symbol) in either order and any case, a
number from the list of choices, or a word (``knock``, ``pass``,
``declare``, ``blind``; a suit to name trumps). Which moves are legal, and
why one is not, is the engine's to say: an entry that reads as a move but is
not legal is explained by :func:`arena.game.views.explain_request`, in the
engine's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from arena.game.cards import RANK_CHARS, SUIT_CHARS
from arena.game.views import explain_request

JSON = dict[str, Any]

#: Suits as people write them, to the wire's letter.
SUIT_WORDS = {
    **{char.lower(): char for char in SUIT_CHARS},
    "clubs": "C",
    "club": "C",
    "hearts": "H",
    "heart": "H",
    "diamonds": "D",
    "diamond": "D",
    "spades": "S",
    "spade": "S",
    "\u2663": "C",
    "\u2665": "H",
    "\u2666": "D",
    "\u2660": "S",
    "\u2667": "C",
    "\u2661": "H",
    "\u2662": "D",
    "\u2664": "S",
}
#: The order suits are shown in: black and red alternate (spades, hearts, clubs, diamonds).
SHOWN_SUITS = "SHCD"
#: Moves that are words, in the order they are listed before any card.
WORDS = ("knock", "blind", "pass", "declare")

_RANK = r"(10|[2-9tjqka])"
_SUIT = r"([a-z]+|[\u2660-\u2667])"
_CARD = re.compile(rf"^{_RANK}\s*(?:of\s+)?{_SUIT}$|^{_SUIT}\s*{_RANK}$")


@dataclass(frozen=True)
class Understood:
    """An entry read against a request: the move, or why there is none (a plain sentence)."""

    move: str | None
    problem: str | None = None


def choices(request: JSON) -> list[str]:
    """The request's legal moves in the order a person is shown them, numbered from 1.

    Words first, then cards grouped by suit (spades, hearts, clubs,
    diamonds) from the highest rank down, as a hand is held; suits to name
    trumps in the same order.
    """
    legal: list[str] = request["legal"]
    words = [move for move in WORDS if move in legal]
    suits = [move for move in SHOWN_SUITS if move in legal]
    cards = sorted((move for move in legal if len(move) == 2), key=card_order)
    return words + suits + cards


def card_order(card: str) -> tuple[int, int]:
    """Sort key of a wire-form card: its suit as shown, then rank from the highest."""
    return SHOWN_SUITS.index(card[1]), -RANK_CHARS.index(card[0])


#: What asks for help at the prompt (``?`` was "not a move").
HELP_WORDS = ("?", "help")  # not "h": that is hearts, when naming trumps
#: How a person leaves the table, said on the first screen and in the help.
LEAVING = "Type quit to leave the table (the arena plays your seat out), ? for this help."


def understand(entry: str, request: JSON) -> Understood:
    """The move a person meant by ``entry``, or a sentence saying why it is not one.

    The move returned is always one of the request's ``legal`` moves.
    """
    legal: list[str] = request["legal"]
    text = " ".join(entry.strip().lower().split())
    shown = choices(request)
    if not text:
        return Understood(None, f"type a move: {hint(request)}")
    if text in HELP_WORDS:
        return Understood(None, f"{hint(request)}. {LEAVING}")
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(shown):
            return Understood(shown[number - 1])
        return Understood(None, f"there is no move {number}: choose 1 to {len(shown)}")
    move = _read(text, suits=request["action"] == "trump")
    if move is None:
        return Understood(None, f"{entry.strip()!r} is not a move: {hint(request)}")
    if move in legal:
        return Understood(move)
    return Understood(None, explain_request(request, move))


def hint(request: JSON) -> str:
    """What a person may type for this request, in a few words."""
    legal: list[str] = request["legal"]
    words = [move for move in WORDS if move in legal]
    if request["action"] == "trump":
        return "a suit (s, h, d, c or its name), or a number from the list"
    parts = ["a card such as 7h or 10s"] if any(len(move) == 2 for move in legal) else []
    parts.append("a number from the list")
    if words:
        parts.append(" or ".join(words))
    return ", ".join(parts[:-1]) + ", or " + parts[-1] if len(parts) > 1 else parts[0]


def _read(text: str, *, suits: bool) -> str | None:
    """The wire form of a word, a card or (``suits``: naming trumps) a suit, else None."""
    if text in WORDS:
        return text
    if suits and text in SUIT_WORDS:
        return SUIT_WORDS[text]
    match = _CARD.match(text)
    if match is None:
        return None
    rank, suit = (match[1], match[2]) if match[1] else (match[4], match[3])
    if suit not in SUIT_WORDS:
        return None
    return ("T" if rank == "10" else rank.upper()) + SUIT_WORDS[suit]

"""A person's table at the terminal: the table drawn as text, entries typed at a prompt.

The table is drawn at each of the person's turns: the hand and its trumps
(with the turned-up card), every seat's status and tricks, the trick on the
table with who played what, the person's cards sorted by suit, and the
legal moves as a numbered list. Between turns the story of the game is
printed a line a trick. Colours where the terminal has them: not when
output is not a terminal, ``TERM`` is ``dumb`` or ``NO_COLOR`` is set
(https://no-color.org); suit symbols where the output's encoding has them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import click

from arena.game.cards import SUIT_CHARS, SUIT_NAMES
from arena.human.entry import LEAVING, SHOWN_SUITS, card_order, choices
from arena.human.player import CtrlC, PersonLeft
from arena.human.view import SeatView

JSON = dict[str, Any]

SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: What each kind of request asks, in words.
ASKED = {
    "play": "play a card",
    "trump": "name trumps",
    "rainbow": "declare a rainbow (one card of each suit: the hand ends, nobody goes out)?",
    "no_picture": "declare no picture (nothing above a ten: the hand is dealt again)?",
}


def colour_wanted(stream: TextIO) -> bool:
    """Whether to colour ``stream``: a terminal that is not dumb, and no ``NO_COLOR``."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def symbols_fit(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding can write the suit symbols."""
    try:
        "".join(SYMBOLS.values()).encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Style:
    """How cards and headings are written: colours on or off, suit symbols or letters."""

    def __init__(self, colour: bool, symbols: bool) -> None:
        self.colour = colour
        self.symbols = symbols

    def suit(self, suit: str) -> str:
        """A suit as shown: its symbol (red for hearts and diamonds) or its letter."""
        text = SYMBOLS[suit] if self.symbols else suit
        return self.red(text) if suit in "HD" else text

    def card(self, card: str) -> str:
        """A card as shown: ``10``/``7`` and its suit, red or black."""
        rank = "10" if card[0] == "T" else card[0]
        text = rank + (SYMBOLS[card[1]] if self.symbols else card[1])
        return self.red(text) if card[1] in "HD" else text

    def move(self, move: str) -> str:
        """A legal move as listed: a card, a suit with its name, or a word."""
        if len(move) == 2:
            return self.card(move)
        if move in SUIT_CHARS:
            return f"{self.suit(move)} {SUIT_NAMES[SUIT_CHARS.index(move)]}"
        return move

    def red(self, text: str) -> str:
        return click.style(text, fg="red", bold=True) if self.colour else text

    def strong(self, text: str) -> str:
        return click.style(text, bold=True) if self.colour else text

    def dim(self, text: str) -> str:
        return click.style(text, dim=True) if self.colour else text

    def warn(self, text: str) -> str:
        return click.style(text, fg="yellow", bold=True) if self.colour else text


#: A card in wire form inside a sentence ("AH is not legal", "Trick 1: ann 9S, ...").
_WIRE_CARD = re.compile(r"(?<![\w])([2-9TJQKA][SHDC])(?![\w])")


def shown_cards(text: str, style: Style) -> str:
    """``text`` with each card in wire form written as the table shows cards (``A♥``)."""
    return _WIRE_CARD.sub(lambda match: style.card(match[1]), text)


def hand_text(cards: list[str], style: Style) -> str:
    """A hand sorted by suit (spades, hearts, clubs, diamonds), each from its highest card."""
    groups = []
    for suit in SHOWN_SUITS:
        held = sorted((c for c in cards if c[1] == suit), key=card_order)
        if held:
            groups.append(" ".join(style.card(card) for card in held))
    return "   ".join(groups) if groups else "(no cards)"


def moves_text(moves: Sequence[Sequence[Any]], view: SeatView, style: Style) -> str:
    """Turns of a trick as ``Bob 7H, Carol knocks``."""
    return ", ".join(
        f"{view.name(seat)} knocks" if move == "knock" else f"{view.name(seat)} {style.card(move)}"
        for seat, move in moves
    )


def table_lines(view: SeatView, request: JSON, style: Style) -> list[str]:
    """The table at a person's turn, as lines of text, ending with the numbered moves."""
    size = view.hand_size
    trumps = f"trumps {style.move(view.trump)}" if view.trump else "trumps not named yet"
    turned = f" (turned up {style.card(view.turn_up)})" if view.turn_up else ""
    dealer = view.name(view.dealer) if view.dealer is not None else "?"
    lines = [
        "",
        style.strong(
            f"== Hand {view.hand} of 7: {size} card{'s' if size != 1 else ''} each, "
            f"{dealer} dealt =="
        )
        + f"  {trumps}{turned}",
    ]
    width = max(len(view.name(seat)) for seat in range(len(view.names)))
    for seat in range(len(view.names)):
        status = view.statuses[seat] if seat < len(view.statuses) else "active"
        notes = []
        if status == "dog" and seat in view.blind:
            notes.append("blind")
        if str(seat) in view.dog_cards:
            notes.append(f"card {style.card(view.dog_cards[str(seat)])} face up")
        shown_status = status + (f" ({', '.join(notes)})" if notes else "")
        tricks = view.tricks[seat] if seat < len(view.tricks) else 0
        marks = (" dealer" if seat == view.dealer else "") + (
            " leads" if seat == view.leader and not view.trick else ""
        )
        row = f"  {view.name(seat):<{width}}  {shown_status:<22}"
        row += f" {tricks} trick{'s' if tricks != 1 else ''}" if status != "out" else ""
        row += marks
        lines.append(style.dim(row) if status == "out" else row)
    if view.trick:
        lines.append(f"  On the table: {moves_text(view.trick, view, style)}")
    elif view.last_trick is not None:
        last = view.last_trick
        lines.append(
            f"  Last trick: {moves_text(last['moves'], view, style)} -> {view.name(last['winner'])}"
        )
    if view.seat in view.blind:
        lines.append("  Your card: one card, face down (play it unseen: blind)")
    else:
        lines.append(f"  Your hand: {hand_text(view.cards, style)}")
    shown = choices(request)
    numbered = "   ".join(f"{n}) {style.move(move)}" for n, move in enumerate(shown, 1))
    lines.append(style.strong(f"  Your turn: {ASKED.get(request['action'], request['action'])}"))
    lines.append(f"    {numbered}")
    return lines


#: What leaves the table at the prompt (after a confirmation).
QUIT_WORDS = ("quit", "exit")


class TerminalFront:
    """The terminal: prints the story and the table, reads entries at a prompt."""

    def __init__(
        self,
        ctrl_c: CtrlC,
        *,
        out: TextIO | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.out = out or sys.stdout
        self.read = read
        self.ctrl_c = ctrl_c
        self.style = Style(colour_wanted(self.out), symbols_fit(self.out))
        #: Whether the person has been told how to leave and get help (the first screen).
        self.told = False

    def say(self, text: str) -> None:
        """One line to the person."""
        click.echo(text, file=self.out, color=self.style.colour)

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        """Print the story a message adds (and the new hand's cards)."""
        kind = message.get("type")
        if kind == "hand_start":
            self.say("")
        for line in lines:
            self.say(shown_cards(line, self.style))
        if kind == "hand_start":
            status = view.statuses[view.seat]
            if status == "dog" and not view.cards:
                self.say("  You have a Dog's Life: one card, dealt face down (blind).")
            elif status == "dog":
                self.say(f"  You have a Dog's Life: your card {hand_text(view.cards, self.style)}")
            elif status != "out":
                self.say(f"  Your cards: {hand_text(view.cards, self.style)}")
        elif kind == "error":
            self.say(
                self.style.warn(
                    "You left the table: the arena plays your seat out (its first legal "
                    "move each turn); the game and its replay go on to the end."
                )
            )

    def leaving(self) -> str | None:
        """``interrupt`` once Ctrl-C was pressed while a bot was thinking."""
        return "interrupt" if self.ctrl_c.pressed else None

    def ask(self, view: SeatView, request: JSON, problem: str | None) -> str:
        """Draw the table (the first time) and read one entry.

        Raises:
            PersonLeft: ``interrupt`` on Ctrl-C, ``eof`` at the end of input.
        """
        if self.ctrl_c.pressed:  # Ctrl-C came while a bot was thinking: leave, draw nothing
            raise PersonLeft("interrupt")
        if problem is None:
            for line in table_lines(view, request, self.style):
                self.say(line)
            if not self.told:  # the first screen says how to leave, and how to get help
                self.say(f"  {LEAVING}")
                self.told = True
        else:
            self.say(self.style.warn(f"  {shown_cards(problem, self.style)}"))
        while True:
            entry = self._read("Your move> ")
            if entry.strip().lower() not in QUIT_WORDS:
                return entry
            answer = self._read("Leave the table? The arena plays your seat out. [y/N] ")
            if answer.strip().lower() in ("y", "yes"):
                raise PersonLeft("quit")
            self.say("  You stay: your move.")

    def _read(self, prompt: str) -> str:
        """One entry at ``prompt``; Ctrl-C and the end of input are leaving.

        Raises:
            PersonLeft: ``interrupt`` on Ctrl-C, ``eof`` at the end of input.
        """
        try:
            with self.ctrl_c.wait():
                return self.read(prompt)
        except KeyboardInterrupt:
            self.say("")
            raise PersonLeft("interrupt") from None
        except EOFError:
            self.say("")
            raise PersonLeft("eof") from None

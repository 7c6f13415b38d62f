"""A person at the table: one more :class:`~arena.referee.Player`, whatever draws the table.

:class:`HumanPlayer` is the seat the referee talks to. It keeps the seat's
:class:`~arena.human.view.SeatView` and asks its *front* (the terminal or a
web page) for an entry until the entry is a legal move, explaining each one
that is not in the engine's words (:mod:`arena.human.entry`). The person has
no time limit; the bots keep theirs.

A person who leaves (Ctrl-C, the end of input, the page's Leave button)
makes the front raise :class:`PersonLeft`; the seat then faults as a bot
that crashed would (``crash``, "the person left": protocol v1's kinds are a
closed set, and the other seats' bots are told of it), the referee plays it
out with its fallback, and the game and its replay end as any other. The
fault is marked as a person's leaving (``left``), so that results count it
as ``left``, not as a crash of a program.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Protocol

from arena.errors import BotFault, FaultKind
from arena.human.entry import understand
from arena.human.view import SeatView

JSON = dict[str, Any]

#: The fault detail of a seat whose person left the table.
LEFT = "the person left"


class PersonLeft(Exception):
    """The person left the table: ``how`` is ``interrupt`` (Ctrl-C), ``eof`` or ``page``."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


class Front(Protocol):
    """What draws a person's table and reads their entries: the terminal or a page."""

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        """The seat took ``message``; ``lines`` is the story it added."""

    def ask(self, view: SeatView, request: JSON, problem: str | None) -> str:
        """The person's entry for ``request``; ``problem``: why the last one was refused.

        Raises:
            PersonLeft: when the person leaves instead.
        """

    def leaving(self) -> str | None:
        """How the person left between their turns (Ctrl-C while a bot thought, the page's
        Leave button), as :class:`PersonLeft`'s ``how``; None while they stay."""


class HumanPlayer:
    """The referee's player for a person's seat: the rules' answers come from a front."""

    def __init__(self, name: str, front: Front, *, description: str = "a person") -> None:
        self.name = name
        self.description = description
        self.front = front
        self.view = SeatView()
        #: How the person left (:class:`PersonLeft`'s ``how``), or None while they play.
        self.left: str | None = None

    def start_game(self, message: JSON, line: bytes) -> None:
        """Sit down: a new view of a new game."""
        self.deliver(message, line)

    def deliver(self, message: JSON, line: bytes) -> None:
        """Take an information message and show it.

        Raises:
            BotFault: ``crash``, "the person left" (counted as ``left``), when they left
                since their last turn: their seat faults now, not at their next turn,
                which may never come.
        """
        lines = self.view.update(message)
        self.front.show(self.view, message, lines)
        how = self.front.leaving()
        if how is not None and self.left is None:
            self.left = how
            raise BotFault(FaultKind.CRASH, LEFT, left=True)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        """Ask the person until they enter a legal move (no time limit).

        Raises:
            BotFault: ``crash``, "the person left" (counted as ``left``), when they leave.
        """
        self.view.update(message)
        started = time.monotonic()
        problem = None
        while True:
            try:
                entry = self.front.ask(self.view, message, problem)
            except PersonLeft as left:
                self.left = left.how
                raise BotFault(FaultKind.CRASH, LEFT, left=True) from None
            understood = understand(entry, message)
            if understood.move is not None:
                return understood.move, (time.monotonic() - started) * 1000
            problem = understood.problem

    def end_game(self) -> None:
        """Nothing to close: the front stays for the result."""

    def abandon(self, error_line: bytes | None) -> None:
        """The seat faulted (the person left): show the referee's word on it."""
        message: JSON = {"type": "error", "message": LEFT}
        self.view.update(message)
        self.front.show(self.view, message, [])


#: What a person is told when Ctrl-C comes while a bot is thinking.
LEAVING = (
    "Ctrl-C: you leave the table once this move is made, and the arena plays your seat out "
    "(Ctrl-C again stops the game at once, with no replay)."
)


class CtrlC:
    """Ctrl-C at a table with people: their part ends, the game plays on to its replay.

    While a front waits for an entry (``waiting``), Ctrl-C raises
    KeyboardInterrupt there, and the front turns it into :class:`PersonLeft`;
    at any other moment (a bot is thinking) it is counted in ``presses``,
    the person is told (``say``), and the next message to each person ends
    their part (:meth:`HumanPlayer.deliver`). Either way the game is played
    out by the referee and its replay is complete; the command then exits
    130, as shells expect after Ctrl-C. A second Ctrl-C while the game still
    runs raises KeyboardInterrupt: the person (already out, say) wants it
    stopped now. After the game (``finished``) a press is only counted: it
    ends the wait for the pages.
    """

    def __init__(self, say: Callable[[str], None] = print) -> None:
        #: How many times Ctrl-C was pressed (a wait can watch for one more).
        self.presses = 0
        self.waiting = False
        self.finished = False
        self.say = say

    @property
    def pressed(self) -> bool:
        """Whether Ctrl-C was pressed at all."""
        return self.presses > 0

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.presses += 1
        if self.finished:
            return
        if self.waiting or self.presses > 1:
            raise KeyboardInterrupt
        self.say(LEAVING)

    @contextmanager
    def installed(self) -> Iterator[CtrlC]:
        """Within the block, Ctrl-C is handled as the class says (main thread only)."""
        previous = signal.signal(signal.SIGINT, self._handler)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    @contextmanager
    def wait(self) -> Iterator[None]:
        """A front waits for the person: Ctrl-C now raises KeyboardInterrupt.

        Raises:
            PersonLeft: ``interrupt``, at once when Ctrl-C was pressed before.
        """
        if self.pressed:
            raise PersonLeft("interrupt")
        self.waiting = True
        try:
            yield
        finally:
            self.waiting = False

"""Seats for people in ``arena play``: which BOT arguments are people, and their table.

A BOT argument ``human`` or ``human:NAME`` seats a person (a bot folder
named human is written ``./human``). One person plays at the terminal; with
``--web`` any number play in their browsers, each on a page of their own.
:class:`People` sets up what the people need for one game (the Ctrl-C
handling, the web server) and hands the referee a player for each of them.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

from arena.bots.spec import PERSON, BotSpec, check_name, is_person, parse_bot, unique_names
from arena.errors import BotError, UsageProblem
from arena.human.player import CtrlC, HumanPlayer
from arena.human.terminal import TerminalFront
from arena.human.web import TableServer, WebFront
from arena.referee import GameResult


@dataclass(frozen=True)
class HumanSeat:
    """A seat for a person: their name, and whether it was given (``human:NAME``)."""

    name: str
    named: bool = False


def parse_seat(text: str, base: Path | None = None) -> BotSpec | HumanSeat:
    """One BOT argument of ``arena play``: a person, or a bot as :func:`parse_bot` reads it.

    Raises:
        BotError: for ``human:`` without a name, a bad name, or a bad bot.
    """
    if not is_person(text):
        return parse_bot(text, base)
    if text == PERSON:
        return HumanSeat(PERSON)
    name = text.partition(":")[2]
    if not name:
        raise BotError(f"{text!r}: write human:NAME with a name, or human alone")
    return HumanSeat(check_name(name, repr(text)), named=True)


def parse_seats(texts: Sequence[str], base: Path | None = None) -> list[BotSpec | HumanSeat]:
    """Every BOT argument of ``arena play``, each seat with a name of its own.

    Raises:
        BotError: as :func:`parse_seat`, or for one name given to two seats.
    """
    seats = [parse_seat(text, base) for text in texts]
    entries = [(seat.name, seat.named) for seat in seats]
    if any(isinstance(seat, HumanSeat) for seat in seats):
        advice = "give each its own name (NAME=COMMAND for a bot, human:NAME for a person)"
        names = unique_names(entries, advice, "seats")
    else:
        names = unique_names(entries)
    return [replace(seat, name=name) for seat, name in zip(seats, names, strict=True)]


def check_people(
    seats: Sequence[BotSpec | HumanSeat],
    *,
    web: bool,
    port: int | None = None,
    open_pages: bool | None = None,
) -> list[HumanSeat]:
    """The people among ``seats``, if they can sit there (``port``, ``open_pages``: the
    ``--port`` and ``--open/--no-open`` given, None when not given).

    Raises:
        UsageProblem: two people at one terminal, ``--web`` with nobody to show it to,
            or a web option without ``--web``.
    """
    if not web and (port is not None or open_pages is not None):
        flag = "--port" if port is not None else "--open/--no-open"
        raise UsageProblem(f"{flag} is for the pages of --web")
    people = [seat for seat in seats if isinstance(seat, HumanSeat)]
    if len(people) > 1 and not web:
        raise UsageProblem(
            f"{len(people)} people at one terminal: one human seat plays at the terminal; "
            "with --web each person gets a page of their own"
        )
    if web and not people:
        raise UsageProblem("--web shows a person's table: seat one with human or human:NAME")
    return people


def graphical() -> bool:
    """Whether a browser window can open here (not on a bare terminal or over ssh alone)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class People:
    """What the people at one game need: Ctrl-C handling, and the web server with ``web``.

    Use as a context manager around the game; :meth:`player` gives the
    referee each person's seat, :meth:`finish` shows the end to every page.

    Raises:
        ArenaError: on entering, when the web server cannot listen.
    """

    def __init__(
        self,
        people: Sequence[HumanSeat],
        *,
        web: bool,
        port: int = 0,
        open_pages: bool = True,
        say: Callable[[str], None] = print,
    ) -> None:
        self.ctrl_c = CtrlC(say)
        self.say = say
        self.web = web
        self.open_pages = open_pages
        fronts = [WebFront(seat.name, self.ctrl_c) for seat in people] if web else []
        self.fronts = {front.name: front for front in fronts}
        self.server = TableServer(list(self.fronts.values()), port) if web else None
        self.players: list[HumanPlayer] = []
        self._installed = self.ctrl_c.installed()

    def __enter__(self) -> People:
        self._installed.__enter__()
        if self.server is not None:
            self.server.start()
            for name, front in self.fronts.items():
                self.say(f"{name}: {self.server.url(front)}")
            if self.open_pages and graphical():
                for front in self.fronts.values():
                    webbrowser.open(self.server.url(front))
            self.say("Open each link in a browser on this machine (Ctrl-C ends the people's part).")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.server is not None:
            self.server.stop()
        self._installed.__exit__(kind, error, trace)

    def player(self, seat: HumanSeat) -> HumanPlayer:
        """The referee's player for ``seat``: its page with ``web``, else the terminal."""
        if self.web:
            player = HumanPlayer(seat.name, self.fronts[seat.name], description="a person (web)")
        else:
            front = TerminalFront(self.ctrl_c)
            player = HumanPlayer(seat.name, front, description="a person (terminal)")
        self.players.append(player)
        return player

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C was pressed (the command then exits 130)."""
        return self.ctrl_c.pressed

    def finish(self, result: GameResult) -> None:
        """The game is over: every page gets its replay, and is served until it has it.

        A Ctrl-C from now on only ends the wait.
        """
        self.ctrl_c.finished = True
        if self.server is None:
            return
        for front in self.fronts.values():
            front.finish(result.replay)
        if not self.server.linger(self.ctrl_c, limit_s=1.0):
            self.say("Waiting for the pages to show the end of the game (Ctrl-C stops).")
            self.server.linger(self.ctrl_c)


def default_replay(game_id: str) -> Path:
    """Where a game with people keeps its replay when ``--replay`` is not given."""
    return Path("results") / "play" / f"{game_id}.jsonl"

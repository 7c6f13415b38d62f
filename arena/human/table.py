"""What the people at one game of ``arena play`` need: Ctrl-C handling, a front each.

:class:`People` sets up the terminal or the web server for the seats that
:mod:`arena.human.seats` found to be people, and hands the referee a
player for each of them.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Callable, Sequence
from types import TracebackType

from arena.human.player import CtrlC, HumanPlayer
from arena.human.seats import HumanSeat
from arena.human.terminal import TerminalFront
from arena.human.web import TableServer, WebFront
from arena.referee import GameResult


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

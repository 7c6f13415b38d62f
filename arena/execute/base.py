"""What every executor shares: where it takes games from, what it plays them with, and
the interface the runner drives.

An executor plays games and hands each back finished, its replay written;
it never learns which kind of event the games belong to (a tournament, a
match, a server's ladder): a game is a :class:`~arena.results.games.ScheduledGame`
and the bots, rules and limits come in a :class:`Setup`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import ArenaError
from arena.game import Rules
from arena.protocol import Limits
from arena.results.games import ScheduledGame
from arena.results.store import Finished


class GameSettings(Protocol):
    """What every game of an event is played with (an event gives these, and more)."""

    @property
    def bots(self) -> tuple[BotSpec, ...]:
        """The bots that may be seated."""
        ...

    @property
    def rules(self) -> Rules:
        """The rules every game is played by."""
        ...

    @property
    def limits(self) -> Limits:
        """Every bot's time limits."""
        ...

    @property
    def resources(self) -> tuple[tuple[str, int], ...]:
        """Resource limits for every bot (a bot's own bot.toml wins)."""
        ...

    @property
    def isolated(self) -> bool:
        """Whether each seat rotation of a deal set is played by other processes (no
        process of a bot sees one deal set twice)."""
        ...


class Games(Protocol):
    """Where an executor takes its games from (a :class:`arena.events.feed.Feed`)."""

    def take(self, count: int) -> list[ScheduledGame]:
        """Up to ``count`` games that may start now (none: wait for a game to finish)."""
        ...

    def take_table(self, most: int) -> list[ScheduledGame]:
        """The next games of one table, at most ``most`` (none: wait for a game to finish)."""
        ...

    def left(self) -> int:
        """Games not handed out yet (at most)."""
        ...

    def newcomers(self) -> Sequence[BotSpec]:
        """Bots that entered the field while the games run, in order (only ever longer:
        an executor sends each worker those after the ones it sent before)."""
        ...


class Executor(Protocol):
    """Plays games somewhere and hands back each one as it finishes, its replay written."""

    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> AbstractContextManager[Iterator[Finished]]:
        """The finished games, in any order; leaving the context stops what is still running.

        Games are taken from ``games`` as workers free up, and only after the
        caller has dealt with the finished game handed back before (a
        finished game may let the next round be made). When ``games`` has
        none to give and none is running, the run is over. ``disabled`` is
        live: a bot disabled while the games run forfeits the games handed
        out after that.
        """
        ...


class WorkerDied(ArenaError):
    """A worker process ended while it had games to play."""


@dataclass(frozen=True)
class Setup:
    """What a worker needs to play an event's games."""

    bots: tuple[BotSpec, ...]
    rules: Rules
    limits: Limits
    resources: dict[str, int]
    #: The layers to confine bots in (None: unconfined).
    sandbox: Capabilities | None
    folder: Path
    #: Protections every worker's sandbox must provide (--require).
    required: tuple[str, ...] = ()
    #: Keep one process of each bot per seat rotation (see :class:`GameSettings`).
    isolated: bool = False

    @classmethod
    def of(
        cls,
        event: GameSettings,
        sandbox: Capabilities | None,
        folder: Path,
        required: Sequence[str] = (),
    ) -> Setup:
        """The setup of ``event``, whose results go to ``folder``.

        The folder is made absolute: a worker on another machine, started in
        another folder, must find the same one.
        """
        return cls(
            event.bots,
            event.rules,
            event.limits,
            dict(event.resources),
            sandbox,
            folder.absolute(),
            tuple(required),
            event.isolated,
        )

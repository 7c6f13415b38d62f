"""Bot folders built before a command runs them: a line for each build, ``--rebuild``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from arena.bots.builds import Build, BuildFailed
from arena.bots.health import Broken, build_all
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.events import precheck
from arena.events.run import stopped_by
from arena.events.settings import Running
from arena.signals import exit_status, stop_like_ctrl_c

F = TypeVar("F", bound=Callable[..., Any])


def rebuild_option(command: F) -> F:
    """``--rebuild``, for the commands that build bot folders before running them."""
    return click.option(
        "--rebuild",
        is_flag=True,
        help="Build each bot folder again, even where nothing changed since its last build.",
    )(command)


class BuildLines:
    """A line on stderr for each build that runs (one up to date says nothing): a build
    can take a minute, and a silent minute looks like a hang."""

    def __init__(self) -> None:
        #: A build's line is printed and waits for its end (a time, "failed").
        self.open = False
        #: The bot whose build runs now (what a stop interrupted), or None.
        self.building: str | None = None

    def started(self, bot: str, command: str, reason: str) -> None:
        click.echo(f"building {bot} ({command}; {reason}) ...", nl=False, err=True)
        self.open = True
        self.building = bot

    def finished(self, build: Build) -> None:
        self.end(f" {build.seconds or 0.0:.1f} s")

    def failed(self, failure: BuildFailed) -> None:
        self.end(" failed")

    def end(self, text: str) -> None:
        """End the open line with ``text`` (a line of its own when none is open)."""
        if self.open or text.strip():
            click.echo(text if self.open else text.lstrip(), err=True)
        self.open = False
        self.building = None

    def interrupted(
        self,
        interrupt: KeyboardInterrupt,
        after_stop: str,
        otherwise: str = "while starting the bots",
    ) -> NoReturn:
        """Exit after a stop before any game (see :func:`stopped`), saying what it stopped:
        a build, or (``otherwise``) what runs after the builds."""
        when = otherwise if self.building is None else f"while building {self.building}"
        stopped(interrupt, when, after_stop, self)


def build_bots(
    specs: Sequence[BotSpec], *, rebuild: bool, after_stop: str, collect: bool = False
) -> list[Broken]:
    """Bring each bot folder's build up to date, a line for each build
    (:func:`arena.bots.health.build_all`).

    A failed build is the command's error, or, with ``collect``, one of the
    broken bots returned (a tournament names them all at once). A stop during
    a build (Ctrl-C, SIGTERM, SIGHUP) exits as a stop during a run does: with
    128 + the signal (130 for Ctrl-C) and a line saying what now
    (``after_stop``: the resume command), not click's "Aborted!" with status 1.
    """
    lines = BuildLines()
    with stop_like_ctrl_c():
        try:
            return build_all(specs, rebuild=rebuild, watcher=lines, collect=collect)
        except KeyboardInterrupt as interrupt:
            lines.interrupted(interrupt, after_stop)


def check_field(
    specs: Sequence[BotSpec],
    running: Running,
    sandbox: Capabilities | None,
    logs: Path,
    *,
    rebuild: bool,
    after_stop: str,
    folder: Path | None = None,
) -> list[Broken]:
    """:func:`arena.events.precheck.check_field`, a line for each build, and a stop before
    any game told as :func:`build_bots` tells it."""
    lines = BuildLines()
    with stop_like_ctrl_c():
        try:
            return precheck.check_field(
                specs, running, sandbox, logs, rebuild=rebuild, watcher=lines, folder=folder
            )
        except KeyboardInterrupt as interrupt:
            lines.interrupted(interrupt, after_stop)


def stopped(
    interrupt: KeyboardInterrupt, when: str, after_stop: str, lines: BuildLines | None = None
) -> NoReturn:
    """Exit after a stop before any game: 128 + its signal, and a line saying what now."""
    if lines is not None:
        lines.end("")
    click.echo(f"{stopped_by(interrupt)} {when}: no game was played; {after_stop}", err=True)
    sys.exit(exit_status(interrupt))

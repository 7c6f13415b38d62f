"""Bot folders built before a command runs them: a line for each build, ``--rebuild``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from arena.bots.builds import Build, build_bot
from arena.bots.spec import BotSpec
from arena.errors import ArenaError
from arena.events.run import stopped_by
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

    def started(self, bot: str, command: str, reason: str) -> None:
        click.echo(f"building {bot} ({command}; {reason}) ...", nl=False, err=True)
        self.open = True

    def finished(self, build: Build) -> None:
        self.end(f" {build.seconds or 0.0:.1f} s")

    def end(self, text: str) -> None:
        """End the open line with ``text`` (a line of its own when none is open)."""
        if self.open or text.strip():
            click.echo(text if self.open else text.lstrip(), err=True)
        self.open = False


def build_bots(specs: Iterable[BotSpec], *, rebuild: bool, after_stop: str) -> None:
    """Bring each bot folder's build up to date (:func:`arena.bots.builds.build_bot`).

    A stop during a build (Ctrl-C, SIGTERM, SIGHUP) exits as a stop during a
    run does: with 128 + the signal (130 for Ctrl-C) and a line saying what
    now (``after_stop``: "rerun the command to start", the resume command),
    not click's "Aborted!" with status 1.
    """
    lines = BuildLines()
    with stop_like_ctrl_c():
        for spec in specs:
            try:
                build_bot(spec, rebuild=rebuild, watcher=lines)
            except ArenaError:
                if lines.open:
                    lines.end(" failed")
                raise
            except KeyboardInterrupt as interrupt:
                lines.end("")
                click.echo(f"{stopped_by(interrupt)} while building {spec.name}: no game was "
                           f"played; {after_stop}", err=True)  # fmt: skip
                sys.exit(exit_status(interrupt))

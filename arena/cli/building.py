"""Bot folders built before a command runs them: a line for each build, ``--rebuild``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from arena.bots.builds import Build, BuildFailed, build_bot
from arena.bots.health import Broken, probe
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
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


def build_bots(
    specs: Iterable[BotSpec], *, rebuild: bool, after_stop: str, collect: bool = False
) -> list[Broken]:
    """Bring each bot folder's build up to date (:func:`arena.bots.builds.build_bot`).

    A failed build is the command's error, or, with ``collect``, one of the
    broken bots returned (a tournament names them all at once). A stop during
    a build (Ctrl-C, SIGTERM, SIGHUP) exits as a stop during a run does: with
    128 + the signal (130 for Ctrl-C) and a line saying what now
    (``after_stop``: the resume command), not click's "Aborted!" with status 1.
    """
    lines = BuildLines()
    broken = []
    with stop_like_ctrl_c():
        for spec in specs:
            try:
                build_bot(spec, rebuild=rebuild, watcher=lines)
            except BuildFailed as failed:
                lines.end(" failed")
                if not collect:
                    raise
                broken.append(Broken(spec.name, failed.reason, failed.log))
            except KeyboardInterrupt as interrupt:
                stopped(interrupt, f"while building {spec.name}", after_stop, lines)
    return broken


def check_field(
    specs: Sequence[BotSpec],
    running: Running,
    sandbox: Capabilities | None,
    logs: Path,
    *,
    rebuild: bool,
    after_stop: str,
) -> list[Broken]:
    """Build every bot, then start each one that built (once per distinct command) and
    shake hands: the broken ones, all of them, before any game (their logs in ``logs``,
    a folder of their own: a bot's games write its log in the results folder's)."""
    broken = build_bots(specs, rebuild=rebuild, after_stop=after_stop, collect=True)
    failed = {bot.bot for bot in broken}
    built = [spec for spec in specs if spec.name not in failed]
    with stop_like_ctrl_c():
        try:
            broken += probe(built, running.limits, sandbox=sandbox,
                            resources=dict(running.resources), log_dir=logs)  # fmt: skip
        except KeyboardInterrupt as interrupt:
            stopped(interrupt, "while starting the bots", after_stop)
    order = {spec.name: index for index, spec in enumerate(specs)}
    return sorted(broken, key=lambda bot: order[bot.bot])


def stopped(
    interrupt: KeyboardInterrupt, when: str, after_stop: str, lines: BuildLines | None = None
) -> NoReturn:
    """Exit after a stop before any game: 128 + its signal, and a line saying what now."""
    if lines is not None:
        lines.end("")
    click.echo(f"{stopped_by(interrupt)} {when}: no game was played; {after_stop}", err=True)
    sys.exit(exit_status(interrupt))

"""What the commands share: one-line errors, the options of commands that run bots."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from arena.bots.sandbox import PROTECTIONS
from arena.errors import ArenaError, UsageProblem
from arena.execute.local import DEFAULT_JOBS
from arena.game.rules import OPTION_NAMES
from arena.protocol import Limits
from arena.tournament.config_schema import config_schema

F = TypeVar("F", bound=Callable[..., Any])


class ArenaCommand(click.Command):
    """A command whose deliberate errors are one line: an :class:`ArenaError` becomes
    ``Error: ...`` with exit status 1, a :class:`UsageProblem` a usage error (2), in this
    one place rather than around each call."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageProblem as error:
            raise click.UsageError(error.spelled(flag_spelling(ctx, error)), ctx) from None
        except ArenaError as error:
            raise click.ClickException(error.spelled(flag_spelling(ctx, error))) from None


COMMAND_LINE = ParameterSource.COMMANDLINE
#: Settings whose option's parameter has another name (``--update`` fills ``updates``).
PARAMETERS = {
    "bot": "bots",
    "update": "updates",
    "limit": "limits",
    "rule": "rules",
    "require": "required",
    "replay": "replay_path",
    "logs": "log_dir",
    "at": "at_decision",
    "game": "game_id",
}


def flag_spelling(ctx: click.Context, error: ArenaError) -> Callable[[str], str]:
    """How this command's user gives each setting ``error`` names: as the config file's
    keys where a config file is in use and none of them was typed on the command line
    (``rounds = 3`` in the file: "rounds needs schedule ..."), as flags otherwise (typed:
    "--rounds needs --schedule ..."); a setting the file does not take, always as its flag."""
    options = {param.name: param for param in ctx.command.params if isinstance(param, click.Option)}

    def option(setting: str) -> click.Option | None:
        found = options.get(PARAMETERS.get(setting, setting))
        return found if found is not None and found.name is not None else None

    def typed(setting: str) -> bool:
        found = option(setting)
        return found is not None and ctx.get_parameter_source(str(found.name)) == COMMAND_LINE

    as_keys = ctx.params.get("config_file") is not None and not any(map(typed, error.settings()))

    def spell(setting: str) -> str:
        found = option(setting)
        if found is None or (as_keys and setting in config_schema()["properties"]):
            return setting
        return "/".join(max(opts, key=len) for opts in (found.opts, found.secondary_opts) if opts)

    return spell


def command(name: str | None = None) -> Callable[[Callable[..., Any]], click.Command]:
    """A command of ``arena`` whose errors are translated (:class:`ArenaCommand`)."""
    return click.command(name, cls=ArenaCommand)


def limit_options(command: F) -> F:
    """The time-limit options shared by commands that run bots (None: not given, so a
    config file or the default decides)."""
    defaults = Limits()
    for name, default, what in (
        ("--startup-ms", defaults.startup_ms, "to answer hello"),
        ("--bank-ms", defaults.bank_ms, "of extra time per game"),
        ("--move-ms", defaults.move_ms, "per move"),
    ):
        command = click.option(
            name,
            type=click.IntRange(min=1),
            default=None,
            show_default=str(default),
            help=f"Milliseconds {what}.",
        )(command)
    return command


def players_option(show_default: str) -> Callable[[F], F]:
    """``--players``, a usage error out of 2..7 (the same value in a config file is a
    domain error, said by the library)."""
    return click.option(
        "--players",
        type=click.IntRange(2, 7),
        default=None,
        show_default=show_default,
        help="Seats per table.",
    )


def run_options(what: str) -> Callable[[F], F]:
    """``--jobs``, ``--pin/--no-pin``, ``--dask`` and ``--seed``: where an event's games
    play, the same in every command that runs one (``what``: "Tournament", "Match")."""

    def add(command: F) -> F:
        command = click.option(
            "--seed",
            type=click.IntRange(min=0),
            default=None,
            show_default="0",
            help=f"{what} seed.",
        )(command)
        command = click.option(
            "--dask",
            "dask",
            default=None,
            metavar="ADDRESS",
            help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N for N "
            "worker processes here. Needs the dask extra.",
        )(command)
        command = click.option(
            "--pin/--no-pin",
            default=None,
            help="Run each game's referee and bots on a CPU of their own when --jobs <= CPUs "
            "(default: on; they take turns, and one warm core serves them fastest).",
        )(command)
        return click.option(
            "--jobs",
            type=click.IntRange(min=1),
            default=None,
            show_default=str(DEFAULT_JOBS),
            help="Games at once (capped at the tables a round offers at once).",
        )(command)

    return add


def sandbox_options(command: F) -> F:
    """``--require``, ``--limit`` and ``--no-sandbox``, shared by commands that run bots."""
    command = click.option(
        "--limit",
        "limits",
        multiple=True,
        metavar="KEY=VALUE",
        help="A resource limit for every bot (repeatable), e.g. memory_mb=512; keys: "
        "cpu_s, memory_mb, address_space_mb, processes, file_size_mb, open_files. "
        "A bot's bot.toml [limits] wins over it.",
    )(command)
    command = click.option(
        "--no-sandbox",
        is_flag=True,
        help="Run bots unconfined (their own process group and scratch folder only).",
    )(command)
    return click.option(
        "--require",
        "required",
        default="",
        metavar="LIST",
        help=f"Refuse to start unless these protections are available: {','.join(PROTECTIONS)}.",
    )(command)


def resume_command(argv: Sequence[str] | None = None) -> str:
    """The command line that resumes this run."""
    return shlex.join(["arena", *(sys.argv[1:] if argv is None else argv)])


def write_page(target: Path, text: str) -> None:
    """Write an HTML page; a place that cannot be written is a one-line error."""
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {target}: {error.strerror}") from None


rule_option = click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="KEY=VALUE",
    help=f"A rule option (repeatable), e.g. dog_life=none. Options: {', '.join(OPTION_NAMES)}.",
)

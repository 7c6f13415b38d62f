"""The ``arena`` command line: parse, call one library function, format; nothing else.

Every deliberate error (:class:`arena.errors.ArenaError`) becomes a one-line
message and exit status 1 through :class:`click.ClickException`, in one place
(:class:`arena.cli.common.ArenaCommand`); usage errors exit with 2, as click
does. Each module holds the commands of one job.
"""

from __future__ import annotations

import importlib

import click

from arena import __version__

#: Each command's module (under ``arena.cli``) and name there. A command's module is
#: imported when the command runs (or ``--help`` lists them all): ``arena leaderboard``
#: need not import the config schemas, the sandbox and the builders (0.6 s of start-up
#: on the 2-CPU machine, which every ``arena`` command paid).
COMMANDS = {
    "simulate": ("play", "simulate"),
    "play": ("play", "play"),
    "replay": ("replay", "replay"),
    "sandbox": ("bots", "sandbox"),
    "check-bot": ("bots", "check_bot_command"),
    "new-bot": ("bots", "new_bot_command"),
    "config-schema": ("bots", "config_schema_command"),
    "tournament": ("tournament", "tournament"),
    "match": ("match", "match"),
    "report": ("results", "report"),
    "leaderboard": ("results", "leaderboard"),
    "serve": ("serve", "serve"),
    "submit": ("serve", "submit"),
}


class Commands(click.Group):
    """The ``arena`` group, its commands imported when asked for (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(f"arena.cli.{module}"), name)
        return command


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """A Knockout Whist bot arena.

    \b
    Example:
        arena simulate --seed 7 --players 5 --rule dog_life=expanded
    """

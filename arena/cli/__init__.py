"""The ``arena`` command line: parse, call one library function, format; nothing else.

Every deliberate error (:class:`arena.errors.ArenaError`) becomes a one-line
message and exit status 1 through :class:`click.ClickException`, in one place
(:class:`arena.cli.common.ArenaCommand`); usage errors exit with 2, as click
does. Each module holds the commands of one job.
"""

from __future__ import annotations

import click

from arena import __version__
from arena.cli import bots, match, play, replay, results, serve, tournament


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """A Knockout Whist bot arena.

    \b
    Example:
        arena simulate --seed 7 --players 5 --rule dog_life=expanded
    """


for command in (
    play.simulate,
    play.play,
    replay.replay,
    bots.sandbox,
    bots.check_bot_command,
    bots.new_bot_command,
    bots.config_schema_command,
    tournament.tournament,
    match.match,
    results.report,
    results.leaderboard,
    serve.serve,
    serve.submit,
):
    main.add_command(command)

"""The ``arena`` command line: parse, call, format; nothing else.

Every deliberate error (:class:`arena.errors.ArenaError`) becomes a one-line
message and exit status 1 through :class:`click.ClickException`; usage errors
exit with 2, as click does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import click

from arena import __version__
from arena.errors import ArenaError
from arena.game.rules import OPTION_NAMES, Rules, parse_rule_assignment
from arena.report.narrate import narrate
from arena.simulate import random_game


def build_rules(players: int | None, assignments: Sequence[str]) -> Rules:
    """Rules from ``--players`` and repeated ``--rule KEY=VALUE`` options.

    Raises:
        click.ClickException: for an unknown option or a bad value.
    """
    try:
        options: dict[str, object] = dict(parse_rule_assignment(a) for a in assignments)
        if players is not None:
            options["players"] = players
        return Rules.from_dict(options)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None


rule_option = click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="KEY=VALUE",
    help=f"A rule option (repeatable), e.g. dog_life=none. Options: {', '.join(OPTION_NAMES)}.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """A Knockout Whist bot arena.

    \b
    Example:
        arena simulate --seed 7 --players 5 --rule dog_life=expanded
    """


@main.command()
@click.option("--seed", type=int, default=None, help="Same seed, same game (default: random).")
@click.option(
    "--players", type=click.IntRange(2, 7), default=None, help="Seats at the table (default 4)."
)
@rule_option
@click.option("--hide-hands", is_flag=True, help="Do not print every seat's cards at each deal.")
@click.option("--quiet", is_flag=True, help="Print only the result line.")
def simulate(
    seed: int | None, players: int | None, rules: Sequence[str], hide_hands: bool, quiet: bool
) -> None:
    """Narrate one game of in-process random players, trick by trick.

    No bot processes are involved: this shows the rules engine at work.

    \b
    Example:
        arena simulate --seed 2026 --rule rainbow=true --rule blind_dog=true
    """
    game_rules = build_rules(players, rules)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    names = [f"P{seat}" for seat in range(game_rules.players)]
    state = random_game(game_rules, seed, game_id=f"sim-{seed}")
    if not quiet:
        options = ", ".join(
            f"{key}={value}"
            for key, value in game_rules.to_dict().items()
            if value != getattr(Rules(), key)
        )
        click.echo(
            f"Seed {seed}, {game_rules.players} random players; rules: {options or 'standard'}."
        )
        for line in narrate(state.log, names, show_hands=not hide_hands):
            click.echo(line)
    else:
        winner = state.log[-1]["winner"]
        click.echo(f"seed {seed}: {names[winner]} wins; places {state.placements}")

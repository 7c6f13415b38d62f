"""``arena simulate`` and ``arena play``: one game, shown as it is played."""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any, cast

import click

from arena.bots.spec import BotSpec
from arena.cli.building import build_bots, rebuild_option
from arena.cli.common import (
    command,
    limit_options,
    rule_option,
    sandbox_options,
)
from arena.execute.game import play_one
from arena.game.rules import Rules, rules_from
from arena.human.seats import HumanSeat, PlayFlags, resolve_play
from arena.referee import GameResult, Player, write_replay
from arena.report.narrate import narrate, result_line
from arena.simulate import random_game


@command()
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
    if quiet and hide_hands:
        raise click.UsageError("--hide-hands with --quiet: --quiet prints no hands anyway")
    seats = None if players is None else "{players} says how many"
    game_rules = rules_from(rules, players=players, seats=seats)
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


@command()
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT ...]")
@click.option(
    "--seed", type=click.IntRange(min=0), default=None, help="Same seed + same bots = same game."
)
@click.option(
    "--replay",
    "replay_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the replay (JSON lines) here. With a person at the table: default "
    "results/play/play-SEED.jsonl.",
)
@click.option(
    "--logs",
    "log_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep each bot's stderr (size-capped) in this folder.",
)
@rule_option
@limit_options
@sandbox_options
@click.option("--quiet", is_flag=True, help="Print only the result line.")
@click.option(
    "--web",
    is_flag=True,
    help="People play in their browsers: a page each on 127.0.0.1, the links printed.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="With --web: the first person's port (the next person's is one more; "
    "default: any free ports).",
)
@click.option(
    "--open/--no-open",
    "open_pages",
    default=None,
    help="With --web: open the pages in this machine's browser, where it has a display "
    "(default: open).",
)
@rebuild_option
def play(quiet: bool, rebuild: bool, **given: Any) -> None:
    """Play one game between bots, narrated trick by trick, or sit at the table yourself.

    A BOT is NAME=COMMAND, a COMMAND (its name derived from the file), or a
    folder holding a bot.toml. Seats follow the order given. A BOT written
    human (or human:NAME) is a person: at this terminal (one person), or
    with --web in a browser (any number, a page each). A person has no time
    limit; Ctrl-C or the end of input ends their part, and the arena plays
    their seat out (exit status 130 after Ctrl-C).

    \b
    Examples:
        arena play mybot/ "python3 -m arena.samples.random_bot" \\
            "python3 -m arena.samples.greedy_bot" --seed 7 --replay game.jsonl
        arena play human "python3 -m arena.samples.greedy_bot" mybot/
        arena play human:ann human:bob "python3 -m arena.samples.greedy_bot" --web
    """
    settings = resolve_play(PlayFlags(**given))
    seats, people, web = settings.seats, settings.people, settings.web
    sandbox = settings.sandbox.capabilities()
    bots = [seat for seat in seats if isinstance(seat, BotSpec)]
    build_bots(bots, rebuild=rebuild, after_stop="rerun the command to play")
    layers = list(sandbox.layers) if sandbox is not None else []
    if people:  # the terminal's and the web server's code, only for a person at the table
        from arena.human.table import People  # noqa: PLC0415
    table = (
        People(people, web=web, port=settings.port, open_pages=settings.open_pages, say=click.echo)
        if people
        else None
    )
    with table if table is not None else nullcontext():
        players: list[BotSpec | Player] = [
            table.player(seat) if isinstance(seat, HumanSeat) and table else cast(BotSpec, seat)
            for seat in seats
        ]
        try:
            result = play_one(
                players,
                settings.rules,
                seed=settings.seed,
                game_id=settings.game_id,
                limits=settings.limits,
                sandbox=sandbox,
                log_dir=settings.log_dir,
                resources=dict(settings.sandbox.resources),
            )
        except KeyboardInterrupt:  # a second Ctrl-C at a table with people: stop at once
            click.echo("Stopped: the game was not finished, and no replay was written.")
            sys.exit(130)
        seed, replay_path = settings.seed, settings.replay_path
        unwritten = _write_replay(replay_path, result)
        if not quiet and table is None:
            _narrate(result, seed, layers)
        click.echo(f"Result (seed {seed}): {result_line(result)}")
        if unwritten:
            raise click.ClickException(f"{unwritten} (--seed {seed} plays the same game again)")
        if replay_path is not None and not quiet:
            click.echo(f"Replay written to {replay_path}")
            if table is not None:
                click.echo(f"Watch it: arena replay {shlex.quote(str(replay_path))} --html")
        if table is not None:
            table.finish(result)
    if table is not None and table.interrupted:
        sys.exit(130)


def _write_replay(replay_path: Path | None, result: GameResult) -> str | None:
    """Write the game's replay where asked; why it could not be, or None."""
    if replay_path is None:
        return None
    try:
        write_replay(replay_path, result.lines)
    except OSError as error:  # checked before the game, but a disk can fill up
        return f"cannot write the replay {replay_path}: {error.strerror}"
    return None


def _narrate(result: GameResult, seed: int, layers: Sequence[str]) -> None:
    """The game trick by trick, after who sat where and the sandbox."""
    names = list(result.names)
    click.echo(f"Seed {seed}: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(names)))
    click.echo(f"Sandbox: {', '.join(layers) if layers else 'off'}")
    for line in narrate(result.replay, names):
        click.echo(line)

"""``arena simulate`` and ``arena play``: one game, shown as it is played."""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import cast

import click

from arena.bots.sandbox import SandboxRequest
from arena.bots.spec import BotSpec, build_bot
from arena.cli.common import (
    command,
    limit_options,
    rule_option,
    sandbox_options,
)
from arena.execute.game import play_one
from arena.files import check_makeable
from arena.game.rules import Rules, rules_from
from arena.human.seats import HumanSeat, check_people, default_replay, parse_seats
from arena.protocol import Limits
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
    seats = None if players is None else "--players N says how many"
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
def play(
    bots: Sequence[str],
    seed: int | None,
    replay_path: Path | None,
    log_dir: Path | None,
    rules: Sequence[str],
    move_ms: int | None,
    bank_ms: int | None,
    startup_ms: int | None,
    required: str,
    no_sandbox: bool,
    limits: Sequence[str],
    quiet: bool,
    web: bool,
    port: int | None,
    open_pages: bool | None,
) -> None:
    """Play one game between bots, narrated trick by trick, or sit at the table yourself.

    A BOT is NAME=COMMAND, a COMMAND (its name derived from the file), or a
    folder holding a bot.toml. Seats follow the order given. A BOT written
    human (or human:NAME) is a person: at this terminal (one person), or
    with --web in a browser (any number, a page each). A person has no time
    limit; Ctrl-C or the end of input ends their part, and the arena plays
    their seat out (exit status 130 after Ctrl-C).

    \b
    Examples:
        arena play sample_bots/python/random_bot.py \\
            "js=node sample_bots/javascript/random_bot.js" \\
            sample_bots/c/random_bot --seed 7 --replay game.jsonl
        arena play human sample_bots/python/greedy_bot.py sample_bots/c/random_bot
        arena play human:ann human:bob sample_bots/python/greedy_bot.py --web
    """
    if len(bots) < 2:
        raise click.UsageError("a game needs at least 2 bots")
    seats = parse_seats(list(bots))
    people = check_people(seats, web=web, port=port, open_pages=open_pages)
    specs = [seat for seat in seats if isinstance(seat, BotSpec)]
    game_seats = "the number of players is the number of bots given"
    game_rules = rules_from(rules, players=len(seats), seats=game_seats)
    timing = Limits.given(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms)
    request = SandboxRequest.parse(required, no_sandbox, limits)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    game_id = f"play-{seed}"
    if replay_path is None and people:
        replay_path = default_replay(game_id)
    _check_outputs(replay_path, log_dir)
    sandbox = request.capabilities()
    for spec in specs:
        build_bot(spec)
    layers = list(sandbox.layers) if sandbox is not None else []
    if people:  # the terminal's and the web server's code, only for a person at the table
        from arena.human.table import People  # noqa: PLC0415
    table = (
        People(people, web=web, port=port or 0, open_pages=open_pages is not False, say=click.echo)
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
                game_rules,
                seed=seed,
                game_id=game_id,
                limits=timing,
                sandbox=sandbox,
                log_dir=log_dir,
                resources=dict(request.resources),
            )
        except KeyboardInterrupt:  # a second Ctrl-C at a table with people: stop at once
            click.echo("Stopped: the game was not finished, and no replay was written.")
            sys.exit(130)
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


def _check_outputs(replay_path: Path | None, log_dir: Path | None) -> None:
    """Before the game: its replay and logs must have a place to go.

    Raises:
        ArenaError: naming the one that cannot be made.
    """
    if replay_path is not None:
        check_makeable(replay_path, "--replay", folder=False)
    if log_dir is not None:
        check_makeable(log_dir, "--logs", folder=True)


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

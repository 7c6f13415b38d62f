"""The ``arena`` command line: parse, call, format; nothing else.

Every deliberate error (:class:`arena.errors.ArenaError`) becomes a one-line
message and exit status 1 through :class:`click.ClickException`, in one place
(:class:`ArenaCommand`); usage errors exit with 2, as click does.
"""

from __future__ import annotations

import json
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Never, TypeVar, cast

import click
from tqdm import tqdm

from arena import __version__
from arena.ask import ask_again, check_replay, game_settings
from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import PROTECTIONS, Capabilities, SandboxRequest, detect
from arena.bots.selftest import ATTACKS, run_attacks
from arena.bots.spec import BotSpec, build_bot, parse_bot, parse_bots
from arena.checkbot import check_bot
from arena.errors import ArenaError, UsageProblem
from arena.events.event import Event
from arena.events.run import Observer, Outcome, run, stopped_by
from arena.execute.local import DEFAULT_JOBS
from arena.files import check_makeable
from arena.game.rules import OPTION_NAMES, Rules, rules_from
from arena.human.seats import HumanSeat, check_people, default_replay, parse_seats
from arena.match.result import MatchTest, match_result
from arena.match.schedule import DEAL_SETS_PER_ROUND, MatchDesign
from arena.match.settings import DEFAULT_MAX_GAMES, DEFAULT_PLAYERS, MatchFlags, resolve_match
from arena.newbot import new_bot
from arena.protocol import Limits
from arena.referee import Player, play_game, read_replay, write_replay
from arena.report.html import leaderboard_table, page, pairwise_table
from arena.report.leaderboard import render_document
from arena.report.match_report import match_page
from arena.report.narrate import info_text, narrate
from arena.report.replay_view import viewer_page
from arena.report.tournament_report import MAX_REPLAYS, report_page
from arena.results.store import Store, open_existing
from arena.signals import exit_status
from arena.simulate import random_game
from arena.tournament.config import DEFAULT_DEALS
from arena.tournament.config_schema import config_schema
from arena.tournament.event import (
    DEFAULT_CONFIDENCE,
    DEFAULT_ROUNDS,
    MAX_GAMES,
    describe_plan,
    settle,
)
from arena.tournament.schedule import SCHEDULES
from arena.tournament.settings import Flags, Settings, resolve

if TYPE_CHECKING:
    pass

F = TypeVar("F", bound=Callable[..., Any])


class ArenaCommand(click.Command):
    """A command whose deliberate errors are one line: an :class:`ArenaError` becomes
    ``Error: ...`` with exit status 1, a :class:`UsageProblem` a usage error (2), in this
    one place rather than around each call."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageProblem as error:
            raise click.UsageError(str(error), ctx) from None
        except ArenaError as error:
            raise click.ClickException(str(error)) from None


class ArenaGroup(click.Group):
    """``arena``: its commands are :class:`ArenaCommand`s."""

    command_class = ArenaCommand


def limit_options(command: F) -> F:
    """The time-limit options shared by commands that run bots."""
    defaults = Limits()
    for name, default, what in (
        ("--startup-ms", defaults.startup_ms, "to answer hello"),
        ("--bank-ms", defaults.bank_ms, "of extra time per game"),
        ("--move-ms", defaults.move_ms, "per move"),
    ):
        command = click.option(
            name,
            type=click.IntRange(min=1),
            default=default,
            show_default=True,
            help=f"Milliseconds {what}.",
        )(command)
    return command


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


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


@main.command()
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
    move_ms: int,
    bank_ms: int,
    startup_ms: int,
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
    timing = Limits(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms)
    request = SandboxRequest.parse(required, no_sandbox, limits)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    game_id = f"play-{seed}"
    if replay_path is None and people:
        replay_path = default_replay(game_id)
    if replay_path is not None:  # before the game: its replay must have a place to go
        check_makeable(replay_path, "--replay", folder=False)
    if log_dir is not None:
        check_makeable(log_dir, "--logs", folder=True)
    sandbox = request.capabilities()
    resources = dict(request.resources)
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
        players: list[Player] = [
            table.player(seat)
            if isinstance(seat, HumanSeat) and table is not None
            else ProcessPlayer(
                cast(BotSpec, seat), timing, log_dir=log_dir, sandbox=sandbox, resources=resources
            )
            for seat in seats
        ]
        try:
            result = play_game(
                players,
                game_rules,
                seed=seed,
                game_id=game_id,
                limits=timing,
                header_extra={"sandbox": layers},
            )
        except KeyboardInterrupt:  # a second Ctrl-C at a table with people: stop at once
            click.echo("Stopped: the game was not finished, and no replay was written.")
            sys.exit(130)
        finally:
            for player in players:
                if isinstance(player, ProcessPlayer):
                    player.close()
        unwritten = None
        if replay_path is not None:
            try:
                write_replay(replay_path, result.lines)
            except OSError as error:  # checked before the game, but a disk can fill up
                unwritten = f"cannot write the replay {replay_path}: {error.strerror}"
        names = list(result.names)
        if not quiet and table is None:
            click.echo(f"Seed {seed}: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(names)))
            click.echo(f"Sandbox: {', '.join(layers) if layers else 'off'}")
            for line in narrate(result.replay, names):
                click.echo(line)
        order = sorted(range(len(names)), key=lambda s: result.placements[s])
        places = ", ".join(f"{result.placements[s]}. {names[s]}" for s in order)
        faults = "".join(
            f"; {names[s]} faulted ({f.kind.value})" for s, f in sorted(result.faults.items())
        )
        click.echo(f"Result (seed {seed}): {places}{faults}")
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


@main.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--game", "game_id", default=None, help="The game to show, when PATH is a folder.")
@click.option("--step", is_flag=True, help="Wait for Enter after each trick.")
@click.option("--hide-hands", is_flag=True, help="Do not print every seat's cards at each deal.")
@click.option(
    "--ask",
    "ask_bot",
    default=None,
    metavar="BOT",
    help="Put the recorded decisions of --seat to BOT again: it gets that seat's messages, "
    "the game goes on with the recorded moves, and its answers are compared with them.",
)
@click.option("--seat", type=click.IntRange(min=0), default=None, help="With --ask: the seat.")
@click.option(
    "--at",
    "at_decision",
    type=click.IntRange(min=1),
    default=None,
    metavar="DECISION",
    help="With --ask: only this decision of the seat (its requests counted from 1).",
)
@sandbox_options
@click.option(
    "--html",
    "html_out",
    is_flag=False,
    flag_value="-",
    default=None,
    metavar="[FILE]",
    help="Write a page that replays the game card by card (to FILE, else GAME.html).",
)
def replay(
    path: Path,
    game_id: str | None,
    step: bool,
    hide_hands: bool,
    ask_bot: str | None,
    seat: int | None,
    at_decision: int | None,
    required: str,
    no_sandbox: bool,
    limits: Sequence[str],
    html_out: str | None,
) -> None:
    """Step through a recorded game, trick by trick.

    PATH is a replay file (.jsonl) or a results folder with a replays/
    folder (then name the game with --game). With --html, write a page
    that opens offline in a browser and steps through the game instead.

    With --ask BOT --seat S, put the seat's recorded decisions to BOT again
    (the game goes on with the recorded moves, so each is the recorded
    position) and list the moves BOT answered otherwise; the last line is
    "K of M moves differ". --at DECISION asks only that one (the seat's
    requests counted from 1) and prints BOT's answer and its info.

    \b
    Example:
        arena replay game.jsonl --step
        arena replay game.jsonl --html game.html
        arena replay game.jsonl --ask v2=sample_bots/python/greedy_bot.py --seat 0
    """
    if html_out is not None and (step or hide_hands):
        flag = "--step" if step else "--hide-hands"
        raise click.UsageError(
            f"{flag} is for the narration here; --html writes a page that steps through the "
            "game in a browser"
        )
    if game_id is not None and path.is_file():
        raise click.UsageError(f"--game picks a game in a results folder; {path} is one replay")
    if ask_bot is None and (seat is not None or at_decision is not None):
        raise click.UsageError("--seat and --at say which decisions --ask BOT is asked")
    if ask_bot is not None and (seat is None or html_out is not None or step):
        raise click.UsageError(
            "--ask BOT needs --seat S (and takes no --html or --step)"
            if seat is None
            else "--ask prints the answers: it takes no --html or --step"
        )
    file = _replay_file(path, game_id)
    try:
        records = read_replay(file)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"{file}: not a readable replay: {error}") from None
    if not records or records[0].get("type") != "game":
        raise click.ClickException(f"{file}: not a replay: the first line is not a game header")
    header = records[0]
    if ask_bot is not None and seat is not None:
        ask_replay(records, ask_bot, seat, at_decision, (required, no_sandbox, limits))
        return
    if html_out is not None:
        target = Path(f"{header['game']}.html") if html_out == "-" else Path(html_out)
        write_page(target, viewer_page(records))
        click.echo(f"Replay viewer written to {target}")
        return
    names = [p["name"] for p in sorted(header["players"], key=lambda p: p["seat"])]
    click.echo(f"Game {header['game']}, seed {header['seed']}: " + ", ".join(names))
    stepping = step and sys.stdin.isatty()
    for line in narrate(records[1:], names, show_hands=not hide_hands):
        click.echo(line)
        if stepping and line.startswith("  Trick ") and not next_trick():
            return


def ask_replay(
    records: list[dict[str, Any]],
    bot: str,
    seat: int,
    at: int | None,
    sandbox_flags: tuple[str, bool, Sequence[str]],
) -> None:
    """``arena replay --ask``: start BOT, ask it the seat's decisions, print the differences."""
    header = check_replay(records, seat, at)
    spec = parse_bot(bot)
    build_bot(spec)
    request = SandboxRequest.parse(*sandbox_flags)
    sandbox = request.capabilities()
    _, timing = game_settings(header)
    player = ProcessPlayer(spec, timing, sandbox=sandbox, resources=dict(request.resources))
    name = header["players"][seat]["name"]
    what = f"decision {at}" if at is not None else "the decisions"
    click.echo(f"Asking {spec.name} {what} of seat {seat} ({name}) in game {header['game']}:")
    try:
        asked = ask_again(records, seat, player, at)
    finally:
        player.close()
    if asked.problem is not None:
        raise click.ClickException(f"{spec.name} could not be asked: {asked.problem}")
    shown = asked.answers if at is not None else asked.differing
    for answer in shown:
        said = answer.asked if answer.problem is None else f"a fault ({answer.problem})"
        same = "" if answer.differs else " (the same)"
        click.echo(
            f"  decision {answer.decision} (hand {answer.hand}, {answer.action}): "
            f"recorded {answer.recorded}, {spec.name} {said}{same}"
        )
        if answer.info is not None:
            click.echo(f"      info: {info_text(answer.info)}")
    answered = len(asked.answers)
    if at is None and answered < asked.decisions:
        click.echo(f"  {asked.decisions - answered} later decisions not asked: the bot faulted")
    click.echo(f"{len(asked.differing)} of {answered} moves differ")


STEP_PROMPT = "-- Enter: next trick, q: quit --"


def next_trick() -> bool:
    """Wait for a key at ``--step``: False to stop (q, Esc or Ctrl-D); Ctrl-C exits (130).

    click.pause would show no prompt and read Ctrl-C as "go on"; a reader
    stepping through a long game needs to see what the keys do and to leave.
    """
    click.echo(STEP_PROMPT, nl=False)
    try:
        key = click.getchar()
    except KeyboardInterrupt:
        click.echo()
        sys.exit(130)
    except EOFError:
        key = "q"
    click.echo("\r" + " " * len(STEP_PROMPT) + "\r", nl=False)
    return key not in ("q", "Q", "\x1b")


def _replay_file(path: Path, game_id: str | None) -> Path:
    if path.is_file():
        return path
    folder = path / "replays" if (path / "replays").is_dir() else path
    files = sorted(folder.glob("*.jsonl"))
    if game_id is not None:
        wanted = folder / f"{game_id}.jsonl"
        if not wanted.is_file():
            raise click.ClickException(f"no replay of game {game_id!r} in {folder}")
        return wanted
    if len(files) == 1:
        return files[0]
    if not files:
        raise click.ClickException(f"no replay (.jsonl) in {folder}")
    raise click.ClickException(
        f"{folder} holds {len(files)} replays: choose one with --game, e.g. --game {files[0].stem}"
    )


@main.command()
@click.option(
    "--attack",
    "attacks",
    multiple=True,
    type=click.Choice([name for name, _ in ATTACKS]),
    help="Run only this attack (repeatable).",
)
@click.option("--no-sandbox", is_flag=True, help="Run the probes unconfined, to see them escape.")
def sandbox(attacks: Sequence[str], no_sandbox: bool) -> None:
    """Show the sandbox layers this machine offers, and attack them.

    Hostile probe bots try to reach the network, write outside their scratch
    folder, read /etc/shadow, fork-bomb, allocate 4 GiB, leave an orphan
    process and signal the referee; each attack is observed from outside.
    Exit status 1 if any attack is not contained.

    \b
    Example:
        arena sandbox --attack net --attack write
    """
    capabilities = None if no_sandbox else detect()
    if capabilities is None:
        click.echo("Sandbox: off (--no-sandbox): bots get only their own process group.")
    else:
        click.echo(f"Host: {capabilities.host}")
        click.echo(f"Sandbox layers: {', '.join(capabilities.layers)}")
        for name in PROTECTIONS:
            state = "available" if capabilities.provides(name) else "NOT available"
            click.echo(f"  {name:<10} {state}")
        for note in capabilities.notes:
            click.echo(f"  note: {note}")
    click.echo("Self-test (hostile probe bots):")
    escaped = 0
    for outcome in run_attacks(capabilities, tuple(attacks) or None):
        mark = "contained    " if outcome.contained else "NOT contained"
        escaped += not outcome.contained
        click.echo(f"  {mark}  {outcome.description}  ({outcome.evidence})")
    if escaped:
        click.echo(f"{escaped} attacks were not contained")
        sys.exit(1)
    click.echo("every attack was contained")


@main.command("check-bot")
@click.argument("bot")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Games in a row for the endurance check.",
)
@limit_options
def check_bot_command(bot: str, games: int, move_ms: int, bank_ms: int, startup_ms: int) -> None:
    """Check that a bot follows protocol v1; exit status 1 if any check fails.

    The bot plays as seat 0 against in-process random players under every
    rule option, including deals that make it a dog, a blind dog and a
    face-up dog, and a no_picture declaration.

    \b
    Example:
        arena check-bot sample_bots/python/random_bot.py
    """
    [spec] = parse_bots([bot])
    build_bot(spec)
    limits = Limits(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms)
    click.echo(f"Checking {spec.name}: {spec.command}")
    failed = 0
    for check in check_bot(spec, limits, games=games):
        mark = "PASS" if check.passed else "FAIL"
        failed += not check.passed
        click.echo(f"  {mark}  {check.name}" + (f"  ({check.detail})" if check.detail else ""))
    click.echo(f"{spec.name}: {'all checks passed' if not failed else f'{failed} checks failed'}")
    if failed:
        sys.exit(1)


@main.command("new-bot")
@click.argument("language", metavar="LANG")
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(path_type=Path))
@click.option("--name", help="The bot's name (default: the folder's name).")
def new_bot_command(language: str, folder: Path | None, name: str | None) -> None:
    """Start a bot from a starter kit: LANG is one of cpp, go, java, rust, typescript.

    Copies the kit to DIR (default: LANG-bot), a new or empty folder, with the
    bot's name filled in: its bot.toml, and the crate, Maven artifact, Go
    module, CMake project or npm package of the language. The kit plays a
    sensible greedy game already; write your strategy in the place its
    README names.

    \b
    Example:
        arena new-bot rust mybot && arena check-bot mybot
    """
    target = folder if folder is not None else Path(f"{language}-bot")
    bot = new_bot(language, target, name)
    click.echo(f"{target}: the {language} kit as bot {bot!r}; next:")
    click.echo(f"  arena check-bot {shlex.quote(str(target))}   # builds it, checks it plays")
    click.echo(f"  (the strategy: see {shlex.quote(str(target / 'README.md'))})")


@main.command("config-schema")
def config_schema_command() -> None:
    """Print the JSON Schema of tournament config files.

    Save it and name it on a config's first line, and TOML editors (Taplo,
    Even Better TOML) complete and check the file as you type:

    \b
        arena config-schema > tournament.schema.json
        #:schema ./tournament.schema.json      (first line of club.toml)
    """
    click.echo(json.dumps(config_schema(), indent=2))


@main.command()
@click.argument(
    "config_file",
    required=False,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="[CONFIG.toml]",
)
@click.option("--bot", "bots", multiple=True, metavar="BOT", help="A bot (repeatable).")
@click.option(
    "--players",
    type=click.IntRange(2, 7),
    default=None,
    show_default="4, or fewer bots",
    help="Seats per table.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(DEFAULT_DEALS),
    help="Deal sets per table.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(DEFAULT_JOBS),
    help="Games at once (capped at the tables a round offers at once).",
)
@click.option(
    "--pin/--no-pin",
    default=None,
    help="Run each game's referee and bots on a CPU of their own when --jobs <= CPUs "
    "(default: on; they take turns, and one warm core serves them fastest).",
)
@click.option(
    "--dask",
    "dask",
    default=None,
    metavar="ADDRESS",
    help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N for N worker "
    "processes here. Needs the dask extra.",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=None, show_default="0", help="Tournament seed."
)
@click.option(
    "--name",
    default=None,
    show_default="the config file's name, else tournament",
    help="Tournament name (results/NAME): one folder name.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    show_default="results/NAME",
    help="Results folder.",
)
@click.option("--gauntlet", default=None, metavar="BOT", help="This bot sits at every table.")
@click.option(
    "--schedule",
    type=click.Choice(SCHEDULES),
    default=None,
    show_default="round-robin",
    help="Who meets whom: every table (round-robin), rounds of random tables "
    "with few repeat meetings (sampled), or tables of adjacent standing (swiss).",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(DEFAULT_ROUNDS),
    help="sampled/swiss: the number of rounds in all; each bot "
    "plays one table a round. A rerun with more rounds goes on in the same folder.",
)
@click.option(
    "--stop-top",
    type=click.IntRange(min=1),
    default=None,
    metavar="K",
    help="sampled/swiss: stop early once the top K are likely in order (see --stop-confidence).",
)
@click.option(
    "--stop-confidence",
    type=click.FloatRange(0.5, 1.0, max_open=True),
    default=None,
    metavar="C",
    help="With --stop-top: each adjacent pair of the top K (and the K-th with the next) "
    "ordered with TrueSkill probability >= C.",
    show_default=str(DEFAULT_CONFIDENCE),
)
@click.option(
    "--update",
    "updates",
    multiple=True,
    metavar="BOT",
    help="sampled/swiss: BOT's files changed; its old version retires and the new one enters "
    "as BOT@2 (then @3, ...) with a fresh rating (repeatable).",
)
@click.option("--dry-run", is_flag=True, help="Print the plan (games, games per bot) and exit.")
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=None,
    show_default=f"{MAX_GAMES:,}",
    help="Refuse a plan of more games.",
)
@rule_option
@click.option(
    "--move-ms",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(Limits().move_ms),
    help="Milliseconds per move.",
)
@click.option(
    "--bank-ms",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(Limits().bank_ms),
    help="Extra ms per game.",
)
@click.option(
    "--startup-ms",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(Limits().startup_ms),
    help="ms to answer hello.",
)
@sandbox_options
@click.option("--quiet", is_flag=True, help="No progress bar; only the summary line.")
def tournament(dry_run: bool, quiet: bool, **given: Any) -> None:
    """Play a tournament with duplicate deals, and rate the bots.

    Each table plays --deals deal sets, each in every seat rotation. A
    round-robin seats every set of --players bots; sampled and swiss play
    --rounds rounds, each bot at one table a round. Results go to
    results/NAME (or --out): results.sqlite, replays and bot logs. Rerunning
    the same command resumes an unfinished folder. Flags override the config file.

    \b
    Example:
        arena tournament --bot sample_bots/python/random_bot.py \\
            --bot "js=node sample_bots/javascript/random_bot.js" \\
            --bot sample_bots/c/random_bot --players 3 --deals 5 --jobs 2
        arena tournament class.toml --schedule swiss --rounds 8 --dry-run
    """
    # Every other option is a field of Flags, under the same name.
    settings: Settings = resolve(Flags(**given))
    event, folder, label = settings.tournament, settings.folder, settings.label
    if dry_run:  # the plan however large, and whether it would be refused; nothing built
        refusals = []
        try:
            event = settle(event, folder, settings.updates)
        except ArenaError as error:  # e.g. a bot changed (or is not built yet)
            refusals.append(str(error))
        click.echo(describe_plan(event, event.plan(), folder))
        try:
            event.check_size(settings.max_games)
        except ArenaError as error:
            refusals.append(str(error))
        for refusal in refusals:
            click.echo(f"  refused as it is: {refusal}")
        return
    plan = event.check_size(settings.max_games)
    sandbox = settings.sandbox.capabilities()
    for spec in event.bots:
        build_bot(spec)
    # After the build: a league knows a bot by the files it runs, build outputs included.
    event = settle(event, folder, settings.updates)

    opened: list[Store] = []

    def announce(store: Store) -> None:
        opened.append(store)
        click.echo(
            f"Tournament {label}: {len(settings.tournament.bots)} bots, "
            f"{event.players} per table, "
            f"{event.schedule}, {plan.games:,} games ({store.done():,} done) -> {folder}"
        )

    def stopped(store: Store, how: str) -> None:
        click.echo(
            f"{how}: {store.done()} of {store.total()} games are saved in "
            f"{folder}. Resume with: {resume_command()}",
            err=True,
        )

    terminal = Terminal(
        bar=None if quiet else ProgressBar(Leader(opened)),
        announce=None if quiet else announce,
        stopped=stopped,
        dask=settings.dask is not None,
    )
    outcome = play_event(
        event,
        folder,
        sandbox,
        list(settings.sandbox.wanted),
        jobs=settings.jobs,
        pin=settings.pin,
        dask=settings.dask,
        terminal=terminal,
    )
    rate = outcome.played / outcome.seconds if outcome.seconds > 0 else 0.0
    if outcome.stopped:
        click.echo(
            f"Stopped early: after round {outcome.stopped['after_round']} the top "
            f"{event.stop.top if event.stop else 0} were in order with probability >= "
            f"{outcome.stopped['weakest']} (round {outcome.stopped['last_round']} was the last)."
        )
    click.echo(
        f"Done: {outcome.done}/{outcome.total} games ({outcome.played} played now in "
        f"{outcome.seconds:.1f} s, {rate:.1f} games/s, {outcome.starts} bot starts). "
        f"Leaderboard: arena leaderboard {folder}"
    )


class Terminal(Observer):
    """A run as the terminal shows it: the progress bar, notices on stderr, and the command's
    own lines when the store opens, when the run is stopped and when it ends."""

    def __init__(
        self,
        *,
        bar: ProgressBar | None,
        announce: Callable[[Store], None] | None,
        stopped: Callable[[Store, str], None],
        done: Callable[[Store, Outcome], None] | None = None,
        dask: bool = False,
    ) -> None:
        self.bar = bar
        self.announce = announce
        self.on_stop = stopped
        self.done = done
        #: Still connecting to a Dask cluster (a stop then leaves nothing written).
        self.connecting = dask
        #: The store, once open.
        self.store: Store | None = None

    def connected(self, address: str, workers: int, threads: int) -> None:
        self.connecting = False
        if self.bar:
            click.echo(
                f"Dask cluster {address}: {workers} worker{'s' * (workers != 1)}, "
                f"{threads} thread{'s' * (threads != 1)}; each started every bot",
                err=True,
            )

    def opened(self, store: Store) -> None:
        self.store = store
        if self.announce:
            self.announce(store)

    def progress(self, done: int, total: int, seconds: float) -> None:
        if self.bar:
            self.bar.update(done, total, seconds)

    def notice(self, text: str) -> None:
        click.echo(f"\n{text}", err=True)

    def stopped(self, store: Store, how: str) -> None:
        self.close()
        self.on_stop(store, how)

    def finished(self, store: Store, outcome: Outcome) -> None:
        self.close()
        if self.done:
            self.done(store, outcome)

    def close(self) -> None:
        """End the progress bar's line (before anything else is printed)."""
        if self.bar:
            self.bar.finish()


def play_event(
    event: Event,
    folder: Path,
    sandbox: Capabilities | None,
    wanted: Sequence[str],
    *,
    jobs: int,
    pin: bool,
    dask: str | None,
    terminal: Terminal,
) -> Outcome:
    """Run ``event`` into ``folder`` (:func:`arena.events.run.run`); a stop signal exits
    with its status (130 for Ctrl-C) once ``terminal`` has said what was kept."""
    try:
        return run(
            event,
            folder,
            sandbox=sandbox,
            required=wanted,
            observer=terminal,
            jobs=jobs,
            pin=pin,
            dask=dask,
        )
    except KeyboardInterrupt as interrupt:
        if terminal.store is None:
            kept = "nothing was written." if terminal.connecting else "rerun the command to start."
            click.echo(f"{stopped_by(interrupt)} before any game: {kept}", err=True)
        sys.exit(exit_status(interrupt))
    finally:
        terminal.close()


MATCH_FORMATS = ("table", "json")


@main.command()
@click.argument("new", metavar="NEW")
@click.argument("base", metavar="BASE")
@click.option(
    "--field",
    multiple=True,
    metavar="BOT",
    help="Opponents (repeatable): NEW and BASE each play the same deals against the same "
    "opponents drawn from them, and each deal set's unit is the paired difference. "
    "Without a field the opponents are copies of BASE.",
)
@click.option(
    "--players", type=int, default=None, show_default=str(DEFAULT_PLAYERS), help="Seats (2..7)."
)
@click.option(
    "--deals",
    type=int,
    default=None,
    show_default=str(DEAL_SETS_PER_ROUND),
    help="Deal sets a round: the test is checked after each round, and up to two rounds "
    "play at once (more --jobs than 2x this many tables wait).",
)
@click.option("--sprt", is_flag=True, help="Stop as soon as the sequential test decides.")
@click.option(
    "--elo0", type=float, default=0.0, show_default=True, help="H0: NEW is this Elo better at most."
)
@click.option(
    "--elo1",
    type=float,
    default=5.0,
    show_default=True,
    help="H1: NEW is this Elo better at least.",
)
@click.option(
    "--alpha", type=float, default=0.05, show_default=True, help="The rate of H1 when H0 holds."
)
@click.option(
    "--beta", type=float, default=0.05, show_default=True, help="The rate of H0 when H1 holds."
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=None,
    show_default=f"{DEFAULT_MAX_GAMES:,}",
    help="The most games, rounded up to whole rounds; without --sprt, the games played. A "
    "rerun with more goes on in the same folder.",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=None, show_default="1", help="Games at once."
)
@click.option("--pin/--no-pin", default=True, help="One CPU per worker (as for tournament).")
@click.option(
    "--dask", default=None, metavar="ADDRESS", help="Play on a Dask cluster (as for tournament)."
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Match seed."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),  # checked in one line by the match's settings
    default=None,
    show_default="results/match-NEW-vs-BASE",
    help="Results folder.",
)
@rule_option
@limit_options
@sandbox_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(MATCH_FORMATS),
    default="table",
    show_default=True,
    help="json: one stable object at the end.",
)
@click.option("--quiet", is_flag=True, help="No progress line.")
def match(fmt: str, quiet: bool, **given: Any) -> None:
    """Is NEW better than BASE? Duplicate deals, scored by place, with a sequential test.

    Without --field, NEW plays every deal set in every seat against K-1
    copies of BASE (K = --players); a deal set's unit is NEW's mean score
    minus 1/2. With --field, NEW and BASE each play the same deal sets, seats
    and opponents, and the unit is NEW's mean score minus BASE's. A game
    scores (K - place) / (K - 1), tied places sharing their mean. Elo is the
    logistic Elo of NEW's score s = 1/2 + mean unit: -400 log10(1/s - 1)
    (for K = 2 without a field, chess's Elo). --sprt runs a GSPRT of elo0
    against elo1 on the units (a normal approximation, like fastchess's
    normalized model but in logistic Elo) and stops with H1 (NEW better), H0 (not better by the
    margin) or inconclusive at --max-games. Ctrl-C prints the result so
    far; rerunning the same command resumes.

    \b
    Example:
        arena match v2=sample_bots/python/greedy_bot.py \\
            v1=sample_bots/python/random_bot.py --sprt --jobs 2
    """
    settings = resolve_match(MatchFlags(**given))
    event, design, folder = settings.event, settings.design, settings.folder
    sandbox = settings.sandbox.capabilities()
    for spec in settings.given:
        build_bot(spec)
    # The runner's own test reads rounds as they are rated; this one, for the progress
    # line, reads them too as the bar moves (each round once, none after a verdict).
    live = MatchTest(design, event.players)

    def status(store: Store) -> str:
        live.advance(store, store.rated_rounds())
        lower, upper = live.sprt.bounds
        return (
            f"diff {live.running.mean:+.4f}, LLR {live.sprt.llr(live.running):.2f} "
            f"[{lower:.2f}, {upper:.2f}]"
        )

    opened: list[Store] = []

    def announce(store: Store) -> None:
        opened.append(store)
        if quiet:
            return
        count = len(design.opponents)
        field = len(settings.given) - 2
        against = f"a field of {field}" if design.paired else f"{count} x {design.base}"
        click.echo(
            f"Match {design.new} vs {design.base}: {event.players} seats, against {against}, "
            f"{'SPRT' if design.sequential else 'fixed length'}, at most "
            f"{event.plan().games:,} games ({store.done():,} done) -> {folder}",
            err=fmt == "json",  # stdout holds the one JSON object
        )

    def show(store: Store) -> None:
        made = store.guarded(partial(match_result, store, design, event.players))
        if fmt == "json":
            click.echo(json.dumps(made.to_dict()))
        else:
            click.echo("\n".join(made.lines()))

    def stopped(store: Store, how: str) -> None:
        show(store)
        click.echo(
            f"{how}: {store.done()} games are saved in {folder}. Resume with: {resume_command()}",
            err=True,
        )

    bar = None
    if not quiet:
        bar = ProgressBar(lambda: status(opened[0]) if opened else "")
    terminal = Terminal(
        bar=bar,
        announce=announce,
        stopped=stopped,
        done=lambda store, outcome: show(store),
        dask=settings.dask is not None,
    )
    play_event(
        event,
        folder,
        sandbox,
        list(settings.sandbox.wanted),
        jobs=settings.jobs,
        pin=settings.pin,
        dask=settings.dask,
        terminal=terminal,
    )


class Leader:
    """The progress line's "leader NAME (score)": read from the store at most every
    :attr:`EVERY_S` seconds (the standings of a large field are not read per game)."""

    EVERY_S = 2.0

    def __init__(self, opened: list[Store]) -> None:
        self.opened = opened
        self.read_at = -self.EVERY_S
        self.text = ""

    def __call__(self) -> str:
        now = time.monotonic()
        if self.opened and now - self.read_at >= self.EVERY_S:
            self.read_at = now
            rows = self.opened[0].standings()
            if rows:
                self.text = f"leader {rows[0]['bot']} ({rows[0]['score']:.2f})"
        return self.text


class ProgressBar:
    """Games done / total, games per second and ETA, on stderr while it is a terminal.

    Drawn by tqdm: it redraws a line whose width changes without leaving
    stale characters (the hand-drawn bar left ``ETA 30ss``), follows a total
    that changes as a league is scheduled or a stop rule ends it, and turns
    itself off when stderr is not a terminal, so logs get the summary line
    only.
    """

    def __init__(self, status: Callable[[], str] | None = None) -> None:
        self.bar: tqdm[Never] | None = None
        #: What the line shows after the ETA (a match: its score difference and LLR).
        self.status = status

    def update(self, done: int, total: int, seconds: float) -> None:
        """Move the bar to ``done`` of ``total`` games (``seconds``: tqdm keeps its own clock)."""
        bar = self.bar
        if bar is None:  # the first game of this run: the games of earlier runs are done
            bar = self.bar = tqdm(
                total=total,
                initial=done - 1,
                unit=" games",
                file=sys.stderr,
                disable=None,
                dynamic_ncols=True,
                smoothing=0.05,
                bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} games, "
                "{rate_fmt}, ETA {remaining}{postfix}",
            )
        if bar.total != total:
            bar.total = total
        if self.status is not None:
            bar.set_postfix_str(self.status(), refresh=False)
        bar.update(done - bar.n)

    def finish(self) -> None:
        """End the bar's line."""
        if self.bar is not None:
            self.bar.close()


@main.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the page (default: FOLDER/report.html).",
)
@click.option(
    "--max-replays",
    type=click.IntRange(min=0),
    default=MAX_REPLAYS,
    show_default=True,
    help="How many games' replays the page carries (about 2.5 KB each at 4 seats); past it, "
    "the games with a fault come first and the rest are spread over the schedule.",
)
def report(folder: Path, output: Path | None, max_replays: int) -> None:
    """Write a tournament's report: one HTML file that opens offline in any browser.

    The leaderboard with rating bars, each bot's score over the games, who
    places above whom, faults by kind, the sandbox layers, and every game in
    a list to sort and filter, each opening in the replay viewer.

    \b
    Example:
        arena report results/demo
        arena report results/demo -o demo.html && xdg-open demo.html
    """
    store = open_existing(folder)
    try:
        store.check(full=True)
        config = store.guarded(partial(store.meta, "config"))
        if "match" in config:  # a match's folder: the test and its units
            title = f"Match: {folder.resolve().name}"
            design = MatchDesign.from_key(config["match"])
            draw = partial(
                match_page, store, folder, title, design, config["players"], max_replays=max_replays
            )
        else:
            title = f"Tournament: {folder.resolve().name}"
            draw = partial(report_page, store, folder, title, max_replays=max_replays)
        made = store.guarded(draw)
    finally:
        store.close()
    for notice in made.notices:
        click.echo(f"Notice: {notice}", err=True)
    target = output or folder / "report.html"
    write_page(target, made.html)
    click.echo(f"Report written to {target}")


LEADERBOARD_FORMATS = ("table", "json", "csv", "markdown", "html")


@main.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--format", "fmt", type=click.Choice(LEADERBOARD_FORMATS), default="table", show_default=True
)
@click.option("--pairwise", is_flag=True, help="How often each bot placed above each other one.")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Only the first N bots (and, with --pairwise, the pairs among them).",
)
@click.option(
    "--watch",
    type=click.FloatRange(min=0.2),
    is_flag=False,
    flag_value=2.0,
    default=None,
    metavar="[SECONDS]",
    help="Redraw the table every SECONDS (default 2) while a tournament runs, until it ends "
    "or Ctrl-C; it reads the results as they are written and never holds up the writer.",
)
def leaderboard(
    folder: Path, fmt: str, pairwise: bool, top: int | None, watch: float | None
) -> None:
    """Print the leaderboard of a tournament results folder.

    Ratings are TrueSkill's (score = mu - 3 sigma), computed as the games
    finished; printing never re-rates. The json format is stable.

    \b
    Example:
        arena leaderboard results/tournament --format markdown --pairwise
        arena leaderboard results/tournament --watch      # while it runs
    """
    if watch is not None:
        if fmt != "table":
            raise click.UsageError("--watch redraws the table: it takes no --format")
        watch_leaderboard(folder, pairwise, top, watch)
        return
    print_leaderboard(folder, fmt, pairwise, top)


def watch_leaderboard(folder: Path, pairwise: bool, top: int | None, every_s: float) -> None:
    """Redraw the leaderboard every ``every_s`` seconds until the tournament is done or
    Ctrl-C (exit 130). Each redraw opens the store for reading and closes it again: SQLite's
    write-ahead log lets the tournament write meanwhile."""
    redraw = sys.stdout.isatty()
    seen_done: tuple[int, int] | None = None
    try:
        while True:
            done, total = print_leaderboard(folder, "table", pairwise, top, clear=redraw)
            stamp = time.strftime("%H:%M:%S")
            # Every game stored is played, twice running: a tournament stores its plan in
            # parts (and a Swiss one a round at a time), so once could be between parts.
            if done >= total and seen_done == (done, total):
                click.echo(f"[{stamp}] the tournament is complete.")
                return
            seen_done = (done, total) if done >= total else None
            click.echo(f"[{stamp}] refreshing every {every_s:g} s; Ctrl-C stops watching.")
            time.sleep(every_s)
    except KeyboardInterrupt:
        click.echo()
        sys.exit(130)


def print_leaderboard(
    folder: Path, fmt: str, pairwise: bool, top: int | None, *, clear: bool = False
) -> tuple[int, int]:
    """Print the leaderboard in ``fmt`` (``clear``: on a cleared screen); return the games
    done and planned."""
    store = open_existing(folder)
    try:
        store.check(full=False)
        rows = store.guarded(lambda: store.standings()[:top])
        bots = {row["bot"] for row in rows}
        pairs = store.guarded(partial(store.pairwise, bots)) if pairwise else {}
        done, total = store.guarded(lambda: (store.done(), store.total()))
    finally:
        store.close()
    if fmt == "html":
        body = leaderboard_table(rows)
        if pairwise:
            body += "\n<h2>Who places above whom</h2>\n"
            body += pairwise_table([row["bot"] for row in rows], pairs)
        played = f"{done} of {total} games" if done < total else f"{total} games"
        title = f"Leaderboard: {folder.resolve().name}"
        subtitle = f"{played}; TrueSkill, score = mu - 3 sigma"
        click.echo(page(title, body, subtitle=subtitle), nl=False)
        return done, total
    text = render_document(rows, pairs if pairwise else None, fmt)
    if clear:
        click.clear()
    click.echo(text)
    if fmt in ("table", "markdown") and done < total:
        click.echo(f"({done} of {total} games played so far)")
    return done, total

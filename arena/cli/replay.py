"""``arena replay``: a game told again, stepped through, or asked of a bot again."""

from __future__ import annotations

import os
import sys
import termios
import tty
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from arena.ask import ask_again, check_replay, game_settings
from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import SandboxRequest
from arena.bots.spec import parse_bot
from arena.cli.building import build_bots
from arena.cli.common import (
    command,
    sandbox_options,
    write_page,
)
from arena.referee import read_replay
from arena.report.narrate import info_text, narrate
from arena.report.replay_view import viewer_page
from arena.results.replays import find_replay


@command()
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
        arena replay game.jsonl --ask "python3 -m arena.samples.greedy_bot" --seat 0
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
    file = find_replay(path, game_id)
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
    lines = narrate(records[1:], names, show_hands=not hide_hands)
    if not (step and sys.stdin.isatty()):
        for line in lines:
            click.echo(line)
        return
    with keys_as_typed(sys.stdin.fileno()) as read_key:
        for line in lines:
            click.echo(line)
            if line.startswith("  Trick ") and not next_trick(read_key):
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
    build_bots([spec], rebuild=False, after_stop="rerun the command to ask it")
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


@contextmanager
def keys_as_typed(fd: int) -> Iterator[Callable[[], str]]:
    """Read the terminal key by key for the whole of ``--step``, keeping keys typed ahead.

    click.getchar enters raw mode afresh for each key and flushes what was typed
    before it (TCSAFLUSH): an Enter pressed while a trick was printing, or held
    down to run through a game, was lost. cbreak mode, entered once without a
    flush, keeps them; Ctrl-C still interrupts (ISIG stays on).
    """
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)
    typed: list[str] = []

    def read_key() -> str:
        # One read can hold several keys typed ahead: each is a key, except that an
        # escape sequence (an arrow key) is one; "" at end of input.
        if not typed:
            chunk = os.read(fd, 32).decode(errors="replace")
            typed.extend([chunk] if chunk.startswith("\x1b") else reversed(chunk))
        return typed.pop() if typed else ""

    try:
        yield read_key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def next_trick(read_key: Callable[[], str]) -> bool:
    """Wait for a key at ``--step``: False to stop (q, Esc or Ctrl-D); Ctrl-C exits (130).

    click.pause would show no prompt and read Ctrl-C as "go on"; a reader
    stepping through a long game needs to see what the keys do and to leave.
    """
    click.echo(STEP_PROMPT, nl=False)
    try:
        key = read_key()
    except KeyboardInterrupt:
        click.echo()
        sys.exit(130)
    click.echo("\r" + " " * len(STEP_PROMPT) + "\r", nl=False)
    return key not in ("", "q", "Q", "\x04") and not key.startswith("\x1b")

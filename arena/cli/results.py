"""``arena report`` and ``arena leaderboard``: a results folder read back."""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path

import click

from arena.cli.common import (
    command,
    write_page,
)
from arena.match.schedule import MatchDesign
from arena.report.html import leaderboard_table, page, pairwise_table
from arena.report.leaderboard import played, render_document
from arena.report.match_report import match_page
from arena.report.tournament_report import MAX_REPLAYS, report_page
from arena.results.store import open_existing, untouched


@command()
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

    The leaderboard with rating bars, each bot's rating over the games (mu
    with a band of mu +/- 3 sigma), who places above whom, faults by kind,
    the sandbox layers, and the games in a list to sort and filter (past
    20,000, a sample: those with a fault, then a spread), each opening in
    the replay viewer.

    \b
    Example:
        arena report results/demo
        arena report results/demo -o demo.html && xdg-open demo.html
    """
    store = open_existing(folder)
    try:
        store.check(full=not untouched(folder))
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


@command()
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
        if fmt == "json":  # each bot that faulted: its first faults, and why
            details = store.guarded(store.fault_details)
            rows = [{**row, "fault_details": details.get(row["bot"], [])} for row in rows]
        bots = {row["bot"] for row in rows}
        pairs = store.guarded(partial(store.pairwise, bots)) if pairwise else {}
        done, total = store.guarded(lambda: (store.done(), store.planned()))
        endless = store.guarded(store.endless)
    finally:
        store.close()
    if fmt == "html":
        body = leaderboard_table(rows)
        if pairwise:
            body += "\n<h2>Who places above whom</h2>\n"
            body += pairwise_table([row["bot"] for row in rows], pairs)
        title = f"Leaderboard: {folder.resolve().name}"
        subtitle = f"{played(done, total, endless=endless)}; TrueSkill, score = mu - 3 sigma"
        click.echo(page(title, body, subtitle=subtitle), nl=False)
        return done, total
    text = render_document(rows, pairs if pairwise else None, fmt)
    if clear:
        click.clear()
    click.echo(text)
    if fmt in ("table", "markdown") and (done < total or endless):
        click.echo(f"({played(done, total, endless=endless)}{'' if endless else ' so far'})")
    return done, total

"""``arena match``: is NEW better than BASE?"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import click

from arena.bots.health import BrokenBots
from arena.cli.building import check_field, rebuild_option
from arena.cli.common import (
    command,
    limit_options,
    players_option,
    resume_command,
    rule_option,
    run_options,
    sandbox_options,
)
from arena.cli.running import ProgressBar, Terminal, play_event
from arena.match.result import match_result
from arena.match.schedule import DEAL_SETS_PER_ROUND
from arena.match.settings import DEFAULT_MAX_GAMES, DEFAULT_PLAYERS, MatchFlags, resolve_match
from arena.results.store import Store

MATCH_FORMATS = ("table", "json")


@command()
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
@players_option(str(DEFAULT_PLAYERS))
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(DEAL_SETS_PER_ROUND),
    help="Deal sets a round (arena tournament's --deals counts deal sets per table): the "
    "test is checked after each round, and up to two rounds play at once (more --jobs than "
    "2x this many tables wait).",
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
    help="The most games, rounded up to whole rounds; without --sprt, the games played (arena "
    "tournament's --max-games refuses a larger plan). A rerun with more goes on in the same "
    "folder.",
)
@run_options("Match")
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
@rebuild_option
def match(fmt: str, quiet: bool, rebuild: bool, **given: Any) -> None:
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
        arena match "v2=python3 -m arena.samples.greedy_bot" \\
            "v1=python3 -m arena.samples.random_bot" --sprt --jobs 2
    """
    settings = resolve_match(MatchFlags(**given))
    event, design, folder = settings.event, settings.design, settings.folder
    sandbox = settings.running.sandbox.capabilities()
    broken = check_field(
        settings.given, settings.running, sandbox, folder / "logs" / "check",
        rebuild=rebuild, after_stop=f"resume with: {resume_command()}", folder=folder,
    )  # fmt: skip
    if broken:  # a match is about every one of its bots: none can be left out
        raise BrokenBots.refused(broken, len(settings.given))

    def announce(store: Store) -> None:
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

    terminal = Terminal(
        bar=None if quiet else ProgressBar(),
        status=event.status(),
        announce=announce,
        stopped=stopped,
        done=lambda store, outcome: show(store),
        dask=settings.running.dask is not None,
    )
    play_event(event, folder, settings.running, sandbox, terminal)

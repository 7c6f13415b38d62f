"""``arena tournament``: parse, resolve the settings, build, run, say how it went."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.bots.builds import up_to_date
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
from arena.errors import ArenaError
from arena.execute.calibrate import Pace, calibrate
from arena.results.store import Store
from arena.tournament.config import DEFAULT_DEALS
from arena.tournament.event import (
    DEFAULT_CONFIDENCE,
    DEFAULT_ROUNDS,
    MAX_GAMES,
    describe_plan,
    kept_out,
    settle,
    without_broken,
)
from arena.tournament.schedule import SCHEDULES
from arena.tournament.settings import Flags, Settings, resolve


@command()
@click.argument(
    "config_file",
    required=False,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="[CONFIG.toml]",
)
@click.option("--bot", "bots", multiple=True, metavar="BOT", help="A bot (repeatable).")
@players_option("4, or fewer bots")
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    show_default=str(DEFAULT_DEALS),
    help="Deal sets per table, each played in every seat rotation (arena match's --deals "
    "counts deal sets a round).",
)
@run_options("Tournament")
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
    "--skip-broken",
    is_flag=True,
    default=None,
    help="Play on without the bots that are broken (their build fails, they cannot start, "
    "or give no valid ready); they play no games. Default: refuse the field, naming each.",
)
@click.option(
    "--isolate-rotations",
    is_flag=True,
    default=None,
    help="For bots from strangers: each seat rotation of a deal set is played by other "
    "processes of its bots, and game ids say nothing, so no bot recognises a deal it "
    "played in another seat. Costs a process per bot and rotation.",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=None,
    show_default=f"{MAX_GAMES:,}",
    help="Refuse a plan of more games (arena match's --max-games is the most it plays).",
)
@rule_option
@limit_options
@sandbox_options
@click.option("--quiet", is_flag=True, help="No progress bar; only the summary line.")
@rebuild_option
def tournament(dry_run: bool, quiet: bool, rebuild: bool, **given: Any) -> None:
    """Play a tournament with duplicate deals, and rate the bots.

    Each table plays --deals deal sets, each in every seat rotation. A
    round-robin seats every set of --players bots; sampled and swiss play
    --rounds rounds, each bot at one table a round. Results go to
    results/NAME (or --out): results.sqlite, replays and bot logs. Rerunning
    the same command resumes an unfinished folder. Flags override the config file.

    \b
    Example:
        arena tournament --bot mybot/ --bot "python3 -m arena.samples.random_bot" \\
            --bot "python3 -m arena.samples.greedy_bot" --players 3 --deals 5 --jobs 2
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
        try:
            event.check_size(settings.max_games)
        except ArenaError as error:
            refusals.append(str(error))

        def pace() -> Pace:  # the bots timed only for a plan that would be played
            unbuilt = [spec.name for spec in event.bots if not up_to_date(spec)]
            capabilities = settings.running.sandbox.capabilities()
            return calibrate(
                event.bots, event.rules, event.limits, sandbox=capabilities, skip=unbuilt
            )

        click.echo(describe_plan(
            event, event.plan(), folder, jobs=settings.running.jobs,
            pace=None if refusals else pace,
        ))  # fmt: skip
        for refusal in refusals:
            click.echo(f"  refused as it is: {refusal}")
        return
    event.check_size(settings.max_games)  # a plan too large is refused before any bot starts
    sandbox = settings.running.sandbox.capabilities()
    event = kept_out(event, folder)
    for name, reason in event.skipped:
        click.echo(f"kept out since {folder} started: bot {name!r}: {reason}", err=True)
    broken = check_field(
        event.bots, settings.running, sandbox, folder / "logs" / "check",
        rebuild=rebuild, after_stop=f"resume with: {resume_command()}", folder=folder,
    )  # fmt: skip
    event = without_broken(event, folder, broken, skip=settings.skip_broken)
    for bot in broken:
        click.echo(f"skipping {bot}", err=True)
    # After the build: a league knows a bot by the files it runs, build outputs included.
    event = settle(event, folder, settings.updates)
    plan = event.plan()

    def announce(store: Store) -> None:
        click.echo(
            f"Tournament {label}: {len(event.bots)} bots, "
            f"{event.players} per table, "
            f"{event.schedule}, {plan.games:,} games ({store.done():,} done) -> {folder}"
        )

    def stopped(store: Store, how: str) -> None:
        click.echo(
            f"{how}: {store.done()} of {store.planned()} games are saved in "
            f"{folder}. Resume with: {resume_command()}",
            err=True,
        )

    terminal = Terminal(
        bar=None if quiet else ProgressBar(),
        status=event.status(),
        announce=None if quiet else announce,
        stopped=stopped,
        dask=settings.running.dask is not None,
    )
    outcome = play_event(event, folder, settings.running, sandbox, terminal)
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

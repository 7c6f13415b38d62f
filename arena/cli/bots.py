"""Commands about one bot: ``sandbox``, ``check-bot``, ``new-bot``, ``config-schema``."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from tabulate import tabulate

from arena import checkbot
from arena.bots.builds import cache_folder
from arena.bots.sandbox import PROTECTIONS, detect
from arena.bots.selftest import ATTACKS, run_attacks
from arena.bots.spec import BotSpec
from arena.checkbot import bots_to_check, check_bot
from arena.cli.building import BuildLines, build_bots, rebuild_option
from arena.cli.common import (
    command,
    limit_options,
)
from arena.execute.local import DEFAULT_JOBS
from arena.newbot import new_bot
from arena.protocol import Limits
from arena.signals import stop_like_ctrl_c
from arena.tournament.config_schema import config_schema


@command()
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


@command("check-bot")
@click.argument("bots", nargs=-1, required=True, metavar="BOT... | CONFIG.toml")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Games in a row for the endurance check.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=DEFAULT_JOBS,
    show_default=True,
    help="Bots checked at once (several bots).",
)
@limit_options
@rebuild_option
def check_bot_command(
    bots: Sequence[str],
    games: int,
    jobs: int,
    move_ms: int | None,
    bank_ms: int | None,
    startup_ms: int | None,
    rebuild: bool,
) -> None:
    """Check that bots follow protocol v1; exit status 1 if any check fails.

    Each bot plays as seat 0 against in-process random players under every
    rule option, including deals that make it a dog, a blind dog and a
    face-up dog, and a no_picture declaration. One bot gets the report in
    full; several (or every bot of a tournament config file) are checked
    side by side, --jobs at once, into one table: bot, built, started,
    checks passed, and the first problem with its log.

    \b
    Example:
        arena check-bot "python3 -m arena.samples.random_bot" mybot/
        arena check-bot class.toml --jobs 4
    """
    specs = bots_to_check(bots)
    limits = Limits.given(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms)
    if len(specs) > 1:
        check_table(specs, limits, games=games, jobs=jobs, rebuild=rebuild)
        return
    [spec] = specs
    build_bots([spec], rebuild=rebuild, after_stop="rerun the command to check it")
    click.echo(f"Checking {spec.name}: {spec.command}")
    failed = unreached = 0
    for check in check_bot(spec, limits, games=games):
        mark = "PASS" if check.passed else "FAIL" if check.reached else "----"
        failed += check.reached and not check.passed
        unreached += not check.reached
        click.echo(f"  {mark}  {check.name}" + (f"  ({check.detail})" if check.detail else ""))
    said = "all checks passed" if not failed else f"{failed} check{'s' * (failed != 1)} failed"
    click.echo(f"{spec.name}: {said}" + (f", {unreached} not reached" if unreached else ""))
    if failed:
        sys.exit(1)


def check_table(
    specs: Sequence[BotSpec], limits: Limits, *, games: int, jobs: int, rebuild: bool
) -> None:
    """Several bots checked into one table, a row a bot; exit status 1 if any fails."""
    click.echo(f"Checking {len(specs)} bots, {min(jobs, len(specs))} at once ...", err=True)
    lines = BuildLines()
    with stop_like_ctrl_c():
        try:
            rows = checkbot.check_table(
                specs, limits, games=games, jobs=jobs, log_dir=cache_folder() / "check",
                rebuild=rebuild, watcher=lines,
            )  # fmt: skip
        except KeyboardInterrupt as interrupt:
            lines.interrupted(interrupt, "rerun the command", otherwise="while checking the bots")
    click.echo(tabulate([row.cells() for row in rows], headers=checkbot.Row.HEADERS))
    failing = sum(1 for row in rows if row.problem)
    click.echo(f"{len(specs) - failing} of {len(specs)} bots pass every check")
    if failing:
        sys.exit(1)


@command("new-bot")
@click.argument("language", metavar="LANG")
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(path_type=Path))
@click.option("--name", help="The bot's name (default: the folder's name).")
def new_bot_command(language: str, folder: Path | None, name: str | None) -> None:
    """Start a bot from a starter kit: LANG is cpp, go, java, python, rust or typescript
    (or agent: a trained agent entered through arena's bridge, docs/research.md).

    Copies the kit to DIR (default: LANG-bot), a new or empty folder, with the
    bot's name filled in: its bot.toml, the name it gives itself, and the
    crate, Maven artifact, Go module, CMake project or npm package of the
    language. The kit plays a sensible greedy game already; write your
    strategy in the place its README names.

    \b
    Example:
        arena new-bot rust mybot && arena check-bot mybot
    """
    target = folder if folder is not None else Path(f"{language}-bot")
    bot = new_bot(language, target, name)
    click.echo(f"{target}: the {language} kit as bot {bot!r}; next:")
    click.echo(f"  arena check-bot {shlex.quote(str(target))}   # builds it, checks it plays")
    click.echo(f"  (the strategy: see {shlex.quote(str(target / 'README.md'))})")


@command("config-schema")
def config_schema_command() -> None:
    """Print the JSON Schema of tournament config files.

    Save it and name it on a config's first line, and TOML editors (Taplo,
    Even Better TOML) complete and check the file as you type:

    \b
        arena config-schema > tournament.schema.json
        #:schema ./tournament.schema.json      (first line of club.toml)
    """
    click.echo(json.dumps(config_schema(), indent=2))

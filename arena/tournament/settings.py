"""A tournament's settings, resolved once: the config file, overridden by flags.

The command line hands over what the user typed (:class:`Flags`, ``None``
where a flag was not given) and gets back one frozen :class:`Settings`, or
one :class:`~arena.errors.ArenaError` naming the first problem. Keeping the
precedence here, not in the click function, gives one place that says which
source wins, and lets tests and other front ends (a match, a notebook)
resolve a tournament without a command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from arena.errors import UsageProblem
from arena.events.settings import RunFlags, Running, resolve_running
from arena.game.rules import rules_from
from arena.results.ratings import StopRule
from arena.tournament.config import (
    DEFAULT_DEALS,
    command_line_bots,
    config_bots,
    load_config,
    results_folder,
    tournament_name,
)
from arena.tournament.event import DEFAULT_CONFIDENCE, MAX_GAMES, TournamentEvent

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Flags(RunFlags):
    """What the command line said; ``None`` (or empty): not given, so the config file
    or the default decides."""

    config_file: Path | None = None
    bots: tuple[str, ...] = ()
    players: int | None = None
    deals: int | None = None
    name: str | None = None
    out: Path | None = None
    gauntlet: str | None = None
    schedule: str | None = None
    rounds: int | None = None
    stop_top: int | None = None
    stop_confidence: float | None = None
    updates: tuple[str, ...] = ()
    max_games: int | None = None
    rules: tuple[str, ...] = ()
    skip_broken: bool | None = None
    isolate_rotations: bool | None = None


@dataclass(frozen=True)
class Settings:
    """Everything ``arena tournament`` needs to run: the machine's sandbox layers are
    looked for, and the store opened, only when games are about to be played."""

    tournament: TournamentEvent
    #: The tournament's name, as the summary line shows it.
    label: str
    #: Where its results go (checked to be makeable).
    folder: Path
    #: The largest plan played (``--max-games``).
    max_games: int
    #: How the bots run and where the games play.
    running: Running
    #: ``--update``: bots whose changed files enter as a new version.
    updates: tuple[str, ...] = ()
    #: Play on without broken bots, rather than refuse the field.
    skip_broken: bool = False


def resolve(flags: Flags) -> Settings:
    """The settings of a tournament: each flag given wins over the config file's key,
    which wins over the default.

    Checked here, before anything is built or played: the config file
    against its schema, the bots' names, rule options, time and resource
    limits, the results folder, and flags that cannot go together.

    Raises:
        UsageProblem: for flags that contradict each other, or fewer than 2 bots.
        ArenaError: for the first other problem (a bad config file, bot,
            rule option, limit or results folder), in one line.
    """
    data: dict[str, Any] = {}
    specs = []
    if flags.config_file is not None:
        data = load_config(flags.config_file)
        specs = config_bots(data, flags.config_file)
    if flags.bots:
        specs = command_line_bots(list(flags.bots))
    if len(specs) < 2:
        raise UsageProblem.about(
            "a tournament needs at least 2 bots ({bot}, or [[bots]] in a file)"
        )
    running = resolve_running(flags, data)

    def pick(flag: T | None, key: str, default: T) -> T:
        return flag if flag is not None else data.get(key, default)

    players = pick(flags.players, "players", None) or min(4, len(specs))
    rules = rules_from(
        flags.rules,
        players=players,
        base=data.get("rules", {}),
        seats="seats per table are {players}",
    )
    top = pick(flags.stop_top, "stop_top", None)
    confidence = pick(flags.stop_confidence, "stop_confidence", None)
    if confidence is not None and top is None:
        raise UsageProblem.about("{stop_confidence} needs {stop_top} K")
    event = TournamentEvent(
        bots=tuple(specs),
        players=rules.players,
        deals=pick(flags.deals, "deals", DEFAULT_DEALS),
        seed=running.seed,
        rules=rules,
        limits=running.limits,
        resources=running.resources,
        gauntlet=pick(flags.gauntlet, "gauntlet", None),
        schedule=pick(flags.schedule, "schedule", "round-robin"),
        rounds=pick(flags.rounds, "rounds", None),
        stop=StopRule(top, float(confidence or DEFAULT_CONFIDENCE)) if top else None,
        isolated=pick(flags.isolate_rotations, "isolate_rotations", False),
    )
    label = tournament_name(flags.name, data, flags.config_file)
    return Settings(
        tournament=event,
        label=label,
        folder=results_folder(label, flags.out, data),
        max_games=pick(flags.max_games, "max_games", MAX_GAMES),
        running=running,
        updates=flags.updates,
        skip_broken=pick(flags.skip_broken, "skip_broken", False),
    )

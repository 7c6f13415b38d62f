"""A match's settings, resolved once from what the command line said.

``arena match NEW BASE`` hands over its flags (:class:`MatchFlags`) and gets
back a :class:`MatchSettings`, or one :class:`~arena.errors.ArenaError`
naming the first problem, before anything is built or played: a
:class:`~arena.match.event.MatchEvent`, played by the runner every event is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arena.bots.spec import BotSpec, parse_bots
from arena.errors import ArenaError
from arena.events.settings import RunFlags, Running, resolve_running
from arena.files import check_makeable
from arena.game import Rules
from arena.game.rules import rules_from
from arena.match.event import MatchEvent
from arena.match.schedule import DEAL_SETS_PER_ROUND, MatchDesign, copies
from arena.match.stats import Sprt

#: Games a match plays at most when --max-games does not say.
DEFAULT_MAX_GAMES = 1000
#: Seats per table when --players does not say.
DEFAULT_PLAYERS = 4


class MatchError(ArenaError):
    """A match that cannot be played as asked."""


@dataclass(frozen=True, kw_only=True)
class MatchFlags(RunFlags):
    """What the command line said; ``None``: not given, so the default decides."""

    new: str
    base: str
    field: tuple[str, ...] = ()
    players: int | None = None
    deals: int | None = None
    sprt: bool = False
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int | None = None
    out: Path | None = None
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class MatchSettings:
    """Everything ``arena match`` needs to run."""

    event: MatchEvent
    design: MatchDesign
    folder: Path
    #: How the bots run and where the games play.
    running: Running
    #: The specs to build: NEW, BASE and the field as given (the copies run the same files).
    given: tuple[BotSpec, ...]


def resolve_match(flags: MatchFlags) -> MatchSettings:
    """The settings of a match (see the module).

    Raises:
        ArenaError: for --jobs with --dask, NEW and BASE of one name, a table size out of range,
            a test that is no test (elo0 >= elo1, alpha or beta outside
            (0, 0.5)), or a bad bot, rule option, limit or results folder.
    """
    running = resolve_running(flags)
    players = DEFAULT_PLAYERS if flags.players is None else flags.players
    if not 2 <= players <= 7:
        raise MatchError.about("{players} takes 2..7, not {n}", n=players)
    deals = DEAL_SETS_PER_ROUND if flags.deals is None else flags.deals
    if deals < 1:
        raise MatchError.about("{deals} takes a number >= 1, not {n}", n=deals)
    try:
        test = Sprt(flags.elo0, flags.elo1, flags.alpha, flags.beta).checked()
    except ValueError as error:
        raise MatchError(f"no test: {error}") from None
    new, base, *field = parse_bots([flags.new, flags.base, *flags.field])
    rules = rules_from(
        flags.rules, players=players, seats="seats per table are {players} (default 4)"
    )
    max_games = DEFAULT_MAX_GAMES if flags.max_games is None else flags.max_games
    event = match_event(
        new, base, field, rules=rules, deals=deals, running=running, test=test,
        sequential=flags.sprt, max_games=max_games,
    )  # fmt: skip
    design = event.design
    folder = flags.out or Path("results") / f"match-{new.name}-vs-{base.name}"
    check_makeable(folder, "results folder", folder=True)
    return MatchSettings(
        event=event,
        design=design,
        folder=folder,
        running=running,
        given=(new, base, *field),
    )


def match_event(
    new: BotSpec,
    base: BotSpec,
    field: Sequence[BotSpec],
    *,
    rules: Rules,
    deals: int,
    running: Running,
    test: Sprt,
    sequential: bool,
    max_games: int,
) -> MatchEvent:
    """The match of ``new`` against ``base`` with ``field`` (none: against copies of
    ``base``), at most ``max_games`` games (``arena match``'s, and a competition server's
    test of each new version against the one it replaced).

    Raises:
        MatchError: NEW and BASE of one name, or one of them in the field.
    """
    players = rules.players
    if new.name == base.name:
        raise MatchError(f"NEW and BASE are both named {new.name!r}: give one another name")
    for spec in field:
        if spec.name in (new.name, base.name):
            raise MatchError.about(
                "{field} {name!r}: NEW and BASE are not in the field", name=spec.name
            )
    if field:
        pool = _pool(list(field), players - 1)
        design = MatchDesign(new.name, base.name, tuple(s.name for s in pool), True, deals)
        seated = [new, base, *pool]
    else:
        bases = [replace(base, name=name) for name in copies(base.name, players - 1)]
        design = MatchDesign(new.name, base.name, tuple(s.name for s in bases), False, deals)
        seated = [new, *bases]
    design = replace(design, sprt=test, sequential=sequential)
    per_round = deals * design.tables_per_deal() * players
    return MatchEvent(
        bots=tuple(seated),
        players=players,
        seed=running.seed,
        rules=rules,
        limits=running.limits,
        design=design,
        rounds=max(1, math.ceil(max_games / per_round)),
        resources=running.resources,
    )


def _pool(field: list[BotSpec], seats: int) -> list[BotSpec]:
    """The opponents' pool: the field, and where it has fewer bots than ``seats``, copies of
    them in turn (``random``, ``random~2``, ...), each seat a process of its own."""
    count = {spec.name: 0 for spec in field}
    pool = list(field)
    while len(pool) < seats:
        spec = field[len(pool) % len(field)]
        count[spec.name] += 1
        pool.append(replace(spec, name=copies(spec.name, count[spec.name] + 1)[-1]))
    return pool

"""The ladder: a league that never stops, its field the house bots and the active versions.

It plays through the run API (:func:`arena.events.run.run`) as a sampled or
Swiss tournament with no end (:data:`ROUNDS` is a bound no competition
reaches, and nothing is made ahead of the round being played), into the
competition's ``results.sqlite``, so ``arena leaderboard DIR`` and
``arena report DIR`` read it. Its field comes from the server's database
(:class:`LadderField`, asked at each round boundary): a version that
becomes active enters under its league name (``BOT``, ``BOT@2``), one that
retires or fails leaves, and stays on the leaderboard. Its seed is the
folder's secret, and it is isolated (``TournamentEvent.isolated``): each seat
rotation of a deal set is played by other processes of its bots, under game
ids that say nothing. Until the field can fill a table, it waits.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.sandbox import ResourceLimits
from arena.bots.spec import BotSpec, parse_bot
from arena.events.field import Enter, FieldChange, Retire
from arena.events.settings import RunFlags, Running, resolve_running
from arena.game import Rules
from arena.game.rules import rules_from
from arena.server.uploads import version_folder
from arena.tournament.config import DEFAULT_DEALS
from arena.tournament.event import TournamentEvent

#: The rounds of a ladder: a bound, not a plan (a round is made when it is played).
ROUNDS = 10**9
#: Resource limits, sorted (``Running.resources``).
Resources = tuple[tuple[str, int], ...]
#: How often a ladder too small to play looks again.
WAIT_S = 1.0


def active_versions() -> dict[str, Any]:
    """The active versions, by league name (no file read: a ladder of 5,000 bots asks at
    every round boundary)."""
    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    return {v.name: v for v in Version.objects.select_related("bot").filter(status="active")}


def as_bot(folder: Path, version: Any, resources: Resources = ()) -> BotSpec:
    """A version as a bot of the league, its files read (``bot.toml``), its own limits
    held within the competition's ``resources`` (:func:`within`)."""
    home = version_folder(folder, version.bot.key, version.number)
    # BOT@N is a league's name for a later version, which a BOT argument cannot give.
    return within(replace(parse_bot(f"{version.bot.name}={home}"), name=version.name), resources)


def within(spec: BotSpec, resources: Resources) -> BotSpec:
    """``spec`` with its ``bot.toml`` limits no higher than the competition's (its
    ``[limits]`` over the defaults for its runtime): a club's own bot may raise its
    memory, but a stranger's upload must not give itself more than its rivals get."""
    ceiling = ResourceLimits.for_command(spec.argv).merged(dict(resources))
    own = {}
    for key, value in spec.limits:
        most = getattr(ceiling, key)
        own[key] = value if most is None else min(value, most)
    return replace(spec, limits=tuple(sorted(own.items())))


class LadderField:
    """The field's changes since the last round: versions activated enter, versions
    retired or failed leave; the house bots always play."""

    def __init__(
        self,
        folder: Path,
        house: Sequence[BotSpec],
        playing: Sequence[str],
        resources: Resources = (),
    ) -> None:
        self.folder = folder
        self.resources = resources
        self.house = {spec.name for spec in house}
        self.playing = set(playing)

    def changes(self) -> Sequence[FieldChange]:
        wanted = active_versions()
        entering: list[FieldChange] = [
            Enter(as_bot(self.folder, version, self.resources))
            for name, version in wanted.items()
            if name not in self.playing
        ]
        leaving: list[FieldChange] = [
            Retire(name) for name in sorted(self.playing - set(wanted) - self.house)
        ]
        self.playing = set(wanted) | self.house
        return [*leaving, *entering]


def game_settings(event: dict[str, Any]) -> tuple[Rules, Running]:
    """The rules of the competition's games, and how its bots run (limits, sandbox):
    the ladder's and the builder's self-play game's."""
    running = resolve_running(RunFlags(), event)
    rules = rules_from(
        (), players=event.get("players"), base=event.get("rules", {}), seats="players"
    )
    return rules, running


def ladder_event(event: dict[str, Any], seed: int, bots: Sequence[BotSpec]) -> TournamentEvent:
    """The ladder as a tournament of ``bots``: the config's rules, limits and schedule."""
    rules, running = game_settings(event)
    return TournamentEvent(
        bots=tuple(bots),
        players=rules.players,
        deals=event.get("deals", DEFAULT_DEALS),
        seed=seed,
        rules=rules,
        limits=running.limits,
        resources=running.resources,
        schedule=event["schedule"],
        rounds=ROUNDS,
        # Strangers' bots: no process sees a deal set twice, and game ids say nothing.
        isolated=True,
    )


def field_now(
    folder: Path, house: Sequence[BotSpec], players: int, resources: Resources = ()
) -> list[BotSpec]:
    """The field, once it can fill a table (waiting till then)."""
    while True:
        field = [*house, *(as_bot(folder, v, resources) for v in active_versions().values())]
        if len(field) >= players:
            return field
        time.sleep(WAIT_S)

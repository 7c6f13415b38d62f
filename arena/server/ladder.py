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

import hashlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.sandbox import Capabilities, ResourceLimits
from arena.bots.spec import BotSpec, parse_bot
from arena.errors import BotError
from arena.events.event import Event
from arena.events.field import Enter, FieldChange, FieldSource, Retire
from arena.events.schedule import ENDLESS_ROUNDS
from arena.events.settings import RunFlags, Running, resolve_running
from arena.game import Rules
from arena.game.rules import rules_from
from arena.results.store import DATABASE, open_existing
from arena.server.uploads import version_folder
from arena.signals import Stopped
from arena.tournament.config import DEFAULT_DEALS
from arena.tournament.event import TournamentEvent

#: The rounds of a ladder: a bound, not a plan (a round is made when it is played).
ROUNDS = ENDLESS_ROUNDS
#: Resource limits, sorted (``Running.resources``).
Resources = tuple[tuple[str, int], ...]
#: How often a ladder too small to play looks again.
WAIT_S = 1.0
#: How often the ladder asks the server's database for field changes at round boundaries
#: (more often than once a second, as the contract asks; not at every boundary: a round of
#: fast bots takes milliseconds, and the queries took 60% of the ladder's own CPU).
POLL_S = 0.5


def active_versions() -> dict[str, Any]:
    """The active versions, by league name (no file read: a ladder of 5,000 bots asks at
    every round boundary)."""
    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    active = Version.objects.select_related("bot").filter(status="active", bot__disabled="")
    return {version.name: version for version in active}


def disabled_house(house: Sequence[BotSpec]) -> set[str]:
    """The house bots an organizer disabled, by name."""
    from arena.server.web.models import Bot  # noqa: PLC0415

    names = {spec.name.lower(): spec.name for spec in house}
    off = Bot.objects.filter(key__in=list(names), owner__isnull=True).exclude(disabled="")
    return {names[bot.key] for bot in off}


def as_bot(folder: Path, version: Any, resources: Resources = ()) -> BotSpec:
    """A version as a bot of the league, its files read (``bot.toml``), its own limits
    held within the competition's ``resources`` (:func:`within`)."""
    home = version_folder(folder, version.bot.key, version.number)
    # BOT@N is a league's name for a later version, which a BOT argument cannot give.
    spec = within(replace(parse_bot(f"{version.bot.name}={home}"), name=version.name), resources)
    _kept_home(spec, folder, home)
    return spec


def _kept_home(spec: BotSpec, folder: Path, home: Path) -> None:
    """Refuse a version whose command names a file of the server's folder outside its own
    (a link its build made to another author's version, say): the sandbox would bind it,
    and the bot could read it.

    Raises:
        BotError: naming the path.
    """
    server, own = folder.resolve(), home.resolve()
    for token in spec.argv:
        if os.path.isabs(token):
            real = Path(os.path.realpath(token))
            if real.is_relative_to(server) and not real.is_relative_to(own):
                raise BotError(f"{spec.name}: {token} leads out of its own folder")


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


class FieldTooSmall(KeyboardInterrupt):
    """The field can no longer fill a table (bots disabled or withdrawn): the run ends
    as at a stop, every finished game kept, and the ladder waits for bots."""


class LadderField:
    """The field's changes since the last round: versions activated enter, versions
    retired or failed leave, and so do the bots an organizer disabled (house bots too)
    until enabled again."""

    def __init__(
        self,
        folder: Path,
        house: Sequence[BotSpec],
        playing: Sequence[str],
        resources: Resources = (),
        players: int = 2,
    ) -> None:
        self.folder = folder
        self.players = players
        self.resources = resources
        self.house = {spec.name: spec for spec in house}
        self.playing = set(playing)
        #: When the database is asked again.
        self.next_poll = 0.0

    def changes(self) -> Sequence[FieldChange]:
        now = time.monotonic()
        if now < self.next_poll:
            return []
        self.next_poll = now + POLL_S
        wanted = active_versions()
        house = set(self.house) - disabled_house(list(self.house.values()))
        entering: list[FieldChange] = [
            Enter(as_bot(self.folder, version, self.resources))
            for name, version in wanted.items()
            if name not in self.playing
        ]
        entering += [Enter(self.house[name]) for name in sorted(house - self.playing)]
        leaving: list[FieldChange] = [
            Retire(name) for name in sorted(self.playing - set(wanted) - house)
        ]
        if len(set(wanted) | house) < self.players:
            raise FieldTooSmall  # the run ends; the ladder waits for a full table
        self.playing = set(wanted) | house
        return [*leaving, *entering]

    def faulted(self, name: str, why: str) -> None:
        """Bot ``name`` faulted in games in a row: disabled in the server's database (its
        page says why), it leaves at the next round boundary, asked at once."""
        from arena.server.organizer import disable_faulting  # noqa: PLC0415

        if disable_faulting(name, why):
            print(f"arena serve: bot {name!r} disabled: {why}", file=sys.stderr)
        self.next_poll = 0.0


#: What the sandbox must give every bot and build of strangers: kept out of the files,
#: the network and other processes, with no privileges.
REQUIRED = ("fs", "net", "signals", "tree-kill", "privileges")


def strangers_protections(root: bool) -> tuple[str, ...]:
    """What a server requires of its sandbox; run as root (``root``), also a uid of its
    own for every bot and build: a stranger's code never runs as the server's user, even
    without capabilities."""
    return (*REQUIRED, "uids") if root else REQUIRED


def game_settings(event: dict[str, Any]) -> tuple[Rules, Running]:
    """The rules of the competition's games, and how its bots run (limits, sandbox):
    the ladder's, the builder's self-play game's and the version tests', each bot held
    to :func:`strangers_protections`.
    """
    running = resolve_running(RunFlags(), event)
    if not running.sandbox.off:
        required = strangers_protections(os.geteuid() == 0)
        wanted = tuple(dict.fromkeys((*running.sandbox.wanted, *required)))
        running = replace(running, sandbox=replace(running.sandbox, wanted=wanted))
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


#: Where a frozen season's final is played: a tournament folder of its own.
FINAL = "final"


def final_event(
    event: dict[str, Any], seed: int, bots: Sequence[BotSpec], rounds: int
) -> TournamentEvent:
    """The final: ``rounds`` rounds of the ladder's games among ``bots``, from fresh
    ratings, its deals from a seed of its own (made from the ladder's secret one)."""
    own = int.from_bytes(hashlib.blake2b(f"{seed}/final".encode(), digest_size=16).digest())
    return replace(ladder_event(event, own, bots), rounds=rounds)


def final_field(folder: Path, house: Sequence[BotSpec], resources: Resources = ()) -> list[BotSpec]:
    """The final's bots: those its folder holds (a final resumed after a stop plays the
    field it began with), else the house bots not disabled and every active version."""
    if (folder / FINAL / DATABASE).is_file():
        store = open_existing(folder / FINAL)
        try:
            names = [record.name for record in store.guarded(store.bots)]
        finally:
            store.close()
        known = {spec.name: spec for spec in house}
        return [known.get(name) or as_bot(folder, version_named(name), resources) for name in names]
    off = disabled_house(house)
    field = [spec for spec in house if spec.name not in off]
    return field + [as_bot(folder, version, resources) for version in active_versions().values()]


def final_progress(folder: Path) -> dict[str, int] | None:
    """The final's games played and planned, or None before a freeze made one."""
    if not (folder / FINAL / DATABASE).is_file():
        return None
    store = open_existing(folder / FINAL)
    try:
        return {"games": store.guarded(store.done), "planned": store.guarded(store.planned)}
    finally:
        store.close()


def set_final_aside(folder: Path) -> Path | None:
    """A final the season was opened again after: moved aside to ``DIR/final.TIME`` (its
    games stay readable), so that a later freeze plays a new one; where it went."""
    final = folder / FINAL
    if not final.exists():
        return None
    aside = folder / f"{FINAL}.{time.strftime('%Y%m%d-%H%M%S')}"
    final.rename(aside)
    return aside


def field_now(
    folder: Path, house: Sequence[BotSpec], players: int, resources: Resources = ()
) -> list[BotSpec]:
    """The field, once it can fill a table (waiting till then), and the bots seated in
    games the last run left unplayed (a version retired or disabled since: its games
    are played, then it leaves at the first round boundary, as in a run)."""
    while True:
        off = disabled_house(house)
        field = [spec for spec in house if spec.name not in off]
        field += [as_bot(folder, version, resources) for version in active_versions().values()]
        if len(field) >= players:
            break
        time.sleep(WAIT_S)
    known = {spec.name for spec in field}
    for name in sorted(seated_in_pending(folder) - known):
        spec = next((spec for spec in house if spec.name == name), None)
        field.append(spec or as_bot(folder, version_named(name), resources))
    return field


def seated_in_pending(folder: Path) -> set[str]:
    """The bots of the games the ladder's store has scheduled and not played."""
    if not (folder / DATABASE).is_file():
        return set()
    store = open_existing(folder)
    try:
        return {name for game in store.pending() for name in game.seats}
    finally:
        store.close()


def version_named(name: str) -> Any:
    """The version whose league name is ``name`` (``BOT`` or ``BOT@N``)."""
    from arena.server.web.models import Version  # noqa: PLC0415

    bot, _, number = name.partition("@")
    return Version.objects.select_related("bot").get(bot__name=bot, number=int(number or 1))


class Watch:
    """Interrupts the main thread, as Ctrl-C would, once ``stop_when()`` holds (read every
    :data:`WAIT_S` by a thread of its own, with its own database connection): a pause
    ends the ladder's run, a newer version a test's. The runner keeps every finished
    game; those under way are played again after. ``fired`` tells this interruption from
    a real stop."""

    def __init__(self, stop_when: Callable[[], bool]) -> None:
        self.stop_when = stop_when
        self.fired = False
        self._done = threading.Event()
        self._main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._watch, name="watch", daemon=True)
        self._ignored = False

    def __enter__(self) -> Watch:
        # A server started with SIGINT ignored (a shell script's `arena serve ... &`)
        # passes that on to its children, and the interruption would never arrive: a
        # pause, a freeze or a newer version would stop nothing. Heard while watching.
        self._ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        if self._ignored:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        if self._ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def _watch(self) -> None:
        from django.db import connection  # noqa: PLC0415

        try:
            while not self._done.wait(WAIT_S):
                if self.stop_when():
                    self.fired = True
                    assert self._main is not None
                    signal.pthread_kill(self._main, signal.SIGINT)
                    return
        finally:
            connection.close()  # this thread's own


def play_until(
    event: Event,
    where: Path,
    stop_when: Callable[[], bool],
    *,
    sandbox: Capabilities | None,
    jobs: int,
    say: Callable[[str], None],
    field: FieldSource | None = None,
) -> bool:
    """Play ``event`` into ``where`` until it ends (True) or ``stop_when()`` holds (False:
    the games under way are cut, played again at the next run). A full disk is waited
    out (:mod:`arena.server.room`): what was committed is kept, the rest played again.

    Raises:
        KeyboardInterrupt: a real stop (SIGTERM).
    """
    from arena.events.run import run  # noqa: PLC0415
    from arena.server.room import disk_full, wait_for_room  # noqa: PLC0415

    with Watch(stop_when) as watch:
        try:
            run(event, where, sandbox=sandbox, jobs=jobs, pin=False, field=field)
            return True
        except KeyboardInterrupt as stop:
            if isinstance(stop, Stopped) or not watch.fired:
                raise
            return False
        except Exception as error:  # a full disk pauses it; anything else is a bug
            if not disk_full(error):
                raise
    wait_for_room(where if where.exists() else where.parent, "ladder", say)
    return False


def wait_while_paused(say: Callable[[str], None]) -> None:
    """Return once the ladder is not paused (reading the switch every :data:`WAIT_S`),
    saying so where it waits (a ladder restarted while paused, too)."""
    from arena.server.organizer import paused  # noqa: PLC0415

    if paused():
        say("arena serve: the ladder is paused")
    while paused():
        time.sleep(WAIT_S)

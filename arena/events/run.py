"""Running an event: its scheduled games, played by an executor, into its store.

:func:`run` is the library's one entry that runs an event, for the command
line and the competition server alike: it chooses where the games are
played (this machine or a Dask cluster), opens the results folder, plays,
and tells an :class:`Observer` what happens; it raises the domain errors
(:class:`~arena.errors.ArenaError`) and lets a stop (Ctrl-C, SIGTERM, SIGHUP:
a KeyboardInterrupt) through once every finished game is saved.
:func:`play` is its loop, for a store already open.

The coordinator (this process) alone writes ``results.sqlite``; games are
played by an executor's workers (:mod:`arena.execute`). A bot that fails its
handshake three games in a row is disabled: its remaining games are played
with its seat forfeited (faulted from the start, played on by the fallback).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.bots.fingerprint import files_hash
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import ArenaError
from arena.events.event import Event
from arena.events.feed import Feed
from arena.events.field import Disable, Enable, Enter, FieldSource, Retire
from arena.execute.base import Executor, Setup
from arena.execute.local import LocalExecutor, usable_jobs
from arena.execute.seats import PlayerFactory
from arena.results.games import ScheduledGame
from arena.results.ratings import Environment
from arena.results.replays import sweep_partials
from arena.results.store import BotRecord, Finished, Store, base_name
from arena.signals import Stopped, stop_like_ctrl_c

if TYPE_CHECKING:
    from arena.execute.cluster import DaskExecutor

#: Handshake failures in a row after which a bot is disabled.
DISABLE_AFTER = 3
#: Games in a row with a fault of any kind after which a field source hears of the bot
#: (:meth:`FieldSource.faulted`). A run without one (``arena tournament``, ``arena match``)
#: plays its plan as made: a bot that faults loses those games, and its others count.
FAULTS_IN_A_ROW = 5


#: Seconds between two progress reports, at least (each costs the coordinator time).
PROGRESS_S = 0.2


_HANDSHAKE = "handshake failed"


@dataclass
class Outcome:
    """How a run ended."""

    played: int
    done: int
    total: int
    seconds: float
    disabled: dict[str, str] = field(default_factory=dict)
    #: Why a stop rule ended the schedule early (None: it did not).
    stopped: dict[str, Any] | None = None
    #: Bot processes started by the workers in this run.
    starts: int = 0


def records(bots: Sequence[BotSpec]) -> list[BotRecord]:
    """The bots as the store keeps them (their files hashed now)."""
    return [BotRecord(s.name, s.command, files_hash(s), base_name(s.name)) for s in bots]


def open_store(
    event: Event,
    folder: Path,
    sandbox: Capabilities | None,
    *,
    layers: Sequence[str] | None = None,
) -> Store:
    """The store of ``folder`` for ``event`` (created, or checked and resumed).

    ``layers``: the sandbox layers recorded (default: ``sandbox``'s; on a
    cluster, those every worker has).

    Raises:
        StoreError: when ``folder`` holds another event.
    """
    return Store.open(
        folder,
        config=event.key(),
        bots=records(event.bots),
        environment=Environment.for_table(event.rules.players),
        sandbox=list(layers if layers is not None else sandbox.layers if sandbox else []),
        growable=event.growable(),
        kind=event.kind,
    )


def play(
    event: Event,
    store: Store,
    *,
    jobs: int = 1,
    sandbox: Capabilities | None,
    progress: Callable[[int, int, float], None] | None = None,
    notice: Callable[[str], None] | None = None,
    pin: bool = True,
    executor: Executor | None = None,
    required: Sequence[str] = (),
    make: PlayerFactory | None = None,
    field: FieldSource | None = None,
) -> Outcome:
    """Play the event's games into ``store``, scheduling rounds as needed.

    ``field``: where changes to the field come from while the games play
    (bots entering, retiring, disabled, enabled), applied at each round
    boundary (:class:`FieldKeeper`); an event whose field is fixed refuses
    an entry or a retirement (:class:`~arena.events.schedule.ScheduleError`).

    A bot that fails to start :data:`DISABLE_AFTER` games in a row is
    disabled: its remaining games are played with its seat forfeited
    (faulted from the start, played on by the fallback), or, where the event
    says ``halt_on_disable``, the run stops (:class:`BotDisabled`): a match
    whose NEW, BASE or opponent cannot play means nothing.

    The games are played by ``executor`` (default: a :class:`LocalExecutor`
    of ``jobs`` workers, each pinned to a CPU of its own when ``pin`` and
    there are at least ``jobs`` CPUs, see :func:`~arena.execute.local.worker_cpus`;
    ``make``: how its one job makes a bot's player). ``required``
    names the protections each worker's sandbox must provide.
    Finished games are committed in groups (:mod:`arena.results.commit`); a
    KeyboardInterrupt (Ctrl-C, SIGTERM) commits those finished so far, then
    stops the run.
    """
    halt_on_disable = event.halt_on_disable
    feed = event.feed(store)
    store.set_meta("planned", feed.total())  # for readers: a league's whole plan, not a round
    if feed.endless():  # readers say "N games so far" (set only here: older folders hold)
        store.set_meta("endless", True)
    done = store.done()
    sweep_partials(store.folder)
    disabled = store.disabled()
    if halt_on_disable and disabled:
        raise BotDisabled.of(*next(iter(disabled.items())), store.folder)
    failures: dict[str, int] = {}
    faulting: dict[str, int] | None = None if field is None else {}
    if field is not None:
        feed.before_round = FieldKeeper(event, store, feed, disabled, field)
    setup = Setup.of(event, sandbox, store.folder, required)
    start = time.monotonic()
    played = starts = 0
    if executor is None:
        tables, table_games = event.open_tables()
        jobs, capped = usable_jobs(
            jobs, tables=tables, table_games=table_games, players=event.players
        )
        if capped and notice:
            notice(capped)
        executor = LocalExecutor(jobs, pin=pin, make=make)
    shown = 0.0
    try:
        with executor.play(setup, feed, disabled) as results:
            for finished in results:
                game = feed.finished(finished.ordinal)
                store.finish(finished, game.seats)
                played += 1
                done += 1
                starts += finished.starts
                if finished.faults or failures:  # a failed start, or one to forget
                    for bot in _disable(finished, game, failures, disabled):
                        store.disable(bot, disabled[bot])
                        if halt_on_disable:
                            raise BotDisabled.of(bot, disabled[bot], store.folder)
                        if notice:
                            log = store.folder / "logs" / f"{bot}.stderr.log"
                            notice(
                                f"bot {bot!r} disabled: {disabled[bot]}; its remaining games "
                                f"are forfeits (log: {log})"
                            )
                if faulting is not None and (finished.faults or faulting):
                    assert field is not None
                    for bot, why in _in_a_row(finished, game, faulting):
                        field.faulted(bot, why)
                if progress and (now := time.monotonic()) - shown >= PROGRESS_S:
                    shown = now
                    progress(done, feed.total(), now - start)
    finally:
        store.flush()  # the games finished before a stop (Ctrl-C, SIGTERM, an error) are kept
    store.set_meta("planned", feed.total())  # a stop rule may have ended it early
    sweep_partials(store.folder)  # every game is back: what a killed worker left is garbage
    if progress and played:
        progress(done, feed.total(), time.monotonic() - start)
    return Outcome(
        played, done, feed.total(), time.monotonic() - start, dict(disabled), feed.stopped(), starts
    )


class BotDisabled(ArenaError):
    """A bot that cannot play stopped a run that needs every bot (a match)."""

    @classmethod
    def of(cls, bot: str, reason: str, folder: Path) -> BotDisabled:
        return cls.about(
            "bot {bot!r} {reason}: a match needs every bot playing, so it stopped (the bot's "
            "log is in {logs}); fix the bot and run the match into a new {out}",
            bot=bot,
            reason=reason,
            logs=folder / "logs",
        )


def _disable(
    finished: Finished, game: ScheduledGame, failures: dict[str, int], disabled: dict[str, str]
) -> list[str]:
    """Count each bot's failed starts in a row (its handshake); disable those that failed
    :data:`DISABLE_AFTER` times (added to ``disabled``), and return them."""
    newly = []
    for seat, bot in enumerate(game.seats):
        fault = finished.faults.get(seat)
        if fault is None or not fault[1].startswith(_HANDSHAKE):
            failures.pop(bot, None)
            continue
        failures[bot] = failures.get(bot, 0) + 1
        if failures[bot] >= DISABLE_AFTER and bot not in disabled:
            why = fault[1].removeprefix(_HANDSHAKE).lstrip(": ")
            disabled[bot] = (
                f"failed to start {DISABLE_AFTER} games in a row (the last: {fault[0]}: {why})"
            )
            newly.append(bot)
    return newly


def _in_a_row(
    finished: Finished, game: ScheduledGame, faulting: dict[str, int]
) -> list[tuple[str, str]]:
    """Count each bot's games in a row with a fault of any kind; the bots that reach
    :data:`FAULTS_IN_A_ROW` (counted again from 0), each with why in one line."""
    reached = []
    for seat, bot in enumerate(game.seats):
        fault = finished.faults.get(seat)
        if fault is None:
            faulting.pop(bot, None)
            continue
        faulting[bot] = faulting.get(bot, 0) + 1
        if faulting[bot] >= FAULTS_IN_A_ROW:
            del faulting[bot]
            last = f"the last: {fault[0]} in game {game.game_id}"
            reached.append((bot, f"faulted in {FAULTS_IN_A_ROW} games in a row ({last})"))
    return reached


class Observer:
    """What a run tells whoever watches it: the terminal's progress bar, the server's ladder.

    Each method does nothing here; an observer overrides those it shows.
    """

    def connected(self, address: str, workers: int, threads: int) -> None:
        """A Dask cluster is checked and ready: its address, workers and threads."""

    def opened(self, store: Store) -> None:
        """The results store is open (new, or checked and resumed); no game is played yet."""

    def progress(self, done: int, total: int, seconds: float) -> None:
        """``done`` of ``total`` games are finished, ``seconds`` into this run (called at
        most every :data:`PROGRESS_S` seconds, and after the last game)."""

    def notice(self, text: str) -> None:
        """Something the user should know (jobs capped, a bot disabled)."""

    def stopped(self, store: Store, how: str) -> None:
        """A stop signal ended the run (``how``: "Interrupted", "Stopped by SIGTERM"); the
        store is still open, every finished game saved; the KeyboardInterrupt follows."""

    def finished(self, store: Store, outcome: Outcome) -> None:
        """The run is over (every game played, or a stop rule held); the store is open."""


class Unfinished(ArenaError):
    """An error stopped a run: what it was, and what the folder kept."""

    def __init__(self, error: ArenaError, done: int, total: int, folder: Path) -> None:
        self.error = error
        self.kept = f" ({done} of {total} games are saved in {folder}; run it again to resume)"
        super().__init__(f"{error}{self.kept}")

    def settings(self) -> list[str]:
        return self.error.settings()

    def spelled(self, spell: Callable[[str], str]) -> str:
        """The error's message as ``spell`` writes its settings, then what was kept."""
        return f"{self.error.spelled(spell)}{self.kept}"


def stopped_by(interrupt: KeyboardInterrupt) -> str:
    """How a run was stopped, for people: "Interrupted" (Ctrl-C) or "Stopped by SIGTERM"."""
    return f"Stopped by {interrupt}" if isinstance(interrupt, Stopped) else "Interrupted"


def run(
    event: Event,
    folder: Path,
    *,
    sandbox: Capabilities | None,
    required: Sequence[str] = (),
    observer: Observer | None = None,
    jobs: int = 1,
    pin: bool = True,
    dask: str | None = None,
    executor: Executor | None = None,
    field: FieldSource | None = None,
) -> Outcome:
    """Play ``event``'s games into ``folder``: the one way an event is run.

    The games are played by ``executor``, or else on the Dask cluster at
    ``dask`` (``local:N`` starts one here), or else on this machine by
    ``jobs`` workers (pinned to CPUs of their own when ``pin``). The bots
    must be built already. ``field``: changes to the field while the games
    play (see :func:`play`). In the main thread SIGTERM and SIGHUP stop the
    run as Ctrl-C does.

    Raises:
        KeyboardInterrupt: a stop; where the store was open, every finished
            game is saved and ``observer.stopped`` was told first.
        BotDisabled: a bot that cannot start stopped an event that needs
            every bot.
        Unfinished: any other domain error once games may have been played,
            naming what the folder kept.
        ArenaError: before any game (a folder of another event, a cluster that
            cannot play the bots, Dask not installed).
    """
    observer = observer or Observer()
    with ExitStack() as stack:
        if threading.current_thread() is threading.main_thread():
            stack.enter_context(stop_like_ctrl_c())
        layers = None
        if executor is None and dask:
            cluster = stack.enter_context(closing(connect(dask, observer.notice)))
            layers = cluster.check(Setup.of(event, sandbox, folder, required), pin=pin)
            threads = sum(worker.nthreads for worker in cluster.workers.values())
            observer.connected(cluster.address, len(cluster.workers), threads)
            executor = cluster
        # A resume checks the whole file first, which takes a while on a large one.
        store = stack.enter_context(closing(open_store(event, folder, sandbox, layers=layers)))
        observer.opened(store)
        try:
            outcome = play(
                event,
                store,
                jobs=jobs,
                pin=pin,
                sandbox=sandbox,
                progress=observer.progress,
                notice=observer.notice,
                executor=executor,
                required=required,
                field=field,
            )
        except KeyboardInterrupt as interrupt:
            observer.stopped(store, stopped_by(interrupt))
            raise
        except BotDisabled:  # a rerun would stop again: no word of resuming
            raise
        except ArenaError as error:
            raise Unfinished(error, store.done(), store.planned(), folder) from None
        observer.finished(store, outcome)
    return outcome


def connect(address: str, notice: Callable[[str], None]) -> DaskExecutor:
    """A connection to the Dask cluster at ``address`` (``local:N`` starts one here).

    Raises:
        ArenaError: when Dask is not installed or the cluster cannot be reached.
    """
    try:
        # Dask is an optional extra, and costs 0.3 s to import: only a cluster loads it.
        from arena.execute import cluster  # noqa: PLC0415
    except ModuleNotFoundError as error:
        if error.name not in ("distributed", "dask"):
            raise
        raise ArenaError.about(
            "{dask} needs Dask distributed, an optional extra: pip install 'arena[dask]' "
            "(in a checkout of arena: pip install '.[dask]')"
        ) from None
    return cluster.connect(address, notice=notice)


class FieldKeeper:
    """Applies a :class:`FieldSource`'s changes at a round boundary (the feed calls it just
    before it makes a round): to the store (entries, retirements, disabled bots), to the
    schedule (a field changed is the event :meth:`~arena.events.event.Event.with_bots`,
    its strategy taking in the rounds so far, as on a resume), to the executors' workers
    (the bots that entered) and to the live map of disabled bots the executors read."""

    def __init__(
        self,
        event: Event,
        store: Store,
        feed: Feed,
        disabled: dict[str, str],
        source: FieldSource,
    ) -> None:
        self.event = event
        self.store = store
        self.feed = feed
        self.disabled = disabled
        self.source = source
        #: Every bot this run was given or took in, by name (a later entry wins).
        self.specs = {spec.name: spec for spec in event.bots}
        #: Every bot's record as the store keeps it: read from the store, and hashed only for
        #: a bot that enters (not every bot's files again at each change: a field of
        #: thousands would be read in full each time).
        self.records = {record.name: record for record in store.bots()}

    def __call__(self, number: int) -> None:
        """Round ``number`` is about to be made: apply the changes asked for since the last
        round; a bot disabled or enabled is so from the round's first game on."""
        changes = self.source.changes()
        if not changes:
            return
        field = list(self.feed.field)
        changed = False
        for change in changes:
            if isinstance(change, Enter):
                self.specs[change.bot.name] = change.bot
                self.records[change.bot.name] = records([change.bot])[0]
                self.feed.entered.append(change.bot)
                if change.bot.name not in field:
                    field.append(change.bot.name)
                changed = True
            elif isinstance(change, Retire):
                if change.name in field:
                    field.remove(change.name)
                    changed = True
            else:
                self.feed.at_round.setdefault(number, []).append(partial(self._hold, change))
        if not changed:
            return
        event = self.event.with_bots(tuple(self.specs[name] for name in field))
        environment = Environment.for_table(event.rules.players)
        present = [self.records[name] for name in field]
        self.store.grow(event.key(), present, environment, event.growable())
        self.feed.reseat(event.strategy(), field)
        self.event = event

    def _hold(self, change: Disable | Enable) -> None:
        """Disable or enable a bot: in the store, and in the map the executors read."""
        if isinstance(change, Disable):
            self.disabled[change.name] = change.reason
            self.store.disable(change.name, change.reason)
        else:
            self.disabled.pop(change.name, None)
            self.store.enable(change.name)

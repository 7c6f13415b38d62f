"""Running an event: its scheduled games, played by an executor, into its store.

The coordinator (this process) alone writes ``results.sqlite``; games are
played by an executor's workers (:mod:`arena.execute`). A bot that fails its
handshake three games in a row is disabled: its remaining games are played
with its seat forfeited (faulted from the start, played on by the fallback).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bots.fingerprint import files_hash
from arena.bots.sandbox import Capabilities
from arena.errors import ArenaError
from arena.events.event import Event
from arena.execute.base import Executor, Setup
from arena.execute.local import LocalExecutor, usable_jobs
from arena.execute.seats import PlayerFactory
from arena.results.games import ScheduledGame
from arena.results.ratings import Environment
from arena.results.replays import sweep_partials
from arena.results.store import BotRecord, Finished, Store, base_name

#: Handshake failures in a row after which a bot is disabled.
DISABLE_AFTER = 3


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
        bots=[BotRecord(s.name, s.command, files_hash(s), base_name(s.name)) for s in event.bots],
        environment=Environment.for_table(event.rules.players),
        sandbox=list(layers if layers is not None else sandbox.layers if sandbox else []),
        growable=event.growable(),
        kind=event.kind,
    )


def run(
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
) -> Outcome:
    """Play the event's games into ``store``, scheduling rounds as needed.

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
    done = store.done()
    sweep_partials(store.folder)
    disabled = store.disabled()
    if halt_on_disable and disabled:
        raise BotDisabled(*next(iter(disabled.items())), store.folder)
    failures: dict[str, int] = {}
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
                            raise BotDisabled(bot, disabled[bot], store.folder)
                        if notice:
                            notice(
                                f"bot {bot!r} disabled: {disabled[bot]}; "
                                "its remaining games are forfeits"
                            )
                if progress and (now := time.monotonic()) - shown >= PROGRESS_S:
                    shown = now
                    progress(done, feed.total(), now - start)
    finally:
        store.flush()  # the games finished before a stop (Ctrl-C, SIGTERM, an error) are kept
    sweep_partials(store.folder)  # every game is back: what a killed worker left is garbage
    if progress and played:
        progress(done, feed.total(), time.monotonic() - start)
    return Outcome(
        played, done, feed.total(), time.monotonic() - start, dict(disabled), feed.stopped(), starts
    )


class BotDisabled(ArenaError):
    """A bot that cannot play stopped a run that needs every bot (a match)."""

    def __init__(self, bot: str, reason: str, folder: Path) -> None:
        super().__init__(
            f"bot {bot!r} {reason}: a match needs every bot playing, so it stopped (the bot's "
            f"log is in {folder / 'logs'}); fix the bot and run the match into a new --out"
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
            disabled[bot] = f"failed to start {DISABLE_AFTER} games in a row"
            newly.append(bot)
    return newly

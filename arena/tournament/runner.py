"""Running a tournament: the scheduled games, ``jobs`` at a time, into the store.

The coordinator (this process) alone writes ``results.sqlite``; games are
played by workers, each keeping its own bot processes alive across games
(``jobs == 1`` plays in this process). A worker writes each game's replay
(to a temporary name, then renamed) before the coordinator commits the
game, so a store never names a replay that is not whole. A bot that fails
its handshake three games in a row is disabled: its remaining games are
played with its seat forfeited (faulted from the start, played on by the
fallback).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import multiprocessing
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Protocol, cast

from arena.bots.player import ProcessPlayer
from arena.bots.process import LIVE, sweep_scratch
from arena.bots.sandbox import Capabilities, become_subreaper
from arena.bots.spec import BUILD_CACHES, BotSpec
from arena.errors import ArenaError, BotFault, FaultKind
from arena.game import Rules
from arena.match.result import MatchTest
from arena.match.schedule import MatchDesign, MatchIds, MatchSchedule, sent_id
from arena.protocol import Limits
from arena.referee import GameResult, Player, play_game, write_replay
from arena.signals import STOPPING, Stopped, ignore_interrupts
from arena.tournament.feed import Feed
from arena.tournament.ratings import Environment, StopRule
from arena.tournament.schedule import (
    GameIds,
    Plan,
    RoundRobin,
    Sampled,
    ScheduledGame,
    ScheduleError,
    Strategy,
    Swiss,
)
from arena.tournament.store import (
    DATABASE,
    BotRecord,
    Finished,
    Store,
    StoreError,
    open_existing,
)

#: The largest plan played without --max-games saying more.
MAX_GAMES = 200_000
#: Rounds of a sampled or Swiss tournament when --rounds is not given.
DEFAULT_ROUNDS = 10
#: --stop-confidence when only --stop-top is given.
DEFAULT_CONFIDENCE = 0.95
#: Bot processes one worker keeps alive at most (the least recently used are told bye).
LIVE_BOTS = 24
#: Handshake failures in a row after which a bot is disabled.
DISABLE_AFTER = 3
#: Seconds between two progress reports, at least (each costs the coordinator time).
PROGRESS_S = 0.2
_HANDSHAKE = "handshake failed"


@dataclass(frozen=True)
class Tournament:
    """Everything that defines a tournament (and so must match when it is resumed)."""

    bots: tuple[BotSpec, ...]
    players: int
    deals: int
    seed: int
    rules: Rules
    limits: Limits
    resources: tuple[tuple[str, int], ...] = ()
    gauntlet: str | None = None
    #: round-robin, sampled or swiss (see :mod:`arena.tournament.schedule`).
    schedule: str = "round-robin"
    #: Sampled and Swiss: the most rounds (the total, not additional ones).
    rounds: int | None = None
    #: Sampled and Swiss: end early once the top is ordered (checked at round boundaries).
    stop: StopRule | None = None
    #: A match (schedule "match", see :mod:`arena.match`): NEW, BASE, the opponents, the test.
    match: MatchDesign | None = None

    def key(self) -> dict[str, Any]:
        """The configuration as stored, and compared on resume.

        A round-robin's key is what schema version 1 stored, so such folders
        resume; the schedule's keys come in with the other schedules.
        """
        key: dict[str, Any] = {
            "bots": [[spec.name, spec.command] for spec in self.bots],
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "limits": self.limits.to_dict(),
            "resources": dict(self.resources),
            # The name it entered under: a league's gauntlet bot may be updated to NAME@2.
            "gauntlet": base_name(self.gauntlet) if self.gauntlet else None,
        }
        if self.schedule != "round-robin":
            key["schedule"] = self.schedule
            key["rounds"] = self.rounds
            key["stop"] = [self.stop.top, self.stop.confidence] if self.stop else None
        if self.match is not None:
            key["match"] = self.match.key()
        return key

    def growable(self) -> tuple[str, ...]:
        """Keys of :meth:`key` that a rerun may change (a league goes on with more rounds,
        a match with more games)."""
        if self.schedule == "match":
            return ("rounds",)
        return () if self.schedule == "round-robin" else ("rounds", "stop", "bots")

    def strategy(self) -> Strategy:
        """A fresh schedule strategy for this tournament.

        Raises:
            ScheduleError: for an unknown schedule, a field that cannot fill a
                table, bad rounds, or a stop rule where none applies.
        """
        names = [spec.name for spec in self.bots]
        if self.schedule == "match":
            if self.match is None or self.rounds is None:
                raise ScheduleError("a match needs its design and its rounds")
            return MatchSchedule(
                self.match, players=self.players, rounds=self.rounds, seed=self.seed
            )
        if self.schedule == "round-robin":
            if self.stop is not None:
                raise ScheduleError(
                    "a stop rule needs --schedule sampled or swiss "
                    "(a round-robin plays every table)"
                )
            if self.rounds is not None:
                raise ScheduleError(
                    "--rounds needs --schedule sampled or swiss (a round-robin plays every table)"
                )
            return RoundRobin(names, players=self.players, deals=self.deals, gauntlet=self.gauntlet)
        kinds: dict[str, type[Sampled]] = {"sampled": Sampled, "swiss": Swiss}
        if self.schedule not in kinds:
            raise ScheduleError(
                f"unknown schedule {self.schedule!r}: choose round-robin, sampled or swiss"
            )
        if self.stop is not None and self.stop.top < 1:
            raise ScheduleError(f"--stop-top takes a number >= 1, not {self.stop.top}")
        if self.stop is not None and not 0.5 <= self.stop.confidence < 1.0:
            raise ScheduleError(
                f"--stop-confidence takes a probability in [0.5, 1), not {self.stop.confidence}"
            )
        return kinds[self.schedule](
            names,
            players=self.players,
            deals=self.deals,
            seed=self.seed,
            rounds=DEFAULT_ROUNDS if self.rounds is None else self.rounds,
            gauntlet=self.gauntlet,
        )

    def plan(self) -> Plan:
        """What the schedule will play (see :class:`arena.tournament.schedule.Plan`).

        Raises:
            ScheduleError: as :meth:`strategy`.
        """
        return self.strategy().plan()

    def check_size(self, max_games: int) -> Plan:
        """The plan, refused when it has more than ``max_games`` games.

        Raises:
            ScheduleError: for a plan too large (the message suggests a sampled
                schedule whose bots each play about as many tables as in a
                round-robin of ``players + 4`` bots, within the cap), or as
                :meth:`strategy`.
        """
        plan = self.plan()
        if plan.games <= max_games:
            return plan
        one = replace(self, schedule="sampled", rounds=1, stop=None).plan()
        rounds = max(1, min(math.comb(self.players + 3, self.players - 1), max_games // one.games))
        sampled = replace(self, schedule="sampled", rounds=rounds, stop=None).plan()
        raise ScheduleError(
            f"the {plan.schedule} plan has {plan.games:,} games, more than --max-games "
            f"{max_games:,}: try --schedule sampled --rounds {rounds} ({sampled.games:,} games, "
            f"{per_bot(sampled)} per bot), or raise --max-games"
        )

    def feed(self, store: Store) -> Feed:
        """The games of ``store`` to play, the next rounds made as they are needed."""
        environment = Environment.for_table(self.players)
        strategy = self.strategy()
        if self.match is not None:
            return Feed(
                strategy,
                store,
                deals=self.deals,
                seed=self.seed,
                ids=MatchIds(paired=self.match.paired),
                stop=MatchTest(self.match, self.players) if self.match.sequential else None,
                field=[spec.name for spec in self.bots],
                tables_per_deal=self.match.tables_per_deal(),
            )
        # A round-robin's ids are as wide as its count of deal sets (its games / seats).
        deal_sets = strategy.plan().games // self.players
        return Feed(
            strategy,
            store,
            deals=self.deals,
            seed=self.seed,
            ids=GameIds(self.schedule, deals=self.deals, deal_sets=deal_sets),
            stop=self.stop,
            field=[spec.name for spec in self.bots],
            newcomer=(environment.mu, environment.sigma),
        )


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
    tournament: Tournament,
    folder: Path,
    sandbox: Capabilities | None,
    *,
    layers: Sequence[str] | None = None,
) -> Store:
    """The store of ``folder`` for ``tournament`` (created, or checked and resumed).

    ``layers``: the sandbox layers recorded (default: ``sandbox``'s; on a
    cluster, those every worker has).

    Raises:
        StoreError: when ``folder`` holds another tournament.
    """
    rules = tournament.rules
    return Store.open(
        folder,
        config=tournament.key(),
        bots=[
            BotRecord(s.name, s.command, files_hash(s), base_name(s.name)) for s in tournament.bots
        ],
        environment=Environment.for_table(rules.players),
        sandbox=list(layers if layers is not None else sandbox.layers if sandbox else []),
        growable=tournament.growable(),
    )


def describe_plan(tournament: Tournament, plan: Plan, folder: Path) -> str:
    """``--dry-run``'s text: the schedule, its games, games per bot, and a time estimate.

    The estimate uses the pace of the latest games finished in ``folder``
    (the same bots on the same machine, usually); without any it is unknown.
    """
    bots = len(tournament.bots)
    lines = [
        f"Plan: {plan.schedule}, {bots:,} bots, {tournament.players} per table, "
        f"{tournament.deals} deal set{'s' * (tournament.deals != 1)} per table, each in "
        f"{tournament.players} seat rotations",
        f"  games: {plan.games:,} ({per_bot(plan)} per bot)",
    ]
    if plan.rounds is not None:
        lines.append(f"  rounds: {plan.rounds:,}, {plan.per_round:,} games each")
    if tournament.gauntlet:
        lines.append(f"  gauntlet: {tournament.gauntlet} sits at every table")
    if tournament.schedule == "swiss":
        lines.append(
            "  swiss: rounds 1 and 2 are seated as sampled; each later round from the "
            "standings after the round before the last (not known yet)"
        )
    if tournament.stop is not None:
        lines.append(
            f"  stop rule: once the top {tournament.stop.top} are in order with probability "
            f">= {tournament.stop.confidence} (checked each round; the games above are the most)"
        )
    done, pace = 0, None
    if (folder / DATABASE).is_file():
        store = open_existing(folder)
        try:
            done, pace = store.done(), store.games_per_second()
        finally:
            store.close()
        lines.append(f"  {folder}: {done:,} games done")
    if pace is None:
        lines.append(f"  time: unknown ({folder} has no finished games to measure the pace)")
    else:
        seconds = max(plan.games - done, 0) / pace
        lines.append(f"  time: about {duration(seconds)} at {pace:.1f} games/s, as measured there")
    return "\n".join(lines)


def per_bot(plan: Plan) -> str:
    """A plan's games per bot: ``12`` or ``10-12``."""
    low, high = plan.per_bot
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def duration(seconds: float) -> str:
    """A duration for people: 45s, 12m05s, 3h20m, 4d06h."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours}h{minutes:02d}m"
    days, hours = divmod(hours, 24)
    return f"{days}d{hours:02d}h"


def base_name(name: str) -> str:
    """The name a bot was entered under: ``alice`` for ``alice@2`` (a second version)."""
    return name.split("@", 1)[0]


def settle(tournament: Tournament, folder: Path, update: Collection[str] = ()) -> Tournament:
    """The tournament as it goes on in ``folder``: each bot under the name it plays as there.

    A sampled or Swiss league takes new bots (they enter at the default
    rating), drops bots no longer given (they retire, and stay on the
    leaderboard) and takes back retired ones. A bot whose files changed is
    refused unless ``update`` names it: then its old version retires, and the
    new one plays as ``NAME@2`` (``@3``, ...) with a fresh rating. Nothing is
    written here (:func:`open_store` does that).

    Raises:
        ScheduleError: for ``update`` in a round-robin, or naming no bot given.
        StoreError: for a changed bot not named in ``update``, or one named
            that did not change.
    """
    names = {spec.name for spec in tournament.bots}
    for name in sorted(set(update) - names):
        raise ScheduleError(f"--update {name}: no bot of that name is given")
    if tournament.schedule == "match":
        return tournament  # a match keeps its bots: a changed one is refused by the store
    if tournament.schedule != "round-robin":
        for name in sorted(name for name in names if "@" in name):
            raise ScheduleError(
                f"bot name {name!r}: in a league '@' marks a bot's versions (NAME@2)"
            )
    if tournament.schedule == "round-robin":
        if update:
            raise ScheduleError(
                "--update is for sampled and swiss leagues: a round-robin keeps its bots"
            )
        return tournament
    if not (folder / DATABASE).is_file():
        for name in sorted(update):
            raise StoreError(f"--update {name}: {folder} holds no league yet to update")
        return tournament
    store = open_existing(folder)
    try:
        records = store.bots()
    finally:
        store.close()
    latest = {base_name(record.name): record for record in records}  # later versions win
    versions = {base: sum(base_name(r.name) == base for r in records) for base in latest}
    playing = []
    for spec in tournament.bots:
        record = latest.get(spec.name)
        if record is None:
            playing.append(spec)
        elif record.files_hash == files_hash(spec):
            if spec.name in update:
                raise StoreError(
                    f"--update {spec.name}: its files did not change since {record.name} "
                    "entered the league"
                )
            playing.append(replace(spec, name=record.name))
        elif spec.name in update:
            playing.append(replace(spec, name=f"{spec.name}@{versions[spec.name] + 1}"))
        else:
            raise StoreError(
                f"bot {spec.name!r} changed since {folder} was started (its files differ): "
                f"rerun with --update {spec.name} to enter the new version as "
                f"{spec.name}@{versions[spec.name] + 1} (the old one retires), "
                "or choose another --out"
            )
    gauntlet = tournament.gauntlet
    if gauntlet is not None:  # the gauntlet bot plays under its latest version's name too
        gauntlet = next((s.name for s in playing if base_name(s.name) == gauntlet), gauntlet)
    return replace(tournament, bots=tuple(playing), gauntlet=gauntlet)


class Games(Protocol):
    """Where an executor takes its games from (a :class:`arena.tournament.feed.Feed`)."""

    def take(self, count: int) -> list[ScheduledGame]:
        """Up to ``count`` games that may start now (none: wait for a game to finish)."""
        ...

    def take_table(self, most: int) -> list[ScheduledGame]:
        """The next games of one table, at most ``most`` (none: wait for a game to finish)."""
        ...

    def left(self) -> int:
        """Games not handed out yet (at most)."""
        ...


class Executor(Protocol):
    """Plays games somewhere and hands back each one as it finishes, its replay written."""

    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> AbstractContextManager[Iterator[Finished]]:
        """The finished games, in any order; leaving the context stops what is still running.

        Games are taken from ``games`` as workers free up, and only after the
        caller has dealt with the finished game handed back before (a
        finished game may let the next round be made). When ``games`` has
        none to give and none is running, the run is over. ``disabled`` is
        live: a bot disabled while the games run forfeits the games handed
        out after that.
        """
        ...


#: Memory a pool worker takes before its bots (Python and arena's modules: ~30 MiB
#: measured), with room to spare; and what one live bot is counted at.
WORKER_MIB = 48
BOT_MIB = 16


def usable_jobs(tournament: Tournament, jobs: int) -> tuple[int, str | None]:
    """``jobs``, or fewer where more could not work, and why (None: not capped).

    A worker plays a table at a time, so more workers than the tables one
    round can offer at once only wait; and each worker with its bots takes
    memory, so no more start than the memory available holds (999 spawned
    workers were minutes of start-up and gigabytes before the first game).
    """
    plan = tournament.plan()
    table = tournament.deals * tournament.players
    # A task is a table's games, up to TABLE_TASK of them; an ungated schedule makes the
    # next round while one plays (a round-robin's plan is all there at once).
    per_table = math.ceil(table / TABLE_TASK)
    gated = tournament.schedule == "swiss" or tournament.stop is not None
    # A match's round is made while the one before plays (it waits for the one before that).
    rounds = 1 if gated or plan.per_round is None else 2
    tables = max(1, (plan.per_round or plan.games) // table * per_table * rounds)
    available = _available_mib()
    memory = max(1, available // (WORKER_MIB + tournament.players * BOT_MIB))
    if jobs <= min(tables, memory):
        return jobs, None
    if tables <= memory:
        return tables, (
            f"--jobs {jobs}: {tables:,} table{'s' * (tables != 1)} (or parts of one) can be "
            f"played at once, so {tables:,} job{'s' * (tables != 1)}"
        )
    return memory, f"--jobs {jobs}: {available:,} MiB of memory available hold {memory:,} jobs"


def _available_mib() -> int:
    """MemAvailable of /proc/meminfo in MiB (where there is none: as if plenty)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:  # no /proc here: the memory cap does not apply
        return 1 << 30
    return 1 << 30


def run(
    tournament: Tournament,
    store: Store,
    *,
    jobs: int = 1,
    sandbox: Capabilities | None,
    progress: Callable[[int, int, float], None] | None = None,
    notice: Callable[[str], None] | None = None,
    pin: bool = True,
    executor: Executor | None = None,
    required: Sequence[str] = (),
    halt_on_disable: bool = False,
) -> Outcome:
    """Play the tournament's games into ``store``, scheduling rounds as needed.

    ``halt_on_disable``: a bot that fails to start :data:`DISABLE_AFTER`
    games in a row stops the run (:class:`BotDisabled`) instead of forfeiting
    its games: a match whose NEW, BASE or opponent cannot play means nothing.

    The games are played by ``executor`` (default: a :class:`LocalExecutor`
    of ``jobs`` workers, each pinned to a CPU of its own when ``pin`` and
    there are at least ``jobs`` CPUs, see :func:`worker_cpus`). ``required``
    names the protections each worker's sandbox must provide.
    Finished games are committed in groups (:mod:`arena.tournament.commit`); a
    KeyboardInterrupt (Ctrl-C, SIGTERM) commits those finished so far, then
    stops the run.
    """
    feed = tournament.feed(store)
    done = store.done()
    sweep_partials(store.folder)
    disabled = store.disabled()
    if halt_on_disable and disabled:
        raise BotDisabled(*next(iter(disabled.items())), store.folder)
    failures: dict[str, int] = {}
    setup = Setup.of(tournament, sandbox, store.folder, required)
    start = time.monotonic()
    played = starts = 0
    if executor is None:
        jobs, capped = usable_jobs(tournament, jobs)
        if capped and notice:
            notice(capped)
        executor = LocalExecutor(jobs, pin=pin)
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


class LocalExecutor:
    """Games on this machine: in this process (``jobs == 1``) or a pool of ``jobs`` processes."""

    def __init__(self, jobs: int, *, pin: bool = True) -> None:
        self.jobs = jobs
        self.cpus = worker_cpus(jobs) if pin else None

    @contextmanager
    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> Iterator[Iterator[Finished]]:
        """Play ``games`` here or in a pool; on the way out the bots are told bye (or killed)."""
        jobs, cpus = self.jobs, self.cpus
        # With one job the games are played here: pin this process, and give its CPUs back after.
        with pinned(cpus[0] if cpus and jobs <= 1 else None):
            if jobs <= 1:
                _init_worker(setup)
                try:
                    yield _play_here(games, disabled)
                finally:
                    _close_players()
                return
            workers = _Workers(setup, jobs, cpus)
            try:
                yield workers.play(games, disabled)
                workers.close()  # workers say bye to their bots and free their sandboxes
            except BaseException:  # a stop while they play, or while they say bye
                workers.terminate()  # the bots die with their workers
                sweep_scratch()  # the workers could not remove their bots' scratch folders
                raise


#: Tasks queued per worker, so that a worker never waits for the coordinator.
QUEUED_PER_WORKER = 2
#: Most games in one task: a table's games go to one worker in one piece (up to this many).
TABLE_TASK = 64


def _play_here(games: Games, disabled: Mapping[str, str]) -> Iterator[Finished]:
    while batch := games.take(1):
        yield _play_task((batch[0], dict(disabled)))


class WorkerDied(ArenaError):
    """A worker process ended while it had games to play."""


class BotDisabled(ArenaError):
    """A bot that cannot play stopped a run that needs every bot (a match)."""

    def __init__(self, bot: str, reason: str, folder: Path) -> None:
        super().__init__(
            f"bot {bot!r} {reason}: a match needs every bot playing, so it stopped (the bot's "
            f"log is in {folder / 'logs'}); fix the bot and run the match into a new --out"
        )


class _Workers:
    """``jobs`` worker processes, each fed tables of games through a pipe of its own.

    The coordinator sends each worker up to :data:`QUEUED_PER_WORKER` tasks
    and waits on the pipes for their results: no thread of its own, where a
    ``multiprocessing.Pool`` kept three (a task feeder, a result reader and a
    maintainer polling ten times a second) whose CPU was a fifth of the
    coordinator's per game. A worker that dies is noticed at once (its pipe
    closes), where a pool waited for its task for ever.
    """

    def __init__(self, setup: Setup, jobs: int, cpus: Sequence[int] | None) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        for index in range(jobs):
            mine, theirs = context.Pipe()
            cpu = cpus[index % len(cpus)] if cpus else None
            process = context.Process(
                target=_worker_main, args=(theirs, setup, cpu), name=f"arena-worker-{index}"
            )
            process.start()
            theirs.close()
            self.pipes.append(mine)
            self.processes.append(process)
        self.index = {pipe: index for index, pipe in enumerate(self.pipes)}

    def play(self, games: Games, disabled: Mapping[str, str]) -> Iterator[Finished]:
        """The workers' finished games, a table at a time as each comes back."""
        queued = dict.fromkeys(range(len(self.pipes)), 0)
        while True:
            for index, count in queued.items():
                while count < QUEUED_PER_WORKER and (table := games.take_table(TABLE_TASK)):
                    self._send(index, (table, dict(disabled)))
                    count += 1
                queued[index] = count
            busy = [self.pipes[index] for index, count in queued.items() if count]
            if not busy:
                return
            for ready in wait(busy):  # the pipes that have a result (or ended)
                index = self.index[cast(Connection, ready)]
                ok, value = self._receive(index)
                queued[index] -= 1
                if not ok:
                    raise value
                yield from value

    def _receive(self, index: int) -> tuple[bool, Any]:
        try:
            result: tuple[bool, Any] = self.pipes[index].recv()
        except (EOFError, OSError):  # its end of the pipe closed: it died
            raise self._died(index) from None
        return result

    def _send(self, index: int, task: Any) -> None:
        try:
            self.pipes[index].send(task)
        except OSError:  # a broken pipe: it died
            raise self._died(index) from None

    def _died(self, index: int) -> BaseException:
        """Why worker ``index`` is gone: a stop signal to the whole group (SIGTERM, SIGHUP:
        the worker stopped as told, and the coordinator, told too, stops as for Ctrl-C),
        or an error."""
        process = self.processes[index]
        process.join(timeout=5)
        if process.exitcode is not None and process.exitcode - 128 in STOPPING:
            return Stopped(process.exitcode - 128)
        return WorkerDied(
            f"worker process {process.pid} ended (exit status {process.exitcode}) "
            "with games to play"
        )

    def close(self) -> None:
        """Tell each worker to finish (its bots are told bye), and wait for them."""
        for pipe in self.pipes:
            pipe.send(None)
        for process in self.processes:
            process.join()
        for pipe in self.pipes:
            pipe.close()

    def terminate(self) -> None:
        """Stop the workers now (SIGTERM: each kills its bots' process groups first)."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join()
        for pipe in self.pipes:
            pipe.close()


def _worker_main(pipe: Connection, setup: Setup, cpu: int | None) -> None:
    """A worker process: play the tables it is sent until it is sent None."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    _init_worker(setup, pool=True)
    try:
        while (task := pipe.recv()) is not None:
            try:
                played = _play_table(*task)
            except Exception as error:  # raised again in the coordinator, which stops the run
                pipe.send((False, error))
            else:
                pipe.send((True, played))
    finally:
        _close_players()


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


def _folder_files(home: Path) -> Iterator[str]:
    """The files under ``home``, build caches not entered, at most 40 levels down."""
    for folder, subfolders, files in os.walk(home):
        subfolders[:] = [name for name in subfolders if name not in BUILD_CACHES]
        if len(Path(folder).parts) < 40:
            yield from (os.path.join(folder, name) for name in files)


def files_hash(spec: BotSpec) -> str:
    """A hash of the files a bot runs: its program, its file arguments, its folder's files
    (but for :data:`~arena.bots.spec.BUILD_CACHES`: made from the files hashed, they hold
    timestamps, incremental state and thousands of files; the program is hashed wherever
    it is)."""
    digest = hashlib.blake2b(digest_size=16)
    paths = [token for token in spec.argv if os.path.isfile(token)]
    if spec.home is not None:
        paths += sorted(_folder_files(spec.home))[:2000]
    for path in paths:
        digest.update(path.encode())
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(b"unreadable")
    return digest.hexdigest()


# ---------------------------------------------------------------------- workers


@dataclass(frozen=True)
class Setup:
    """What a worker needs to play a tournament's games."""

    bots: tuple[BotSpec, ...]
    rules: Rules
    limits: Limits
    resources: dict[str, int]
    #: The layers to confine bots in (None: unconfined).
    sandbox: Capabilities | None
    folder: Path
    #: Protections every worker's sandbox must provide (--require).
    required: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        tournament: Tournament,
        sandbox: Capabilities | None,
        folder: Path,
        required: Sequence[str] = (),
    ) -> Setup:
        """The setup of ``tournament``, whose results go to ``folder``.

        The folder is made absolute: a worker on another machine, started in
        another folder, must find the same one.
        """
        return cls(
            tournament.bots,
            tournament.rules,
            tournament.limits,
            dict(tournament.resources),
            sandbox,
            folder.absolute(),
            tuple(required),
        )


class Seats:
    """A worker's bot processes, alive across games, and the games it plays with them.

    At most :data:`LIVE_BOTS` processes are kept: starting one more first
    tells the least recently used bot (not at this game's table) bye. With a
    field of a thousand bots the machine so runs at most ``LIVE_BOTS`` bot
    processes per worker, whatever the field.
    """

    def __init__(
        self,
        setup: Setup,
        *,
        log_dir: Path | None,
        sandbox: Capabilities | None,
        live: int | None = None,
    ) -> None:
        self.setup = setup
        self.log_dir = log_dir
        self.sandbox = sandbox
        self.live = live or LIVE_BOTS
        self.specs = {spec.name: spec for spec in setup.bots}
        #: Live processes, least recently used first.
        self.players: dict[str, ProcessPlayer] = {}
        #: Bot processes made (each one started at its first game).
        self.started = 0

    def player(self, name: str, disabled: Mapping[str, str], table: Collection[str] = ()) -> Player:
        """The seat of bot ``name``: its live process, started when first needed.

        ``table``: the bots of the game being seated, which are never the
        ones closed to make room.
        """
        if name in disabled:
            return _Forfeit(name, disabled[name])
        player = self.players.pop(name, None)
        if player is None:
            idle = [other for other in self.players if other not in table]
            for other in idle[: max(0, len(self.players) + 1 - self.live)]:
                self.players.pop(other).close()
            player = ProcessPlayer(
                self.specs[name],
                self.setup.limits,
                log_dir=self.log_dir,
                sandbox=self.sandbox,
                resources=self.setup.resources,
            )
            self.started += 1
        self.players[name] = player  # now the most recently used
        return player

    def play(self, game: ScheduledGame, disabled: Mapping[str, str]) -> tuple[Finished, GameResult]:
        """Play ``game``: what the store is told of it, and the whole result (for its replay)."""
        started = self.started
        players = [self.player(name, disabled, game.seats) for name in game.seats]
        start = time.monotonic()
        result = play_game(
            players,
            self.setup.rules,
            seed=game.seed,
            game_id=sent_id(game.game_id),
            limits=self.setup.limits,
            header_extra={"sandbox": list(self.sandbox.layers) if self.sandbox else []},
        )
        duration_ms = (time.monotonic() - start) * 1000.0
        finished = Finished(
            ordinal=game.ordinal,
            placements=result.placements,
            faults={seat: (f.kind.value, f.detail) for seat, f in result.faults.items()},
            decisions=result.decisions,
            duration_ms=duration_ms,
            replay=replay_path(game.game_id),
            starts=self.started - started,
        )
        return finished, result

    def close(self) -> None:
        """Say bye to every bot."""
        while self.players:
            self.players.popitem()[1].close()


def replay_path(game_id: str) -> str:
    """Where a game's replay goes, relative to the results folder."""
    return f"replays/{game_id}.jsonl"


def sweep_partials(folder: Path) -> None:
    """Remove the replays a worker killed mid-write left half written (no worker writes)."""
    for partial in (folder / "replays").glob(".*.partial"):
        partial.unlink(missing_ok=True)


def save_replay(folder: Path, finished: Finished, lines: Sequence[bytes]) -> None:
    """Write a game's replay under ``folder`` whole: to a temporary name, then renamed."""
    partial = folder / "replays" / f".{finished.ordinal}.{os.getpid()}.partial"
    write_replay(partial, lines)
    os.replace(partial, folder / finished.replay)


_STATE: dict[str, Any] = {}


@contextmanager
def pinned(cpu: int | None) -> Iterator[None]:
    """Run this process, and the bots it starts meanwhile, on ``cpu``; then give its CPUs back.

    None changes nothing.
    """
    if cpu is None:
        yield
        return
    mask = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, mask)


def worker_cpus(jobs: int) -> list[int] | None:
    """The CPU for each of ``jobs`` workers, or None to let the scheduler place them.

    A game's referee and bots take turns (one request, one reply), so they
    never need two CPUs at once, and every hand-over between CPUs costs a
    wake-up across cores and cold caches: on this project's 2-vCPU machines
    pinning each worker (its bots inherit the pin) plays 1.26x the games per
    second with Python bots at ``--jobs 2`` (``benchmarks/tournament_speed.py``). With more
    workers than CPUs, or one CPU, the scheduler places them.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 or jobs > len(cpus):
        return None
    return cpus[:jobs]


def _init_worker(setup: Setup, *, pool: bool = False) -> None:
    """Make this process a worker of ``setup``: its seats, and as a worker process (``pool``:
    with one job the games are played in the coordinator) its signals."""
    if setup.sandbox is not None and setup.sandbox.subreaper:
        become_subreaper()  # the bots' orphans are this worker's to kill and reap
    _STATE["seats"] = Seats(setup, log_dir=setup.folder / "logs", sandbox=setup.sandbox)
    if pool:
        ignore_interrupts()
        for signum in STOPPING:  # terminate() sends SIGTERM
            signal.signal(signum, _stopped_worker)


def _play_table(games: Sequence[ScheduledGame], disabled: dict[str, str]) -> list[Finished]:
    return [_play_task((game, disabled)) for game in games]


def _play_task(task: tuple[ScheduledGame, dict[str, str]]) -> Finished:
    game, disabled = task
    seats: Seats = _STATE["seats"]
    finished, result = seats.play(game, disabled)
    save_replay(seats.setup.folder, finished, result.lines)
    return finished


def _stopped_worker(signum: int, _frame: object) -> None:
    """A worker process told to stop (``terminate()``, a signal to the whole group).

    Kills its bots' process groups (a handler must not wait for a bot: it
    could wait on itself), then exits by raising, so that what it holds is
    let go as the exception unwinds. What the bots leave is swept by the
    coordinator and the next run.
    """
    # Once: a second stop (the group's, then terminate's) while the worker shuts down would
    # raise inside its cleanup. A handler that does nothing, not SIG_IGN: a signal already
    # caught but not yet handled then finds SIG_IGN, and Python raises "Signal 15 ignored
    # due to race condition" in the cleanup instead.
    for other in STOPPING:
        signal.signal(other, _ignore)
    for pid in list(LIVE):
        with contextlib.suppress(ProcessLookupError):  # that bot's group has ended already
            os.killpg(pid, signal.SIGKILL)
    raise SystemExit(128 + signum)


def _ignore(signum: int, _frame: object) -> None:
    """A stop signal after the first: the worker is stopping already."""


def _close_players() -> None:
    seats = _STATE.pop("seats", None)
    if seats is not None:
        seats.close()


class _Forfeit:
    """The seat of a disabled bot: it faults at once, and is played on by the fallback."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.description = f"disabled: {reason}"
        self.reason = reason

    def start_game(self, message: dict[str, Any], line: bytes) -> None:
        raise BotFault(FaultKind.CRASH, f"disabled: {self.reason}")

    def deliver(self, message: dict[str, Any], line: bytes) -> None:
        """Nothing reaches a disabled bot."""

    def request(self, message: dict[str, Any], line: bytes, timeout_s: float) -> tuple[str, float]:
        raise BotFault(FaultKind.CRASH, f"disabled: {self.reason}")

    def end_game(self) -> None:
        """Nothing to end."""

    def abandon(self, error_line: bytes | None) -> None:
        """Nothing to stop."""


def resume_command(argv: Sequence[str] | None = None) -> str:
    """The command line that resumes this run."""
    return shlex.join(["arena", *(sys.argv[1:] if argv is None else argv)])

"""Tournaments on a Dask cluster: games in batches of a few seconds, bots alive on each worker.

Dask distributed already does what home-made worker pools (Halite's,
OpenBench's) rebuild: placing tasks on machines, noticing a lost worker and
running its tasks again elsewhere. What it does not know is that a game is
short (tens of ms) while a task costs ~2-3 ms of scheduling, and that a bot
process is worth keeping. So the coordinator hands out *batches* sized to
:data:`BATCH_S` seconds of play (measured as games finish), and each worker
thread keeps its bots alive across the batches of one tournament
(:class:`arena.execute.seats.Seats`).

Exactly once: a batch's games reach the coordinator only in the batch's
result, which Dask delivers once, however many times a lost worker made it
run; the coordinator alone writes the store. A worker that sees the results
folder (it finds the run's marker file there) writes each replay itself,
whole (a temporary name, then renamed) before the batch's result leaves,
so the store never names a replay that is not there; a batch run twice
writes the same replays twice. Other workers send the replays back, and
the coordinator writes them.

Bots must be runnable on every worker, at the same paths: :meth:`DaskExecutor.check`
starts each bot on each worker before any game, and compares the bot's files
with the coordinator's. A worker that joins later is checked by its first batch.

``distributed`` is an optional extra (``pip install 'arena[dask]'``): only
the CLI's ``--dask`` imports this module.
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import dask.config
from distributed import Client, Future, LocalCluster, as_completed, get_worker
from distributed.client import ClosedClientError, FutureCancelledError
from distributed.scheduler import KilledWorker

import arena
from arena.bots.fingerprint import files_hash
from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities, detect, require
from arena.bots.spec import BotSpec
from arena.errors import ArenaError, BotFault
from arena.execute.base import Games, Setup
from arena.execute.local import pinned
from arena.execute.seats import Seats
from arena.results.games import ScheduledGame
from arena.results.replays import save_replay
from arena.results.store import Finished

#: Seconds of games one task aims at. A task costs the coordinator ~3 ms of CPU and the
#: scheduler ~4 ms; at 2 s a 150-games/s run of Python bots paid ~15 us a game for it.
#: The price of longer ones: a batch's games reach the board when it ends, a stop
#: drops the games of the batches in flight (played again on resume), and the last
#: batches of a run shrink to an eighth of this so that no thread idles longer.
BATCH_S = 4.0
#: Largest batch, in games, however fast they are.
MAX_BATCH = 2000
#: The smallest batch near the end of a run, as a share of a full one (see :class:`BatchSizer`).
TAIL_FRACTION = 0.125
#: Batches in a row of games that all started bots after which they measure the pace.
COLD_BATCHES = 4
#: Games of each task before the pace is known: the first starts a thread's bots, the
#: next plays with them and so gives the pace in the same result.
PROBE_GAMES = 2
#: Tasks kept queued per worker thread, so a thread never waits for the coordinator.
QUEUED_PER_THREAD = 2
#: Seconds without a batch after which a worker closes a tournament's bots (see :func:`reap_idle`).
IDLE_S = 120.0
#: Seconds between two questions to the scheduler about the cluster's worker threads.
THREADS_EVERY_S = 5.0
#: Seconds to wait for a scheduler to answer, and for it to have a worker.
CONNECT_TIMEOUT_S = 10.0
#: The file through which workers find out whether they share the results folder.
_MARKER = ".arena-run"
#: Dask settings for a cluster of few, long tasks: Dask's defaults look at an idle
#: cluster ~50 times a second (the event loop's health, a profile of every worker
#: thread each 10 ms, memory each 100 ms). With these, 2 idle workers and their
#: scheduler cost ~16 ms of CPU a second, not ~140, which the bots get back.
#: ``local:N`` uses them; ``deploy/dask.yaml`` gives them to an organizer's cluster.
QUIET: dict[str, Any] = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


class ClusterError(ArenaError):
    """A cluster that cannot run the tournament: unreachable, no workers, or a worker unfit."""


class WorkerUnfit(Exception):
    """Raised on a worker that cannot play the tournament (its message names worker and bot)."""


@dataclass(frozen=True)
class Origin:
    """What a worker must know of the coordinator to check and localise the bots."""

    token: str
    version: str
    #: The coordinator's Python: a bot command naming it means "arena's own Python".
    python: str
    #: Each bot's files hash as the coordinator sees it (see :func:`portable_hash`).
    hashes: tuple[tuple[str, str], ...]
    #: Sandbox layers the results promise (those of the workers checked at start).
    layers: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkerInfo:
    """What the check found on one worker."""

    address: str
    #: Which machine (its kernel's boot id): workers that share it share its CPUs.
    machine: str
    nthreads: int
    cpus: tuple[int, ...]
    layers: tuple[str, ...]


@dataclass(frozen=True)
class BatchResult:
    """The games of one task, and where the worker keeps bot logs.

    A worker that shares the results folder writes each game's replay there
    itself, before the batch's result goes back, as a local worker does
    (each replay None here); one that does not sends the replays back for the
    coordinator to write.
    """

    worker: str
    host: str
    log_dir: str | None
    games: list[tuple[Finished, bytes | None]]


def portable_hash(spec: BotSpec, python: str) -> str:
    """The hash of a bot's files, leaving out the interpreter (each machine has its own)."""
    argv = spec.argv[1:] if spec.argv and spec.argv[0] == python else spec.argv
    return files_hash(replace(spec, argv=argv))


def connect(address: str, *, notice: Callable[[str], None] | None = None) -> DaskExecutor:
    """A cluster to play on: ``local:N`` (a LocalCluster of N processes) or a scheduler address.

    ``notice`` is told what a user should know (a worker keeping logs elsewhere).

    Raises:
        ClusterError: when the address is bad, the scheduler does not answer
            or has no worker.
    """
    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterError.about(
                "{dask} local:N takes a number of workers >= 1, not {count!r}", count=count
            )
        # The workers are started with Ctrl-C ignored (they keep that): a terminal's
        # Ctrl-C reaches the whole process group, and must stop the coordinator only,
        # which then ends the workers' games and closes the cluster.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            # One thread each: a worker plays one game at a time, as a --jobs worker does.
            # Its own logs stay quiet up to CRITICAL: as it closes, a worker whose heartbeat
            # meets the scheduler gone logs an ERROR with a traceback (seen on a loaded
            # machine), and whatever goes wrong in a game reaches the coordinator anyway, by
            # its future, and is said there in one line.
            with dask.config.set(QUIET):  # read as the scheduler and nannies start
                local = LocalCluster(
                    n_workers=int(count),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
        except (OSError, TimeoutError, RuntimeError) as error:
            raise ClusterError(f"cannot start a local Dask cluster: {error}") from None
        finally:
            signal.signal(signal.SIGINT, previous)
        try:
            return DaskExecutor(Client(local), local, notice=notice)
        except BaseException:
            local.close()
            raise
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address}: {error}".rstrip(": ")
        ) from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    except TimeoutError:
        client.close()
        raise ClusterError(
            f"the Dask scheduler at {address} has no workers (start some with: "
            f"dask worker {address})"
        ) from None
    try:
        return DaskExecutor(client, notice=notice)
    except BaseException:
        client.close()
        raise


class DaskExecutor:
    """Plays a tournament's games on a Dask cluster (see the module's docstring)."""

    def __init__(
        self,
        client: Client,
        local: LocalCluster | None = None,
        *,
        batch_s: float = BATCH_S,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.client = client
        self.local = local
        self.batch_s = batch_s
        self.notice = notice
        self.token = uuid.uuid4().hex
        #: The scheduler's address (kept: asking a lost scheduler would hang an error message).
        self.address = str(client.scheduler_info()["address"])
        self.workers: dict[str, WorkerInfo] = {}
        #: Worker address -> a CPU for each of its threads (see :func:`_plan_cpus`).
        self.cpus: dict[str, tuple[int, ...]] = {}
        #: The sandbox layers every checked worker has: a worker joining later must have them.
        self.layers: tuple[str, ...] = ()
        self._threads_seen = (-math.inf, 1)  # asked at once, however young the clock
        self._hashes: tuple[tuple[str, str], ...] | None = None

    def origin(self, setup: Setup) -> Origin:
        """What the workers are told of this coordinator."""
        python = sys.executable
        if self._hashes is None:  # the bots' files are read once per tournament
            self._hashes = tuple((spec.name, portable_hash(spec, python)) for spec in setup.bots)
        return Origin(self.token, arena.__version__, python, self._hashes, self.layers)

    def check(self, setup: Setup, *, pin: bool = True) -> tuple[str, ...]:
        """Check that every worker can start every bot; return the sandbox layers all use.

        ``pin``: on each host whose CPUs outnumber its workers' threads, give each
        thread a CPU of its own (as the local executor does).

        Raises:
            ClusterError: naming the first worker that cannot, and why.
        """
        origin = self.origin(setup)
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        if not workers:
            raise ClusterError(f"the Dask scheduler at {self.address} has no workers")
        futures = {
            address: self.client.submit(
                _check_task,
                origin,
                setup,
                workers=[address],
                allow_other_workers=False,
                pure=False,
                key=f"arena-check-{self.token}-{address}",
            )
            for address in workers
        }
        # Each worker starts each bot once, each in at most startup_ms.
        timeout_s = CONNECT_TIMEOUT_S + len(setup.bots) * setup.limits.startup_ms / 1000.0
        for address, future in futures.items():
            late = f"worker {address} did not finish starting the bots in {timeout_s:.0f} s"
            info: WorkerInfo = self._result(future, timeout_s, late=f"{late} (is it still up?)")
            self.workers[address] = info
        if pin:
            self.cpus = _plan_cpus(list(self.workers.values()))
        layers = [set(info.layers) for info in self.workers.values()]
        common = set.intersection(*layers) if layers else set()
        first = next(iter(self.workers.values()))
        self.layers = tuple(layer for layer in first.layers if layer in common)
        return self.layers

    @contextmanager
    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> Iterator[Iterator[Finished]]:
        """Play ``games`` in batches on the cluster; on the way out every worker's bots say bye."""
        if not self.workers:
            self.check(setup)
        marker = setup.folder / _MARKER
        marker.write_text(self.token)
        pending: dict[Future[Any], list[ScheduledGame]] = {}
        try:
            yield self._results(setup, games, disabled, pending)
        finally:
            try:
                self._close_workers(list(pending))
            finally:
                marker.unlink(missing_ok=True)

    def _close_workers(self, pending: list[Future[Any]]) -> None:
        """Cancel what is still queued and have every worker tell the tournament's bots bye.

        The cluster may be gone by now (often why we are here): that is told,
        not raised, so the error that ended the run is the one reported. The
        workers then close the bots themselves after :data:`IDLE_S` seconds.
        """
        try:
            if pending:
                self.client.cancel(pending)
            self.client.run(_close_run, self.token)
        except (OSError, TimeoutError, ClosedClientError, CancelledError) as error:
            if self.notice:
                self.notice(
                    f"could not reach every Dask worker to close the bots "
                    f"({type(error).__name__}: {error}); "
                    f"they close them after {IDLE_S:.0f} s without a game"
                )

    def close(self) -> None:
        """Disconnect (and stop the LocalCluster this executor started)."""
        self.client.close()
        if self.local is not None:
            self.local.close()

    # ------------------------------------------------------------------ internals

    def _results(
        self,
        setup: Setup,
        games: Games,
        disabled: Mapping[str, str],
        pending: dict[Future[Any], list[ScheduledGame]],
    ) -> Iterator[Finished]:
        origin = self.origin(setup)
        #: Games taken from ``games`` and not yet sent (and those a closing worker returned).
        queue: deque[ScheduledGame] = deque()
        sizer = BatchSizer(self.batch_s)
        told: set[str] = set()
        stream = as_completed()

        def submit() -> bool:
            size = sizer.size(len(queue) + games.left(), self._threads())
            if len(queue) < size:
                queue.extend(games.take(size - len(queue)))
            if games.newcomers():
                raise ClusterError.about(
                    "a bot entered the field while the games play on a Dask cluster, whose "
                    "workers checked their bots before the first game: play such a league "
                    "on this machine ({jobs})"
                )
            if not queue:
                return False  # nothing may start until a running game finishes
            batch = [queue.popleft() for _ in range(min(size, len(queue)))]
            future = self.client.submit(
                _batch_task,
                origin,
                setup,
                pack_games(batch),
                dict(disabled),
                self.cpus,
                pure=False,
                key=f"arena-batch-{self.token}-{batch[0].ordinal}",
            )
            pending[future] = batch
            stream.add(future)
            return True

        def refill() -> None:
            # Until the pace is known a thread gets one probe at a time: probes queued
            # behind it would only be more tasks of two games.
            queued = QUEUED_PER_THREAD if sizer.paced else 1
            while len(pending) < queued * self._threads() and submit():
                pass

        refill()
        for future in stream:
            result: BatchResult = self._result(future)
            batch = pending.pop(future)
            # A worker closing a tournament (reaped as idle) returns what it played: the rest
            # goes out again.
            returned = {finished.ordinal for finished, _ in result.games}
            queue.extendleft(reversed([game for game in batch if game.ordinal not in returned]))
            if result.log_dir is not None and result.worker not in told:
                told.add(result.worker)
                if self.notice:
                    self.notice(
                        f"worker {result.worker} cannot see the results folder: "
                        f"its bot logs are in {result.host}:{result.log_dir}"
                    )
            sizer.observe([finished for finished, _ in result.games])
            for finished, replay in result.games:
                if replay is not None:  # from a worker that cannot see the results folder
                    save_replay(setup.folder, finished, [replay])
                yield finished
            refill()

    def _threads(self) -> int:
        """The cluster's worker threads, asked of the scheduler every :data:`THREADS_EVERY_S`
        (a round trip, ~0.7 ms of the coordinator's CPU): a worker that joins may wait
        that long for batches of its own."""
        asked, threads = self._threads_seen
        now = time.monotonic()
        if now - asked >= THREADS_EVERY_S:
            try:  # the totals only: each worker's details would grow with the cluster
                info = self.client.scheduler_info(n_workers=0)
            except (OSError, TimeoutError) as error:
                raise ClusterError(f"lost the Dask scheduler at {self.address}: {error}") from None
            threads = max(1, int(info.get("total_threads", 1)))
            self._threads_seen = (now, threads)
        return threads

    def _result(
        self, future: Future[Any], timeout_s: float | None = None, *, late: str = ""
    ) -> Any:
        """A task's result; whatever stops it is a ClusterError naming the cause.

        A worker's refusal, a task that killed workers, a lost scheduler, no
        result within ``timeout_s`` (the error says ``late``), or an error
        raised on a worker (its traceback is in that worker's log). What the
        coordinator committed before stays.
        """
        try:
            return future.result(timeout=timeout_s)
        except WorkerUnfit as error:
            raise ClusterError(str(error)) from None
        except KilledWorker as error:
            raise ClusterError(
                f"a batch of games was running on a worker each time one died, "
                f"{error.allowed_failures + 1} times: see the Dask worker logs"
            ) from None
        except FutureCancelledError as error:
            raise ClusterError(
                f"the Dask cluster at {self.address} dropped a batch of games ({error.reason})"
            ) from None
        except TimeoutError:
            raise ClusterError(late or f"no result in {timeout_s} s") from None
        except Exception as error:  # raised by our code on a worker: named, not swallowed
            raise ClusterError(
                f"a task failed on a worker of {self.address}: {type(error).__name__}: {error}"
            ) from None


class BatchSizer:
    """How many games the next task gets: ``batch_s`` seconds of play at the recent pace.

    Every task costs the coordinator's Dask client a few milliseconds of CPU
    (submitting, the scheduler's reports, fetching the result), so tasks are
    few:

    - until the pace is known each thread gets one task of :data:`PROBE_GAMES`
      games; the pace comes from games that started no bot (a bot's start
      makes a game slow, and sized the ramp-up of a run in a dozen small
      tasks), following the latest batches: the probe's second game plays
      with the bots its first started, so one task per thread measures;
      after :data:`COLD_BATCHES` batches in a row of nothing but such games
      (a bot that dies every game), those are the pace;
    - near the end batches shrink so that every thread stays busy to the last
      game, down to :data:`TAIL_FRACTION` of a full batch (a thread then idles
      at most that share of ``batch_s`` at the end, instead of the tail ending
      in a string of one-game tasks).
    """

    def __init__(self, batch_s: float) -> None:
        self.batch_s = batch_s
        self.seconds_per_game: float | None = None
        #: Batches in a row whose every game started a bot.
        self._cold = 0

    @property
    def paced(self) -> bool:
        """Whether the pace is known (until then tasks are probes)."""
        return self.seconds_per_game is not None

    def observe(self, games: Sequence[Finished]) -> None:
        """Take in a finished batch's games."""
        if not games:
            return
        warm = [game for game in games if not game.starts]
        self._cold = 0 if warm else self._cold + 1
        if not warm and self._cold < COLD_BATCHES:
            return
        measured = warm or games  # bots started for every game: that is the pace
        mean = sum(game.duration_ms for game in measured) / len(measured) / 1000.0
        last = self.seconds_per_game
        self.seconds_per_game = mean if last is None else (last + mean) / 2

    def size(self, left: int, threads: int) -> int:
        """Games for the next task, with ``left`` games unassigned and ``threads`` to play them."""
        if self.seconds_per_game is None:
            return min(PROBE_GAMES, max(1, left))
        full = min(MAX_BATCH, int(self.batch_s / max(self.seconds_per_game, 1e-6)))
        share = max(math.ceil(left / threads), int(full * TAIL_FRACTION))
        return max(1, min(full, share))


def _plan_cpus(workers: Sequence[WorkerInfo]) -> dict[str, tuple[int, ...]]:
    """A CPU for each worker thread of each host that has a CPU for each (else none there)."""
    plan: dict[str, tuple[int, ...]] = {}
    hosts: dict[str, list[WorkerInfo]] = {}
    for info in workers:
        hosts.setdefault(info.machine, []).append(info)
    for group in hosts.values():
        cpus = sorted(set.intersection(*(set(info.cpus) for info in group)))
        if len(cpus) < 2 or sum(info.nthreads for info in group) > len(cpus):
            continue
        free = iter(cpus)
        for info in sorted(group, key=lambda info: info.address):
            plan[info.address] = tuple(next(free) for _ in range(info.nthreads))
    return plan


# ---------------------------------------------------------------------- on the workers


class _Run:
    """One tournament's state in one worker process: its checked setup and each thread's bots."""

    def __init__(self, origin: Origin, setup: Setup, address: str) -> None:
        self.origin = origin
        self.address = address
        self.sandbox = _worker_sandbox(setup, address, origin.layers)
        self.setup = replace(setup, bots=tuple(_localise(spec, origin) for spec in setup.bots))
        self.lock = threading.Lock()
        self.seats: dict[int, Seats] = {}
        self.slots: dict[int, int] = {}
        self.busy: set[int] = set()
        self.closed = False
        self.log_dir: Path | None = None
        self.last_used = time.monotonic()

    def check_bots(self) -> None:
        """Start each bot once, after checking its files are the coordinator's.

        Raises:
            WorkerUnfit: naming this worker and the bot.
        """
        hashes = dict(self.origin.hashes)
        for spec in self.setup.bots:
            if portable_hash(spec, sys.executable) != hashes[spec.name]:
                missing = [
                    token
                    for token in spec.argv
                    if token.startswith("/") and not os.path.exists(token)
                ]
                why = (
                    f"{missing[0]} does not exist here"
                    if missing
                    else "its files differ from the coordinator's"
                )
                raise WorkerUnfit(
                    f"worker {self.address} cannot run bot {spec.name!r}: {why} "
                    "(bots must be at the same path, with the same files, on every worker)"
                )
            player = ProcessPlayer(
                spec, self.setup.limits, sandbox=self.sandbox, resources=self.setup.resources
            )
            try:
                player.launch()
            except BotFault as fault:
                raise WorkerUnfit(
                    f"worker {self.address} cannot start bot {spec.name!r}: {fault.detail}"
                ) from None
            finally:
                player.close()

    def enter(self) -> tuple[Seats, int]:
        """This thread's seats and its slot (its index among the threads of this worker)."""
        ident = threading.get_ident()
        with self.lock:
            if self.log_dir is None:
                self.log_dir = _log_dir(self.setup.folder, self.origin.token)
            seats = self.seats.get(ident)
            if seats is None:
                seats = Seats(self.setup, log_dir=self.log_dir, sandbox=self.sandbox)
                self.seats[ident] = seats
                self.slots[ident] = len(self.slots)
            self.busy.add(ident)
            self.last_used = time.monotonic()
            return seats, self.slots[ident]

    def leave(self) -> None:
        """This thread's batch is over; if the tournament was closed meanwhile, its bots go."""
        ident = threading.get_ident()
        with self.lock:
            self.busy.discard(ident)
            self.last_used = time.monotonic()
            seats = self.seats.pop(ident) if self.closed else None
        if seats is not None:
            seats.close()

    def close(self) -> None:
        """Close the bots of idle threads now; busy threads close theirs when their batch ends."""
        with self.lock:
            self.closed = True
            idle = [ident for ident in self.seats if ident not in self.busy]
            closing = [self.seats.pop(ident) for ident in idle]
        for seats in closing:
            seats.close()


# Module-level on purpose: a Dask worker runs each batch as a plain function call in a
# process of its own, and the bots must outlive the call (a run's bots are started once
# per worker thread, not per batch); the worker process is the only thing the batches
# share, so the runs it serves live here, guarded by _RUNS_LOCK, and are reaped when idle.
#: The runs this worker process serves, by their coordinator's token.
_RUNS: dict[str, _Run] = {}
#: Tournaments their coordinator closed: a batch of theirs still queued plays nothing.
_CLOSED: set[str] = set()
_RUNS_LOCK = threading.Lock()
_REAPER: list[threading.Thread] = []


class RunClosed(Exception):
    """A batch of a tournament its coordinator has closed (nobody waits for its result)."""


def _enter(origin: Origin, setup: Setup) -> tuple[_Run, Seats, int]:
    """The tournament's state (made and checked if new), this thread's seats and slot.

    The thread is marked busy before the lock is let go, so the reaper
    cannot close the tournament under a batch that is about to start.
    """
    with _RUNS_LOCK:
        if origin.token in _CLOSED:
            raise RunClosed(origin.token)
        run = _run_for(origin, setup)
        seats, slot = run.enter()
        return run, seats, slot


def _run_for(origin: Origin, setup: Setup) -> _Run:
    """This worker's state for the tournament, checked when first made (hold _RUNS_LOCK)."""
    if not _REAPER:
        _REAPER.append(threading.Thread(target=_reaper, name="arena-reaper", daemon=True))
        _REAPER[0].start()
    run = _RUNS.get(origin.token)
    if run is None:
        address = str(get_worker().address)
        if origin.version != arena.__version__:
            raise WorkerUnfit(
                f"worker {address} runs arena {arena.__version__}, the coordinator "
                f"{origin.version}: install the same version everywhere"
            )
        run = _Run(origin, setup, address)
        run.check_bots()
        _RUNS[origin.token] = run
    return run


def reap_idle(now: float) -> list[str]:
    """Close the tournaments no batch has used for :data:`IDLE_S` seconds; return their tokens.

    A coordinator that ends normally closes its tournament on every worker;
    one that was killed cannot, and its bots would live as long as the
    worker. Reaping a tournament whose coordinator is in fact alive costs
    only a new check and new bot starts on its next batch.
    """
    with _RUNS_LOCK:
        idle = [
            token for token, run in _RUNS.items() if not run.busy and now - run.last_used > IDLE_S
        ]
        runs = [_RUNS.pop(token) for token in idle]
    for run in runs:
        run.close()
    return idle


def _reaper() -> None:
    while True:
        time.sleep(IDLE_S / 4)
        reap_idle(time.monotonic())


def _check_task(origin: Origin, setup: Setup) -> WorkerInfo:
    with _RUNS_LOCK:
        run = _run_for(origin, setup)
    worker = get_worker()
    return WorkerInfo(
        address=run.address,
        machine=_machine(),
        nthreads=int(worker.state.nthreads),
        cpus=tuple(sorted(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else (),
        layers=run.sandbox.layers if run.sandbox else (),
    )


def pack_games(games: Sequence[ScheduledGame]) -> bytes:
    """A batch's games as one opaque record for a task's argument.

    Dask walks every list, tuple and dict of a task's arguments looking for
    futures, ~15 calls a game here; bytes it passes as they are. Plain tuples
    pickle without a Python-level call a game (a named tuple's ``__getnewargs__``).
    """
    return pickle.dumps([tuple(game) for game in games], protocol=pickle.HIGHEST_PROTOCOL)


def unpack_games(record: bytes) -> list[ScheduledGame]:
    """The games :func:`pack_games` packed."""
    return [ScheduledGame._make(row) for row in pickle.loads(record)]


def _batch_task(
    origin: Origin,
    setup: Setup,
    packed: bytes,
    disabled: Mapping[str, str],
    cpus: Mapping[str, Sequence[int]],
) -> BatchResult:
    games = unpack_games(packed)
    try:
        run, seats, slot = _enter(origin, setup)
    except RunClosed:  # queued before its coordinator closed the tournament: nobody waits
        return BatchResult(worker=str(get_worker().address), host="", log_dir=None, games=[])
    mine = cpus.get(run.address, ())
    played: list[tuple[Finished, bytes | None]] = []
    shared = run.log_dir == setup.folder / "logs"  # this worker sees the results folder
    try:
        with pinned(mine[slot] if slot < len(mine) else None):
            for game in games:
                if run.closed:
                    break
                finished, result = seats.play(game, disabled)
                if shared:
                    save_replay(setup.folder, finished, result.lines)
                    played.append((finished, None))
                else:
                    played.append((finished, b"".join(result.lines)))
    finally:
        run.leave()
    return BatchResult(
        worker=run.address,
        host=run.address.rsplit(":", 1)[0].split("://")[-1],
        log_dir=None if shared else str(run.log_dir),
        games=played,
    )


def _close_run(token: str) -> None:
    """The coordinator is done: close the tournament's bots, away from the worker's event loop."""
    threading.Thread(target=_close_now, args=(token,), name="arena-close").start()


def _close_now(token: str) -> None:
    with _RUNS_LOCK:
        _CLOSED.add(token)
        run = _RUNS.pop(token, None)
    if run is not None:
        run.close()


def _worker_sandbox(setup: Setup, address: str, layers: Sequence[str] = ()) -> Capabilities | None:
    """This worker's own sandbox (each machine offers its own layers).

    It must provide what --require asks for, and ``layers``: those the
    results promise, for a worker that joins after the start.
    """
    if setup.sandbox is None:
        return None
    capabilities = detect()
    try:
        require(capabilities, setup.required)
    except ArenaError as error:
        raise WorkerUnfit(f"worker {address}: {error}") from None
    missing = [layer for layer in layers if layer not in capabilities.layers]
    if missing:
        raise WorkerUnfit(
            f"worker {address} lacks the sandbox layers {', '.join(missing)} that the "
            "workers checked at the start have"
        )
    return capabilities


def _machine() -> str:
    """This machine's kernel boot id (containers on one machine share it), else its name."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return socket.gethostname()


def _localise(spec: BotSpec, origin: Origin) -> BotSpec:
    """``spec`` with the coordinator's Python replaced by this worker's."""
    if spec.argv and spec.argv[0] == origin.python and origin.python != sys.executable:
        return replace(spec, argv=(sys.executable, *spec.argv[1:]))
    return spec


def _log_dir(folder: Path, token: str) -> Path:
    """The results folder's logs when this worker shares the folder, else a folder of its own."""
    try:
        shared = (folder / _MARKER).read_text() == token
    except OSError:
        shared = False
    if shared:
        return folder / "logs"
    return Path(tempfile.gettempdir()) / "arena-logs" / token

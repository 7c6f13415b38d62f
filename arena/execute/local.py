"""Games on this machine: in this process (one job) or a pool of worker processes.

The coordinator (the caller of :meth:`LocalExecutor.play`) alone writes the
store; each worker keeps its own bot processes alive across games and
writes each game's replay (to a temporary name, then renamed) before the
game is handed back, so a store never names a replay that is not whole.
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, cast

from arena.bots.process import kill_all, spawn_worker, sweep_scratch
from arena.bots.sandbox import become_subreaper
from arena.bots.spec import BotSpec
from arena.execute.base import Games, Setup, WorkerDied
from arena.execute.seats import PlayerFactory, Seats
from arena.results.games import ScheduledGame
from arena.results.replays import save_replay
from arena.results.store import Finished
from arena.signals import STOPPING, Stopped, ignore_interrupts

#: Memory a pool worker takes before its bots (Python and arena's modules: ~30 MiB
#: measured), with room to spare; and what one live bot is counted at.
WORKER_MIB = 48


BOT_MIB = 16


#: Games at once when no flag or config file says: one, played in this process.
DEFAULT_JOBS = 1


def usable_jobs(
    jobs: int, *, tables: int, table_games: int, players: int
) -> tuple[int, str | None]:
    """``jobs``, or fewer where more could not work, and why (None: not capped).

    ``tables``: the tables whose games may be played at once (an event's
    round, or two where the next is made while one plays), each of
    ``table_games`` games of ``players`` seats. A worker plays a table at a
    time, so more workers than the tables on offer only wait; and each worker
    with its bots takes memory, so no more start than the memory available
    holds (999 spawned workers were minutes of start-up and gigabytes before
    the first game).
    """
    # A task is a table's games, up to TABLE_TASK of them.
    tables = max(1, tables * math.ceil(table_games / TABLE_TASK))
    available = _available_mib()
    memory = max(1, available // (WORKER_MIB + players * BOT_MIB))
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


class LocalExecutor:
    """Games on this machine: in this process (``jobs == 1``) or a pool of ``jobs`` processes."""

    def __init__(self, jobs: int, *, pin: bool = True, make: PlayerFactory | None = None) -> None:
        self.jobs = jobs
        self.cpus = worker_cpus(jobs) if pin else None
        #: How a bot's player is made with one job (tests: in-process players); a pool's
        #: workers are other processes, which start the bots' processes.
        self.make = make

    @contextmanager
    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> Iterator[Iterator[Finished]]:
        """Play ``games`` here or in a pool; on the way out the bots are told bye (or killed)."""
        jobs, cpus = self.jobs, self.cpus
        # With one job the games are played here: pin this process, and give its CPUs back after.
        with pinned(cpus[0] if cpus and jobs <= 1 else None):
            if jobs <= 1:
                worker = Worker(setup, make=self.make)
                try:
                    yield worker.play_here(games, disabled)
                finally:
                    worker.close()
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
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        for index in range(jobs):
            cpu = cpus[index % len(cpus)] if cpus else None
            mine, process = spawn_worker(_worker_main, (setup, cpu), name=f"arena-worker-{index}")
            self.pipes.append(mine)
            self.processes.append(process)
        self.index = {pipe: index for index, pipe in enumerate(self.pipes)}

    def play(self, games: Games, disabled: Mapping[str, str]) -> Iterator[Finished]:
        """The workers' finished games, a table at a time as each comes back."""
        queued = dict.fromkeys(range(len(self.pipes)), 0)
        #: The newcomers each worker has been sent (the field's changes reach it once).
        told = dict.fromkeys(range(len(self.pipes)), 0)
        while True:
            for index, count in queued.items():
                while count < QUEUED_PER_WORKER and (table := games.take_table(TABLE_TASK)):
                    newcomers = games.newcomers()
                    self._send(index, (table, dict(disabled), newcomers[told[index] :]))
                    told[index] = len(newcomers)
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
    ignore_interrupts()
    for signum in STOPPING:  # terminate() sends SIGTERM
        signal.signal(signum, _stopped_worker)
    worker = Worker(setup)
    try:
        while (task := pipe.recv()) is not None:
            try:
                played = worker.play_table(*task)
            except Exception as error:  # raised again in the coordinator, which stops the run
                pipe.send((False, error))
            else:
                pipe.send((True, played))
    finally:
        worker.close()


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


class Worker:
    """Plays games with its own seats (bots alive across games), each replay written whole.

    A pool's worker process has one; with one job the coordinator is the worker.
    """

    def __init__(self, setup: Setup, *, make: PlayerFactory | None = None) -> None:
        if setup.sandbox is not None and setup.sandbox.subreaper:
            become_subreaper()  # the bots' orphans are this worker's to kill and reap
        self.seats = Seats(setup, log_dir=setup.folder / "logs", sandbox=setup.sandbox, make=make)

    def play(self, game: ScheduledGame, disabled: Mapping[str, str]) -> Finished:
        """Play one game and write its replay."""
        finished, result = self.seats.play(game, disabled)
        save_replay(self.seats.setup.folder, finished, result.lines)
        return finished

    def play_table(
        self,
        games: Sequence[ScheduledGame],
        disabled: Mapping[str, str],
        newcomers: Sequence[BotSpec],
    ) -> list[Finished]:
        """Play one task's games (a table's, or part of one), after taking the bots that
        entered the field since the last task."""
        self.seats.learn(newcomers)
        return [self.play(game, disabled) for game in games]

    def play_here(self, games: Games, disabled: Mapping[str, str]) -> Iterator[Finished]:
        """Play ``games`` one at a time in this process, each handed back as it ends."""
        told = 0
        while batch := games.take(1):
            newcomers = games.newcomers()
            self.seats.learn(newcomers[told:])
            told = len(newcomers)
            yield self.play(batch[0], dict(disabled))

    def close(self) -> None:
        """Say bye to every bot."""
        self.seats.close()


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
    kill_all()
    raise SystemExit(128 + signum)


def _ignore(signum: int, _frame: object) -> None:
    """A stop signal after the first: the worker is stopping already."""

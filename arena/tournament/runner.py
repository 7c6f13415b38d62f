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

import hashlib
import multiprocessing
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any, Protocol

from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import BotFault, FaultKind
from arena.game import Rules
from arena.protocol import Limits
from arena.referee import GameResult, Player, play_game, write_replay
from arena.tournament.ratings import Environment
from arena.tournament.schedule import ScheduledGame, build_schedule
from arena.tournament.store import BotRecord, Finished, Store

#: Handshake failures in a row after which a bot is disabled.
DISABLE_AFTER = 3
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

    def key(self) -> dict[str, Any]:
        """The configuration as stored, and compared on resume."""
        return {
            "bots": [[spec.name, spec.command] for spec in self.bots],
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "limits": self.limits.to_dict(),
            "resources": dict(self.resources),
            "gauntlet": self.gauntlet,
        }

    def schedule(self) -> list[ScheduledGame]:
        """Every game, in schedule order."""
        return build_schedule(
            [spec.name for spec in self.bots],
            players=self.players,
            deals=self.deals,
            seed=self.seed,
            gauntlet=self.gauntlet,
        )


@dataclass
class Outcome:
    """How a run ended."""

    played: int
    done: int
    total: int
    seconds: float
    disabled: dict[str, str] = field(default_factory=dict)


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
        bots=[BotRecord(s.name, s.command, files_hash(s)) for s in tournament.bots],
        schedule=tournament.schedule(),
        environment=Environment.for_table(rules.players),
        sandbox=list(layers if layers is not None else sandbox.layers if sandbox else []),
    )


class Executor(Protocol):
    """Plays games somewhere and hands back each one as it finishes, its replay written."""

    def play(
        self, setup: Setup, games: Sequence[ScheduledGame], disabled: Mapping[str, str]
    ) -> AbstractContextManager[Iterator[Finished]]:
        """The finished games, in any order; leaving the context stops what is still running.

        ``disabled`` is live: a bot disabled while the games run forfeits
        the games handed out after that.
        """
        ...


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
) -> Outcome:
    """Play every pending game of ``store``; commit each as it finishes.

    The games are played by ``executor`` (default: a :class:`LocalExecutor`
    of ``jobs`` workers, each pinned to a CPU of its own when ``pin`` and
    there are at least ``jobs`` CPUs, see :func:`worker_cpus`). ``required``
    names the protections each worker's sandbox must provide.
    A KeyboardInterrupt stops the run between commits; what was committed stays.
    """
    pending = store.pending()
    total, done = store.total(), store.done()
    for partial in (store.folder / "replays").glob(".*.partial"):
        partial.unlink(missing_ok=True)  # left by a worker killed mid-write
    disabled = store.disabled()
    failures: dict[str, int] = {}
    setup = Setup.of(tournament, sandbox, store.folder, required)
    start = time.monotonic()
    played = 0
    by_ordinal = {game.ordinal: game for game in pending}
    executor = executor or LocalExecutor(jobs, pin=pin)
    with executor.play(setup, pending, disabled) as results:
        for finished in results:
            store.finish(finished)
            played += 1
            done += 1
            for bot, failed in _handshakes(finished, by_ordinal[finished.ordinal]).items():
                failures[bot] = failures.get(bot, 0) + 1 if failed else 0
                if failures[bot] >= DISABLE_AFTER and bot not in disabled:
                    reason = f"failed to start {DISABLE_AFTER} games in a row"
                    disabled[bot] = reason
                    store.disable(bot, reason)
                    if notice:
                        notice(f"bot {bot!r} disabled: {reason}; its remaining games are forfeits")
            if progress:
                progress(done, total, time.monotonic() - start)
    return Outcome(played, done, total, time.monotonic() - start, dict(disabled))


class LocalExecutor:
    """Games on this machine: in this process (``jobs == 1``) or a pool of ``jobs`` processes."""

    def __init__(self, jobs: int, *, pin: bool = True) -> None:
        self.jobs = jobs
        self.cpus = worker_cpus(jobs) if pin else None

    @contextmanager
    def play(
        self, setup: Setup, games: Sequence[ScheduledGame], disabled: Mapping[str, str]
    ) -> Iterator[Iterator[Finished]]:
        """Play ``games`` here or in a pool; on the way out the bots are told bye (or killed)."""

        def tasks() -> Iterator[tuple[ScheduledGame, dict[str, str]]]:
            for game in games:
                yield game, dict(disabled)

        jobs, cpus = self.jobs, self.cpus
        # With one job the games are played here: pin this process, and give its CPUs back after.
        with pinned(cpus[0] if cpus and jobs <= 1 else None):
            if jobs <= 1:
                _init_worker(setup)
                try:
                    yield (_play_task(task) for task in tasks())
                finally:
                    _close_players()
                return
            context = multiprocessing.get_context("spawn")
            counter = context.Value("i", 0)
            pool = context.Pool(jobs, initializer=_init_worker, initargs=(setup, counter, cpus))
            try:
                yield pool.imap_unordered(_play_task, tasks())
            except BaseException:
                pool.terminate()  # interrupted: the bots die with their workers
                pool.join()
                raise
            pool.close()  # workers say bye to their bots and free their sandboxes
            pool.join()


def _handshakes(finished: Finished, game: ScheduledGame) -> dict[str, bool]:
    """For each bot of the game: whether it failed to start (its handshake)."""
    return {
        bot: seat in finished.faults and finished.faults[seat][1].startswith(_HANDSHAKE)
        for seat, bot in enumerate(game.seats)
    }


def files_hash(spec: BotSpec) -> str:
    """A hash of the files a bot runs: its program, its file arguments, its folder's files."""
    digest = hashlib.blake2b(digest_size=16)
    paths = [token for token in spec.argv if os.path.isfile(token)]
    if spec.home is not None:
        paths += sorted(str(p) for p in spec.home.rglob("*") if p.is_file() and len(p.parts) < 40)[
            :2000
        ]
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
    """A worker's bot processes, alive across games, and the games it plays with them."""

    def __init__(self, setup: Setup, *, log_dir: Path | None, sandbox: Capabilities | None) -> None:
        self.setup = setup
        self.log_dir = log_dir
        self.sandbox = sandbox
        self.specs = {spec.name: spec for spec in setup.bots}
        self.players: dict[str, ProcessPlayer] = {}

    def player(self, name: str, disabled: Mapping[str, str]) -> Player:
        """The seat of bot ``name``: its live process, started when first needed."""
        if name in disabled:
            return _Forfeit(name, disabled[name])
        player = self.players.get(name)
        if player is None:
            player = ProcessPlayer(
                self.specs[name],
                self.setup.limits,
                log_dir=self.log_dir,
                sandbox=self.sandbox,
                resources=self.setup.resources,
            )
            self.players[name] = player
        return player

    def play(self, game: ScheduledGame, disabled: Mapping[str, str]) -> tuple[Finished, GameResult]:
        """Play ``game``: what the store is told of it, and the whole result (for its replay)."""
        players = [self.player(name, disabled) for name in game.seats]
        start = time.monotonic()
        result = play_game(
            players,
            self.setup.rules,
            seed=game.seed,
            game_id=game.game_id,
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
        )
        return finished, result

    def close(self) -> None:
        """Say bye to every bot."""
        while self.players:
            self.players.popitem()[1].close()


def replay_path(game_id: str) -> str:
    """Where a game's replay goes, relative to the results folder."""
    return f"replays/{game_id}.jsonl"


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


def _init_worker(setup: Setup, counter: Any = None, cpus: Sequence[int] | None = None) -> None:
    if counter is not None and cpus:
        with counter.get_lock():
            index = counter.value
            counter.value += 1
        os.sched_setaffinity(0, {cpus[index % len(cpus)]})
    _STATE["seats"] = Seats(setup, log_dir=setup.folder / "logs", sandbox=setup.sandbox)
    if multiprocessing.parent_process() is not None:
        Finalize(None, _close_players, exitpriority=10)


def _play_task(task: tuple[ScheduledGame, dict[str, str]]) -> Finished:
    game, disabled = task
    seats: Seats = _STATE["seats"]
    finished, result = seats.play(game, disabled)
    save_replay(seats.setup.folder, finished, result.lines)
    return finished


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

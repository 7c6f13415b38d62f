"""One bot process: its own process group, pipes with deadlines, capped logs.

Reads are non-blocking (poll + os.read) with a cap on the line length, so a
bot that floods a line without a newline or stops answering cannot stall
the referee; stderr is drained by a thread into a size-capped log; stopping
sends SIGTERM then SIGKILL to the whole process group, so helpers a bot
started die with it.
"""

# arena: compiled with mypyc
from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import IO, Any

from arena.bots import owner
from arena.bots.movelog import MoveLog
from arena.bots.sandbox import (
    LAYER_FAILED,
    Capabilities,
    Confinement,
    CpuGrant,
    NoUidForBot,
    ResourceLimits,
    confine,
    descendants,
)
from arena.bots.spec import BotSpec
from arena.errors import BotFault, FaultKind
from arena.protocol import MAX_LINE_BYTES

log = logging.getLogger(__name__)

#: Bytes of a bot's stderr kept per process; the rest is read and dropped.
STDERR_CAP = 1 << 20
#: Seconds between SIGTERM and SIGKILL when stopping a bot.
TERM_GRACE_S = 0.2
#: Chunks of a bot's stderr read at most after a reply (a bot that floods stderr leaves
#: the rest to its reader thread).
SETTLE_CHUNKS = 16
#: While waiting for a reply, how often to check whether the bot has exited.
EXIT_CHECK_S = 0.1
_READ_CHUNK = 1 << 16
#: How long the stderr reader waits for bytes at a time (it loops until the pipe ends).
_STDERR_POLL_MS = 250
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")
#: Pids of the bot processes running now, in this process (spared when reaping leftovers).
#: Module-level because a stop signal's handler must reach every bot of the process
#: (:func:`kill_all`) without waiting on any object that might be mid-update.
LIVE: set[int] = set()
#: Held from a bot's start until its pid is in :data:`LIVE`, and while a stopped bot's
#: leftovers are killed: the sweep kills every child of this process that left its session
#: and is not in LIVE, which a bot started by another thread at that moment would be (a
#: field is probed from threads: arena.bots.health).
_STARTING = threading.Lock()
#: A bot's scratch folder: ``arena-<maker's pid>.<its place>-<bot>-<random>`` (see owner).
_SCRATCH = re.compile(rf"^arena-{owner.MARK.pattern}-")
_swept = False


def kill_all() -> None:
    """Kill the process group of every bot this process runs now, waiting for none.

    For a stop signal's handler: it must not wait for a bot (it could wait
    on itself); what the bots leave is swept later (:func:`sweep_scratch`).
    """
    for pid in list(LIVE):
        with contextlib.suppress(ProcessLookupError):  # that bot's group has ended already
            os.killpg(pid, signal.SIGKILL)


def spawn_worker(
    target: Callable[..., None], args: tuple[Any, ...], *, name: str
) -> tuple[Connection, BaseProcess]:
    """Start ``target(pipe, *args)`` in a fresh Python process (spawned: nothing of this
    process's state is copied); return this end of the pipe and the process.

    A worker process is where games are played and its bots are started: it
    is started here, with the bots, so that one package starts processes.
    """
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    process = context.Process(target=target, args=(theirs, *args), name=name)
    process.start()
    theirs.close()
    return mine, process


def sweep_scratch() -> int:
    """Remove the scratch folders whose maker is gone; return how many.

    A worker stopped with its pool (Ctrl-C, SIGTERM) or any process killed
    with SIGKILL cannot remove its bots' scratch folders. Each folder names
    the process that made it, so whoever comes next (the coordinator when
    its run ends, the next bot started on this machine) removes those whose
    maker no longer runs. Folders of processes still running are left alone.
    """
    removed = 0
    for folder in Path(tempfile.gettempdir()).glob("arena-*-*"):
        maker = _SCRATCH.match(folder.name)
        if maker and owner.left_behind(*maker.groups()) and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
            removed += not folder.exists()
    return removed


class BotProcess:
    """A running bot: write lines to it, read lines from it, each against a deadline."""

    def __init__(
        self,
        spec: BotSpec,
        *,
        log_path: Path | None = None,
        sandbox: Capabilities | None = None,
        limits: ResourceLimits | None = None,
    ) -> None:
        """A bot ready to start.

        Args:
            spec: the bot.
            log_path: where its stderr goes (size-capped); None drops it.
            sandbox: the layers to confine it in; None runs it unconfined
                (only its own process group, scratch folder and environment).
            limits: its resource limits (default: for its runtime, with the
                manifest's overrides).
        """
        self.spec = spec
        self.log_path = log_path
        self.sandbox = sandbox
        self.limits = limits or ResourceLimits.for_command(spec.argv).merged(dict(spec.limits))
        self.confinement: Confinement | None = None
        #: The processes whose CPU limit is raised per game: the bot, and under a
        #: namespace wrapper the processes between (found once, not per game).
        self._cpu_grant: CpuGrant | None = None
        self._stderr_start = _StderrStart()
        #: The stderr lines of the move being decided (see :meth:`settle`).
        self.move_log = MoveLog()
        self.proc: subprocess.Popen[bytes] | None = None
        self.scratch: str | None = None
        self._buffer = bytearray()
        self._scanned = 0
        self._stderr_thread: threading.Thread | None = None
        self._in_fd = -1
        self._out_fd = -1
        self._poll_in = select.poll()
        self._poll_out = select.poll()
        self._stderr: _Stderr | None = None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start the bot in a fresh scratch folder with a minimal environment.

        Raises:
            BotFault: ``crash`` when the program cannot be executed.
        """
        global _swept  # noqa: PLW0603 - once a process: what processes killed before left
        if not _swept:
            _swept = True
            sweep_scratch()
        name = _UNSAFE.sub("_", self.spec.name)
        self.scratch = tempfile.mkdtemp(prefix=f"arena-{owner.mark()}-{name}-")
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": self.scratch,
            "TMPDIR": self.scratch,
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        argv = list(self.spec.argv)
        if self.sandbox is not None:
            try:
                self.confinement = confine(
                    argv,
                    Path(self.scratch),
                    self.limits,
                    self.sandbox,
                    read_paths=[str(self.spec.home)] if self.spec.home else [],
                    name=self.spec.name,
                )
            except NoUidForBot as refused:  # it forfeits, as a bot that cannot start
                self._remove_scratch()
                raise BotFault(FaultKind.CRASH, str(refused)) from None
            argv = self.confinement.argv
        try:
            with _STARTING:
                self.proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=self.scratch,
                    env=env,
                    start_new_session=True,
                    close_fds=True,
                    bufsize=0,
                )
                LIVE.add(self.proc.pid)
        except OSError as error:
            self._release()
            raise BotFault(FaultKind.CRASH, f"cannot start {self.spec.command}: {error}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        os.set_blocking(self._in_fd, False)
        os.set_blocking(self._out_fd, False)
        self._poll_in = select.poll()
        self._poll_in.register(self._out_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._poll_out = select.poll()
        self._poll_out.register(self._in_fd, select.POLLOUT | select.POLLERR)
        self._buffer = bytearray()
        self._scanned = 0
        self._stderr_start = _StderrStart()
        self.move_log = MoveLog()
        self._stderr = _Stderr(self.proc.stderr, self.log_path, self._stderr_start, self.move_log)
        self._stderr_thread = threading.Thread(
            target=_drain,
            args=(self._stderr,),
            name=f"stderr-{self.spec.name}",
            daemon=True,
        )
        self._stderr_thread.start()
        log.debug("%s: started pid %d: %s", self.spec.name, self.proc.pid, self.spec.command)

    @property
    def running(self) -> bool:
        """Whether the process has been started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def stop(self, *, grace_s: float = TERM_GRACE_S) -> int | None:
        """Stop the bot and everything in its process group; return its exit status.

        Waits up to ``grace_s`` for the bot to exit by itself (after ``bye``),
        then SIGTERM, then SIGKILL to the whole group.
        """
        proc = self.proc
        if proc is None:
            return None
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        status = _wait(proc, grace_s)
        if status is None:
            _signal_group(proc.pid, signal.SIGTERM)
            status = _wait(proc, TERM_GRACE_S)
        _signal_group(proc.pid, signal.SIGKILL)  # also any child left behind in the group
        if status is None:
            status = proc.wait()
        LIVE.discard(proc.pid)
        self._release()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1.0)
        if proc.stderr is not None and (
            self._stderr_thread is None or not self._stderr_thread.is_alive()
        ):
            proc.stderr.close()
        self.proc = None
        self._remove_scratch()
        log.debug("%s: stopped, status %s", self.spec.name, status)
        return status

    def grant_game_cpu(self) -> None:
        """Before a game: raise the CPU limit by one game's budget (bots live across games).

        Where the limit cannot be raised (not root), the budget stays one per
        process: a bot that spends it is stopped and restarted for its next game.
        """
        if self.proc is not None and self.sandbox is not None and self.limits.cpu_s:
            if self._cpu_grant is None:  # the tree under a namespace wrapper is settled by now
                self._cpu_grant = CpuGrant([self.proc.pid, *descendants(self.proc.pid)])
            self._cpu_grant.grant(self.limits.cpu_s, strict=self.sandbox.raise_limits)

    def _release(self) -> None:
        """Kill what is left of the bot's processes and free its cgroups."""
        if self._cpu_grant is not None:
            self._cpu_grant.close()
            self._cpu_grant = None
        if self.confinement is not None:
            with _STARTING:
                self.confinement.release(LIVE)
            self.confinement = None

    def _remove_scratch(self) -> None:
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    # ------------------------------------------------------------------ pipes

    def settle(self, *, before_request: bool = False) -> None:
        """Read what the bot has written to stderr so far into :attr:`move_log` (after a
        reply, before taking its lines; before a request, before clearing them). What it
        wrote before its reply is in the pipe once the reply is read: reading the pipe to
        its end (at most :data:`SETTLE_CHUNKS` chunks) finds it, with no waiting.

        Before a request, a bot that has never written to stderr has nothing to clear:
        the read (a system call a decision) is left out for it."""
        pipe = self._stderr
        if pipe is None or (before_request and not pipe.written):
            return
        for _ in range(SETTLE_CHUNKS):
            if not pipe.pump():
                return

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` whole before ``deadline`` (a time.monotonic() value).

        Raises:
            BotFault: ``crash`` if the bot is gone, ``timeout`` if it does not
                read its input in time.
        """
        fd = self._in_fd
        written = 0
        try:  # the common case: the pipe has room for the whole block at once
            written = os.write(fd, data)
            if written == len(data):
                return
        except BlockingIOError:
            pass
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise BotFault(FaultKind.CRASH, self._gone("stopped reading its input")) from None
        view = memoryview(data)[written:]
        while view:
            try:
                written = os.write(fd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
                raise BotFault(FaultKind.CRASH, self._gone("stopped reading its input")) from None
            view = view[written:]
            if view:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self._poll_out.poll(_ms(remaining)):
                    raise BotFault(FaultKind.TIMEOUT, "did not read its input in time")

    def read_line(self, deadline: float) -> bytes:
        """The next line the bot writes (without its newline), before ``deadline``.

        Raises:
            BotFault: ``timeout`` past the deadline, ``crash`` when the bot
                closes its output or exits, ``malformed`` for a line longer
                than :data:`MAX_LINE_BYTES`.
        """
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                self._scanned = 0
                return line
            self._scanned = len(buffer)
            if len(buffer) > MAX_LINE_BYTES:
                raise BotFault(
                    FaultKind.MALFORMED, f"wrote a line longer than {MAX_LINE_BYTES} bytes"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFault(FaultKind.TIMEOUT, "did not answer in time")
            if not self._poll_in.poll(_ms(min(remaining, EXIT_CHECK_S))):
                # Nothing yet. A bot that exited while a child of its own still
                # holds its output open would only time out: notice the exit.
                if self.proc is not None and self.proc.poll() is not None:
                    raise BotFault(FaultKind.CRASH, self._gone("the bot process ended"))
                continue
            try:
                chunk = os.read(self._out_fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                raise BotFault(FaultKind.CRASH, self._gone("closed its output"))
            if not buffer and chunk.find(b"\n") == len(chunk) - 1:
                return chunk[:-1]  # the common case: exactly one whole line arrived
            buffer += chunk

    def _gone(self, what: str) -> str:
        proc = self.proc
        status = _wait(proc, 0.05) if proc is not None else None
        if status is None:
            return what
        if status == LAYER_FAILED and self.sandbox is not None:
            # The trampoline wrote why before it exited: give the stderr reader a moment
            # to take it in (a fast exit can beat it here).
            if self._stderr_thread is not None and not self._stderr_start.text:
                self._stderr_thread.join(timeout=0.5)
            return f"{what}: {self._stderr_start.text or 'a sandbox layer could not be applied'}"
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = f"signal {-status}"
            return f"{what}: killed by {name}"
        return f"{what}: exited with status {status}"


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000) + 1)


def _wait(proc: subprocess.Popen[bytes], timeout_s: float) -> int | None:
    try:
        return proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return None


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    # ProcessLookupError: the group is already gone.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


class _StderrStart:
    """The start of a bot's stderr, kept to explain why it could not start."""

    def __init__(self) -> None:
        self.text = ""

    def feed(self, chunk: bytes) -> None:
        if len(self.text) < 300:
            self.text = (self.text + chunk.decode("utf-8", "replace"))[:300].strip()


class _Stderr:
    """A bot's stderr pipe, read by its reader thread and by the player after each reply.

    Each read takes the :class:`MoveLog`'s lock and keeps the chunk before
    letting go (the move's lines, the start kept to explain a failed start,
    and the log file up to :data:`STDERR_CAP` bytes; the rest is read and
    dropped, so a bot flooding stderr never blocks): whoever finds the pipe
    empty knows that all it held is kept.
    """

    def __init__(
        self, stream: IO[bytes], path: Path | None, first: _StderrStart, moves: MoveLog
    ) -> None:
        os.set_blocking(stream.fileno(), False)
        self.stream = stream
        self.sink = open(path, "ab") if path is not None else None  # noqa: SIM115 - close()
        self.kept = 0
        self.first = first
        self.moves = moves
        #: Whether the bot has written anything to stderr yet (most bots never do).
        self.written = False

    def pump(self) -> bytes | None:
        """Read one chunk and keep it: the chunk, None when the pipe is empty, b"" at its end."""
        with self.moves.lock:
            reader: Any = self.stream  # non-blocking: read() gives None when the pipe is empty
            try:
                chunk: bytes | None = reader.read(_READ_CHUNK)
            except (OSError, ValueError):  # closed under us by stop(): nothing more to read
                return b""
            if chunk:
                self.written = True
                self.moves.feed_locked(chunk)
                self.first.feed(chunk)
                self._log(chunk)
            return chunk

    def _log(self, chunk: bytes) -> None:
        sink = self.sink
        if sink is None or self.kept >= STDERR_CAP:
            return
        part = chunk[: STDERR_CAP - self.kept]
        sink.write(part)
        self.kept += len(part)
        if self.kept >= STDERR_CAP:
            sink.write(f"\n[arena: stderr capped at {STDERR_CAP} bytes]\n".encode())
        sink.flush()

    def close(self) -> None:
        """Close the log file (under the lock: a last read may be writing to it)."""
        with self.moves.lock:
            if self.sink is not None:
                self.sink.close()
                self.sink = None


def _drain(pipe: _Stderr) -> None:
    """The reader thread: wait for bytes, read them, until every writer of the pipe is gone."""
    ready = select.poll()
    try:
        ready.register(pipe.stream.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
        while True:
            if not ready.poll(_STDERR_POLL_MS):
                continue
            chunk = pipe.pump()
            if chunk is not None and not chunk:
                break  # the end (or the pipe closed by stop())
    except (OSError, ValueError):
        pass  # the pipe was closed under us by stop(): nothing more to drain
    finally:
        pipe.close()

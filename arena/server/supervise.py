"""``arena serve``'s parent: its children started, watched, restarted, stopped together.

Each child (the web app now; the ladder and the builder join it) is a
process of its own, so a crash in one does not take the others down, and
the kernel stops each when the parent dies (``PR_SET_PDEATHSIG``), even by
``kill -9``. A child that dies is started again, said in one line; three
deaths within :data:`DEATH_WINDOW_S` seconds stop the server with exit
status 1 (a child that cannot run would otherwise restart forever).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.sandbox import as_another_uid
from arena.server.folder import ServerError

#: Deaths of children within this many seconds that stop the server.
DEATH_WINDOW_S = 60.0
DEATHS_TO_STOP = 3
#: How often the parent looks at its children.
POLL_S = 0.2
#: linux/prctl.h
_PR_SET_PDEATHSIG = 1
#: The exit status of a child that cannot go on for a reason a restart would not mend
#: (a damaged database: it said which, in one line): the server stops at once.
FATAL = 3


def _die_with_parent() -> None:
    """In the child, before it runs: the kernel sends it SIGTERM when the parent dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Child:
    """One child: what it is called in messages and the command that starts it."""

    name: str
    argv: list[str]
    keep_fds: tuple[int, ...] = ()
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # The parent runs no threads, so a preexec_fn is safe here.
        self.process = subprocess.Popen(
            self.argv,
            pass_fds=self.keep_fds,
            preexec_fn=_die_with_parent,  # noqa: PLW1509
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Supervisor:
    """The children, and the deaths seen lately."""

    children: list[Child]
    say: Callable[[str], None]
    deaths: list[float] = field(default_factory=list)
    #: Called at each look at the children (the parent's own chores: :class:`Journals`).
    tick: Callable[[], None] | None = None

    def run(self) -> int:
        """Start the children and watch them until a stop (KeyboardInterrupt goes
        through, the children stopped first) or too many deaths (1)."""
        try:
            for child in self.children:
                child.start()
            while True:
                time.sleep(POLL_S)
                self._reap_strays()
                if self.tick is not None:
                    self.tick()
                for child in self.children:
                    assert child.process is not None
                    status = child.process.poll()
                    if status is None:
                        continue
                    if status == FATAL:
                        self.say(f"the {child.name} cannot go on (its line above says why), "
                                 "so the server stops")  # fmt: skip
                        return 1
                    now = time.monotonic()
                    self.deaths = [t for t in self.deaths if now - t < DEATH_WINDOW_S] + [now]
                    if len(self.deaths) >= DEATHS_TO_STOP:
                        self.say(
                            f"the {child.name} stopped (exit status {status}): "
                            f"{DEATHS_TO_STOP} children died within {DEATH_WINDOW_S:.0f} s, "
                            "so the server stops"
                        )
                        return 1
                    self.say(f"the {child.name} stopped (exit status {status}); starting it again")
                    child.start()
        finally:
            for child in self.children:
                child.stop()

    def _reap_strays(self) -> None:
        """Reap the processes that died as this process's children but are none of its own:
        it is a child subreaper (``detect()`` made it one), so a web app whose bubblewrap
        was killed is adopted here when it dies, and would stay a zombie."""
        ours = {child.process.pid for child in self.children if child.process is not None}
        while True:
            try:
                found = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if found is None or found.si_pid in ours:  # ours: its Popen reaps it
                return
            os.waitpid(found.si_pid, 0)


def listen(host: str, port: int) -> socket.socket:
    """The web app's listening socket, opened here and handed to each web app started.

    Raises:
        ServerError: the address cannot be taken (in use, not this machine's).
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(found[0], socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(found[4])
        listening.listen(128)
    except OSError as error:
        raise ServerError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listening.set_inheritable(True)
    return listening


def web_child(
    config: Path,
    folder: Path,
    url: str,
    listening: socket.socket,
    *,
    uid: int | None = None,
    spool_mb: int = 0,
) -> Child:
    """The web app's child (:mod:`arena.server.child`); ``uid``: started as root, it
    becomes that user, the web app's own (:mod:`arena.server.webuser`), so it runs where that
    user still reaches Python, arena and the folder (:func:`as_another_uid`), its /tmp
    (where waitress spools requests' bodies) ``spool_mb`` of memory at most.

    Raises:
        SandboxError: ``own_uid``, and that cannot be arranged.
    """
    fd = listening.fileno()
    if uid is not None:  # inside, the paths are absolute (the sandbox starts at /)
        config, folder = config.resolve(), folder.resolve()
    argv = [sys.executable, "-m", "arena.server.child", "web", str(config), str(folder), url]
    argv += [str(fd), *(() if uid is None else (str(uid),))]
    if uid is not None:
        argv = as_another_uid(argv, [str(folder)], reads=[str(config)], tmp_mb=spool_mb)
    return Child("web app", argv, keep_fds=(fd,))


def builder_child(config: Path, folder: Path, url: str) -> Child:
    """The builder's child (:mod:`arena.server.builder`)."""
    argv = [sys.executable, "-m", "arena.server.child", "builder", str(config), str(folder), url]
    return Child("builder", argv)


def ladder_child(config: Path, folder: Path, url: str, jobs: int) -> Child:
    """The ladder's child (:mod:`arena.server.ladder`), its games on ``jobs`` workers."""
    argv = [sys.executable, "-m", "arena.server.child", "ladder", str(config), str(folder), url]
    return Child("ladder", [*argv, str(jobs)])


def verdicts_child(config: Path, folder: Path, url: str, jobs: int) -> Child:
    """The child that tests new versions (:mod:`arena.server.verdicts`) on ``jobs`` workers."""
    argv = [sys.executable, "-m", "arena.server.child", "verdicts", str(config), str(folder), url]
    return Child("verdicts", [*argv, str(jobs)])

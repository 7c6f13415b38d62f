"""SIGTERM and SIGHUP stop a long run the way Ctrl-C does.

A tournament stopped by a service manager (SIGTERM), by ``timeout``, or by
a closed terminal (SIGHUP) must end as cleanly as one stopped with Ctrl-C:
every finished game kept, the command to resume printed, no traceback. So
both signals raise :class:`Stopped`, a KeyboardInterrupt, in the main
thread, and the command's one Ctrl-C path handles all three. The exit
status says which signal it was, as shells do: 128 + its number (Ctrl-C
130, SIGHUP 129, SIGTERM 143).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from types import FrameType

#: The signals that stop a run like Ctrl-C.
STOPPING = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop by a signal other than SIGINT."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextmanager
def stop_like_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Stopped` (main thread only)."""
    _shield_resource_tracker()
    with _handled(STOPPING, _raise):
        yield


@contextmanager
def held_stops() -> Iterator[None]:
    """Within the block, Ctrl-C, SIGTERM and SIGHUP wait; the first one that came acts
    when the block ends, as it would have (its handler runs then).

    For a step a stop must not cut in half: a child process started, whose pid
    (needed to kill it) is known only once ``Popen`` returns. Outside the main
    thread, where handlers cannot be set, the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        pending.append(signum)

    try:
        with _handled((signal.SIGINT, *STOPPING), hold):
            yield
    finally:
        if pending:
            signal.raise_signal(pending[0])


@contextmanager
def _handled(
    signums: Iterable[int], handler: Callable[[int, FrameType | None], None]
) -> Iterator[None]:
    """Within the block, ``handler`` handles ``signums``; the previous handlers after it."""
    previous = {signum: signal.signal(signum, handler) for signum in signums}
    try:
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)


def _shield_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with SIGHUP ignored.

    The tracker is a process of the same group; it ignores SIGINT and SIGTERM
    itself but dies of a SIGHUP to the group (a closed terminal), and the
    one relaunched in its place prints tracebacks about the pool's
    semaphores. An ignored signal stays ignored across exec, so it is
    started here, once, with SIGHUP ignored.
    """
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
    finally:
        signal.signal(signal.SIGHUP, previous)


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal's number: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + (interrupt.signum if isinstance(interrupt, Stopped) else signal.SIGINT)


def ignore_interrupts() -> None:
    """For a pool worker: Ctrl-C reaches the whole terminal's process group, but only the
    coordinator should act on it (it stops the workers itself, without their tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

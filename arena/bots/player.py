"""A bot process as a player of the referee: handshake, requests, faults, restarts.

The process lives across games (one ``hello``/``ready`` per process). Lines
for the bot are queued and written together with the next request, in one
write, which keeps the per-decision cost near one pipe round trip.
"""

# arena: compiled with mypyc
from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from arena.bots.process import BotProcess
from arena.bots.sandbox import Capabilities, ResourceLimits, detect
from arena.bots.spec import BotSpec
from arena.errors import BotFault, FaultKind
from arena.protocol import BYE, Limits, decode_answer, decode_reply, encode, hello_message

JSON = dict[str, Any]
_monotonic = time.monotonic
#: Seconds a bot is given to exit by itself after ``bye``.
BYE_GRACE_S = 2.0
#: Seconds a bot is given to exit by itself after a fault, its pipes closed, before
#: SIGTERM: what it writes then (a traceback, a Python bot's broken pipe) reaches its
#: log whole, where an immediate SIGTERM cut it after its first line.
FAULT_GRACE_S = 0.3


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled or not, a class to build on
class ProcessPlayer:
    """A seat played by a bot process."""

    def __init__(
        self,
        spec: BotSpec,
        limits: Limits,
        *,
        log_dir: Path | None = None,
        sandbox: Capabilities | str | None = "detect",
        resources: Mapping[str, int] | None = None,
    ) -> None:
        """A seat for ``spec``.

        Args:
            spec: the bot.
            limits: the protocol's time limits.
            log_dir: where its stderr log goes.
            sandbox: the layers to use ("detect": all found; None: unconfined).
            resources: resource limits for this run (``--limit``); the
                bot's own ``bot.toml`` limits override them.
        """
        self.resources = (
            ResourceLimits.for_command(spec.argv)
            .merged(dict(resources or {}))
            .merged(dict(spec.limits))
        )
        self.spec = spec
        self.sandbox: Capabilities | None = detect() if sandbox == "detect" else sandbox  # type: ignore[assignment]
        self.name = spec.name
        self.description = spec.command
        self.limits = limits
        self.log_dir = log_dir
        self.process: BotProcess | None = None
        self.ready: JSON | None = None
        self.starts = 0
        #: What the bot's last answer came with: its ``info`` and the stderr lines it
        #: wrote while deciding (``log``), each only when there is one; None when neither.
        #: The referee keeps it in the replay's move.
        self.thought: JSON | None = None
        self._queue: list[bytes] = []

    # ------------------------------------------------------------------ Player interface

    def start_game(self, message: JSON, line: bytes) -> None:
        """Start the bot if it is not running (with the handshake), then queue ``game_start``.

        Raises:
            BotFault: when the bot cannot be started or fails the handshake.
        """
        if self.process is None or not self.process.running:
            self.launch()
        else:
            self.process.grant_game_cpu()
        assert self.process is not None
        self.process.move_log.new_game()
        self._queue = [line]

    def deliver(self, message: JSON, line: bytes) -> None:
        """Queue an information line; it goes out with the next request."""
        self._queue.append(line)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        """Send the queued lines and the request; return the move and the ms it took.

        Raises:
            BotFault: on a late, missing, garbled or wrongly addressed reply.
                Whether the move is legal is the referee's check.
        """
        process = self.process
        if process is None:
            raise BotFault(FaultKind.CRASH, "is not running")
        queue = self._queue
        queue.append(line)
        self._queue = []
        start = _monotonic()
        deadline = start + timeout_s
        moves = process.move_log
        process.settle(before_request=True)
        moves.clear()  # what it wrote before this request is no part of this move
        process.send(b"".join(queue), deadline)
        raw = process.read_line(deadline)
        elapsed_ms = (_monotonic() - start) * 1000.0
        move, info = decode_answer(raw, message["id"])
        process.settle()
        lines = moves.take()
        if info is None and not lines:
            self.thought = None
        else:
            self.thought = {"info": info} if info is not None else {}
            if lines:
                self.thought["log"] = lines
        return move, elapsed_ms

    def end_game(self) -> None:
        """Write what is still queued (``game_end``); a bot gone by now faults nothing."""
        if self._queue and self.process is not None and self.process.running:
            try:
                self.process.send(b"".join(self._queue), time.monotonic() + 1.0)
            except BotFault:
                self.stop()  # it will be restarted for its next game
        self._queue = []

    def abandon(self, error_line: bytes | None) -> None:
        """After a fault: tell the bot why (if it still listens), then stop it."""
        if error_line is not None and self.process is not None and self.process.running:
            # If it cannot be told, stopping it is all that is left.
            with contextlib.suppress(BotFault):
                self.process.send(error_line, time.monotonic() + 0.1)
        self._queue = []
        if self.process is not None:
            self.process.stop(grace_s=FAULT_GRACE_S)
            self.process = None

    def close(self) -> int | None:
        """End the session: send ``bye`` and let the bot exit; return its exit status."""
        process = self.process
        if process is None:
            return None
        if process.running:
            # Already unreachable: stop() below ends it.
            with contextlib.suppress(BotFault):
                process.send(encode(BYE), time.monotonic() + 0.5)
        status = process.stop(grace_s=BYE_GRACE_S)
        self.process = None
        return status

    def stop(self) -> None:
        """Stop the process at once (TERM, then KILL to its group)."""
        if self.process is not None:
            self.process.stop(grace_s=0.0)
            self.process = None

    # ------------------------------------------------------------------ starting

    def launch(self) -> None:
        """Start the bot and shake hands (``hello``/``ready``); a running one is stopped first.

        Raises:
            BotFault: when it cannot be started or fails the handshake.
        """
        self.stop()
        log_path = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            log_path = self.log_dir / f"{self.name}.stderr.log"
        process = BotProcess(
            self.spec, log_path=log_path, sandbox=self.sandbox, limits=self.resources
        )
        self.starts += 1
        process.start()
        self.process = process
        hello = hello_message(self.limits)
        deadline = time.monotonic() + self.limits.startup_ms / 1000.0
        try:
            process.send(encode(hello), deadline)
            reply = decode_reply(process.read_line(deadline), "ready")
        except BotFault as fault:
            self.stop()
            raise BotFault(fault.kind, f"handshake failed: {fault.detail}") from None
        self.ready = reply

"""``arena sandbox``: run hostile probe bots through the sandbox and see what gets out.

Each attack is observed from outside the sandbox, not taken on the probe's
word alone: a TCP listener that counts connections, a canary file outside
the scratch folder, a signal handler in this process, a search for the
orphan's marker after the bot is stopped. The probe's own report (its
``ready`` name) adds what only it can see: how much memory or how many
processes it got, whether it read /etc/shadow.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.bots.process import BotProcess
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import BotFault
from arena.protocol import Limits, decode_reply, encode, hello_message

PROBE = Path(__file__).with_name("probe.py")
ATTACKS = (
    ("net", "open a TCP connection to a listener on 127.0.0.1"),
    ("write", "write a file outside its scratch folder"),
    ("read", "read /etc/shadow"),
    ("forkbomb", "start 300 processes"),
    ("memory", "allocate 4 GiB"),
    ("orphan", "leave a setsid double-forked orphan behind"),
    ("signal", "send a signal to the referee"),
    ("capabilities", "use a root capability (chown its folder)"),
)


@dataclass(frozen=True)
class Outcome:
    """What one attack achieved."""

    attack: str
    description: str
    contained: bool
    evidence: str


def run_attacks(
    capabilities: Capabilities | None, attacks: tuple[str, ...] | None = None
) -> Iterator[Outcome]:
    """Run each attack (all by default) in a probe bot confined by ``capabilities``."""
    for name, description in ATTACKS:
        if attacks is None or name in attacks:
            yield _run(name, description, capabilities)


def _run(name: str, description: str, capabilities: Capabilities | None) -> Outcome:
    token = uuid.uuid4().hex
    listener = _Listener()
    signals: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: signals.append(number))
    canary = Path(f"/tmp/arena-canary-{token}")
    argv = (sys.executable, str(PROBE), name, token, str(listener.port), str(os.getpid()))
    spec = BotSpec(name=f"probe-{name}", argv=argv, source="probe")
    process = BotProcess(spec, sandbox=capabilities)
    report = ""
    try:
        process.start()
        deadline = time.monotonic() + 20
        process.send(encode(hello_message(Limits())), deadline)
        report = decode_reply(process.read_line(deadline), "ready")["name"]
    except BotFault as fault:
        report = f"blocked: the probe did not start or answer ({fault.detail})"
    finally:
        time.sleep(0.1)  # let a late signal or connection arrive before looking
        process.stop(grace_s=0.0)
        signal.signal(signal.SIGUSR1, previous)
        listener.close()
    orphans = _marked(token)
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)
    evidence = {
        "net": f"{listener.connections} connections reached the listener",
        "write": "the canary file exists" if canary.exists() else "no canary file",
        "signal": f"{len(signals)} signals reached the referee",
        "orphan": f"{len(orphans)} processes with the probe's marker outlived it",
    }.get(name, "")
    escaped = {
        "net": listener.connections > 0,
        "write": canary.exists(),
        "signal": bool(signals),
        "orphan": bool(orphans),
    }.get(name, report.startswith("ok:"))
    canary.unlink(missing_ok=True)
    detail = f"{evidence}; probe: {report}" if evidence else f"probe: {report}"
    return Outcome(name, description, not escaped, detail)


class _Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self._open = True
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while self._open:
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._open = False
        self._thread.join(timeout=1)
        self.server.close()


def _marked(token: str) -> list[int]:
    """Pids of live processes whose command line carries ``token``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = Path(entry.path, "cmdline").read_bytes()
            state = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if token.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found

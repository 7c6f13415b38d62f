"""A hostile bot for the sandbox self-test: it attacks once, then plays along.

Usage: probe.py ATTACK TOKEN [PORT] [REFEREE_PID]. The attack runs when the
referee says hello; the bot then answers ``ready`` with a name that reports
what the attack achieved (``"ok: ..."`` or ``"blocked: ..."``), so the
self-test can see from outside what got through; each move's ``info`` says it
again (for a competition server's owner, who reads it in the replay). Standard
library only.
"""

import json
import os
import signal
import socket
import sys
import time

FORKS = 300


def attack(kind: str, token: str, port: int, referee: int) -> str:
    if kind == "net":
        with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
            conn.sendall(token.encode())
        return "connected"
    if kind == "write":
        with open(f"/tmp/arena-canary-{token}", "w") as canary:
            canary.write(token)
        return "wrote the canary"
    if kind == "read":
        with open("/etc/shadow", "rb") as secret:
            return f"read {len(secret.read())} bytes"
    if kind == "forkbomb":
        made = 0
        for _ in range(FORKS):
            try:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
            except OSError:
                break
            made += 1
        if made < FORKS:
            raise OSError(f"only {made} forks")
        return f"forked {made}"
    if kind == "memory":
        block = bytearray(4 << 30)
        return f"allocated {len(block) >> 30} GiB"
    if kind == "orphan":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(
                    sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", token]
                )
            os._exit(0)
        os.wait()
        return "left an orphan"
    if kind == "capabilities":
        with open("/proc/self/status") as status:
            effective = next(line for line in status if line.startswith("CapEff:")).split()[1]
        if int(effective, 16) == 0:
            raise PermissionError("no capabilities")
        os.chown(".", 12345, 12345)  # CAP_CHOWN: harmless, on its own scratch folder
        return f"holds capabilities {effective} and used CAP_CHOWN"
    if kind == "signal":
        os.kill(referee, signal.SIGUSR1)
        return "signalled the referee"
    raise ValueError(kind)


def main() -> None:
    kind, token = sys.argv[1], sys.argv[2]
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    referee = int(sys.argv[4]) if len(sys.argv) > 4 else os.getppid()
    outcome = ""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            try:
                outcome = "ok: " + attack(kind, token, port, referee)
            except (OSError, MemoryError, ValueError) as error:
                outcome = f"blocked: {type(error).__name__}: {error}"
            print(json.dumps({"type": "ready", "name": outcome[:200]}), flush=True)
        elif message["type"] == "request":
            # The outcome again, for whoever reads the game's replay (a server's owner).
            reply = {"type": "move", "id": message["id"], "move": message["legal"][0],
                     "info": {"outcome": outcome}}  # fmt: skip
            print(json.dumps(reply), flush=True)
        elif message["type"] == "bye":
            return


main()

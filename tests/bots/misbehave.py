"""A bot that misbehaves in one chosen way, for the runner's tests.

Usage: misbehave.py MODE MARKER. MARKER only tags the process (and its
children) so that tests can look for leftovers in /proc; but for ``startsonce``
it is a file: the bot starts once (and makes it), as it does when arena checks
the field before a run, then never again (a bot that breaks during a run).
"""

import json
import os
import signal
import subprocess
import sys
import time


def send(obj: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if mode == "slowstart" or (mode == "startsonce" and os.path.exists(sys.argv[2])):
        time.sleep(30)
    if mode == "startsonce":
        open(sys.argv[2], "w").close()
    if mode == "ignoreterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "child":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", sys.argv[2]])
    requests = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if mode == "hog":  # plays only where a memory limit stops this allocation
                try:
                    bytearray(200 << 20)
                except MemoryError:
                    pass
                else:
                    sys.exit(3)
            send({"type": "ready", "name": mode})
            if mode == "closestdout":
                os.close(1)
                time.sleep(60)
            continue
        if kind == "bye":
            if mode in ("slowbye", "lingers"):  # within the 2 s grace after bye, or beyond it
                time.sleep(1.0 if mode == "slowbye" else 5.0)
            return
        if kind != "request":
            continue
        requests += 1
        legal = message["legal"]
        if mode in ("hang", "ignoreterm"):
            time.sleep(60)
        elif mode in ("crash", "child"):
            sys.exit(3)
        elif mode == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
        elif mode == "hugeline":
            chunk = "x" * (1 << 20)
            for _ in range(100):
                sys.stdout.write(chunk)
            sys.stdout.flush()
            time.sleep(60)
        elif mode == "illegal":
            wrong = next(
                card
                for card in (r + s for r in "23456789TJQKA" for s in "CHDS")
                if card not in legal
            )
            send({"type": "move", "id": message["id"], "move": wrong})
        elif mode == "wrongid":
            send({"type": "move", "id": message["id"] + 1000, "move": legal[0]})
        elif mode == "stderrflood":
            sys.stderr.write("noise " * 200_000 + "\n")
            sys.stderr.flush()
            send({"type": "move", "id": message["id"], "move": legal[0]})
        elif mode == "lateonce" and requests == 3:
            time.sleep(0.4)
            send({"type": "move", "id": message["id"], "move": legal[0]})
        else:
            send({"type": "move", "id": message["id"], "move": legal[0]})


main()

"""A deterministic bot that writes every line it receives to a file (its first argument).

Always the first legal move, after a short sleep (``SLEEP`` seconds, 3 ms:
over a 1 ms move limit it draws on its bank), so a test can compare what
two sessions were sent, byte for byte.
"""

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy reads the tests as packages
    from tests.bots.botloop import Message, serve
else:  # run as a script, beside botloop.py (a sandboxed bot reads only its own folder)
    from botloop import Message, serve

SLEEP = 0.003


def answer(request: Message) -> Message:
    time.sleep(SLEEP)
    return {"type": "move", "id": request["id"], "move": request["legal"][0]}


def main() -> None:
    with open(sys.argv[1], "a", encoding="utf-8") as log:

        def seen(line: str) -> None:
            log.write(line)
            log.flush()

        serve(answer, "recorder", seen)


if __name__ == "__main__":
    main()

"""A bot that thinks for a while at its first few requests, then answers at once.

Usage: slow.py SECONDS COUNT: sleep SECONDS before each of the first COUNT
answers (a person's Ctrl-C can land while it thinks), then play on fast.
Always the first legal move. Each time it starts thinking it says so on stderr.
"""

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy reads the tests as packages
    from tests.bots.botloop import Message, serve
else:  # run as a script, beside botloop.py (a sandboxed bot reads only its own folder)
    from botloop import Message, serve


def main() -> None:
    seconds, count = float(sys.argv[1]), int(sys.argv[2])
    answered = 0

    def answer(request: Message) -> Message:
        nonlocal answered
        if answered < count:  # said first, so a test can wait for it (arena play --logs)
            print(f"thinking {answered + 1}", file=sys.stderr, flush=True)
            time.sleep(seconds)
        answered += 1
        return {"type": "move", "id": request["id"], "move": request["legal"][0]}

    serve(answer, "slow")


if __name__ == "__main__":
    main()

"""A bot that thinks for a while at its first few requests, then answers at once.

Usage: slow.py SECONDS COUNT: sleep SECONDS before each of the first COUNT
answers (a person's Ctrl-C can land while it thinks), then play on fast.
Always the first legal move.
"""

import json
import sys
import time


def main() -> None:
    seconds, count = float(sys.argv[1]), int(sys.argv[2])
    answered = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
        elif message["type"] == "bye":
            return
        elif message["type"] == "request":
            if answered < count:
                time.sleep(seconds)
            answered += 1
            reply = {"type": "move", "id": message["id"], "move": message["legal"][0]}
            print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

"""A random bot that does NOT seed itself from the game id and seat: asked again, it differs."""

import json
import random
import sys

RNG = random.SystemRandom()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "unseeded"}), flush=True)
        elif message["type"] == "bye":
            return
        elif message["type"] == "request":
            move = RNG.choice(message["legal"])
            print(json.dumps({"type": "move", "id": message["id"], "move": move}), flush=True)


if __name__ == "__main__":
    main()

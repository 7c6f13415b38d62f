"""A deterministic bot that writes every line it receives to a file (its first argument).

Always the first legal move, after a short sleep (``SLEEP`` seconds, 3 ms:
over a 1 ms move limit it draws on its bank), so a test can compare what
two sessions were sent, byte for byte.
"""

import json
import sys
import time

SLEEP = 0.003


def main() -> None:
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
            message = json.loads(line)
            if message["type"] == "hello":
                print(json.dumps({"type": "ready", "name": "recorder"}), flush=True)
            elif message["type"] == "bye":
                return
            elif message["type"] == "request":
                time.sleep(SLEEP)
                reply = {"type": "move", "id": message["id"], "move": message["legal"][0]}
                print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

"""A bot that says what it was thinking: each answer's ``info`` has a size chosen by turn.

Its first legal move every time; the n-th request's info (n from 1, per
process) is, by n: 1 none, 2 a string whose compact JSON is exactly 4096
bytes, 3 one of 4097 bytes, 4 an info filling the answer's line to exactly
the line limit (1 MiB, the newline not counted), 5 ``null``, then
``{"n": n, "line": [...]}``. With ``stderr`` as its argument it also writes
two lines to stderr before each answer, one of them holding ``</script>``;
with ``flood``, a hundred lines of a hundred characters before each.
"""

import json
import sys

MAX_LINE = 1 << 20


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def main() -> None:
    chatty = sys.argv[1:] == ["stderr"]
    flood = sys.argv[1:] == ["flood"]
    requests = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(compact({"type": "ready", "name": "thinking"}), flush=True)
        elif kind == "bye":
            return
        elif kind == "request":
            requests += 1
            answer: dict[str, object] = {
                "type": "move",
                "id": message["id"],
                "move": message["legal"][0],
            }
            if requests == 2:
                answer["info"] = "x" * 4094
            elif requests == 3:
                answer["info"] = "x" * 4095
            elif requests == 4:
                answer["info"] = ""
                answer["info"] = "x" * (MAX_LINE - len(compact(answer)))
            elif requests == 5:
                answer["info"] = None
            elif requests > 5:
                answer["info"] = {"n": requests, "line": message["legal"][:2]}
            if chatty:
                print(f"request {requests}: thinking about {message['legal']}", file=sys.stderr)
                print(f"</script><b>{requests}</b>", file=sys.stderr, flush=True)
            if flood:
                for line in range(100):
                    print(f"{requests:04d}/{line:02d} " + "z" * 92, file=sys.stderr)
                sys.stderr.flush()
            print(compact(answer), flush=True)


if __name__ == "__main__":
    main()

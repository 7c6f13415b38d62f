"""A bot that says what it was thinking: each answer's ``info`` has a size chosen by turn.

Its first legal move every time; the n-th request's info (n from 1, per
process) is, by n: 1 none, 2 a string whose compact JSON is exactly 4096
bytes, 3 one of 4097 bytes, 4 an info filling the answer's line to exactly
the line limit (1 MiB, the newline not counted), 5 ``null``, then
``{"n": n, "line": [...]}``. With ``stderr`` as its argument it also writes
two lines to stderr before each answer, one of them holding ``</script>``;
with ``flood``, a hundred lines of a hundred characters before each.
"""

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy reads the tests as packages
    from tests.bots.botloop import Message, compact, serve
else:  # run as a script, beside botloop.py (a sandboxed bot reads only its own folder)
    from botloop import Message, compact, serve

MAX_LINE = 1 << 20


def main() -> None:
    chatty = sys.argv[1:] == ["stderr"]
    flood = sys.argv[1:] == ["flood"]
    requests = 0

    def answer(request: Message) -> Message:
        nonlocal requests
        requests += 1
        reply: Message = {"type": "move", "id": request["id"], "move": request["legal"][0]}
        if requests == 2:
            reply["info"] = "x" * 4094
        elif requests == 3:
            reply["info"] = "x" * 4095
        elif requests == 4:
            reply["info"] = ""
            reply["info"] = "x" * (MAX_LINE - len(compact(reply)))
        elif requests == 5:
            reply["info"] = None
        elif requests > 5:
            reply["info"] = {"n": requests, "line": request["legal"][:2]}
        if chatty:
            print(f"request {requests}: thinking about {request['legal']}", file=sys.stderr)
            print(f"</script><b>{requests}</b>", file=sys.stderr, flush=True)
        if flood:
            for line in range(100):
                print(f"{requests:04d}/{line:02d} " + "z" * 92, file=sys.stderr)
            sys.stderr.flush()
        return reply

    serve(answer, "thinking")


if __name__ == "__main__":
    main()

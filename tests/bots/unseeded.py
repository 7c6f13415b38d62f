"""A random bot that does NOT seed itself from the game id and seat: asked again, it differs."""

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy reads the tests as packages
    from tests.bots.botloop import Message, serve
else:  # run as a script, beside botloop.py (a sandboxed bot reads only its own folder)
    from botloop import Message, serve

RNG = random.SystemRandom()


def answer(request: Message) -> Message:
    return {"type": "move", "id": request["id"], "move": RNG.choice(request["legal"])}


if __name__ == "__main__":
    serve(answer, "unseeded")

"""The round-trip fixture of the starter kits: ``protocol/examples/roundtrip.jsonl``.

Every starter kit parses each line of it into its typed model and prints it
back (``--roundtrip``); ``tests/test_kits.py`` requires the same JSON back,
which shows a kit's model holds every field of protocol v1, not only
compiles. The file is made here, and a test requires it to be current:

- every example message of the guide (protocol/README.md), its transcript
  included, but for those that show a field outside the protocol (the
  guide's move with a ``comment``: a kit ignores unknown fields);
- one seat's whole session of a recorded 5-seat game under every option
  that makes dogs, blind dogs, face-up dog cards, declarations and cuts:
  ``hello``, its ``ready``, every message of the game and every reply (a
  move with ``info`` among them), ``bye``. The seed is the first whose
  session shows all of them.

    .venv/bin/python -m tests.kit_fixture      # rewrite the file
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from arena.game import Rules
from arena.players import ScriptedPlayer
from arena.protocol import Limits, hello_message, load_schema
from arena.referee import play_game
from tests.test_guide import blocks, json_examples

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "protocol" / "examples" / "roundtrip.jsonl"
#: The options in force for the recorded game.
RULES = Rules(players=5, blind_dog=True, upside_dog=True, rainbow=True, no_picture=True)
#: What the recorded session must show (a line's type, and an event's kind, or a state field).
WANTED = (
    "knock",
    "declare",
    "cut",
    "blind_state",
    "dog_cards",
    "knocked_state",
    "history_knock",
)


def _known(message: JSON) -> bool:
    """Whether every top-level field of ``message`` is one its schema names."""
    schema = "bot_to_referee" if message["type"] in ("ready", "move") else "referee_to_bot"
    name = message["type"]
    if name == "event":
        name = f"event_{message['event']}"
    definition = load_schema(schema)["definitions"][name]
    return set(message) <= set(definition["properties"])


def guide_messages() -> list[JSON]:
    """The guide's example messages, as the kits must round-trip them."""
    messages = [
        json.loads(line)
        for schema, line in json_examples()
        if schema in ("referee_to_bot", "bot_to_referee")  # not the replay's lines
    ]
    [transcript] = blocks("text transcript")
    messages += [json.loads(line[4:]) for line in transcript.splitlines() if line.strip()]
    return [message for message in messages if _known(message)]


def _shows(session: list[JSON]) -> set[str]:
    found: set[str] = set()
    for message in session:
        if message["type"] == "event":
            found.add(message["event"])
        if message["type"] == "request":
            state = message["state"]
            if state["blind"]:
                found.add("blind_state")
            if "dog_cards" in state:
                found.add("dog_cards")
            if state["knocked"]:
                found.add("knocked_state")
            if any(move == "knock" for t in state["history"] for _, move in t["moves"]):
                found.add("history_knock")
    return found


def recorded_session(seed: int) -> list[JSON]:
    """Seat 0's session of game ``seed``: what it was sent and what it answered."""
    rng = random.Random(seed)
    session: list[JSON] = []

    def choose(request: JSON) -> str:
        move: str = rng.choice(request["legal"])
        reply: JSON = {"type": "move", "id": request["id"], "move": move}
        if request["id"] % 7 == 0:
            reply["info"] = {"line": [move], "value": round(rng.random(), 3), "note": None}
        session.append(reply)
        return move

    players = [ScriptedPlayer("kit", choose)]
    players += [
        ScriptedPlayer(f"r{seat}", lambda request: rng.choice(request["legal"]))
        for seat in range(1, RULES.players)
    ]
    limits = Limits()
    play_game(players, RULES, seed=seed, game_id=f"kit{seed}", limits=limits)
    # The seat's received messages and its replies, interleaved as they happened.
    replies = iter(session)
    lines: list[JSON] = [
        hello_message(limits),
        {"type": "ready", "name": "kit", "version": "1.0", "author": "arena"},
    ]
    for message in players[0].received:
        lines.append(message)
        if message["type"] == "request":
            lines.append(next(replies))
    return [*lines, {"type": "bye"}]


def fixture_lines() -> list[str]:
    """The fixture's lines: the guide's messages, then the first seed's session showing all."""
    for seed in range(500):
        session = recorded_session(seed)
        if _shows(session) >= set(WANTED):
            break
    else:
        raise AssertionError(f"no seed below 500 shows all of {WANTED}")
    return [json.dumps(message) for message in [*guide_messages(), *session]]


def main() -> None:
    """Rewrite the fixture."""
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text("".join(line + "\n" for line in fixture_lines()), encoding="utf-8")
    print(f"{FIXTURE}: {len(fixture_lines())} lines")


if __name__ == "__main__":
    main()

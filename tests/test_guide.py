"""The bot author's guide (protocol/README.md): every example is valid, its bot plays.

The guide states its own convention at the top: ``json <schema>`` blocks hold
one message per line, ``text transcript`` blocks prefix each line with
``ref `` or ``bot ``, and the ``python bot`` block is a complete bot.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from arena.bots.player import ProcessPlayer
from arena.bots.spec import parse_bot
from arena.game import Rules
from arena.players import RandomPlayer
from arena.protocol import Limits, full_validator
from arena.referee import play_game

GUIDE = Path(__file__).resolve().parent.parent / "protocol" / "README.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.M | re.S)


def blocks(info: str) -> list[str]:
    """The bodies of fenced blocks whose info string starts with ``info``."""
    text = GUIDE.read_text(encoding="utf-8")
    return [body for tag, body in FENCE.findall(text) if tag.strip().startswith(info)]


def json_examples() -> list[tuple[str, str]]:
    text = GUIDE.read_text(encoding="utf-8")
    found: list[tuple[str, str]] = []
    for tag, body in FENCE.findall(text):
        parts = tag.split()
        if parts[:1] == ["json"]:
            assert len(parts) == 2, f"a json block must name its schema: ```{tag}"
            found.extend((parts[1], line) for line in body.splitlines() if line.strip())
    return found


def test_the_guide_has_examples_of_every_message() -> None:
    seen = {(schema, json.loads(line)["type"]) for schema, line in json_examples()}
    for kind in ("hello", "game_start", "hand_start", "event", "request", "error"):
        assert ("referee_to_bot", kind) in seen, kind
    for kind in ("hand_end", "game_end", "bye"):
        assert ("referee_to_bot", kind) in seen, kind
    assert ("bot_to_referee", "ready") in seen
    assert ("bot_to_referee", "move") in seen


@pytest.mark.parametrize(("schema", "line"), json_examples())
def test_every_json_example_is_valid(schema: str, line: str) -> None:
    message = json.loads(line)
    errors = list(full_validator(schema).iter_errors(message))
    assert not errors, errors[0].message


def test_the_transcript_is_a_complete_valid_session() -> None:
    [transcript] = blocks("text transcript")
    lines = [line for line in transcript.splitlines() if line.strip()]
    assert lines[0].startswith("ref ") and json.loads(lines[0][4:])["type"] == "hello"
    assert json.loads(lines[-1][4:])["type"] == "bye"
    pending_id = None
    for line in lines:
        tag, message = line[:4], json.loads(line[4:])
        schema = {"ref ": "referee_to_bot", "bot ": "bot_to_referee"}[tag]
        errors = list(full_validator(schema).iter_errors(message))
        assert not errors, (line, errors[0].message)
        if message["type"] == "request":
            pending_id = message["id"]
            legal = message["legal"]
        elif message["type"] == "move":
            assert message["id"] == pending_id, "a move answers the request before it"
            assert message["move"] in legal
            pending_id = None


def test_the_guides_python_bot_plays_real_games(tmp_path: Path) -> None:
    [source] = blocks("python bot")
    script = tmp_path / "guide_bot.py"
    script.write_text(source)
    limits = Limits(startup_ms=5000, move_ms=2000, bank_ms=5000)
    bot = ProcessPlayer(parse_bot(f"guide={sys.executable} {script}"), limits)
    try:
        for game, rules in enumerate([Rules(), Rules(players=3, blind_dog=True, rainbow=True)]):
            others = [RandomPlayer(f"r{s}") for s in range(1, rules.players)]
            result = play_game(
                [bot, *others], rules, seed=game, game_id=f"guide-{game}", limits=limits
            )
            assert result.faults == {}, result.faults
    finally:
        assert bot.close() == 0

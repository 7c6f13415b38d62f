"""What a bot was thinking: a move's optional ``info``, kept in the replay and shown.

Real bot processes (``tests/bots/thinking.py``) send infos of chosen sizes:
none, exactly 4,096 bytes of compact JSON, 4,097, one filling the line to
the 1 MiB limit, ``null``, then small objects.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.bots.player import ProcessPlayer
from arena.bots.spec import parse_bot
from arena.game import Rules
from arena.players import RandomPlayer
from arena.protocol import (
    MAX_INFO_BYTES,
    MAX_LINE_BYTES,
    Limits,
    decode_answer,
    full_validator,
)
from arena.referee import play_game
from arena.report.narrate import narrate
from tests.test_tournament import run_cli

ROOT = Path(__file__).resolve().parent.parent
THINKING = ROOT / "tests" / "bots" / "thinking.py"
JSON = dict[str, Any]
sys.path.insert(0, str(ROOT / "sample_bots" / "python"))
import arena_bot  # noqa: E402 - the sample bots' helper, beside them


def thinking_game(tmp_path: Path, *args: str) -> list[JSON]:
    """A 2-seat game of the thinking bot (seat 0) against a random player: its replay."""
    spec = parse_bot(f"thinking={sys.executable} {THINKING} {' '.join(args)}".strip())
    player = ProcessPlayer(spec, Limits(), sandbox=None)
    try:
        result = play_game([player, RandomPlayer("r")], Rules(players=2), seed=4, game_id="t")
    finally:
        player.close()
    assert not result.faults
    return [json.loads(line) for line in result.lines]


def test_a_moves_info_is_kept_whole_up_to_4096_bytes_then_as_its_size(tmp_path: Path) -> None:
    records = thinking_game(tmp_path)
    moves = [record for record in records if record["type"] == "move" and record["seat"] == 0]
    assert len(moves) >= 7
    assert "info" not in moves[0]
    assert moves[1]["info"] == "x" * 4094  # 4,096 bytes with its quotes: kept as sent
    assert len(json.dumps(moves[1]["info"])) == MAX_INFO_BYTES
    assert moves[2]["info"] == {"truncated": True, "bytes": MAX_INFO_BYTES + 1}
    # A reply exactly at the line limit is a reply: its info is kept as its size.
    line = {"type": "move", "id": 0, "move": moves[3]["move"], "info": ""}
    size = MAX_LINE_BYTES - len(json.dumps(line, separators=(",", ":"))) + 2
    assert moves[3]["info"]["truncated"] is True
    assert abs(moves[3]["info"]["bytes"] - size) <= 8  # the request id's digits
    assert "info" not in moves[4]  # null: no info
    assert moves[5]["info"]["n"] == 6
    validate = full_validator("replay_line")
    for record in records:
        validate.validate(record)


@pytest.mark.parametrize(
    ("line", "info"),
    [
        (b'{"type":"move","id":3,"move":"2C"}', None),
        (b'{"type":"move","id":3,"move":"2C","info":{"win":0.5}}', {"win": 0.5}),
        (b'{"type":"move","id":3,"move":"2C","info":[1,"a",null]}', [1, "a", None]),
        (b'{"type":"move","id":3,"move":"2C","info":null}', None),
        (b'{"type":"move","id":3,"move":"2C","info":"' + b"y" * 5000 + b'"}', "truncated"),
    ],
)
def test_decoding_an_answer_gives_its_move_and_info(line: bytes, info: Any) -> None:
    move, kept = decode_answer(line, 3)
    assert move == "2C"
    if info == "truncated":
        assert kept == {"truncated": True, "bytes": 5002}
    else:
        assert kept == info


def test_the_narration_shows_each_moves_info_under_its_trick(tmp_path: Path) -> None:
    records = thinking_game(tmp_path)
    lines = list(narrate(records[1:], ["thinking", "r"]))
    shown = [line for line in lines if line.startswith("    thinking (")]
    assert shown and all(len(line) < 200 for line in shown)
    first = next(i for i, line in enumerate(lines) if line.startswith("    thinking ("))
    assert lines[first - 1].startswith("  Trick "), "under the line that narrates the move"
    assert '"truncated":true' in "\n".join(shown)


def test_arena_replay_prints_the_info(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    bot = f"{sys.executable} {THINKING}"
    code, output = run_cli(
        "play", bot, bot, "--seed", "2", "--replay", str(path), "--no-sandbox", "--quiet"
    )
    assert code == 0, output
    code, output = run_cli("replay", str(path))
    assert code == 0, output
    assert '{"n":6,"line":' in output


def helper_session(choose: Any, legal: list[str]) -> tuple[JSON, str]:
    """One request answered by ``arena_bot.run``: the reply, and what it logged."""
    lines = [
        {"type": "hello", "protocol": 1, "limits": {}},
        {"type": "request", "id": 7, "action": "play", "legal": legal, "state": {}},
        {"type": "bye"},
    ]
    stdin = io.BytesIO(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    stdout = io.BytesIO()
    errors = io.StringIO()
    real = sys.stderr
    sys.stderr = errors
    try:
        arena_bot.run(choose, name="t", stdin=stdin, stdout=stdout)
    finally:
        sys.stderr = real
    reply = json.loads(stdout.getvalue().splitlines()[1])
    return reply, errors.getvalue()


def test_the_python_helper_sends_info_returned_with_the_move() -> None:
    reply, logged = helper_session(lambda state, legal: (legal[1], {"why": "second"}), ["a", "b"])
    assert reply == {"type": "move", "id": 7, "move": "b", "info": {"why": "second"}}
    reply, logged = helper_session(lambda state, legal: legal[0], ["a", "b"])
    assert reply == {"type": "move", "id": 7, "move": "a"}
    reply, logged = helper_session(lambda state, legal: (legal[0], {1, 2}), ["a", "b"])
    assert reply == {"type": "move", "id": 7, "move": "a"} and "info is not JSON" in logged

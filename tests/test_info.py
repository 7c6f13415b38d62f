"""What a bot was thinking: a move's optional ``info``, kept in the replay and shown.

Real bot processes (``tests/bots/thinking.py``) send infos of chosen sizes:
none, exactly 4,096 bytes of compact JSON, 4,097, one filling the line to
the 1 MiB limit, ``null``, then small objects.
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.bots.movelog import GAME_CHARS, LINE_CHARS, MoveLog
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
from arena.report import tournament_report
from arena.report.narrate import narrate
from arena.report.tournament_report import log_chars, without_logs
from arena.samples import arena_bot
from tests.test_tournament import C_BOT, run_cli

ROOT = Path(__file__).resolve().parent.parent
THINKING = ROOT / "tests" / "bots" / "thinking.py"
JSON = dict[str, Any]


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
    # NaN is no JSON number: sent, the whole reply would be malformed and forfeit the game.
    reply, logged = helper_session(lambda state, legal: (legal[0], {"win": math.nan}), ["a"])
    assert reply == {"type": "move", "id": 7, "move": "a"} and "info is not JSON" in logged


def test_an_info_nested_too_deep_to_write_again_is_kept_as_its_size() -> None:
    """orjson reads 1,024 levels but writes 254: such an info is kept as its line's size."""
    line = b'{"type":"move","id":3,"move":"2C","info":' + b"[" * 300 + b"]" * 300 + b"}"
    move, kept = decode_answer(line, 3)
    assert move == "2C" and kept == {"truncated": True, "bytes": len(line)}


def test_a_moves_stderr_lines_are_kept_with_it(tmp_path: Path) -> None:
    """The lines a bot wrote while deciding a move, and no other move's, go with it."""
    records = thinking_game(tmp_path, "stderr")
    moves = [record for record in records if record["type"] == "move" and record["seat"] == 0]
    for number, move in enumerate(moves, 1):
        assert move["log"][0].startswith(f"request {number}: thinking about ["), move["log"]
        assert move["log"][1:] == [f"</script><b>{number}</b>"]
    assert all("log" not in record for record in records if record.get("seat") == 1)
    validate = full_validator("replay_line")
    for record in records:
        validate.validate(record)


def test_stderr_lines_are_capped_per_line_and_per_game(tmp_path: Path) -> None:
    records = thinking_game(tmp_path, "flood")
    logs = [r["log"] for r in records if r["type"] == "move" and r["seat"] == 0 and "log" in r]
    kept = [line for log in logs for line in log]
    assert logs[0] == [f"0001/{n:02d} " + "z" * 92 for n in range(100)]
    capped = [line for line in kept if line.startswith("[arena: stderr lines kept with moves")]
    assert len(capped) == 1, "the cap is said once"
    assert sum(len(line) for line in kept if line not in capped) <= GAME_CHARS
    # Each later move of the game has nothing more: the game's share is spent.
    assert kept[-1] == capped[0]
    line = MoveLog()
    line.feed(b"x" * 3000)
    line.feed(b"y" * 10 + b"\nend")
    first, last = line.take()
    assert first == "x" * LINE_CHARS + "... [3010 bytes]" and last == "end"


def test_a_report_carries_the_stderr_lines_up_to_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game keeps its lines in its replay file, also one a Dask worker played; the
    report embeds them up to its cap, then replays without them, and says so."""
    thinking = f"thinking={sys.executable} {THINKING} stderr"
    folder = tmp_path / "t"
    code, output = run_cli(
        "tournament", "--bot", thinking, "--bot", f"c={C_BOT}", "--players", "2", "--deals", "2",
        "--seed", "3", "--out", str(folder), "--quiet", "--no-sandbox",
    )  # fmt: skip
    assert code == 0, output
    replays = sorted((folder / "replays").glob("*.jsonl"))
    assert len(replays) == 4
    sizes = [log_chars(path.read_text()) for path in replays]
    assert all(sizes)
    monkeypatch.setattr(tournament_report, "REPORT_LOG_CHARS", sizes[0] + sizes[1])
    code, output = run_cli("report", str(folder))
    assert code == 0, output
    left_out = re.search(r"stderr lines are left out of (\d) games' replays here", output)
    assert left_out is not None and 1 <= int(left_out[1]) <= 3, output
    assert "log" not in json.loads(without_logs(replays[0].read_text()).splitlines()[3])

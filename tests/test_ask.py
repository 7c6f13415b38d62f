"""``arena replay --ask``: recorded positions put to a bot again, with real bot processes."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.test_tournament import C_BOT, run_cli

ROOT = Path(__file__).resolve().parent.parent
PY = ROOT / "arena" / "samples"
GREEDY = f"{sys.executable} {PY / 'greedy_bot.py'}"
RANDOM = f"{sys.executable} {PY / 'random_bot.py'}"
UNSEEDED = f"{sys.executable} {ROOT / 'tests/bots/unseeded.py'}"
ILLEGAL = f"{sys.executable} {ROOT / 'tests/bots/misbehave.py'} illegal ask"


def record(tmp_path: Path, *bots: str, seed: int = 5, rules: tuple[str, ...] = ()) -> Path:
    path = tmp_path / f"game-{seed}.jsonl"
    options = [arg for rule in rules for arg in ("--rule", rule)]
    code, output = run_cli(
        "play", *bots, "--seed", str(seed), "--replay", str(path), "--quiet", "--no-sandbox",
        *options,
    )  # fmt: skip
    assert code == 0, output
    return path


def ask(path: Path, bot: str, seat: int, *more: str) -> tuple[int, str]:
    return run_cli("replay", str(path), "--ask", bot, "--seat", str(seat), "--no-sandbox", *more)


def last_line(output: str) -> tuple[int, int]:
    found = re.fullmatch(r"(\d+) of (\d+) moves differ", output.strip().splitlines()[-1])
    assert found, output
    return int(found[1]), int(found[2])


@pytest.mark.parametrize("rules", [(), ("blind_dog=true", "rainbow=true", "upside_dog=true")])
def test_deterministic_bots_asked_again_answer_every_recorded_move(
    tmp_path: Path, rules: tuple[str, ...]
) -> None:
    path = record(tmp_path, f"g={GREEDY}", f"r={RANDOM}", f"c={C_BOT}", rules=rules)
    moves = [json.loads(line) for line in path.read_text().splitlines()]
    for seat, bot in ((0, GREEDY), (1, RANDOM), (2, C_BOT)):
        code, output = ask(path, bot, seat)
        assert code == 0, output
        differ, asked = last_line(output)
        expected = sum(1 for m in moves if m["type"] == "move" and m["seat"] == seat)
        assert (differ, asked) == (0, expected), output


def test_a_bot_that_does_not_seed_from_the_game_differs(tmp_path: Path) -> None:
    path = record(tmp_path, f"u={UNSEEDED}", f"c={C_BOT}", seed=8)
    code, output = ask(path, UNSEEDED, 0)
    assert code == 0, output
    differ, asked = last_line(output)
    assert 0 < differ <= asked
    listed = [line for line in output.splitlines() if line.startswith("  decision ")]
    assert len(listed) == differ and all("recorded " in line for line in listed)


def test_one_decision_shows_the_answer_and_its_info(tmp_path: Path) -> None:
    thinking = f"{sys.executable} {ROOT / 'tests/bots/thinking.py'}"
    path = record(tmp_path, f"t={thinking}", f"c={C_BOT}", seed=4)
    code, output = ask(path, thinking, 0, "--at", "6")
    assert code == 0, output
    assert "decision 6 (hand 1, play): recorded " in output and "(the same)" in output
    assert '      info: {"n":6,"line":' in output
    assert last_line(output) == (0, 1)


def test_the_decision_a_seat_faulted_at_is_asked_and_none_after(tmp_path: Path) -> None:
    """The illegal bot faulted at its first request: the greedy bot answers it legally (a
    difference), the illegal bot again illegally (the same fault), and nothing after it
    is asked; the other seats replay the faulted seat's fallbacks as recorded."""
    path = record(tmp_path, f"g={GREEDY}", f"x={ILLEGAL}", f"c={C_BOT}", seed=3)
    code, output = ask(path, GREEDY, 1)
    assert code == 0 and last_line(output) == (1, 1), output
    assert "  decision 1 (hand 1, play): recorded a fault (illegal: " in output
    code, output = ask(path, ILLEGAL, 1, "--at", "1")
    assert code == 0 and last_line(output) == (0, 1), output
    assert "misbehave a fault (illegal: " in output and "(the same)" in output
    code, output = ask(path, GREEDY, 0)
    assert code == 0 and last_line(output)[0] == 0, output


def test_a_results_folders_game_can_be_asked(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    code, output = run_cli(
        "tournament", "--bot", f"g={GREEDY}", "--bot", f"c={C_BOT}", "--players", "2",
        "--deals", "1", "--seed", "2", "--out", str(folder), "--quiet", "--no-sandbox",
    )  # fmt: skip
    assert code == 0, output
    game = sorted((folder / "replays").glob("*.jsonl"))[0].stem
    header = json.loads((folder / "replays" / f"{game}.jsonl").read_text().splitlines()[0])
    seat = next(p["seat"] for p in header["players"] if p["name"] == "g")
    code, output = run_cli("replay", str(folder), "--game", game, "--ask", GREEDY, "--seat",
                           str(seat), "--no-sandbox")  # fmt: skip
    assert code == 0 and last_line(output)[0] == 0, output


def test_bad_asks_are_one_line(tmp_path: Path) -> None:
    path = record(tmp_path, f"g={GREEDY}", f"c={C_BOT}", seed=1)
    lines = path.read_text().splitlines()
    other = tmp_path / "other.jsonl"
    header = json.loads(lines[0])
    other.write_text("\n".join([json.dumps({**header, "protocol": 2}), *lines[1:]]) + "\n")
    edited = tmp_path / "edited.jsonl"
    first_move = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    move = json.loads(lines[first_move])
    wrong = next(card for card in ("2C", "3C", "4C") if card != move["move"])
    lines[first_move] = json.dumps({**move, "move": wrong})
    edited.write_text("\n".join(lines) + "\n")
    for args, status, message in [
        ([str(path), "--ask", GREEDY, "--seat", "5"], 1, "--seat 5: the game has seats 0 to 1"),
        ([str(path), "--ask", GREEDY, "--seat", "0", "--at", "400"], 1, "--at 400: seat 0 (g)"),
        ([str(other), "--ask", GREEDY, "--seat", "0"], 1, "this replay is of protocol 2"),
        ([str(edited), "--ask", GREEDY, "--seat", "0"], 1, "does not fit the position"),
        ([str(path), "--ask", GREEDY], 2, "--ask BOT needs --seat S"),
        ([str(path), "--seat", "0"], 2, "--seat and --at say which decisions --ask BOT is asked"),
        ([str(path), "--ask", "missing.py", "--seat", "0"], 1, "cannot start missing.py"),
    ]:
        code, output = run_cli("replay", *args, "--no-sandbox")
        assert code == status, output
        assert message in output.strip().splitlines()[-1] and "Traceback" not in output, output


RECORDER = ROOT / "tests" / "bots" / "recorder.py"


def game_lines(path: Path, game: str) -> list[str]:
    """The lines a recorder was sent for one game: its game_start to its game_end."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if f'"game":"{game}"' in line
                 and '"type":"game_start"' in line)  # fmt: skip
    end = next(i for i in range(start, len(lines)) if '"type":"game_end"' in lines[i])
    return lines[start : end + 1]


def test_a_re_asked_bot_is_sent_exactly_what_its_seat_was_sent(tmp_path: Path) -> None:
    """Byte for byte: request ids and time (the bank drawn on at a 1 ms move limit), a
    redealt no_picture hand, blind dogs."""
    first, again = tmp_path / "first.txt", tmp_path / "again.txt"
    path = tmp_path / "g.jsonl"
    code, output = run_cli(
        "play", f"rec={sys.executable} {RECORDER} {first}", f"c={C_BOT}", f"d={C_BOT}",
        "--seed", "11", "--replay", str(path), "--quiet", "--no-sandbox", "--move-ms", "1",
        "--rule", "no_picture=true", "--rule", "blind_dog=true", "--rule", "dog_life=expanded",
    )  # fmt: skip
    assert code == 0, output
    code, output = ask(path, f"{sys.executable} {RECORDER} {again}", 0)
    assert code == 0 and last_line(output)[0] == 0, output
    sent, resent = game_lines(first, "play-11"), game_lines(again, "play-11")
    assert any('"what":"no_picture"' in line for line in sent), "a hand was redealt"
    assert any('"blind":[' in line and '"blind":[]' not in line for line in sent)
    banks = {json.loads(line)["time"]["bank_ms"] for line in sent if '"request"' in line}
    assert len(banks) > 1, "the bank was drawn on"
    assert resent == sent


def test_ids_stay_the_same_past_a_seat_disabled_in_its_tournament(tmp_path: Path) -> None:
    """A bot that no longer starts (it started once, when the field was checked) is disabled
    after 3 failed handshakes; in its later games it faults at the start, asks nothing, and
    the other seats' request ids are unchanged."""
    log, again = tmp_path / "log.txt", tmp_path / "again.txt"
    folder = tmp_path / "t"
    dead = f"{sys.executable} {ROOT / 'tests/bots/misbehave.py'} startsonce {tmp_path / 'once'}"
    code, output = run_cli(
        "tournament", "--bot", f"rec={sys.executable} {RECORDER} {log}",
        "--bot", f"dead={dead}", "--bot", f"c={C_BOT}", "--players", "3", "--startup-ms", "2000",
        "--deals", "3", "--seed", "2", "--out", str(folder), "--quiet", "--no-sandbox",
    )  # fmt: skip
    assert code == 0, output
    replays = sorted((folder / "replays").glob("*.jsonl"))
    disabled = [p for p in replays if '"detail":"disabled' in p.read_text().splitlines()[-1]]
    assert disabled, "a game in which the dead bot was disabled"
    path = disabled[-1]
    header = json.loads(path.read_text().splitlines()[0])
    seat = next(p["seat"] for p in header["players"] if p["name"] == "rec")
    code, output = run_cli("replay", str(path), "--ask", f"{sys.executable} {RECORDER} {again}",
                           "--seat", str(seat), "--no-sandbox")  # fmt: skip
    assert code == 0 and last_line(output)[0] == 0, output
    assert game_lines(again, header["game"]) == game_lines(log, header["game"])


def test_a_bot_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    path = record(tmp_path, f"g={GREEDY}", f"c={C_BOT}", seed=2)
    code, output = ask(path, f"{sys.executable} -c pass", 0)
    assert code == 1 and "could not be asked: crash: handshake failed" in output, output
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    code, output = ask(damaged, GREEDY, 0)
    assert code == 1 and "ends before its game_end" in output and "Traceback" not in output

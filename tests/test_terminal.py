"""Interactive commands in a real terminal: tmux runs them, sends keys and reads the screen."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system import E2E, needs
from tests.test_tournament import run_cli

ROOT = Path(__file__).resolve().parent.parent
C_BOT = str(ROOT / "sample_bots/c/random_bot")
TMUX = shutil.which("tmux")
# As for the browser tests: where tmux cannot be installed these tests say plainly that
# they were not run (and fail under CI=true); make test installs Debian's tmux as root.
pytestmark = [E2E, needs({"tmux": "tmux"}, "the interactive commands in a terminal were")]


class Terminal:
    """One tmux session of 120 x 40 running a shell command, on a tmux server of its own
    (``-L``): tests run side by side (pytest-xdist), and a shared server exits under one
    test's session when another test kills the last of its own."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.name = f"arena-test-{uuid.uuid4().hex[:8]}"
        self.tmux = [str(TMUX), "-L", self.name]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", "120", "-y", "40",
             "-c", str(cwd), f"{command}; echo exit=$?; sleep 60"],
            check=True,
        )  # fmt: skip

    def screen(self, *, joined: bool = False, escapes: bool = False) -> str:
        """The screen's text (``joined``: lines the terminal wrapped, joined again;
        ``escapes``: with the escape sequences of its colours)."""
        flags = [*(["-J"] if joined else []), *(["-e"] if escapes else [])]
        done = subprocess.run(
            [*self.tmux, "capture-pane", "-p", *flags, "-t", self.name],
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def wait_for(self, text: str, timeout_s: float = 20.0, *, after: str = "") -> str:
        """The screen once ``text`` shows (below ``after``, where given: a program
        prints a line and its prompt apart, and tmux may show the screen between)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            screen = self.screen()
            if after in screen and text in screen[screen.index(after) :]:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not show; the screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.name)
        socket.unlink(missing_ok=True)  # the server leaves it behind


@pytest.fixture
def replay(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "game.jsonl"
    subprocess.run(
        [sys.executable, "-m", "arena", "play", C_BOT, C_BOT, "--seed", "3", "--quiet",
         "--replay", str(path)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    yield path


@pytest.mark.parametrize(("key", "status"), [("C-c", 130), ("q", 0)])
def test_replay_step_prompts_and_quits(tmp_path: Path, replay: Path, key: str, status: int) -> None:
    terminal = Terminal(f"{sys.executable} -m arena replay {replay} --step", tmp_path)
    try:
        screen = terminal.wait_for("-- Enter: next trick, q: quit --")
        assert "Trick 1: " in screen and "Trick 2: " not in screen
        terminal.keys("Enter")
        screen = terminal.wait_for("-- Enter: next trick, q: quit --", after="Trick 2: ")
        assert screen.count("-- Enter: next trick, q: quit --") == 1, "the prompt is cleared"
        terminal.keys(key)
        screen = terminal.wait_for("exit=")
        assert f"exit={status}" in screen
        assert "Trick 3: " not in screen and "Traceback" not in screen
    finally:
        terminal.close()


def test_replay_step_keeps_keys_typed_ahead(tmp_path: Path, replay: Path) -> None:
    """Three Enters sent at once, before the first prompt may even show, step three
    tricks: none is flushed away while a trick prints (click.getchar flushed them)."""
    terminal = Terminal(f"{sys.executable} -m arena replay {replay} --step", tmp_path)
    try:
        terminal.keys("Enter", "Enter", "Enter")
        screen = terminal.wait_for("Trick 4: ")
        assert "Trick 5: " not in screen
        terminal.keys("q")
        assert "exit=0" in terminal.wait_for("exit=")
    finally:
        terminal.close()


def test_the_progress_bar_redraws_cleanly_and_stays_out_of_logs(tmp_path: Path) -> None:
    bots = " ".join(f"--bot {name}={C_BOT}" for name in "abcd")
    args = f"tournament {bots} --players 2 --deals 100 --jobs 2"
    terminal = Terminal(f"{sys.executable} -m arena {args} --out {tmp_path / 'tty'}", tmp_path)
    try:
        screen = terminal.wait_for("exit=", timeout_s=60)
    finally:
        terminal.close()
    assert "exit=0" in screen
    [bar] = [line for line in screen.splitlines() if "|" in line]
    assert bar.startswith("100%|") and " 1200/1200 games, " in bar, bar
    assert "ETA 00:00, leader " in bar, bar  # the current leader named
    assert re.search(r"leader [abcd] \(-?\d+\.\d\d\)$", bar.rstrip()), (
        f"no stale characters: {bar!r}"
    )
    logged = subprocess.run(
        [sys.executable, "-m", "arena", *args.split(), "--out", str(tmp_path / "log")],
        check=True,
        capture_output=True,
        text=True,
    )
    assert logged.stderr == "", "no bar where stderr is not a terminal"
    assert logged.stdout.splitlines()[-1].startswith("Done: 1200/1200 games")


def test_a_match_shows_its_test_live_and_ctrl_c_prints_the_result(tmp_path: Path) -> None:
    # A bot against a copy of itself under another name: the test takes long to decide.
    args = f"match a={C_BOT} b={C_BOT} --sprt --players 2 --max-games 400000 --jobs 2"
    command = f"{sys.executable} -m arena {args} --out {tmp_path / 'm'}"
    terminal = Terminal(command, tmp_path)
    try:
        screen = terminal.wait_for("LLR", timeout_s=30)
        [bar] = [line for line in screen.splitlines() if "LLR" in line]
        assert " games, " in bar and "diff " in bar and "[-2.94, 2.94]" in bar, bar
        terminal.keys("C-c")
        terminal.wait_for("exit=")
        screen = terminal.screen(joined=True)
    finally:
        terminal.close()
    assert "exit=130" in screen and "Traceback" not in screen
    assert "Result: " in screen and "  LLR " in screen
    assert "games are saved in" in screen and "Resume with: arena match a=" in screen, screen


def prompt_shown(screen: str) -> bool:
    """Whether the person is being asked: the last line is an empty prompt."""
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    return bool(lines) and lines[-1] == "Your move>"


def wait_for_turn(terminal: Terminal, timeout_s: float = 20.0) -> str:
    """The screen once the person is asked again, or the command has ended."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        screen = terminal.screen()
        if prompt_shown(screen) or "exit=" in screen:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"no prompt and no end; the screen:\n{terminal.screen()}")


SUIT_LETTERS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}


def test_a_person_plays_a_whole_game_at_the_terminal(tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    command = (
        f"{sys.executable} -m arena play human:ann {C_BOT} {C_BOT} --seed 11 --replay {replay}"
    )
    terminal = Terminal(command, tmp_path)
    typed = 0
    try:
        screen = wait_for_turn(terminal)
        assert "Your hand: " in screen and "Your turn: play a card" in screen
        assert "== Hand 1 of 7: 7 cards each" in screen and "(turned up " in screen
        terminal.keys("zz", "Enter")
        assert "'zz' is not a move" in wait_for_turn(terminal)
        while "exit=" not in screen:
            turn = screen[screen.rindex("Your turn: ") :]
            cards = re.findall(r"\d+\) (10|[2-9JQKA])([\u2660\u2665\u2666\u2663])", turn)
            suits = re.findall(r"\d+\) [\u2660\u2665\u2666\u2663] ([a-z]+)", turn)
            assert cards or suits or "pass" in turn, turn
            if typed % 2 or not (cards or suits):  # the first move listed, by its number
                terminal.keys("1", "Enter")
            elif cards:  # the last card listed, written as a person writes it: 10h, qs
                rank, suit = cards[-1]
                terminal.keys(f"{rank.lower()}{SUIT_LETTERS[suit]}", "Enter")
            else:  # trumps named by the suit's name
                terminal.keys(suits[-1], "Enter")
            typed += 1
            screen = wait_for_turn(terminal)
            assert " is not " not in screen[screen.rindex("Your turn: ") :], screen
        screen = terminal.screen(joined=True)
    finally:
        terminal.close()
    assert "exit=0" in screen and "Traceback" not in screen, screen
    assert "Result (seed 11): " in screen and "Replay written to " in screen
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    moves = [r for r in records if r["type"] == "move" and r["seat"] == 0]
    assert len(moves) == typed and not any(r.get("fallback") for r in moves)
    assert records[-1]["type"] == "game_end" and records[-1]["faults"] == {}


@pytest.mark.parametrize("no_color", [False, True])
def test_ctrl_c_ends_the_persons_part_and_the_game_plays_out(
    tmp_path: Path, no_color: bool
) -> None:
    replay = tmp_path / "game.jsonl"
    env = "NO_COLOR=1 " if no_color else ""
    command = f"{env}{sys.executable} -m arena play human {C_BOT} {C_BOT} {C_BOT} --seed 5 "
    terminal = Terminal(command + f"--replay {replay}", tmp_path)
    try:
        wait_for_turn(terminal)
        coloured = terminal.screen(escapes=True)
        terminal.keys("C-c")
        terminal.wait_for("exit=")
        screen = terminal.screen(joined=True)
    finally:
        terminal.close()
    # Colours on a terminal (hearts and diamonds red, headings bold), none under NO_COLOR.
    assert ("\x1b[" in coloured) is not no_color
    assert "exit=130" in screen and "Traceback" not in screen, screen
    assert "You left the table" in screen and "human faulted (crash)" in screen
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    assert records[-1]["faults"] == {"0": {"kind": "crash", "detail": "the person left"}}
    # The person's seat was played out by the fallback to the end of the game.
    assert [r.get("fallback", False) for r in records if r["type"] == "move" and r["seat"] == 0]
    assert all(r.get("fallback") for r in records if r["type"] == "move" and r["seat"] == 0)


SLOW = f"{sys.executable} {ROOT / 'tests/bots/slow.py'} 1.5 2"


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_while_a_bot_thinks(tmp_path: Path, presses: int) -> None:
    """Once: the person is told, leaves once the bot has moved, the game plays out (130).
    Twice: the game stops at once, without a replay (130)."""
    replay, logs = tmp_path / "game.jsonl", tmp_path / "logs"
    slow = shlex.quote(f"slow={SLOW}")
    command = (
        f"{sys.executable} -m arena play human {slow} {C_BOT} --seed 6 --replay {replay} "
        f"--logs {logs}"
    )
    terminal = Terminal(command, tmp_path)
    try:
        wait_for_turn(terminal)
        log = logs / "slow.stderr.log"

        def thoughts() -> int:
            return log.read_text().count("thinking") if log.is_file() else 0

        before = thoughts()
        terminal.keys("1", "Enter")
        # The person's move was read once the slow bot (next to play) thinks over its own.
        deadline = time.monotonic() + 20
        while thoughts() == before:
            assert time.monotonic() < deadline, terminal.screen()
            time.sleep(0.02)
        terminal.keys("C-c")
        terminal.wait_for("Ctrl-C: you leave the table once this move is made")
        if presses == 2:
            terminal.keys("C-c")
        terminal.wait_for("exit=", timeout_s=30)
        screen = terminal.screen(joined=True)
    finally:
        terminal.close()
    assert "exit=130" in screen and "Traceback" not in screen, screen
    assert "Ctrl-C: you leave the table once this move is made" in screen
    if presses == 1:
        assert "You left the table" in screen and "human faulted (crash)" in screen
        assert screen.count("Your turn: ") == 1, "no table is drawn after the Ctrl-C"
        assert json.loads(replay.read_text().splitlines()[-1])["type"] == "game_end"
    else:
        assert "Stopped: the game was not finished, and no replay was written." in screen
        assert not replay.exists()


def test_a_leaderboard_watched_while_its_tournament_runs(tmp_path: Path) -> None:
    """Redrawn in place as games come in, never holding the writer up; a report taken
    meanwhile says it is a snapshot; the watch ends with the tournament."""
    folder = tmp_path / "live"
    bots = [arg for name in "abcd" for arg in ("--bot", f"{name}={C_BOT}")]
    tournament = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *bots, "--players", "2", "--deals", "400",
         "--jobs", "2", "--seed", "1", "--quiet", "--out", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not (folder / "results.sqlite").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        terminal = Terminal(f"{sys.executable} -m arena leaderboard {folder} --watch 0.3", tmp_path)
        # The watch ends with the tournament: ~10 s alone, minutes on a loaded machine.
        deadline = time.monotonic() + 300
        try:
            counts = []
            while time.monotonic() < deadline and "exit=" not in (screen := terminal.screen()):
                found = re.search(r"\((\d+) of (\d+) games played so far\)", screen)
                if found:
                    counts.append(int(found[1]))
                    assert screen.count("rank") == 1, "redrawn in place, not scrolled"
                if len(set(counts)) == 3:
                    report = run_cli("report", str(folder), "-o", str(tmp_path / "snap.html"))
                    assert report[0] == 0, report[1]
                time.sleep(0.1)
            screen = terminal.screen()
        finally:
            terminal.close()
        assert tournament.wait(timeout=60) == 0, tournament.stderr
    finally:
        if tournament.poll() is None:
            tournament.kill()
    assert len(set(counts)) >= 3 and counts == sorted(counts), counts
    assert "the tournament is complete." in screen and "exit=0" in screen, screen
    page = (tmp_path / "snap.html").read_text()
    assert "A snapshot</strong>, taken " in page and " UTC" in page

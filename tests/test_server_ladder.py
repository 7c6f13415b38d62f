"""``arena serve``'s ladder over time: organizers' switches, the final, each version's test
against the one before, backups and a kill -9 mid-upload, each against a real server
process (apart from tests/test_server.py so that the test workers share the long ones)."""

from __future__ import annotations

import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tarfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from tests.system import E2E
from tests.test_server import (
    CONFIG,
    KIT,
    PASSWORD,
    Server,
    answers,
    arena,
    author,
    free_port,
    league_rows,
    settled,
    start,
    zipped,
)

pytestmark = E2E


def done_games(folder: Path) -> int:
    """Games the ladder finished so far (0 before its store is made)."""
    if not (folder / "results.sqlite").is_file():
        return 0
    with closing(sqlite3.connect(f"file:{folder / 'results.sqlite'}?mode=ro", uri=True)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
            return 0  # the ladder has made the file, and not yet its tables
        return int(db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0])


def played_by(folder: Path, bot: str) -> int:
    return int(league_rows(folder).get(bot, {}).get("games", 0))


def until(check: Any, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.3)


def test_an_organizer_pauses_the_ladder_and_disables_a_bot(tmp_path: Path) -> None:
    """A pause stops the games and a resume goes on; a disabled bot is not scheduled (no
    forfeits) until enabled; a field too small for a table waits, the server up."""
    league = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 50\n")
    league += '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'
    league = league.replace("[server]\n", "[server]\nfinal_rounds = 2\n")
    running = start(tmp_path, free_port(), league)
    folder = running.folder
    try:
        ann, bob = author(running, "ann"), author(running, "bob")
        code = running.invite("olga", "organizer")
        _, joined = running.call("POST", "/api/v1/join", {"code": code, "user": "olga",
                                                         "password": PASSWORD})  # fmt: skip
        olga = joined["token"]
        for token, name in ((ann, "annbot"), (bob, "bobbot")):
            upload = zipped(KIT, name=name)
            assert running.call("POST", "/api/v1/bots", token=token, upload=upload)[0] == 202
        until(lambda: set(league_rows(folder)) == {"greedy", "rando", "annbot", "bobbot"})
        assert running.call("POST", "/api/v1/ladder", {"paused": True}, token=ann)[0] == 403
        assert running.call("POST", "/api/v1/ladder", {"paused": True}, token=olga) == (
            200, {"paused": True, "frozen": False, "state": "paused"})  # fmt: skip
        running.stderr_until("the ladder is paused")
        held = done_games(folder)
        time.sleep(2.5)
        assert done_games(folder) == held, "no game while paused"
        assert running.call("GET", "/api/v1/ladder", token=ann) == (
            200, {"paused": True, "frozen": False, "state": "paused"})  # fmt: skip
        assert running.call("POST", "/api/v1/ladder", {"paused": False}, token=olga)[0] == 200
        until(lambda: done_games(folder) > held)
        status, answer = running.call("POST", "/api/v1/bots/BobBot/disable", {"reason": "odd"},
                                      token=olga)  # fmt: skip
        assert (status, answer) == (200, {"bot": "bobbot", "disabled": "odd"})
        assert running.call("GET", "/api/v1/bots/bobbot")[1]["disabled"] == "odd"
        now = done_games(folder)
        until(lambda: done_games(folder) > now + 24)  # past the rounds made before
        frozen = played_by(folder, "bobbot")
        now = done_games(folder)
        until(lambda: done_games(folder) > now + 12)
        assert played_by(folder, "bobbot") == frozen, "a disabled bot is not scheduled"
        assert league_rows(folder)["bobbot"]["faults"] == {}, "nor forfeits"
        running.call("POST", "/api/v1/bots/annbot/disable", {"reason": "also"}, token=olga)
        running.stderr_until("the ladder waits for a full table")
        assert running.process.poll() is None
        assert running.call("POST", "/api/v1/bots/bobbot/enable", token=olga)[0] == 200
        until(lambda: played_by(folder, "bobbot") > frozen)
        assert running.call("POST", "/api/v1/bots/bobbot/enable", token=bob)[0] == 403
        # The final: uploads refused, the league stands still, and two rounds among the
        # active bots are played from fresh ratings in DIR/final, then its board is final.
        status, answer = running.call("POST", "/api/v1/season", {"state": "frozen"}, token=ann)
        assert status == 403, answer
        status, answer = running.call("POST", "/api/v1/season", {"state": "final"}, token=olga)
        assert status == 400 and "reached when the final's rounds are played" in answer["error"]
        status, answer = running.call("POST", "/api/v1/season", {"state": "frozen"}, token=olga)
        assert status == 200 and answer["state"] == "frozen", answer
        late = zipped(KIT, name="bobbot", change="# late\n")
        status, answer = running.call("POST", "/api/v1/bots", token=bob, upload=late)
        assert status == 403 and "frozen" in answer["error"]
        until((folder / "final" / "results.sqlite").is_file)  # the league stopped
        league_games = done_games(folder)
        running.stderr_until("the final is played: its board is final", timeout=120)
        season = running.call("GET", "/api/v1/season")[1]
        assert "state" in season, season
        assert season["state"] == "final" and season["final_rounds"] == 2, season
        assert season["final"]["games"] == season["final"]["planned"] > 0, season
        assert done_games(folder) == league_games, "the league stood still"
        status, final = running.call("GET", "/api/v1/leaderboard?board=final")
        assert status == 200, final  # annbot, disabled, is not in it
        assert {row["bot"] for row in final} == {"greedy", "rando", "bobbot"}, final
        assert sum(row["games"] for row in final) == 3 * season["final"]["games"], "fresh ratings"
        page = running.text("/")[1]
        assert "The final" in page and "The league, as the freeze found it" in page
        held = done_games(folder / "final")
        time.sleep(2.5)
        assert done_games(folder / "final") == held, "a played final plays no more"
        target = tmp_path / "final.tar.gz"  # a backup holds the final's store, whole
        done = arena("serve", str(running.config), "--backup", str(target), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        with tarfile.open(target) as archive:
            names = set(archive.getnames())
        assert "final/results.sqlite" in names and not {"final/results.sqlite-wal"} & names
        # Opened again: the final is set aside (kept), the league goes on, uploads come in.
        running.call("POST", "/api/v1/season", {"state": "open"}, token=olga)
        running.stderr_until("its final was set aside")
        assert len(list(folder.glob("final.*"))) == 1, "kept, aside"
        now = done_games(folder)
        until(lambda: done_games(folder) > now)
        assert running.call("POST", "/api/v1/bots", token=bob, upload=late)[0] == 202
        # Closed: nothing plays or is taken, and nothing reopens it; pages stay readable.
        status, answer = running.call("POST", "/api/v1/season", {"state": "closed"}, token=olga)
        assert status == 200 and answer["state"] == "closed", answer
        running.stderr_until("the season is closed: nothing plays")
        now = done_games(folder)
        time.sleep(2.5)
        assert done_games(folder) == now
        late = zipped(KIT, name="annbot", change="# later\n")
        status, answer = running.call("POST", "/api/v1/bots", token=ann, upload=late)
        assert status == 403 and "closed" in answer["error"], answer
        status, answer = running.call("POST", "/api/v1/season", {"state": "open"}, token=olga)
        assert status == 400 and "closed" in answer["error"], answer
        assert running.call("GET", "/api/v1/leaderboard")[0] == 200
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


def test_a_server_started_with_sigint_ignored_still_pauses_its_ladder(tmp_path: Path) -> None:
    """A shell script's `arena serve ... &` starts the server with SIGINT ignored, and its
    children inherit that; the ladder is stopped for a pause by a SIGINT of its own, which
    must arrive all the same."""
    league = CONFIG.replace("players = 3\n", "players = 2\ndeals = 1\nmove_ms = 50\n")
    league += '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'
    config = tmp_path / "club.toml"
    config.write_text(league)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(config), "--port", str(port)],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # noqa: PLW1509
    )  # fmt: skip
    running = Server(tmp_path / "results" / "club", config, port, process)
    try:
        running.stderr_until("arena serve: ")
        answers(running.url)
        code = running.invite("olga", "organizer")
        _, joined = running.call("POST", "/api/v1/join", {"code": code, "user": "olga",
                                                         "password": PASSWORD})  # fmt: skip
        until(lambda: done_games(running.folder) > 0)
        assert (
            running.call("POST", "/api/v1/ladder", {"paused": True}, token=joined["token"])[0]
            == 200
        )
        running.stderr_until("the ladder is paused")
        held = done_games(running.folder)
        time.sleep(2.5)
        assert done_games(running.folder) == held, "no game while paused"
    finally:
        process.terminate()
        assert process.wait(timeout=60) == 143


def test_a_backup_taken_while_it_runs_restores_the_competition(tmp_path: Path) -> None:
    """--backup copies the folder while the ladder plays; --restore (stopped) puts it back,
    moving the folder there aside: accounts, tokens, versions and games come back."""
    league = CONFIG.replace("players = 3\n", "players = 2\ndeals = 1\nmove_ms = 50\n")
    port = free_port()
    running = start(tmp_path, port, league)
    target = tmp_path / "monday.tar.gz"
    try:
        ann = author(running, "ann")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=zipped(KIT))[0] == 202
        assert settled(running, "python-greedy")["status"] == "active"
        until(lambda: done_games(running.folder) > 10)
        done = arena("serve", str(running.config), "--backup", str(target), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"backed up results/club to {target}: 2 databases")
        backed = done_games(running.folder)
        refused = arena("serve", str(running.config), "--restore", str(target), cwd=tmp_path)
        assert refused.returncode == 1 and "another arena serve runs" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    import tarfile  # noqa: PLC0415

    with tarfile.open(target) as archive:
        names = set(archive.getnames())
    assert {"server.sqlite", "results.sqlite", "secrets.json", "backup.json"} <= names
    assert "bots/python-greedy/1/bot.toml" in names and "serve.lock" not in names
    assert not any(name.endswith(("-wal", "-shm")) for name in names)
    shutil.rmtree(running.folder / "bots")  # a damaged folder
    done = arena("serve", str(running.config), "--restore", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the folder there before is" in done.stdout
    again = start(tmp_path, port, league)
    try:
        assert again.call("GET", "/api/v1/account", token=ann)[0] == 200, "the token is back"
        assert again.call("GET", "/api/v1/versions/python-greedy")[1]["status"] == "active"
        assert done_games(again.folder) >= min(backed, 10)
        until(lambda: done_games(again.folder) > backed)
    finally:
        again.process.send_signal(signal.SIGINT)
        assert again.process.wait(timeout=60) == 130
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not a backup")
    done = arena("serve", str(running.config), "--restore", str(junk), cwd=tmp_path)
    assert done.returncode == 1 and "is not an arena serve backup" in done.stderr


#: A strategy much worse than the kit's greedy one: always the first legal move.
FIRST_LEGAL = """

def _first_legal(self, state, legal, request):
    return legal[0]


Strategy.choose = _first_legal
"""


def test_each_new_version_is_tested_against_the_one_it_replaced(tmp_path: Path) -> None:
    """The test plays in its own folder, ends with a verdict or at match_max_games, and a
    newer version supersedes it."""
    league = CONFIG.replace("players = 3\n", "players = 2\ndeals = 1\nmove_ms = 50\n")
    running = start(tmp_path, free_port(), league)
    try:
        ann = author(running, "ann")
        upload = zipped(KIT, name="annbot")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "annbot")["verdict"] is None, "a first version has none"
        worse = zipped(KIT, name="annbot", change=FIRST_LEGAL)
        assert running.call("POST", "/api/v1/bots", token=ann, upload=worse)[0] == 202
        second = settled(running, "annbot@2")
        assert second["status"] == "active"
        assert second["verdict"]["against"] == "annbot"
        assert second["verdict"]["result"] in ("running", "H0"), second
        until(lambda: running.call("GET", "/api/v1/versions/annbot@2")[1]["verdict"]["result"]
              != "running", timeout=120)  # fmt: skip
        verdict = running.call("GET", "/api/v1/versions/annbot@2")[1]["verdict"]
        assert verdict["result"] in ("H0", "inconclusive") and 0 < verdict["games"] <= 60
        assert set(verdict) == {"against", "result", "worse", "elo", "elo_low", "elo_high",
                                "games"}  # fmt: skip
        assert verdict["elo"] < 0, "the first legal move is worse than greedy"
        match = running.folder / "matches" / "annbot-2" / "results.sqlite"
        with closing(sqlite3.connect(match)) as db:
            tested = {row[0] for row in db.execute("SELECT id FROM games")}
        with closing(sqlite3.connect(running.folder / "results.sqlite")) as db:
            ladder = {row[0] for row in db.execute("SELECT id FROM games")}
        assert tested and not tested & ladder, "a test's games are not the ladder's"
        third = zipped(KIT, name="annbot", change="# v3\n")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=third)[0] == 202
        assert settled(running, "annbot@3")["verdict"]["against"] == "annbot@2"
        fourth = zipped(KIT, name="annbot", change="# v4\n")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=fourth)[0] == 202
        assert settled(running, "annbot@4")["status"] == "active"
        until(lambda: running.call("GET", "/api/v1/versions/annbot@3")[1]["verdict"]["result"]
              != "running")  # fmt: skip
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


def test_kill_9_mid_upload_loses_nothing_accepted_and_keeps_no_half(tmp_path: Path) -> None:
    """A server killed while an upload's body is still coming in recorded nothing; the
    next start throws away what an upload cut while unpacking left, and the same upload
    then becomes the bot's first version."""
    port = free_port()
    first = start(tmp_path, port, CONFIG.replace("upload_mb = 1\n", "upload_mb = 10\n"))
    token = author(first, "ann")
    body = zipped(KIT) + b"\0" * (4 << 20)  # a body that takes a while to send
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(
            f"POST /api/v1/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: multipart/form-data; boundary=b\r\n"
            f"Content-Length: {len(body) + 200}\r\n\r\n".encode()
            + b'--b\r\nContent-Disposition: form-data; name="bot"; filename="bot.zip"\r\n\r\n'
            + body[: 2 << 20]
        )
        time.sleep(0.5)
        first.process.kill()
        first.process.wait()
    cut = first.folder / "uploads" / "tmpcut"  # as an unpacking cut by kill -9 leaves it
    cut.mkdir(parents=True)
    (cut / "bot.toml").write_text('name = "half"\n')
    second = start(tmp_path, port, CONFIG.replace("upload_mb = 1\n", "upload_mb = 10\n"))
    try:
        assert list((first.folder / "uploads").iterdir()) == []
        assert second.call("GET", "/api/v1/bots/python-greedy")[0] == 404, "nothing recorded"
        status, answer = second.call("POST", "/api/v1/bots", token=token, upload=zipped(KIT))
        assert (status, answer["version"]) == (202, "python-greedy")
    finally:
        second.process.send_signal(signal.SIGINT)
        assert second.process.wait(timeout=60) == 130

"""``arena serve`` among strangers: quotas, a bot that faults on, hostile builds, faults of
the server itself; each a named test against a real server process (apart from
tests/test_server.py so that the test workers share the long ones)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tarfile
import time
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from arena.server.web.disk import FULL
from tests.system import E2E
from tests.test_server import (
    CONFIG,
    PASSWORD,
    Server,
    author,
    free_port,
    league_rows,
    settled,
    start,
    web_app,
)
from tests.test_server_ladder import played_by, until

pytestmark = E2E
#: Quick games at tables of three; with a random house bot beside greedy, a full table.
QUICK = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 200\n")
LADDER = QUICK + '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'

#: A bot that plays its first legal move, and sends garbage once a bot named ``rando``
#: sits at its table: it passes every check and its self-play game, then faults in every
#: ladder game (the ladder seats the house bot ``rando`` at every table of three).
FLAKY = """\
import json
import sys
import tarfile

players = []
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "flaky"}), flush=True)
    elif kind == "game_start":
        players = message["players"]
    elif kind == "request" and "WHO" in players:
        print("this is not json", flush=True)
    elif kind == "request":
        print(json.dumps({"type": "move", "id": message["id"], "move": message["legal"][0]}),
              flush=True)
    elif kind == "bye":
        break
"""


def bot_zip(
    name: str, files: dict[str, str | bytes], build: str = "", run: str = "python3 bot.py"
) -> bytes:
    """A bot folder of ``files`` as a .zip, its bot.toml naming it ``name`` and running
    ``run`` (after ``build``, if given)."""
    toml = f'name = "{name}"\nrun = "{run}"\n'
    if build:
        toml += f"build = {json.dumps(build)}\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.toml", toml)
        for path, content in files.items():
            archive.writestr(path, content)
    return buffer.getvalue()


def test_a_bot_that_faults_5_games_in_a_row_is_disabled_and_its_owner_sees_why(
    tmp_path: Path,
) -> None:
    league = LADDER
    running = start(tmp_path, free_port(), league)
    try:
        ann = author(running, "ann")
        upload = bot_zip("flaky", {"bot.py": FLAKY.replace("WHO", "rando")})
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "flaky", timeout=120)["status"] == "active"
        running.stderr_until("bot 'flaky' disabled: faulted in 5 games in a row", timeout=120)
        status, bot = running.call("GET", "/api/v1/bots/flaky")
        assert status == 200 and bot["disabled_by"] == "ladder", bot
        assert bot["disabled"].startswith(
            "faulted in 5 games in a row (the last: malformed in game g"
        ), bot
        assert bot["disabled"].endswith("; a version of it made active lets it play again")
        _, page = running.text("/bots/flaky")
        assert "Disabled</strong> by the ladder: faulted in 5 games in a row" in page
        # The ladder waits for a full table (greedy and rando only); a fixed version
        # enters, lifts the ladder's disable and plays.
        running.stderr_until("the ladder waits for a full table", timeout=60)
        before = played_by(running.folder, "flaky")
        fixed = bot_zip("flaky", {"bot.py": FLAKY.replace("WHO", "nobody")})
        assert running.call("POST", "/api/v1/bots", token=ann, upload=fixed)[0] == 202
        assert settled(running, "flaky@2", timeout=120)["status"] == "active"
        assert running.call("GET", "/api/v1/bots/flaky")[1]["disabled"] == ""
        until(lambda: played_by(running.folder, "flaky@2") >= 3)
        assert played_by(running.folder, "flaky") == before, "the faulting version left"
        faults = league_rows(running.folder)["flaky@2"]["faults"]
        assert not faults, faults
    finally:
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143


def test_an_authors_stored_bytes_and_uploads_a_day_are_limited(tmp_path: Path) -> None:
    """``stored_mb`` counts what each version holds: past it an upload is 413, a build
    that would write past it fails, and deleting a failed version's files makes room;
    ``submissions_per_day`` is 429."""
    league = CONFIG.replace("[server]\n", "[server]\nstored_mb = 1\nsubmissions_per_day = 3\n")
    running = start(tmp_path, free_port(), league)
    try:
        ann = author(running, "ann")
        big = os.urandom(700 * 1024)  # random: the zip does not shrink it
        failing = bot_zip("ann", {"blob": big}, build="sh -c 'exit 3'")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=failing)[0] == 202
        assert settled(running, "ann")["status"] == "failed"
        second = bot_zip("ann", {"blob": big[::-1], "bot.py": FLAKY})
        status, answer = running.call("POST", "/api/v1/bots", token=ann, upload=second)
        assert status == 413, answer
        assert answer["error"].startswith(
            "your versions hold 0.7 MB and this upload 0.7 MB: an author may store 1 MB here"
        ), answer
        assert running.call("GET", "/api/v1/versions/ann@2")[0] == 404, "nothing kept"
        # Bob may not delete ann's files; ann may, and then the upload fits.
        bob = author(running, "bob")
        assert running.call("POST", "/api/v1/versions/ann/delete", {}, token=bob)[0] == 403
        status, deleted = running.call("POST", "/api/v1/versions/ann/delete", {}, token=ann)
        assert (status, deleted["deleted"]) == (200, True), deleted
        until(lambda: not (running.folder / "bots" / "ann" / "1").exists(), timeout=30)
        status, answer = running.call("POST", "/api/v1/bots", token=ann, upload=second)
        assert status == 202, answer
        status, again = running.call("POST", "/api/v1/versions/ann/activate", {}, token=ann)
        assert status == 400 and "files are deleted" in again["error"], again
        # A small upload whose build writes more than the room its author has left fails,
        # even a quick one (done between two of the builder's looks).
        filling = {"fill.sh": "head -c 600000 /dev/zero > fill\n"}
        small = bot_zip("ann", {"bot.py": FLAKY.replace("WHO", "x"), **filling}, build="sh fill.sh")
        status, answer = running.call("POST", "/api/v1/bots", token=ann, upload=small)
        assert status == 202, answer
        assert settled(running, "ann@3", timeout=120)["status"] == "failed"
        third = running.call("GET", "/api/v1/versions/ann@3", token=ann)[1]  # the detail
        room = r"wrote more than 0\.\d+ MB, what its author may still store \(stored_mb = 1, "
        assert re.search(room + r"less their versions\)", third["reason"]), third
        # Three uploads in a day: the fourth is refused, whatever its size.
        status, answer = running.call("POST", "/api/v1/bots", token=ann,
                                      upload=bot_zip("ann", {"bot.py": FLAKY}))  # fmt: skip
        assert status == 429, answer
        assert answer["error"] == (
            "3 uploads in the last 24 hours: the limit is 3 a day; try again later"
        )
    finally:
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143


def children(server: Server) -> dict[str, int]:
    """The server's children (web app, ladder, builder, ...), by the kind their command
    names, and their process ids."""
    found = subprocess.run(
        ["pgrep", "-a", "-P", str(server.process.pid)], capture_output=True, text=True,
        check=True,
    ).stdout.splitlines()  # fmt: skip
    kinds = {}
    for line in found:
        pid, command = line.split(" ", 1)
        if "arena.server.child" in command:
            kinds[command.split("arena.server.child ", 1)[1].split()[0]] = int(pid)
    return kinds


def marked(marker: str) -> list[str]:
    """Processes whose command line holds ``marker`` (what a build left running)."""
    found = subprocess.run(["pgrep", "-a", "-f", marker], capture_output=True, text=True,
                           check=False)  # fmt: skip
    return [line for line in found.stdout.splitlines() if "pgrep" not in line]


#: Builds of strangers, each its own author's: what each tries, and how it must end.
FORK_BOMB = (
    "python3 -c 'import os, time  # FORKMARK\n"
    "while True:\n"
    "    try:\n"
    "        os.fork()\n"
    "    except OSError:\n"
    "        time.sleep(1000)\n'"
)
#: Files of 3 MB each, under the file-size limit, without end: the folder's cap stops it.
DISK_FILL = "sh -c 'i=0; while true; do i=$((i+1)); yes FILLMARK | head -c 3000000 > f$i; done'"
PAST_BUILD_S = "sh -c 'sleep 1001 & sleep 1002'"
SNOOP = """\
for path in {victim}/bot.py {folder}/server.sqlite {folder}/secrets.json ../../ann/1/bot.py; do
  head -c 200 "$path" > /dev/null 2>&1 && echo "LEAK-read $path" || echo "refused-read $path"
done
ls {folder}/bots > /dev/null 2>&1 && echo LEAK-list || echo refused-list
echo pwned >> {victim}/bot.py 2>/dev/null && echo LEAK-write || echo refused-write
echo pwned >> ../../ann/1/bot.py 2>/dev/null && echo LEAK-write-relative || echo refused-relative
ln -s {victim}/bot.py peek.py && echo linked || echo refused-link
"""


def test_hostile_builds_fail_alone_killed_whole_and_the_server_unharmed(
    tmp_path: Path,
) -> None:
    """A build that forks without end, fills its disk cap, runs past ``build_s`` or pries
    into another version's folder and the server's files: each fails (or is refused) on
    its own, no process of it is left, the others' files are untouched, and no child of
    the server dies; the next upload builds as ever."""
    league = CONFIG.replace("[server]\n", "[server]\nbuild_s = 5\nstored_mb = 8\n")
    running = start(tmp_path, free_port(), league)
    try:
        before = children(running)
        ann = author(running, "ann")
        assert running.call("POST", "/api/v1/bots", token=ann,
                            upload=bot_zip("ann", {"bot.py": FLAKY}))[0] == 202  # fmt: skip
        assert settled(running, "ann")["status"] == "active"
        victim = running.folder / "bots" / "ann" / "1"
        kept = (victim / "bot.py").read_bytes()
        snoop = SNOOP.format(victim=victim, folder=running.folder)
        builds = {
            "bomb": (FORK_BOMB, "failed"),
            "fill": (DISK_FILL, "failed"),
            "slow": (PAST_BUILD_S, "failed"),
            "snoop": ("sh snoop.sh", "active"),
        }
        tokens = {}
        for name, (build, _) in builds.items():
            token = tokens[name] = author(running, f"eve{name}")
            files: dict[str, str | bytes] = {"bot.py": FLAKY, "snoop.sh": snoop}
            upload = bot_zip(name, files, build=build)
            assert running.call("POST", "/api/v1/bots", token=token, upload=upload)[0] == 202
        reasons = {}
        for name, (_, status) in builds.items():
            version = settled(running, name, timeout=120)
            assert version["status"] == status, version
            reasons[name] = running.call("GET", f"/api/v1/versions/{name}",
                                         token=tokens[name])[1]["reason"]  # fmt: skip
        over = "the build failed: its build {} this server's limit"
        assert reasons == {
            "bomb": over.format("took over 5 s,"),
            "fill": over.format("wrote more than 8 MB,"),
            "slow": over.format("took over 5 s,"),
            "snoop": "",
        }
        _, log = running.text("/api/v1/versions/snoop/build-log", tokens["snoop"])
        assert "LEAK" not in log and log.count("refused-") == 7, log
        for marker in ("FORKMARK", "FILLMARK", "sleep 1001", "sleep 1002"):
            assert marked(marker) == [], marker
        assert (victim / "bot.py").read_bytes() == kept
        assert children(running) == before, "no child of the server died"
        # The builder builds on: ann's next version is made active.
        upload = bot_zip("ann", {"bot.py": FLAKY.replace("WHO", "x")})
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "ann@2")["status"] == "active"
    finally:
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143


def test_the_hostile_bot_suite_uploaded_harms_nothing(tmp_path: Path) -> None:
    """Each of ``arena sandbox``'s attacks, uploaded as a bot: a connection to a listener
    on the server's machine, a file outside its folder, /etc/shadow, 300 processes, 4 GiB,
    an orphan that outlives it, a signal to the ladder, a root capability. Each version
    fails its checks or plays in the ladder with every attack blocked (what it told its
    owner, and what is seen from outside), and no child of the server dies."""
    from arena.bots.selftest import ATTACKS, PROBE  # noqa: PLC0415

    league = QUICK.replace("[server]\n", "[server]\nbots_per_author = 8\n")
    running = start(tmp_path, free_port(), league)
    listener = socket.create_server(("127.0.0.1", 0))
    connections = 0
    try:
        before = children(running)
        mallory = author(running, "mallory")
        probe = PROBE.read_text()  # it tells its owner what it achieved in its moves' info
        tokens = {}
        for kind, _ in ATTACKS:
            tokens[kind] = uuid.uuid4().hex
            run = f"python3 bot.py {kind} {tokens[kind]} {listener.getsockname()[1]} "
            run += str(before["ladder"])
            upload = bot_zip(kind, {"bot.py": probe}, run=run)
            status, answer = running.call("POST", "/api/v1/bots", token=mallory, upload=upload)
            assert status == 202, answer
        outcomes: dict[str, set[str]] = {}
        deadline = time.monotonic() + 240
        for kind, _ in ATTACKS:
            version = settled(running, kind, timeout=max(1, deadline - time.monotonic()))
            assert version["status"] in ("active", "failed"), version
            if version["status"] == "failed":
                outcomes[kind] = {"failed: " + version["reason"]}
                continue
            while not (seen := _outcomes(running, kind, mallory)):
                assert time.monotonic() < deadline, f"{kind} never played in the ladder"
                connections += _accepted(listener)
                time.sleep(0.2)
            outcomes[kind] = seen
        # What the probe alone can tell (as `arena sandbox` judges it); an orphan, a
        # connection, a file or a signal is seen from outside instead, below (the orphan's
        # probe says "ok": it did leave one, which the sandbox killed with the bot).
        for kind in ("read", "forkbomb", "memory", "capabilities", "net", "write", "signal"):
            assert all(outcome.startswith(("blocked:", "failed:")) for outcome in outcomes[kind]), (
                kind, outcomes[kind])  # fmt: skip
        connections += _accepted(listener)
        assert connections == 0, "a bot reached a listener on the server's machine"
        assert not any(Path(f"/tmp/arena-canary-{token}").exists() for token in tokens.values())
        assert children(running) == before, "no child of the server died"
        # Stopped, the server leaves no process of any probe behind (the bots under way are
        # stopped with their trees, the orphan's among them).
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143
        assert all(marked(token) == [] for token in tokens.values()), "no orphan outlived it"
    finally:
        listener.close()
        if running.process.poll() is None:
            running.process.terminate()
            running.process.wait(timeout=30)


def _accepted(listener: socket.socket) -> int:
    """Connections waiting on ``listener`` now, accepted and closed: how many."""
    count = 0
    while select.select([listener], [], [], 0)[0]:
        listener.accept()[0].close()
        count += 1
    return count


def _outcomes(running: Server, bot: str, token: str) -> set[str]:
    """What bot ``bot``'s attack achieved in each of its ladder games so far, as it told
    its owner in its moves' info."""
    status, games = running.call("GET", f"/api/v1/games?bot={bot}&limit=5", token=token)
    assert status == 200, games
    seen = set()
    for game in games:
        seat = game["seats"].index(bot)
        _, text = running.text(f"/api/v1/games/{game['id']}/replay", token)
        for line in text.splitlines():
            record = json.loads(line)
            if record.get("type") == "move" and record["seat"] == seat and "info" in record:
                seen.add(record["info"]["outcome"])
    return seen


def counted_once(folder: Path) -> dict[str, int]:
    """Each bot's games on the ladder's leaderboard, checked against the ratings it was
    given one game at a time (a game rated twice, or a rating lost, would differ)."""
    path = folder / "results.sqlite"
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        standings = dict(db.execute("SELECT bot, games FROM standings"))
        rated = dict(db.execute("SELECT bot, count(*) FROM ratings GROUP BY bot"))
        ids = db.execute("SELECT count(*), count(DISTINCT id) FROM games").fetchone()
    assert standings == rated, (standings, rated)
    assert ids[0] == ids[1]
    return {bot: int(games) for bot, games in standings.items()}


def test_kill_9_of_the_ladder_or_the_builder_loses_nothing_and_counts_nothing_twice(
    tmp_path: Path,
) -> None:
    """The ladder killed mid-play and the builder killed mid-build are started again: the
    cut build runs again from its start, the ladder plays on from its folder, and every
    game is counted once."""
    league = LADDER
    running = start(tmp_path, free_port(), league)
    try:
        ann = author(running, "ann")
        upload = bot_zip("ann", {"bot.py": FLAKY.replace("WHO", "x")})
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "ann")["status"] == "active"
        until(lambda: played_by(running.folder, "ann") >= 3)
        os.kill(children(running)["ladder"], signal.SIGKILL)
        running.stderr_until("the ladder stopped (exit status -9); starting it again")
        held = played_by(running.folder, "ann")
        until(lambda: played_by(running.folder, "ann") > held + 3)
        # A build cut by kill -9 of the builder: queued again, built again from its start.
        slow = "sh -c 'echo x >> built.txt; sleep 3'"
        marker = running.folder / "bots" / "ann" / "2" / "built.txt"
        upload = bot_zip("ann", {"bot.py": FLAKY.replace("WHO", "y")}, build=slow)
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        until(marker.exists, timeout=60)
        os.kill(children(running)["builder"], signal.SIGKILL)
        running.stderr_until("the builder stopped (exit status -9); starting it again")
        assert settled(running, "ann@2")["status"] == "active"
        assert marker.read_text() == "x\nx\n", "the cut build ran again, from its start"
        until(lambda: played_by(running.folder, "ann@2") >= 3)
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143
        games = counted_once(running.folder)
        assert games["ann"] > held and games["ann@2"] >= 3, games
    finally:
        if running.process.poll() is None:
            running.process.terminate()
            running.process.wait(timeout=30)


@contextlib.contextmanager
def small_disk(where: Path, mb: int) -> Iterator[Path]:
    """A file system of ``mb`` megabytes of its own (a tmpfs, mounted as root) at ``where``."""
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={mb}m", "tmpfs", str(where)],
                   check=True)  # fmt: skip
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path, leave: int) -> Path:
    """A file that takes all of ``disk``'s free space but ``leave`` bytes."""
    filler = disk / "filler"
    with filler.open("wb") as file:
        os.posix_fallocate(file.fileno(), 0, shutil.disk_usage(disk).free - leave)
    return filler


# Root mounts the small disk: the project's policy for what a test needs (fails under CI).
@pytest.mark.system(
    absent=() if os.geteuid() == 0 else ("root (to `mount` a small tmpfs)",),
    untested="a full disk under the server was",
)
def test_a_full_disk_refuses_uploads_whole_and_pauses_the_ladder(tmp_path: Path) -> None:
    """On a full disk an upload is refused with 507 in one line, large (spooled) or small
    (unpacked), nothing of it kept; the ladder says it waits for room, without a crash
    loop, and plays on once there is room; no game is lost or counted twice."""
    league = LADDER.replace("upload_mb = 1\n", "upload_mb = 5\n")
    with small_disk(tmp_path / "disk", 128) as disk:
        running = start(disk, free_port(), league)
        try:
            ann = author(running, "ann")
            upload = bot_zip("ann", {"bot.py": FLAKY.replace("WHO", "x")})
            assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
            assert settled(running, "ann")["status"] == "active"
            until(lambda: played_by(running.folder, "ann") >= 3)
            before = children(running)
            filler = fill(disk, 1 << 20)
            for size in (4 << 20, 1536 << 10):  # spooled while it arrives; kept in memory
                big = bot_zip("ann", {"bot.py": FLAKY, "blob": os.urandom(size)})
                status, answer = running.call("POST", "/api/v1/bots", token=ann, upload=big)
                assert (status, answer) == (507, {"error": FULL}), (size, status, answer)
                assert list((running.folder / "uploads").iterdir()) == [], "nothing half-kept"
            running.stderr_until("the ladder waits until 50 MB are free", timeout=60)
            assert running.call("GET", "/api/v1/bots/ann")[1]["versions"][0]["version"] == "ann"
            held = played_by(running.folder, "ann")
            time.sleep(3)
            assert children(running) == before, "no child died: no crash loop"
            filler.unlink()
            running.stderr_until("the ladder goes on", timeout=30)
            until(lambda: played_by(running.folder, "ann") > held + 3)
            running.process.terminate()
            assert running.process.wait(timeout=30) == 143
            counted_once(running.folder)
        finally:
            if running.process.poll() is None:
                running.process.terminate()
                running.process.wait(timeout=30)


def damage(path: Path) -> str:
    """Overwrite a stretch of ``path`` past its first page, as a failing disk might; the
    file's SHA-256 after."""
    with path.open("r+b") as file:
        file.seek(8192)
        file.write(b"\xde\xad" * 2048)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_damaged_database_is_named_in_one_line_and_never_changed(tmp_path: Path) -> None:
    """Either database of a folder, damaged while the server was stopped: the next start
    is refused in one line naming the file, which is left byte for byte as it was; the
    folder restored, the server starts again."""
    league = CONFIG.replace("players = 3\n", "players = 2\ndeals = 1\nmove_ms = 200\n")
    league += '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'
    port = free_port()
    running = start(tmp_path, port, league)
    until(lambda: played_by(running.folder, "rando") >= 20)
    running.process.terminate()
    assert running.process.wait(timeout=30) == 143
    folder = running.folder
    for name, said in (
        ("results.sqlite", "is damaged (database disk image is malformed): nothing was "
                           "changed; restore it from a copy, or start a new folder"),
        ("server.sqlite", "is damaged (database disk image is malformed): nothing was changed "
                          "in it; restore the folder from a backup (arena serve CONFIG "
                          "--restore FILE)"),
    ):  # fmt: skip
        path = folder / name
        kept = path.read_bytes()
        digest = damage(path)
        done = subprocess.run(
            [sys.executable, "-m", "arena", "serve", str(running.config), "--port", str(port)],
            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert done.stderr == f"Error: {Path('results/club') / name} {said}\n", done.stderr
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, "never changed"
        path.write_bytes(kept)
    again = start(tmp_path, port, league)
    again.process.terminate()
    assert again.process.wait(timeout=30) == 143


def test_a_child_that_finds_damage_stops_the_server_at_once() -> None:
    """A child that exits FATAL (it found a database damaged, and said so) is not started
    again: the server stops with exit status 1, saying which child."""
    from arena.server.supervise import FATAL, Child, Supervisor  # noqa: PLC0415

    said: list[str] = []
    child = Child("ladder", [sys.executable, "-c", f"raise SystemExit({FATAL})"])
    started = time.monotonic()
    assert Supervisor([child], said.append).run() == 1
    assert said == ["the ladder cannot go on (its line above says why), so the server stops"]
    assert time.monotonic() - started < 10


def ids(pid: int) -> dict[str, str]:
    """A process's uids, gids, groups and effective capabilities, as /proc shows them."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    wanted = ("Uid", "Gid", "Groups", "CapEff")
    return {key: value.strip() for key, _, value in (line.partition(":") for line in lines)
            if key in wanted}  # fmt: skip


@pytest.mark.system(
    absent=() if os.geteuid() == 0 else ("root (a server that is not root has no user to drop)",),
    untested="the web app's own user was",
)
def test_started_as_root_the_web_app_answers_as_a_user_of_its_own(tmp_path: Path) -> None:
    """The web app, the part that reads what strangers send, drops root once it has read
    the secrets: a uid and group of its own, no other group, no capability; the folder
    is shared with that group only, the secrets stay root's; uploads, pages and the
    ladder work through it, and a restart keeps the same uid."""
    from arena.server.webuser import FIRST  # noqa: PLC0415

    league = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 200\n")
    league += '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'
    port = free_port()
    running = start(tmp_path, port, league)
    try:
        uid = int((running.folder / "web.uid").read_text())
        assert FIRST <= uid < FIRST + 65536
        jail, *_, web = web_app(running)  # bubblewrap, root's, with the web app inside
        assert ids(jail)["Uid"].startswith("0\t")
        each = "\t".join([str(uid)] * 4)  # real, effective, saved, file system
        assert ids(web) == {"Uid": each, "Gid": each, "Groups": "", "CapEff": "0" * 16}
        assert ids(children(running)["ladder"])["Uid"].startswith("0\t"), "the rest stays root"
        ann = author(running, "ann")
        upload = bot_zip("ann", {"bot.py": FLAKY})
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "ann")["status"] == "active"
        until(lambda: played_by(running.folder, "ann") > 0)
        # The group writes only its database and the uploads, received and queued: not
        # the folder itself (where root's files are, and root makes files by name), nor
        # the versions, the logs, the replays, the ladder's store; the secrets are root's.
        wanted = {
            ".": (0, uid, 0o2750),
            "server.sqlite": (0, uid, 0o660),
            "server.sqlite-wal": (0, uid, 0o660),
            "uploads": (0, uid, 0o2770),
            "queued": (0, uid, 0o2770),
            "bots": (0, uid, 0o2750),
            "logs": (0, uid, 0o2750),
            "replays": (0, uid, 0o2750),
            "results.sqlite": (0, uid, 0o640),
            "secrets.json": (0, 0, 0o600),
            "web.uid": (0, 0, 0o600),
        }
        for name, (owner, group, mode) in wanted.items():
            seen = (running.folder / name).stat()
            assert (seen.st_uid, seen.st_gid, seen.st_mode & 0o7777) == (owner, group, mode), name
        replay = next((running.folder / "replays").iterdir())
        assert replay.stat().st_gid == uid and replay.stat().st_mode & 0o077 == 0o040
        # The builder copied the upload into root's folder: nothing there is the web app's,
        # and nothing waits in the queue.
        assert list((running.folder / "queued" / "ann").iterdir()) == []
        versions = running.folder / "bots"
        assert all(path.lstat().st_uid != uid for path in versions.rglob("*"))
        assert (versions / "ann" / "1" / "bot.py").is_file()
        request = urllib.request.Request(f"{running.url}/api/v1/versions/ann/archive")
        request.add_header("Authorization", f"Bearer {ann}")
        with urllib.request.urlopen(request, timeout=30) as answer:  # the builder's copy
            packed = answer.read()
        with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
            assert "ann/bot.py" in archive.getnames()
        # While the ladder is paused (its store closed), the web app still reads it.
        code = running.invite("olga", "organizer")
        _, olga = running.call(
            "POST", "/api/v1/join", {"code": code, "user": "olga", "password": PASSWORD}
        )
        pause = running.call("POST", "/api/v1/ladder", {"paused": True}, token=olga["token"])
        assert pause[0] == 200
        running.stderr_until("paused")
        for path in ("/api/v1/leaderboard", "/api/v1/games", "/"):
            assert running.text(path)[0] == 200, path
        running.process.terminate()
        assert running.process.wait(timeout=30) == 143
        running = start(tmp_path, port, league)
        assert (running.folder / "web.uid").read_text() == f"{uid}\n", "the same uid"
    finally:
        running.process.terminate()
        running.process.wait(timeout=30)


def test_the_builder_copies_a_queued_version_and_follows_no_link_the_web_app_planted(
    tmp_path: Path,
) -> None:
    """What the web app queued is copied into ``bots`` as files of the builder's own,
    modes kept less others' writes and setuid; a queued folder holding a link (to a
    secret, or a folder) or a fifo is refused in one line, nothing read through it, no
    half copy left; a crash's leftover in ``bots`` gives way to the queued copy."""
    from arena.server.folder import ServerError  # noqa: PLC0415
    from arena.server.uploads import admit, queued_folder, version_folder  # noqa: PLC0415

    queued = queued_folder(tmp_path, "ann", 1)
    (queued / "lib").mkdir(parents=True)
    (queued / "bot.toml").write_text("name = 'ann'\n")
    (queued / "run.sh").write_text("#!/bin/sh\n")
    (queued / "run.sh").chmod(0o4777)
    (queued / "lib" / "x.py").write_text("x = 1\n")
    stale = version_folder(tmp_path, "ann", 1)
    stale.mkdir(parents=True)
    (stale / "old.txt").write_text("a crash's leftover")
    home = admit(tmp_path, "ann", 1)
    assert home == stale and not queued.exists()
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == [
        "bot.toml", "lib", "lib/x.py", "run.sh"]  # fmt: skip
    assert (home / "run.sh").stat().st_mode & 0o7777 == 0o755
    assert admit(tmp_path, "ann", 1) == home, "admitted once, found after"

    secret = tmp_path / "secret"
    secret.write_text("the server's")
    for number, plant in enumerate(("link", "folder link", "fifo"), start=2):
        queued = queued_folder(tmp_path, "ann", number)
        (queued / "deep").mkdir(parents=True)
        (queued / "bot.toml").write_text("name = 'ann'\n")
        planted = queued / "deep" / "x"
        if plant == "link":
            planted.symlink_to(secret)
        elif plant == "folder link":
            planted.symlink_to(tmp_path)
        else:
            os.mkfifo(planted)
        with pytest.raises(ServerError, match=r"/deep/x: not a file or folder"):
            admit(tmp_path, "ann", number)
        assert not version_folder(tmp_path, "ann", number).exists()
        assert not version_folder(tmp_path, "ann", number).with_name(f"{number}.partial").exists()
    gone = queued_folder(tmp_path, "ann", 5)
    gone.parent.mkdir(parents=True, exist_ok=True)
    gone.symlink_to(tmp_path)
    with pytest.raises(ServerError, match="is not a folder of its own"):
        admit(tmp_path, "ann", 5)
    assert secret.read_text() == "the server's"


def test_the_parents_connections_keep_the_journals_the_web_app_cannot_make(
    tmp_path: Path,
) -> None:
    """SQLite removes ``-wal`` and ``-shm`` when the last connection closes (the ladder's at
    a pause): while the parent holds both databases, they stay."""
    from arena.results.store import DATABASE  # noqa: PLC0415
    from arena.server.folder import SERVER_DB  # noqa: PLC0415
    from arena.server.webuser import Journals  # noqa: PLC0415

    journals = Journals(tmp_path)
    journals.keep()
    assert journals.held == {}, "nothing there yet"
    for name in (SERVER_DB, DATABASE):
        with closing(sqlite3.connect(tmp_path / name)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE t (x)")
            db.commit()
        assert not (tmp_path / f"{name}-wal").exists(), "without a holder they go"
    try:
        journals.keep()
        for name in (SERVER_DB, DATABASE):
            with closing(sqlite3.connect(tmp_path / name)) as db:
                db.execute("INSERT INTO t VALUES (1)")
                db.commit()
            assert (tmp_path / f"{name}-wal").exists() and (tmp_path / f"{name}-shm").exists()
    finally:
        journals.close()

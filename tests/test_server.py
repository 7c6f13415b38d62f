"""``arena serve``, the first step: a real server process, its folder, invites, joining,
tokens, the API's errors, and its children restarted or stopped with it.

Every server here is a real ``arena serve`` on a free port, talked to with the
standard library's HTTP client, as a grader's script would; ``--invite`` runs
as a process of its own too (Django is configured once per process, for one
folder).
"""

from __future__ import annotations

import io
import json
import os
import re
import select
import shutil
import signal
import socket
import sqlite3
import ssl
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from arena.server.accounts import client_address
from arena.server.uploads import files_of
from tests.system import E2E

pytestmark = E2E

CONFIG = """\
name = "club"
players = 3
[[bots]]
name = "greedy"
command = "python3 -m arena.samples.greedy_bot"
[server]
title = "Friday club"
upload_mb = 1
match_max_games = 60
"""
KIT = Path(__file__).resolve().parent.parent / "sample_bots" / "python"
STATUSES = ("queued", "building", "checking", "active", "failed", "retired")
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def arena(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """An ``arena`` command as a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "arena", *args],
        cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


@dataclass
class Server:
    """A running ``arena serve`` and how to reach it."""

    folder: Path
    config: Path
    port: int
    process: subprocess.Popen[str]
    #: What the server wrote to stderr past the last line :meth:`stderr_until` returned.
    unread: str = ""
    #: How TLS is checked where :attr:`url` is https (a proxy in front: tests/test_deploy.py).
    tls: ClassVar[ssl.SSLContext | None] = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def invite(self, name: str, role: str = "author") -> str:
        done = arena(
            "serve", str(self.config), "--invite", name, "--role", role, "--port", str(self.port),
            cwd=self.config.parent,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        link = done.stdout.strip()
        assert link.startswith(f"{self.url}/join/"), link
        return link.rsplit("/", 1)[1]

    def call(
        self,
        method: str,
        path: str,
        data: object = None,
        token: str | None = None,
        upload: bytes | None = None,
    ) -> tuple[int, Any]:
        """The status and JSON body of one request (``upload``: a file in the multipart
        field ``bot``, as a browser's form or ``curl -F bot=@FILE`` sends it)."""
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.url + path, data=body, method=method)
        if upload is not None:
            boundary = "arena-test-boundary"
            request.data = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="bot"; '
                    f'filename="bot.zip"\r\nContent-Type: application/octet-stream\r\n\r\n'
                ).encode()
                + upload
                + f"\r\n--{boundary}--\r\n".encode()
            )
            request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.tls) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def text(self, path: str, token: str | None = None) -> tuple[int, str]:
        """The status and text body of a GET (a replay's JSON lines, a build log)."""
        request = urllib.request.Request(self.url + path)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.tls) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()

    def stderr_until(self, text: str, timeout: float = 30) -> str:
        """The server's stderr lines until one holds ``text``; fails after ``timeout``
        seconds without one (it waits for a line no longer than that: a server that
        says nothing must not hang the suite)."""
        assert self.process.stderr is not None
        # Read from the pipe itself, keeping what follows a line for the next call: the
        # text stream's readline read ahead into a buffer select cannot see, and a line
        # waiting there (the ladder's "waits until ...") timed the call out.
        fd = self.process.stderr.fileno()
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            while "\n" in self.unread:
                line, self.unread = self.unread.split("\n", 1)
                seen.append(line + "\n")
                if text in line:
                    return "".join(seen)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.unread += chunk.decode(errors="replace")
        raise AssertionError(f"no {text!r} in the server's stderr: {''.join(seen)}")


def web_app(server: Server) -> list[int]:
    """The processes of the server's web app: the server's child first (bubblewrap, where
    the web app runs as a user of its own, then the web app inside it)."""
    found = subprocess.run(
        ["pgrep", "-a", "-P", str(server.process.pid), "-f", "arena.server.child web"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    jails = [int(line.split()[0]) for line in found if "bwrap" in line.split()[1]]
    if not jails:
        assert len(found) == 1, found
        return [int(found[0].split()[0])]
    assert len(jails) == 1, found
    chain = [jails[0]]
    while Path(f"/proc/{chain[-1]}/exe").resolve().name == "bwrap":  # its pid 1, then the app
        inside = subprocess.run(["pgrep", "-P", str(chain[-1])], capture_output=True, text=True,
                                check=True).stdout.split()  # fmt: skip
        chain.append(int(inside[0]))
    return chain


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs: a zombie (dead, not yet reaped by whoever adopted it
    when its parent died) does not."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def answers(url: str, timeout: float = 30) -> None:
    """Wait until the web app answers at ``url``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url + "/api/v1/account", timeout=5)
        except urllib.error.HTTPError:
            return  # 401: it answers
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def start(folder: Path, port: int, text: str = CONFIG) -> Server:
    config = folder / "club.toml"
    config.write_text(text)
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(config), "--port", str(port)],
        cwd=folder, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    server = Server(folder / "results" / "club", config, port, process)
    server.stderr_until("arena serve: ")
    answers(server.url)
    return server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start(tmp_path, free_port())
    yield running
    if running.process.poll() is None:  # a test may have stopped it
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=30) == 130


def test_an_invited_author_joins_and_the_token_is_theirs(server: Server) -> None:
    code = server.invite("ann")
    status, answer = server.call("POST", "/api/v1/join", {"code": code, "user": "ann",
                                                          "password": PASSWORD})  # fmt: skip
    assert status == 201, answer
    assert answer["user"] == "ann" and answer["token"].startswith("arena_")
    status, me = server.call("GET", "/api/v1/account", token=answer["token"])
    assert status == 200 and me["user"] == "ann" and me["role"] == "author"
    assert [token["prefix"] for token in me["tokens"]] == [answer["token"][:8]]
    assert answer["token"] not in json.dumps(me), "a token is shown once, never again"
    status, again = server.call("POST", "/api/v1/join", {"code": code, "user": "ann",
                                                         "password": PASSWORD})  # fmt: skip
    assert status == 400 and "used" in again["error"], "single use"


def test_joining_is_refused_in_one_line_for_each_bad_request(server: Server) -> None:
    code = server.invite("bob")
    for data, said in [
        ({"code": code, "user": "eve", "password": PASSWORD}, "another user name"),
        ({"code": code, "user": "bob", "password": "12345678"}, "password refused"),
        ({"code": "x" * 43, "user": "bob", "password": PASSWORD}, "unknown, used or expired"),
        ({"code": code, "user": "bob"}, "'password' is missing"),
        ([1, 2], "JSON object"),
    ]:
        status, answer = server.call("POST", "/api/v1/join", data)
        assert (status, said in answer["error"]) == (400, True), answer
        assert "\n" not in answer["error"]
    status, answer = server.call("POST", "/api/v1/join", {"code": code, "user": "bob",
                                                          "password": PASSWORD})  # fmt: skip
    assert status == 201, "refusals used nothing up"


def test_an_invite_for_an_existing_user_resets_the_password(server: Server) -> None:
    first = {"code": server.invite("cyd"), "user": "cyd", "password": PASSWORD}
    assert server.call("POST", "/api/v1/join", first)[0] == 201
    second = {"code": server.invite("cyd"), "user": "cyd", "password": "another long phrase"}
    status, answer = server.call("POST", "/api/v1/join", second)
    assert status == 201 and answer["user"] == "cyd"
    status, me = server.call("GET", "/api/v1/account", token=answer["token"])
    assert len(me["tokens"]) == 2, "the same account, a second token"
    with closing(sqlite3.connect(server.folder / "server.sqlite")) as db:
        hashes = [row[0] for row in db.execute("SELECT password FROM auth_user")]
        tokens = [row[0] for row in db.execute("SELECT token_hash FROM web_apitoken")]
    assert len(hashes) == 1 and hashes[0].startswith("pbkdf2_sha256$")
    assert answer["token"] not in tokens and all(len(t) == 64 for t in tokens), "hashes only"


def test_the_api_says_each_error_as_json(server: Server) -> None:
    organizer = server.invite("olga", "organizer")
    _, joined = server.call("POST", "/api/v1/join", {"code": organizer, "user": "olga",
                                                          "password": PASSWORD})  # fmt: skip
    assert server.call("GET", "/api/v1/account", token=joined["token"])[1]["role"] == "organizer"
    assert server.call("GET", "/api/v1/account") == (401, {
        "error": "a valid API token is needed: Authorization: Bearer TOKEN"})  # fmt: skip
    assert server.call("GET", "/api/v1/account", token="arena_forged")[0] == 401
    assert server.call("GET", "/api/v1/nothing")[0] == 404
    assert server.call("GET", "/api/v1/join")[0] == 405
    assert server.call("GET", "/api/v1/account/", token=joined["token"])[0] == 404, "no slashes"


def test_a_web_app_that_dies_is_started_again_and_three_deaths_stop_the_server(
    server: Server,
) -> None:
    for death in range(3):
        os.kill(web_app(server)[0], signal.SIGKILL)
        if death < 2:
            server.stderr_until("the web app stopped (exit status -9); starting it again")
            answers(server.url)
    server.stderr_until("3 children died within 60 s, so the server stops")
    assert server.process.wait(timeout=30) == 1


def test_kill_9_of_the_server_takes_its_children_and_a_rerun_resumes(tmp_path: Path) -> None:
    port = free_port()
    first = start(tmp_path, port)
    code = first.invite("dee")
    web = web_app(first)
    first.process.kill()
    first.process.wait()
    deadline = time.monotonic() + 10
    while any(map(alive, web)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, web)), "the web app died with the server"
    second = start(tmp_path, port)  # the lock and the address are free again
    try:
        status, _ = second.call("POST", "/api/v1/join", {"code": code, "user": "dee",
                                                         "password": PASSWORD})  # fmt: skip
        assert status == 201, "the invite made before the kill is kept"
        again = arena("serve", str(second.config), "--port", str(free_port()), cwd=tmp_path)
        assert again.returncode == 1
        said = "Error: another arena serve runs on results/club: one server per folder\n"
        assert again.stderr == said
    finally:
        second.process.send_signal(signal.SIGTERM)
        assert second.process.wait(timeout=30) == 143


def test_invites_need_no_running_server_and_the_folder_is_owner_only(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    config.write_text(CONFIG)
    done = arena("serve", str(config), "--invite", "ann", "--out", str(tmp_path / "c"),
                 cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("http://127.0.0.1:8000/join/") and done.stdout.count("\n") == 1
    code = done.stdout.strip().rsplit("/", 1)[1]
    assert len(code) >= 43, "at least 256 bits, url-safe"
    folder = tmp_path / "c"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
    secrets = json.loads((folder / "secrets.json").read_text())
    assert secrets["ladder_seed"].bit_length() > 64 and len(secrets["django_key"]) >= 50


def test_a_server_config_refuses_what_a_ladder_cannot_have(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    for extra, said in [
        ("rounds = 5\n", "'rounds' has no place in a server config: a ladder never ends"),
        ("seed = 7\n", "'seed' has no place in a server config: the ladder's seed is a secret"),
        ('schedule = "round-robin"\n', "schedule"),
        ("[server]\nuplod_mb = 5\n", "uplod_mb"),
        ('[server]\nurl = "ftp://x"\n', "url"),
        ('[server]\nreference_bot = "ghost"\n', "reference_bot 'ghost' is not one of the house"),
        (
            '[server]\nreference_bot = "r"\nmatch_share = 0\n[[bots]]\nname = "r"\n'
            'command = "python3 r.py"\n',
            "reference_bot needs match_share above 0",
        ),
    ]:
        config.write_text(extra + 'name = "club"\n' if extra[0] != "[" else 'name = "c"\n' + extra)
        done = arena("serve", str(config), "--invite", "x", cwd=tmp_path)
        assert done.returncode == 1, (extra, done.stdout)
        assert done.stderr.startswith(f"Error: {config}: ") and said in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "results").exists(), "nothing made for a refused config"


def test_a_folder_written_by_a_newer_arena_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    config.write_text(CONFIG)
    assert arena("serve", str(config), "--invite", "ann", cwd=tmp_path).returncode == 0
    database = tmp_path / "results" / "club" / "server.sqlite"
    with closing(sqlite3.connect(database)) as db, db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('web', '0999_from_the_future', '2030-01-01')"
        )
    done = arena("serve", str(config), "--invite", "bob", cwd=tmp_path)
    assert done.returncode == 1
    assert "was written by a newer arena" in done.stderr and "web.0999_from_the_future" in (
        done.stderr
    )


def test_the_migrations_hold_every_model_change(tmp_path: Path) -> None:
    """A model changed without its migration would leave a folder's tables behind."""
    script = (
        "import sys; from pathlib import Path; from arena.server.config import ServerConfig;"
        "from arena.server.folder import prepare; from arena.server.site import setup;"
        "d = Path(sys.argv[1]); setup(d, ServerConfig(d / 'c.toml', {}, {}), prepare(d), "
        "'http://127.0.0.1:8000'); from django.core.management import call_command;"
        "call_command('makemigrations', '--check', '--dry-run', verbosity=0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def zipped(
    folder: Path,
    change: str = "",
    name: str | None = None,
    build: str = "",
    files: dict[str, str] | None = None,
) -> bytes:
    """A bot folder as a .zip (its build caches left out), ``change`` appended to its
    strategy, its bot.toml's name made ``name`` and its build ``build``, if given, and
    ``files`` (path: text) added."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                text = path.read_bytes()
                if path.name == "strategy.py":
                    text += change.encode()
                if path.name == "bot.toml" and name is not None:
                    text = text.replace(b'name = "python-greedy"', f'name = "{name}"'.encode())
                if path.name == "bot.toml" and build:
                    text += f"build = {json.dumps(build)}\n".encode()
                archive.writestr(f"mybot/{path.relative_to(folder)}", text)
        for added, content in (files or {}).items():
            archive.writestr(f"mybot/{added}", content)
    return buffer.getvalue()


def author(server: Server, name: str) -> str:
    """A new author's token."""
    status, joined = server.call("POST", "/api/v1/join", {
        "code": server.invite(name), "user": name, "password": PASSWORD})  # fmt: skip
    assert status == 201, joined
    return str(joined["token"])


def test_an_upload_becomes_a_version_once_per_content(server: Server) -> None:
    token = author(server, "ann")
    status, answer = server.call("POST", "/api/v1/bots", token=token, upload=zipped(KIT))
    assert status == 202, answer
    assert answer == {"bot": "python-greedy", "version": "python-greedy", "status": "queued",
                      "url": f"{server.url}/versions/python-greedy"}  # fmt: skip
    kept = files_of(server.folder, "python-greedy", 1)  # queued, or the builder's by now
    assert (kept / "bot.toml").is_file() and (kept / "strategy.py").is_file()
    status, again = server.call("POST", "/api/v1/bots", token=token, upload=zipped(KIT))
    assert (status, again["version"]) == (200, "python-greedy"), "the builder may have moved it on"
    status, second = server.call("POST", "/api/v1/bots", token=token,
                                 upload=zipped(KIT, change="# v2\n"))  # fmt: skip
    assert (status, second["version"]) == (202, "python-greedy@2")
    status, bot = server.call("GET", "/api/v1/bots/Python-Greedy")
    assert status == 200 and bot["owner"] == "ann"
    assert [v["version"] for v in bot["versions"]] == ["python-greedy@2", "python-greedy"]
    status, version = server.call("GET", "/api/v1/versions/python-greedy@2")
    assert status == 200 and version["owner"] == "ann" and version["status"] in STATUSES
    assert server.call("GET", "/api/v1/versions/python-greedy@1")[0] == 404, "it is BOT"
    assert server.call("GET", "/api/v1/versions/nobody")[0] == 404
    assert not any((server.folder / "uploads").iterdir()), "no scratch left behind"


def test_uploads_are_refused_with_the_contracts_status_and_one_line(server: Server) -> None:
    ann, bob = author(server, "ann"), author(server, "bob")
    assert server.call("POST", "/api/v1/bots", token=ann, upload=zipped(KIT))[0] == 202
    for token, upload, status, said in [
        (None, zipped(KIT), 401, "API token"),
        (bob, zipped(KIT, name="PYTHON-greedy"), 409, "another author's bot"),
        (bob, zipped(KIT, name="Greedy"), 409, "a house bot"),
        (ann, zipped(KIT, name="second"), 429, "the most an author may enter"),
        (bob, b"not an archive at all", 400, ""),
        (bob, b"\0" * (1536 * 1024), 413, "at most 1 MB"),
    ]:
        got, answer = server.call("POST", "/api/v1/bots", token=token, upload=upload)
        assert (got, said in answer["error"]) == (status, True), (status, answer)
        assert "\n" not in answer["error"]
    assert server.call("GET", "/api/v1/bots/second")[0] == 404, "nothing kept of a refusal"


def settled(server: Server, version: str, timeout: float = 90) -> dict[str, Any]:
    """The version once the builder is done with it (active or failed)."""
    deadline = time.monotonic() + timeout
    while True:
        status, answer = server.call("GET", f"/api/v1/versions/{version}")
        assert status == 200, answer
        if answer["status"] in ("active", "failed") or time.monotonic() > deadline:
            return dict(answer)
        time.sleep(0.3)


def failing_build(folder: Path) -> bytes:
    """A bot whose build fails, as a .zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        build = "sh -c 'echo main.c:1: error: nope >&2; exit 2'"
        archive.writestr("bot.toml", f'name = "broken"\nrun = "./bot"\nbuild = "{build}"\n')
    return buffer.getvalue()


def test_a_version_is_built_checked_and_made_active_retiring_the_one_before(
    server: Server,
) -> None:
    ann, bob = author(server, "ann"), author(server, "bob")
    assert server.call("POST", "/api/v1/bots", token=ann, upload=zipped(KIT))[0] == 202
    first = settled(server, "python-greedy")
    assert (first["status"], first["reason"]) == ("active", ""), first
    assert server.call("POST", "/api/v1/bots", token=ann,
                       upload=zipped(KIT, change="# v2\n"))[0] == 202  # fmt: skip
    assert settled(server, "python-greedy@2")["status"] == "active"
    assert server.call("GET", "/api/v1/versions/python-greedy")[1]["status"] == "retired"
    assert (
        server.call("POST", "/api/v1/bots", token=bob, upload=failing_build(server.folder))[0]
        == 202
    )
    failed = settled(server, "broken")
    assert (failed["status"], failed["reason"]) == ("failed", "the build failed"), "no detail"
    _, other = server.call("GET", "/api/v1/versions/broken", token=ann)
    assert other["reason"] == "the build failed", "what the build printed is its owner's"
    _, mine = server.call("GET", "/api/v1/versions/broken", token=bob)
    assert mine["reason"].startswith("the build failed: ") and "\n" not in mine["reason"]
    assert "nope" in mine["reason"]
    status, _ = server.call("GET", "/api/v1/versions/broken/build-log", token=ann)
    assert status == 403, "a build log is its owner's"
    assert server.call("GET", "/api/v1/versions/broken/build-log")[0] == 401
    request = urllib.request.Request(
        f"{server.url}/api/v1/versions/broken/build-log", headers={"Authorization": f"Bearer {bob}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert "main.c:1: error: nope" in answer.read().decode()
    again = "/api/v1/versions/python-greedy/activate"
    assert server.call("POST", again, token=bob)[0] == 403, "not bob's"
    assert server.call("POST", "/api/v1/versions/broken/activate", token=bob)[0] == 400
    status, answer = server.call("POST", again, token=ann)
    assert (status, answer["status"]) == (200, "active"), answer
    assert server.call("GET", "/api/v1/versions/python-greedy@2")[1]["status"] == "retired"
    assert server.call("POST", again, token=ann)[0] == 400, "already active"
    assert server.call("POST", "/api/v1/bots/greedy/withdraw", token=ann)[0] == 403
    status, answer = server.call("POST", "/api/v1/bots/python-greedy/withdraw", token=ann)
    assert status == 200 and {v["status"] for v in answer["versions"]} == {"retired"}


#: A strategy that was never written for three seats (check-bot tries 2, 4, 5 and 7).
NOT_FOR_THREE = """

_observe = Strategy.observe


def _four_seats_only(self, message):
    if isinstance(message, GameStart) and len(message.players) == 3:
        raise SystemExit("written for four seats")
    _observe(self, message)


Strategy.observe = _four_seats_only
"""


#: Appended to an upload's strategy: its processes refuse to play as the server's user.
NOT_AS_THE_SERVER = """
import os as _os
if _os.getuid() == {uid}:
    raise SystemExit("this bot runs as the server's user")
"""


def test_an_uploads_build_runs_jailed(server: Server, tmp_path: Path) -> None:
    """A build is a stranger's code: it cannot read the server's secrets, write outside
    its folder, or reach the network; it still builds its own folder. Run as root, the
    build and every process of the bot run under uids of their own, never the server's
    (the bot's self-play game would fail), though the server's folder is its own only."""
    secrets = server.folder / "secrets.json"
    before = secrets.read_bytes()
    probes = "\n".join([
        f"cat {secrets} > stolen.txt && echo LEAK-read || echo refused-read",
        f"echo pwned >> {secrets} && echo LEAK-write || echo refused-write",
        f"echo pwned > {tmp_path}/canary && echo LEAK-canary || echo refused-canary",
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", "
        f"{server.port}), 3)' && echo LEAK-net || echo refused-net",
        f'[ "$(id -u)" != {os.geteuid()} ] && echo refused-uid || echo LEAK-uid',
        "echo built > made.txt",
    ])  # fmt: skip
    assert server.folder.stat().st_mode & 0o7777 == (0o2750 if os.geteuid() == 0 else 0o700)
    ann = author(server, "ann")
    change = NOT_AS_THE_SERVER.format(uid=os.geteuid()) if os.geteuid() == 0 else ""
    upload = zipped(KIT, change=change, build="sh probes.sh", files={"probes.sh": probes})
    assert server.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
    assert settled(server, "python-greedy")["status"] == "active"
    status, log = server.text("/api/v1/versions/python-greedy/build-log", ann)
    assert status == 200 and "LEAK" not in log, log
    probes_refused = ("read", "write", "canary", "net", *(("uid",) if os.geteuid() == 0 else ()))
    assert all(f"refused-{probe}" in log for probe in probes_refused), log
    assert secrets.read_bytes() == before and not (tmp_path / "canary").exists()
    made = next(server.folder.glob("bots/*/1/**/made.txt"))
    assert made.stat().st_uid == os.geteuid(), "the build's files are the server's after it"
    layers = server.call("GET", "/api/v1/versions/python-greedy")[1]["sandbox"]
    assert "landlock" in " ".join(layers) and ("separate-uids" in layers) == (os.geteuid() == 0)
    status, page = server.text("/versions/python-greedy")
    assert status == 200 and "separate-uids" in page
    assert ("every process under a uid of its own" in page) == (os.geteuid() == 0)


def test_a_version_that_fails_its_self_play_game_is_not_made_active(server: Server) -> None:
    """check-bot passes it; the competition's own table (three seats) does not."""
    ann = author(server, "ann")
    upload = zipped(KIT, change=NOT_FOR_THREE, name="fourbot")
    assert server.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
    failed = settled(server, "fourbot")
    assert (failed["status"], failed["reason"]) == ("failed", "the self-play game failed")
    _, mine = server.call("GET", "/api/v1/versions/fourbot", token=ann)
    assert mine["reason"].startswith("the self-play game failed: seat 0: crash: "), mine


def test_an_uploaded_bot_gets_no_more_than_the_competitions_limits() -> None:
    from arena.bots.spec import BotSpec  # noqa: PLC0415
    from arena.server.ladder import within  # noqa: PLC0415

    greedy = BotSpec("b", ("python3", "bot.py"), "t", limits=(("cpu_s", 5), ("memory_mb", 9000)))
    assert within(greedy, (("memory_mb", 256),)).limits == (("cpu_s", 5), ("memory_mb", 256))
    assert within(greedy, ()).limits == (("cpu_s", 5), ("memory_mb", 1024)), "the default"
    modest = BotSpec("m", ("python3", "bot.py"), "t", limits=(("memory_mb", 100),))
    assert within(modest, (("memory_mb", 256),)).limits == (("memory_mb", 100),)


def test_a_build_cut_by_kill_9_runs_again_when_the_server_comes_back(tmp_path: Path) -> None:
    port = free_port()
    first = start(tmp_path, port)
    token = author(first, "ann")
    marker = first.folder / "bots" / "python-greedy" / "1" / "built.txt"
    slow = "sh -c 'echo x >> built.txt; sleep 3'"
    assert first.call("POST", "/api/v1/bots", token=token, upload=zipped(KIT, build=slow))[0] == 202
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert first.call("GET", "/api/v1/versions/python-greedy")[1]["status"] == "building"
    first.process.kill()
    first.process.wait()
    second = start(tmp_path, port)
    try:
        assert settled(second, "python-greedy")["status"] == "active"
        assert marker.read_text() == "x\nx\n", "the cut build ran again, from its start"
    finally:
        second.process.send_signal(signal.SIGTERM)
        assert second.process.wait(timeout=30) == 143


def test_arena_submit_uploads_a_folder_and_waits_for_it(server: Server, tmp_path: Path) -> None:
    token = author(server, "ann")
    mine = tmp_path / "mybot"
    shutil.copytree(KIT, mine, ignore=shutil.ignore_patterns("__pycache__"))
    (mine / "build").mkdir()  # a build output: left out of the upload
    (mine / "build" / "big.bin").write_bytes(os.urandom(2 * 2**20))  # past upload_mb
    environment = {**os.environ, "ARENA_TOKEN": token, "ARENA_SERVER": server.url}
    done = subprocess.run(
        [sys.executable, "-m", "arena", "submit", str(mine), "--wait"],
        capture_output=True, text=True, timeout=120, check=False, env=environment,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"python-greedy: queued, {server.url}/versions/python-greedy"
    assert lines[-1] == "python-greedy: active"
    assert token not in done.stdout + done.stderr, "the token is never printed"
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    (mine / "bot.toml").write_text((mine / "bot.toml").read_text() + 'build = "false"\n')
    done = subprocess.run(
        [sys.executable, "-m", "arena", "submit", str(mine), "--server", server.url,
         "--token-file", str(token_file), "--wait"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("Error: python-greedy@2 failed: the build failed: ")
    for args, env, said in [
        ([str(mine)], {"ARENA_TOKEN": token}, "--server URL"),
        ([str(mine), "--server", server.url], {}, "ARENA_TOKEN"),
    ]:
        bare = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        done = subprocess.run(
            [sys.executable, "-m", "arena", "submit", *args], capture_output=True, text=True,
            timeout=60, check=False, env={**bare, **env},
        )  # fmt: skip
        assert done.returncode == 2 and said in done.stderr, done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "arena", "submit", str(mine), "--server", server.url],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "ARENA_TOKEN": "arena_wrong"},
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error: {server.url} refused the upload (401): ")


def test_an_address_with_too_many_failed_joins_is_answered_429(tmp_path: Path) -> None:
    running = start(tmp_path, free_port(), CONFIG + "login_limit = 3\n")
    try:
        code = running.invite("ann")
        for _ in range(3):
            wrong = {"code": code, "user": "ann", "password": "123"}
            assert running.call("POST", "/api/v1/join", wrong)[0] == 400
        right = {"code": code, "user": "ann", "password": PASSWORD}
        status, answer = running.call("POST", "/api/v1/join", right)
        assert status == 429 and "try again later" in answer["error"], answer
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=30) == 130


def test_the_client_address_behind_trusted_proxies() -> None:
    trusted = ["10.0.0.1", "10.0.0.2"]
    assert client_address("203.0.113.9", "1.2.3.4", trusted) == "203.0.113.9", "no proxy: as is"
    assert client_address("10.0.0.1", "1.2.3.4, 198.51.100.7", trusted) == "198.51.100.7"
    assert client_address("10.0.0.1", "198.51.100.7, 10.0.0.2", trusted) == "198.51.100.7"
    assert client_address("10.0.0.1", "", trusted) == "10.0.0.1"


def league_rows(folder: Path) -> dict[str, dict[str, Any]]:
    """The ladder's leaderboard, by bot (empty before its first game)."""
    done = arena("leaderboard", str(folder), "--format", "json", cwd=folder)
    return {row["bot"]: row for row in json.loads(done.stdout)} if done.returncode == 0 else {}


def test_the_ladder_plays_the_house_bots_and_each_active_version(tmp_path: Path) -> None:
    league = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 50\n")
    running = start(tmp_path, free_port(), league)
    try:
        ann, bob = author(running, "ann"), author(running, "bob")
        upload = zipped(KIT, name="annbot")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert (
            running.call("POST", "/api/v1/bots", token=bob, upload=zipped(KIT, name="bobbot"))[0]
            == 202
        )
        deadline = time.monotonic() + 120
        while set(league_rows(running.folder)) != {"greedy", "annbot", "bobbot"}:
            assert time.monotonic() < deadline, league_rows(running.folder)
            time.sleep(0.5)
        newer = zipped(KIT, name="annbot", change="# v2\n")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=newer)[0] == 202
        while "annbot@2" not in league_rows(running.folder):
            assert time.monotonic() < deadline, league_rows(running.folder)
            time.sleep(0.5)
        assert league_rows(running.folder)["annbot"]["retired"] is True
        status, rows = running.call("GET", "/api/v1/leaderboard")
        assert status == 200
        seen = {row["version"]: (row["owner"], row["status"]) for row in rows}
        assert seen["greedy"] == (None, "active") and seen["annbot@2"] == ("ann", "active")
        assert seen["annbot"] == ("ann", "retired") and seen["bobbot"] == ("bob", "active")
        assert {row["bot"] for row in rows} == set(league_rows(running.folder))
        _, version = running.call("GET", "/api/v1/versions/bobbot")
        assert version["games"] > 0 and version["mu"] is not None, "rated by the ladder"
        assert version["score"] == pytest.approx(version["mu"] - 3 * version["sigma"], abs=0.01)
        check_games(running, ann)
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


#: A script's start: Django set up on a fresh server folder (its first argument), migrated.
DJANGO = """
import json, sys
from pathlib import Path
from arena.server.config import SERVER_KEYS, ServerConfig
from arena.server.folder import prepare
from arena.server.site import migrate, setup
folder = Path(sys.argv[1])
server = {key: default for key, (_, default) in SERVER_KEYS.items()}
setup(folder, ServerConfig(folder / "c.toml", {}, server), prepare(folder), "http://x")
migrate(folder)
from django.contrib.auth.models import User
"""


def django_script(script: str, folder: Path) -> Any:
    """What ``script`` (Django set up on ``folder``) prints, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


REDACTION = (
    DJANGO
    + """
from arena.server import board
from arena.server.web.models import Bot, Version
ann, bob = (User.objects.create_user(name) for name in ("ann", "bob"))
olga = User.objects.create_user("olga", is_staff=True)
mine = Bot.objects.create(name="annbot", key="annbot", owner=ann)
Version.objects.create(bot=mine, number=1, digest="d", status="active")
fault = [{"game": "g1", "kind": "malformed", "detail": "printed: my secret plan"}]
board.standings = lambda _: [{"bot": "annbot", "fault_details": fault}]
print(json.dumps({
    who: board.leaderboard(folder, user)[0]["fault_details"]
    for who, user in (("anonymous", None), ("ann", ann), ("bob", bob), ("olga", olga))
}))
"""
)


def test_fault_details_on_the_leaderboard_are_their_owners_and_organizers_only(
    tmp_path: Path,
) -> None:
    """What a bot printed can be in its fault details: another author must not read it."""
    seen = django_script(REDACTION, tmp_path)
    assert seen["anonymous"] == [] and seen["bob"] == []
    assert seen["ann"] == seen["olga"] != []


def check_games(running: Server, ann: str) -> None:
    """``GET /api/v1/games`` and a game's replay, on a ladder where ann owns annbot."""
    status, games = running.call("GET", "/api/v1/games?bot=ANNBOT&limit=3")
    assert status == 200 and 1 <= len(games) <= 3
    for game in games:
        assert set(game) >= {"id", "seats", "placements", "faults", "replay"}
        assert re.fullmatch(r"g[0-9a-f]{24}", game["id"]), "ids say no rotation"
        assert {"annbot", "annbot@2"} & set(game["seats"]), "every version of the bot"
        assert sorted(game["placements"])[0] == 1 and len(game["seats"]) == 3
    _, everything = running.call("GET", "/api/v1/games?limit=200")
    order = [game["id"] for game in everything]
    assert len(order) == len(set(order)) and games[0]["id"] in order
    for query, code in (
        ("limit=0", 400),
        ("limit=201", 400),
        ("limit=x", 400),
        ("bot=nobody", 404),
    ):
        status, answer = running.call("GET", f"/api/v1/games?{query}")
        assert status == code and "\n" not in answer["error"], (query, answer)
    game = games[0]
    assert game["replay"] == f"{running.url}/api/v1/games/{game['id']}/replay"
    seat = next(n for n, name in enumerate(game["seats"]) if name.startswith("annbot"))
    for token, sees in ((None, False), (ann, True)):
        status, text = running.text(f"/api/v1/games/{game['id']}/replay", token)
        assert status == 200
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines[0]["type"] == "game" and lines[0]["game"] == game["id"]
        assert lines[-1]["type"] == "game_end"
        assert lines[-1]["placements"] == game["placements"]
        command = lines[0]["players"][seat]["bot"]
        assert (command != game["seats"][seat]) is sees, "the command is the owner's"
    for bad in ("g" + "0" * 24, "..", "%2e%2e%2fresults.sqlite"):
        assert running.text(f"/api/v1/games/{bad}/replay")[0] == 404, bad


REPLAY_REDACTION = (
    DJANGO
    + """
from arena.server.games import redacted
from arena.server.web.models import Bot
ann, bob = (User.objects.create_user(name) for name in ("ann", "bob"))
olga = User.objects.create_user("olga", is_staff=True)
Bot.objects.create(name="annbot", key="annbot", owner=ann)
Bot.objects.create(name="bobbot", key="bobbot", owner=bob)
players = [{"seat": 0, "name": "annbot@2", "bot": "/srv/a run"},
           {"seat": 1, "name": "bobbot", "bot": "/srv/b run"}]
replay = [
    {"type": "game", "game": "g1", "players": players},
    {"type": "move", "seat": 0, "action": "play", "move": "AS", "ms": 3,
     "info": {"plan": "ann's secret"}, "log": ["ann thinks"]},
    {"type": "move", "seat": 1, "action": "play", "move": "2S", "ms": 3,
     "info": {"plan": "bob's secret"}},
    {"type": "game_end", "placements": [2, 1], "faults": {
        "0": {"kind": "malformed", "detail": "ann printed this"}}},
]
print(json.dumps({who: redacted(replay, user)
    for who, user in (("anonymous", None), ("ann", ann), ("bob", bob), ("olga", olga))}))
"""
)


def test_a_replay_keeps_each_seats_thoughts_and_faults_to_its_owner(tmp_path: Path) -> None:
    """A move's info and stderr lines, a fault's detail and the command a seat ran are
    the seat owner's and the organizers': a stranger keeps the moves and placements."""
    seen = django_script(REPLAY_REDACTION, tmp_path)
    text = {who: json.dumps(lines) for who, lines in seen.items()}
    assert "secret" not in text["anonymous"] and "printed" not in text["anonymous"]
    assert "/srv" not in text["anonymous"] and "ann thinks" not in text["anonymous"]
    assert "ann's secret" in text["ann"] and "ann printed this" in text["ann"]
    assert "bob's secret" not in text["ann"] and "/srv/b" not in text["ann"]
    assert "bob's secret" in text["bob"] and "ann's secret" not in text["bob"]
    assert "ann's secret" in text["olga"] and "bob's secret" in text["olga"]
    moves = [[line.get("move") for line in lines] for lines in seen.values()]
    assert all(m == moves[0] for m in moves), "everyone sees every move"
    assert seen["anonymous"][-1]["faults"]["0"]["kind"] == "malformed"


def test_a_competition_that_is_not_public_answers_401_without_a_token(tmp_path: Path) -> None:
    running = start(
        tmp_path, free_port(), CONFIG.replace("[server]\n", "[server]\npublic = false\n")
    )
    try:
        ann = author(running, "ann")
        for path in ("/api/v1/leaderboard", "/api/v1/games", "/api/v1/bots/greedy",
                     "/api/v1/versions/greedy", "/api/v1/games/g1/replay"):  # fmt: skip
            status, answer = running.text(path)
            assert status == 401 and "not public" in json.loads(answer)["error"], path
            assert running.text(path, ann)[0] != 401, path
        status, house = running.call("GET", "/api/v1/versions/greedy", token=ann)
        assert (status, house["owner"], house["status"]) == (200, None, "active")
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


def test_a_machine_whose_sandbox_cannot_hold_strangers_is_refused_in_one_line() -> None:
    from arena.bots.sandbox import Capabilities, SandboxError  # noqa: PLC0415
    from arena.server.run import check_sandbox  # noqa: PLC0415

    weak = Capabilities(seccomp=True, subreaper=True)  # no Landlock, no namespaces
    with pytest.raises(SandboxError) as refused:
        check_sandbox(weak)
    said = str(refused.value)
    assert "cannot provide 'fs', 'signals'" in said and "\n" not in said
    check_sandbox(Capabilities(landlock_abi=6, seccomp=True, subreaper=True))


def test_ranked_follows_the_reference_match_and_head_to_head_reads_the_pairs(
    tmp_path: Path,
) -> None:
    from arena.server.verdicts import ranked, running_verdict  # noqa: PLC0415

    def authors(verdict: str) -> SimpleNamespace:
        """An author's version whose reference verdict is ``verdict``."""
        return SimpleNamespace(reference=verdict, bot=SimpleNamespace(owner_id=7))

    won = running_verdict("ref").replace('"running"', '"H1"')
    assert ranked(authors(won), "ref") and ranked(authors(""), None), "without one, all are"
    assert not ranked(authors(running_verdict("ref")), "ref"), "not while it runs"
    assert not ranked(authors(won.replace('"H1"', '"H0"')), "ref")
    assert not ranked(authors(won), "other"), "a win against an earlier reference does not count"
    assert not ranked(authors(""), "ref"), "no match yet"
    assert not ranked(authors(won.replace('"against": "ref"', '"against": "refx"')), "ref")
    house = SimpleNamespace(reference="", bot=SimpleNamespace(owner_id=None))
    assert ranked(house, "ref") and ranked(None, "ref"), "a house bot is, without a match"
    with closing(sqlite3.connect(tmp_path / "results.sqlite")) as db:
        db.execute("CREATE TABLE pairs (a TEXT, b TEXT, above INTEGER, games INTEGER)")
        db.executemany(
            "INSERT INTO pairs VALUES (?, ?, ?, ?)",
            [("ann", "ref", 6, 10), ("bob", "ref", 5, 10), ("ref", "ann", 4, 10)],
        )
        db.commit()  # fmt: skip
    from arena.server.board import head_to_head  # noqa: PLC0415

    with closing(sqlite3.connect(tmp_path / "results.sqlite")) as db:
        db.executemany(
            "INSERT INTO pairs VALUES (?, ?, ?, ?)",
            [("ann@2", "ref", 9, 10), ("ann@2", "bob", 1, 4), ("ann", "ann@2", 0, 0)],
        )
        db.commit()  # fmt: skip
    assert head_to_head(tmp_path, ["ann", "ann@2"]) == [
        {"rival": "ref", "games": 20, "above_pct": 75.0},
        {"rival": "bob", "games": 4, "above_pct": 25.0},
    ], "a bot's versions together, its own versions left out"


def test_a_version_whose_command_leads_into_another_versions_folder_is_refused(
    tmp_path: Path,
) -> None:
    """A build can leave a link to another author's version and name it in its command:
    the sandbox would bind what it names, so the version is refused in one line."""
    from arena.bots.spec import BotSpec  # noqa: PLC0415
    from arena.errors import BotError  # noqa: PLC0415
    from arena.server.ladder import _kept_home  # noqa: PLC0415

    mine, theirs = tmp_path / "bots" / "eve" / "1", tmp_path / "bots" / "ann" / "1"
    mine.mkdir(parents=True)
    theirs.mkdir(parents=True)
    (mine / "bot.py").write_text("")
    (mine / "peek").symlink_to(theirs)
    fair = BotSpec(name="eve", argv=(sys.executable, str(mine / "bot.py")), source="x")
    _kept_home(fair, tmp_path, mine)
    sly = BotSpec(name="eve", argv=(*fair.argv, str(mine / "peek")), source="x")
    with pytest.raises(BotError, match=r"^eve: .*/peek leads out of its own folder$"):
        _kept_home(sly, tmp_path, mine)

"""The contract's who-sees-what table, row by row and column by column, against a real
``arena serve``: anonymous (with ``public`` on, then off), another author, the owner, an
organizer, each reading every page and endpoint; what strangers wrote escaped everywhere,
in a real browser too (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import io
import signal
import sqlite3
import tarfile
import time
import urllib.error
import urllib.request
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Any

from tests.system import E2E, needs
from tests.test_server import PASSWORD, Server, author, free_port, settled, start
from tests.test_server_hostile import bot_zip
from tests.test_server_pages import CHROMIUM, LEAGUE, Person

pytestmark = E2E

#: What only ann (the owner) and the organizers may read, and where her bot puts it.
SECRETS = {
    "stderr": "ANN-STDERR-SECRET",
    "info": "ANN-INFO-SECRET",
    "fault": "ANN-FAULT-SECRET",
    "build log": "ANN-BUILD-SECRET",
    "reason": "ANN-REASON-SECRET",
}
#: What a stranger may try to run in a viewer's page: each must arrive escaped.
ATTACK = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
#: ann's bot: its first legal move with a secret in ``info`` and on stderr at every
#: request, its self-given name an attack; at a table with the house bot ``rando`` its
#: third reply is a line that is no JSON (a ``malformed`` fault quoting it).
SPY = f"""\
import json
import sys

ATTACK = {ATTACK!r}
players, requests = [], 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({{"type": "ready", "name": ATTACK, "version": ATTACK}}), flush=True)
    elif kind == "game_start":
        players, requests = message["players"], 0
    elif kind == "request":
        requests += 1
        print("{SECRETS["stderr"]} " + ATTACK, file=sys.stderr, flush=True)
        if requests == 3 and "rando" in players:
            print("{SECRETS["fault"]} " + ATTACK, flush=True)
            continue
        info = {{"thought": "{SECRETS["info"]} " + ATTACK}}
        print(json.dumps({{"type": "move", "id": message["id"], "move": message["legal"][0],
                          "info": info}}), flush=True)
    elif kind == "bye":
        break
"""


def _faulted_game(folder: Path) -> str | None:
    """A game of the ladder where ann's bot faulted with its secret, once there is one."""
    with closing(sqlite3.connect(f"file:{folder / 'results.sqlite'}?mode=ro", uri=True)) as db:
        row = db.execute(
            "SELECT games.id FROM seats JOIN games ON games.ordinal = seats.game "
            "WHERE seats.bot = 'annbot' AND seats.fault_detail LIKE ? LIMIT 1",
            (f"%{SECRETS['fault']}%",),
        ).fetchone()
    return None if row is None else str(row[0])


def _api(server: Server, path: str, token: str | None) -> tuple[int, str]:
    """Status and body (as text: JSON, a replay, a log, or the bytes of an archive)."""
    request = urllib.request.Request(server.url + path)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode("latin-1")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("latin-1")


class Viewer:
    """One column of the table: a person with a session (or none) and an API token."""

    def __init__(self, server: Server, name: str | None, token: str | None) -> None:
        self.name = name or "anonymous"
        self.token = token
        self.person = Person(server)
        self.server = server
        if name is not None:
            status, _, page = self.person.post("/login", {"username": name, "password": PASSWORD})
            assert status == 200 and "Log out" in page, page

    def page(self, path: str) -> tuple[int, str, str]:
        return self.person.get(path)

    def api(self, path: str) -> tuple[int, str]:
        return _api(self.server, path, self.token)


def _played_with_a_fault(running: Server) -> str:
    deadline = time.monotonic() + 150
    while (game := _faulted_game(running.folder)) is None:
        assert time.monotonic() < deadline, "ann's bot never faulted at a table with rando"
        time.sleep(0.5)
    return game


def test_who_sees_what_holds_for_every_page_endpoint_and_viewer(tmp_path: Path) -> None:
    running = start(tmp_path, free_port(), LEAGUE)
    try:
        ann, bob = author(running, "ann"), author(running, "bob")
        code = running.invite("olga", "organizer")
        _, joined = running.call("POST", "/api/v1/join",
                                 {"code": code, "user": "olga", "password": PASSWORD})  # fmt: skip
        olga = joined["token"]
        spy = bot_zip("annbot", {"bot.py": SPY}, build=f"echo {SECRETS['build log']}")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=spy)[0] == 202
        assert settled(running, "annbot", timeout=120)["status"] == "active"
        broken = bot_zip("annbot", {"bot.py": SPY + "\n"},
                         build=f"sh -c 'echo {SECRETS['reason']}; exit 3'")  # fmt: skip
        assert running.call("POST", "/api/v1/bots", token=ann, upload=broken)[0] == 202
        assert settled(running, "annbot@2")["status"] == "failed"
        game = _played_with_a_fault(running)
        viewers = {
            "anonymous": Viewer(running, None, None),
            "bob": Viewer(running, "bob", bob),
            "ann": Viewer(running, "ann", ann),
            "olga": Viewer(running, "olga", olga),
        }
        pages = ["/", "/bots/annbot", f"/games/{game}", "/versions/annbot", "/versions/annbot@2"]
        public_api = [
            "/api/v1/leaderboard",
            "/api/v1/bots/annbot",
            "/api/v1/games?bot=annbot&limit=200",
            f"/api/v1/games/{game}/replay",
            "/api/v1/versions/annbot",
            "/api/v1/versions/annbot@2",
        ]
        private_api = ["/api/v1/versions/annbot/build-log", "/api/v1/versions/annbot/archive"]
        for name, viewer in viewers.items():
            private = name in ("ann", "olga")
            seen = ""
            for path in pages:
                status, url, text = viewer.page(path)
                assert (status, url) == (200, running.url + path), (name, path, status, url)
                assert ATTACK not in text and "<script>alert" not in text, (name, path)
                assert "<img src=x" not in text, (name, path)
                seen += text
            for path in public_api:
                status, text = viewer.api(path)
                assert status == 200, (name, path, status, text)
                seen += text
            for secret, value in SECRETS.items():
                if private:
                    assert value in seen, f"{name} reads ann's {secret}"
                else:
                    assert value not in seen, f"{name} reads ann's {secret}"
            for path in private_api:
                status, text = viewer.api(path)
                wanted = 200 if private else (403 if viewer.token else 401)
                assert status == wanted, (name, path, status, text)
            if private:
                log = viewer.api("/api/v1/versions/annbot/build-log")[1]
                assert SECRETS["build log"] in log
                packed = viewer.api("/api/v1/versions/annbot/archive")[1].encode("latin-1")
                with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
                    assert "annbot/bot.py" in archive.getnames(), archive.getnames()
        # public = false: the anonymous column is 401 or the login page everywhere, the
        # other columns unchanged.
        running.process.send_signal(signal.SIGTERM)
        assert running.process.wait(timeout=60) == 143
        closed = start(
            tmp_path, running.port, LEAGUE.replace("[server]\n", "[server]\npublic = false\n")
        )
        running = closed
        anonymous = Viewer(closed, None, None)
        for path in pages:
            status, url, text = anonymous.page(path)
            assert url.startswith(f"{closed.url}/login?next="), (path, url)
            assert not any(value in text for value in SECRETS.values())
        for path in public_api + private_api:
            assert anonymous.api(path)[0] == 401, path
        assert Viewer(closed, "bob", bob).page("/bots/annbot")[0] == 200
    finally:
        running.process.terminate()
        running.process.wait(timeout=60)


def _every_frame(page: Any) -> str:
    """The replay viewer's text at each of its frames (a bot's info and stderr lines show
    at the frame of their move), stepped through with the right arrow key."""
    shown = ""
    while True:
        shown += str(page.inner_text("body"))
        step = str(page.inner_text("#step"))
        at, _, last = step.partition(" / ")
        if at == last:
            return shown
        page.keyboard.press("ArrowRight")
        page.wait_for_function("was => document.querySelector('#step').innerText !== was",
                               arg=step)  # fmt: skip


def _dismissed(seen: list[str], dialog: Any) -> None:
    """A dialog a page opened (a script ran): kept, then closed."""
    seen.append(dialog.message)
    dialog.dismiss()


@needs({"chromium": "Debian's chromium"}, "the server's pages in a browser were")
def test_in_a_browser_no_strangers_text_runs_and_another_author_reads_no_secret(
    tmp_path: Path,
) -> None:
    """Bob, signed in, opens every page of ann's bot and a game where it faulted: no
    script of ann's runs (no dialog opens) and none of her secrets shows; ann, on the
    same pages, reads them as text, and no script of hers runs either."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    running = start(tmp_path, free_port(), LEAGUE)
    try:
        ann = author(running, "ann")
        author(running, "bob")
        spy = bot_zip("annbot", {"bot.py": SPY}, build=f"echo {SECRETS['build log']}")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=spy)[0] == 202
        assert settled(running, "annbot", timeout=120)["status"] == "active"
        game = _played_with_a_fault(running)
        paths = ["/", "/bots/annbot", "/versions/annbot", f"/games/{game}"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                for name in ("bob", "ann"):
                    page = browser.new_context().new_page()
                    dialogs: list[str] = []
                    page.on("dialog", partial(_dismissed, dialogs))
                    page.goto(running.url + "/login")
                    page.fill("input[name=username]", name)
                    page.fill("input[name=password]", PASSWORD)
                    page.click("button:has-text('Log in')")
                    shown = ""
                    for path in paths:
                        page.goto(running.url + path)
                        page.wait_for_load_state("networkidle")
                        shown += page.inner_text("body")
                    shown += _every_frame(page)
                    assert dialogs == [], (name, dialogs)
                    if name == "bob":
                        assert not any(value in shown for value in SECRETS.values()), shown
                    else:
                        assert all(SECRETS[key] in shown for key in ("stderr", "info", "fault"))
            finally:
                browser.close()
    finally:
        running.process.terminate()
        running.process.wait(timeout=60)

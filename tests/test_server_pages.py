"""``arena serve``'s pages: a real server, a person's cookie session and CSRF tokens, as a
browser sends them (the standard library's client), and the live leaderboard and the
submit form in a real browser (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import http.cookiejar
import re
import shutil
import signal
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system import E2E, needs
from tests.test_server import CONFIG, KIT, PASSWORD, Server, author, free_port, start, zipped

pytestmark = E2E
CHROMIUM = shutil.which("chromium")
LEAGUE = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 50\n") + (
    '[[bots]]\nname = "rando"\ncommand = "python3 -m arena.samples.random_bot"\n'
    '[[bots]]\nname = "rando2"\ncommand = "python3 -m arena.samples.random_bot"\n'
)


class Person:
    """A browser without JavaScript: cookies kept, forms posted with their CSRF token."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, str, str]:
        """Status, final URL and text of a GET (redirects followed)."""
        try:
            with self.opener.open(self.server.url + path, timeout=30) as answer:
                return answer.status, answer.geturl(), answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.geturl(), refused.read().decode()

    def post(
        self, path: str, fields: dict[str, str], file: bytes | None = None, *, form: str = ""
    ) -> tuple[int, str, str]:
        """Post a form of the page at ``form`` (default: ``path``), with its CSRF token."""
        _, _, page = self.get(form or path)
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert found, page
        fields = {"csrfmiddlewaretoken": found.group(1), **fields}
        if file is None:
            data = urllib.parse.urlencode(fields).encode()
            kind = "application/x-www-form-urlencoded"
        else:
            boundary = "arena-page-test"
            parts = [
                f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
                for key, value in fields.items()
            ]
            data = (
                "".join(parts).encode()
                + f'--{boundary}\r\nContent-Disposition: form-data; name="bot"; '
                f'filename="bot.zip"\r\nContent-Type: application/zip\r\n\r\n'.encode()
                + file
                + f"\r\n--{boundary}--\r\n".encode()
            )
            kind = f"multipart/form-data; boundary={boundary}"
        request = urllib.request.Request(
            self.server.url + path, data=data, headers={"Content-Type": kind}
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.geturl(), answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.geturl(), refused.read().decode()


@pytest.fixture
def league(tmp_path: Path) -> Iterator[Server]:
    running = start(tmp_path, free_port(), LEAGUE)
    yield running
    if running.process.poll() is None:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


def test_a_person_joins_submits_and_sees_the_version_build(league: Server) -> None:
    ann = Person(league)
    code = league.invite("ann")
    status, _, page = ann.post(f"/join/{code}", {"user": "ann", "password": PASSWORD})
    assert status == 200 and re.search(r'<code id="token">arena_[^<]+</code>', page), page
    assert "What this server builds: Python: yes; C: yes" in ann.get("/submit")[2]
    status, url, page = ann.post("/submit", {}, zipped(KIT, name="annbot"))
    assert (status, url) == (200, f"{league.url}/versions/annbot"), page
    deadline = time.monotonic() + 90
    while '<strong id="status">active</strong>' not in page:
        assert time.monotonic() < deadline and "failed" not in page, page
        time.sleep(0.5)
        _, _, page = ann.get("/versions/annbot")
    assert '<pre class="log"' not in page, "the Python kit has no build"
    _static_files_are_served_cached_and_named_by_content(league, ann)
    _, _, account = ann.get("/account")
    assert 'href="/bots/annbot"' in account
    assert "Withdraw" not in Person(league).get("/bots/annbot")[2], "the owner's button"
    status, url, page = ann.post("/bots/annbot", {"withdraw": "1"})
    assert (status, url) == (200, f"{league.url}/bots/annbot") and "Make active" in page
    _, _, page = ann.post("/bots/annbot", {"activate": "annbot"})
    assert "<td>active</td>" in page
    _, _, page = ann.post("/account", {"new_token": "1"})
    token = re.search(r'<code id="token">(arena_[^<]+)</code>', page)
    assert token and league.call("GET", "/api/v1/account", token=token.group(1))[0] == 200
    status, url, _ = ann.post("/logout", {}, form="/account")
    assert (status, url) == (200, f"{league.url}/")
    assert ann.get("/account")[1] == f"{league.url}/login?next=/account"


def _static_files_are_served_cached_and_named_by_content(league: Server, person: Person) -> None:
    """The pages' style and scripts are files of their own (WhiteNoise): named by a digest,
    cached for a year, and nothing else of the folder is served beside them."""
    page = person.get("/")[2]
    style = re.search(r'<link rel="stylesheet" href="(/static/site\.[0-9a-f]{12}\.css)">', page)
    script = re.search(r'<script src="(/static/board\.[0-9a-f]{12}\.js)" defer>', page)
    assert style and script, page
    assert "<style>" not in page and "setInterval" not in page, "no inline style or script"
    for path, kind, text in ((style.group(1), "text/css", "--accent"),
                             (script.group(1), "javascript", "refreshMs")):  # fmt: skip
        with urllib.request.urlopen(league.url + path, timeout=30) as answer:
            assert kind in answer.headers["Content-Type"]
            assert "immutable" in answer.headers["Cache-Control"]
            assert text in answer.read().decode()
    for path in ("/static/manifest.json", "/static/../secrets.json", "/static/site.css",
                 "/static/%2e%2e/secrets.json"):  # fmt: skip
        assert person.get(path)[0] == 404, path


def test_pages_escape_what_strangers_wrote_and_keep_details_to_owners(
    league: Server,
) -> None:
    """A build's last line is in its failure's reason: its author wrote it, so it is
    escaped; and only its owner reads it."""
    ann, bob = Person(league), Person(league)
    for person, name in ((ann, "ann"), (bob, "bob")):
        person.post(f"/join/{league.invite(name)}", {"user": name, "password": PASSWORD})
    hostile = {"build.sh": 'echo "<script>alert(1)</script>"; exit 3\n'}
    upload = zipped(KIT, name="xss", build="sh build.sh", files=hostile)
    assert ann.post("/submit", {}, upload)[1] == f"{league.url}/versions/xss"
    deadline = time.monotonic() + 60
    while "failed" not in (page := ann.get("/versions/xss")[2]):
        assert time.monotonic() < deadline, page
        time.sleep(0.5)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, "the owner reads it, escaped"
    seen = bob.get("/versions/xss")[2]
    assert "alert" not in seen and "the build failed" in seen, "others read the summary"
    assert bob.get("/organizer")[0] == 403
    assert "alert" not in bob.get("/bots/xss")[2]
    house = bob.get("/bots/greedy")[2]
    assert '<table id="rivals">' in house and '<div id="chart"><figure class="chart' in house


def test_an_organizer_pauses_invites_and_exports_from_the_organizer_page(
    league: Server,
) -> None:
    olga = Person(league)
    olga.post(f"/join/{league.invite('olga', 'organizer')}", {"user": "olga",
                                                              "password": PASSWORD})  # fmt: skip
    _, _, page = olga.post("/organizer", {"paused": "yes"})
    assert "The ladder is <strong>paused</strong>" in page
    token = author(league, "tim")
    assert league.call("GET", "/api/v1/ladder", token=token)[1] == {
        "paused": True, "frozen": False, "state": "paused"}  # fmt: skip
    _, _, page = olga.post("/organizer", {"paused": ""})
    assert "The ladder plays." in page
    _, _, page = olga.post("/organizer", {"invite": "zed", "role": "author"})
    link = re.search(r'<code id="invite">([^<]+)</code>', page)
    assert link and link.group(1).startswith(f"{league.url}/join/")
    _, _, page = olga.post("/organizer", {"bot": "rando", "disable": "1", "reason": "<i>x</i>"})
    assert "disabled: &lt;i&gt;x&lt;/i&gt;" in page
    status, _, csv = olga.get("/organizer/leaderboard.csv")
    assert status == 200 and csv.startswith("owner,bot,version,rank,tier,score,mu,sigma")
    status, _, csv = olga.get("/organizer/best.csv")
    assert status == 200 and "tim,,,,,,,,,no version with 50 games yet," in csv.splitlines()
    _forms_refuse_a_post_without_the_persons_csrf_token(league, olga)


def test_cookies_are_secure_behind_tls_and_the_origin_is_the_servers(tmp_path: Path) -> None:
    """Behind ``url = "https://..."`` the session and CSRF cookies are sent over TLS only,
    and a form's POST must come from that origin."""
    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import Secrets  # noqa: PLC0415
    from arena.server.site import django_settings  # noqa: PLC0415

    config = tmp_path / "club.toml"
    config.write_text(CONFIG)
    secrets = Secrets(django_key="k" * 50, ladder_seed=1)
    for url, secure in (("https://club.example.org", True), ("http://127.0.0.1:8000", False)):
        made = django_settings(tmp_path, load_server_config(config), secrets, url, ["x"])
        assert made["SESSION_COOKIE_SECURE"] is made["CSRF_COOKIE_SECURE"] is secure
        assert made["SESSION_COOKIE_HTTPONLY"] and made["SESSION_COOKIE_SAMESITE"] == "Lax"
        assert made["CSRF_TRUSTED_ORIGINS"] == [url]


def _forms_refuse_a_post_without_the_persons_csrf_token(league: Server, olga: Person) -> None:
    """Every form's POST, sent with olga's session cookie (as a page of another site could
    make her browser send it), is 403 without her CSRF token, and with another person's;
    her session cookie is HttpOnly and SameSite."""
    session = next(cookie for cookie in olga.jar if cookie.name == "sessionid")
    assert session.has_nonstandard_attr("HttpOnly") and not session.secure
    assert session.get_nonstandard_attr("SameSite") == "Lax"
    csrf = next(cookie for cookie in olga.jar if cookie.name == "csrftoken")
    assert csrf.get_nonstandard_attr("SameSite") == "Lax"
    stranger = Person(league)
    _, _, page = stranger.get("/login")
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found
    code = league.invite("olga", "organizer")
    forms = {
        "/organizer": {"paused": "yes"},
        "/account": {"new_token": "1"},
        "/submit": {},
        "/bots/rando": {"withdraw": "1"},
        "/logout": {},
        "/login": {"username": "olga", "password": PASSWORD},
        f"/join/{code}": {"user": "olga", "password": PASSWORD},
    }
    for path, fields in forms.items():
        for token in ("", found.group(1)):
            data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
            request = urllib.request.Request(league.url + path, data=data)
            try:
                olga.opener.open(request, timeout=30)
                raise AssertionError(f"{path} took a POST without olga's CSRF token")
            except urllib.error.HTTPError as refused:
                assert refused.code == 403, (path, refused.code)
    status, _, page = olga.get("/organizer")
    assert status == 200 and "The ladder plays." in page, "still signed in, nothing paused"


def test_login_is_throttled_and_a_closed_competition_asks_for_it(tmp_path: Path) -> None:
    closed = CONFIG.replace("[server]\n", "[server]\npublic = false\nlogin_limit = 3\n")
    running = start(tmp_path, free_port(), closed)
    try:
        visitor = Person(running)
        assert visitor.get("/")[1] == f"{running.url}/login?next=/"
        assert visitor.get("/bots/greedy")[1].startswith(f"{running.url}/login")
        author(running, "ann")
        for _ in range(3):
            status, _, page = visitor.post("/login", {"username": "ann", "password": "wrong"})
            assert status == 200 and "Please enter a correct username and password" in page
        status, _, page = visitor.post("/login", {"username": "ann", "password": PASSWORD})
        assert status == 429 and "try again later" in page
    finally:
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=60) == 130


@needs({"chromium": "Debian's chromium"}, "the server's pages in a browser were")
def test_in_a_browser_the_leaderboard_lives_and_the_form_uploads(
    league: Server, tmp_path: Path
) -> None:
    """The leaderboard shows new games without a reload; a person logs in and uploads a
    kit bot through the form, and sees it become active."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    author(league, "ann")
    archive = tmp_path / "annbot.zip"
    archive.write_bytes(zipped(KIT, name="annbot"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(league.url + "/")
            page.wait_for_selector("#standings td.bot")
            first = page.inner_text("#played")
            navigations: list[str] = []
            page.on("framenavigated", lambda frame: navigations.append(frame.url))
            page.wait_for_function(
                "first => document.querySelector('#played').innerText !== first",
                arg=first,
                timeout=5000,
            )
            assert navigations == [], "updated without a reload"
            page.goto(league.url + "/login")
            page.fill("input[name=username]", "ann")
            page.fill("input[name=password]", PASSWORD)
            page.click("button:has-text('Log in')")
            page.goto(league.url + "/submit")
            page.set_input_files("input[name=bot]", str(archive))
            page.click("button:has-text('Upload')")
            page.wait_for_url(f"{league.url}/versions/annbot")
            page.wait_for_selector("#status:has-text('active')", timeout=90_000)
            page.goto(league.url + "/")
            page.wait_for_selector("a[href='/bots/annbot']", timeout=60_000)
        finally:
            browser.close()

"""The deployment examples of docs/deploy.md, run for real where this machine can: the
systemd unit checked by systemd and its command line started as a server, and Caddy (the
repository's Caddyfile) in front of a server with TLS."""

from __future__ import annotations

import re
import shlex
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.system import E2E, needs
from tests.test_server import CONFIG, KIT, PASSWORD, Server, free_port, zipped
from tests.test_server_pages import Person

pytestmark = E2E

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
ARENA = Path(sys.executable).with_name("arena")


#: Caddy's own CA signs its certificate: the path through the proxy is tested, not the CA.
UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE


class Proxied(Server):
    """A server reached through a proxy at ``https://127.0.0.1:PROXY`` (its ``url``)."""

    proxy = 0
    tls = UNVERIFIED

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.proxy}"


def served(running: Server) -> Server:
    """``running`` once it says where it listens."""
    running.stderr_until("Ctrl-C stops it")
    return running


def started(argv: list[str], config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, cwd=config.parent)


def stop(running: Server) -> int:
    running.process.send_signal(signal.SIGTERM)
    return running.process.wait(timeout=60)


@needs({"systemd-analyze": "systemd's unit checker"}, untested="the systemd unit was")
def test_the_systemd_unit_is_valid_and_its_command_serves(tmp_path: Path) -> None:
    """systemd finds no fault in deploy/arena.service (its paths made this machine's), and
    its ExecStart, run as written (paths aside), serves the competition and stops on
    SIGTERM, as ``systemctl stop`` asks."""
    unit = (DEPLOY / "arena.service").read_text()
    unit = unit.replace("/opt/arena/.venv/bin/arena", str(ARENA)).replace(
        "/srv/arena", str(tmp_path)
    )
    port = free_port()
    unit = unit.replace("--port 8000", f"--port {port}").replace("--jobs 4", "--jobs 1")
    (tmp_path / "arena.service").write_text(unit)
    checked = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "arena.service")],
                             capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    config = tmp_path / "club.toml"
    config.write_text(CONFIG)
    start = re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE)
    assert start is not None
    argv = shlex.split(start.group(1))
    running = served(Server(tmp_path / "club", config, port, started(argv, config)))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
            assert answer.status == 200
    finally:
        assert stop(running) == 143


@needs({"caddy": "Caddy"}, untested="Caddy in front of the server was")
def test_caddy_in_front_serves_the_competition_over_tls(tmp_path: Path) -> None:
    """The repository's Caddyfile, its name made an address of this machine, in front of a
    server whose ``url`` is that https address: pages, the API, an upload and a login
    with its CSRF token go through; the session cookie is Secure; invites name the url."""
    web, proxy = free_port(), free_port()
    url = f"https://127.0.0.1:{proxy}"
    config = tmp_path / "club.toml"
    config.write_text(CONFIG.replace("[server]\n", f'[server]\nurl = "{url}"\n'
                                     'trusted_proxies = ["127.0.0.1"]\n'))  # fmt: skip
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    caddyfile = caddyfile.replace("arena.example.org {", f"{url} {{\n\ttls internal")
    caddyfile = caddyfile.replace("127.0.0.1:8000", f"127.0.0.1:{web}")
    options = (
        f"{{\n\tadmin off\n\tskip_install_trust\n\tstorage file_system {tmp_path / 'caddy'}\n}}\n"
    )
    (tmp_path / "Caddyfile").write_text(options + caddyfile)
    argv = [str(ARENA), "serve", str(config), "--port", str(web)]
    running = Proxied(tmp_path / "results" / "club", config, web, started(argv, config))
    running.proxy = proxy
    served(running)
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60  # Caddy makes its CA and certificate first
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=10, context=UNVERIFIED) as answer:
                    assert answer.status == 200
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, "Caddy never answered"
                time.sleep(0.3)
        code = running.invite("ann")  # its link starts with the url
        joined = running.call("POST", "/api/v1/join", {"code": code, "user": "ann",
                                                        "password": PASSWORD})  # fmt: skip
        status, answer = running.call("POST", "/api/v1/bots", token=joined[1]["token"],
                                      upload=zipped(KIT))  # fmt: skip
        assert status == 202 and answer["url"].startswith(f"{url}/versions/"), answer
        ann = Person(running)
        ann.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(ann.jar),
            urllib.request.HTTPSHandler(context=UNVERIFIED),
        )
        status, where, _ = ann.post("/login", {"username": "ann", "password": PASSWORD})
        assert status == 200 and where == f"{url}/", (status, where)
        cookies = {cookie.name: cookie for cookie in ann.jar}
        assert cookies["sessionid"].secure and cookies["csrftoken"].secure
        assert "ann" in ann.get("/account")[2]
    finally:
        caddy.send_signal(signal.SIGTERM)
        caddy.wait(timeout=30)
        assert stop(running) == 143

"""The deployment examples of docs/deploy.md, run for real where this machine can: the
systemd unit checked by systemd and its command line started as a server, and Caddy and
nginx (the repository's Caddyfile and nginx.conf) each in front of a server with TLS."""

from __future__ import annotations

import http.client
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


#: The proxies' certificates are made for the test (Caddy's own CA, a self-signed one for
#: nginx): the path through the proxy is tested, not a CA.
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
        goes_through(running, url, "Caddy")
    finally:
        caddy.send_signal(signal.SIGTERM)
        caddy.wait(timeout=30)
        assert stop(running) == 143


def goes_through(running: Proxied, url: str, proxy: str) -> None:
    """Once ``proxy`` answers at ``url`` (the server's): an invite, a join, an upload (its
    version's url is the proxy's) and a login with its CSRF token go through it, and both
    cookies are Secure."""
    deadline = time.monotonic() + 60  # Caddy makes its CA and certificate first
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=10, context=UNVERIFIED) as answer:
                assert answer.status == 200
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            assert time.monotonic() < deadline, f"{proxy} never answered"
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


@needs({"nginx": "nginx", "openssl": "openssl"}, untested="nginx in front of the server was")
def test_nginx_in_front_serves_the_competition_over_tls(tmp_path: Path) -> None:
    """The repository's nginx.conf (its name, ports and certificate made this machine's,
    in a main config of the test's own: no daemon, files in the test's folder) passes
    ``nginx -t``, sends plain http to https, and carries the competition as Caddy does."""
    web, proxy, plain = free_port(), free_port(), free_port()
    url = f"https://127.0.0.1:{proxy}"
    config = tmp_path / "club.toml"
    config.write_text(CONFIG.replace("[server]\n", f'[server]\nurl = "{url}"\n'
                                     'trusted_proxies = ["127.0.0.1"]\n'))  # fmt: skip
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-keyout", str(tmp_path / "key.pem"),
         "-out", str(tmp_path / "cert.pem")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    site = (DEPLOY / "nginx.conf").read_text()
    for example, here in [
        ("listen 80;", f"listen 127.0.0.1:{plain};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{proxy} ssl;"),
        ("server_name arena.example.org;", "server_name 127.0.0.1;"),
        ("/etc/letsencrypt/live/arena.example.org/fullchain.pem", str(tmp_path / "cert.pem")),
        ("/etc/letsencrypt/live/arena.example.org/privkey.pem", str(tmp_path / "key.pem")),
        ("127.0.0.1:8000", f"127.0.0.1:{web}"),
    ]:
        assert example in site, example
        site = site.replace(example, here)
    (tmp_path / "site.conf").write_text(site)
    temp = tmp_path / "nginx"
    temp.mkdir()
    (tmp_path / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\npid {temp}/nginx.pid;\nerror_log {temp}/error.log;\n"
        "events {}\nhttp {\n"
        f"  access_log off;\n  client_body_temp_path {temp}/body;\n"
        f"  proxy_temp_path {temp}/proxy;\n  fastcgi_temp_path {temp}/fastcgi;\n"
        f"  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
        f"  include {tmp_path / 'site.conf'};\n}}\n"
    )
    nginx = ["nginx", "-p", str(temp), "-c", str(tmp_path / "nginx.conf")]
    checked = subprocess.run([*nginx, "-t"], capture_output=True, text=True, timeout=60,
                             check=False)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    argv = [str(ARENA), "serve", str(config), "--port", str(web)]
    running = Proxied(tmp_path / "results" / "club", config, web, started(argv, config))
    running.proxy = proxy
    served(running)
    front = subprocess.Popen(nginx, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)  # fmt: skip
    try:
        goes_through(running, url, "nginx")
        moved = http.client.HTTPConnection("127.0.0.1", plain, timeout=30)
        moved.request("GET", "/bots/x?y=1")
        answer = moved.getresponse()
        assert answer.status == 301 and answer.getheader("Location") == (
            "https://127.0.0.1/bots/x?y=1"
        ), (answer.status, answer.getheader("Location"))
        moved.close()
    finally:
        front.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        front.wait(timeout=30)
        assert stop(running) == 143

"""A person's table in the browser: a page on 127.0.0.1 that draws the cards and takes clicks.

Served by the standard library's :class:`http.server.ThreadingHTTPServer`,
on purpose: the page needs four routes (the page, its state, a move, leave)
for at most seven people on one machine, which no framework would make
shorter or safer, and a dependency would be one more thing to install for a
feature most runs never use. Each person gets a server and a port of their
own (a browser opens at most six connections to one host and port, and
each page keeps one waiting for news: seven pages on one port would queue
their clicks behind each other's polls), and a URL holding a random token;
the server answers only on 127.0.0.1, only to requests whose ``Host`` is
that address (a web page elsewhere cannot reach it through a name that
resolves there), and takes moves only as JSON (which a form on another
site cannot send without the browser asking first). A move names the
request it answers: a second click, or one from a page not redrawn yet,
is refused instead of being played at the next turn.

The page learns of the game by long polling its state: the seat's
:class:`~arena.human.view.SeatView` (what the seat's messages said, never
more) and, at the person's turn, the moves to choose from. At the end the
state carries the whole replay, and the page opens it in the replay viewer.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from arena.errors import ArenaError
from arena.human.entry import choices
from arena.human.page import table_page
from arena.human.player import CtrlC, PersonLeft
from arena.human.view import SeatView

JSON = dict[str, Any]

HOST = "127.0.0.1"
#: Seconds a poll waits for news before answering "nothing new".
POLL_S = 15.0
#: Seconds the table stays served after the game for pages that have not shown the end yet.
LINGER_S = 60.0
#: The largest request body taken (a move is a few bytes).
MAX_BODY = 4096


class WebFront:
    """One person's page: the state it polls, and the entries its clicks send."""

    def __init__(self, name: str, ctrl_c: CtrlC) -> None:
        self.name = name
        self.token = secrets.token_urlsafe(16)
        self.ctrl_c = ctrl_c
        self.changed = threading.Condition()
        self.version = 0
        self.view: JSON = {}
        self.asking: JSON | None = None
        self.replay: list[JSON] | None = None
        self.entries: queue.Queue[str | None] = queue.Queue()
        self.left = False
        #: Whether this turn's entry is in (one a turn: see :meth:`enter`).
        self.taken = False
        #: Whether the page has been sent the end of the game (with its replay).
        self.saw_end = False

    # -------------------------------------------------------- the referee's side

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        """The seat took a message: the page's next poll gets the new view."""
        self._publish(view=view.to_json())

    def leaving(self) -> str | None:
        """``page`` once Leave was pressed, ``interrupt`` once Ctrl-C was, between turns."""
        if self.left:
            return "page"
        return "interrupt" if self.ctrl_c.pressed else None

    def ask(self, view: SeatView, request: JSON, problem: str | None) -> str:
        """Wait for the page to send an entry (no time limit).

        Raises:
            PersonLeft: ``page`` when the person pressed Leave, ``interrupt`` on Ctrl-C.
        """
        asking = {"id": request["id"], "action": request["action"], "problem": problem}
        asking["choices"] = choices(request)
        with self.changed:
            while not self.entries.empty():  # nothing sent before this turn counts for it
                self.entries.get_nowait()
            self.taken = False
        self._publish(view=view.to_json(), asking=asking)
        try:
            with self.ctrl_c.wait():
                while True:
                    if self.left:
                        raise PersonLeft("page")
                    try:
                        entry = self.entries.get(timeout=0.25)
                    except queue.Empty:
                        continue
                    if entry is not None:
                        return entry
        except KeyboardInterrupt:
            raise PersonLeft("interrupt") from None
        finally:
            self._publish(asking=None)

    def finish(self, replay: list[JSON]) -> None:
        """The game is over: the page gets the whole replay to show."""
        self._publish(replay=replay)

    def _publish(self, **changes: Any) -> None:
        with self.changed:
            for key, value in changes.items():
                setattr(self, key, value)
            self.version += 1
            self.changed.notify_all()

    # -------------------------------------------------------- the page's side

    def state(self, since: int, wait_s: float = POLL_S) -> JSON:
        """The page's state once it is newer than ``since`` (or after ``wait_s``)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version > since, timeout=wait_s)
            state: JSON = {
                "version": self.version,
                "name": self.name,
                "view": self.view,
                "asking": self.asking,
                "left": self.left,
                "finished": self.replay is not None,
            }
            if self.replay is not None:
                state["replay"] = self.replay
                self.saw_end = True
            return state

    def enter(self, entry: str, request_id: Any) -> str | None:
        """An entry from the page for request ``request_id``: None when taken, else why not.

        One entry a turn: a second click, or one for a request already
        answered, is refused (it would otherwise be played at a later turn).
        """
        with self.changed:
            if self.asking is None or self.asking["id"] != request_id:
                return "that turn is over: wait for your next one"
            if self.taken:
                return "your move for this turn is already in"
            self.taken = True
            self.entries.put(entry)
        return None

    def leave(self) -> None:
        """The person pressed Leave."""
        self._publish(left=True)
        self.entries.put(None)


class TableServer:
    """The HTTP servers of every person's page at one table: one server and port each."""

    def __init__(self, fronts: list[WebFront], port: int = 0) -> None:
        """Listen for each of ``fronts``: on ``port`` + its index, or on any free port (0).

        Raises:
            ArenaError: when a port cannot be listened on.
        """
        self.fronts = fronts
        self.servers: list[_Quiet] = []
        try:
            for index, front in enumerate(fronts):
                wanted = port + index if port else 0
                try:
                    server = _Quiet((HOST, wanted), _handler_for(self, front))
                except OSError as error:
                    where = f"port {wanted}" if wanted else "any free port"
                    raise ArenaError(
                        f"cannot serve the table on {HOST}, {where}: {error.strerror or error}"
                    ) from None
                server.daemon_threads = True
                self.servers.append(server)
        except ArenaError:
            for server in self.servers:
                server.server_close()
            raise
        self.threads = [
            threading.Thread(target=server.serve_forever, daemon=True) for server in self.servers
        ]

    def port(self, front: WebFront) -> int:
        """The port ``front``'s page is served on."""
        port: int = self.servers[self.fronts.index(front)].server_address[1]
        return port

    def url(self, front: WebFront) -> str:
        """The page of ``front``'s person."""
        return f"http://{HOST}:{self.port(front)}/seat/{front.token}/"

    def start(self) -> None:
        """Serve, each server in a thread of its own."""
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        """Stop serving (pages already loaded keep what they show)."""
        for server in self.servers:
            server.shutdown()
            server.server_close()

    def linger(self, ctrl_c: CtrlC, limit_s: float = LINGER_S) -> bool:
        """Serve on until every page has been sent the end, ``limit_s`` passes or Ctrl-C.

        Returns whether every page was sent the end.
        """
        deadline = time.monotonic() + limit_s
        presses = ctrl_c.presses
        while time.monotonic() < deadline and ctrl_c.presses == presses:
            if all(front.saw_end or front.left for front in self.fronts):
                return True
            time.sleep(0.1)
        return all(front.saw_end or front.left for front in self.fronts)


class _Quiet(ThreadingHTTPServer):
    """A server that keeps quiet about a page gone mid-answer (a reload, a closed tab)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Nothing: the person's terminal is not a server log, and the page asks again."""


class _SeatHandler(BaseHTTPRequestHandler):
    """The requests of one person's page, at ``front`` of ``table``.

    Each server is given a subclass of its own (:func:`_handler_for`) that sets the
    two: a server makes a new handler of its class for each request and hands it
    nothing else.
    """

    table: ClassVar[TableServer]
    front: ClassVar[WebFront]
    server_version = "arena-table"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the person's terminal is not a server log."""

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def _route(self, method: str) -> None:
        port = self.table.port(self.front)
        hosts = {f"{HOST}:{port}", f"localhost:{port}"}
        if port == 80:  # a browser leaves the default port out of Host
            hosts |= {HOST, "localhost"}
        if self.headers.get("Host") not in hosts:
            self._send(HTTPStatus.FORBIDDEN, {"problem": "unknown host"})
            return
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "seat" or parts[1] != self.front.token:
            self._send(HTTPStatus.NOT_FOUND, {"problem": "no such seat: use your own link"})
            return
        action = parts[2] if len(parts) > 2 else ""
        routes: dict[tuple[str, str], Callable[[WebFront, str], None]] = {
            ("GET", ""): self._page,
            ("GET", "state"): self._state,
            ("POST", "move"): self._move,
            ("POST", "leave"): self._leave,
        }
        handler = routes.get((method, action))
        if handler is None:
            self._send(HTTPStatus.NOT_FOUND, {"problem": f"no {method} {action}"})
            return
        handler(self.front, url.query)

    def _page(self, front: WebFront, query: str) -> None:
        body = table_page(front.name).encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _state(self, front: WebFront, query: str) -> None:
        since = _number(parse_qs(query).get("since", ["0"])[0])
        self._send(HTTPStatus.OK, front.state(since))

    def _move(self, front: WebFront, query: str) -> None:
        body = self._json()
        entry = body.get("entry") if isinstance(body, dict) else None
        if not isinstance(entry, str) or "id" not in body:
            usage = 'send {"entry": "...", "id": REQUEST_ID} as JSON'
            self._send(HTTPStatus.BAD_REQUEST, {"problem": usage})
            return
        refused = front.enter(entry, body["id"])
        if refused is not None:
            self._send(HTTPStatus.CONFLICT, {"problem": refused})
            return
        self._send(HTTPStatus.OK, {"ok": True})

    def _leave(self, front: WebFront, query: str) -> None:
        if self._json() is None:
            self._send(HTTPStatus.BAD_REQUEST, {"problem": "send {} as JSON"})
            return
        front.leave()
        self._send(HTTPStatus.OK, {"ok": True})

    def _json(self) -> Any:
        """The request's JSON body, or None when it is not JSON (or too large)."""
        if self.headers.get_content_type() != "application/json":
            return None
        length = _number(self.headers.get("Content-Length") or "0")
        if not 0 < length <= MAX_BODY:
            return None
        try:
            return json.loads(self.rfile.read(length))
        except ValueError:
            return None

    def _send(self, status: HTTPStatus, value: JSON) -> None:
        body = json.dumps(value, separators=(",", ":")).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _handler_for(table: TableServer, front: WebFront) -> type[BaseHTTPRequestHandler]:
    """The request handler class of ``front``'s server at ``table``."""

    class Handler(_SeatHandler):
        """The handler of ``front``'s page."""

    Handler.table = table
    Handler.front = front
    return Handler


def _number(text: str) -> int:
    """A whole number sent by a page (a count, a length), or 0 for anything else."""
    return int(text) if text.isascii() and text.isdigit() else 0

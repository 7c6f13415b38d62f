"""A person's table in the browser: a page on 127.0.0.1 that draws the cards and takes clicks.

Served by the standard library's :class:`http.server.ThreadingHTTPServer`,
on purpose: the page needs four routes (the page, its state, a move, leave)
for at most seven people on one machine, which no framework would make
shorter or safer, and a dependency would be one more thing to install for a
feature most runs never use. Each person gets a URL of their own holding a
random token; the server answers only on 127.0.0.1, only to requests whose
``Host`` is that address (a web page elsewhere cannot reach it through a
name that resolves there), and takes moves only as JSON (which a form on
another site cannot send without the browser asking first).

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
from typing import Any
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
        #: Whether the page has been sent the end of the game (with its replay).
        self.saw_end = False

    # -------------------------------------------------------- the referee's side

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        """The seat took a message: the page's next poll gets the new view."""
        self._publish(view=view.to_json())

    def ask(self, view: SeatView, request: JSON, problem: str | None) -> str:
        """Wait for the page to send an entry (no time limit).

        Raises:
            PersonLeft: ``page`` when the person pressed Leave, ``interrupt`` on Ctrl-C.
        """
        asking = {"id": request["id"], "action": request["action"], "problem": problem}
        asking["choices"] = choices(request)
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

    def enter(self, entry: str) -> str | None:
        """An entry from the page: None when taken, else why not."""
        with self.changed:
            if self.asking is None:
                return "it is not your turn"
        self.entries.put(entry)
        return None

    def leave(self) -> None:
        """The person pressed Leave."""
        self._publish(left=True)
        self.entries.put(None)


class TableServer:
    """The HTTP server of every person's page at one table."""

    def __init__(self, fronts: list[WebFront], port: int = 0) -> None:
        self.fronts = {front.token: front for front in fronts}
        try:
            self.server = ThreadingHTTPServer((HOST, port), _handler_for(self))
        except OSError as error:
            where = f"port {port}" if port else "any free port"
            raise ArenaError(
                f"cannot serve the table on {HOST}, {where}: {error.strerror or error}"
            ) from None
        self.server.daemon_threads = True
        self.port: int = self.server.server_address[1]
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, front: WebFront) -> str:
        """The page of ``front``'s person."""
        return f"http://{HOST}:{self.port}/seat/{front.token}/"

    def start(self) -> None:
        """Serve in a thread of its own."""
        self.thread.start()

    def stop(self) -> None:
        """Stop serving (pages already loaded keep what they show)."""
        self.server.shutdown()
        self.server.server_close()

    def linger(self, ctrl_c: CtrlC, limit_s: float = LINGER_S) -> bool:
        """Serve on until every page has been sent the end, ``limit_s`` passes or Ctrl-C.

        Returns whether every page was sent the end.
        """
        deadline = time.monotonic() + limit_s
        presses = ctrl_c.presses
        while time.monotonic() < deadline and ctrl_c.presses == presses:
            if all(front.saw_end or front.left for front in self.fronts.values()):
                return True
            time.sleep(0.1)
        return all(front.saw_end or front.left for front in self.fronts.values())


def _handler_for(table: TableServer) -> type[BaseHTTPRequestHandler]:
    """The request handler class of ``table``'s server."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "arena-table"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the person's terminal is not a server log."""

        def do_GET(self) -> None:
            self._route("GET")

        def do_POST(self) -> None:
            self._route("POST")

        def _route(self, method: str) -> None:
            if self.headers.get("Host") not in table.hosts:
                self._send(HTTPStatus.FORBIDDEN, {"problem": "unknown host"})
                return
            url = urlsplit(self.path)
            parts = url.path.strip("/").split("/")
            front = table.fronts.get(parts[1]) if len(parts) >= 2 and parts[0] == "seat" else None
            if front is None:
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
            handler(front, url.query)

        def _page(self, front: WebFront, query: str) -> None:
            body = table_page(front.name).encode("utf-8")
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _state(self, front: WebFront, query: str) -> None:
            values = parse_qs(query).get("since", ["0"])
            since = int(values[0]) if values[0].isdigit() else 0
            self._send(HTTPStatus.OK, front.state(since))

        def _move(self, front: WebFront, query: str) -> None:
            body = self._json()
            entry = body.get("entry") if isinstance(body, dict) else None
            if not isinstance(entry, str):
                self._send(HTTPStatus.BAD_REQUEST, {"problem": 'send {"entry": "..."} as JSON'})
                return
            problem = front.enter(entry)
            if problem is not None:
                self._send(HTTPStatus.CONFLICT, {"problem": problem})
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
            length = int(self.headers.get("Content-Length") or 0)
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

    return Handler

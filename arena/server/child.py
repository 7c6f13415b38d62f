"""A child process of ``arena serve``: ``python -m arena.server.child web CONFIG DIR URL FD``.

The web app serves the Django project with waitress, a production WSGI
server (threads, no development server), on the listening socket the parent
opened and passed down as file descriptor FD: the address is taken once, so
a restarted web app cannot lose it to another program, and the parent can
say where the server listens before the child is up.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

#: Requests served at once by the web app.
THREADS = 8


def web(config_path: Path, folder: Path, url: str, fd: int) -> None:
    """Serve the web app on the socket ``fd`` until stopped."""
    import waitress  # noqa: PLC0415 - the server extra
    from django.core.wsgi import get_wsgi_application  # noqa: PLC0415

    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import prepare  # noqa: PLC0415
    from arena.server.site import setup  # noqa: PLC0415

    config = load_server_config(config_path)
    setup(folder, config, prepare(folder), url)
    listening = socket.socket(fileno=fd)
    (folder / "uploads").mkdir(exist_ok=True)
    waitress.serve(
        get_wsgi_application(),
        sockets=[listening],
        threads=THREADS,
        ident="arena",
        # waitress refuses (413) a body past an upload's limit and a little room for the form
        max_request_body_size=(config.server["upload_mb"] + 1) * 2**20,
        _quiet=True,
    )


def main(argv: list[str]) -> None:
    """Run the child ``argv[0]`` names."""
    kind, config_path, folder, url, fd = argv
    if kind != "web":
        raise SystemExit(f"arena.server.child: no child {kind!r}")
    web(Path(config_path), Path(folder), url, int(fd))


if __name__ == "__main__":
    main(sys.argv[1:])

"""The pages' style and scripts as files of their own, served by WhiteNoise.

The style is the one arena's offline reports inline (:data:`arena.report.html.CSS`)
plus the server's own rules; the scripts refresh the leaderboard and a version
still on its way. :func:`publish` writes each, named by its content's digest
(``site.<12 hex>.css``), into ``DIR/static`` when the server starts, so a
browser may keep each for a year (WhiteNoise marks such names immutable) and
an upgrade of arena changes the names, not what a cached name holds. Pages
name them through :func:`urls`. Files of an older arena are removed.

Nothing a stranger gave is ever there: replays and logs are served by views
that redact them, never as static files (the contract).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path

from arena.report.html import CSS

#: The folder of DIR the files are written to, served at :data:`URL`.
STATIC = "static"
URL = "/static/"
#: The sources in this package's ``static`` folder, by the name pages use.
SOURCES = {"site_css": "site.css", "board_js": "board.js", "reload_js": "reload.js"}
#: The published names, by the name pages use: beside the folder, not served.
MANIFEST = "static.json"
#: A published name: a digest before the extension (see WHITENOISE_IMMUTABLE_FILE_TEST).
HASHED = re.compile(r"\.[0-9a-f]{12}\.(css|js)$")


def publish(folder: Path) -> None:
    """Write the pages' files into ``DIR/static`` (those already there are kept) and their
    names into ``DIR/static.json``."""
    here = Path(__file__).with_name("web") / "static"
    target = folder / STATIC
    target.mkdir(exist_ok=True)
    names = {}
    for key, name in SOURCES.items():
        text = (here / name).read_text(encoding="utf-8")
        if key == "site_css":  # the reports' style first, the server's rules after it
            text = CSS.strip() + "\n" + text
        data = text.encode()
        stem, _, extension = name.rpartition(".")
        hashed = f"{stem}.{hashlib.sha256(data).hexdigest()[:12]}.{extension}"
        if not (target / hashed).is_file():
            partial = target / f".{hashed}.partial"
            partial.write_bytes(data)
            os.replace(partial, target / hashed)
        names[key] = hashed
    partial = folder / f".{MANIFEST}.partial"
    partial.write_text(json.dumps(names, sort_keys=True))
    os.replace(partial, folder / MANIFEST)
    for old in target.iterdir():
        if HASHED.search(old.name) and old.name not in names.values():
            old.unlink()


@functools.cache  # written by the parent before the web app starts; read once
def urls(folder: Path) -> dict[str, str]:
    """The URL of each of the pages' files, by the name pages use."""
    names = json.loads((folder / MANIFEST).read_text())
    return {key: URL + name for key, name in names.items()}


def immutable(path: str, url: str) -> bool:
    """WhiteNoise's test: a name with a digest never changes what it holds."""
    return bool(HASHED.search(url))

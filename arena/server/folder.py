"""A competition's folder: made owner-only, its secrets, and one server at a time.

``DIR`` holds the ladder's league store (``results.sqlite``, as a tournament
folder), the server's own database (:data:`SERVER_DB`: accounts, tokens,
versions) and :data:`SECRETS`: Django's secret key and the ladder's 128-bit
seed, made at the first start and readable by the owner only (an author who
knew the seed could work out every deal). One ``arena serve`` per folder:
:func:`held` takes a lock that the kernel lets go when the process dies, so
a ``kill -9`` leaves nothing to clean up.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError

#: The server's own database, beside the ladder's results.sqlite.
SERVER_DB = "server.sqlite"
#: Django's secret key and the ladder's seed, owner-only.
SECRETS = "secrets.json"
#: Held by the one ``arena serve`` of the folder.
LOCK = "serve.lock"


class ServerError(ArenaError):
    """The server cannot start or go on: another holds the folder, a secret is damaged."""


@dataclass(frozen=True)
class Secrets:
    """What no author may learn."""

    #: Signs sessions and CSRF tokens.
    django_key: str
    #: The ladder's seed (128 bits): deals and game ids come from it.
    ladder_seed: int


def prepare(folder: Path) -> Secrets:
    """Make ``folder`` (owner-only) and its secrets if they are not there; the secrets.

    The process's umask becomes 077 as well: every file the server writes (its
    database and the database's journals, made by SQLite) is its owner's only.
    A folder a root server shares with its web app's own group
    (:mod:`arena.server.webuser`) stays so, and the umask is 027: that group
    may read what the server writes (and write only what it is given).

    Raises:
        ServerError: a secrets file that cannot be read as written.
    """
    from arena.server.webuser import shared  # noqa: PLC0415

    os.umask(0o077)
    folder.mkdir(parents=True, exist_ok=True)
    if shared(folder):  # its mode is the parent's to set (a child may lack CAP_FSETID)
        os.umask(0o027)
    else:
        folder.chmod(0o700)
    path = folder / SECRETS
    made = {"django_key": secrets.token_urlsafe(50), "ladder_seed": secrets.randbits(128)}
    try:  # O_EXCL: two first starts at once make one file, the other reads it
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(made, out)
            out.flush()
            os.fsync(out.fileno())
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Secrets(str(data["django_key"]), int(data["ladder_seed"]))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ServerError(f"cannot read the server's secrets in {path}: {error}") from None


@contextmanager
def held(folder: Path) -> Iterator[None]:
    """The folder, held by this process while the block runs.

    Raises:
        ServerError: another ``arena serve`` holds it.
    """
    handle = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerError(
                f"another arena serve runs on {folder}: one server per folder"
            ) from None
        yield
    finally:
        os.close(handle)


def check_databases(folder: Path) -> None:
    """Refuse to serve a folder whose databases SQLite finds damaged, naming the file:
    both are read through read-only connections, so nothing is changed in them (a
    damaged file is evidence, and what a restore starts from).

    Raises:
        ServerError: the server's database is damaged.
        StoreError: the ladder's ``results.sqlite`` is damaged (its board tables checked:
            the ladder checks the whole file when it resumes).
    """
    from arena.results.store import CORRUPT, DATABASE, open_existing  # noqa: PLC0415

    server = folder / SERVER_DB
    if server.is_file():
        try:
            with closing(sqlite3.connect(f"file:{server}?mode=ro", uri=True)) as db:
                found = [str(row[0]) for row in db.execute("PRAGMA quick_check(4)")]
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF not in CORRUPT:
                raise ServerError(f"{server}: {error}") from None  # locked, unreadable...
            found = [str(error)]
        if found != ["ok"]:
            raise ServerError(damaged(server, found[0]))
    if (folder / DATABASE).is_file():
        store = open_existing(folder)
        try:
            store.check(full=False)
        finally:
            store.close()


def damaged(path: Path, problem: str) -> str:
    """The one line for a database SQLite finds damaged."""
    return (
        f"{path} is damaged ({problem.splitlines()[0] if problem else 'unknown'}): nothing was "
        "changed in it; restore the folder from a backup (arena serve CONFIG --restore FILE)"
    )


def damage_in(error: BaseException, folder: Path) -> str | None:
    """The one line for ``error`` (or an error it came from) where it is SQLite finding a
    database of ``folder`` damaged (through Django: the server's database; else the
    ladder's results.sqlite), or None for any other error."""
    from arena.results.store import CORRUPT, DATABASE  # noqa: PLC0415

    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, sqlite3.DatabaseError) and (
            getattr(current, "sqlite_errorcode", 0) & 0xFF in CORRUPT or "malformed" in str(current)
        ):
            django = type(error).__module__.startswith("django")
            return damaged(folder / (SERVER_DB if django else DATABASE), str(current))
        current = current.__cause__ or current.__context__
    return None

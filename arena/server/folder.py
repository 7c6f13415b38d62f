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
from collections.abc import Iterator
from contextlib import contextmanager
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

    Raises:
        ServerError: a secrets file that cannot be read as written.
    """
    os.umask(0o077)
    folder.mkdir(parents=True, exist_ok=True)
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

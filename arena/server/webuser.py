"""The web app's own user: run as root, ``arena serve`` answers strangers as nobody's root.

``arena serve`` runs as root where it can, so that every bot and build gets a
uid of its own. The web app needs none of that power, and it is the part that
parses what strangers send (forms, archives, headers): a flaw there must not
be a root shell. So, started as root, the web app drops to a user of its own
once it has read the folder's secrets:

- Its uid (and gid, the same number) is leased from a range of its own,
  below the bots' (:data:`FIRST`), held by the parent while it serves and
  kept in ``DIR/web.uid``, so that a restart finds the same one: no bot or
  build is ever given it, and no other server on the machine shares it.
- It runs under bubblewrap (:func:`arena.bots.sandbox.as_another_uid`), as
  bots do, so that its user reaches Python and arena where they sit in a
  folder only root may enter (``/root/.pyenv``), and the folder itself.
- The folder is shared with that group and no one else (``2750``: the
  group's setgid bit makes every file made in it the group's; the server's
  children write with umask 027), so the web app reads the ladder's store,
  replays, build logs and versions, and writes only the server's database
  and the uploads, received and queued (:data:`WRITABLE`): nowhere the root
  children write a file by name, where a link it planted could lead them.
  The builder copies a queued version into root's ``bots`` folder before
  it builds it (:func:`arena.server.uploads.admit`), and deletes versions'
  files. The secrets stay root's only (read before the drop).
- SQLite's journals (``-wal``, ``-shm``) must be there for the web app to
  open a database, and it may not make them: the parent keeps the
  databases open while it serves (:class:`Journals`), so no other
  connection's close removes them.
- Its uid comes on its command line, from the parent: nothing it can
  write decides whether it drops root.

A server that is not root runs everything as its own user, the folder
owner-only, as before.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
from pathlib import Path

from arena.bots.sandbox import UidPool
from arena.results.store import DATABASE
from arena.server.folder import LOCK, SECRETS, SERVER_DB
from arena.server.ladder import FINAL
from arena.server.uploads import QUEUED, SCRATCH

#: The web app's uids: 65,536 below the bots' (arena.bots.sandbox.UidPool.FIRST).
FIRST = UidPool.FIRST - UidPool.COUNT
#: Where the folder keeps its web app's uid (root's only).
RECORD = "web.uid"
#: What stays root's alone in the folder: the secrets, the lock, this record.
ROOTS_ONLY = (SECRETS, LOCK, RECORD)
#: linux/prctl.h
_PR_SET_PDEATHSIG = 1


def shared(folder: Path) -> bool:
    """Whether ``folder`` is shared with its web app's group (a root server's)."""
    return os.stat(folder).st_gid >= FIRST


def lease(folder: Path) -> tuple[UidPool, int] | None:
    """The web app's uid for ``folder`` and the pool that holds its lease (keep it while
    serving), the folder shared with its group; None when not root.

    Raises:
        SandboxError: no uid can be leased.
    """
    if os.geteuid() != 0:
        return None
    pool = UidPool(first=FIRST)
    record = folder / RECORD
    written = record.read_text().strip() if record.is_file() else ""
    known = int(written) if written.isdigit() else None  # none, or damaged: leased anew
    if known is not None and pool.take_this(known):
        uid = known
    else:
        uid = pool.take()
        handle = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(handle, "w") as out:
            out.write(f"{uid}\n")
    for name in (SCRATCH, QUEUED):  # made here, root's, for the group to write in
        (folder / name).mkdir(exist_ok=True)
    share(folder, uid, everything=uid != known)
    return pool, uid


def share(folder: Path, gid: int, *, everything: bool) -> None:
    """Share ``folder`` with group ``gid``, least first: the group reads and enters what
    the server's root children write (the ladder's store, replays, build logs, the
    versions in ``bots``), and writes only :data:`WRITABLE` (its database, where
    uploads arrive and wait for the builder); the secrets, the lock and the record stay
    root's alone.

    Only what root owns is changed, each file or folder through a descriptor opened
    without following a link (the web app may have made the rest, and could swap a
    name for a link between a look and a change), never a file with another name (a
    hard link): the group may read and enter it, no one but its owner may write it,
    and no setuid bit is kept; the other bits stay (a version's files are open to the
    uids its bot processes get). ``everything``: the whole tree (a first start, or a
    new uid); else the first level (what is made after inherits the group through the
    folders' setgid bits; root's children write with umask 027).
    """
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        _share_here(handle, gid, everything=everything, top=True)
    finally:
        os.close(handle)


#: What the web app writes: its database (and SQLite's journals beside it), the folder
#: where uploads are received and unpacked, and the one where they wait for the builder.
WRITABLE = ("server.sqlite", "server.sqlite-wal", "server.sqlite-shm", "uploads", QUEUED)


def _share_here(handle: int, gid: int, *, everything: bool, top: bool) -> None:
    """Give the folder open as ``handle`` and, where root owns them, its entries to the
    group (see :func:`share`)."""
    _give(handle, gid, writable=False)
    for name in os.listdir(handle):
        if top and name in ROOTS_ONLY:
            continue
        writable = top and name in WRITABLE
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=handle)  # fmt: skip
        except OSError:
            continue  # a link (ELOOP), or gone
        try:
            seen = os.fstat(fd)
            if seen.st_uid != 0 or not (stat.S_ISDIR(seen.st_mode) or seen.st_nlink == 1):
                continue  # the web app's or a bot's own, or a hard link: left as it is
            if stat.S_ISDIR(seen.st_mode) and everything and not writable:
                _share_here(fd, gid, everything=True, top=False)
            elif stat.S_ISDIR(seen.st_mode) or stat.S_ISREG(seen.st_mode):
                _give(fd, gid, writable=writable)
        finally:
            os.close(fd)


def _give(handle: int, gid: int, *, writable: bool) -> None:
    """Give the file or folder open as ``handle`` (root's) to the group: to read (and
    enter), or ``writable`` to write as well; a folder's setgid bit passes the group on."""
    seen = os.fstat(handle)
    folder = stat.S_ISDIR(seen.st_mode)
    if writable:
        mode = 0o2770 if folder else 0o660
    else:
        mode = stat.S_IMODE(seen.st_mode) & 0o755 | (0o2050 if folder else 0o040)
    os.fchown(handle, 0, gid)
    os.fchmod(handle, mode)


def become(uid: int) -> None:
    """In the web app, once it has read what only root may: become ``uid`` (its group the
    same number, no other) for good, as a bot's trampoline does (no capability left in
    any set); the parent's death still ends it (a change of credentials clears that, so
    it is asked for again)."""
    from arena.bots import trampoline  # noqa: PLC0415

    lib = trampoline.libc()
    trampoline.become(lib, uid)
    lib.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class Journals:
    """The parent's connections to the folder's databases, kept open while it serves, so
    that their journals stay: SQLite removes a database's ``-wal`` and ``-shm`` when the
    last connection to it closes (the ladder's does at a pause, and once a final is
    played), and the web app, which may not make files in the folder, could then open
    the database no more. A connection holds the database that way only once it has
    read it.

    The ladder makes its stores after the parent starts, and sets a final aside when
    the season is opened again: :meth:`keep` is called again (at the supervisor's every
    look at its children), holding each database that is there, and holding again one
    whose file was replaced.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        #: Each database held: its connection, and the file (inode) it was opened on.
        self.held: dict[str, tuple[sqlite3.Connection, int]] = {}

    def keep(self) -> None:
        """Hold each database that is there and not held yet (or held on a file gone)."""
        for name in (SERVER_DB, DATABASE, f"{FINAL}/{DATABASE}"):
            path = self.folder / name
            try:
                inode = path.stat().st_ino
            except FileNotFoundError:
                inode = None
            held = self.held.get(name)
            if held is not None and held[1] == inode:
                continue
            if held is not None:
                held[0].close()
                del self.held[name]
            if inode is None:
                continue
            connection = sqlite3.connect(path, timeout=30)
            try:
                connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.Error:
                connection.close()
                raise
            self.held[name] = (connection, inode)

    def close(self) -> None:
        for connection, _ in self.held.values():
            connection.close()
        self.held = {}

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
  replays and build logs, and writes only the server's database, the
  uploads and the versions' folders (:data:`WRITABLE`): nowhere the root
  children write a file by name, where a link it planted could lead them.
  The secrets stay root's only (read before the drop); deleting a
  version's files is the builder's job.
- Its uid comes on its command line, from the parent: nothing it can
  write decides whether it drops root.

A server that is not root runs everything as its own user, the folder
owner-only, as before.
"""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

from arena.bots.sandbox import UidPool

#: The web app's uids: 65,536 below the bots' (arena.bots.sandbox.UidPool.FIRST).
FIRST = UidPool.FIRST - UidPool.COUNT
#: Where the folder keeps its web app's uid (root's only).
RECORD = "web.uid"
#: What stays root's alone in the folder: the secrets, the lock, this record.
ROOTS_ONLY = ("secrets.json", "serve.lock", RECORD)
#: Versions' files, under ``DIR/bots/KEY/``: the builder's and their bots', read-only to
#: the web app (they are open to every user once built, inside a folder no one else
#: enters).
VERSIONS = "bots"
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
    known = int(record.read_text()) if record.is_file() else None
    if known is not None and pool.take_this(known):
        uid = known
    else:
        uid = pool.take()
        handle = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(handle, "w") as out:
            out.write(f"{uid}\n")
    for name in ("uploads", VERSIONS):  # made here, root's, for the group to write in
        (folder / name).mkdir(exist_ok=True)
    share(folder, uid, everything=uid != known)
    return pool, uid


def share(folder: Path, gid: int, *, everything: bool) -> None:
    """Share ``folder`` with group ``gid``, least first: the group reads and enters what
    the server's root children write (the ladder's store, replays, build logs), and
    writes only :data:`WRITABLE` (its database, where uploads arrive, where versions
    are put); the secrets, the lock and the record stay root's alone.

    Only what root owns is changed, each file or folder through a descriptor opened
    without following a link (the web app may have made the rest, and could swap a
    name for a link between a look and a change), with fixed modes, never a mode it
    carries, and never a file with another name (a hard link). ``everything``: the
    whole tree (a first start, or a new uid); else the first level (what is made after
    inherits the group through the folders' setgid bits; root's children write with
    umask 027).
    """
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        _share_here(handle, gid, 0o2750, everything=everything, top=True)
    finally:
        os.close(handle)


#: What the web app writes: its database (and SQLite's journals beside it), and the
#: folders where uploads are unpacked and versions are put.
WRITABLE = ("server.sqlite", "server.sqlite-wal", "server.sqlite-shm", "uploads", VERSIONS)


def _share_here(handle: int, gid: int, mode: int, *, everything: bool, top: bool) -> None:
    """Give the folder open as ``handle`` (``mode``) and, where root owns them, its
    entries to the group (see :func:`share`)."""
    os.fchown(handle, 0, gid)
    os.fchmod(handle, mode)
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
            if seen.st_uid != 0:
                continue  # the web app's own (an upload, a bot's folder): left as it is
            if stat.S_ISDIR(seen.st_mode):
                inner = 0o2770 if writable else 0o2750
                if everything and not (top and name == VERSIONS):
                    _share_here(fd, gid, inner, everything=True, top=False)
                else:
                    os.fchown(fd, 0, gid)
                    os.fchmod(fd, inner)
            elif stat.S_ISREG(seen.st_mode) and seen.st_nlink == 1:
                os.fchown(fd, 0, gid)
                os.fchmod(fd, 0o660 if writable else 0o640)
        finally:
            os.close(fd)


def become(uid: int) -> None:
    """In the web app, once it has read what only root may: become ``uid`` (its group the
    same number, no other) for good, as a bot's trampoline does (no capability left in
    any set); the parent's death still ends it (a change of credentials clears that, so
    it is asked for again)."""
    from arena.bots import trampoline  # noqa: PLC0415

    lib = trampoline.libc()
    trampoline.become(lib, uid)
    lib.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)

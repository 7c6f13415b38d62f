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
- The folder is shared with that group and no one else (``2770``: the
  group's setgid bit makes every file made in it the group's; the server's
  children write with umask 007), so the web app reads the ladder's store,
  replays and build logs, and writes the server's database and uploads.
  The secrets stay root's only (read before the drop); a version's files
  stay read-only to it; deleting them is the builder's job.

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
    share(folder, uid, everything=uid != known)
    return pool, uid


def recorded(folder: Path) -> int | None:
    """The web app's uid the parent leased (None: a server that is not root)."""
    record = folder / RECORD
    if os.geteuid() != 0 or not record.is_file():
        return None
    return int(record.read_text())


def share(folder: Path, gid: int, *, everything: bool) -> None:
    """Share ``folder`` with group ``gid``: the folder itself and what is in it (all of
    it when ``everything``: a first start or a new uid; else its first level, what is
    made after inherits the group), but the secrets and the versions' files."""
    os.chown(folder, 0, gid)
    os.chmod(folder, 0o2770)
    for entry in folder.iterdir():
        if entry.name in ROOTS_ONLY:
            continue
        _share(entry, gid)
        if everything and entry.is_dir() and not entry.is_symlink():
            for root, folders, files in os.walk(entry):
                here = Path(root)
                if here == folder / VERSIONS:
                    for key in folders:
                        _share(here / key, gid)  # the bot's folder: the web app adds versions
                    folders.clear()  # versions' files: left as they are
                    continue
                for name in folders + files:
                    _share(here / name, gid)


def _share(path: Path, gid: int) -> None:
    """One file or folder given to the group: read and write, a folder's setgid bit."""
    seen = os.lstat(path)
    if stat.S_ISLNK(seen.st_mode):
        return
    os.chown(path, seen.st_uid, gid, follow_symlinks=False)
    extra = 0o2070 if stat.S_ISDIR(seen.st_mode) else 0o060
    os.chmod(path, stat.S_IMODE(seen.st_mode) | extra)


def become(uid: int) -> None:
    """In the web app, once it has read what only root may: become ``uid`` (its group the
    same number, no other) for good, as a bot's trampoline does (no capability left in
    any set); the parent's death still ends it (a change of credentials clears that, so
    it is asked for again)."""
    from arena.bots import trampoline  # noqa: PLC0415

    lib = trampoline.libc()
    trampoline.become(lib, uid)
    lib.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)

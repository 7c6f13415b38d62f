"""A full disk, told apart from other failures and waited out.

A competition runs for weeks on one machine, and its disk can fill (replays,
uploads, builds, another program's logs). Every write the server makes is
atomic where it counts (SQLite's transactions, a replay renamed into place
once whole, a version renamed into ``DIR/bots`` once unpacked), so a write
that fails for room loses nothing already kept. What must not happen is a
crash loop: a child that dies on a full disk is started again and dies
again, and three deaths stop the server. So the children ask
:func:`disk_full` of what stopped them, say so in one line, and
:func:`wait_for_room` until the folder's file system has :data:`ROOM_MB`
free again; the web app answers an upload that found no room with 507.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

#: Free space on the folder's file system after which a child goes on.
ROOM_MB = 50
#: Files that must be free to make, too.
ROOM_FILES = 1000
#: How often a waiting child looks again.
CHECK_S = 2.0
#: What SQLite says when a write finds no room (SQLITE_FULL), in any wrapper's message.
_SQLITE_FULL = "database or disk is full"


def disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or an error it was raised from, or during) is a write that
    found no room: ENOSPC or EDQUOT, or SQLite's SQLITE_FULL (also as Django's
    OperationalError, which keeps SQLite's message)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        sqlite = isinstance(current, sqlite3.Error) or type(current).__name__ == "OperationalError"
        if sqlite and _SQLITE_FULL in str(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def free_mb(folder: Path) -> float:
    """Megabytes free for the server on ``folder``'s file system (0 when it has no file
    left to make: a disk runs out of inodes as well as of bytes)."""
    seen = os.statvfs(folder)
    if seen.f_files and seen.f_favail < ROOM_FILES:  # 0 files in all: no such limit (btrfs)
        return 0.0
    return shutil.disk_usage(folder).free / 2**20


def wait_for_room(folder: Path, who: str, say: Callable[[str], None]) -> None:
    """Say that ``who`` waits for room on ``folder``'s disk, and return once it has
    :data:`ROOM_MB` free (looked at every :data:`CHECK_S` seconds), saying so."""
    say(
        f"arena serve: the disk of {folder} is full: the {who} waits until {ROOM_MB} MB are "
        f"free ({free_mb(folder):.0f} MB now; nothing kept is lost)"
    )
    while free_mb(folder) < ROOM_MB:
        time.sleep(CHECK_S)
    say(f"arena serve: {free_mb(folder):.0f} MB are free on {folder}: the {who} goes on")

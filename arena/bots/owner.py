"""Which process made a scratch folder or a cgroup, so that the next run can reap it.

A process killed with SIGKILL cannot clean up after itself. Everything it
makes for its bots (a scratch folder, a cgroup) carries its mark,
``<pid>.<place>``; whoever comes next removes what a process that no
longer runs left behind. A pid means something only in its own pid
namespace on its own host, so the mark carries a sign of both (the place):
things made in another container or on another host sharing the folder are
left alone.
"""

from __future__ import annotations

import functools
import os
import re
import zlib
from pathlib import Path

#: ``<pid>.<place>`` within a name.
MARK = re.compile(r"(\d+)\.([0-9a-f]{8})")


def mark() -> str:
    """``<pid>.<place>``: this process, and where it runs."""
    return f"{os.getpid()}.{place()}"


@functools.cache  # a process stays on its host and in its pid namespace
def place() -> str:
    """A sign of this host and pid namespace (8 hex digits)."""
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        namespace = 0
    return f"{zlib.crc32(f'{os.uname().nodename}/{namespace}'.encode()):08x}"


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def left_behind(pid: str, where: str) -> bool:
    """Whether a thing marked ``<pid>.<where>`` was made here by a process now gone."""
    return where == place() and not running(int(pid))

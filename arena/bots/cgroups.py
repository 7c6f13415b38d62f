"""Bots' cgroups: a ceiling on processes and on memory, and a kill of the whole tree.

Two kinds of host, each found by trying it (:func:`find`), never assumed:

- cgroup v1 (``cgroups-v1``): writable ``pids`` and ``memory`` hierarchies
  under /sys/fs/cgroup; each bot gets a group in both.
- cgroup v2 (``cgroups-v2``), the unified hierarchy of current
  distributions, Docker and most cloud machines: a subtree this process may
  write. Each process that starts bots makes one folder
  (``arena-<pid>.<place>``) with ``pids`` and ``memory`` enabled for its
  children, and each bot gets a child with ``pids.max``, ``memory.max``,
  ``memory.swap.max`` 0 and ``memory.oom.group`` (an out-of-memory kill takes
  the whole bot). Tried in order: the hierarchy's root as this process sees
  it (root on a host, or a container with a cgroup namespace of its own),
  then this process's own cgroup (a delegated subtree, or a container's).
  A normal user whose own cgroup is a login session's (not delegated) asks
  the systemd user manager for a transient scope with ``Delegate=yes`` and
  moves into it, as ``systemd-run --user --scope -p Delegate=yes`` would:
  one D-Bus call for the whole run, where starting each bot through
  ``systemd-run`` cost a call per bot. The "no internal processes" rule of
  v2 lets a cgroup enable controllers for its children only while it holds
  no process itself, so when this process is the only one in its own cgroup
  it first moves itself into a leaf beside its bots
  (``arena-<pid>.<place>.self``); pool workers, started in that leaf, use
  the cgroup around it.

A tree is killed with ``cgroup.kill`` where the kernel has it (5.14), else by
freezing the group and killing every process listed in it. Every group
names the process that made it (:mod:`arena.bots.owner`), so the groups a
run killed with SIGKILL left are removed by the next one that looks.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import itertools
import logging
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from arena.bots import owner
from arena.errors import ArenaError

log = logging.getLogger(__name__)

#: Where cgroup v1 hierarchies are mounted.
V1_ROOT = Path("/sys/fs/cgroup")
#: The controllers a bot's limits need.
CONTROLLERS = ("pids", "memory")
MIB = 1 << 20
#: A v2 folder of a process: its bots' parent, or (``.self``) the leaf it moved into.
_V2_FOLDER = re.compile(rf"^arena-{owner.MARK.pattern}(\.self)?$")
_numbers = itertools.count(1)


class CgroupError(ArenaError):
    """A bot's cgroups could not be made."""


@dataclass(frozen=True)
class Cgroups:
    """Where this machine lets arena put its bots' cgroups, and what they can limit."""

    #: 1 or 2.
    version: int
    #: v1: the pids and memory hierarchies; v2: the folder each process's folder goes in.
    base: Path
    #: Of :data:`CONTROLLERS`, those that limit bots here (v1: both).
    controllers: tuple[str, ...] = CONTROLLERS

    @property
    def layer(self) -> str:
        """The layer's name in replays and results."""
        return f"cgroups-v{self.version}"

    def make(self, name: str, processes: int | None, memory_mb: int | None) -> list[Path]:
        """The cgroups of one bot, limits written; the trampoline joins them.

        Raises:
            CgroupError: when they cannot be made (those made are removed).
        """
        made: list[Path] = []
        try:
            if self.version == 1:
                label = f"arena-{os.getpid()}-{next(_numbers)}"
                pids = self.base / "pids" / label
                pids.mkdir()
                made.append(pids)
                memory = self.base / "memory" / label
                memory.mkdir()
                made.append(memory)
                if processes:
                    (pids / "pids.max").write_text(str(processes))
                if memory_mb:
                    (memory / "memory.limit_in_bytes").write_text(str(memory_mb * MIB))
                return made
            group = _own_folder(self) / f"{next(_numbers)}-{name}"
            group.mkdir()
            made.append(group)
            if processes and "pids" in self.controllers:
                (group / "pids.max").write_text(str(processes))
            if memory_mb and "memory" in self.controllers:
                (group / "memory.max").write_text(str(memory_mb * MIB))
                for setting, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    if (group / setting).exists():
                        (group / setting).write_text(value)
        except OSError as error:
            for group in made:
                remove(group)
            raise CgroupError(f"cannot create the cgroups of bot {name!r}: {error}") from None
        return made

    def sweep(self) -> None:
        """Remove the cgroups of arena processes that are gone (killed with ``kill -9``)."""
        if self.version == 1:
            for controller in CONTROLLERS:
                for group in (self.base / controller).glob("arena-*-*"):
                    pid = group.name.split("-")[1]
                    if pid.isdigit() and not owner.running(int(pid)):
                        remove(group)
            return
        for folder in self.base.glob("arena-*"):  # the base was found writable just now
            found = _V2_FOLDER.match(folder.name)
            if found and owner.left_behind(found.group(1), found.group(2)):
                _remove_folder(folder)


def find(notes: list[str]) -> Cgroups | None:
    """The cgroups this process may use: v2 with both controllers, else v1, else v2
    without them (a tree kill, no ceilings), else None; each miss noted in ``notes``."""
    v2, why = _find_v2()
    if v2 is not None and v2.controllers == CONTROLLERS:
        return v2
    v1 = Cgroups(1, V1_ROOT) if _v1_writable() else None
    if v1 is not None:
        return v1
    if v2 is not None:
        missing = [c for c in CONTROLLERS if c not in v2.controllers]
        notes.append(
            f"cgroups: v2 at {v2.base} kills each bot's whole tree, but cannot limit "
            f"{' or '.join(missing)} there ({_why_not_enabled(v2.base, missing)})"
        )
        return v2
    notes.append(f"cgroups: no writable cgroup v1 pids and memory hierarchy, and {why}")
    return None


def _why_not_enabled(base: Path, missing: list[str]) -> str:
    """Why ``missing`` controllers could not be enabled below ``base``, in words."""
    try:
        offered = (base / "cgroup.controllers").read_text().split()
        others = [p for p in (base / "cgroup.procs").read_text().split() if p != str(os.getpid())]
    except OSError as error:
        return f"cannot read {base}: {error.strerror}"
    if any(c not in offered for c in missing):
        return "the cgroup above does not pass them on (cgroup v1 may hold them)"
    if others:
        return (
            f"{len(others)} other processes share this cgroup, and v2 enables controllers "
            "only below a cgroup without processes: start arena as the only process of "
            "its cgroup (a container's entry point), or move the others into a child"
        )
    return "not enabled for this subtree"


def kill(group: Path) -> None:
    """SIGKILL every process in ``group``."""
    if (group / "cgroup.kill").exists():  # v2 on Linux 5.14 or later: the kernel does it
        with contextlib.suppress(FileNotFoundError):  # the group was removed meanwhile
            (group / "cgroup.kill").write_text("1")
        return
    frozen = _freeze(group, True)  # v2 before 5.14: nothing in it forks while it is killed
    try:
        with contextlib.suppress(FileNotFoundError):  # the group was removed meanwhile
            for pid in (group / "cgroup.procs").read_text().split():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(pid), signal.SIGKILL)
    finally:
        if frozen:
            _freeze(group, False)


def remove(group: Path) -> None:
    """Remove ``group`` once its processes are gone (kills them; tries for a second)."""
    deadline = time.monotonic() + 1.0
    while group.exists():
        try:
            group.rmdir()
        except OSError:
            if time.monotonic() > deadline:
                log.warning("cgroup %s is still busy; left in place", group)
                return
            kill(group)
            time.sleep(0.01)


# ---------------------------------------------------------------------- internals


def _freeze(group: Path, frozen: bool) -> bool:
    """Freeze (or thaw) a v2 group; False where there is no freezer (v1)."""
    freeze = group / "cgroup.freeze"
    if not freeze.exists():
        return False
    with contextlib.suppress(FileNotFoundError):  # the group was removed meanwhile
        freeze.write_text("1" if frozen else "0")
    return True


def _v1_writable() -> bool:
    return all(_writable(V1_ROOT / controller) for controller in CONTROLLERS)


def v2_mount() -> tuple[Path, str] | None:
    """Where the unified (v2) hierarchy is mounted, and which of its folders is mounted there."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields, _, rest = line.partition(" - ")
        if rest.split(" ", 1)[0] == "cgroup2":
            root, point = (_unescape(text) for text in fields.split(" ")[3:5])
            return Path(point), root
    return None


def v2_own(mount: Path, root: str) -> Path | None:
    """This process's cgroup, under the unified hierarchy's ``root`` mounted at ``mount``."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("0::"):
            path = Path(line[3:].removesuffix(" (deleted)"))
            if not path.is_relative_to(root):
                return None  # outside what is mounted here
            return mount / path.relative_to(root)
    return None


def _unescape(text: str) -> str:
    """A mountinfo field: spaces and the like are written as octal escapes (``\\040``)."""
    return re.sub(r"\\([0-7]{3})", lambda match: chr(int(match.group(1), 8)), text)


def _find_v2() -> tuple[Cgroups | None, str]:
    """The best v2 subtree this process may write (both controllers enabled if any has
    them), and why there is none where there is none.

    A normal user whose own cgroup is not delegated (a login session's scope)
    asks the systemd user manager for a delegated scope of its own, once,
    and looks again from there.
    """
    mounted = v2_mount()
    if mounted is None:
        return None, "no cgroup v2 hierarchy is mounted"
    mount, root = mounted
    found, own = _subtrees(mount, root)
    if (not found or found[0].controllers != CONTROLLERS) and os.geteuid() != 0:
        moved = _into_delegated_scope(own)
        if moved is not None:
            found, own = _subtrees(mount, root)
            log.debug("cgroups: moved into the delegated scope %s", moved)
    why = f"no cgroup v2 subtree this process may write (its own: {own or 'unknown'})"
    return (found[0] if found else None), why


def _subtrees(mount: Path, root: str) -> tuple[list[Cgroups], Path | None]:
    """The v2 subtrees this process may write, one with both controllers first; and
    this process's own cgroup.

    Tried: the hierarchy's root, this process's own cgroup and, where that is
    the leaf an arena process moved into (a pool worker starts in its
    coordinator's), the cgroup around that leaf.
    """
    own = v2_own(mount, root)
    candidates = [mount]
    if own is not None:
        candidates.append(own)
        if _V2_FOLDER.match(own.name) and own.name.endswith(".self"):
            candidates.append(own.parent)
    found: list[Cgroups] = []
    for base in dict.fromkeys(candidates):
        if _writable(base):
            cgroups = Cgroups(2, base, _enable(base, own))
            if cgroups.controllers == CONTROLLERS:
                return [cgroups, *found], own
            found.append(cgroups)
    return found, own


def _into_delegated_scope(own: Path | None) -> str | None:
    """Move this process into a new transient scope with ``Delegate=yes`` of the
    systemd user manager, as ``systemd-run --user --scope -p Delegate=yes`` does
    for the command it runs; the scope's name, or None where there is no such manager.

    One call for the whole run: starting each bot through ``systemd-run`` cost
    0.31 s a bot more than a plain start in the VM the README's figures come from.
    """
    busctl = shutil.which("busctl")
    if busctl is None or not os.environ.get("XDG_RUNTIME_DIR"):
        return None
    unit = f"arena-{owner.mark()}.scope"
    call = [
        busctl, "--user", "call", "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
        "org.freedesktop.systemd1.Manager", "StartTransientUnit", "ssa(sv)a(sa(sv))",
        unit, "fail", "2", "PIDs", "au", "1", str(os.getpid()), "Delegate", "b", "true", "0",
    ]  # fmt: skip
    try:
        done = subprocess.run(call, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        log.debug("cgroups: no delegated scope from the user manager: %s", error)
        return None
    if done.returncode != 0:
        log.debug("cgroups: no delegated scope: %s", done.stderr.decode(errors="replace"))
        return None
    deadline = time.monotonic() + 5.0  # the move is a job the manager runs after answering
    while time.monotonic() < deadline:
        mounted = v2_mount()
        now = v2_own(*mounted) if mounted else None
        if now is not None and now != own and now.name == unit:
            return unit
        time.sleep(0.01)
    return None


def _writable(base: Path) -> bool:
    """Whether this process may make a group in ``base`` (it makes one and removes it)."""
    probe = base / f"arena-probe-{owner.mark()}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


def _enable(base: Path, own: Path | None) -> tuple[str, ...]:
    """Enable the controllers bots need for ``base``'s children; those enabled.

    A cgroup other than the root can enable controllers for its children
    only while it holds no process (the "no internal processes" rule): where
    this process is the only one in its own cgroup, it moves into a leaf
    first; where others are there too, nothing more is enabled.
    """
    enabled: list[str] = []
    try:
        offered = (base / "cgroup.controllers").read_text().split()
        wanted = [c for c in CONTROLLERS if c in offered]
        enabled = (base / "cgroup.subtree_control").read_text().split()
        if any(c not in enabled for c in wanted):
            try:
                _write_subtree(base, wanted)
            except OSError as error:
                if error.errno != errno.EBUSY or base != own or not _only_me_in(base):
                    raise
                leaf = base / f"arena-{owner.mark()}.self"
                leaf.mkdir(exist_ok=True)
                (leaf / "cgroup.procs").write_text(str(os.getpid()))
                _write_subtree(base, wanted)
            enabled = (base / "cgroup.subtree_control").read_text().split()
    except OSError as error:
        log.debug("cgroups: cannot enable %s for %s: %s", CONTROLLERS, base, error)
    return tuple(c for c in CONTROLLERS if c in enabled)


def _write_subtree(base: Path, controllers: list[str]) -> None:
    (base / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in controllers))


def _only_me_in(group: Path) -> bool:
    try:
        return (group / "cgroup.procs").read_text().split() == [str(os.getpid())]
    except OSError:
        return False


def _own_folder(cgroups: Cgroups) -> Path:
    """This process's folder of bot groups (made, with the controllers enabled, at first use)."""
    folder = cgroups.base / f"arena-{owner.mark()}"
    if not folder.is_dir():
        folder.mkdir(exist_ok=True)
        # Its bots' groups go as each bot stops; the folder itself when the process
        # ends (a spawned pool worker ends through sys.exit too, so this runs there).
        atexit.register(_remove_folder, folder)
        if cgroups.controllers:
            _write_subtree(folder, list(cgroups.controllers))
    return folder


def _remove_folder(folder: Path) -> None:
    """Remove a process's folder of bot groups, and any group still in it."""
    with contextlib.suppress(FileNotFoundError):  # removed already
        for group in [child for child in folder.iterdir() if child.is_dir()]:
            remove(group)
    remove(folder)

"""The sandbox around every bot: which layers this machine offers, and how to apply them.

Layers are found by trying them (:func:`detect`), never assumed. The
in-process ones (limits, a uid of the bot slot's own, no capabilities,
no-new-privileges, Landlock, seccomp, joining cgroups) are applied by
:mod:`arena.bots.trampoline` between fork and exec, around bubblewrap (or
unshare) when namespaces are available; the referee's side is here: it
computes each bot's Landlock rules and bubblewrap binds, creates and removes
its cgroups, hands out bot uids, raises its CPU budget before each game,
and, as the child subreaper, kills and reaps every leftover descendant when
a bot ends.

Protections a user can ``--require`` (each met by any one of its layers):

- ``net``: no TCP/UDP/raw sockets (seccomp, or Landlock TCP rules);
- ``fs``: writes only in the scratch folder, reads only of system files and
  the bot's own (Landlock);
- ``tree-kill``: every process a bot starts dies with it, even one that left
  the process group (cgroups, or the referee as child subreaper);
- ``memory``: a memory ceiling (the data limit; cgroups measure it exactly);
- ``processes``: a ceiling on processes, against fork bombs (cgroups pids);
- ``signals``: no signals to processes outside the sandbox (Landlock ABI 6, or
  a pid namespace of its own, where no process outside can be named);
- ``privileges``: no capabilities, even when arena runs as root;
- ``uids``: every bot under a uid of its own, never arena's (root only): a bot
  that cannot get one is refused in one line instead of running as arena's
  user without capabilities (``arena serve`` requires it when run as root).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import logging
import marshal
import os
import platform
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from arena.bots.cgroups import CgroupError, Cgroups, v2_mount
from arena.bots.cgroups import find as find_cgroups
from arena.bots.cgroups import kill as kill_cgroup
from arena.bots.cgroups import remove as remove_cgroup
from arena.errors import ArenaError, UsageProblem

log = logging.getLogger(__name__)
TRAMPOLINE = Path(__file__).with_name("trampoline.py")
#: arena's own package folder (readable by bots: they may use the engine).
ARENA_PACKAGE = Path(__file__).resolve().parent.parent
#: Exit status of the trampoline when a layer could not be applied.
LAYER_FAILED = 121
PR_SET_CHILD_SUBREAPER = 36
CAP_SYS_RESOURCE = 24
MIB = 1 << 20

#: Folders every bot may read (and execute from): the system, not the users.
SYSTEM_READ = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/sys",
    "/dev",
)
#: Entries of /etc a bot may not read.
ETC_SECRETS = frozenset(
    {"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh", "security"}
)
#: Devices a bot may write to.
WRITABLE_DEVICES = ("/dev/null",)
#: Programs that reserve large address ranges at start (V8, the JVM): no address-space limit.
_BIG_RESERVERS = ("node", "nodejs", "java", "deno", "bun", "dotnet")

PROTECTIONS = ("net", "fs", "tree-kill", "memory", "processes", "signals", "privileges", "uids")


class SandboxError(ArenaError):
    """A required protection is not available on this machine."""


class NoUidForBot(SandboxError):
    """The ``uids`` protection is required and this bot cannot get a uid of its own (a
    file of its that only its owner may read): the bot's fault, not the machine's."""


@dataclass(frozen=True)
class ResourceLimits:
    """Resource limits of one bot process (``None``: no limit of that kind).

    ``cpu_s`` is a budget per game: the referee raises the limit by that much
    before each game, since a bot process lives across games.
    """

    cpu_s: int | None = 60
    memory_mb: int | None = 1024
    address_space_mb: int | None = 4096
    processes: int | None = 64
    file_size_mb: int | None = 64
    open_files: int | None = 1024

    @classmethod
    def for_command(cls, argv: Sequence[str]) -> ResourceLimits:
        """Defaults that the bot's runtime survives (node and the JVM need no AS limit)."""
        program = Path(argv[0]).name
        if program.startswith(_BIG_RESERVERS):
            return cls(address_space_mb=None, memory_mb=2048)
        return cls()

    def merged(self, overrides: dict[str, Any]) -> ResourceLimits:
        """A copy with some limits changed (from ``bot.toml`` or the command line).

        Raises:
            SandboxError: for an unknown limit or a value that is not a positive int.
        """
        known = set(self.__dataclass_fields__)
        for key, value in overrides.items():
            if key not in known:
                raise SandboxError(
                    f"unknown limit {key!r}; known limits: {', '.join(sorted(known))}"
                )
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise SandboxError(f"limit {key} takes a whole number >= 1, not {value!r}")
        return replace(self, **overrides)


@dataclass(frozen=True)
class SandboxRequest:
    """What ``--require``, ``--no-sandbox`` and ``--limit`` ask of the sandbox, checked together.

    Parsed before anything runs, so a contradiction or an unknown name is
    one line even for a plan that is only printed; the machine's layers are
    looked for only when bots are about to start (:meth:`capabilities`).
    """

    #: Protections that must be available (``--require``).
    wanted: tuple[str, ...] = ()
    #: ``--no-sandbox``: bots run unconfined.
    off: bool = False
    #: ``--limit`` overrides of the resource limits, sorted by key.
    resources: tuple[tuple[str, int], ...] = ()

    @classmethod
    def parse(cls, required: str, off: bool, limits: Sequence[str]) -> SandboxRequest:
        """Read the three options.

        Raises:
            UsageProblem: for ``--no-sandbox`` with ``--require`` or ``--limit``,
                which it would silently overrule.
            SandboxError: for an unknown protection, a ``--limit`` that is not
                KEY=NUMBER, an unknown limit or a value below 1.
        """
        wanted = tuple(name.strip() for name in required.split(",") if name.strip())
        for name in wanted:
            if name not in PROTECTIONS:
                raise SandboxError(f"unknown protection {name!r}; known: {', '.join(PROTECTIONS)}")
        if off and wanted:
            raise UsageProblem.about("{require} and {no_sandbox} contradict each other")
        if off and limits:
            raise UsageProblem.about(
                "{limit} and {no_sandbox} contradict each other: unconfined bots get no limits"
            )
        overrides: dict[str, int] = {}
        for text in limits:
            key, sep, value = text.partition("=")
            if not sep or not value.strip().isdigit():
                raise SandboxError.about(
                    "{limit} {text!r} is not KEY=NUMBER, e.g. {limit} memory_mb=512", text=text
                )
            overrides[key.strip()] = int(value)
        ResourceLimits().merged(overrides)
        return cls(wanted, off, tuple(sorted(overrides.items())))

    def capabilities(self) -> Capabilities | None:
        """The layers to confine bots in (None: ``--no-sandbox``), found on this machine.

        Raises:
            SandboxError: naming the first wanted protection the machine lacks.
        """
        if self.off:
            return None
        found = detect()
        require(found, self.wanted)
        return replace(found, uid_required=True) if "uids" in self.wanted else found


@dataclass(frozen=True)
class Capabilities:
    """What this machine offers, found by :func:`detect`."""

    landlock_abi: int = 0
    seccomp: bool = False
    #: Where bots' cgroups go (v1 or v2), or None where no cgroup may be written.
    cgroups: Cgroups | None = None
    subreaper: bool = False
    root: bool = False
    #: CAP_SYS_RESOURCE: the referee can raise a bot's hard CPU limit per game.
    raise_limits: bool = False
    #: Running as root: bots give up every capability before exec.
    drop_capabilities: bool = False
    #: bubblewrap's path when it works here: network, pid, IPC namespaces and a private /tmp.
    bwrap: str | None = None
    #: util-linux unshare's path, used when bubblewrap is not: network, pid, IPC namespaces.
    unshare: str | None = None
    #: Running as root, bots get a uid of their own, one per bot slot (:class:`UidPool`).
    own_uids: bool = False
    #: A Python every user may run: without bubblewrap the trampoline takes the uid
    #: before the namespaces, so only bots whose files every user may read get one.
    uid_python: str | None = None
    #: Refuse a bot that cannot run under a uid of its own (a server's strangers),
    #: instead of running it as arena's user without capabilities.
    uid_required: bool = False
    notes: tuple[str, ...] = ()
    #: What kind of host this is for the sandbox, in words (``arena sandbox`` prints it).
    host: str = ""

    @property
    def layers(self) -> tuple[str, ...]:
        """Names of the layers in force, for logs, replay headers and results."""
        found = ["process-group", "scratch-folder", "minimal-env", "rlimits", "no-new-privs"]
        if self.drop_capabilities:
            found.append("no-capabilities")
        if self.own_uids:
            found.append("separate-uids")
        if self.bwrap:
            found.append("bubblewrap-namespaces")
        elif self.unshare:
            found.append("unshare-namespaces")
        if self.landlock_abi >= 1:
            found.append(f"landlock-abi{self.landlock_abi}")
        if self.seccomp:
            found.append("seccomp")
        if self.cgroups is not None:
            found.append(self.cgroups.layer)
        if self.subreaper:
            found.append("subreaper")
        return tuple(found)

    @property
    def namespaces(self) -> bool:
        """Whether bots get their own network and pid namespaces."""
        return self.bwrap is not None or self.unshare is not None

    def provides(self, protection: str) -> bool:
        """Whether ``protection`` (one of :data:`PROTECTIONS`) is available."""
        return {
            "net": self.seccomp or self.landlock_abi >= 4 or self.namespaces,
            "fs": self.landlock_abi >= 1,
            "tree-kill": self.cgroups is not None or self.subreaper or self.namespaces,
            "memory": True,
            "processes": self.cgroups is not None and "pids" in self.cgroups.controllers,
            # A pid namespace of its own shows the bot no process outside to signal.
            "signals": self.landlock_abi >= 6 or self.namespaces,
            "privileges": self.drop_capabilities or not self.root,
            "uids": self.own_uids,
        }[protection]


def require(capabilities: Capabilities, wanted: Sequence[str]) -> None:
    """Check that every protection in ``wanted`` is available.

    Raises:
        SandboxError: naming the first missing one, or an unknown name.
    """
    for name in wanted:
        if name not in PROTECTIONS:
            raise SandboxError(f"unknown protection {name!r}; known: {', '.join(PROTECTIONS)}")
        if not capabilities.provides(name):
            raise SandboxError(
                f"the sandbox cannot provide {name!r} on this machine (layers: "
                f"{', '.join(capabilities.layers)}); run 'arena sandbox' for details"
            )


@cache
def detect() -> Capabilities:
    """Find the layers this machine offers by trying each one (cached per process)."""
    notes = []
    abi = _landlock_abi()
    if abi < 1:
        notes.append("Landlock: not offered by this kernel")
    seccomp = _try_trampoline({"seccomp": True})
    if not seccomp:
        notes.append("seccomp: a filter could not be installed")
    cgroups = find_cgroups(notes)
    if cgroups is not None:
        cgroups.sweep()
    if abi >= 1 and not _try_trampoline({"landlock": [["/", "read"]]}):
        notes.append(f"Landlock: ABI {abi} offered, but a ruleset could not be applied")
        abi = 0
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        notes.append("bubblewrap: not installed (Debian package bubblewrap)")
    else:
        with tempfile.TemporaryDirectory(prefix="arena-probe-") as scratch:
            trial = {"wrap": _bwrap_args(bwrap, scratch), "source": _trampoline_source()}
            if not _try_trampoline({**trial, "inner": {"parent": None, "limits": {}}}):
                notes.append("bubblewrap: installed, but it cannot create namespaces here")
                bwrap = None
    unshare = None
    if bwrap is None:
        unshare = shutil.which("unshare")
        trial = {"wrap": _unshare_args(unshare or "unshare"), "source": _trampoline_source()}
        if unshare is None or not _try_trampoline({**trial, "inner": {"parent": None}}):
            notes.append("unshare: cannot create network and pid namespaces here")
            unshare = None
    drop = os.geteuid() == 0 and _try_trampoline({"drop_capabilities": True})
    uid_python = _uid_python() if os.geteuid() == 0 else None
    own_uids = False
    if os.geteuid() == 0:
        # Under bubblewrap, started as root, the trampoline inside takes the bot's uid,
        # so any Python runs it; elsewhere the uid comes first and the Python must be public.
        runner = sys.executable if bwrap else uid_python
        try:
            own_uids = runner is not None and _uid_works(runner, bwrap, unshare)
        except SandboxError as error:  # nowhere to keep leases
            notes.append(f"separate uids: {error}")
        else:
            if not own_uids:
                notes.append("separate uids: a bot could not be started under a uid of its own")
    if os.geteuid() == 0 and not drop:
        notes.append("capabilities: a bot started as root could not give them up")
    raise_limits = _has_capability(CAP_SYS_RESOURCE)
    if not raise_limits:
        notes.append(
            "CPU: without CAP_SYS_RESOURCE the per-game CPU limit is a soft one a bot "
            "could raise (and a lifetime ceiling of 1000 games for bots under their own "
            "uid); the per-move deadlines still bound every answer"
        )
    return Capabilities(
        bwrap=bwrap,
        unshare=unshare,
        own_uids=own_uids,
        uid_python=uid_python,
        drop_capabilities=drop,
        raise_limits=raise_limits,
        landlock_abi=abi,
        seccomp=seccomp,
        cgroups=cgroups,
        subreaper=become_subreaper(),
        root=os.geteuid() == 0,
        notes=tuple(notes),
        host=_host_kind(cgroups),
    )


def _host_kind(cgroups: Cgroups | None) -> str:
    """The kind of host, as the README's sandbox table names them."""
    user = "as root" if os.geteuid() == 0 else "as a normal user"
    if cgroups is None:
        if v2_mount() is None:
            return f"no cgroup hierarchy this process may write, {user}"
        advice = (
            ""
            if os.geteuid() == 0
            else "; no systemd user manager gave one (in a login session on a "
            "systemd machine, arena asks it for a scope with Delegate=yes)"
        )
        return f"cgroup v2, {user}, no subtree this process may write{advice}"
    if cgroups.version == 1:
        return f"cgroup v1, {user}: pids and memory hierarchies at {cgroups.base}"
    how = ", ".join(cgroups.controllers) or "no controller"
    return f"cgroup v2, {user}: a subtree at {cgroups.base} ({how} enabled)"


@dataclass
class Confinement:
    """The sandbox of one bot process: its command line and its cgroups."""

    argv: list[str]
    cgroups: list[Path] = field(default_factory=list)
    #: The bot slot's own uid, or None when the bot runs as arena's user.
    uid: int | None = None

    def stop(self, live: set[int]) -> None:
        """Kill whatever is left of the bot (cgroups, adopted orphans, its uid's processes),
        keeping its uid leased and its cgroups; ``live`` holds the pids of bots still
        running, which are spared."""
        for group in self.cgroups:
            kill_cgroup(group)
        # Nothing leaves its cgroup (its files are not the bot's to write): with cgroups,
        # killing them reached every process of the uid, and the costly search is skipped.
        kill_leftovers(live, uid=None if self.cgroups else self.uid)

    def release(self, live: set[int]) -> None:
        """Kill whatever is left of the bot (:meth:`stop`), remove its cgroups and give
        its uid back."""
        self.stop(live)
        for group in self.cgroups:
            remove_cgroup(group)
        self.cgroups = []
        if self.uid is not None:
            _UIDS.give_back(self.uid)
            self.uid = None


def confine(
    argv: Sequence[str],
    scratch: Path,
    limits: ResourceLimits,
    capabilities: Capabilities,
    *,
    read_paths: Sequence[str] = (),
    name: str = "bot",
    write_paths: Sequence[str] = (),
    workdir: Path | None = None,
    network: bool = False,
) -> Confinement:
    """The command that runs ``argv`` inside every available layer.

    A bot writes only in ``scratch`` and starts there. A build
    (:class:`arena.bots.builds.BuildJail`) also writes its folder
    (``write_paths``), starts in it (``workdir``) and may be let onto the
    network (``network``: no seccomp socket filter, no Landlock TCP rules, the
    host's network namespace); every other layer stays.

    Raises:
        SandboxError: when the bot's cgroups cannot be created.
    """
    try:
        groups = (
            capabilities.cgroups.make(name, limits.processes, limits.memory_mb)
            if capabilities.cgroups is not None
            else []
        )
    except CgroupError as error:
        raise SandboxError(str(error)) from None
    python = sys.executable
    uid = None
    rlimits = _rlimits(limits, capabilities)
    paths = _bot_paths(argv, read_paths)
    uid_python = capabilities.uid_python if capabilities.own_uids else None
    reach: Reach | None = None
    if capabilities.own_uids and capabilities.bwrap:
        # bubblewrap, started as root, binds what the bot needs where its uid can reach it.
        reach = Reach.plan(
            [*_bot_paths([python], ()), *paths, str(ARENA_PACKAGE)],
            [str(scratch), *write_paths],
            executable=argv[0],
        )
        problem = reach.problem
    elif not uid_python:
        problem = "this machine gives bots no uid of their own"
    elif write_paths:
        problem = "without bubblewrap a build runs as arena's user"
    elif not _world_readable([argv[0], *paths], executable=argv[0]):
        problem = "without bubblewrap its files and interpreter must be readable by all"
    else:
        problem = ""
    if not problem:
        # Without bubblewrap the uid comes first: the trampoline runs on the public Python.
        python = uid_python if reach is None and uid_python else python
        uid = _UIDS.take()
        try:
            os.chown(scratch, uid, uid)
        except OSError:
            _UIDS.give_back(uid)
            raise
        rlimits["processes"] = limits.processes  # counted per uid: this bot's own
        if not capabilities.raise_limits and limits.cpu_s:
            # Another uid's limit cannot be raised per game without CAP_SYS_RESOURCE:
            # a lifetime ceiling instead; the per-move deadlines bound every answer.
            rlimits["cpu_s"] = limits.cpu_s * 1000
    elif capabilities.uid_required:
        for group in groups:
            remove_cgroup(group)
        raise NoUidForBot(f"{name} cannot run under a uid of its own: {problem}")
    config: dict[str, Any] = {
        "parent": os.getpid(),
        "limits": rlimits,
        "cgroups": [str(g) for g in groups],
        "uid": uid,
    }
    rules = None
    if capabilities.landlock_abi >= 1:
        rules = landlock_rules(argv, scratch, read_paths)
        rules.extend([path, "write"] for path in write_paths)
    last: dict[str, Any] = {
        "seccomp": capabilities.seccomp and not network,
        "drop_capabilities": capabilities.drop_capabilities,
        "landlock": rules,
        "landlock_net": not network,
    }
    if capabilities.bwrap:
        # bubblewrap drops every capability itself (--cap-drop ALL).
        last["drop_capabilities"] = False
        config["wrap"] = _bwrap_args(
            capabilities.bwrap,
            str(scratch),
            paths,
            python,
            reach=reach if uid is not None else None,
            writable=write_paths,
            workdir=str(workdir or scratch),
            network=network,
        )
        config["source"] = _trampoline_source()
        # bubblewrap runs as root, to bind what the uid could not reach; the trampoline
        # inside becomes the bot's uid (see :func:`_bwrap_args`).
        config["uid"] = None
        config["inner"] = {"parent": None, "limits": {}, "uid": uid, **last}
        if uid is not None:
            config["inner"]["chdir"] = str(workdir or scratch)
    elif capabilities.unshare:
        config["wrap"] = _unshare_args(capabilities.unshare, network=network)
        config["source"] = _trampoline_source()
        # unshare, unlike bubblewrap, needs root for its namespaces: the bot's uid,
        # and the process limit that counts its processes, are taken inside them.
        config["uid"] = None
        inner = {"processes": rlimits.pop("processes")} if uid is not None else {}
        config["inner"] = {"parent": None, "limits": inner, "uid": uid, **last}
    else:
        config.update(last)
    command = [python, "-I", "-S", "-c", _trampoline_source(), trampoline_config(config), *argv]
    return Confinement(argv=command, cgroups=groups, uid=uid)


def landlock_rules(
    argv: Sequence[str], scratch: Path, extra: Sequence[str] = ()
) -> list[list[str]]:
    """Landlock rules for a bot: [path, "read" | "list" | "write" | "device"] pairs.

    Reads: the system folders, /etc without its secrets, the folders of the
    bot's program and files (and the installation of its interpreter), and
    arena's own package; writes: the scratch folder and /dev/null.
    """
    rules = [[path, "read"] for path in SYSTEM_READ]
    with contextlib.suppress(OSError):
        for entry in sorted(os.listdir("/etc")):
            if entry not in ETC_SECRETS:
                rules.append([f"/etc/{entry}", "read"])
    for path in _bot_paths(argv, extra):
        rules.append([path, "read"])
    # Bots may import arena's own engine (the search bots simulate with it):
    # its package is public code, and its parent may be listed to find it.
    rules.append([str(ARENA_PACKAGE), "read"])
    rules.append([str(ARENA_PACKAGE.parent), "list"])
    rules.append([str(scratch), "write"])
    rules.extend([device, "device"] for device in WRITABLE_DEVICES)
    return rules


def _bot_paths(argv: Sequence[str], extra: Sequence[str]) -> list[str]:
    """Folders a bot needs to read: its program's installation, its files' folders."""
    paths: list[str] = []
    program = Path(argv[0])
    if program.is_absolute():
        for candidate in (program, Path(os.path.realpath(program))):
            paths.append(str(candidate.parent.parent))  # e.g. a venv, or /usr
            paths.append(str(candidate.parent))
    for token in [*argv[1:], *extra]:
        if os.path.isabs(token) and os.path.exists(token):
            real = Path(os.path.realpath(token))
            paths.append(str(real if real.is_dir() else real.parent))
    unique = []
    for path in paths:
        if path not in unique and path != "/":
            unique.append(path)
    return unique


def _bwrap_args(
    bwrap: str,
    scratch: str,
    bot_paths: Sequence[str] = (),
    python: str = sys.executable,
    *,
    reach: Reach | None = None,
    writable: Sequence[str] = (),
    workdir: str | None = None,
    network: bool = False,
) -> list[str]:
    """bubblewrap's command line: the host read-only, private /tmp, no network, own pids.

    The bot's own folders are bound back read-only, for bots that live in /tmp.
    With ``reach`` (a bot under a uid of its own) bubblewrap runs as root and
    binds them where that uid can reach them (:class:`Reach`), keeping only the
    powers the trampoline inside needs to become that uid (setuid, setgid, and
    setpcap to empty its bounding set); the bot itself holds none. A build's
    folder is bound back writable (``writable``) and it starts there
    (``workdir``); with ``network`` it keeps the host's network.
    """
    # The trampoline's own interpreter runs inside too: it may live in /tmp as
    # well, and so may arena's package, which bots may import.
    if reach is not None:
        rebound = reach.arguments()
        powers = ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
    else:
        paths = [*_bot_paths([python], ()), *bot_paths, str(ARENA_PACKAGE)]
        rebound = [arg for path in dict.fromkeys(paths) for arg in ("--ro-bind-try", path, path)]
        powers = []
    return [
        bwrap,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        *rebound,
        "--bind", scratch, scratch,
        *(arg for path in writable for arg in ("--bind", path, path)),
        # Under a uid of its own the trampoline inside enters the folder (its "chdir").
        "--chdir", "/" if reach is not None else workdir or scratch,
        *(() if network else ("--unshare-net",)),
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--cap-drop", "ALL",
        *powers,
        "--",
    ]  # fmt: skip


def as_another_uid(
    argv: Sequence[str], writes: Sequence[str], reads: Sequence[str] = (), *, tmp_mb: int = 0
) -> list[str]:
    """bubblewrap's command line for a Python program started as root that becomes another
    uid (the competition server's web app, :mod:`arena.server.webuser`), so that it still
    reaches its interpreter, arena and its libraries, and ``writes``, where their
    folders are closed to other users (:class:`Reach`), and ``reads`` (a config file): the
    host read-only, its own
    /tmp (of ``tmp_mb`` at most), the host's network (its listening socket is handed down),
    and of root's powers only those that change uid.

    Raises:
        SandboxError: no bubblewrap, or a file the program needs that only its owner
            may read.
    """
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxError(
            "bubblewrap (bwrap) is not installed: it is needed to run as another uid"
        )
    needed = [*_bot_paths([sys.executable], ()), str(ARENA_PACKAGE), *reads]
    # Its libraries (not the folder it was started from: -m puts that first; inside, it
    # starts at /).
    here = os.getcwd()
    needed += [path for path in sys.path if path and path != here and os.path.isdir(path)]
    reach = Reach.plan(needed, writes, executable=sys.executable)
    if reach.problem:
        raise SandboxError(f"cannot run as another uid: {reach.problem}")
    powers = ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
    return [
        bwrap,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--perms", "1777", *(("--size", str(tmp_mb << 20)) if tmp_mb else ()), "--tmpfs", "/tmp",
        *reach.arguments(),
        *(arg for path in writes for arg in ("--bind", path, path)),
        "--chdir", "/",
        # Its own pid namespace: when bubblewrap dies, the kernel kills every process in it
        # (a parent-death signal from root to another uid is not allowed without CAP_KILL).
        "--unshare-pid",
        "--die-with-parent",
        "--cap-drop", "ALL",
        *powers,
        "--",
        *argv,
    ]  # fmt: skip


#: Folders a bot's own uid may enter and list.
_OPEN_DIR = stat.S_IROTH | stat.S_IXOTH
#: Most entries of a folder the bot's uid may not list that are bound one by one.
_MOST_ENTRIES = 256


@dataclass(frozen=True)
class Reach:
    """How bubblewrap, started as root, shows a bot under its own uid what it needs.

    A bot's program and files often sit where only their owner may enter: a
    Python under /root/.pyenv, a folder made by ``mktemp -d``, a server's
    folder kept owner-only. Inside the sandbox, a folder the uid may not enter
    on the way to them is replaced by an empty tmpfs (which also hides
    everything else in it) with the path rebuilt in it, folder by folder, open
    to all; a folder the bot needs but may not list has each of its entries
    bound into such a tmpfs. Nothing outside the sandbox changes mode. A file
    that is its owner's alone stays unreadable: that is :attr:`problem`.
    """

    #: (path, "tmpfs" | "dir" | "ro" | "link"), in the order bubblewrap applies them.
    steps: tuple[tuple[str, str], ...]
    #: Why the bot's uid still could not read what it needs ("" when it can).
    problem: str
    #: What each "link" step's symbolic link names (made again, never followed).
    links: tuple[tuple[str, str], ...] = ()

    @classmethod
    def plan(cls, reads: Sequence[str], writes: Sequence[str], *, executable: str) -> Reach:
        """Bind ``reads`` read-only and reach the folders ``writes`` (bound by the caller)."""
        wanted: dict[str, str] = {}
        for path in reads:
            if os.path.exists(path) and path != "/":
                wanted.setdefault(os.path.normpath(path), "ro")
        for path in writes:
            wanted[os.path.normpath(path)] = "rw"
        problem = ""
        program = Path(os.path.realpath(executable))
        if program.exists() and not _mode(program) & stat.S_IXOTH:
            problem = f"{program} may be run by its owner only"
        steps: dict[str, str] = {}
        links: dict[str, str] = {}
        # The topmost closed folder on each path: none lies inside another.
        closed = _closed_ancestors(wanted)
        for folder in closed:
            steps[folder] = "tmpfs"
        # Folders made inside a fresh tmpfs (those, and the sandbox's /tmp) are open to all.
        fresh = [*closed, "/tmp"]
        for path, kind in sorted(wanted.items(), key=lambda item: _depth(item[0])):
            for ancestor in reversed(Path(path).parents):
                if _under(str(ancestor), fresh):
                    steps.setdefault(str(ancestor), "dir")
            if kind == "rw":
                continue  # bound writable by the caller, after every read-only bind
            mode = _mode(Path(path))
            if stat.S_ISDIR(mode) and mode & _OPEN_DIR != _OPEN_DIR:
                entries = sorted(os.listdir(path))
                if len(entries) > _MOST_ENTRIES:
                    problem = problem or f"{path} may be listed by its owner only"
                steps[path] = "tmpfs"
                for entry in entries[:_MOST_ENTRIES]:
                    inside = os.path.join(path, entry)
                    if os.path.islink(inside):
                        # Bound, a link would show what it names (bubblewrap, as root,
                        # follows it): made again as a link, it names what the bot may reach.
                        steps[inside] = "link"
                        links[inside] = os.readlink(inside)
                        continue
                    problem = problem or _unreadable(inside)
                    steps[inside] = "ro"
            elif path not in steps or steps[path] == "dir":
                problem = problem or _unreadable(path)
                steps[path] = "ro"
        ordered = sorted(steps.items(), key=lambda item: (_depth(item[0]), _ORDER[item[1]]))
        return cls(tuple(ordered), problem, tuple(sorted(links.items())))

    def arguments(self) -> list[str]:
        """bubblewrap's arguments for the read-only side (before the writable binds)."""
        args: list[str] = []
        links = dict(self.links)
        for path, kind in self.steps:
            if kind == "tmpfs":
                args += ["--perms", "0755", "--tmpfs", path]
            elif kind == "dir":
                args += ["--perms", "0755", "--dir", path]
            elif kind == "link":
                args += ["--symlink", links[path], path]
            else:
                args += ["--ro-bind", path, path]
        return args


_ORDER = {"tmpfs": 0, "dir": 1, "ro": 2, "link": 2}


def _depth(path: str) -> int:
    return len(Path(path).parts)


def _under(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` lies strictly inside one of ``folders``."""
    return any(Path(path).is_relative_to(folder) and path != folder for folder in folders)


def _closed_ancestors(paths: dict[str, str]) -> list[str]:
    """The folders on the way to ``paths`` that other users may not enter (tmpfs aside)."""
    closed = set()
    for path in paths:
        for ancestor in reversed(Path(path).parents):
            if str(ancestor) in ("/", "/tmp"):
                continue  # the root is open; the sandbox's /tmp is a fresh tmpfs already
            if not _mode(ancestor) & stat.S_IXOTH:
                closed.add(str(ancestor))
                break
    return sorted(closed, key=_depth)


def _unreadable(path: str) -> str:
    """Why other users may not read ``path`` ("" when they may)."""
    mode = _mode(Path(path))
    need = _OPEN_DIR if stat.S_ISDIR(mode) else stat.S_IROTH
    if mode & need == need:
        return ""
    return f"{path} may be read by its owner only"


def _unshare_args(unshare: str, *, network: bool = False) -> list[str]:
    """util-linux unshare's command line: no network (unless ``network``), own pids (the
    tree dies with it).

    The bot runs as pid 1 of its namespace, so it ignores SIGTERM: stopping
    it relies on SIGKILL, which the referee sends after the grace period.
    """
    return [
        unshare, *(() if network else ("--net",)), "--ipc", "--uts", "--pid", "--fork",
        "--kill-child", "--mount-proc", "--",
    ]  # fmt: skip


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (0 if it is gone)."""
    try:
        return _stat_cpu_seconds(Path(f"/proc/{pid}/stat").read_bytes())
    except OSError:
        return 0.0


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_cpu_seconds(stat: bytes) -> float:
    """User + system CPU seconds from the text of a /proc/PID/stat file (0 if garbled)."""
    fields = stat.rsplit(b")", 1)[-1].split()
    if len(fields) < 13:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS


class CpuGrant:
    """The per-game CPU budget of a bot's processes (the bot, and its wrappers).

    Bots live across games, so before each game every process gets what it
    has used plus one game's budget. That reads each process's CPU time once
    a game: opening a /proc file costs tens of microseconds on this machine
    class, re-reading one already open a few, so each file is opened once.
    """

    def __init__(self, pids: Sequence[int]) -> None:
        self.pids = list(pids)
        self.fds: dict[int, int] = {}
        for pid in self.pids:
            with contextlib.suppress(OSError):  # gone already: it uses no CPU any more
                self.fds[pid] = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)

    def seconds(self, pid: int) -> float:
        """CPU seconds ``pid`` has used so far (0 once it is gone)."""
        fd = self.fds.get(pid)
        if fd is None:
            return 0.0
        try:
            return _stat_cpu_seconds(os.pread(fd, 1024, 0))
        except OSError:  # the process has exited (ESRCH)
            return 0.0

    def grant(self, budget_s: int, *, strict: bool) -> bool:
        """Raise each process's CPU limit to what it has used plus ``budget_s``.

        ``strict``: the hard limit follows (needs CAP_SYS_RESOURCE); otherwise
        only the soft limit moves, under the unlimited hard one. False if a
        limit could not be set.
        """
        granted = True
        for process in self.pids:
            soft = int(self.seconds(process)) + budget_s + 1
            hard = soft + 5 if strict else resource.RLIM_INFINITY
            try:
                resource.prlimit(process, resource.RLIMIT_CPU, (soft, hard))
            except (OSError, ValueError):
                granted = False
        return granted

    def close(self) -> None:
        """Close the files."""
        for fd in self.fds.values():
            os.close(fd)
        self.fds = {}


def kill_leftovers(live: set[int], *, uid: int | None = None) -> list[int]:
    """Kill and reap adopted orphans: children of this process that left its session.

    The referee is the child subreaper, so a bot's escaped grandchildren
    (setsid, double fork) end up as its children once their parent exits.
    Bots run in sessions of their own, and so does everything they start;
    children this process started in its own session (a multiprocessing
    helper, a pool worker) are never touched, nor are live bots. With
    ``uid`` (a bot slot's own), every process running as that uid is killed
    too, wherever it is (a pass over every process in /proc: the costly part).
    """
    me = os.getpid()
    mine = os.getsid(0)
    killed = []
    for pid, session in _children_of(me):
        if pid not in live and session != mine:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    if uid is not None:
        for pid, owner in _owners():
            if owner == uid and pid != me:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
    for pid in killed:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    return killed


# ---------------------------------------------------------------------- internals


def trampoline_config(config: dict[str, Any]) -> str:
    """The trampoline's settings as one argument: marshal (format 4, which every Python 3
    since 3.4 reads), in hex. Unlike json, marshal costs the trampoline no import."""
    return marshal.dumps(config, 4).hex()


@cache
def _trampoline_source() -> str:
    return TRAMPOLINE.read_text(encoding="utf-8")


def _rlimits(limits: ResourceLimits, capabilities: Capabilities) -> dict[str, int | bool | None]:
    """The trampoline's limits for a bot running as arena's own user (see :func:`confine`)."""
    mb = MIB
    return {
        "cpu_s": limits.cpu_s,
        "cpu_strict": capabilities.raise_limits,
        "data_bytes": limits.memory_mb * mb if limits.memory_mb else None,
        "address_space_bytes": limits.address_space_mb * mb if limits.address_space_mb else None,
        # RLIMIT_NPROC counts every process of the uid, the user's own included,
        # and nothing for root: set only for a bot with a uid of its own.
        "processes": None,
        "file_size_bytes": limits.file_size_mb * mb if limits.file_size_mb else None,
        "open_files": limits.open_files,
    }


def _uid_works(python: str, bwrap: str | None, unshare: str | None) -> bool:
    """Whether a bot starts under a uid of its own, in the namespaces it will get.

    Under bubblewrap the uid is taken first, so bubblewrap must be able to
    make its namespaces as that uid (unprivileged user namespaces); unshare
    needs root for them, so there the uid is taken inside (see :func:`confine`).
    """
    uid = _UIDS.take()
    try:
        trial: dict[str, Any] = {"uid": uid}
        inner: dict[str, Any] = {"parent": None, "limits": {}}
        if bwrap is not None:
            with tempfile.TemporaryDirectory(prefix="arena-probe-") as scratch:
                os.chown(scratch, uid, uid)
                reads = [*_bot_paths([python], ()), str(ARENA_PACKAGE)]
                reach = Reach.plan(reads, [scratch], executable=python)
                wrap = _bwrap_args(bwrap, scratch, python=python, reach=reach)
                inner.update(uid=trial.pop("uid"), chdir=scratch)
                trial.update(wrap=wrap, source=_trampoline_source(), inner=inner)
                return _try_trampoline(trial, python=python)
        if unshare is not None:
            inner["uid"] = trial.pop("uid")
            trial.update(wrap=_unshare_args(unshare), source=_trampoline_source(), inner=inner)
        return _try_trampoline(trial, python=python)
    finally:
        _UIDS.give_back(uid)


def _landlock_abi() -> int:
    if platform.system() != "Linux":
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(444, None, ctypes.c_size_t(0), 1)
    return max(0, int(abi))


def _try_trampoline(config: dict[str, Any], *, python: str = sys.executable) -> bool:
    """Whether a trivial program starts through the trampoline with ``config``."""
    full = {"parent": os.getpid(), "limits": {}, "cgroups": [], **config}
    try:
        done = subprocess.run(
            [python, "-I", "-S", "-c", _trampoline_source(), trampoline_config(full), "/bin/true"],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def become_subreaper() -> bool:
    """Make this process the child subreaper: orphans of the bots it starts become its own.

    Every process that starts bots must be one (a pool worker too, not only
    the process that ran :func:`detect`), or an escaped grandchild of a bot
    is adopted by an ancestor that never kills nor reaps it.
    """
    if platform.system() != "Linux":
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    done: int = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    return done == 0


class UidPool:
    """uids for bot slots: one allocator for every arena process on the machine.

    A server runs for weeks, its children (the ladder, the builder, a
    version's test) start bots side by side, and a tournament may run beside
    it: a uid must never be given to two live bots, nor to an account. Each
    uid handed out is a lease: an exclusive lock on a file of its own in
    :attr:`folder`, held while its bot runs. The kernel frees a lock when its
    holder dies (SIGKILL included), so a crash leaks nothing and needs no
    clean-up; a process starts its search at a place of its own, so
    processes rarely try the same uid.
    """

    #: Above the uids systemd gives containers (up to 0x6FFF0000) and Debian's first
    #: subordinate ranges (100000-), below 2**31 (software that reads a uid as signed).
    FIRST = 2_000_000_000
    COUNT = 65_536
    #: Where the leases live: root's, in /run (never /tmp, where another user could
    #: make the folder first, or a cleaner remove a lease held for weeks).
    FOLDER = Path("/run/arena-uids")

    def __init__(self, first: int = FIRST) -> None:
        #: The range's first uid (another range: the server's web app, arena.server.webuser).
        self.first = first
        self.held: dict[int, int] = {}  # uid -> the lock file's descriptor
        #: Threads that start bots at once (a field's probes) must not share a uid.
        self.lock = threading.Lock()

    def _folder(self) -> Path:
        """The leases' folder, made if need be, checked to be this user's own.

        Raises:
            SandboxError: when it cannot be made, or is not a folder only we may write.
        """
        try:
            self.FOLDER.mkdir(mode=0o700, exist_ok=True)
            seen = os.lstat(self.FOLDER)
        except OSError as error:
            raise SandboxError(f"cannot keep bot uid leases in {self.FOLDER}: {error}") from None
        if not stat.S_ISDIR(seen.st_mode) or seen.st_uid != os.geteuid() or seen.st_mode & 0o077:
            raise SandboxError(
                f"{self.FOLDER} is not a folder of this user's alone: bot uids are not leased"
            )
        return self.FOLDER

    def take(self) -> int:
        """A uid no live bot, no account and no subordinate range (/etc/subuid) has.

        Raises:
            SandboxError: when every uid of the range is leased, or there is nowhere to
                keep leases.
        """
        reserved = _subordinate_ranges()
        start = os.getpid() * 64 % self.COUNT
        with self.lock:
            for step in range(self.COUNT):
                uid = self.first + (start + step) % self.COUNT
                if uid in self.held or _has_account(uid):
                    continue
                if any(first <= uid < first + count for first, count in reserved):
                    continue
                if self._lock(uid):
                    return uid
        raise SandboxError(f"all {self.COUNT} bot uids of this machine are in use")

    def take_this(self, uid: int) -> bool:
        """Lease ``uid`` itself (one of the range's, no account's), if no one holds it;
        whether it is leased now."""
        if not self.first <= uid < self.first + self.COUNT or _has_account(uid):
            return False
        with self.lock:
            return uid in self.held or self._lock(uid)

    def _lock(self, uid: int) -> bool:
        """Take the lease of ``uid`` (the caller holds :attr:`lock`); whether it got it."""
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        fd = os.open(self._folder() / str(uid), flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False  # another process's bot has it
        self.held[uid] = fd
        return True

    def give_back(self, uid: int) -> None:
        """Free a uid once nothing of its bot runs any more."""
        with self.lock:
            fd = self.held.pop(uid, None)
        if fd is not None:
            os.close(fd)  # closing the file drops the lock

    def forget(self) -> None:
        """In a forked child: let go of the parent's leases (they stay the parent's)."""
        self.lock = threading.Lock()
        for fd in self.held.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self.held = {}


_UIDS = UidPool()
os.register_at_fork(after_in_child=_UIDS.forget)


@cache
def _subordinate_ranges() -> tuple[tuple[int, int], ...]:
    """(first, count) of every subordinate uid and gid range given to users (rootless
    containers run as those uids: a bot's uid must not be one, nor be killed as one)."""
    ranges = []
    for table in ("/etc/subuid", "/etc/subgid"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines():
                fields = line.split(":")
                if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
                    ranges.append((int(fields[1]), int(fields[2])))
    return tuple(ranges)


def _has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def _uid_python() -> str | None:
    """A Python interpreter that every user may run (for bots under their own uid)."""
    for candidate in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(candidate) and _world_readable([candidate], executable=candidate):
            return candidate
    return None


def _world_readable(paths: Sequence[str], *, executable: str) -> bool:
    """Whether any user may reach (and read) each path; ``executable`` must also be runnable."""
    for path in paths:
        real = Path(os.path.realpath(path))
        for folder in [*reversed(real.parents)]:
            if not _mode(folder) & stat.S_IXOTH:
                return False
        mode = _mode(real)
        need = stat.S_IXOTH if real.is_dir() else stat.S_IROTH
        if path == executable:
            need |= stat.S_IXOTH
        if mode & need != need:
            return False
    return True


def _mode(path: Path) -> int:
    try:
        return path.stat().st_mode
    except OSError:
        return 0


def _proc_files(name: str) -> Iterator[tuple[int, str]]:
    """(pid, text of /proc/PID/NAME) for every process that is still there to read."""
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                yield int(entry.name), Path(entry.path, name).read_text()
            except OSError:
                continue  # the process ended while we looked


def _has_capability(bit: int) -> bool:
    """Whether this process holds capability ``bit`` in its effective set."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> bit & 1)
    except (OSError, ValueError):
        pass  # no /proc: report the capability as missing
    return False


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (through bubblewrap, the bot is a grandchild)."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        children = [child for parent in frontier for child, _ in _children_of(parent)]
        found.extend(children)
        frontier = children
    return found


def _owners() -> Iterator[tuple[int, int]]:
    """(pid, real uid) of every process still there to read."""
    for pid, status in _proc_files("status"):
        for line in status.splitlines():
            if line.startswith("Uid:"):
                yield pid, int(line[4:].split()[0])
                break


def _children_of(parent: int) -> list[tuple[int, int]]:
    """(pid, session id) of each child of ``parent``.

    Read from the kernel's list of each of its threads' children (a few
    files, where a search of /proc reads one per process on the machine);
    the search is the fallback on kernels without that list.
    """
    if not _children_files():
        return _children_by_search(parent)
    pids: set[int] = set()
    with contextlib.suppress(FileNotFoundError):  # the parent is gone
        for task in os.listdir(f"/proc/{parent}/task"):
            with contextlib.suppress(FileNotFoundError):  # a thread that just ended
                text = Path(f"/proc/{parent}/task/{task}/children").read_text()
                pids.update(int(pid) for pid in text.split())
    children = []
    for pid in sorted(pids):
        with contextlib.suppress(OSError):  # gone meanwhile
            children.append((pid, os.getsid(pid)))
    return children


@cache
def _children_files() -> bool:
    """Whether this kernel lists each thread's children in /proc (CONFIG_PROC_CHILDREN)."""
    return Path(f"/proc/self/task/{threading.get_native_id()}/children").exists()


def _children_by_search(parent: int) -> list[tuple[int, int]]:
    """(pid, session id) of each child of ``parent``, by reading every process's stat."""
    children = []
    for pid, line in _proc_files("stat"):
        fields = line.rsplit(")", 1)[1].split()
        if int(fields[1]) == parent:
            children.append((pid, int(fields[3])))
    return children

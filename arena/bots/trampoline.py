"""The exec trampoline: confines the process, then becomes the bot.

Run as ``python -I -S -c <this file's source> CONFIG BOT_ARGV...`` by
:mod:`arena.bots.sandbox`, so it needs no file of arena's to be readable and
imports nothing but the standard library. In order, it:

1. joins the bot's cgroups (pids, memory) when given, so every process the
   bot ever starts is counted and can be killed together;
2. sets the umask and the resource limits (CPU seconds, data and address
   space, processes, file size, open files, no core dumps), and becomes the
   bot slot's own uid when given one (root only);
3. asks for SIGKILL when the referee dies; when run as root, gives up every
   capability for good (bounding set emptied, securebits locked so that
   exec grants none back), then sets no-new-privileges;
4. applies Landlock (reads only where allowed, writes only in the scratch
   folder, no TCP, no signals or abstract sockets outside the sandbox) at
   whatever ABI the kernel has;
5. installs a seccomp filter (no sockets but Unix ones, no io_uring);
6. execs the bot.

A layer that is asked for and fails stops here with exit status
:data:`FAILED` and one line on stderr naming the layer: the bot is never
started without the protection it was promised (fail closed).
"""

from __future__ import annotations

import ctypes
import marshal
import os
import resource
import struct
import sys

# Every import here is paid at every bot start, twice under bubblewrap: json and
# platform (and the re module they load) cost ~30 ms of the ~45 ms they made it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

FAILED = 121

PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAPABILITY_VERSION_3 = 0x20080522
# SECBIT_NOROOT, _NO_SETUID_FIXUP, _KEEP_CAPS and the lock of each.
SECUREBITS_LOCKED_DOWN = 0b101111
SECCOMP_MODE_FILTER = 2

LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
SYS_LANDLOCK = {"create": 444, "add": 445, "restrict": 446}

# Landlock filesystem rights, by the ABI that introduced them.
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_ABI1 = (1 << 13) - 1
FS_REFER = 1 << 13
FS_TRUNCATE = 1 << 14
FS_IOCTL_DEV = 1 << 15
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
READ = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR

# seccomp: (audit arch, socket syscall number) per machine; io_uring is 425-427 on both.
SECCOMP_ARCH = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}
IO_URING = (425, 426, 427)
AF_UNIX = 1
RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | 1

LIMITS = {
    "cpu_s": resource.RLIMIT_CPU,
    "data_bytes": resource.RLIMIT_DATA,
    "address_space_bytes": resource.RLIMIT_AS,
    "processes": resource.RLIMIT_NPROC,  # per uid: set only for a bot with its own uid
    "file_size_bytes": resource.RLIMIT_FSIZE,
    "open_files": resource.RLIMIT_NOFILE,
}


def fail(layer: str, detail: str) -> NoReturn:
    sys.stderr.write(f"arena sandbox: {layer} could not be applied: {detail}\n")
    sys.stderr.flush()
    os._exit(FAILED)


def libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def prctl(lib: ctypes.CDLL, option: int, arg: int) -> None:
    if lib.prctl(option, ctypes.c_ulong(arg), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def drop_capabilities(lib: ctypes.CDLL) -> None:
    """Root without any capability: uid 0 keeps file ownership, loses its powers."""
    try:
        prctl(lib, PR_SET_SECUREBITS, SECUREBITS_LOCKED_DOWN)
        empty_bounding_set(lib)
        if lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "cannot clear the ambient capabilities")
    except (OSError, ValueError) as error:
        fail("capabilities", str(error))


def empty_bounding_set(lib: ctypes.CDLL) -> None:
    """Drop every capability from the bounding set (needs CAP_SETPCAP): exec grants none."""
    with open("/proc/sys/kernel/cap_last_cap") as last:
        last_cap = int(last.read())
    for cap in range(last_cap + 1):
        prctl(lib, PR_CAPBSET_DROP, cap)


def become(lib: ctypes.CDLL, uid: int) -> None:
    """Become the bot slot's own uid (and gid), with no capability left in any set.

    setuid from root clears the permitted, effective and ambient sets; the
    bounding set (emptied first, while CAP_SETPCAP is held: under bubblewrap
    started as root that is the one power besides setuid and setgid the
    trampoline keeps) and the inheritable set (emptied after) are not.
    """
    try:
        empty_bounding_set(lib)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        header = struct.pack("=Ii", CAPABILITY_VERSION_3, 0)
        if lib.capset(header, bytes(24)) != 0:  # two empty (effective, permitted, inheritable)
            raise OSError(ctypes.get_errno(), "cannot clear the inheritable capabilities")
    except (OSError, ValueError) as error:
        fail("separate uid", f"{uid}: {error}")


def join_cgroups(paths: list[str]) -> None:
    for path in paths:
        try:
            with open(os.path.join(path, "cgroup.procs"), "w") as procs:
                procs.write(str(os.getpid()))
        except OSError as error:
            fail("cgroups", f"{path}: {error}")


def set_limits(limits: dict[str, Any]) -> None:
    for name, value in limits.items():
        if value is None or name == "cpu_strict":
            continue
        kind = LIMITS[name]
        hard = value
        if name == "cpu_s":
            # With a hard limit just above it the referee (holding CAP_SYS_RESOURCE)
            # raises it per game; without that capability it must stay raisable.
            hard = value + 5 if limits.get("cpu_strict") else resource.RLIM_INFINITY
        try:
            resource.setrlimit(kind, (value, hard))
        except (OSError, ValueError) as error:
            fail("limits", f"{name}={value}: {error}")
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (OSError, ValueError) as error:
        fail("limits", f"core dumps: {error}")


def landlock_abi(lib: ctypes.CDLL) -> int:
    syscall = lib.syscall
    syscall.restype = ctypes.c_long
    abi: int = syscall(
        SYS_LANDLOCK["create"], None, ctypes.c_size_t(0), LANDLOCK_CREATE_RULESET_VERSION
    )
    return abi


def apply_landlock(lib: ctypes.CDLL, rules: list[list[str]], net: bool = True) -> None:
    abi = landlock_abi(lib)
    if abi < 1:
        fail("landlock", "the kernel does not offer Landlock")
    handled_fs = FS_ABI1
    if abi >= 2:
        handled_fs |= FS_REFER
    if abi >= 3:
        handled_fs |= FS_TRUNCATE
    if abi >= 5:
        handled_fs |= FS_IOCTL_DEV
    handled_net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 and net else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    if abi >= 6:
        attr = struct.pack("=QQQ", handled_fs, handled_net, scoped)
    elif abi >= 4:
        attr = struct.pack("=QQ", handled_fs, handled_net)
    else:
        attr = struct.pack("=Q", handled_fs)
    syscall = lib.syscall
    syscall.restype = ctypes.c_long
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = syscall(SYS_LANDLOCK["create"], buffer, ctypes.c_size_t(len(attr)), 0)
    if ruleset < 0:
        fail("landlock", os.strerror(ctypes.get_errno()))
    file_rights = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | (FS_TRUNCATE if abi >= 3 else 0)
    everything = handled_fs
    for path, kind in rules:
        rights = {
            "read": READ,
            "list": FS_READ_DIR,
            "write": everything,
            "device": FS_READ_FILE | FS_WRITE_FILE,
        }[kind]
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue  # a path that does not exist here needs no rule
        if not os.path.isdir(path):
            rights &= file_rights
        rights &= handled_fs
        rule = struct.pack("=Qi", rights, fd)
        rule_buffer = ctypes.create_string_buffer(rule, len(rule))
        added = syscall(SYS_LANDLOCK["add"], ruleset, LANDLOCK_RULE_PATH_BENEATH, rule_buffer, 0)
        os.close(fd)
        if added != 0:
            fail("landlock", f"rule for {path}: {os.strerror(ctypes.get_errno())}")
    if syscall(SYS_LANDLOCK["restrict"], ruleset, 0) != 0:
        fail("landlock", os.strerror(ctypes.get_errno()))
    os.close(ruleset)


def seccomp_program() -> tuple[bytes, int]:
    machine = os.uname().machine
    arch = SECCOMP_ARCH.get(machine)
    if arch is None:
        fail("seccomp", f"no filter for the {machine} architecture")
    audit_arch, socket_nr = arch
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    code = [
        (ld, 0, 0, 4),  # 0: the architecture
        (jeq, 1, 0, audit_arch),  # 1: ours -> 3
        (ret, 0, 0, RET_KILL_PROCESS),  # 2: another ABI: refuse
        (ld, 0, 0, 0),  # 3: the syscall number
        (jge, 8, 0, 0x40000000),  # 4: x32 numbers -> 13
        (jeq, 4, 0, socket_nr),  # 5: socket -> 10
        (jeq, 6, 0, IO_URING[0]),  # 6: io_uring_setup -> 13
        (jeq, 5, 0, IO_URING[1]),  # 7: io_uring_enter -> 13
        (jeq, 4, 0, IO_URING[2]),  # 8: io_uring_register -> 13
        (ret, 0, 0, RET_ALLOW),  # 9: anything else
        (ld, 0, 0, 16),  # 10: socket's first argument, the family
        (jeq, 0, 1, AF_UNIX),  # 11: Unix -> 12, else -> 13
        (ret, 0, 0, RET_ALLOW),  # 12
        (ret, 0, 0, RET_EPERM),  # 13
    ]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in code), len(code)


def apply_seccomp(lib: ctypes.CDLL) -> None:
    program, length = seccomp_program()
    filters = ctypes.create_string_buffer(program, len(program))

    class SockFprog(ctypes.Structure):
        _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

    fprog = SockFprog(length, ctypes.cast(filters, ctypes.c_void_p))
    if lib.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        fail("seccomp", os.strerror(ctypes.get_errno()))


def execute(argv: list[str]) -> NoReturn:
    try:
        os.execv(argv[0], argv)
    except OSError as error:
        sys.stderr.write(f"arena sandbox: cannot execute {argv[0]}: {error}\n")
        os._exit(127)


def main() -> None:
    config = marshal.loads(bytes.fromhex(sys.argv[1]))
    argv = sys.argv[2:]
    join_cgroups(config.get("cgroups", []))
    os.umask(0o077)
    set_limits(config.get("limits", {}))
    uid = config.get("uid")
    lib = libc()
    if uid is not None:
        become(lib, uid)
    if config.get("chdir"):
        # After the uid: bubblewrap, as root without capabilities, may not enter a
        # folder that only the bot's uid owns.
        try:
            os.chdir(config["chdir"])
        except OSError as error:
            fail("working folder", str(error))
    try:
        prctl(lib, PR_SET_PDEATHSIG, 9)  # after setuid, which would clear it
        if config.get("parent") is not None and os.getppid() != config["parent"]:
            os._exit(FAILED)  # the referee is already gone
    except OSError as error:
        fail("parent-death signal", str(error))
    if config.get("wrap"):
        # Namespaces first (bubblewrap), then this same trampoline inside them
        # for the layers that must be applied last.
        inner, source = marshal.dumps(config["inner"], 4).hex(), config["source"]
        execute([*config["wrap"], sys.executable, "-I", "-S", "-c", source, inner, *argv])
    try:
        # setuid to the bot's own uid has already cleared every capability (and left
        # none to change the bounding set with); no-new-privileges keeps exec from
        # granting any back.
        if config.get("drop_capabilities") and uid is None:
            drop_capabilities(lib)
        prctl(lib, PR_SET_NO_NEW_PRIVS, 1)
    except OSError as error:
        fail("no-new-privileges", str(error))
    if config.get("landlock") is not None:
        apply_landlock(lib, config["landlock"], config.get("landlock_net", True))
    if config.get("seccomp"):
        apply_seccomp(lib)
    execute(argv)


if __name__ == "__main__":  # run with -c (its source), never on import (the web app's drop)
    main()

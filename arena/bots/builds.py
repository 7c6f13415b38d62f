"""A bot folder's build, run once per content.

A bot folder's ``build`` (its ``bot.toml``) used to run before every
``tournament``, ``match``, ``play`` and ``check-bot``: 41 s of a fresh CMake
configure before a 5 s tournament, ``npm ci`` again for each check. Now it
runs only when it could make something new:

- never built here, or the last build failed or was stopped;
- an input changed: a file of the folder, but for the build's outputs and the
  build caches (:data:`~arena.bots.spec.BUILD_CACHES`); the outputs are the
  files a build wrote (new or changed), so a build that writes its program
  next to its sources does not rebuild itself forever;
- an output it recorded is missing or changed (a ``make clean``, a removed
  ``target/``);
- the toolchain changed: the path and ``--version`` of each program the
  build command runs (``cargo``; ``cmake`` inside ``sh -c '...'``);
- the build command changed, or ``rebuild`` says so (``--rebuild``).

The record of the last build lives outside the folder, in the user's cache
folder (``ARENA_CACHE_DIR``, else platformdirs' user cache folder for
``arena``), keyed by the folder's real path: a read-only bot folder works,
and a folder copied elsewhere builds anew. A file lock on the record makes
two arenas that build the same folder at once take turns; the second finds
it built. The build's whole output is kept in a log beside the record.

Inputs are compared by content (blake2b), but a file whose size and mtime
are those recorded is not read again, so an up-to-date check costs a walk
of the folder and a stat per file.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import platformdirs

from arena.bots import owner
from arena.bots.sandbox import Capabilities, Confinement, ResourceLimits, SandboxError, confine
from arena.bots.spec import BUILD_CACHES, BotSpec
from arena.errors import BotError
from arena.signals import held_stops

#: Seconds a bot's build may take (a first build downloads its packages).
BUILD_TIMEOUT_S = 600
#: A jailed build's log is cut here (BuildJail.log_bytes).
LOG_BYTES = 1 << 20
#: How often a jailed build's folder is measured against its disk cap.
DISK_EVERY_S = 0.25
#: Overrides the folder of build records and logs (tests, a server, a shared cache).
CACHE_ENV = "ARENA_CACHE_DIR"
#: Bumped when a record's fields change meaning: an old record is then a build to run.
RECORD_VERSION = 1
#: Folders this deep in a bot's folder are not walked (as its fingerprint).
MAX_DEPTH = 40
#: Seconds a toolchain's ``--version`` may take (a JVM's Maven takes ~0.5 s).
VERSION_TIMEOUT_S = 30
#: Where toolchains keep what they run (rustup's toolchains): a jailed build reads them.
TOOLCHAIN_ENV = ("RUSTUP_HOME", "GOROOT", "JAVA_HOME")
#: What a build's output says when it reached for the network it does not have.
_OFFLINE = re.compile(
    r"Could not resolve host|failed to download|no matching package named|"
    r"module lookup disabled by GOPROXY=off|ENOTFOUND|EAI_AGAIN|ENOTCACHED|"
    r"Could not transfer artifact|Temporary failure in name resolution|Network is unreachable|"
    r"in offline mode and the artifact",
    re.IGNORECASE,
)
#: The programs that read npm's cache, and Maven's repository (:func:`_cache_env`).
_NPM = frozenset({"npm", "npx"})
_MAVEN = frozenset({"mvn", "mvnw", "./mvnw"})
#: Words of a shell command that are not programs it runs.
_SHELL_WORDS = frozenset({"&&", "||", ";", "|", "(", ")", "!", "{", "}", "then", "do", "else"})
_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
_CMAKE_HOME = re.compile(r"^CMAKE_CACHEFILE_DIR:INTERNAL=(.*)$", re.MULTILINE)

#: (size, mtime in ns, content hash) of a file, by its path relative to the folder.
Files = dict[str, tuple[int, int, str]]


@dataclass(frozen=True)
class Build:
    """A bot folder's build as this run found it."""

    bot: str
    command: str
    #: Its whole output, kept from the last build that ran.
    log: Path
    #: Seconds the build took now; None when it was up to date and did not run.
    seconds: float | None = None
    #: Why it ran ("first build here", "src/main.rs changed", "--rebuild", ...).
    reason: str = ""


@dataclass(frozen=True)
class BuildJail:
    """A build from a stranger (a server's upload): run in the bots' sandbox, not as the
    user who runs arena.

    It writes only its own folder and a fresh HOME and temp folder (bound
    in, both), reads the system and its toolchains, has no network unless
    ``network``, and runs under the layers bots get (no capabilities,
    namespaces, Landlock, seccomp, cgroups), with its own limits: ``seconds``
    of wall time, ``memory_mb``, a folder of at most ``disk_mb`` (checked
    as it runs, and each file by the file-size limit) and a log of at most
    ``log_bytes`` (the rest is counted, not kept).
    """

    capabilities: Capabilities
    seconds: int = BUILD_TIMEOUT_S
    memory_mb: int = 2048
    disk_mb: int = 500
    network: bool = False
    log_bytes: int = LOG_BYTES
    #: Package caches it reads, by toolchain ("cargo": a CARGO_HOME, "go": a GOMODCACHE).
    caches: tuple[tuple[str, str], ...] = ()
    #: Bytes its folder may grow by where that is less than ``disk_mb`` (a server's author
    #: near ``stored_mb``), and what that is, as a failed build's reason says it.
    room: int | None = None
    room_why: str = ""


class BuildFailed(BotError):
    """A build that could not run or failed: why, and the log of its whole output (a
    tournament lists it with its other broken bots; alone, it is the command's error)."""

    def __init__(self, bot: str, reason: str, log: Path | None = None) -> None:
        super().__init__(f"bot {bot!r}: {reason}" + (f"; its whole output: {log}" if log else ""))
        self.bot = bot
        self.reason = reason
        self.log = log

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.bot, self.reason, self.log))


class BuildWatcher(Protocol):
    """Told of each build that runs (a terminal prints a line for it; up to date: nothing)."""

    def started(self, bot: str, command: str, reason: str) -> None: ...

    def finished(self, build: Build) -> None: ...

    def failed(self, failure: BuildFailed) -> None:
        """Told of a build that failed (:func:`arena.bots.health.build_all` tells it)."""


def cache_folder() -> Path:
    """Where build records and logs live: ``$ARENA_CACHE_DIR``, else the user's cache."""
    given = os.environ.get(CACHE_ENV)
    return Path(given) if given else Path(platformdirs.user_cache_dir("arena"))


def build_bot(
    spec: BotSpec,
    *,
    rebuild: bool = False,
    watcher: BuildWatcher | None = None,
    jail: BuildJail | None = None,
) -> Build | None:
    """Bring a bot folder's build up to date: run its ``build`` if anything it builds from
    changed (see the module's docstring), else nothing. None for a bot with no build.
    ``jail``: run it confined, as a stranger's (:class:`BuildJail`).

    Raises:
        BotError: the build cannot start, takes too long, fails, or leaves no program.
        KeyboardInterrupt: a stop during the build, which is killed with its helpers
            (it runs in a process group of its own); nothing is recorded.
    """
    if spec.build is None or spec.home is None:
        return None
    home = spec.home.resolve()
    command = shlex.join(spec.build)
    key = _key(home)
    records = cache_folder() / "builds"
    log = records / f"{key}.log"
    with _locked(records / f"{key}.lock"):
        record = _read_record(records / f"{key}.json")
        reason = "--rebuild" if rebuild else _stale(record, home, command, spec)
        if reason is None:
            return Build(spec.name, command, log)
        if watcher is not None:
            watcher.started(spec.name, command, reason)
        moved = _stale_cmake_caches(home)
        before = _walk(home, _inputs(record), everything=True)
        started = time.monotonic()
        if jail is None:
            _run(spec, command, home, log, moved)
        else:
            _run_jailed(spec, command, home, log, jail)
        seconds = time.monotonic() - started
        after = _walk(home, before, everything=True)
        outputs = {path for path, seen in after.items() if before.get(path) != seen}
        outputs |= {path for path in _outputs(record) if path in after}
        _write_record(records, key, {
            "version": RECORD_VERSION,
            "folder": str(home),
            "command": command,
            "toolchain": toolchain(spec.build),
            "inputs": {path: seen for path, seen in before.items()
                       if path not in outputs and _is_input(path)},
            "outputs": {path: after[path][:2] for path in sorted(outputs)},
            "seconds": round(seconds, 3),
        })  # fmt: skip
    built = Build(spec.name, command, log, seconds, reason)
    if watcher is not None:
        watcher.finished(built)
    return built


def up_to_date(spec: BotSpec) -> bool:
    """Whether the bot needs no build now (it has none, or its last one still stands):
    what a dry run, which builds nothing, may start."""
    if spec.build is None or spec.home is None:
        return True
    home = spec.home.resolve()
    record = _read_record(cache_folder() / "builds" / f"{_key(home)}.json")
    return _stale(record, home, shlex.join(spec.build), spec) is None


def _key(home: Path) -> str:
    """The name of a folder's record and log: its real path, hashed."""
    return hashlib.blake2b(str(home).encode(), digest_size=12).hexdigest()


def _stale(record: dict[str, Any] | None, home: Path, command: str, spec: BotSpec) -> str | None:
    """Why the folder needs its build, or None when the last one still stands."""
    if record is None:
        return "first build here"
    if record.get("version") != RECORD_VERSION or record.get("folder") != str(home):
        return "first build here"
    if record.get("command") != command:
        return "its build command changed"
    for path, (size, mtime) in _outputs(record).items():
        try:
            seen = (home / path).stat()
        except OSError:
            return f"{path} is missing"
        if (seen.st_size, seen.st_mtime_ns) != (size, mtime):
            return f"{path} changed"
    for token in spec.argv:  # what it runs: target/release/bot, dist/bot.js, a .jar
        ran = Path(token)
        if ran.is_absolute() and ran.is_relative_to(home) and not ran.exists():
            return f"{ran.relative_to(home)} is missing"
    recorded = _inputs(record)
    outputs = _outputs(record)
    now = {path: seen for path, seen in _walk(home, recorded).items() if path not in outputs}
    for path in sorted(now.keys() | recorded.keys()):
        if path not in now:
            return f"{path} was removed"
        if path not in recorded:
            return f"{path} is new"
        if now[path][2] != recorded[path][2]:
            return f"{path} changed"
    if record.get("toolchain") != toolchain(spec.build or ()):
        return "its toolchain changed"
    return None


def _run(spec: BotSpec, command: str, home: Path, log: Path, moved: list[str]) -> None:
    """Run the build in its own process group, its output to ``log``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8") as out:
        out.write(f"$ {command}\n# in {home}\n")
        out.writelines(f"# {note}\n" for note in moved)
        out.flush()
        process: subprocess.Popen[bytes] | None = None
        try:
            with held_stops():  # a stop waits until the build's pid is known, to kill it
                process = subprocess.Popen(
                    spec.build or (), cwd=home, stdin=subprocess.DEVNULL, stdout=out,
                    stderr=subprocess.STDOUT, start_new_session=True,
                )  # fmt: skip
        except FileNotFoundError:
            raise BuildFailed(
                spec.name,
                f"its build needs {(spec.build or ('',))[0]!r}, which is not installed (not on "
                "PATH): see the bot's README for what it needs",
            ) from None
        except OSError as error:
            raise BuildFailed(spec.name, f"cannot run its build {command!r}: {error}") from None
        except BaseException:  # a stop held while it started: the build goes with it
            if process is not None:
                _kill(process)
            raise
        try:
            status = process.wait(timeout=BUILD_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise BuildFailed(
                spec.name,
                f"its build {command!r} took over {BUILD_TIMEOUT_S} s; run it by hand in the "
                "bot's folder once (a first build downloads packages)",
                log,
            ) from None
        except BaseException:  # a stop (Ctrl-C, SIGTERM): the build and its helpers go too
            _kill(process)
            raise
    _check_result(spec, command, status, log, moved)


def _check_result(spec: BotSpec, command: str, status: int, log: Path, moved: list[str]) -> None:
    """Refuse a build that failed, or that left no program to run.

    Raises:
        BuildFailed: saying the last line it printed, or the program missing.
    """
    if status != 0:
        lines = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        last = lines[-1].strip() if len(lines) > 2 + len(moved) else "no output"
        raise BuildFailed(
            spec.name, f"build {command!r} failed (exit {status}), ending {last!r}", log
        )
    program = spec.argv[0]
    if "/" in program and not (os.path.isfile(program) and os.access(program, os.X_OK)):
        raise BuildFailed(spec.name, f"the build did not produce an executable {program}", log)


def _run_jailed(spec: BotSpec, command: str, home: Path, log: Path, jail: BuildJail) -> None:
    """Run a stranger's build in the sandbox (:class:`BuildJail`), its output to ``log``.

    Raises:
        BuildFailed: it could not start, ran too long, wrote too much, or failed.
        KeyboardInterrupt: a stop, the build killed with everything it started.
    """
    build = spec.build or ()
    log.parent.mkdir(parents=True, exist_ok=True)
    # Its HOME carries this process's mark, as a bot's scratch folder does: a builder
    # killed mid-build (SIGKILL) cannot remove it, and the next run sweeps it.
    scratch = Path(tempfile.mkdtemp(prefix=f"arena-{owner.mark()}-build-"))
    limits = ResourceLimits(
        cpu_s=jail.seconds,
        memory_mb=jail.memory_mb,
        address_space_mb=None,  # a JVM or node reserves far more than it uses
        processes=512,
        file_size_mb=jail.disk_mb,
        open_files=4096,
    )
    confinement: Confinement | None = None
    handed = False  # the folder is the build uid's: given back before the uid is
    problem = ""
    try:
        confinement = confine(
            [shutil.which(build[0]) or build[0], *build[1:]],
            scratch,
            limits,
            jail.capabilities,
            read_paths=[*toolchain_paths(build), *(path for _, path in jail.caches)],
            name=f"build-{spec.name}",
            write_paths=[str(home)],
            workdir=home,
            network=jail.network,
        )
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": str(scratch),
            "TMPDIR": str(scratch),
            "LANG": "C.UTF-8",
            **toolchain_env(),
            **_cache_env(dict(jail.caches), scratch, build, network=jail.network),
        }
        # What was put in its HOME (the caches' copies) is not what it wrote.
        given = tree_bytes(scratch)
        if confinement.uid is not None:
            # The build's uid writes its folder and HOME; its files go back to arena's
            # user after, readable by all (each bot process has a uid of its own).
            handed = True
            hand_over(home, confinement.uid)
            hand_over(scratch, confinement.uid)
        with log.open("wb") as out:
            out.write(f"$ {command}\n# in {home}, confined\n".encode())
            with held_stops():
                process = subprocess.Popen(
                    confinement.argv, cwd=home, env=env, stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                )  # fmt: skip
            assert process.stdout is not None
            copier = threading.Thread(
                target=_copy_capped, args=(process.stdout, out, jail.log_bytes), daemon=True
            )
            copier.start()
            try:
                problem = _watch(process, (home, scratch), given, jail)
            except BaseException:
                _kill(process)
                raise
            finally:
                copier.join(timeout=10)  # before the log closes: it writes there
    except (OSError, SandboxError) as error:
        raise BuildFailed(spec.name, f"cannot run its build {command!r}: {error}") from None
    finally:
        if confinement is not None:
            # Everything of the build dies, its folder comes back, then its uid is free:
            # never a moment when another bot holds the uid that owns these files.
            confinement.stop(set())
            if handed:
                try:
                    hand_over(home, os.geteuid(), public=True)
                except OSError as error:
                    # The lease is kept (this process's life): the uid still owns files.
                    confinement.uid = None
                    problem = f"its folder could not be taken back from its build: {error}"
            confinement.release(set())
        remove_tree(scratch)
    if problem:
        raise BuildFailed(spec.name, problem, log)
    if process.returncode != 0 and not jail.network:
        offline = offline_reason(log.read_text(encoding="utf-8", errors="replace"))
        if offline is not None:
            raise BuildFailed(spec.name, offline, log)
    _check_result(spec, command, process.returncode, log, [])


def hand_over(folder: Path, uid: int, *, public: bool = False) -> None:
    """Give ``folder`` and everything in it to ``uid`` (links themselves, never what they
    name); ``public``: also let every user read it, and enter and run what may be run.

    A jailed build's folder goes to its uid for the build, and back after it,
    open to the uids its bot processes get: inside the server's folder, which
    no one else may enter, only a sandbox that binds it reaches it. coreutils do
    it: they walk by descriptor, so a tree nested past PATH_MAX (a hostile
    build's) is no trap, and they never follow a link it left.

    Raises:
        OSError: naming what could not be changed.
    """
    commands = [["chown", "-hR", f"{uid}:{uid}", "--", str(folder)]]
    if public:
        commands.append(["chmod", "-R", "a+rX", "--", str(folder)])
    for argv in commands:
        done = _coreutil(argv)
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            raise OSError(f"{argv[0]} of {folder}: {said}")


def _cache_env(
    caches: dict[str, str], scratch: Path, build: tuple[str, ...], *, network: bool
) -> dict[str, str]:
    """The environment that points a jailed build (its HOME ``scratch``) at the package
    caches: its own ``CARGO_HOME`` whose ``registry`` is the cache's (cargo writes its
    locks and indexes beside it), and, offline, cargo and Go told not to reach out."""
    env: dict[str, str] = {}
    if "cargo" in caches:
        home = scratch / "cargo"
        home.mkdir()
        (home / "registry").symlink_to(Path(caches["cargo"]) / "registry")
        env["CARGO_HOME"] = str(home)
        if not network:
            env["CARGO_NET_OFFLINE"] = "true"
    if "go" in caches:
        env["GOMODCACHE"] = caches["go"]
        if not network:
            env["GOPROXY"] = "off"
    # npm writes its cache even offline (a read-only one answers ENOTCACHED), and Maven 3.8
    # has no read-only repository: a build that runs them writes in a copy of its own
    # (tens of MB: not made for the builds that do not).
    programs = {Path(program).name for program in _programs(build)}
    if "npm" in caches and Path(caches["npm"]).is_dir() and programs & _NPM:
        copy = scratch / ".npm"
        shutil.copytree(caches["npm"], copy, symlinks=True)
        env["npm_config_cache"] = str(copy)
        if not network:
            env["npm_config_offline"] = "true"
    if "maven" in caches and Path(caches["maven"]).is_dir() and programs & _MAVEN:
        repository = scratch / ".m2" / "repository"
        shutil.copytree(caches["maven"], repository, symlinks=True)
        (scratch / ".m2" / "settings.xml").write_text(
            "<settings>\n"
            f"  <localRepository>{repository}</localRepository>\n"
            f"  <offline>{'false' if network else 'true'}</offline>\n"
            "</settings>\n"
        )
        # Java's user.home comes from the passwd entry, which a build's uid has none of.
        env["MAVEN_OPTS"] = f"-Duser.home={scratch}"
    return env


def offline_reason(log_text: str) -> str | None:
    """A failed jailed build's one line when its output shows it reached for the network
    it does not have (a crate, a module, an npm package not in the caches), else None."""
    match = _OFFLINE.search(log_text)
    if match is None:
        return None
    line = next(line.strip() for line in log_text.splitlines() if match.group(0) in line)
    return (
        "a package it needs is not available offline here (uploads build without the "
        f"network, from the packages the kits use): {line}"
    )


def _watch(
    process: subprocess.Popen[bytes], folders: tuple[Path, ...], given: int, jail: BuildJail
) -> str:
    """Wait for a jailed build; "" when it ended by itself, else why it was killed (its
    time, or what it wrote past the disk cap: its folder and its HOME together, less the
    ``given`` bytes arena put in its HOME)."""
    deadline = time.monotonic() + jail.seconds
    cap, why = jail.disk_mb * 2**20, "this server's limit"
    if jail.room is not None and jail.room < cap:
        cap, why = jail.room, jail.room_why
    while True:
        try:
            process.wait(timeout=DISK_EVERY_S)
            ended = True
        except subprocess.TimeoutExpired:
            ended = False
        if not ended and time.monotonic() > deadline:
            _kill(process)
            return f"its build took over {jail.seconds} s, this server's limit"
        # Checked once more when it has ended: a quick build writes between two looks.
        if sum(tree_bytes(folder) for folder in folders) - given > cap:
            _kill(process)
            return f"its build wrote more than {cap / 2**20:.3g} MB, {why}"
        if ended:
            return ""


def _copy_capped(source: Any, out: Any, most: int) -> None:
    """Copy a build's output to its log, up to ``most`` bytes; count the rest."""
    kept = dropped = 0
    while chunk := source.read1(65536):
        room = max(0, most - kept)
        out.write(chunk[:room])
        kept += min(room, len(chunk))
        dropped += len(chunk) - min(room, len(chunk))
    if dropped:
        out.write(f"\n# the log is cut at {most} bytes: {dropped} more were not kept\n".encode())
    out.flush()


def remove_tree(folder: Path) -> None:
    """Remove a folder a stranger's build wrote (its HOME): ``rm -rf``, which walks by
    descriptor, where shutil.rmtree recurses and fails past ~1000 levels of nesting."""
    _coreutil(["rm", "-rf", "--one-file-system", "--", str(folder)])


def tree_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` (links not followed, each file once), as du
    counts them: it walks by descriptor, so a tree nested past PATH_MAX or deeper than
    Python's recursion (a hostile build's) is counted, not a crash of the builder."""
    done = _coreutil(["du", "-s", "-x", "-B1", "--apparent-size", "--", str(folder)])
    # What it could not read it says on stderr, and still counts the rest.
    total = done.stdout.split("\t", 1)[0].strip()
    return int(total) if total.isdigit() else 0


def _coreutil(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run one of coreutils on a tree a stranger's build wrote (they walk by descriptor,
    past PATH_MAX and any depth, never following a link), its output captured."""
    return subprocess.run(
        argv, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
    )


def toolchain_paths(build: tuple[str, ...]) -> list[str]:
    """The installations of the programs a build runs (``/root/.cargo``, ``/usr/local/go``)
    and of what they hand over to (rustup's toolchains), for a jailed build to read."""
    paths = []
    for program in _programs(build):
        found = shutil.which(program)
        if found is None:
            continue
        for path in (Path(found), Path(os.path.realpath(found))):
            paths.extend([str(path.parent), str(path.parent.parent)])
    paths.extend(toolchain_env().values())
    return list(dict.fromkeys(path for path in paths if path != "/"))


def toolchain_env() -> dict[str, str]:
    """Where the toolchains live, for a build whose HOME is not the user's: rustup's
    proxies (``cargo``) look for their toolchains in ``$RUSTUP_HOME``, else
    ``~/.rustup``, which a jailed build's fresh HOME does not have."""
    found = {key: os.environ[key] for key in TOOLCHAIN_ENV if key in os.environ}
    rustup = Path.home() / ".rustup"
    if "RUSTUP_HOME" not in found and rustup.is_dir():
        found["RUSTUP_HOME"] = str(rustup)
    return found


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group has ended already
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def toolchain(build: tuple[str, ...]) -> dict[str, str]:
    """Each program the build command runs: its path and what its ``--version`` says."""
    return {program: _version(program) for program in _programs(build)}


def _programs(build: tuple[str, ...]) -> list[str]:
    """The programs of a build command: its first word, or, for ``sh -c SCRIPT``, the
    first word of each command of the script (``cmake`` twice is one)."""
    if len(build) >= 3 and Path(build[0]).name in _SHELLS and build[1] == "-c":
        try:
            lexer = shlex.shlex(build[2], posix=True, punctuation_chars=True)
            words = list(lexer)
        except ValueError:
            return [build[0]]
        found: list[str] = []
        first = True
        for word in words:
            if word in _SHELL_WORDS or set(word) <= set("&|;()"):
                first = True
            elif first and "=" not in word:
                found.append(word)
                first = False
        return list(dict.fromkeys(found)) or [build[0]]
    return [build[0]] if build else []


@functools.cache
def _version(program: str) -> str:
    """``PATH: first lines of --version`` (once per program and process)."""
    where = shutil.which(program)
    if where is None:
        return "not found"
    try:
        done = subprocess.run(
            [where, "--version"], capture_output=True, text=True, errors="replace",
            timeout=VERSION_TIMEOUT_S, stdin=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{os.path.realpath(where)}: no version ({type(error).__name__})"
    said = (done.stdout or done.stderr).strip().splitlines()[:3]
    return f"{os.path.realpath(where)}: " + " / ".join(said)[:300]


def _is_input(path: str) -> bool:
    return not any(part in BUILD_CACHES for part in Path(path).parts[:-1])


def _walk(home: Path, known: Files, *, everything: bool = False) -> Files:
    """The folder's files: size, mtime and hash (a hash from ``known`` where size and
    mtime are as known; a file in a build cache is not hashed: ``""``). ``everything``:
    build caches too (to see what a build wrote), else only inputs."""
    found: Files = {}
    for folder, subfolders, files in os.walk(home):
        relative = Path(folder).relative_to(home)
        if len(relative.parts) >= MAX_DEPTH:
            subfolders[:] = []
        elif not everything:
            subfolders[:] = [name for name in subfolders if name not in BUILD_CACHES]
        for name in files:
            path = (relative / name).as_posix()
            try:
                seen = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            size, mtime = seen.st_size, seen.st_mtime_ns
            if not stat.S_ISREG(seen.st_mode):
                # A FIFO or a device (or a link to one) a build left: never opened, which
                # could block for ever (a FIFO) or never end (/dev/zero).
                found[path] = (size, mtime, "")
                continue
            was = known.get(path)
            if was is not None and (was[0], was[1]) == (size, mtime):
                found[path] = (size, mtime, was[2])
            elif _is_input(path):
                found[path] = (size, mtime, _hash(Path(folder, name)))
            else:
                found[path] = (size, mtime, "")
    return found


def _hash(path: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    try:
        with path.open("rb") as file:
            for block in iter(functools.partial(file.read, 1 << 20), b""):
                digest.update(block)
    except OSError:
        return "unreadable"
    return digest.hexdigest()


def _stale_cmake_caches(home: Path) -> list[str]:
    """Remove a CMake cache made in another folder (a bot folder copied with its
    ``build/``): CMake refuses to run on it. Returns what was removed, said in the log."""
    removed = []
    for cache in sorted(home.glob("*/CMakeCache.txt")) + sorted(home.glob("CMakeCache.txt")):
        try:
            made_in = _CMAKE_HOME.search(cache.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if made_in is None or Path(made_in.group(1)).resolve() == cache.parent.resolve():
            continue
        cache.unlink()
        shutil.rmtree(cache.parent / "CMakeFiles", ignore_errors=True)
        removed.append(
            f"{cache.relative_to(home)} was made in {made_in.group(1)} (a folder copied with "
            "its build outputs): removed it and CMakeFiles/ for a fresh configure"
        )
    return removed


def _inputs(record: dict[str, Any] | None) -> Files:
    if record is None:
        return {}
    return {path: (seen[0], seen[1], seen[2]) for path, seen in record.get("inputs", {}).items()}


def _outputs(record: dict[str, Any] | None) -> dict[str, tuple[int, int]]:
    if record is None:
        return {}
    return {path: (seen[0], seen[1]) for path, seen in record.get("outputs", {}).items()}


def _read_record(path: Path) -> dict[str, Any] | None:
    """The last build's record; None when there is none or it cannot be read (a build
    runs then, and writes a good one)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _write_record(records: Path, key: str, record: dict[str, Any]) -> None:
    """Write the record whole or not at all (a rename), so a reader never sees half."""
    partial = records / f"{key}.json.part"
    partial.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")
    partial.replace(records / f"{key}.json")
    _prune(records)


def _prune(records: Path) -> None:
    """Forget the builds of folders that are gone (a student's old copies, test folders):
    the cache holds a record and a log per folder that still exists, no more."""
    for path in records.glob("*.json"):
        record = _read_record(path)
        folder = record.get("folder") if record is not None else None
        if isinstance(folder, str) and not os.path.isdir(folder):
            for gone in (path, path.with_suffix(".log"), path.with_suffix(".lock")):
                gone.unlink(missing_ok=True)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (made if missing): one build of a folder at once."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a")
    except OSError as error:
        raise BotError(
            f"cannot keep build records in {path.parent}: {error.strerror} "
            f"(set {CACHE_ENV} to a folder arena may write)"
        ) from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield

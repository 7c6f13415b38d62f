"""A bot folder is built once per content: what makes a build run again, and what not.

Real builds (shell scripts) in real folders; each test keeps its own build records
(``ARENA_CACHE_DIR`` in its temporary folder), and counts the builds that ran in a file
outside the bot's folder.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from arena.bots import builds
from arena.bots.builds import CACHE_ENV, build_bot, toolchain
from arena.bots.spec import BotSpec, parse_bot
from arena.errors import BotError
from tests.system import E2E, needs

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "arena/samples/random_bot.py"


@pytest.fixture(autouse=True)
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def bot_folder(tmp_path: Path, script: str, name: str = "b") -> Path:
    """A bot folder: the random bot as bot.py, and ``script`` as its build, which also
    counts its runs in ``../NAME.builds``."""
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(RANDOM_BOT, folder / "bot.py")
    (folder / "build.sh").write_text(f"echo built >> ../{name}.builds\n{script}\n")
    (folder / "bot.toml").write_text(f'name = "{name}"\nrun = "python3 bot.py"\n'
                                     'build = "sh build.sh"\n')  # fmt: skip
    return folder


def runs(folder: Path) -> int:
    counter = folder.parent / f"{folder.name}.builds"
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def build(folder: Path, *, rebuild: bool = False) -> builds.Build | None:
    return build_bot(parse_bot(str(folder)), rebuild=rebuild)


def reason(folder: Path, *, rebuild: bool = False) -> str | None:
    """Why the folder's build ran now; None when it was up to date."""
    done = build(folder, rebuild=rebuild)
    assert done is not None
    return done.reason if done.seconds is not None else None


def test_a_build_runs_again_only_when_what_it_builds_from_changed(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "mkdir -p target && cat bot.py > target/copy && cp bot.py prog")
    first = build(folder)
    assert first is not None and first.seconds is not None and first.reason == "first build here"
    assert "$ sh build.sh" in first.log.read_text()
    again = build(folder)
    assert again is not None and again.seconds is None, "nothing changed: no build"
    assert runs(folder) == 1
    # The program it writes beside its sources (prog) is an output, not an input.
    os.utime(folder / "bot.py")  # touched, the same content: no build
    assert reason(folder) is None
    (folder / "notes.txt").write_text("a new input file\n")
    assert reason(folder) == "notes.txt is new"
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# changed\n")
    assert reason(folder) == "bot.py changed"
    (folder / "target/copy").unlink()
    assert reason(folder) == "target/copy is missing"
    (folder / "prog").write_text("edited by hand\n")
    assert reason(folder) == "prog changed"
    (folder / "notes.txt").unlink()
    assert reason(folder) == "notes.txt was removed"
    assert reason(folder, rebuild=True) == "--rebuild"
    assert runs(folder) == 7
    assert reason(folder) is None


def test_a_missing_file_the_bot_runs_builds_though_no_build_recorded_it(tmp_path: Path) -> None:
    """Built by hand before arena first built it, the program was not written by arena's
    build (so not recorded as an output); removed, it still brings a build."""
    folder = bot_folder(tmp_path, "test -e out/bot.py || { mkdir -p out && cp bot.py out/; }")
    (folder / "out").mkdir()
    shutil.copy(folder / "bot.py", folder / "out/bot.py")
    (folder / "bot.toml").write_text('run = "python3 out/bot.py"\nbuild = "sh build.sh"\n')
    assert reason(folder) == "first build here"
    assert reason(folder) is None
    shutil.rmtree(folder / "out")
    assert reason(folder) == "out/bot.py is missing"
    assert (folder / "out/bot.py").is_file()


def test_a_changed_build_command_or_a_copied_folder_builds(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "true")
    build(folder)
    text = (folder / "bot.toml").read_text().replace("sh build.sh", "sh ./build.sh")
    (folder / "bot.toml").write_text(text)
    # bot.toml is an input too; the command is said first.
    assert reason(folder) == "its build command changed"
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (tmp_path / "copy.builds").write_text("")
    assert reason(copy) == "first build here"


def test_building_writes_nothing_into_the_folder_but_what_the_build_writes(
    tmp_path: Path,
) -> None:
    """The records live in the cache folder: a folder whose build writes nothing (here) is
    left as it was, as a read-only folder needs."""
    folder = bot_folder(tmp_path, "true")
    before = sorted(path.name for path in folder.iterdir())
    build(folder)
    build(folder)
    assert sorted(path.name for path in folder.iterdir()) == before


def test_a_new_toolchain_version_builds_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    tool = tools / "mytool"
    tool.write_text('#!/bin/sh\n[ "$1" = --version ] && echo "mytool 1.0"; exit 0\n')
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    folder = bot_folder(tmp_path, "true")
    text = (folder / "bot.toml").read_text().replace("sh build.sh", "sh -c 'mytool && sh build.sh'")
    (folder / "bot.toml").write_text(text)
    build(folder)
    builds._version.cache_clear()  # a version is asked once a process: a new process
    assert reason(folder) is None
    tool.write_text(tool.read_text().replace("1.0", "1.1"))
    builds._version.cache_clear()
    assert reason(folder) == "its toolchain changed"


@pytest.mark.parametrize(
    ("build_command", "programs"),
    [
        (("cargo", "build", "--release"), ["cargo"]),
        (("sh", "-c", "cmake -S . -B build -DX=1 && cmake --build build"), ["cmake"]),
        (("sh", "-c", "npm ci --no-audit --no-fund && npx tsc -p ."), ["npm", "npx"]),
        (("bash", "-c", "CC=gcc make -j2; strip bot | cat"), ["make", "strip", "cat"]),
    ],
)
def test_the_toolchain_is_each_program_the_build_runs(
    build_command: tuple[str, ...], programs: list[str]
) -> None:
    assert list(toolchain(build_command)) == programs


def test_a_failed_build_names_its_log_and_runs_again_next_time(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "echo compiling; echo 'error: boom' >&2; exit 3")
    said = r"build 'sh build.sh' failed \(exit 3\), ending 'error: boom'; its whole output: "
    with pytest.raises(BotError, match=said) as caught:
        build(folder)
    log = Path(str(caught.value).rsplit(" ", 1)[-1])
    assert "compiling\nerror: boom" in log.read_text()
    with pytest.raises(BotError):
        build(folder)
    assert runs(folder) == 2


def test_a_cmake_cache_from_another_folder_is_removed_before_the_build(tmp_path: Path) -> None:
    """A bot folder copied with its build/ folder: CMake refuses a cache made elsewhere, so
    arena removes it (and says so in the log); the build configures afresh."""
    folder = bot_folder(tmp_path, "test ! -e build/CMakeCache.txt && test ! -d build/CMakeFiles")
    (folder / "build/CMakeFiles").mkdir(parents=True)
    (folder / "build/CMakeCache.txt").write_text(
        "# This is the CMakeCache file.\nCMAKE_CACHEFILE_DIR:INTERNAL=/home/someone/b/build\n"
    )
    done = build(folder)
    assert done is not None
    assert "build/CMakeCache.txt was made in /home/someone/b/build" in done.log.read_text()
    # A cache made here is left alone.
    (folder / "build/CMakeCache.txt").write_text(
        f"CMAKE_CACHEFILE_DIR:INTERNAL={folder.resolve() / 'build'}\n"
    )
    (folder / "build.sh").write_text("echo built >> ../b.builds\ntest -e build/CMakeCache.txt\n")
    assert build(folder) is not None


def test_two_arenas_building_one_folder_at_once_build_it_once(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "sleep 1")
    code = (
        "import sys; from arena.bots.builds import build_bot; from arena.bots.spec import "
        "parse_bot; build_bot(parse_bot(sys.argv[1]))"
    )
    both = [subprocess.Popen([sys.executable, "-c", code, str(folder)]) for _ in range(2)]
    assert [process.wait(timeout=60) for process in both] == [0, 0]
    assert runs(folder) == 1


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", *args], cwd=cwd, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


def test_a_line_says_each_build_and_rebuild_forces_one(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "true")
    play = ["play", str(folder), str(RANDOM_BOT), "--quiet"]
    first = arena(*play, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr.startswith("building b (sh build.sh; first build here) ... "), first.stderr
    assert first.stderr.splitlines()[0].endswith(" s")
    second = arena(*play, cwd=tmp_path)
    assert second.returncode == 0 and "building" not in second.stderr
    forced = arena(*play, "--rebuild", cwd=tmp_path)
    assert "building b (sh build.sh; --rebuild) ... " in forced.stderr
    assert runs(folder) == 2


def test_a_failed_build_ends_its_line_and_says_why_in_one_more(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "echo 'main.c:3: error: expected ;' >&2; exit 1")
    done = arena("play", str(folder), str(RANDOM_BOT), cwd=tmp_path)
    assert done.returncode == 1
    first, second, *rest = done.stderr.splitlines()
    assert first.startswith("building b (sh build.sh; first build here) ...") and first.endswith(
        " failed"
    )
    assert second.startswith("Error: bot 'b': build 'sh build.sh' failed (exit 1), ending ")
    assert rest == [] and "Traceback" not in done.stderr


@pytest.mark.parametrize(("signum", "status", "said"), [
    (signal.SIGINT, 130, "Interrupted"), (signal.SIGTERM, 143, "Stopped by SIGTERM"),
])  # fmt: skip
def test_a_stop_during_a_build_exits_like_a_stop_during_a_run(
    tmp_path: Path, signum: int, status: int, said: str
) -> None:
    """Ctrl-C (or SIGTERM) while a tournament builds: its status, one line with the command
    to resume, no "Aborted!"; the build's processes are gone and nothing is recorded."""
    folder = bot_folder(tmp_path, "echo $$ > ../build.pid; sleep 60")
    command = ["tournament", "--bot", str(folder), "--bot", str(RANDOM_BOT), "--players", "2",
               "--out", str(tmp_path / "out")]  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", *command], cwd=tmp_path, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    pid_file = tmp_path / "build.pid"
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline, "the build did not start"
        time.sleep(0.05)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == status, stderr
    lines = stderr.splitlines()
    assert lines[0].startswith("building b (sh build.sh; first build here) ..."), stderr
    assert lines[1] == (f"{said} while building b: no game was played; resume with: arena "
                        + " ".join(command)), stderr  # fmt: skip
    assert "Aborted" not in stderr and "Traceback" not in stderr
    build_pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(build_pid, 0)
    assert not (tmp_path / "out").exists()


def test_a_bot_without_a_build_needs_no_record(tmp_path: Path, records: Path) -> None:
    spec = BotSpec(name="x", argv=(sys.executable, str(RANDOM_BOT)), source="x")
    assert build_bot(spec) is None
    assert not records.exists()


# ---------------------------------------------------------------------- a stranger's build


def jailed_folder(tmp_path: Path, script: str) -> Path:
    """A bot folder whose build is ``script`` (it makes out/bot.py, then does the rest)."""
    folder = tmp_path / "upload"
    folder.mkdir()
    shutil.copy(RANDOM_BOT, folder / "bot.py")
    (folder / "build.sh").write_text(f"mkdir -p out && cp bot.py out/bot.py\n{script}\n")
    (folder / "bot.toml").write_text('name = "up"\nrun = "python3 out/bot.py"\n'
                                     'build = "sh build.sh"\n')  # fmt: skip
    return folder


def build_jailed(folder: Path, **given: object) -> builds.Build | None:
    from arena.bots.sandbox import detect  # noqa: PLC0415

    jail = builds.BuildJail(detect(), **given)  # type: ignore[arg-type]
    return build_bot(parse_bot(str(folder)), jail=jail)


def test_a_jailed_build_writes_only_its_folder_and_reaches_no_network(tmp_path: Path) -> None:
    """An upload's build is a stranger's code: it may write its own folder and its HOME,
    nothing else, read no secret, and open no connection."""
    import socket  # noqa: PLC0415

    secret = tmp_path / "secret.txt"
    secret.write_text("the organizer's\n")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(0.1)
        port = listener.getsockname()[1]
        probes = "\n".join([
            f"echo pwned > {tmp_path}/canary && echo LEAK-write || echo refused-write",
            f"cat {secret} > out/stolen && echo LEAK-read || echo refused-read",
            "cat /etc/shadow > out/shadow && echo LEAK-shadow || echo refused-shadow",
            f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 3)'"
            " && echo LEAK-net || echo refused-net",
            "echo home > $HOME/mine && echo wrote-home",
        ])  # fmt: skip
        done = build_jailed(jailed_folder(tmp_path, probes))
        with pytest.raises(TimeoutError):
            listener.accept()
    assert done is not None
    log = done.log.read_text()
    assert "LEAK" not in log, log
    for probe in ("write", "read", "shadow", "net"):
        assert f"refused-{probe}" in log
    assert "wrote-home" in log and (tmp_path / "upload" / "out" / "bot.py").is_file()
    assert not (tmp_path / "canary").exists()


def test_a_jailed_build_is_held_to_its_time_disk_and_log(tmp_path: Path) -> None:
    noisy = jailed_folder(tmp_path, "head -c 3000000 /dev/zero | tr '\\0' x\n"
                          "for i in 1 2 3 4 5 6; do head -c 2000000 /dev/zero > big$i; done\n"
                          "sleep 30")  # fmt: skip
    started = time.monotonic()
    with pytest.raises(BotError, match="its build wrote more than 5 MB, this server's limit"):
        build_jailed(noisy, seconds=20, disk_mb=5)
    assert time.monotonic() - started < 10
    log = next((tmp_path / "cache" / "builds").glob("*.log"))
    assert log.stat().st_size < (1 << 20) + 200
    assert "the log is cut at 1048576 bytes" in log.read_text()
    (tmp_path / "hoarder").mkdir()
    hoarder = jailed_folder(  # a clean folder: only its HOME grows
        tmp_path / "hoarder",
        "for i in 1 2 3 4 5 6; do head -c 2000000 /dev/zero > $HOME/big$i; done\nsleep 30",
    )
    with pytest.raises(BotError, match="its build wrote more than 5 MB, this server's limit"):
        build_jailed(hoarder, seconds=20, disk_mb=5)  # its HOME counts too
    (tmp_path / "quick").mkdir()
    quick = jailed_folder(tmp_path / "quick", "head -c 3000000 /dev/zero > big")  # and ends
    with pytest.raises(BotError, match=r"wrote more than 2 MB, what is left;"):
        build_jailed(quick, seconds=20, disk_mb=5, room=2 << 20, room_why="what is left")
    slow = tmp_path / "slow"
    noisy.rename(slow)
    (slow / "build.sh").write_text("sleep 30\n")
    with pytest.raises(BotError, match="its build took over 2 s, this server's limit"):
        build_jailed(slow, seconds=2)


def test_a_build_that_reaches_for_the_network_says_so_in_one_line() -> None:
    said = builds.offline_reason("Compiling\nerror: no matching package named `rand` found\n")
    assert said is not None and said.startswith("a package it needs is not available offline")
    assert said.endswith("error: no matching package named `rand` found")
    assert builds.offline_reason("error: expected `;`") is None
    npm = "npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/x failed\n"
    assert (builds.offline_reason(npm) or "").endswith("npm error code ENOTCACHED")


@E2E
@pytest.mark.parametrize(
    ("kit", "made"),
    [
        pytest.param("typescript", "dist/bot.js", marks=needs(
            {"npm": "npm", "node": "Node.js"}, "npm's cache was")),
        pytest.param("java", "target/java-greedy.jar", marks=needs(
            {"mvn": "Maven", "java": "a JDK"}, "Maven's cache was")),
    ],
)  # fmt: skip
def test_a_kit_with_packages_builds_jailed_and_offline_from_the_servers_caches(
    kit: str, made: str, tmp_path: Path
) -> None:
    """npm and Maven caches, filled once from the kits (as arena serve's builder does),
    let an upload of the TypeScript or Java kit build with no network, under the jail,
    from a clean folder kept owner-only (the server's folder is)."""
    from arena.bots.sandbox import detect  # noqa: PLC0415
    from arena.server import caches  # noqa: PLC0415

    filled = caches.fill(print)
    assert {"npm", "maven"} & filled.keys()
    owner_only = tmp_path / "server"
    owner_only.mkdir(mode=0o700)
    folder = owner_only / kit
    shutil.copytree(ROOT / "sample_bots" / kit, folder, ignore=shutil.ignore_patterns(
        "node_modules", "dist", "target"))  # fmt: skip
    jail = builds.BuildJail(detect(), caches=tuple(sorted(filled.items())))
    done = build_bot(parse_bot(str(folder)), jail=jail)
    assert done is not None and (folder / made).is_file(), done
    log = done.log.read_text()
    assert "# in" in log and "confined" in log
    assert not list((folder).glob("**/.npm")), "the build's cache copy stays in its HOME"


def test_a_hostile_builds_leftovers_neither_hang_nor_stop_the_builder(tmp_path: Path) -> None:
    """A build may leave a FIFO, a link to /dev/zero and a tree nested past PATH_MAX in its
    folder: recording its outputs opens none of them, and the folder is taken back whole
    from the build's uid (coreutils walk by descriptor)."""
    # 1100 levels (past Python's recursion), 5500 characters (past PATH_MAX), 100 at a time.
    nest = (
        'p=$(printf "xxxx/%.0s" $(seq 100)); i=0; '
        'while [ $i -lt 11 ]; do mkdir -p "$p" && cd -P "$p" || exit 1; i=$((i+1)); done'
    )
    leftovers = "\n".join([
        "mkfifo out/fifo",
        "ln -s /dev/zero out/zero",
        f"(cd $HOME && {nest})",
        nest,
        "echo deep > bottom.txt",
    ])  # fmt: skip
    folder = jailed_folder(tmp_path, leftovers)
    started = time.monotonic()
    done = build_jailed(folder)
    assert done is not None and (folder / "out" / "bot.py").is_file()
    assert time.monotonic() - started < 60
    strays = subprocess.run(
        ["find", str(folder), "!", "-user", str(os.geteuid())],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert strays == "", "every file is arena's user's again"
    builds.remove_tree(folder)  # pytest's own clean-up (shutil.rmtree) would recurse past
    assert not folder.exists()


def test_a_builder_killed_mid_build_leaves_a_home_the_next_run_sweeps(tmp_path: Path) -> None:
    """A build's HOME is a scratch folder of its own; a builder killed with SIGKILL
    cannot remove it, and it carries the builder's mark so that the next run does."""
    from arena.bots.process import sweep_scratch  # noqa: PLC0415

    folder = jailed_folder(tmp_path, "touch started\nsleep 60")
    builder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; sys.path.insert(0, sys.argv[1]); from tests.test_builds import *; "
         "build_jailed(Path(sys.argv[2]), seconds=120)", str(ROOT), str(folder)],
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (folder / "started").exists():
            assert builder.poll() is None and time.monotonic() < deadline, "no build started"
            time.sleep(0.05)
        homes = list(Path(tempfile.gettempdir()).glob(f"arena-{builder.pid}.*-build-*"))
        assert len(homes) == 1, homes
    finally:
        builder.kill()
        builder.wait()
    assert homes[0].exists(), "a builder killed with SIGKILL leaves its build's HOME"
    sweep_scratch()
    assert not homes[0].exists()

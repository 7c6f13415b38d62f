"""The starter kits (sample_bots/<language>): each builds, checks, round-trips and plays.

Real toolchains, real builds, real bot processes. For each kit:

- the build its ``bot.toml`` names, run as arena runs it;
- its typed model round-trips every message of ``protocol/examples/roundtrip.jsonl``
  (the guide's examples and a recorded session with dogs, a blind dog,
  declarations and ``history``): each line printed back is the same JSON;
- its README's Check line, as ``arena new-bot`` writes it into a copy (the
  folder's path, ``arena`` on PATH), run as printed from a folder outside
  the repository: ``arena check-bot`` passes; and its Play line is the
  Python kit's but for the folder, the one tests/test_newbot.py runs from a
  new bot's folder (a tournament against the random and greedy Python bots
  shipped inside arena);
- a clean rebuild gives the same files hash arena records (a resumed
  tournament or a growing league would otherwise see a "changed" bot);
- its bot plays arena's greedy bot's every move, the same seeds and opponents given;
- the kit's own tests (``go test``, ``cargo test``, ``npm test``,
  ``ctest``, ``mvn test``; the Python kit's are in tests/test_python_kit.py)
  run in its folder and pass, none skipped;

and a tournament of every kit and the Python greedy bot plays with no fault.
The toolchains follow the system-dependency policy (tests/system.py):
missing, these tests fail under CI and are skipped elsewhere, saying which.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.bots.builds import build_bot
from arena.bots.fingerprint import files_hash
from arena.bots.spec import BotSpec, parse_bot
from arena.newbot import readme_for
from tests.kit_fixture import FIXTURE
from tests.system import E2E, needs
from tests.test_tournament import leaderboard, run_cli

# One worker of a parallel run plays every kit test (make test: --dist loadfile): they build
# the kits in place, in sample_bots/<kit>, and the clean-rebuild test removes what others use.
pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
NLOHMANN = "/usr/include/nlohmann/json.hpp"
#: Each kit: the tools it needs, the files it needs, and its build outputs (removed to rebuild).
KITS: dict[str, tuple[dict[str, str], dict[str, str], tuple[str, ...]]] = {
    "rust": ({"cargo": "Rust's cargo"}, {}, ("target",)),
    "java": ({"java": "a JDK 17", "mvn": "Maven"}, {}, ("target",)),
    "go": ({"go": "Go"}, {}, ("bin",)),
    "cpp": (
        {"cmake": "CMake", "c++": "a C++17 compiler"},
        {NLOHMANN: "nlohmann-json3-dev"},
        ("build",),
    ),
    "typescript": ({"node": "Node.js", "npm": "npm"}, {}, ("dist", "node_modules")),
    # Runs under arena's own Python: nothing to build, no tool beyond the one running this.
    "python": ({}, {}, ("__pycache__",)),
}
#: A README's commands: ``- Check (builds first): `COMMAND` `` and ``- Play: `COMMAND` ``.
COMMAND_LINE = re.compile(r"^- (Check|Play)\b[^`\n]*`([^`]+)`", re.MULTILINE)


def kit_param(kit: str) -> object:
    tools, files, _ = KITS[kit]
    return pytest.param(kit, marks=needs(tools, f"the {kit} starter kit was", files), id=kit)


PARAMS = [kit_param(kit) for kit in KITS]
EVERY_TOOL = {tool: what for tools, _, _ in KITS.values() for tool, what in tools.items()}
EVERY_FILE = {path: what for _, files, _ in KITS.values() for path, what in files.items()}


def folder(kit: str) -> Path:
    return ROOT / "sample_bots" / kit


Build = Callable[[str], BotSpec]


@pytest.fixture(scope="module")
def built() -> Iterator[Build]:
    """Each kit whose tools are here, built once as arena builds it (its ``bot.toml``)."""
    specs: dict[str, BotSpec] = {}

    def build(kit: str) -> BotSpec:
        if kit not in specs:
            spec = parse_bot(str(folder(kit)))
            build_bot(spec)
            specs[kit] = spec
        return specs[kit]

    yield build


@pytest.mark.parametrize("kit", PARAMS)
def test_the_kit_round_trips_every_message(kit: str, built: Build) -> None:
    spec = built(kit)
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    done = subprocess.run(
        [*spec.argv, "--roundtrip"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=folder(kit),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    back = done.stdout.splitlines()
    assert len(back) == len(lines), done.stderr
    for sent, received in zip(lines, back, strict=True):
        assert json.loads(received) == json.loads(sent), (sent, received)


def run_as_printed(command: str, where: Path) -> str:
    """A README's command run by bash in ``where``, as its reader would: ``arena`` is the one
    of this environment (first on PATH). Its output.

    Raises:
        AssertionError: the command failed.
    """
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", "-c", command], cwd=where, env={**os.environ, "PATH": path},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr


def readme_commands(readme: str) -> dict[str, str]:
    """The Check and Play commands of a bot's README, by name."""
    commands = dict(COMMAND_LINE.findall(readme))
    assert set(commands) == {"Check", "Play"}, readme
    return commands


def check_as_printed(readme: str, bot: str, where: Path) -> None:
    """A bot's README's Check command, run as printed from ``where``: the bot ``bot`` passes
    every check, and says its name."""
    output = run_as_printed(readme_commands(readme)["Check"], where)
    assert output.rstrip().endswith(f"{bot}: all checks passed"), output
    assert f"PASS  handshake  (ready as {bot!r})" in output, output


def play_as_printed(readme: str, bot: str, where: Path) -> None:
    """A bot's README's Play command, run as printed from ``where``: a tournament of the bot
    ``bot`` and the random and greedy Python bots, with no fault."""
    run_as_printed(readme_commands(readme)["Play"], where)
    [played] = (where / "results").iterdir()
    rows = leaderboard(played)
    assert {row["bot"] for row in rows} == {bot, "random_bot", "greedy_bot"}, rows
    assert all(row["games"] and not row["faults"] for row in rows), rows


def copied_readme(kit: str) -> str:
    """The kit's README as a copy of the kit in its own folder would have it."""
    return readme_for((folder(kit) / "README.md").read_text(), kit, folder(kit))


@pytest.mark.parametrize("kit", PARAMS)
def test_the_readmes_check_passes_from_outside_the_repository(
    kit: str, built: Build, tmp_path: Path
) -> None:
    """The Check command as a new bot's README prints it (the kit's folder by its path), run
    from a folder of the reader's own."""
    check_as_printed(copied_readme(kit), built(kit).name, tmp_path)


def test_every_readmes_play_line_is_the_python_kits_but_for_the_folder() -> None:
    """So the Play line tests/test_newbot.py runs from a new Python bot's folder stands for
    all: their opponents ship inside arena, and nothing else names this repository. (Each
    kit's own bot in a tournament: the tournament of every kit below.)"""
    played = {}
    for kit in KITS:
        commands = readme_commands(copied_readme(kit))
        shown = {name: line.replace(str(folder(kit)), "FOLDER") for name, line in commands.items()}
        assert shown["Check"] == "arena check-bot FOLDER", kit
        played[kit] = shown["Play"]
    assert set(played.values()) == {
        'arena tournament --bot FOLDER --bot "python3 -m arena.samples.random_bot" '
        '--bot "python3 -m arena.samples.greedy_bot" --players 3 --deals 10'
    }, played


@pytest.mark.parametrize("kit", PARAMS)
def test_a_clean_rebuild_gives_the_same_files_hash(kit: str, built: Build) -> None:
    spec = built(kit)
    first = files_hash(spec)
    for output in KITS[kit][2]:
        if (folder(kit) / output).exists():  # every output the first build made
            shutil.rmtree(folder(kit) / output)
    build_bot(spec)
    assert files_hash(spec) == first


#: Each kit's own tests, as a maintainer runs them in its folder: the command, how its
#: output says that a test passed, and how that it skipped one (none may: in the
#: repository every fixture they read is there).
OWN_TESTS: dict[str, tuple[list[str], re.Pattern[str], str]] = {
    "go": (
        ["go", "test", "-count=1", "-v", "./..."],
        re.compile(r"^--- PASS", re.MULTILINE),
        "--- SKIP",
    ),
    "rust": (["cargo", "test"], re.compile(r"^test \S+ \.\.\. ok$", re.MULTILINE), " ignored"),
    "typescript": (["npm", "test"], re.compile(r"^ok \d+ - ", re.MULTILINE), "# SKIP"),
    # Without -q: surefire prints a line per passing test, and its summary as a WARNING only
    # when a test was skipped (a failure is an ERROR, and fails the run).
    "java": (
        ["mvn", "-B", "test"],
        re.compile(r"^\[INFO\] .+ -- Time elapsed: \S+ s$", re.MULTILINE),
        "[WARNING] Tests run:",
    ),
    "cpp": (
        ["sh", "-c", "cmake --build build --target kit_test && cd build && ctest -V"],
        re.compile(r"^\d+: (ok: |\d+ of \d+ lines came back the same)", re.MULTILINE),
        "Skipped",
    ),
}


@pytest.mark.parametrize("kit", [kit_param(kit) for kit in OWN_TESTS])
def test_the_kits_own_tests_run_and_pass(kit: str, built: Build) -> None:
    built(kit)  # its packages installed, as a maintainer has them before running its tests
    command, passed, skipped = OWN_TESTS[kit]
    done = subprocess.run(
        command, cwd=folder(kit), capture_output=True, text=True, timeout=600, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    assert skipped not in output.replace(" 0 ignored", ""), output[-4000:]
    assert len(passed.findall(output)) >= 5, output[-4000:]


#: Rule options under which the greedy rules meet most situations: dogs that may play blind
#: or face up, both declarations, trumps that must be broken.
EVERY_RULE = [
    arg
    for rule in ("dog_life=expanded", "blind_dog=true", "upside_dog=true", "rainbow=true",
                 "no_picture=true", "trumps_broken=true")
    for arg in ("--rule", rule)
]  # fmt: skip


#: A move in a replay: the game, the seat, the action asked, the move played.
Played = tuple[str, int, str, str]


def greedy_moves(bot: str, out: Path) -> list[Played]:
    """Every move of ``bot`` (seated as ``greedy``) in 20 four-seat games against three
    seeded random bots under :data:`EVERY_RULE`: (game, seat, action, move), in order."""
    random = "python3 -m arena.samples.random_bot"
    code, output = run_cli(
        "tournament", "--bot", f"greedy={bot}",
        *[arg for i in (1, 2, 3) for arg in ("--bot", f"random{i}={random}")],
        "--players", "4", "--deals", "5", "--jobs", "2", "--seed", "46", *EVERY_RULE,
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, output
    seats: dict[str, int] = {}
    moves: list[Played] = []
    for replay in sorted((out / "replays").glob("*.jsonl")):
        for line in replay.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "game":
                seats = {player["name"]: player["seat"] for player in record["players"]}
            elif record["type"] == "move" and record["seat"] == seats["greedy"]:
                moves.append((replay.stem, record["seat"], record["action"], record["move"]))
    return moves


@pytest.fixture(scope="module")
def python_greedy_moves(tmp_path_factory: pytest.TempPathFactory) -> list[Played]:
    """The moves of arena's own greedy bot, which every kit's greedy strategy ports."""
    return greedy_moves(f"python3 {ROOT / 'arena/samples/greedy_bot.py'}",
                        tmp_path_factory.mktemp("python-greedy"))  # fmt: skip


@pytest.mark.parametrize("kit", PARAMS)
def test_the_kits_bot_plays_the_python_greedy_bots_moves(
    kit: str, built: Build, python_greedy_moves: list[Played], tmp_path: Path
) -> None:
    """The same seeds, the same seats, the same opponents: each kit's sample plays arena's
    greedy bot's every move (its strength figures are that bot's, and a student who moves
    between kits meets the same sample)."""
    built(kit)
    moves = greedy_moves(str(folder(kit)), tmp_path)
    assert len(moves) > 300
    assert len(moves) == len(python_greedy_moves)
    differ = [pair for pair in zip(moves, python_greedy_moves, strict=True) if pair[0] != pair[1]]
    assert not differ, f"{len(differ)} of {len(moves)} moves differ, the first: {differ[:3]}"


@needs(EVERY_TOOL, "the tournament of every kit was", EVERY_FILE)
def test_every_kit_and_the_python_greedy_bot_play_a_tournament_without_a_fault(
    tmp_path: Path, built: Build
) -> None:
    for kit in KITS:
        built(kit)
    bots = [arg for kit in KITS for arg in ("--bot", str(folder(kit)))]
    bots += ["--bot", str(ROOT / "arena/samples/greedy_bot.py")]
    out = tmp_path / "kits"
    code, output = run_cli(
        "tournament", *bots, "--players", "4", "--deals", "1", "--jobs", "2",
        "--seed", "3", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, output
    rows = leaderboard(out)
    assert len(rows) == len(KITS) + 1
    assert all(not row["faults"] for row in rows), rows

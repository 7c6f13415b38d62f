"""The starter kits (sample_bots/<language>): each builds, checks, round-trips and plays.

Real toolchains, real builds, real bot processes. For each kit:

- the build its ``bot.toml`` names, run as arena runs it;
- its typed model round-trips every message of ``protocol/examples/roundtrip.jsonl``
  (the guide's examples and a recorded session with dogs, a blind dog,
  declarations and ``history``): each line printed back is the same JSON;
- ``arena check-bot`` passes;
- a clean rebuild gives the same files hash arena records (a resumed
  tournament or a growing league would otherwise see a "changed" bot);

and a tournament of every kit and the Python greedy bot plays with no fault.
The toolchains follow the system-dependency policy (tests/system.py):
missing, these tests fail under CI and are skipped elsewhere, saying which.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.bots.builds import build_bot
from arena.bots.fingerprint import files_hash
from arena.bots.spec import BotSpec, parse_bot
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
}


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


@pytest.mark.parametrize("kit", PARAMS)
def test_check_bot_passes(kit: str, built: Build) -> None:
    built(kit)
    code, output = run_cli("check-bot", str(folder(kit)))
    assert code == 0, output


@pytest.mark.parametrize("kit", PARAMS)
def test_a_clean_rebuild_gives_the_same_files_hash(kit: str, built: Build) -> None:
    spec = built(kit)
    first = files_hash(spec)
    for output in KITS[kit][2]:
        if (folder(kit) / output).exists():  # every output the first build made
            shutil.rmtree(folder(kit) / output)
    build_bot(spec)
    assert files_hash(spec) == first


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

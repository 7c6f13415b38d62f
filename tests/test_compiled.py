"""The compiled build and the pure-Python fallback are the same program.

``setup.py`` compiles the modules marked ``# arena: compiled with mypyc``
where a C compiler exists; elsewhere (or with ``ARENA_PURE_PYTHON=1``) they
stay Python. Here: the install did compile them and kept them current, and
the engine's Python source, imported on its own in a child process, plays
exactly as the build in use. (The rater's two builds are compared number by
number in ``test_skill.py``.)
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.player import ProcessPlayer
from arena.errors import FaultKind
from arena.game import GameState, Rules, SeededDecks, StackedDecks
from arena.referee import Fault, GameResult
from tests import engine_digest

ROOT = Path(__file__).resolve().parent.parent
MARK = "# arena: compiled with mypyc"
MARKED = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for path in (ROOT / "arena").rglob("*.py")
    if MARK in path.read_text(encoding="utf-8").splitlines()
)
#: Runs in a child: the import system is told to see ``.py`` files only, so
#: the compiled ``.so`` files beside them are ignored.
SOURCE_ONLY = """
import os, sys
from importlib.machinery import FileFinder, SourceFileLoader, SOURCE_SUFFIXES
source_only = FileFinder.path_hook((SourceFileLoader, SOURCE_SUFFIXES))
def arena_source(path):
    if not os.path.abspath(path).startswith(os.path.abspath("arena")):
        raise ImportError("not arena's")  # every other folder: the usual finders
    return source_only(path)
sys.path_hooks.insert(0, arena_source)
sys.path_importer_cache.clear()
import arena.game.state, arena.game.views, arena.game.decks, arena.game.rules
import pytest

from arena.bots.player import ProcessPlayer
from arena.errors import FaultKind
from arena.game import GameState, Rules, SeededDecks, StackedDecks
from arena.referee import Fault, GameResult
from tests import engine_digest
for module in (arena.game.state, arena.game.views, arena.game.decks, arena.game.rules):
    assert module.__file__.endswith(".py"), module.__file__
print(engine_digest.digest(int(sys.argv[1])))
"""


def test_the_engine_and_the_rater_are_marked() -> None:
    """Guards the checks below from passing over an empty list."""
    assert {"arena.game.state", "arena.tournament.skill"} <= set(MARKED)


def test_the_install_compiles_the_marked_modules_where_a_compiler_exists() -> None:
    """``make``'s install builds each marked module with mypyc when it finds a C compiler,
    and builds it again when its source changes (a stale build would be tested instead)."""
    compiler = bool(shutil.which("cc") or shutil.which("gcc"))
    wanted = compiler and not os.environ.get("ARENA_PURE_PYTHON")
    for name in MARKED:
        built = Path(importlib.import_module(name).__file__ or "")
        source = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        assert (built.suffix == ".so") == wanted, built
        if built.suffix == ".so":
            assert built.stat().st_mtime >= source.stat().st_mtime, (
                f"{built.name} is older than {source.name}: run make to build it again"
            )


def test_the_python_source_plays_as_the_build_in_use() -> None:
    """Random games of every rule option, their copies, rebuilt positions, views and
    explanations of illegal moves come out identical from the engine's Python source."""
    games = 60
    child = subprocess.run(
        [sys.executable, "-c", SOURCE_ONLY, str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == engine_digest.digest(games)


def test_the_public_classes_pickle_and_take_subclasses_in_the_build_in_use() -> None:
    """What Python code does with the library's classes works on the compiled build too:
    results and decks pickle (Dask sends them), frozen results stay frozen, and the game
    and the process seat can be subclassed."""
    result = GameResult(
        game_id="g",
        seed=1,
        names=("a", "b"),
        placements=(1, 2),
        winner=0,
        faults={1: Fault(FaultKind.TIMEOUT, "late")},
        replay=[{"type": "game"}],
    )
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.faults[1].detail = "changed"  # type: ignore[misc]
    decks = StackedDecks({("deal", 1): [5, 6]}, SeededDecks(3))
    assert pickle.loads(pickle.dumps(decks)).draw("deal", 1, 4) == decks.draw("deal", 1, 4)

    class Counting(GameState):
        moves = 0

        def apply(self, move: str, seat: int | None = None) -> None:
            Counting.moves += 1
            super().apply(move, seat)

    state, plain, decisions = Counting(Rules(), 7), GameState(Rules(), 7), 0
    while (pending := state.pending) is not None:
        state.apply(pending.legal[0])
        plain.apply(pending.legal[0])
        decisions += 1
    assert Counting.moves == decisions > 0
    assert state.log == plain.log
    assert issubclass(type("Seat", (ProcessPlayer,), {}), ProcessPlayer)

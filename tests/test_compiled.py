"""The compiled build and the pure-Python fallback are the same program.

``setup.py`` compiles the modules marked ``# arena: compiled with mypyc``
where a C compiler exists; elsewhere (or with ``ARENA_PURE_PYTHON=1``) they
stay Python. Here: the install did compile them and kept them current, and
the engine's Python source, imported on its own in a child process, plays
exactly as the build in use. (The rater's two builds are compared number by
number in ``test_skill.py``.)
"""

from __future__ import annotations

import ast
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
from arena.players import ScriptedPlayer, first_legal
from arena.referee import Fault, GameResult, play_game
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
from tests import engine_digest
for module in (arena.game.state, arena.game.views, arena.game.decks, arena.game.rules):
    assert module.__file__.endswith(".py"), module.__file__
print(engine_digest.digest(int(sys.argv[1])))
"""


def test_the_engine_and_the_rater_are_marked() -> None:
    """Guards the checks below from passing over an empty list."""
    assert {"arena.game.state", "arena.results.skill"} <= set(MARKED)


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


def test_no_build_is_left_of_a_module_that_is_not_compiled() -> None:
    """Python would import such a ``.so`` over its source (``make`` removes old builds
    before it installs; a hand-run ``pip install -e .`` does not)."""
    for built in (ROOT / "arena").rglob("*.so"):
        module = ".".join((*built.relative_to(ROOT).parent.parts, built.name.split(".")[0]))
        assert module.removesuffix("__mypyc") in MARKED, f"{built} is a build of no marked module"


def test_a_copy_has_every_attribute_of_the_game() -> None:
    """``GameState.copy`` names each attribute (a compiled class has no ``__slots__`` to
    loop over): every one listed in the source's ``__slots__`` is there, equal."""
    source = (ROOT / "arena" / "game" / "state.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    slots = next(
        node.value
        for node in game.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
    )
    names = ast.literal_eval(slots)
    assert len(names) > 30
    state = GameState(Rules(players=5, blind_dog=True), 11)
    for _ in range(40):
        assert state.pending is not None
        state.apply(state.pending.legal[0])
    twin = state.copy(record=True)
    for name in names:
        assert getattr(twin, name) == getattr(state, name), name


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


def test_what_python_code_hands_the_compiled_modules_is_taken_as_before() -> None:
    """A compiled module checks its annotations at run time; where callers may hand it
    other shapes, it takes them as the Python build did: a player's answer that is not a
    string is its fault, and a position's pairs may come as lists (as JSON gives them)."""
    wrong = ScriptedPlayer("wrong", lambda request: 42)  # type: ignore[arg-type,return-value]
    players = [wrong, *(ScriptedPlayer(f"p{i}", first_legal) for i in range(3))]
    result = play_game(players, Rules(), seed=3, game_id="g")
    assert result.faults[0].kind is FaultKind.ILLEGAL
    assert result.faults[0].detail.startswith("42 is not a move: expected one of ")

    state = GameState(Rules(), 5, record=False)
    while (pending := state.pending) is None or pending.action != "play" or not state.trick:
        assert pending is not None
        state.apply(pending.legal[0])
    as_json = GameState.from_position(
        state.rules,
        state.decks,
        hand=state.hand,
        dealer=state.dealer,
        trump="CHDS"[state.trump],
        turn_up=state.turn_up,
        statuses=state.statuses,
        blind=state.blind,
        hands=state.hands,
        tricks=state.tricks,
        played=[list(pair) for pair in state.played],
        trick=[list(pair) for pair in state.trick],
        trick_leader=state.order[0],
        to_act=pending.seat,
        zero_event=state.zero_event,
        had_dog=state.had_dog,
        out_hand=state.out_hand,
    )
    assert as_json.legal_moves() == engine_digest.rebuild(state).legal_moves() != []
    assert as_json.played == state.played and as_json.trick == state.trick

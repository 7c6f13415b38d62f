"""``arena new-bot``: a kit copied under a new name, from a checkout and from an install.

A new bot is what a new author builds first, so each language's copy is
built with its real toolchain and checked by ``arena check-bot`` (Go,
TypeScript, Java, C++), but for Rust, whose release build is slow: its
renamed crate is type-checked (``cargo check --locked``, the lock file
included). A new Python bot, which needs no
toolchain, goes the whole way a new author goes: ``arena new-bot``, then its
README's Check and Play commands as printed, from the author's own folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.spec import BUILD_CACHES, parse_bot
from arena.newbot import KITS, LANGUAGES, MAINTAINERS_ONLY, RENAMES, new_bot
from tests.system import E2E, needs
from tests.test_kits import KITS as KIT_TOOLS
from tests.test_kits import check_as_printed, play_as_printed, run_as_printed
from tests.test_tournament import run_cli

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent


def test_unknown_language_and_a_used_folder_are_one_line_errors(tmp_path: Path) -> None:
    code, output = run_cli("new-bot", "cobol", str(tmp_path / "x"))
    assert code == 1
    kits = "agent, cpp, go, java, python, rust, typescript"
    assert output == f"Error: no starter kit for 'cobol'; the kits: {kits}\n"
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine")
    code, output = run_cli("new-bot", "go", str(used))
    assert code == 1
    assert output == f"Error: {used} exists and is not an empty folder: choose a new one\n"
    assert (used / "notes.txt").read_text() == "mine", "nothing of the folder was touched"
    code, output = run_cli("new-bot", "go", str(tmp_path / "my bot"))
    assert code == 1 and "does not fit the rule" in output and "--name" in output
    assert not (tmp_path / "my bot").exists()


@pytest.mark.parametrize(
    ("said", "kit"),
    [("Rust", "rust"), ("rs", "rust"), ("TS", "typescript"), ("c++", "cpp"), ("CPP", "cpp"),
     ("golang", "go"), ("Go", "go"), ("Java", "java"), ("py", "python"), ("Python3", "python")],
)  # fmt: skip
def test_a_language_is_known_in_any_case_and_by_its_common_names(
    said: str, kit: str, tmp_path: Path
) -> None:
    code, output = run_cli("new-bot", said, str(tmp_path / "b"))
    assert code == 0, output
    assert (tmp_path / "b" / "bot.toml").read_text() != (KITS / kit / "bot.toml").read_text()
    left_out = {*BUILD_CACHES, *MAINTAINERS_ONLY}
    assert {p.name for p in (tmp_path / "b").iterdir()} == {
        p.name for p in (KITS / kit).iterdir() if p.name not in left_out
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_copy_takes_the_new_name_everywhere_the_kit_names_itself(
    language: str, tmp_path: Path
) -> None:
    folder = tmp_path / "Deep_Thought.2"
    code, output = run_cli("new-bot", language, str(folder))
    assert code == 0, output
    assert parse_bot(str(folder)).name == "Deep_Thought.2"
    for rename in RENAMES[language]:
        new = rename.form("Deep_Thought.2")
        assert re.fullmatch(r"[A-Za-z0-9._/-]+", new)
        for pattern in rename.files:
            for path in folder.glob(pattern):
                assert rename.old not in path.read_text(), path
        assert any(new in path.read_text() for p in rename.files for path in folder.glob(p))
    kept = {path.relative_to(folder) for path in folder.rglob("*") if path.is_file()}
    assert not any(BUILD_CACHES & set(path.parts) for path in kept), "no build outputs copied"
    original = {
        path.relative_to(KITS / language)
        for path in (KITS / language).rglob("*")
        if path.is_file() and not BUILD_CACHES & set(path.relative_to(KITS / language).parts)
    }
    assert kept == original - set(map(Path, MAINTAINERS_ONLY)), "the kit's sources only"
    readme = (folder / "README.md").read_text()
    assert f"sample_bots/{language}" not in readme and str(folder) in readme


def built_and_checked(language: str, folder: Path) -> None:
    code, output = run_cli("new-bot", language, str(folder))
    assert code == 0, output
    code, output = run_cli("check-bot", str(folder), "--games", "2")
    assert code == 0, output
    assert output.rstrip().endswith(f"{folder.name}: all checks passed")
    assert f"PASS  handshake  (ready as {folder.name!r})" in output, "it says its new name"


@pytest.mark.parametrize(
    "language",
    [
        pytest.param(kit, marks=needs(KIT_TOOLS[kit][0], f"a new {kit} bot was"), id=kit)
        for kit in ("go", "typescript", "java")
    ],
)
def test_a_new_bot_builds_and_passes_check_bot(language: str, tmp_path: Path) -> None:
    built_and_checked(language, tmp_path / f"my-{language}-bot")


def test_a_new_python_bots_readme_commands_pass_from_its_authors_folder(tmp_path: Path) -> None:
    """``arena new-bot python`` run as an author runs it (``arena`` of this environment on
    PATH, a folder outside the repository), then the Check and Play commands the copy's
    README prints: the bot passes every check under its new name, and plays the random
    and greedy Python bots that ship inside arena."""
    run_as_printed(f"arena new-bot python {tmp_path / 'mybot'}", tmp_path)
    readme = (tmp_path / "mybot" / "README.md").read_text()
    check_as_printed(readme, "mybot", tmp_path)
    play_as_printed(readme, "mybot", tmp_path)


def toolchain_reads(language: str, folder: Path, command: list[str]) -> str:
    """A new ``language`` bot in ``folder``, read by its toolchain's ``command``; its output."""
    new_bot(language, folder)
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs(KIT_TOOLS["rust"][0], "a new Rust bot's crate was")
def test_a_new_rust_bots_renamed_crate_compiles_with_its_lock_file(tmp_path: Path) -> None:
    """``cargo check --locked``: the code type-checks under the new package name (its
    library keeps its own) against the renamed lock file; no code is generated."""
    toolchain_reads("rust", tmp_path / "mybot", ["cargo", "check", "--locked", "--release"])
    assert 'name = "mybot"' in (tmp_path / "mybot" / "Cargo.lock").read_text()


@needs(KIT_TOOLS["cpp"][0], "a new C++ bot was", KIT_TOOLS["cpp"][1])
def test_a_new_cpp_bot_builds_under_its_project_name_and_passes_check_bot(
    tmp_path: Path,
) -> None:
    """Built as arena builds it (its bot.toml's CMake commands), not only configured."""
    built_and_checked("cpp", tmp_path / "my-bot")
    assert "my_bot" in (tmp_path / "my-bot" / "build" / "CMakeCache.txt").read_text()


def test_an_install_carries_the_kits_and_schemas_without_build_outputs(tmp_path: Path) -> None:
    """The package as a wheel holds it (setup.py's build_py), and new-bot and the schemas
    work from there, with no checkout beside it."""
    lib = tmp_path / "lib"
    environment = {**os.environ, "ARENA_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=ROOT, capture_output=True, text=True, env=environment, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for language in LANGUAGES:
        assert (lib / "arena" / "kits" / language / "bot.toml").is_file()
    # The pages' scripts too: the report's viewer, and the table a person plays on.
    assert (lib / "arena" / "report" / "viewer.js").is_file()
    assert (lib / "arena" / "human" / "table.js").is_file()
    copied = [path.relative_to(lib) for path in (lib / "arena" / "kits").rglob("*")]
    assert not [path for path in copied if BUILD_CACHES & set(path.parts)]
    script = (
        "import sys; from pathlib import Path; import arena.newbot, arena.protocol as p;"
        "print(arena.newbot.KITS); print(p.SCHEMA_DIR); p.load_schema('referee_to_bot');"
        "print(arena.newbot.new_bot('go', Path(sys.argv[1])));"
        "import arena.human.page; assert 'ArenaViewer' in arena.human.page.table_page('x')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "fresh")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(lib)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    kits, schemas, name = done.stdout.split()
    assert Path(kits) == lib / "arena" / "kits" and Path(schemas) == lib / "arena" / "schemas"
    assert name == "fresh" and (tmp_path / "fresh" / "go.mod").read_text().startswith(
        "module arena/bots/fresh"
    )


def test_setup_leaves_out_the_same_build_caches_as_arena() -> None:
    text = (ROOT / "setup.py").read_text()
    [listed] = re.findall(r"^BUILD_CACHES = \((.*)\)$", text, re.M)
    assert set(re.findall(r'"([^"]+)"', listed)) == set(BUILD_CACHES)


def test_a_name_holding_the_kits_own_name_is_kept_whole(tmp_path: Path) -> None:
    """The kit's bot name inside the new name is not renamed twice (java-greedy-v2)."""
    folder = tmp_path / "jg"
    assert new_bot("java", folder, "java-greedy-v2") == "java-greedy-v2"
    assert parse_bot(str(folder)).name == "java-greedy-v2"
    assert "target/java-greedy-v2.jar" in (folder / "bot.toml").read_text()
    assert "java-greedy.jar" not in (folder / "README.md").read_text()
    main = (folder / "src/main/java/arena/bot/Main.java").read_text()
    assert 'Message.Ready("java-greedy-v2", ' in main and "java-greedy-v2.jar" in main
    assert "java-greedy.jar" not in main and "java-greedy-v2-v2" not in main


def test_a_go_bot_may_share_a_standard_packages_name(tmp_path: Path) -> None:
    new_bot("go", tmp_path / "time")
    assert (tmp_path / "time" / "go.mod").read_text().startswith("module arena/bots/time\n")


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    code, output = run_cli("new-bot", "go", str(tmp_path / "afile" / "sub"))
    assert code == 1 and output.count("\n") == 1
    assert output.startswith(f"Error: cannot write the new bot to {tmp_path / 'afile' / 'sub'}")
    code, output = run_cli("new-bot", "javascript", str(tmp_path / "j"))
    assert code == 1 and "sample_bots/javascript/random_bot.js" in output


def test_a_build_that_cannot_start_or_fails_is_one_line_naming_its_log(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('name = "b"\nbuild = "no-such-toolchain-x build"\n'
                                       'run = "out/bot"\n')  # fmt: skip
    code, output = run_cli("check-bot", str(tmp_path))
    assert code == 1
    assert output == (
        "building b (no-such-toolchain-x build; first build here) ... failed\n"
        "Error: bot 'b': its build needs 'no-such-toolchain-x', which is not installed "
        "(not on PATH): see the bot's README for what it needs\n"
    )
    (tmp_path / "bot.toml").write_text(
        'name = "b"\nbuild = "sh -c \'echo first clue; echo last words >&2; exit 3\'"\n'
        'run = "out/bot"\n'
    )
    code, output = run_cli("check-bot", str(tmp_path))
    assert code == 1 and output.count("\n") == 2, output
    assert output.startswith("building b (sh -c 'echo first clue; ")
    assert "failed (exit 3), ending 'last words'; its whole output: " in output
    log = Path(output.rsplit(": ", 1)[1].strip())
    assert "first clue" in log.read_text() and "last words" in log.read_text()
    log.unlink()

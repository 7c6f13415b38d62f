"""``arena new-bot``: a starter kit copied to a new folder, the bot's name filled in.

The kits are ``sample_bots/<language>/`` in a checkout. They ship inside the
package too (``arena/kits``, copied there without build outputs when a wheel
is built: setup.py), so ``arena new-bot`` works after a plain ``pip install``. A copy
leaves out build outputs and caches (:data:`arena.bots.spec.BUILD_CACHES`),
and takes the new name everywhere the kit names itself: its ``bot.toml``
and the project files of its language, each in the form that language
allows (a crate, a Maven artifact, a Go module, a CMake project, an npm
package), and the name its bot gives in ``ready``. A lock file that
records the project's own name is renamed in step, so that a locked build
still accepts it. The copy's README names the copy's folder, so that its
commands work outside a checkout (:func:`readme_for`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena import shipped
from arena.bots.spec import BUILD_CACHES, MANIFEST, check_name
from arena.errors import ArenaError

#: The kits (see the module).
KITS = shipped("kits", "sample_bots")


def _lower(name: str, allowed: str, separator: str) -> str:
    """``name`` in lower case, other characters than ``allowed`` made ``separator``,
    starting with a letter (``bot`` put in front where it does not)."""
    mapped = re.sub(f"[^{allowed}]", separator, name.lower())
    return mapped if mapped[:1].isalpha() else f"bot{separator}{mapped}"


def crate_name(name: str) -> str:
    """A Rust package name: ASCII letters, digits, ``-`` and ``_``, from a letter."""
    return _lower(name, "a-z0-9_-", "-")


def maven_artifact(name: str) -> str:
    """A Maven artifactId (also the jar's name): lower case, digits, ``-`` and ``.``."""
    return _lower(name, "a-z0-9.-", "-")


def go_module(name: str) -> str:
    """A Go module path under ``arena/bots/`` (a bare ``time`` or ``log`` would be taken for
    the standard library's package): lower case letters, digits, ``-``, ``_``, ``.``."""
    return f"arena/bots/{_lower(name, 'a-z0-9._-', '-')}"


def cmake_project(name: str) -> str:
    """A CMake project name that is also a C identifier: letters, digits, ``_``."""
    mapped = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return mapped if mapped[:1].isalpha() else f"bot_{mapped}"


def npm_package(name: str) -> str:
    """An npm package name: lower case, URL-safe, not starting with ``.`` or ``_``."""
    return _lower(name, "a-z0-9._-", "-")


@dataclass(frozen=True)
class Rename:
    """Where a kit names itself: in ``files`` (relative paths), the text ``old`` becomes
    ``form(name)``."""

    files: tuple[str, ...]
    old: str
    form: Callable[[str], str]


def jar_name(name: str) -> str:
    """The jar Maven builds for the bot (its artifactId, see :func:`maven_artifact`)."""
    return f"{maven_artifact(name)}.jar"


def _as_is(name: str) -> str:
    """The bot's name as it is: what the bot says in its ``ready`` (any bot name is a
    valid string literal in every kit's language)."""
    return name


#: Each kit's own names, besides its ``bot.toml`` name: its project's, and last (so that no
#: other rename can match inside the new name) the name its bot gives in ``ready`` (a
#: renamed kit bot said ``rust-greedy`` still).
RENAMES: dict[str, tuple[Rename, ...]] = {
    # A trained agent, through the bridge: named in ready by its run line.
    "agent": (Rename((MANIFEST,), '--name "trained"', _as_is),),
    "cpp": (
        Rename(("CMakeLists.txt",), "arena_cpp_bot", cmake_project),
        Rename(("src/main.cpp",), 'kName = "cpp-greedy"', _as_is),
    ),
    "go": (
        Rename(("go.mod", "*.go", "*/*.go"), "arena/bots/gobot", go_module),
        Rename(("session.go",), 'botName    = "go-greedy"', _as_is),
        Rename(("bot_test.go",), '{"type":"ready","name":"go-greedy"', _as_is),
    ),
    "java": (
        Rename(("pom.xml", MANIFEST, "README.md"), "java-greedy", maven_artifact),
        Rename(("src/main/java/arena/bot/Main.java",), "java-greedy.jar", jar_name),
        Rename(("src/main/java/arena/bot/Main.java",), 'Message.Ready("java-greedy"', _as_is),
    ),
    # A Python bot has no project file: its name is only in its bot.toml and its ready.
    "python": (Rename(("bot.py",), 'NAME = "python-greedy"', _as_is),),
    "rust": (
        Rename(("Cargo.toml", "Cargo.lock"), 'name = "arena-bot"', crate_name),
        Rename(("src/main.rs",), 'const NAME: &str = "rust-greedy"', _as_is),
    ),
    "typescript": (
        Rename(
            ("package.json", "package-lock.json"),
            '"name": "arena-typescript-greedy"',
            npm_package,
        ),
        Rename(("src/bot.ts",), 'const NAME = "typescript-greedy"', _as_is),
    ),
}
#: A kit's notes for its maintainers (how to update its pins, how its tests work): a new
#: bot's author needs its README only.
MAINTAINERS_ONLY = ("CONTRIBUTING.md",)
#: Other names people give the kits' languages (any case: ``Rust``, ``TS``, ``C++``).
ALIASES = {
    "c++": "cpp",
    "rs": "rust",
    "golang": "go",
    "ts": "typescript",
    "jdk": "java",
    "py": "python",
    "python3": "python",
}
LANGUAGES = tuple(sorted(RENAMES))
#: Where to start in the languages with sample bots but no kit.
_ELSEWHERE = {
    "javascript": " (for JavaScript, start from sample_bots/javascript/random_bot.js)",
    "c": " (for C, start from sample_bots/c/random_bot.c)",
}
_MANIFEST_NAME = re.compile(r'^name = "[^"]*"$', re.M)


class NewBotError(ArenaError):
    """``arena new-bot`` cannot do what it was asked: unknown language, folder in use, bad name."""


def new_bot(language: str, folder: Path, name: str | None = None) -> str:
    """Copy the ``language`` kit to ``folder`` (new or empty) as the bot ``name``; the name.

    ``name`` defaults to the folder's name.

    Raises:
        NewBotError: for an unknown language, a folder that exists and is not
            empty, or a name that cannot name a bot.
    """
    language = ALIASES.get(language.lower(), language.lower())
    if language not in RENAMES:
        hint = _ELSEWHERE.get(language, "")
        raise NewBotError(
            f"no starter kit for {language!r}; the kits: {', '.join(LANGUAGES)}{hint}"
        )
    kit = KITS / language
    if not (kit / MANIFEST).is_file():
        raise NewBotError(f"the {language} kit is missing from this install ({kit})")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise NewBotError(f"{folder} exists and is not an empty folder: choose a new one")
    where = "new-bot" if name is not None else f"new-bot {folder} (or give --name)"
    bot = check_name(name if name is not None else folder.resolve().name, where)
    try:
        _copy(kit, folder, language, bot)
    except OSError as error:
        raise NewBotError(f"cannot write the new bot to {folder}: {error.strerror}") from None
    return bot


def _copy(kit: Path, folder: Path, language: str, bot: str) -> None:
    """The kit copied to ``folder`` and renamed ``bot`` (see :func:`new_bot`)."""
    left_out = shutil.ignore_patterns(*BUILD_CACHES, *MAINTAINERS_ONLY)
    shutil.copytree(kit, folder, ignore=left_out, dirs_exist_ok=True)
    readme = folder / "README.md"
    if readme.is_file():
        text = readme.read_text(encoding="utf-8")
        readme.write_text(readme_for(text, language, folder), encoding="utf-8")
    for rename in RENAMES[language]:
        new = rename.old.replace(_own_name(rename.old), rename.form(bot))
        for pattern in rename.files:
            for path in sorted(folder.glob(pattern)):
                path.write_text(
                    path.read_text(encoding="utf-8").replace(rename.old, new), encoding="utf-8"
                )
    # Last: a rename above may match the kit's bot name inside the new name.
    manifest = folder / MANIFEST
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(_MANIFEST_NAME.sub(f'name = "{bot}"', text, count=1), encoding="utf-8")


def readme_for(text: str, language: str, folder: Path) -> str:
    """A kit's README as its copy in ``folder`` has it: the commands name the kit's folder,
    now ``folder``, and run ``arena`` rather than the checkout's ``.venv/bin/arena`` (an
    author runs it from the environment arena is installed in)."""
    text = text.replace(f"sample_bots/{language}", str(folder))
    return text.replace("`.venv/bin/arena ", "`arena ")


def _own_name(old: str) -> str:
    """The name inside a rename's text: ``name = "x"`` and ``"name": "x"`` name ``x``."""
    quoted = re.findall(r'"([^"]*)"', old)
    return quoted[-1] if quoted else old

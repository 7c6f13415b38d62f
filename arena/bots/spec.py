"""BOT arguments: ``NAME=COMMAND``, ``COMMAND`` or a folder with a ``bot.toml``.

A command is split like a shell would (shlex) and later run without a shell,
in a scratch folder; so every relative path in it is resolved here, against
the folder arena was started in or, for a ``bot.toml``, the manifest's
folder. A bot that cannot be started at all (no such program or file) is an
error now, before any game runs.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena import schemas
from arena.bots.sandbox import ResourceLimits, SandboxError
from arena.errors import BotError

MANIFEST = "bot.toml"
#: Folders of build outputs and caches in a bot's folder: not part of what the bot is made
#: of (its hash leaves them out) nor of a starter kit's copy.
BUILD_CACHES = frozenset(
    {"target", "node_modules", "build", "dist", "bin", "__pycache__", ".git", ".gradle"}
)
#: A bot's name names its log file and shows in tables, pages and commands:
#: so it is short, ASCII, needs no quoting, and cannot be a path like ``..``.
NAME_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}$"
NAME_RULE = "1 to 64 letters, digits, '_', '.' or '-', not starting with '.' or '-'"
_NAME = re.compile(NAME_PATTERN)
#: What ``NAME=`` looks like before the name is checked (no space, slash or quote).
_NAME_LIKE = re.compile(r"^[^\s/=\"']+$")
#: Extensions of files a bot command names (scripts, archives): such a token must exist.
_FILE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".exe")
#: Interpreter names replaced by arena's own interpreter: version managers put a
#: shim there (pyenv's costs ~60 ms a start), and a bot should get a real Python.
_PYTHON_NAMES = ("python", "python3")


@dataclass(frozen=True)
class BotSpec:
    """A bot ready to start: its display name, the resolved argv, and where it came from."""

    name: str
    argv: tuple[str, ...]
    source: str
    build: tuple[str, ...] | None = None
    home: Path | None = None
    named: bool = False
    #: Resource limit overrides from the manifest's [limits] table (see sandbox.ResourceLimits).
    limits: tuple[tuple[str, int], ...] = ()

    @property
    def command(self) -> str:
        """The resolved command as one shell-quoted line, for logs and records."""
        return shlex.join(self.argv)


def parse_bot(text: str, base: Path | None = None) -> BotSpec:
    """Read one BOT argument.

    Args:
        text: ``NAME=COMMAND``, ``COMMAND`` or a folder holding ``bot.toml``.
        base: folder relative paths are resolved against (default: cwd).

    Raises:
        BotError: for an empty command, a bad manifest, a missing program
            or file.
    """
    base = (base or Path.cwd()).resolve()
    name = ""
    command = text.strip()
    if is_person(command):
        raise BotError(
            f"{text!r} seats a person, which only `arena play` does (a bot folder named "
            "human: write ./human)"
        )
    head, sep, rest = command.partition("=")
    if sep and _NAME_LIKE.match(head) and not os.path.exists(base / command):
        name, command = check_name(head), rest.strip()
    if not command:
        raise BotError(f"bot {text!r} has no command")
    folder = (base / command).expanduser()
    if folder.is_dir():
        return _from_manifest(folder, name, text)
    argv = _resolve(_split(command, text), base, name or text)
    return BotSpec(name=name or _derive_name(argv), argv=argv, source=text, named=bool(name))


#: The BOT argument that seats a person (``human``, or ``human:NAME``) in ``arena play``.
PERSON = "human"


def is_person(text: str) -> bool:
    """Whether a BOT argument names a person: ``human`` or ``human:NAME``, not ``./human``."""
    return text == PERSON or text.startswith(PERSON + ":")


def parse_bots(texts: list[str], base: Path | None = None) -> list[BotSpec]:
    """Read several BOT arguments, giving each a unique name.

    A name derived from a command that is already taken gets a number
    (``random_bot``, ``random_bot-2``), so the same bot can play itself;
    names given explicitly must be unique.

    Raises:
        BotError: as :func:`parse_bot`, or for two bots given the same name.
    """
    specs = [parse_bot(text, base) for text in texts]
    names = unique_names([(spec.name, spec.named) for spec in specs])
    return [replace(spec, name=name) for spec, name in zip(specs, names, strict=True)]


def unique_names(
    entries: Sequence[tuple[str, bool]],
    advice: str = "give each its own NAME=COMMAND",
    what: str = "bots",
) -> list[str]:
    """Each seat's name, unique: ``entries`` are (name, given explicitly) in seat order.

    A derived name that is taken gets a number (``random_bot-2``); a name
    given twice explicitly is refused, as nothing says which seat is which
    (the error names ``what`` they are and ends with ``advice``).

    Raises:
        BotError: for a name given explicitly twice.
    """
    explicit = [name for name, named in entries if named]
    taken: set[str] = set()
    unique = []
    for base_name, named in entries:
        name = base_name
        if named:
            if explicit.count(name) > 1:
                raise BotError(f"two {what} are named {name!r}: {advice}")
        else:
            number = 1
            while name in taken or name in explicit:
                number += 1
                name = f"{base_name}-{number}"
        taken.add(name)
        unique.append(name)
    return unique


def check_name(name: str, where: str = "") -> str:
    """``name`` if it can name a bot: it names the bot's log file and shows in pages.

    Raises:
        BotError: for a name that breaks :data:`NAME_RULE`.
    """
    if not _NAME.match(name):
        shown = name if len(name) <= 40 else f"{name[:40]}... ({len(name)} characters)"
        prefix = f"{where}: " if where else ""
        raise BotError(f"{prefix}bot name {shown!r} does not fit the rule: {NAME_RULE}")
    return name


def manifest_problem(manifest: dict[str, Any]) -> str | None:
    """What is wrong with a ``bot.toml``'s data, in one line (an unknown key, a wrong
    type, a limit out of range), or None: every reader of a manifest asks this."""
    problem = schemas.problem(manifest_schema(), manifest, patterns=NAME_PATTERNS)
    if problem is not None:
        return problem
    try:
        ResourceLimits().merged(manifest.get("limits", {}))
    except SandboxError as error:
        return f"limits: {error}"
    return None


def _from_manifest(folder: Path, name: str, text: str) -> BotSpec:
    path = folder / MANIFEST
    if not path.is_file():
        raise BotError(f"bot {text!r} is a folder without a {MANIFEST}")
    try:
        manifest = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BotError(f"{path}: not a valid TOML manifest: {error}") from None
    problem = manifest_problem(manifest)
    if problem is not None:  # a typo (nme = ...) is named, not ignored
        raise BotError(f"{path}: {problem}")
    run: str = manifest["run"]
    build_text: str | None = manifest.get("build")
    manifest_name: str | None = manifest.get("name")
    limits: dict[str, Any] = manifest.get("limits", {})
    display = name or manifest_name or _fitted(folder.name)
    # The build runs in the manifest's folder, so its command needs no resolving.
    build = _split(build_text, str(path)) if build_text else None
    # The program may be produced by the build, so it is checked after building.
    argv = _resolve(_split(run, str(path)), folder, display, check_files=build is None)
    return BotSpec(
        name=display,
        argv=argv,
        source=text,
        build=build,
        home=folder,
        limits=tuple(sorted(limits.items())),
    )


#: What a name that breaks :data:`NAME_PATTERN` is told, in a file checked by its schema.
NAME_PATTERNS = {NAME_PATTERN: f"bot name {{value!r}} does not fit the rule: {NAME_RULE}"}


def manifest_schema() -> dict[str, Any]:
    """The JSON Schema (draft 7) of a bot folder's ``bot.toml``: ``run`` and, optionally,
    ``name``, ``build`` and ``[limits]`` (whose keys and values ResourceLimits checks)."""
    command = {"type": "string", "pattern": r"\S"}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "bot.toml",
        "type": "object",
        "properties": {
            "name": {"type": "string", "pattern": NAME_PATTERN, "description": NAME_RULE},
            "run": {**command, "description": "The bot's command, run in a scratch folder."},
            "build": {**command, "description": "Run once per change, in the bot's folder."},
            "limits": {"type": "object", "description": "Resource limits, e.g. memory_mb."},
        },
        "required": ["run"],
        "additionalProperties": False,
    }


def _split(command: str, where: str) -> tuple[str, ...]:
    try:
        argv = tuple(shlex.split(command))
    except ValueError as error:
        raise BotError(f"bot {where!r}: cannot split the command: {error}") from None
    if not argv:
        raise BotError(f"bot {where!r} has an empty command")
    return argv


def _resolve(
    argv: tuple[str, ...], base: Path, name: str, *, check_files: bool = True
) -> tuple[str, ...]:
    program, *args = argv
    resolved_args = [_resolve_path(arg, base) for arg in args]
    if check_files:
        for arg, original in zip(resolved_args, args, strict=True):
            if original.endswith(_FILE_SUFFIXES) and not os.path.exists(arg):
                raise BotError(f"bot {name!r}: no such file: {original}")
    if program in _PYTHON_NAMES:
        return (sys.executable, *resolved_args)
    if "/" in program:
        # A path with a slash names a file under base, even one the build has yet to make.
        path = program if os.path.isabs(program) else str((base / program).resolve())
        if check_files and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            why = "not executable" if os.path.exists(path) else "no such file"
            raise BotError(f"bot {name!r}: cannot start {program}: {why}")
        if _asks_for_python(path):
            return (sys.executable, path, *resolved_args)
        return (path, *resolved_args)
    found = shutil.which(program)
    if found is None:
        if check_files:
            raise BotError(f"bot {name!r}: cannot start {program}: no such program on PATH")
        return (program, *resolved_args)
    return (found, *resolved_args)


def _asks_for_python(path: str) -> bool:
    """Whether a script's first line runs "whatever python is on PATH" (``#!/usr/bin/env python3``).

    Such a script gets arena's own interpreter, as ``python3 bot.py`` does:
    the PATH's python may be a virtual environment's, whose base install
    the sandbox cannot see, or a version manager's shim.
    """
    try:
        with open(path, "rb") as script:
            first = script.readline(200)
    except OSError:
        return False
    words = first.removeprefix(b"#!").split() if first.startswith(b"#!") else []
    return (
        len(words) == 2
        and words[0].endswith(b"/env")
        and words[1].decode(errors="replace") in _PYTHON_NAMES
    )


def _resolve_path(token: str, base: Path) -> str:
    """An absolute path for a token naming an existing file or folder under ``base``
    (and for ``FILE:NAME`` naming an existing file, as ``python -m arena.bridge
    agent.py:policy`` does: the file resolved, the name kept)."""
    if token.startswith("-") or os.path.isabs(token) or any(c.isspace() for c in token):
        return token
    head, colon, name = token.rpartition(":")
    if colon and head and name and (base / head).is_file():
        return f"{(base / head).resolve()}:{name}"
    candidate = base / token
    if candidate.exists() or token.endswith(_FILE_SUFFIXES) or token.startswith("."):
        return str(candidate.resolve())
    return token


def _derive_name(argv: tuple[str, ...]) -> str:
    """The stem of the last file the command names (else the last part of the module a
    ``python3 -m`` runs, else the program's stem), fitted to :data:`NAME_RULE`: other
    characters become ``-``, and it is cut to 64. ``python3 -m arena.samples.greedy_bot``
    is ``greedy_bot``, as ``python3 arena/samples/greedy_bot.py`` is."""
    stem = next((Path(t).stem for t in reversed(argv[1:]) if os.path.isfile(t)), None)
    if stem is None and "-m" in argv[1:-1]:
        stem = argv[argv.index("-m", 1) + 1].rpartition(".")[2]
    return _fitted(stem or Path(argv[0]).stem)


def _fitted(text: str) -> str:
    """``text`` made a name that fits :data:`NAME_RULE`, with room for a ``-N`` suffix."""
    return re.sub(r"[^A-Za-z0-9_.\-]", "-", text).lstrip(".-")[:60] or "bot"

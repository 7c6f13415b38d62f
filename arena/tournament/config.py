"""A tournament's configuration: a TOML file, overridden by command-line flags.

```toml
name = "class-2026"            # results go to results/<name>
players = 4                    # seats per table
deals = 10                     # duplicate deal sets per table
jobs = 2                       # games at once
pin = true                     # each game's referee and bots on one CPU (default)
dask = "tcp://head:8786"       # optional: play on a Dask cluster ("local:4": 4 local workers)
seed = 7
move_ms = 1000                 # also bank_ms, startup_ms
gauntlet = "alice"             # optional: alice sits at every table
schedule = "sampled"           # round-robin (default), sampled or swiss
rounds = 12                    # sampled/swiss: the most rounds
stop_top = 3                   # sampled/swiss: stop once the top 3 are ordered...
stop_confidence = 0.95         # ...each adjacent pair with this probability
max_games = 200000             # refuse a plan larger than this
skip_broken = true             # play on without broken bots (default: refuse the field)
isolate_rotations = true       # bots of strangers: no process sees a deal set twice

[rules]                        # any rule option
dog_life = "expanded"

[limits]                       # resource limits for every bot
memory_mb = 512

[[bots]]
name = "alice"
command = "python3 bots/alice.py"   # relative to this file's folder
limits = { cpu_s = 120 }            # optional, this bot only
```
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.spec import BotSpec, parse_bot, parse_bots
from arena.errors import ArenaError, BotError
from arena.files import check_makeable
from arena.tournament.config_schema import problems

#: Deal sets per table when neither a flag nor the config file says.
DEFAULT_DEALS = 5


class ConfigError(ArenaError):
    """A tournament configuration file that cannot be used."""


def load_config(path: Path) -> dict[str, Any]:
    """Read a tournament TOML file and check it against the config schema.

    Raises:
        ConfigError: for an unreadable file, text that is not UTF-8, bad TOML,
            or the first problem the schema finds (an unknown key at any
            level, a value of the wrong type or out of range), in one line.
    """
    data = read_toml(path)
    problem = problems(data)
    if problem is not None:
        raise ConfigError(f"{path}: {problem}")
    return data


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file a person wrote, as data (a config: a tournament's, a server's).

    Raises:
        ConfigError: an unreadable file, text that is not UTF-8 or bad TOML, in one line.
    """
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path} is not UTF-8 text (byte {error.start}): save it as UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None


def config_bots(data: dict[str, Any], path: Path) -> list[BotSpec]:
    """The ``[[bots]]`` of a config file, commands resolved against the file's folder.

    Raises:
        BotError: for a bot that cannot be started at all.
    """
    specs = []
    for entry in data.get("bots", []):  # shapes, names and limits: checked by the schema
        command, name = entry["command"], entry.get("name")
        spec = parse_bot(f"{name}={command}" if name else command, path.parent)
        limits = entry.get("limits", {})
        specs.append(replace(spec, limits=tuple(sorted({**dict(spec.limits), **limits}.items()))))
    return _unique(specs)


def tournament_name(name: str | None, data: dict[str, Any], config_file: Path | None) -> str:
    """The tournament's name: ``--name``, the config's ``name``, the config file's stem,
    or ``tournament``.

    It names results/<name> unless ``--out`` (or ``out``) says where
    results go; :func:`results_folder` checks it then.
    """
    return str(name or data.get("name") or (config_file.stem if config_file else "tournament"))


def results_folder(label: str, out: Path | None, data: dict[str, Any]) -> Path:
    """Where results go: ``--out``, the config's ``out``, else ``results/<label>``.

    Checked before anything runs, so a folder that cannot be made is one
    line, not a traceback after the bots were built.

    Raises:
        ConfigError: for a name that is not one folder name, where it names the folder.
        PathError: when the folder, or the nearest part of its path that
            exists, is a file, or cannot be written.
    """
    folder = out or (Path(data["out"]) if "out" in data else None)
    if folder is None:
        if label in {".", ".."} or "/" in label or "\\" in label or "\0" in label:
            raise ConfigError.about(
                "name {label!r} is not one folder name (results go to results/<name>); "
                "to put them elsewhere use {out} DIR",
                label=label,
            )
        folder = Path("results") / label
    check_makeable(folder, "results folder", folder=True)
    return folder


def command_line_bots(texts: list[str]) -> list[BotSpec]:
    """``--bot`` arguments, as for ``arena play``.

    Raises:
        BotError: as :func:`arena.bots.spec.parse_bots`.
    """
    return parse_bots(texts)


def _unique(specs: list[BotSpec]) -> list[BotSpec]:
    seen: set[str] = set()
    for spec in specs:
        if spec.name in seen:
            raise BotError(f"two bots are named {spec.name!r}: give each its own name")
        seen.add(spec.name)
    return specs

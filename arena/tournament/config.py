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

from arena.bots.sandbox import ResourceLimits, SandboxError
from arena.bots.spec import BotSpec, check_name, parse_bot, parse_bots
from arena.errors import ArenaError, BotError

KNOWN_KEYS = frozenset(
    {
        "name",
        "players",
        "deals",
        "jobs",
        "pin",
        "dask",
        "seed",
        "move_ms",
        "bank_ms",
        "startup_ms",
        "gauntlet",
        "schedule",
        "rounds",
        "stop_top",
        "stop_confidence",
        "max_games",
        "rules",
        "limits",
        "bots",
        "out",
    }
)


class ConfigError(ArenaError):
    """A tournament configuration file that cannot be used."""


def load_config(path: Path) -> dict[str, Any]:
    """Read and check a tournament TOML file.

    Raises:
        ConfigError: for an unreadable file, bad TOML, an unknown key or a
            value of the wrong type.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(KNOWN_KEYS))}"
        )
    for key in (
        "players",
        "deals",
        "jobs",
        "seed",
        "move_ms",
        "bank_ms",
        "startup_ms",
        "rounds",
        "stop_top",
        "max_games",
    ):
        if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool)):
            raise ConfigError(f"{path}: {key} must be a whole number, not {data[key]!r}")
    confidence = data.get("stop_confidence", 0.5)
    if not isinstance(confidence, int | float) or isinstance(confidence, bool):
        raise ConfigError(f"{path}: stop_confidence must be a number, not {confidence!r}")
    if "pin" in data and not isinstance(data["pin"], bool):
        raise ConfigError(f"{path}: pin must be true or false, not {data['pin']!r}")
    for key in ("name", "gauntlet", "out", "dask", "schedule"):
        if key in data and not isinstance(data[key], str):
            raise ConfigError(f"{path}: {key} must be a string, not {data[key]!r}")
    for key in ("rules", "limits"):
        if key in data and not isinstance(data[key], dict):
            raise ConfigError(f"{path}: [{key}] must be a table")
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, dict) for b in bots):
        raise ConfigError(f"{path}: bots must be [[bots]] tables with name and command")
    return data


def config_bots(data: dict[str, Any], path: Path) -> list[BotSpec]:
    """The ``[[bots]]`` of a config file, commands resolved against the file's folder.

    Raises:
        ConfigError: for a bot without a command, or with bad limits.
        BotError: for a bot that cannot be started at all.
    """
    specs = []
    for index, entry in enumerate(data.get("bots", []), start=1):
        command = entry.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ConfigError(f"{path}: bot {index} has no command")
        name = entry.get("name")
        if name is not None and not isinstance(name, str):
            raise ConfigError(f"{path}: the name of bot {index} must be a string")
        text = f"{check_name(name, str(path))}={command}" if name else command
        spec = parse_bot(text, path.parent)
        limits = entry.get("limits", {})
        if not isinstance(limits, dict):
            raise ConfigError(f"{path}: limits of bot {spec.name!r} must be a table")
        try:
            ResourceLimits().merged(limits)
        except SandboxError as error:
            raise ConfigError(f"{path}: bot {spec.name!r}: {error}") from None
        specs.append(replace(spec, limits=tuple(sorted({**dict(spec.limits), **limits}.items()))))
    return _unique(specs)


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

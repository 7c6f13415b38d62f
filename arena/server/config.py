"""A competition server's config file: the tournament keys and a ``[server]`` table.

The file is a tournament config (``name``, ``players``, ``deals``, ``[rules]``,
``[limits]``, ``schedule``, ``[[bots]]``: the organizer's house bots) with
one more table, ``[server]`` (the contract: ``shared/design/server.md``).
A ladder never ends, so the keys that size or end a plan (``rounds``,
``max_games``, ``stop_*``, ``gauntlet``) are refused, each in one line that
says why, and so is ``seed``: the ladder's seed is a secret the server makes
at its first start, so that no author can work out the deals. The schema is
the tournament's, narrowed and widened, so a key is defined once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import schemas
from arena.bots.spec import NAME_PATTERN, NAME_PATTERNS
from arena.tournament.config import ConfigError, read_toml
from arena.tournament.config_schema import config_schema

JSON = dict[str, Any]

#: Tournament keys a ladder refuses, and why.
REFUSED = {
    "rounds": "a ladder never ends",
    "max_games": "a ladder has no plan size",
    "stop_top": "a ladder never ends",
    "stop_confidence": "a ladder never ends",
    "gauntlet": "every bot of a ladder meets the field alike",
    "seed": "the ladder's seed is a secret the server makes at its first start",
    "out": "the competition's folder is --out, or results/<name>",
}
#: The schedules a ladder may follow (a round-robin has a fixed plan).
LADDER_SCHEDULES = ("sampled", "swiss")

#: ``[server]``: each key, its JSON Schema and its default (None: no default).
SERVER_KEYS: dict[str, tuple[JSON, Any]] = {
    "title": ({"type": "string", "minLength": 1, "description": "The site's title."}, None),
    "url": (
        {
            "type": "string",
            "pattern": r"^https?://[^/\s]+(/\S*)?$",
            "description": "Where people reach the server (links, invites, allowed hosts); "
            "default http://HOST:PORT.",
        },
        None,
    ),
    "public": ({"type": "boolean", "description": "Anyone may read the pages."}, True),
    "upload_mb": ({"type": "integer", "minimum": 1, "description": "Largest upload."}, 20),
    "unpacked_mb": (
        {"type": "integer", "minimum": 1, "description": "Largest bot folder unpacked."},
        200,
    ),
    "max_files": (
        {"type": "integer", "minimum": 1, "description": "Most files in a bot folder."},
        10000,
    ),
    "build_s": ({"type": "integer", "minimum": 1, "description": "Longest build."}, 300),
    "build_memory_mb": (
        {"type": "integer", "minimum": 64, "description": "A build's memory."},
        2048,
    ),
    "build_network": (
        {"type": "boolean", "description": "Builds may use the network."},
        False,
    ),
    "submissions_per_day": (
        {"type": "integer", "minimum": 1, "description": "Uploads per author per day."},
        20,
    ),
    "bots_per_author": (
        {"type": "integer", "minimum": 1, "description": "Bots an author may enter."},
        1,
    ),
    "match_share": (
        {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Share of the workers testing new versions.",
        },
        0.5,
    ),
    "match_max_games": (
        {"type": "integer", "minimum": 1, "description": "A version test's longest run."},
        1000,
    ),
    "stored_mb": (
        {"type": "integer", "minimum": 1, "description": "Uploads kept per author."},
        500,
    ),
    "trusted_proxies": (
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "description": "Proxies whose X-Forwarded-For is believed.",
        },
        [],
    ),
    "final_rounds": (
        {"type": "integer", "minimum": 1, "description": "Rounds of the final, once frozen."},
        20,
    ),
    "reference_bot": (
        {
            "type": "string",
            "pattern": NAME_PATTERN,
            "description": "A house bot a version must beat to be ranked.",
        },
        None,
    ),
    "hide_house": (
        {
            "type": "boolean",
            "description": "Show the house bots' results to organizers only.",
        },
        False,
    ),
    "login_limit": (
        {
            "type": "integer",
            "minimum": 1,
            "description": "Failed logins or joins per address per 10 minutes.",
        },
        10,
    ),
}


def server_schema() -> JSON:
    """The server config's JSON Schema: the tournament's, without the keys a ladder
    refuses, with ``[server]``."""
    schema = config_schema()
    properties = {k: v for k, v in schema["properties"].items() if k not in REFUSED}
    properties["schedule"] = {
        "type": "string",
        "enum": list(LADDER_SCHEDULES),
        "description": "Who meets whom in the ladder (default sampled).",
    }
    properties["server"] = {
        "type": "object",
        "description": "The competition server's settings.",
        "properties": {key: spec for key, (spec, _) in SERVER_KEYS.items()},
        "additionalProperties": False,
    }
    return {
        **schema,
        "title": "arena serve config",
        "description": "A competition's TOML config (arena serve CONFIG.toml).",
        "properties": properties,
    }


@dataclass(frozen=True)
class ServerConfig:
    """A server's config file, read and checked."""

    path: Path
    #: The tournament keys (everything but ``[server]``).
    event: JSON
    #: ``[server]`` with every default filled in.
    server: JSON = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The competition's name: ``name``, else the config file's stem."""
        return str(self.event.get("name") or self.path.stem)

    def folder(self, out: Path | None) -> Path:
        """The competition's folder: ``out``, else ``results/<name>``."""
        return out if out is not None else Path("results") / self.name


def load_server_config(path: Path) -> ServerConfig:
    """Read and check a server config file.

    Raises:
        ConfigError: an unreadable file, bad TOML, a key a ladder refuses (with
            why), or the first problem the schema finds, in one line.
    """
    data = read_toml(path)
    for key, why in REFUSED.items():
        if key in data:
            raise ConfigError(f"{path}: {key!r} has no place in a server config: {why}")
    problem = schemas.problem(server_schema(), data, patterns=NAME_PATTERNS)
    if problem is not None:
        raise ConfigError(f"{path}: {problem}")
    given = data.pop("server", {})
    data.setdefault("schedule", "sampled")
    server = {key: given.get(key, default) for key, (_, default) in SERVER_KEYS.items()}
    house = [bot.get("name") for bot in data.get("bots", [])]
    if server["reference_bot"] is not None and server["reference_bot"] not in house:
        raise ConfigError(
            f"{path}: reference_bot {server['reference_bot']!r} is not one of the house bots "
            f"([[bots]]: {', '.join(map(str, house)) or 'none'})"
        )
    if server["reference_bot"] is not None and server["match_share"] == 0:
        raise ConfigError(
            f"{path}: reference_bot needs match_share above 0: the match against it "
            "plays on the match workers"
        )
    return ServerConfig(path, data, server)

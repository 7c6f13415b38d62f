"""The JSON Schema of a tournament config file, and its errors in one line.

One schema (draft 7) checks every level of the TOML file: the top-level
keys, ``[rules]``, ``[limits]`` and each ``[[bots]]`` table, so a typo
anywhere (``limts``, ``commnd``) is named instead of silently ignored. The
``[rules]`` part is made from :class:`arena.game.Rules` and the ``[limits]``
part from :class:`arena.bots.sandbox.ResourceLimits`, so a rule option or a
limit is defined once, in the code that uses it. ``arena config-schema``
prints the schema; the copy published in ``protocol/schemas/`` is checked
equal to it by a test, and TOML editors (Taplo, Even Better TOML) read it
from a ``#:schema`` first line.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, Final

from arena import schemas
from arena.bots.sandbox import ResourceLimits
from arena.bots.spec import NAME_PATTERN, NAME_PATTERNS, NAME_RULE
from arena.game.rules import DOG_LIFE_VALUES, MAX_PLAYERS, MIN_PLAYERS, TIE_BREAK_VALUES, Rules
from arena.tournament.schedule import SCHEDULES

JSON = dict[str, Any]

#: Where the published copy lives (relative to the repository), for ``#:schema`` lines.
PUBLISHED = "protocol/schemas/tournament_config.json"

#: The rule options that take one of a few words, and those words.
_RULE_CHOICES: Final = {"dog_life": DOG_LIFE_VALUES, "tie_break": TIE_BREAK_VALUES}


def _whole(minimum: int, description: str) -> JSON:
    return {"type": "integer", "minimum": minimum, "description": description}


def _rules_schema() -> JSON:
    """``[rules]``: every field of :class:`Rules` but ``players`` (top-level), any subset."""
    properties: JSON = {}
    for option in fields(Rules):
        default = option.default
        if option.name == "players":  # the seats are the top-level ``players``
            continue
        if option.name in _RULE_CHOICES:
            entry: JSON = {"type": "string", "enum": list(_RULE_CHOICES[option.name])}
        elif isinstance(default, bool):
            entry = {"type": "boolean"}
        else:  # a new kind of option must be described here before it can be configured
            raise TypeError(f"rule option {option.name!r}: no schema for its type")
        properties[option.name] = {**entry, "default": default}
    return {
        "type": "object",
        "description": "Rule options (see the rules page); unset options keep the standard rules.",
        "properties": properties,
        "additionalProperties": False,
    }


def _limits_schema() -> JSON:
    """``[limits]``: the resource limits of :class:`ResourceLimits`, each a whole number."""
    properties: JSON = {}
    for limit in fields(ResourceLimits):
        entry = _whole(1, f"{limit.name.replace('_', ' ')} limit of a bot process")
        if limit.default is not MISSING and limit.default is not None:
            entry["default"] = limit.default
        properties[limit.name] = entry
    return {
        "type": "object",
        "description": "Resource limits of bot processes (see the README's sandbox section).",
        "properties": properties,
        "additionalProperties": False,
    }


def config_schema() -> JSON:
    """The tournament config file's JSON Schema (draft 7)."""
    limits = _limits_schema()
    text = {"type": "string", "minLength": 1}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "arena tournament config",
        "description": "A tournament's TOML config (arena tournament CONFIG.toml); "
        "command-line flags override it.",
        "type": "object",
        "properties": {
            "name": {**text, "description": "Results go to results/<name>."},
            "out": {**text, "description": "Results folder (instead of results/<name>)."},
            "players": {
                "type": "integer",
                "minimum": MIN_PLAYERS,
                "maximum": MAX_PLAYERS,
                "description": "Seats per table.",
            },
            "deals": _whole(1, "Duplicate deal sets per table."),
            "jobs": _whole(1, "Games at once on this machine."),
            "pin": {"type": "boolean", "description": "Each game on a CPU of its own."},
            "dask": {**text, "description": "A Dask scheduler (tcp://HOST:8786) or local:N."},
            "seed": _whole(0, "Tournament seed."),
            "move_ms": _whole(1, "Milliseconds per move."),
            "bank_ms": _whole(1, "Extra milliseconds per game."),
            "startup_ms": _whole(1, "Milliseconds to answer hello."),
            "gauntlet": {**text, "description": "This bot sits at every table."},
            "schedule": {
                "type": "string",
                "enum": list(SCHEDULES),
                "description": "Who meets whom (default round-robin).",
            },
            "rounds": _whole(1, "sampled/swiss: rounds in all."),
            "stop_top": _whole(1, "sampled/swiss: stop once the top K are likely in order."),
            "stop_confidence": {
                "type": "number",
                "minimum": 0.5,
                "exclusiveMaximum": 1,
                "description": "With stop_top: the probability each adjacent pair must reach.",
            },
            "max_games": _whole(1, "Refuse a plan of more games."),
            "skip_broken": {
                "type": "boolean",
                "description": "Play on without the bots that are broken (their build fails, "
                "they cannot start or give no valid ready); default: refuse the field.",
            },
            "isolate_rotations": {
                "type": "boolean",
                "description": "For bots from strangers: each seat rotation of a deal set "
                "played by other processes, and game ids that say nothing.",
            },
            "rules": _rules_schema(),
            "limits": limits,
            "bots": {
                "type": "array",
                "description": "The bots, one [[bots]] table each.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {
                            "type": "string",
                            "pattern": NAME_PATTERN,
                            "description": f"The bot's name ({NAME_RULE}).",
                        },
                        "command": {
                            "type": "string",
                            "pattern": r"\S",
                            "description": "The bot's command, a bot folder or a bot.toml "
                            "folder; relative paths from this file's folder.",
                        },
                        "limits": {**limits, "description": "Resource limits of this bot only."},
                    },
                    "required": ["command"],
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    }


def problems(data: JSON) -> str | None:
    """The most relevant problem of ``data`` against the schema in one line, or None."""
    return schemas.problem(config_schema(), data, patterns=NAME_PATTERNS)

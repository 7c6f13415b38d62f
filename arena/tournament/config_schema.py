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

from collections.abc import Iterable
from dataclasses import MISSING, fields
from typing import Any, Final

import jsonschema
from jsonschema.exceptions import ValidationError, best_match, by_relevance

from arena.bots.sandbox import ResourceLimits
from arena.bots.spec import NAME_PATTERN, NAME_RULE
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


#: Whole numbers are ints (draft 7 would also take 4.0, which arena would not).
_CHECKER = jsonschema.Draft7Validator.TYPE_CHECKER.redefine(
    "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
)
_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft7Validator, type_checker=_CHECKER
)

#: Of two problems at one level, an unknown key first: ``commnd`` is a typo of
#: ``command``, and naming it helps more than saying ``command`` is missing.
_RELEVANCE = by_relevance(strong=frozenset({"additionalProperties"}))

_KINDS: Final = {
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "string": "a string",
    "object": "a table",
    "array": "a list of tables ([[bots]])",
}


def problems(data: JSON) -> str | None:
    """The most relevant problem of ``data`` against the schema in one line, or None."""
    error = best_match(_Validator(config_schema()).iter_errors(data), key=_RELEVANCE)
    return None if error is None else _explained(error)


def _where(path: Iterable[Any]) -> str:
    """``bots[2].limits.cpu_s`` for a path of keys and 0-based indices (shown 1-based)."""
    text = ""
    for step in path:
        text += f"[{step + 1}]" if isinstance(step, int) else f".{step}" if text else str(step)
    return text


def _explained(error: ValidationError) -> str:
    """One line for one schema error, in words a config author uses."""
    where = _where(error.absolute_path)
    value: Any = error.instance
    schema: JSON = error.schema if isinstance(error.schema, dict) else {}
    expected: Any = error.validator_value
    subject = where or "the file"
    prefix = f"{where}: " if where else ""
    match error.validator:
        case "additionalProperties":
            known = list(schema.get("properties", {}))
            unknown = sorted(key for key in value if key not in known)
            return f"{prefix}unknown key {unknown[0]!r} (known: {', '.join(known)})"
        case "required":
            missing = [key for key in expected if key not in value]
            return f"{prefix}missing key {missing[0]!r}"
        case "type":
            return f"{subject} must be {_KINDS.get(str(expected), expected)}, not {value!r}"
        case "enum":
            choices = ", ".join(str(choice) for choice in expected)
            return f"{subject} takes one of {choices}, not {value!r}"
        case "minimum":
            return f"{subject} must be >= {expected}, not {value!r}"
        case "maximum":
            return f"{subject} must be <= {expected}, not {value!r}"
        case "exclusiveMaximum":
            return f"{subject} must be < {expected}, not {value!r}"
        case "minLength":
            return f"{subject} must not be empty"
        case "pattern" if where.endswith(".name"):
            return f"{subject}: bot name {value!r} does not fit the rule: {NAME_RULE}"
        case "pattern":
            return f"{subject} must not be blank"
        case _:
            return f"{prefix}{error.message}"

"""A JSON Schema's verdict on a file a person wrote, in one line in that person's words.

Both files people write by hand, a tournament's config and a bot's
``bot.toml``, are checked against a schema (draft 7) at every level, so a
typo (``limts``, ``nme``) is named instead of silently ignored. Of all the
problems, the most relevant one is told: an unknown key before a missing
one (``commnd`` is a typo of ``command``, and naming it helps more).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

JSON = dict[str, Any]

_KINDS: Final = {
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "string": "a string",
    "object": "a table",
    "array": "a list of tables ([[bots]])",
}


def problem(schema: JSON, data: JSON, *, patterns: Mapping[str, str] = {}) -> str | None:
    """The most relevant problem of ``data`` against ``schema`` in one line, or None.

    ``patterns``: for a value that breaks a ``pattern`` of the schema, what it is
    told (a template of ``{value}``), by the pattern; others "must not be blank".
    """
    from jsonschema.exceptions import best_match  # noqa: PLC0415 - see _validator

    validator, relevance = _validator()
    error = best_match(validator(schema).iter_errors(data), key=relevance)
    return None if error is None else _explained(error, patterns)


@cache
def _validator() -> tuple[Any, Any]:
    """Draft 7 with whole numbers as ints (draft 7 would also take 4.0, which arena would
    not), and the relevance that puts an unknown key first of two problems at one level.
    Made when a file is first checked: importing jsonschema takes 0.2 s, which commands
    that read no config (``arena leaderboard``) need not pay."""
    import jsonschema  # noqa: PLC0415
    from jsonschema.exceptions import by_relevance  # noqa: PLC0415

    checker = jsonschema.Draft7Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    )
    validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft7Validator, type_checker=checker
    )
    return validator, by_relevance(strong=frozenset({"additionalProperties"}))


def _where(path: Iterable[Any]) -> str:
    """``bots[2].limits.cpu_s`` for a path of keys and 0-based indices (shown 1-based)."""
    text = ""
    for step in path:
        text += f"[{step + 1}]" if isinstance(step, int) else f".{step}" if text else str(step)
    return text


def _explained(error: ValidationError, patterns: Mapping[str, str]) -> str:
    """One line for one schema error, in words a file's author uses."""
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
        case "pattern" if expected in patterns:
            return f"{subject}: {patterns[expected].format(value=value)}"
        case "pattern":
            return f"{subject} must not be blank"
        case _:
            return f"{prefix}{error.message}"

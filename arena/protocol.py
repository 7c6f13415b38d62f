"""Protocol v1 on the wire: encoding, decoding and validating messages.

The JSON Schemas in ``protocol/schemas/`` are the single source of truth.
They are loaded once; bot replies are checked with a validator that
fastjsonschema compiles from the same schema file (a few microseconds per
reply, where a jsonschema validator costs ~77 us), and :func:`full_validator`
gives the reference jsonschema validator for tests and tools.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import fastjsonschema
import orjson

from arena import shipped
from arena.errors import BotFault, FaultKind, ProtocolError

if TYPE_CHECKING:
    import jsonschema

PROTOCOL_VERSION = 1
SCHEMA_DIR = shipped("schemas", "protocol/schemas")
SCHEMA_NAMES = ("referee_to_bot", "bot_to_referee", "replay_line")
#: Longest line accepted from a bot, in bytes; a longer one is a ``malformed`` fault.
MAX_LINE_BYTES = 1 << 20
#: Largest ``info`` of a move kept as the bot sent it: bytes of its compact JSON encoding.
MAX_INFO_BYTES = 4096

JSON = dict[str, Any]


@dataclass(frozen=True)
class Limits:
    """Time limits of protocol v1, in milliseconds.

    ``move_ms`` is allowed for each reply; time beyond it is taken from a bank
    of ``bank_ms`` per game; ``startup_ms`` bounds the answer to ``hello``.
    """

    startup_ms: int = 10_000
    move_ms: int = 1_000
    bank_ms: int = 10_000

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"limit {name} must be a whole number of milliseconds >= 1")

    @classmethod
    def given(
        cls,
        *,
        startup_ms: int | None = None,
        move_ms: int | None = None,
        bank_ms: int | None = None,
    ) -> Limits:
        """The limits given, and the defaults for those that are not (None).

        Raises:
            ValueError: for a limit below 1 ms.
        """
        defaults = cls()
        return cls(
            startup_ms=defaults.startup_ms if startup_ms is None else startup_ms,
            move_ms=defaults.move_ms if move_ms is None else move_ms,
            bank_ms=defaults.bank_ms if bank_ms is None else bank_ms,
        )

    def to_dict(self) -> dict[str, int]:
        """The ``limits`` object of ``hello`` and of the replay header."""
        return {"startup_ms": self.startup_ms, "move_ms": self.move_ms, "bank_ms": self.bank_ms}


def hello_message(limits: Limits) -> JSON:
    """The ``hello`` that opens a session."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "limits": limits.to_dict()}


BYE: JSON = {"type": "bye"}

_dumps = orjson.dumps
_loads = orjson.loads
_NEWLINE = orjson.OPT_APPEND_NEWLINE


def encode(message: JSON) -> bytes:
    """One message as one compact UTF-8 JSON line, newline included."""
    return _dumps(message, option=_NEWLINE)


@cache
def load_schema(name: str) -> JSON:
    """The JSON Schema ``protocol/schemas/<name>.json``.

    Raises:
        ProtocolError: when the file is missing or is not JSON.
    """
    path = SCHEMA_DIR / f"{name}.json"
    try:
        schema: JSON = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ProtocolError(f"cannot read the protocol schema {path}: {error}") from None
    return schema


@cache
def fast_validator(name: str) -> Callable[[Any], Any]:
    """A compiled (fastjsonschema) validator of the named schema."""
    validate: Callable[[Any], Any] = fastjsonschema.compile(load_schema(name))
    return validate


@cache
def reply_validator(kind: str) -> Callable[[Any], Any]:
    """A compiled validator of one kind of bot reply (``ready`` or ``move``).

    Compiled from that definition of ``bot_to_referee.json``: checking the
    one kind expected is several times cheaper than the whole schema's
    if/then branches, and the referee always knows which kind it expects.
    """
    schema = load_schema("bot_to_referee")
    validate: Callable[[Any], Any] = fastjsonschema.compile(
        {
            "$schema": schema.get("$schema", "http://json-schema.org/draft-07/schema#"),
            "$ref": f"#/definitions/{kind}",
            "definitions": schema["definitions"],
        }
    )
    return validate


@cache
def full_validator(name: str) -> jsonschema.Draft7Validator:
    """The reference (jsonschema) validator of the named schema, for tests and tools."""
    import jsonschema  # noqa: PLC0415 - tests and tools only: 0.2 s no command need pay

    schema = load_schema(name)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def decode_reply(line: bytes, kind: str) -> JSON:
    """Parse and validate one line a bot wrote, expected to be a ``kind`` message.

    Raises:
        BotFault: ``malformed`` when the line is not JSON, not an object, not
            a ``kind`` message, or not a valid one.
    """
    try:
        message = _loads(line)
    except orjson.JSONDecodeError:
        raise BotFault(FaultKind.MALFORMED, f"not JSON: {_clip(line)}") from None
    if not isinstance(message, dict):
        raise BotFault(FaultKind.MALFORMED, f"not a JSON object: {_clip(line)}")
    if message.get("type") != kind:
        raise BotFault(FaultKind.MALFORMED, f"expected a {kind!r} message, got: {_clip(line)}")
    try:
        reply_validator(kind)(message)
    except fastjsonschema.JsonSchemaValueException as error:
        raise BotFault(
            FaultKind.MALFORMED, f"not a valid reply ({error.message}): {_clip(line)}"
        ) from None
    result: JSON = message
    return result


def decode_move(line: bytes, request_id: int) -> str:
    """The move of a bot's answer to request ``request_id`` (see :func:`decode_answer`).

    Raises:
        BotFault: ``malformed`` for anything but a valid ``move`` with that id.
    """
    return decode_answer(line, request_id)[0]


def kept_info(info: Any, line: bytes = b"") -> Any:
    """A move's ``info`` as the replay keeps it: itself, or when its compact encoding is
    over :data:`MAX_INFO_BYTES`, ``{"truncated": true, "bytes": N}`` (never a fault).

    An info nested too deeply to be written again (orjson reads 1,024 levels and
    writes 254) is kept the same way, N then the size of the ``line`` it came in.
    """
    try:
        size = len(_dumps(info))
    except (orjson.JSONEncodeError, TypeError):
        return {"truncated": True, "bytes": len(line)}
    return info if size <= MAX_INFO_BYTES else {"truncated": True, "bytes": size}


def decode_answer(line: bytes, request_id: int) -> tuple[str, Any]:
    """The move of a bot's answer to request ``request_id`` and its ``info`` (None if none).

    The common case costs one parse and a few type checks: a JSON object
    whose ``type`` is ``"move"``, whose ``id`` is the int asked for and whose
    ``move`` is a string satisfies the ``move`` definition of
    ``bot_to_referee.json`` (``info`` may be any JSON value, extra fields are
    allowed), which a test checks against the schema itself. Anything else
    goes through the compiled validator, which names what is wrong. An
    ``info`` over :data:`MAX_INFO_BYTES` is kept as its size only.

    Raises:
        BotFault: ``malformed`` for anything but a valid ``move`` with that id.
    """
    try:
        reply = _loads(line)
    except orjson.JSONDecodeError:
        raise BotFault(FaultKind.MALFORMED, f"not JSON: {_clip(line)}") from None
    if (
        type(reply) is dict
        and reply.get("type") == "move"
        and type(reply.get("id")) is int
        and type(move := reply.get("move")) is str
    ):
        if reply["id"] != request_id:
            raise BotFault(
                FaultKind.MALFORMED, f"answered request {request_id} with id {reply['id']}"
            )
        info = reply.get("info")
        return move, None if info is None else kept_info(info, line)
    reply = decode_reply(line, "move")  # raises, naming the problem
    raise BotFault(FaultKind.MALFORMED, f"answered request {request_id} with id {reply['id']!r}")


def _clip(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return text if len(text) <= limit else text[:limit] + f"... ({len(line)} bytes)"

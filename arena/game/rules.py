"""The rule options of a game (see the rules page) and their validation.

A :class:`Rules` value is the game's configuration, kept apart from the game's
state (as OpenSpiel keeps game parameters apart from states). Its
:meth:`Rules.to_dict` is exactly the ``rules`` object of protocol v1: every
option with its value, not only those that differ from the default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Final

from arena.errors import RuleError

DOG_LIFE_VALUES: Final = ("standard", "expanded", "none")
TIE_BREAK_VALUES: Final = ("cut", "random")
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 7


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of Knockout Whist; the defaults are the standard rules.

    Attributes:
        players: number of seats, 2..7.
        dog_life: ``standard`` (the first zero-trick event of the game gives
            every zero-trick player a Dog's Life), ``expanded`` (each player's
            first zero-trick hand does) or ``none``.
        dog_first_hand_only: a Dog's Life is only granted for the first deal.
        blind_dog: a dog who fails gets one more card it may not look at.
        upside_dog: a dog's card is dealt face up.
        rainbow: one card of each suit on the 4-card hand may be declared.
        no_picture: nothing above a ten on a hand of more than 5 cards may be
            declared, voiding the hand.
        trumps_broken: trumps may not be led until one has been played.
        eliminated_deals: a player knocked out in the hand just played still
            deals the next hand when it is their turn.
        sweep_wins: taking every trick of a hand wins the game at once.
        tie_break: ``cut`` or ``random`` to settle a tie for most tricks.
    """

    players: int = 4
    dog_life: str = "standard"
    dog_first_hand_only: bool = False
    blind_dog: bool = False
    upside_dog: bool = False
    rainbow: bool = False
    no_picture: bool = False
    trumps_broken: bool = False
    eliminated_deals: bool = False
    sweep_wins: bool = False
    tie_break: str = "cut"

    def __post_init__(self) -> None:
        _check(self)

    @property
    def dogs(self) -> bool:
        """Whether any Dog's Life can ever be granted."""
        return self.dog_life != "none"

    def to_dict(self) -> dict[str, object]:
        """The ``rules`` object of protocol v1: every option and its value (a fresh dict)."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def with_options(self, options: Mapping[str, object]) -> Rules:
        """A copy with some options changed; values may be typed or text.

        Text values are accepted as a user would write them on a command
        line (``sweep_wins=true``, ``players=5``).

        Raises:
            RuleError: for an unknown option or a value it does not accept.
        """
        changes: dict[str, object] = {}
        for key, value in options.items():
            if key not in OPTION_NAMES:
                raise RuleError(
                    f"unknown rule option {key!r}; known options: {', '.join(OPTION_NAMES)}"
                )
            changes[key] = _coerce(key, value)
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, options: Mapping[str, object]) -> Rules:
        """Rules from a (possibly partial) mapping of options.

        Raises:
            RuleError: for an unknown option or a value it does not accept.
        """
        return cls().with_options(options)


OPTION_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in fields(Rules))
_BOOL_OPTIONS: Final = frozenset(
    f.name
    for f in fields(Rules)
    if f.type in ("bool", bool)  # annotations are strings here
)
_TRUE_TEXT: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_TEXT: Final = frozenset({"false", "no", "off", "0"})


def parse_rule_assignment(text: str) -> tuple[str, str]:
    """Split a ``KEY=VALUE`` rule assignment from a command line.

    Raises:
        RuleError: when the text has no ``=`` or an empty key.
    """
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise RuleError(f"rule {text!r} is not of the form KEY=VALUE, e.g. dog_life=none")
    return key, value.strip()


def rules_from(
    assignments: Sequence[str],
    *,
    players: int | None = None,
    base: Mapping[str, object] | None = None,
    seats: str | None = None,
) -> Rules:
    """Rules from ``--rule KEY=VALUE`` texts laid over ``base`` options (a config
    file's ``[rules]``), with ``players`` seats when given.

    ``seats`` says where the number of seats comes from, for a command that
    takes it elsewhere (the bots given, the ``players`` setting): a ``players=``
    assignment there would be silently overruled, so it is refused with that
    sentence instead (a template: ``{players}`` is a setting, :meth:`ArenaError.about`).

    Raises:
        RuleError: for a text that is not KEY=VALUE, an unknown option, a bad
            value, or ``players=`` where ``seats`` is given.
    """
    options = dict(base or {})
    for text in assignments:
        key, value = parse_rule_assignment(text)
        if key == "players" and seats is not None:
            raise RuleError.about("{rule} {text}: " + seats, text=text.strip())
        options[key] = value
    if players is not None:
        options["players"] = players
    return Rules.from_dict(options)


def _coerce(key: str, value: object) -> object:
    if key in _BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE_TEXT | _FALSE_TEXT:
            return value.lower() in _TRUE_TEXT
        raise RuleError(f"rule option {key!r} takes true or false, not {value!r}")
    if key == "players":
        if isinstance(value, bool):
            raise RuleError(f"rule option 'players' takes a number 2..7, not {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
        raise RuleError(f"rule option 'players' takes a number 2..7, not {value!r}")
    return value


def _check(rules: Rules) -> None:
    for name in _BOOL_OPTIONS:
        if not isinstance(getattr(rules, name), bool):
            raise RuleError(f"rule option {name!r} takes true or false")
    if (
        isinstance(rules.players, bool)
        or not isinstance(rules.players, int)
        or not MIN_PLAYERS <= rules.players <= MAX_PLAYERS
    ):
        raise RuleError(f"rule option 'players' takes a number 2..7, not {rules.players!r}")
    if rules.dog_life not in DOG_LIFE_VALUES:
        raise RuleError(
            f"rule option 'dog_life' takes one of {', '.join(DOG_LIFE_VALUES)}, "
            f"not {rules.dog_life!r}"
        )
    if rules.tie_break not in TIE_BREAK_VALUES:
        raise RuleError(
            f"rule option 'tie_break' takes one of {', '.join(TIE_BREAK_VALUES)}, "
            f"not {rules.tie_break!r}"
        )

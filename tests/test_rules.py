"""Rule options: defaults, the protocol's rules object, and clear errors for bad input."""

from __future__ import annotations

import pytest

from arena.errors import RuleError
from arena.game.rules import OPTION_NAMES, Rules, parse_rule_assignment


def test_to_dict_lists_every_option_with_its_default() -> None:
    assert Rules().to_dict() == {
        "players": 4,
        "dog_life": "standard",
        "dog_first_hand_only": False,
        "blind_dog": False,
        "upside_dog": False,
        "rainbow": False,
        "no_picture": False,
        "trumps_broken": False,
        "eliminated_deals": False,
        "sweep_wins": False,
        "tie_break": "cut",
    }
    assert tuple(Rules().to_dict()) == OPTION_NAMES


def test_text_values_are_coerced() -> None:
    rules = Rules.from_dict({"players": "5", "sweep_wins": "true", "blind_dog": "off"})
    assert (rules.players, rules.sweep_wins, rules.blind_dog) == (5, True, False)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown rule option 'colour'"),
        ({"players": 8}, "'players' takes a number 2..7"),
        ({"players": 1}, "'players' takes a number 2..7"),
        ({"players": "many"}, "'players' takes a number 2..7"),
        ({"dog_life": "sometimes"}, "'dog_life' takes one of standard, expanded, none"),
        ({"tie_break": "coin"}, "'tie_break' takes one of cut, random"),
        ({"rainbow": "maybe"}, "'rainbow' takes true or false"),
    ],
)
def test_bad_options_are_rule_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        Rules.from_dict(options)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(RuleError):
        Rules(players=9)


def test_rule_assignment_parsing() -> None:
    assert parse_rule_assignment("dog_life = none") == ("dog_life", "none")
    with pytest.raises(RuleError, match="KEY=VALUE"):
        parse_rule_assignment("dog_life")

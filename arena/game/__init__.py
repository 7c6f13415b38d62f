"""The rules of Knockout Whist, pure: no IO, no clock, randomness passed in.

Start here to read the rules as code:

- :mod:`arena.game.cards`: cards, suits, ranks and their wire form;
- :mod:`arena.game.rules`: the rule options and their validation;
- :mod:`arena.game.decks`: where shuffled decks come from;
- :mod:`arena.game.state`: the engine, one game from cut to placements;
- :mod:`arena.game.views`: what each seat may see;
- :mod:`arena.game.scoring`: a seat's score from a game's placements.
"""

from arena.game.cards import Card, Rank, Suit, parse_card
from arena.game.decks import DeckSource, RandomDecks, SeededDecks, StackedDecks
from arena.game.rules import OPTION_NAMES, Rules
from arena.game.state import ACTIVE, DOG, OUT, Decision, GameState
from arena.game.views import explain_request, hand_start, request_state

__all__ = [
    "ACTIVE",
    "DOG",
    "OPTION_NAMES",
    "OUT",
    "Card",
    "Decision",
    "DeckSource",
    "GameState",
    "RandomDecks",
    "Rank",
    "Rules",
    "SeededDecks",
    "StackedDecks",
    "Suit",
    "explain_request",
    "hand_start",
    "parse_card",
    "request_state",
]

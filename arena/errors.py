"""The one error hierarchy of the project.

Every error the project raises on purpose derives from :class:`ArenaError`, so
that each boundary (the CLI above all) can turn it into a one-line message
instead of a traceback. Errors about bad values also subclass ``ValueError``,
the builtin they refine, so callers that know nothing of arena still catch
them naturally.
"""


class ArenaError(Exception):
    """Base of every deliberate error raised by arena."""


class CardError(ArenaError, ValueError):
    """A text that is not a card, suit or rank in wire form (e.g. ``"1X"``)."""


class RuleError(ArenaError, ValueError):
    """An unknown rule option or a value the option does not accept."""


class IllegalMove(ArenaError, ValueError):
    """A move the rules do not allow in the current position.

    The message is a plain sentence a bot author can act on, such as
    ``"7H is not legal: you must follow spades"``. The game state is left
    untouched when this is raised.
    """

"""What an organizer does to a running competition: pause the ladder, disable a bot.

Each is a row of the server's database, which the ladder reads (at least
once a second for a pause; at each round boundary for the field):

- **pause**: the ladder stops its games (those under way are cut and played
  again after, as after a stop: no game counts twice) and plays none until
  resumed. Uploads, builds and pages go on.
- **disable** a bot: its versions leave the ladder at the next round
  boundary and are not scheduled (no forfeits: its rating stands still)
  until it is enabled again, when its active version comes back with its
  rating.
"""

from __future__ import annotations

from typing import Any

from arena.server.errors import NotFound, Refused

#: The switch that pauses the ladder.
PAUSED = "paused"


def paused() -> bool:
    """Whether the ladder is paused."""
    from arena.server.web.models import Setting  # noqa: PLC0415 - Django, set up by the caller

    return Setting.objects.filter(key=PAUSED, value="yes").exists()


def pause(on: bool) -> None:
    """Pause the ladder (``on``) or let it play again."""
    from arena.server.web.models import Setting  # noqa: PLC0415

    Setting.objects.update_or_create(key=PAUSED, defaults={"value": "yes" if on else ""})


def disable(name: str, reason: str) -> Any:
    """Take bot ``name`` (any case) out of the ladder, saying why; the bot.

    Raises:
        NotFound: no such bot.
        Refused: no reason given, or one of more than a line.
    """
    reason = reason.strip()
    if not reason or "\n" in reason or len(reason) > 200:
        raise Refused("say why in one line (at most 200 characters)")
    return _set(name, reason)


def enable(name: str) -> Any:
    """Let bot ``name`` (any case) play again; the bot.

    Raises:
        NotFound: no such bot.
    """
    return _set(name, "")


def _set(name: str, reason: str) -> Any:
    from arena.server.web.models import Bot  # noqa: PLC0415

    bot = Bot.objects.filter(key=name.lower()).first()
    if bot is None:
        raise NotFound(f"no bot {name!r} here")
    bot.disabled = reason
    bot.save(update_fields=["disabled"])
    return bot

"""What an organizer does to a running competition: pause, freeze, disable a bot.

Each is a row of the server's database, which the ladder reads (at least
once a second for a pause; at each round boundary for the field):

- **pause**: the ladder stops its games (those under way are cut and played
  again after, as after a stop: no game counts twice) and plays none until
  resumed. Uploads, builds and pages go on.
- **freeze**: uploads are refused, and the ladder plays ``final_rounds``
  more rounds (counted from the first round boundary after the freeze) with
  the field it has, then stops: the leaderboard is final. Unfreezing lets
  uploads in and the ladder go on.
- **disable** a bot: its versions leave the ladder at the next round
  boundary and are not scheduled (no forfeits: its rating stands still)
  until it is enabled again, when its active version comes back with its
  rating.

The ladder disables a bot too, by itself (:func:`disable_faulting`), once it
faults in :data:`arena.events.run.FAULTS_IN_A_ROW` games in a row: a bot that
cannot play would fault on in every game it is seated in, and its rivals'
games would mean less. Its owner sees why on its page; a version of it made
active (a new upload, or an earlier one again) lets it play, as an organizer
enabling it does.
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


#: The switch that freezes the competition, and the round the ladder's final began at.
FROZEN = "frozen"
FINAL_FROM = "final_from"


def frozen() -> bool:
    """Whether the competition is frozen (no uploads; the final is played or over)."""
    from arena.server.web.models import Setting  # noqa: PLC0415

    return Setting.objects.filter(key=FROZEN, value="yes").exists()


def freeze(on: bool) -> None:
    """Freeze the competition (``on``), or let uploads in and the ladder go on."""
    from arena.server.web.models import Setting  # noqa: PLC0415

    Setting.objects.update_or_create(key=FROZEN, defaults={"value": "yes" if on else ""})
    if not on:
        Setting.objects.filter(key=FINAL_FROM).delete()


def final_left(round_number: int, final_rounds: int) -> int | None:
    """Rounds of the final still to play when round ``round_number`` is about to be made
    (the first call after a freeze marks the final's start); None when not frozen."""
    from arena.server.web.models import Setting  # noqa: PLC0415

    if not frozen():
        return None
    start, _ = Setting.objects.get_or_create(key=FINAL_FROM, defaults={"value": str(round_number)})
    return max(0, int(start.value) + final_rounds - round_number)


def disable(name: str, reason: str) -> Any:
    """Take bot ``name`` (any case) out of the ladder, saying why; the bot.

    Raises:
        NotFound: no such bot.
        Refused: no reason given, or one of more than a line.
    """
    reason = reason.strip()
    if not reason or "\n" in reason or len(reason) > 200:
        raise Refused("say why in one line (at most 200 characters)")
    return _set(name, reason, ORGANIZER)


def enable(name: str) -> Any:
    """Let bot ``name`` (any case) play again; the bot.

    Raises:
        NotFound: no such bot.
    """
    return _set(name, "", "")


#: Who disabled a bot (``Bot.disabled_by``).
ORGANIZER = "organizer"
LADDER = "ladder"


def _set(name: str, reason: str, by: str) -> Any:
    from arena.server.web.models import Bot  # noqa: PLC0415

    bot = Bot.objects.filter(key=name.lower()).first()
    if bot is None:
        raise NotFound(f"no bot {name!r} here")
    bot.disabled = reason
    bot.disabled_by = by
    bot.save(update_fields=["disabled", "disabled_by"])
    return bot


def disable_faulting(league_name: str, why: str) -> bool:
    """The ladder takes the bot of ``league_name`` (``BOT`` or ``BOT@N``) out, saying
    ``why`` (its faults in a row); whether it did (a bot an organizer disabled already
    keeps the organizer's reason)."""
    from arena.server.web.models import Bot  # noqa: PLC0415

    base = league_name.partition("@")[0]
    reason = f"{why}; a version of it made active lets it play again"
    found = Bot.objects.filter(key=base.lower(), disabled="")
    return found.update(disabled=reason, disabled_by=LADDER) > 0


def lift_ladder_disable(bot: Any) -> None:
    """A version of ``bot`` is made active: what the ladder disabled plays again (an
    organizer's disable stays)."""
    from arena.server.web.models import Bot  # noqa: PLC0415

    Bot.objects.filter(pk=bot.pk, disabled_by=LADDER).update(disabled="", disabled_by="")

"""What an organizer does to a running competition: the season's state, disable a bot.

A season is in one state at a time (:func:`season`), each a row of the
server's database that the ladder reads (at least once a second):

- **open**: uploads are taken, the ladder plays the league.
- **paused**: the ladder stops its games (those under way are cut and played
  again after, as after a stop: no game counts twice) and plays none until
  resumed. Uploads, builds and pages go on. A final can be paused too.
- **frozen**: uploads are refused, the league stands still (its board is the
  one the freeze found, kept), and the ladder plays the final: ``final_rounds``
  rounds among the bots active at the freeze, from fresh ratings, in
  ``DIR/final`` (a tournament folder: ``arena leaderboard DIR/final`` reads it).
  Opening the season again sets that final aside and the league goes on.
- **final**: the final is played; its board is shown beside the league's.
- **closed**: nothing plays, nothing is built, no upload is taken; everything
  stays readable. A closed season is not opened again.

A bot is disabled by an organizer, or by the ladder itself
(:func:`disable_faulting`) once it faults in
:data:`arena.events.run.FAULTS_IN_A_ROW` games in a row: a bot that cannot
play would fault on in every game it is seated in, and its rivals' games
would mean less. Its versions leave the ladder at the next round boundary and
are not scheduled (no forfeits: its rating stands still) until it is enabled
again, or, where the ladder disabled it, a version of it is made active (a
new upload, or an earlier one again). Its owner sees why on its page.
"""

from __future__ import annotations

from typing import Any

from arena.server.errors import NotFound, Refused

#: The switch that pauses the ladder.
PAUSED = "paused"


def paused() -> bool:
    """Whether the ladder is paused."""
    return _on(PAUSED)


def pause(on: bool) -> None:
    """Pause the ladder (``on``) or let it play again.

    Raises:
        Refused: the season is closed.
    """
    _refuse_if_closed()
    _switch(PAUSED, on)


#: The switches that freeze the competition, mark its final played, and close it.
FROZEN = "frozen"
FINAL_PLAYED = "final_played"
CLOSED = "closed"
#: The states an organizer may ask for (:func:`season` also says ``final``).
ASKED = ("open", "paused", "frozen", "closed")


def _on(key: str) -> bool:
    from arena.server.web.models import Setting  # noqa: PLC0415 - Django, set up by the caller

    return Setting.objects.filter(key=key, value="yes").exists()


def _switch(key: str, on: bool) -> None:
    from arena.server.web.models import Setting  # noqa: PLC0415

    Setting.objects.update_or_create(key=key, defaults={"value": "yes" if on else ""})


def frozen() -> bool:
    """Whether uploads are closed for the final (frozen, final or closed)."""
    return _on(FROZEN) or _on(CLOSED)


def closed() -> bool:
    """Whether the season is closed: nothing plays or builds."""
    return _on(CLOSED)


def final_played() -> bool:
    """Whether the final of a frozen season is played."""
    return _on(FINAL_PLAYED)


def season() -> str:
    """The season's state: ``open``, ``paused``, ``frozen``, ``final`` or ``closed``."""
    if closed():
        return "closed"
    if _on(FROZEN):
        return "final" if final_played() else "frozen"
    return "paused" if paused() else "open"


def freeze(on: bool) -> None:
    """Freeze the competition for its final (``on``), or open it again (the final set
    aside by the ladder, the league going on).

    Raises:
        Refused: the season is closed.
    """
    _refuse_if_closed()
    _switch(FROZEN, on)
    if not on:
        _switch(FINAL_PLAYED, False)


def mark_final_played() -> None:
    """The ladder has played the final's every round."""
    _switch(FINAL_PLAYED, True)


def set_season(state: str) -> str:
    """Move the season to ``state`` (one of :data:`ASKED`); the state it is in after.

    Raises:
        Refused: another state, ``final`` (the ladder reaches it by playing the final's
            rounds), or any change to a closed season.
    """
    if state not in ASKED:
        reached = " (reached when the final's rounds are played)" if state == "final" else ""
        raise Refused(f"state must be one of {', '.join(ASKED)}, not {state!r}{reached}")
    _refuse_if_closed()
    if state == "closed":
        _switch(CLOSED, True)
    elif state == "frozen":
        freeze(True)
    else:
        freeze(False)
        pause(state == "paused")
    return season()


def _refuse_if_closed() -> None:
    if closed():
        raise Refused("the season is closed: nothing of it changes any more")


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

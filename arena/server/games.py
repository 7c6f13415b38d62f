"""The ladder's games for the web app: recent games and replays, redacted for the viewer.

The games are the ladder's store's, read read-only (only the ladder writes
it). What a seat's bot printed or thought is its owner's: a stranger's view
of a game keeps the moves and placements and loses, for every seat that is
not theirs, a fault's detail (it can quote the bot's output), a move's
``info`` and ``log`` (what the bot thought, its stderr lines), and the
command the bot ran (the server's paths, the author's arguments). The
organizers see everything. Replays are read here and never served as files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from arena.results.store import DATABASE, base_name, open_existing
from arena.server.accounts import sees_house, sees_private
from arena.server.errors import NotFound, NotYours

#: ``GET /api/v1/games``'s default and largest ``limit``.
DEFAULT_LIMIT = 20
MOST = 200
#: What a game id may look like (``g`` and hex in a ladder; anything else is no game).
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9~_-]{0,80}")


def owners(names: Iterable[str]) -> dict[str, Any]:
    """The owner (a user, or None: a house bot) of each league name (``BOT``, ``BOT@N``)."""
    from arena.server.web.models import Bot  # noqa: PLC0415 - Django, set up by the caller

    names = set(names)
    keys = {base_name(name).lower() for name in names}
    by_key = {
        bot.key: bot.owner for bot in Bot.objects.select_related("owner").filter(key__in=keys)
    }
    return {name: by_key.get(base_name(name).lower()) for name in names}


def house_names() -> list[str]:
    """The house bots' names (their league names: a house bot has one version)."""
    from arena.server.web.models import Bot  # noqa: PLC0415 - Django, set up by the caller

    return [bot.name for bot in Bot.objects.filter(owner__isnull=True)]


def house_bot(bot: str) -> Any | None:
    """The house bot called ``bot`` (any case), or None where it is an author's or none."""
    from arena.server.web.models import Bot  # noqa: PLC0415 - Django, set up by the caller

    return Bot.objects.filter(key=bot.lower(), owner__isnull=True).first()


def league_names(bot: str) -> list[str]:
    """The league names of bot ``bot`` (any case): ``BOT`` and each later ``BOT@N``.

    Raises:
        NotFound: no such bot.
    """
    from arena.server.web.models import Bot, Version  # noqa: PLC0415

    found = Bot.objects.filter(key=bot.lower()).first()
    if found is None:
        raise NotFound(f"no bot {bot!r} here")
    later = Version.objects.select_related("bot").filter(bot=found, number__gt=1)
    return [found.name, *(version.name for version in later)]


def recent(
    folder: Path, bots: Collection[str] | None, limit: int, viewer: Any | None, url: str
) -> list[dict[str, Any]]:
    """The last ``limit`` games of any of the league names ``bots`` (None: of all),
    newest first, as ``viewer`` may see them (see the module)."""
    if not (folder / DATABASE).is_file():
        return []
    apart = () if sees_house(viewer) else house_names()
    store = open_existing(folder)
    try:
        games = store.guarded(lambda: store.recent(bots, limit, apart))
    finally:
        store.close()
    owner_of = owners(seat["bot"] for game in games for seat in game["seats"])
    answer = []
    for game in games:
        seats = game["seats"]
        faults = {
            str(number): {
                "kind": seat["fault"],
                "detail": seat["detail"] if sees_private(viewer, owner_of[seat["bot"]]) else "",
            }
            for number, seat in enumerate(seats)
            if seat["fault"] is not None
        }
        answer.append(
            {
                "id": game["id"],
                "seats": [seat["bot"] for seat in seats],
                "placements": [seat["placement"] for seat in seats],
                "faults": faults,
                "replay": f"{url}/api/v1/games/{game['id']}/replay",
                "url": f"{url}/games/{game['id']}",
            }
        )
    return answer


def replay(folder: Path, game_id: str, viewer: Any | None) -> bytes:
    """The replay of finished game ``game_id`` (JSON lines), as ``viewer`` may see it.

    Raises:
        NotFound: no such finished game, or its replay is gone.
    """
    if not GAME_ID.fullmatch(game_id) or not (folder / DATABASE).is_file():
        raise NotFound(f"no game {game_id!r} here")
    store = open_existing(folder)
    try:
        relative = store.guarded(lambda: store.replay_of(game_id))
    finally:
        store.close()
    path = (folder / relative).resolve() if relative else None
    if path is None or not path.is_relative_to(folder.resolve()) or not path.is_file():
        raise NotFound(f"no game {game_id!r} here")
    lines = [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    seated = {player["name"] for player in lines[0].get("players", [])} if lines else set()
    if seated and not sees_house(viewer) and set(house_names()) >= seated:
        raise NotYours("a game of house bots alone: its results are the organizers' here")
    return b"".join(
        json.dumps(line, separators=(",", ":")).encode() + b"\n" for line in redacted(lines, viewer)
    )


def redacted(lines: list[dict[str, Any]], viewer: Any | None) -> list[dict[str, Any]]:
    """A replay's ``lines`` with what ``viewer`` may not see of each seat taken out."""
    if not lines or lines[0].get("type") != "game":
        return lines
    names = [player["name"] for player in lines[0]["players"]]
    owner_of = owners(names)
    hidden = {seat for seat, name in enumerate(names) if not sees_private(viewer, owner_of[name])}
    if not hidden:
        return lines
    kept = []
    for line in lines:
        line = dict(line)
        if line.get("type") == "game":
            line["players"] = [
                {**player, "bot": player["name"]} if player["seat"] in hidden else player
                for player in line["players"]
            ]
        elif line.get("type") == "move" and line.get("seat") in hidden:
            line.pop("info", None)
            line.pop("log", None)
        faults = line.get("faults")
        if isinstance(faults, dict):
            line["faults"] = {
                seat: {**fault, "detail": ""} if int(seat) in hidden else fault
                for seat, fault in faults.items()
            }
        kept.append(line)
    return kept

"""The ladder's leaderboard for the web app: read-only, cached about a second, redacted.

Page views must never slow the games: the web app opens the ladder's store
read-only and keeps what it read for :data:`FRESH_S`, so a thousand views a
second cost one read a second, and the write-ahead log can checkpoint
between reads. Each row is ``arena leaderboard --format json``'s, with the
version's ``owner`` (null for a house bot), ``version``, ``status`` and ``ranked``; a
row's ``fault_details`` (what a bot printed can be in them) are its owner's
and the organizers' only: anyone else gets an empty list. With
``hide_house``, only organizers see the house bots' rows; anyone else gets
the others, ranked and tiered among themselves.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from arena.results.ratings import tiers
from arena.results.store import DATABASE, open_existing
from arena.server.accounts import sees_house, sees_private

#: How long a read of the ladder's store is served again.
FRESH_S = 1.0

_lock = threading.Lock()
#: What was read of each board (the league's, a final's), by its folder.
_caches: dict[Path, dict[str, Any]] = {}
#: Whole answers for anyone, by key: (made at, body).
_answers: dict[str, tuple[float, bytes]] = {}


def _read(folder: Path) -> list[dict[str, Any]]:
    """The standings with each bot's first faults, or none before the ladder's first game."""
    if not (folder / DATABASE).is_file():
        return []
    store = open_existing(folder)
    try:
        rows = store.guarded(store.standings)
        details = store.guarded(store.fault_details)
    finally:
        store.close()
    return [{**row, "fault_details": details.get(row["bot"], [])} for row in rows]


def _fresh(folder: Path) -> dict[str, Any]:
    """The cache, read again where it is older than :data:`FRESH_S`."""
    with _lock:
        now = time.monotonic()
        cache = _caches.setdefault(folder, {"at": -FRESH_S, "rows": [], "by_bot": {}})
        if now - cache["at"] >= FRESH_S:
            rows = _read(folder)
            cache.update(at=now, rows=rows, by_bot={row["bot"]: row for row in rows})
        return cache


def standings(folder: Path) -> list[dict[str, Any]]:
    """The ladder's rows, at most :data:`FRESH_S` old."""
    return list(_fresh(folder)["rows"])


def rating(folder: Path, name: str) -> dict[str, Any] | None:
    """The ladder's row of the bot ``name`` (a league name), or None before it played."""
    row: dict[str, Any] | None = _fresh(folder)["by_bot"].get(name)
    return row


def fresh_for_anyone(key: str, make: Callable[[], bytes]) -> bytes:
    """What ``make()`` gives, made at most once per :data:`FRESH_S` for ``key``: the
    answers everyone without a token gets alike (the leaderboard's JSON and page), so
    two hundred people watching cost one rendering a second, not forty. Answers past
    :data:`FRESH_S` are dropped as new ones are kept: with a page per bot, what is held
    grows with the pages viewed in the last second, not with the bots there are."""
    with _lock:
        now = time.monotonic()
        made = _answers.get(key)
        if made is not None and now - made[0] < FRESH_S:
            return made[1]
    body = make()
    with _lock:
        now = time.monotonic()
        for stale in [old for old, (at, _) in _answers.items() if now - at >= FRESH_S]:
            del _answers[stale]
        _answers[key] = (now, body)
    return body


def leaderboard(folder: Path, viewer: Any | None) -> list[dict[str, Any]]:
    """The rows as ``viewer`` (a user, or None) may see them (see the module)."""
    from django.conf import settings  # noqa: PLC0415

    from arena.server import verdicts  # noqa: PLC0415
    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    reference = settings.ARENA["server"]["reference_bot"]
    versions = {
        version.name: version
        for version in Version.objects.select_related("bot", "bot__owner").exclude(
            status__in=("queued", "building", "checking", "failed")
        )
    }
    rows = []
    for row in standings(folder):
        version = versions.get(row["bot"])
        owner = None if version is None or version.bot.owner is None else version.bot.owner
        status = version.status if version is not None else "active"
        ranked = verdicts.ranked(version, reference)
        rows.append(
            {
                **row,
                "owner": None if owner is None else owner.username,
                "version": row["bot"],
                "status": status,
                "ranked": ranked,
                "fault_details": row["fault_details"] if sees_private(viewer, owner) else [],
            }
        )
    if sees_house(viewer):
        return rows
    shown = [row for row in rows if row["owner"] is not None]
    # Ranks and tiers among the rows shown: a gap in either would show where a house bot is.
    for rank, (row, tier) in enumerate(
        zip(shown, tiers([(row["mu"], row["sigma"]) for row in shown]), strict=True), start=1
    ):
        row["rank"], row["tier"] = rank, tier
    return shown


def hidden_house(viewer: Any | None) -> list[str]:
    """The house bots' names, where ``hide_house`` keeps their results from ``viewer``;
    none otherwise."""
    from arena.server.games import house_names  # noqa: PLC0415

    return [] if sees_house(viewer) else house_names()


def head_to_head(
    folder: Path, names: list[str], most: int = 20, hidden: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """How a bot's versions (league ``names``) fared against each rival they met (none
    of ``hidden``), the rivals met most first (at most ``most``): games together and the
    share placed above. Read through the pairs' primary key (a bot's own rows), not the
    whole table."""
    path = folder / DATABASE
    if not path.is_file() or not names:
        return []
    marks = ",".join("?" * len(names))
    others = ",".join("?" * len(hidden))
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as db:
        rows = db.execute(
            f"SELECT b, sum(above), sum(games) FROM pairs WHERE a IN ({marks}) "
            f"AND b NOT IN ({marks}) AND b NOT IN ({others}) "
            "GROUP BY b ORDER BY sum(games) DESC, b LIMIT ?",
            [*names, *names, *hidden, most],
        ).fetchall()
    return [
        {"rival": rival, "games": games, "above_pct": round(100.0 * above / games, 1)}
        for rival, above, games in rows
        if games
    ]


#: The games a bot page's rating chart looks back over (the ladder's last ones).
CHART_GAMES = 20_000


def rating_history(folder: Path, names: list[str]) -> dict[str, list[tuple[int, float, float]]]:
    """Each of a bot's versions' ratings over the ladder's last :data:`CHART_GAMES` games,
    each version its own line (a new version starts a new one: the marks)."""
    if not (folder / DATABASE).is_file() or not names:
        return {}
    store = open_existing(folder)
    try:
        last = store.guarded(store.total)
        return store.guarded(lambda: store.history(bots=names, since=last - CHART_GAMES))
    finally:
        store.close()

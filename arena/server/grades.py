"""Grades: the leaderboard and each author's best version, as CSV for a spreadsheet.

A teacher grades a class from two files (organizers only, from ``/organizer``
or the API with a token, so that a grading script can fetch them):

- the board: every row of the ladder's leaderboard, one per version and
  house bot, with its owner, bot, version, rank, tier, score, mu, sigma,
  games, status and whether it is ranked (``true`` once it beat the
  ``reference_bot`` in a paired match; :data:`COLUMNS`);
- the best versions: one row per author, their version with the highest
  score among those with at least :data:`MIN_GAMES` games (a version that
  played a few lucky games must not be what an author is graded by), or
  empty cells and ``status`` saying why where none has that many.

Every cell a stranger chose (an account or a bot's name) is written so that
a spreadsheet shows it and never runs it (:func:`cell`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.results.store import base_name

if TYPE_CHECKING:
    from django.http import HttpResponse

#: The columns of both files, in order.
COLUMNS = (
    "owner", "bot", "version", "rank", "tier", "score", "mu", "sigma", "games", "status",
    "ranked",
)  # fmt: skip
#: Games a version needs to be an author's best.
MIN_GAMES = 50
#: ``status`` of an author none of whose versions has :data:`MIN_GAMES` games.
TOO_FEW = f"no version with {MIN_GAMES} games yet"


def board(folder: Path, viewer: Any) -> list[dict[str, Any]]:
    """The leaderboard's rows with :data:`COLUMNS` as ``viewer`` (an organizer: the
    export is theirs) sees them: with the house bots, even where ``hide_house`` keeps
    them from the authors."""
    from arena.server.board import leaderboard  # noqa: PLC0415 - Django, set up by the caller

    return [
        {
            "owner": row["owner"] or "",
            "bot": base_name(row["bot"]),
            **{key: row[key] for key in COLUMNS if key not in ("owner", "bot", "ranked")},
            "ranked": "true" if row["ranked"] else "false",
        }
        for row in leaderboard(folder, viewer)
    ]


def best(folder: Path, viewer: Any) -> list[dict[str, Any]]:
    """One row per author (every account that is not an organizer's, by name): their
    version with the highest score among those with :data:`MIN_GAMES` games or more
    (ties: more games, then the name), else the author with :data:`TOO_FEW`."""
    from django.contrib.auth.models import User  # noqa: PLC0415

    chosen: dict[str, dict[str, Any]] = {}
    for row in board(folder, viewer):
        if not row["owner"] or row["games"] < MIN_GAMES:
            continue
        held = chosen.get(row["owner"])
        if held is None or _order(row) < _order(held):
            chosen[row["owner"]] = row
    authors = User.objects.filter(is_staff=False).order_by("username")
    empty = dict.fromkeys(COLUMNS, "")
    return [
        chosen.get(user.username) or {**empty, "owner": user.username, "status": TOO_FEW}
        for user in authors
    ]


def response(name: str, folder: Path, viewer: Any) -> HttpResponse:
    """The export ``name`` (``leaderboard``: :func:`board`; ``best``: :func:`best`) as a
    CSV download for ``viewer`` (an organizer)."""
    from django.http import HttpResponse  # noqa: PLC0415

    rows = board(folder, viewer) if name == "leaderboard" else best(folder, viewer)
    answer = HttpResponse(as_csv(rows), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return answer


def _order(row: dict[str, Any]) -> tuple[float, int, str]:
    return (-float(row["score"]), -int(row["games"]), str(row["version"]))


def as_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str] = COLUMNS) -> str:
    """``rows`` as CSV text under a header of ``columns``, each cell :func:`cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell(row.get(key)) for key in columns])
    return out.getvalue()


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: a text that starts like a formula (``=``,
    ``+``, ``-``, ``@``: a name a stranger chose) gets a leading quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value

"""Leaderboard tables: the standings of a tournament as table, markdown, csv or json.

The json format is stable (cli.md): a list, best first, each row with at
least rank, bot, mu, sigma, score, games, wins, avg_place and faults
(kind -> count). With the pairwise figures every format is still one
document: json an object ``{"leaderboard": [...], "pairwise": [...]}``,
csv one long-form table of the pairwise rows (bot, other, above, games).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

from arena.report.figures import figure, share

COLUMNS = (
    ("rank", "rank"),
    ("tier", "tier"),
    ("bot", "bot"),
    ("mu", "mu"),
    ("sigma", "sigma"),
    ("score", "score"),
    ("games", "games"),
    ("wins", "wins"),
    ("win_pct", "win %"),
    ("avg_place", "avg place"),
    ("faults", "faults"),
)
_TABLE_FORMATS = {"table": "simple", "markdown": "github"}


def played(done: int, total: int, *, endless: bool) -> str:
    """How many games are in, for people: "N games so far" for a league that never ends,
    "N of M games played" for an unfinished plan, else "M games"."""
    if endless:
        return f"{done} games so far, in a league that never ends"
    return f"{done} of {total} games played" if done < total else f"{total} games"


def render_leaderboard(rows: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """The leaderboard in ``fmt``: ``table``, ``markdown``, ``csv`` or ``json``."""
    if fmt == "json":
        return json.dumps([dict(row) for row in rows], indent=2)
    cells = [[figure(key, row.get(key)) for key, _ in COLUMNS] for row in rows]
    headers = [title for _, title in COLUMNS]
    if fmt in _TABLE_FORMATS:  # a bot that left a league stays, marked
        for row, line in zip(rows, cells, strict=True):
            if row.get("retired"):
                line[2] = f"{line[2]} (retired)"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([key for key, _ in COLUMNS])
        writer.writerows(cells)
        return out.getvalue().rstrip("\n")
    return tabulate(
        cells, headers=headers, tablefmt=_TABLE_FORMATS[fmt], disable_numparse=True,
        colalign=["right", "right", "left", *["right"] * (len(COLUMNS) - 3)],
    )  # fmt: skip


def render_document(
    rows: Sequence[Mapping[str, Any]],
    pairs: Mapping[tuple[str, str], tuple[int, int]] | None,
    fmt: str,
) -> str:
    """What ``arena leaderboard`` prints: the leaderboard, with ``pairs`` when asked for."""
    if pairs is None:
        return render_leaderboard(rows, fmt)
    if fmt == "json":
        return json.dumps(
            {"leaderboard": [dict(row) for row in rows], "pairwise": _pair_rows(pairs)}, indent=2
        )
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(
            out, fieldnames=["bot", "other", "above", "games"], lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(_pair_rows(pairs))
        return out.getvalue().rstrip("\n")
    bots = [str(row["bot"]) for row in rows]
    return f"{render_leaderboard(rows, fmt)}\n\n{render_pairwise(bots, pairs, fmt)}"


def _pair_rows(pairs: Mapping[tuple[str, str], tuple[int, int]]) -> list[dict[str, Any]]:
    return [
        {"bot": a, "other": b, "above": above, "games": games}
        for (a, b), (above, games) in sorted(pairs.items())
    ]


def render_pairwise(
    bots: Sequence[str], pairs: Mapping[tuple[str, str], tuple[int, int]], fmt: str
) -> str:
    """How often each bot (row) placed above each other bot (column), in games of both."""
    if fmt == "json":
        return json.dumps(_pair_rows(pairs), indent=2)
    cells = []
    for a in bots:
        row: list[str] = [a]
        for b in bots:
            above, games = pairs.get((a, b), (0, 0))
            row.append("-" if a == b else share(above, games))
        cells.append(row)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["above", *bots])
        writer.writerows(cells)
        return out.getvalue().rstrip("\n")
    return tabulate(cells, headers=["placed above ->", *bots], tablefmt=_TABLE_FORMATS[fmt])

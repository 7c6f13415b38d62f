"""One way to write each figure of a leaderboard, in every display but json.

The terminal's table wrote win % as 50.00 where the page wrote 50.0, and the
pairwise share as 58% where the page wrote 57% (``100.0 * above / games`` and
``100 * (above / games)`` round apart at a half). The table, markdown, csv
and the HTML page now take every figure's text from here; json keeps the
stored precision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Decimals of each figure written as a number with a point.
DECIMALS = {"mu": 2, "sigma": 2, "score": 2, "win_pct": 1, "avg_place": 2}


def figure(key: str, value: Any) -> str:
    """A leaderboard row's ``key`` as displays write it ("-" for none)."""
    if value is None:
        return "-"
    if key == "faults":
        return faults_text(value)
    places = DECIMALS.get(key)
    return f"{float(value):.{places}f}" if places is not None else str(value)


def faults_text(faults: Mapping[str, int]) -> str:
    """``crash:2 timeout:1``, kinds in order; "-" for none."""
    return " ".join(f"{kind}:{count}" for kind, count in sorted(faults.items())) or "-"


def share(above: int, games: int) -> str:
    """How often one bot placed above another, as a whole percentage (halves up),
    computed in integers so that every display rounds alike; "-" without games."""
    return f"{(200 * above + games) // (2 * games)}%" if games else "-"

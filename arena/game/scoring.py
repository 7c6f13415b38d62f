"""A seat's score from a game's placements: a fact of the rules, shared by every consumer.

With K seats, a seat placed p (competition numbering, 1 = first) shares
positions p .. p+t-1 with the t seats placed p; it scores ``(K - q) / (K - 1)``
for q the mean of those positions, so a game's scores always sum to K/2 and
the mean seat scores 1/2. ``arena match`` builds its units on it; the research
environments reward seats with it.
"""

from __future__ import annotations

from collections.abc import Sequence


def seat_scores(placements: Sequence[int]) -> list[float]:
    """Each seat's score in [0, 1] from a game's placements (see the module)."""
    k = len(placements)
    shared = {place: placements.count(place) for place in set(placements)}
    return [(k - (place + (shared[place] - 1) / 2)) / (k - 1) for place in placements]

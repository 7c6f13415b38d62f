"""Each new version's tests: against the one it replaced, and against the reference bot.

When a version becomes active while its owner's previous version played,
the builder marks its verdict ``running`` (``against`` the previous one).
The verdicts child then plays the match of the two (the ``arena match``
design: duplicate deals, the field's bots as the other seats, the
sequential probability ratio test with elo0 0, elo1 5, alpha = beta =
0.05) on its own workers (``match_share`` of ``--jobs``), into its own
folder, ``DIR/matches/BOT-N``: its games never count in the ladder's
ratings. It stops at the test's verdict (``H1``: better; ``H0``: not
better by the margin) or at ``match_max_games`` (``inconclusive``). A
newer version, or the version leaving the ladder, supersedes a running
test: it ends ``inconclusive`` with what it had. The verdict's figures
are saved every :data:`SAVE_S` while it runs, and a restarted server goes
on with the same match from its folder (its seed is the folder's secret
and the version's digest).

With a ``reference_bot``, each active version also plays that house bot in
the same kind of match (its verdict is the version's ``reference``, its
folder ``DIR/matches/reference/REF/BOT-N``, its margin elo1 20:
:data:`REFERENCE_TEST`), and it is ``ranked`` once
that match ends H1 (:func:`ranked`): placing above a bot by chance in a
few games ranks no one. That match runs first, since a ranking is what a
class is graded by. A version from before the reference was named or
changed gets its match when the child looks for work
(:func:`mark_unmatched`). A version that leaves the ladder before its
test ends gets ``inconclusive`` (:func:`end_left`); made active again, its
reference match plays again from its folder (:func:`reopened`). A match
whose folder began with another field (bots came or went before a restart)
starts again; one that cannot go on ends with what it had, in one line.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.builds import remove_tree
from arena.bots.spec import BotSpec
from arena.errors import ArenaError
from arena.events.run import Observer, run
from arena.match.result import match_result
from arena.match.schedule import MatchDesign
from arena.match.settings import match_event
from arena.match.stats import Sprt
from arena.results.store import DATABASE, Store, StoreError, open_existing
from arena.server.ladder import (
    Resources,
    Watch,
    active_versions,
    as_bot,
    disabled_house,
    game_settings,
)

#: The test every version gets (the contract's).
TEST = Sprt(0.0, 5.0, 0.05, 0.05)
#: The reference match's test: a wider margin, so that a version clearly better than the
#: reference is ranked within a couple of hundred games (elo1 5 took over 500 games to
#: decide a 250 Elo gap; 20 took 192 in the same games), and one about as good is not.
REFERENCE_TEST = Sprt(0.0, 20.0, 0.05, 0.05)
#: Where the matches' folders are.
MATCHES = "matches"
#: How often a running test's figures are saved for the pages and the API.
SAVE_S = 5.0
#: The field's bots in a test at most (the house bots first, then others by name).
FIELD = 8
#: How often an idle verdicts child looks for a test to run.
IDLE_S = 1.0
#: What a verdict's JSON holds while its match plays, and once it ended without a verdict.
RUNNING, INCONCLUSIVE = '"result": "running"', '"result": "inconclusive"'
#: The kinds of test: against the version it replaced, against the reference bot.
PREVIOUS, REFERENCE = "verdict", "reference"


def running_verdict(against: str) -> str:
    """A verdict just started (JSON, as the version keeps it)."""
    return json.dumps(
        {"against": against, "result": "running", "worse": None, "elo": None,
         "elo_low": None, "elo_high": None, "games": 0}
    )  # fmt: skip


def verdict_of(store: Store, design: MatchDesign, players: int, *, final: bool) -> str:
    """The verdict (JSON) the match in ``store`` has reached; ``running`` unless
    ``final`` and no verdict."""
    figures = match_result(store, design, players).to_dict()
    result = figures["result"]
    if result == "inconclusive" and not final:
        result = "running"
    low, high = figures["elo_ci95"]
    return json.dumps(
        {"against": design.base, "result": result, "worse": figures["worse"],
         "elo": figures["elo"], "elo_low": low, "elo_high": high, "games": figures["games"]}
    )  # fmt: skip


def against_prefix(reference: str) -> str:
    """How a verdict against ``reference`` begins (its JSON's first key)."""
    return json.dumps({"against": reference})[:-1] + ","


def ranked(version: Any | None, reference: str | None) -> bool:
    """Whether ``version`` is ranked: yes without a reference bot, for a house bot (no
    owner; the reference among them) and for a bot with no version row (a house bot
    the league knows by name only), else once its match against ``reference`` ended H1.
    The board and the API ask here, so the two never disagree."""
    if reference is None or version is None or version.bot.owner_id is None:
        return True
    verdict: str = version.reference
    return verdict.startswith(against_prefix(reference)) and '"result": "H1"' in verdict


def _against(reference: str) -> tuple[Any, str]:
    """The head of a version's ``reference`` verdict as SQL compares it, and what it is
    against ``reference``: an exact (case-sensitive) comparison, as :func:`ranked`
    makes (LIKE, which ``startswith`` is on SQLite, ignores case)."""
    from django.db.models.functions import Substr  # noqa: PLC0415

    prefix = against_prefix(reference)
    return Substr("reference", 1, len(prefix)), prefix


def mark_unmatched(reference: str | None) -> int:
    """Start the reference match of every active version that has none against
    ``reference`` (one from before the reference was named or changed); how many. A
    read first, so that a look that finds none takes no write lock."""
    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    if reference is None:
        return 0
    head, prefix = _against(reference)
    stale = Version.objects.filter(status="active").annotate(head=head).exclude(head=prefix)
    if not stale.exists():
        return 0
    return int(
        Version.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).update(
            reference=running_verdict(reference)
        )
    )


def end_left() -> int:
    """End, inconclusive, the tests of every version no longer active whose test was
    still to play (it left the ladder before its turn): none plays them, and "running"
    would say so for ever. Made active again, a version's reference match plays again
    (:func:`reopened`). How many versions; a read first, as in :func:`mark_unmatched`."""
    from django.db.models import Q  # noqa: PLC0415

    from arena.server.web.models import Version  # noqa: PLC0415

    left = Version.objects.exclude(status="active").filter(
        Q(verdict__contains=RUNNING) | Q(reference__contains=RUNNING)
    )
    ended = 0
    for version in left.only("pk", "verdict", "reference"):
        Version.objects.filter(pk=version.pk).update(
            verdict=version.verdict.replace(RUNNING, INCONCLUSIVE),
            reference=version.reference.replace(RUNNING, INCONCLUSIVE),
        )
        ended += 1
    return ended


def reopened(reference_verdict: str) -> str:
    """A version's ``reference`` verdict as it is made active again: a match that ended
    without a verdict (cut short when it left the ladder, or never played) plays again,
    on from its folder; a verdict stays."""
    return reference_verdict.replace(INCONCLUSIVE, RUNNING)


def next_test(reference: str | None = None) -> tuple[Any, str] | None:
    """The oldest active version with a test running, and which test (its match against
    ``reference`` first), or None."""
    from django.db.models import Q  # noqa: PLC0415

    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    active = Version.objects.select_related("bot", "against", "against__bot").filter(
        status="active"
    )
    running = Q(against__isnull=False, verdict__contains=RUNNING)
    if reference is not None:
        head, prefix = _against(reference)
        active = active.annotate(head=head)
        running |= Q(head=prefix, reference__contains=RUNNING)
    version = active.filter(running).order_by("created", "pk").first()
    if version is None:
        return None
    against_it = reference is not None and version.reference.startswith(against_prefix(reference))
    return version, REFERENCE if against_it and RUNNING in version.reference else PREVIOUS


def still_tested(version: Any) -> bool:
    """Whether ``version`` is still its bot's active one (no newer version replaced it)."""
    from arena.server.web.models import Version  # noqa: PLC0415

    return Version.objects.filter(pk=version.pk, status="active").exists()


def field_for(
    folder: Path,
    version: Any,
    house: Sequence[BotSpec],
    resources: Resources,
    base: str | None = None,
) -> list[BotSpec]:
    """The other seats of ``version``'s test: up to :data:`FIELD` bots of the ladder, the
    house bots first (none of ``version``'s own bot's versions, nor the house bot
    ``base`` it is tested against)."""
    off = disabled_house(house)
    field = [spec for spec in house if spec.name not in off and spec.name != base][:FIELD]
    others = sorted(
        (v for v in active_versions().values() if v.bot_id != version.bot_id),
        key=lambda v: v.name,
    )[: FIELD - len(field)]  # only these bot.toml files are read, not a field of 5,000
    return field + [as_bot(folder, other, resources) for other in others]


class Saving(Observer):
    """Saves a running test's figures at most every :data:`SAVE_S`."""

    def __init__(self, version: Any, design: MatchDesign, players: int, kind: str) -> None:
        self.version = version
        self.kind = kind
        self.design = design
        self.players = players
        self.store: Store | None = None
        self.saved = 0.0

    def opened(self, store: Store) -> None:
        self.store = store

    def progress(self, done: int, total: int, seconds: float) -> None:
        if self.store is not None and time.monotonic() - self.saved >= SAVE_S:
            self.saved = time.monotonic()
            figures = verdict_of(self.store, self.design, self.players, final=False)
            save(self.version, self.kind, figures)


def save(version: Any, kind: str, verdict: str) -> None:
    """Keep ``version``'s verdict of the test ``kind`` (:data:`PREVIOUS` or
    :data:`REFERENCE`)."""
    from arena.server.web.models import Version  # noqa: PLC0415

    Version.objects.filter(pk=version.pk).update(**{kind: verdict})


def test_once(
    folder: Path,
    event_keys: dict[str, Any],
    server: dict[str, Any],
    secret: int,
    house: Sequence[BotSpec],
    jobs: int,
) -> bool:
    """Run the oldest running test to its verdict (or until superseded); whether there
    was one. A test that cannot go on (a bot of it that cannot start, files deleted) ends
    with what it had, said in one line on stderr: one stranger's version never stops the
    child, which the supervisor would restart into the same test."""
    reference = server["reference_bot"]
    end_left()
    mark_unmatched(reference)
    found = next_test(reference)
    if found is None:
        return False
    version, kind = found
    against = reference if kind == REFERENCE else version.against.name
    rules, running = game_settings(event_keys)
    where = match_folder(folder, version, kind, against)
    design: MatchDesign | None = None
    try:
        event = _match(folder, server, secret, house, version, kind, (rules, running))
        design = event.design
        try:
            _play(event, where, version, kind, running, jobs)
        except StoreError:
            # The folder holds this match as it began, with another field (bots came or
            # went before a restart, and a match keeps its field): it starts again.
            remove_tree(where)
            _play(event, where, version, kind, running, jobs)
    except ArenaError as error:
        print(f"arena serve: {version.name}'s test against {against} stopped: {error}",
              file=sys.stderr, flush=True)  # fmt: skip
    if design is not None and (where / DATABASE).is_file():
        store = open_existing(where)
        try:
            save(version, kind, verdict_of(store, design, rules.players, final=True))
        finally:
            store.close()
    else:
        save(version, kind, running_verdict(against).replace(RUNNING, INCONCLUSIVE))
    return True


def match_folder(folder: Path, version: Any, kind: str, against: str) -> Path:
    """Where ``version``'s test of ``kind`` against ``against`` plays."""
    own = f"{version.bot.key}-{version.number}"
    if kind == REFERENCE:
        return folder / MATCHES / "reference" / against / own
    return folder / MATCHES / own


def _match(
    folder: Path,
    server: dict[str, Any],
    secret: int,
    house: Sequence[BotSpec],
    version: Any,
    kind: str,
    settings: tuple[Any, Any],
) -> Any:
    """The match of ``version``'s test of ``kind``, seeded by the folder's secret and the
    version's digest (so a restarted server plays the same games)."""
    rules, running = settings
    resources = running.resources
    if kind == REFERENCE:
        base = next(spec for spec in house if spec.name == server["reference_bot"])
        label = f"reference/{base.name}"
    else:
        base = as_bot(folder, version.against, resources)
        label = "verdict"  # the first kind of test: matches begun before keep their seed
    seed = int.from_bytes(
        hashlib.blake2b(f"{secret}/{label}/{version.digest}".encode(), digest_size=8).digest()
    )
    return match_event(
        as_bot(folder, version, resources),
        base,
        field_for(folder, version, house, resources, base.name),
        rules=rules,
        deals=1,
        running=replace(running, seed=seed),
        test=REFERENCE_TEST if kind == REFERENCE else TEST,
        sequential=True,
        max_games=server["match_max_games"],
    )


def _play(event: Any, where: Path, version: Any, kind: str, running: Any, jobs: int) -> None:
    """Play ``event`` into ``where`` until its verdict, or until ``version`` is no longer
    the one tested (a newer version, or it left the ladder) or the season is closed."""
    from arena.server.organizer import closed  # noqa: PLC0415
    from arena.signals import Stopped  # noqa: PLC0415

    saving = Saving(version, event.design, event.players, kind)
    with Watch(lambda: closed() or not still_tested(version)) as watch:
        try:
            run(
                event,
                where,
                sandbox=running.sandbox.capabilities(),
                jobs=jobs,
                pin=False,
                observer=saving,
            )
        except KeyboardInterrupt as stop:
            if isinstance(stop, Stopped) or not watch.fired:
                raise

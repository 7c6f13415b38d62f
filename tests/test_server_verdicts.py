"""The verdicts child's bookkeeping on a real server database (its own SQLite file, made
by the server's migrations): which test plays next, what a version that leaves the
ladder or comes back gets, and what a changed reference bot does. The matches
themselves are played in ``test_server_season.py`` and ``test_server_ladder.py``; this
runs in a process of its own, since Django is set up once per process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arena.server.config import SERVER_KEYS, ServerConfig
from arena.server.folder import prepare
from arena.server.site import migrate, setup
from arena.server.verdicts import (
    PREVIOUS,
    REFERENCE,
    end_left,
    mark_unmatched,
    next_test,
    ranked,
    running_verdict,
)

ROOT = Path(__file__).resolve().parent.parent


def scenario(where: str) -> None:
    """The checks, on a fresh server folder ``where`` (run by the test below)."""
    from django.conf import settings  # noqa: PLC0415 - Django: set up in this process only

    folder = Path(where)
    server = {key: default for key, (_, default) in SERVER_KEYS.items()}
    server["reference_bot"] = "rando"
    setup(folder, ServerConfig(folder / "c.toml", {}, server), prepare(folder), "http://x")
    migrate(folder)
    from django.contrib.auth.models import User  # noqa: PLC0415 - once set up

    from arena.server.versions import activate  # noqa: PLC0415
    from arena.server.web.api import reference_of  # noqa: PLC0415
    from arena.server.web.models import Bot, Version  # noqa: PLC0415

    ann = User.objects.create(username="ann")
    Bot.objects.create(name="rando", key="rando")  # a house bot: no versions, no test
    bot = Bot.objects.create(name="annbot", key="annbot", owner=ann)
    first = Version.objects.create(bot=bot, number=1, digest="a", status="retired")
    second = Version.objects.create(
        bot=bot, number=2, digest="b", status="active", against=first,
        verdict=running_verdict("annbot"),
    )  # fmt: skip

    def fresh(version: Version) -> Version:
        return Version.objects.get(pk=version.pk)

    assert next_test(None) == (second, PREVIOUS), "no reference: the previous-version test"
    assert mark_unmatched("rando") == 1 and mark_unmatched("rando") == 0
    assert fresh(second).reference == running_verdict("rando")
    assert next_test("rando") == (second, REFERENCE), "the reference match first"
    decided = running_verdict("rando").replace('"running"', '"H1"')
    Version.objects.filter(pk=second.pk).update(reference=decided)
    assert next_test("rando") == (second, PREVIOUS) and ranked(fresh(second), "rando")
    # A house bot (the reference among them), or one the league knows by name only, is.
    assert ranked(Version(bot=Bot(key="rando", name="rando")), "rando") and ranked(None, "rando")
    # The key compared exactly: a match against "Rando" says nothing of "rando".
    Version.objects.filter(pk=second.pk).update(reference=decided.replace("rando", "Rando"))
    assert mark_unmatched("rando") == 1 and fresh(second).reference == running_verdict("rando")
    assert next_test("rando") == (second, REFERENCE)

    # Retired before its tests played: they end inconclusive, not "running" for ever.
    Version.objects.filter(pk=second.pk).update(status="retired")
    assert next_test("rando") is None and end_left() == 1 and end_left() == 0
    left = fresh(second)
    assert '"result": "inconclusive"' in left.verdict and not ranked(left, "rando")
    assert '"result": "inconclusive"' in left.reference
    # Made active again: its reference match plays again (the previous test's verdict stays).
    activate(User.objects.create(username="olga", is_staff=True), left)
    back = fresh(second)
    assert back.status == "active" and back.reference == running_verdict("rando")
    assert '"result": "inconclusive"' in back.verdict
    assert next_test("rando") == (second, REFERENCE)

    # Another reference: the match against the old one is no longer shown, nor ranks it.
    Version.objects.filter(pk=second.pk).update(reference=decided)
    assert reference_of(fresh(second)) is not None
    settings.ARENA["server"]["reference_bot"] = "randy"
    assert reference_of(fresh(second)) is None and not ranked(fresh(second), "randy")
    assert ranked(fresh(second), None), "without a reference bot every version is ranked"
    print("scenario passed")


def test_the_verdicts_bookkeeping_on_a_real_server_database(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from tests.test_server_verdicts import scenario; "
         "scenario(sys.argv[1])", str(tmp_path / "club")],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0 and "scenario passed" in done.stdout, done.stdout + done.stderr

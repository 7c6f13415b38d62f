"""Running a season on a real ``arena serve``: what an organizer does around the games
(the grades a teacher exports, ...)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.system import E2E
from tests.test_server import (
    CONFIG,
    KIT,
    PASSWORD,
    Server,
    author,
    free_port,
    settled,
    start,
    zipped,
)
from tests.test_server_ladder import played_by, until

pytestmark = E2E

#: A quick league: one deal a game, three seats, the house bots quick C random bots.
C_RANDOM = Path(__file__).resolve().parent.parent / "sample_bots" / "c" / "random_bot"
SEASON = CONFIG.replace("players = 3\n", "players = 3\ndeals = 1\nmove_ms = 200\n") + "".join(
    f'[[bots]]\nname = "{name}"\ncommand = "{C_RANDOM}"\n' for name in ("rando", "randy")
)


def organizer(server: Server, name: str = "olga") -> str:
    """A new organizer's token."""
    code = server.invite(name, "organizer")
    status, joined = server.call(
        "POST", "/api/v1/join", {"code": code, "user": name, "password": PASSWORD}
    )
    assert status == 201, joined
    return str(joined["token"])


def test_grades_export_the_board_and_each_authors_best_version(tmp_path: Path) -> None:
    """The board as CSV has one row per version and house bot with the issue's columns;
    the best-version CSV has one row per author: the highest score among their versions
    with 50 games or more (a newer version with fewer is passed over), or "no version
    with 50 games yet"; a name made to run in a spreadsheet is quoted; authors get 403,
    anonymous 401."""
    running = start(tmp_path, free_port(), SEASON)
    try:
        olga = organizer(running)
        ann, bob = author(running, "ann"), author(running, "+bob")
        author(running, "carol")  # never uploads
        upload = zipped(KIT, name="annbot")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        upload = zipped(KIT, name="bobbot", change="# bob\n")
        assert running.call("POST", "/api/v1/bots", token=bob, upload=upload)[0] == 202
        assert settled(running, "annbot")["status"] == "active"
        assert settled(running, "bobbot")["status"] == "active"
        until(lambda: min(played_by(running.folder, bot) for bot in ("annbot", "bobbot")) >= 50)
        upload = zipped(KIT, name="annbot", change="# v2\n")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=upload)[0] == 202
        assert settled(running, "annbot@2")["status"] == "active"
        until(lambda: played_by(running.folder, "annbot@2") > 0)

        assert running.text("/api/v1/export/best.csv")[0] == 401
        assert running.text("/api/v1/export/best.csv", ann)[0] == 403
        status, text = running.text("/api/v1/export/leaderboard.csv", olga)
        assert status == 200, text
        header, *rows = list(csv.reader(io.StringIO(text)))
        assert header == ["owner", "bot", "version", "rank", "tier", "score", "mu", "sigma",
                          "games", "status"]  # fmt: skip
        seen = {row[2]: row for row in rows}
        assert set(seen) >= {"rando", "randy", "annbot", "annbot@2", "bobbot"}, seen
        assert seen["annbot@2"][:2] == ["ann", "annbot"] and seen["annbot"][9] == "retired"
        assert seen["rando"][0] == "" and seen["bobbot"][0] == "'+bob", "quoted, never run"
        assert [int(row[3]) for row in rows] == list(range(1, len(rows) + 1))

        status, text = running.text("/api/v1/export/best.csv", olga)
        assert status == 200, text
        header, *rows = list(csv.reader(io.StringIO(text)))
        assert header[:3] == ["owner", "bot", "version"]
        best = {row[0]: row for row in rows}
        assert sorted(best) == ["'+bob", "ann", "carol"], "each author, no organizer"
        assert best["ann"][2] == "annbot", "annbot@2 has fewer than 50 games"
        assert int(best["ann"][8]) >= 50 and best["'+bob"][2] == "bobbot"
        assert best["carol"][1:9] == [""] * 8 and best["carol"][9] == "no version with 50 games yet"
    finally:
        running.process.terminate()
        running.process.wait(timeout=30)

"""Running a season on a real ``arena serve``: what an organizer does around the games
(the grades a teacher exports, ...)."""

from __future__ import annotations

import csv
import io
import itertools
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

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
from tests.test_server_ladder import FIRST_LEGAL, played_by, until
from tests.test_server_pages import Person

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
    anonymous 401. With hide_house, the house bots' results are the organizers' only:
    the board, their pages, versions and games, and head-to-head lines."""
    running = start(
        tmp_path, free_port(), SEASON.replace("[server]\n", "[server]\nhide_house = true\n")
    )
    try:
        olga = organizer(running)
        # Before any upload the house bots play alone: their games are the organizers'.
        until(lambda: running.call("GET", "/api/v1/games", token=olga)[1] != [])
        alone = running.call("GET", "/api/v1/games", token=olga)[1][0]["id"]
        assert running.call("GET", "/api/v1/games")[1] == [], "no game for the others"
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

        assert_house_hidden(running, olga, ann, alone)
        assert running.text("/api/v1/export/best.csv")[0] == 401
        assert running.text("/api/v1/export/best.csv", ann)[0] == 403
        status, text = running.text("/api/v1/export/leaderboard.csv", olga)
        assert status == 200, text
        header, *rows = list(csv.reader(io.StringIO(text)))
        assert header == ["owner", "bot", "version", "rank", "tier", "score", "mu", "sigma",
                          "games", "status", "ranked"]  # fmt: skip
        seen = {row[2]: row for row in rows}
        assert set(seen) >= {"rando", "randy", "annbot", "annbot@2", "bobbot"}, seen
        assert seen["annbot@2"][:2] == ["ann", "annbot"] and seen["annbot"][9] == "retired"
        assert seen["rando"][0] == "" and seen["bobbot"][0] == "'+bob", "quoted, never run"
        assert [int(row[3]) for row in rows] == list(range(1, len(rows) + 1))
        assert {row[10] for row in rows} == {"true"}, "no reference_bot: every row ranked"

        status, text = running.text("/api/v1/export/best.csv", olga)
        assert status == 200, text
        header, *rows = list(csv.reader(io.StringIO(text)))
        assert header[:3] == ["owner", "bot", "version"]
        best = {row[0]: row for row in rows}
        assert sorted(best) == ["'+bob", "ann", "carol"], "each author, no organizer"
        assert best["ann"][2] == "annbot", "annbot@2 has fewer than 50 games"
        assert int(best["ann"][8]) >= 50 and best["'+bob"][2] == "bobbot"
        assert best["carol"][1:9] == [""] * 8 and best["carol"][9] == "no version with 50 games yet"
        assert best["ann"][10] == "true" and best["carol"][10] == ""
    finally:
        running.process.terminate()
        running.process.wait(timeout=30)


def test_a_version_is_ranked_once_its_match_against_the_reference_bot_ends_h1(
    tmp_path: Path,
) -> None:
    """With reference_bot, a new version plays a paired match against that house bot in
    a folder of its own, and is ranked (API, board, CSV, its page) only once the match
    ends H1 (one that plays the first legal move is not); the house bots are ranked from
    the start; a server restarted with another reference matches every version again."""
    league = SEASON.replace("players = 3\n", "players = 2\n").replace(
        "[server]\n", '[server]\nreference_bot = "rando"\nmatch_max_games = 400\n'
    )
    league = league.replace("match_max_games = 60\n", "")
    running = start(tmp_path, free_port(), league)
    try:
        olga, ann, bob = organizer(running), author(running, "ann"), author(running, "bob")
        assert running.call("POST", "/api/v1/bots", token=ann, upload=zipped(KIT))[0] == 202
        weak = zipped(KIT, name="bobbot", change=FIRST_LEGAL)
        assert running.call("POST", "/api/v1/bots", token=bob, upload=weak)[0] == 202
        version = settled(running, "python-greedy")
        assert version["status"] == "active" and version["verdict"] is None
        assert version["reference"]["against"] == "rando"
        if version["reference"]["result"] == "running":
            assert version["ranked"] is False, version
        assert running.call("GET", "/api/v1/versions/rando")[1]["ranked"] is True

        def reference(name: str = "python-greedy") -> dict[str, Any]:
            found: dict[str, Any] = running.call("GET", f"/api/v1/versions/{name}")[1]
            return found

        until(lambda: reference()["reference"]["result"] != "running", timeout=240)
        version = reference()
        assert version["reference"]["result"] == "H1", version["reference"]
        assert version["ranked"] is True and version["reference"]["elo"] > 0
        until(lambda: "python-greedy" in {row["version"] for row in board(running)})
        rows = {row["version"]: row for row in board(running)}
        assert rows["python-greedy"]["ranked"] and rows["rando"]["ranked"]
        status, text = running.text("/api/v1/export/leaderboard.csv", olga)
        assert status == 200 and "python-greedy,python-greedy" in text
        assert (
            next(row for row in csv.reader(io.StringIO(text)) if row[2] == "python-greedy")[10]
            == "true"
        )
        page = running.text("/versions/python-greedy")[1]
        assert "<strong>Ranked</strong>: it beat rando." in page
        match = running.folder / "matches" / "reference" / "rando" / "python-greedy-1"
        with closing(sqlite3.connect(match / "results.sqlite")) as db:
            tested = {row[0] for row in db.execute("SELECT id FROM games")}
            seated = {row[0] for row in db.execute("SELECT DISTINCT bot FROM seats")}
        assert tested and {"python-greedy", "rando"} <= seated, seated
        with closing(sqlite3.connect(running.folder / "results.sqlite")) as db:
            ladder = {row[0] for row in db.execute("SELECT id FROM games")}
        assert not tested & ladder, "the match's games are not the ladder's"

        assert settled(running, "bobbot")["status"] == "active"
        until(lambda: reference("bobbot")["reference"]["result"] != "running", timeout=240)
        weakest = reference("bobbot")
        assert weakest["reference"]["result"] in ("H0", "inconclusive"), weakest["reference"]
        assert weakest["ranked"] is False
        until(lambda: "bobbot" in {row["version"] for row in board(running)})
        assert not next(row for row in board(running) if row["version"] == "bobbot")["ranked"]
        assert "<strong>Not ranked</strong>" in running.text("/versions/bobbot")[1]
        assert ">active, not ranked</td>" in running.text("/")[1]
    finally:
        running.process.terminate()
        running.process.wait(timeout=30)
    # Another reference: every active version gets a match against it, unranked until then.
    running = start(tmp_path, free_port(), league.replace('"rando"', '"randy"', 1))
    try:
        # null until the verdicts child starts its match against randy (a moment after start)
        until(lambda: (reference()["reference"] or {}).get("against") == "randy")
        again = reference()
        assert again["ranked"] is (again["reference"]["result"] == "H1"), again
        until((match.parent.parent / "randy" / "python-greedy-1").is_dir)
    finally:
        running.process.terminate()
        running.process.wait(timeout=30)


#: The house bots of SEASON.
HOUSE = {"greedy", "rando", "randy"}


def board(server: Server) -> list[dict[str, Any]]:
    """The league's leaderboard rows, as anyone sees them."""
    rows: list[dict[str, Any]] = server.call("GET", "/api/v1/leaderboard")[1]
    return rows


def assert_house_hidden(running: Server, olga: str, ann: str, alone: str) -> None:
    """What hide_house keeps from authors and strangers, and shows organizers (``alone``:
    a game of house bots alone)."""
    until(lambda: "annbot@2" in {row["version"] for row in board(running)})  # cached 1 s
    for token in (None, ann):
        rows = running.call("GET", "/api/v1/leaderboard", token=token)[1]
        assert {row["version"] for row in rows} == {"annbot", "annbot@2", "bobbot"}, rows
        assert [row["rank"] for row in rows] == [1, 2, 3], "ranked among themselves"
        assert rows[0]["tier"] == 1 and all(
            0 <= later["tier"] - row["tier"] <= 1 for row, later in itertools.pairwise(rows)
        ), "and tiered among themselves"
        listed = running.call("GET", "/api/v1/games?limit=200", token=token)[1]
        assert listed and all(set(game["seats"]) - HOUSE for game in listed), "no house game"
        for path in ("/api/v1/bots/rando", "/api/v1/versions/rando", "/api/v1/games?bot=rando"):
            status, answer = running.call("GET", path, token=token)
            assert status == 403 and "house bot" in answer["error"], (path, answer)
    assert running.text("/bots/rando")[0] == 403 and running.text("/versions/rando")[0] == 403
    assert running.text(f"/api/v1/games/{alone}/replay", olga)[0] == 200
    assert running.text(f"/api/v1/games/{alone}/replay", ann)[0] == 403
    assert running.text(f"/games/{alone}")[0] == 403
    page = running.text("/")[1]
    assert "/bots/annbot" in page and "/bots/rando" not in page
    signed_in = Person(running)  # a signed-in page is made for its viewer, not cached
    assert signed_in.post("/login", {"username": "ann", "password": PASSWORD})[0] == 200
    page = signed_in.get("/")[2]
    assert "/bots/annbot" in page and "/bots/rando" not in page and ">ann<" in page
    rivals = running.text("/bots/annbot")[1].split('<table id="rivals">')[1].split("</table>")[0]
    assert "bobbot" in rivals and "rando" not in rivals and "randy" not in rivals, rivals
    rows = running.call("GET", "/api/v1/leaderboard", token=olga)[1]
    assert {"rando", "randy"} <= {row["version"] for row in rows}, "organizers see them"
    assert running.call("GET", "/api/v1/bots/rando", token=olga)[0] == 200

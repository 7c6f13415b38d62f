"""Tournament settings: a flag wins over the config file, which wins over the default;
options that cannot go together are refused in one line, before anything runs."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bots.sandbox import SandboxError, SandboxRequest
from arena.cli import main
from arena.errors import RuleError, UsageProblem
from arena.events.run import Unfinished
from arena.events.schedule import ScheduleError
from arena.execute.local import DEFAULT_JOBS
from arena.game.rules import Rules, rules_from
from arena.match.settings import MatchFlags, resolve_match
from arena.protocol import Limits
from arena.tournament.config import DEFAULT_DEALS
from arena.tournament.event import DEFAULT_CONFIDENCE, MAX_GAMES
from arena.tournament.settings import Flags, resolve

ROOT = Path(__file__).resolve().parent.parent
C_BOT = str(ROOT / "sample_bots/c/random_bot")
PY_BOT = str(ROOT / "arena/samples/random_bot.py")

FULL_CONFIG = f"""
name = "club"
players = 3
deals = 7
jobs = 2
pin = false
seed = 11
move_ms = 900
bank_ms = 4000
startup_ms = 3000
gauntlet = "a"
schedule = "sampled"
rounds = 6
stop_top = 2
stop_confidence = 0.9
max_games = 5000
isolate_rotations = true

[rules]
dog_life = "none"

[limits]
memory_mb = 256

[[bots]]
name = "a"
command = "{C_BOT}"

[[bots]]
name = "b"
command = "{C_BOT}"

[[bots]]
name = "c"
command = "{C_BOT}"
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club.toml"
    path.write_text(FULL_CONFIG, encoding="utf-8")
    return path


def test_the_config_file_decides_where_no_flag_is_given(config: Path) -> None:
    settings = resolve(Flags(config_file=config))
    event = settings.tournament
    assert [spec.name for spec in event.bots] == ["a", "b", "c"]
    assert (event.players, event.deals, event.seed) == (3, 7, 11)
    assert event.limits == Limits(startup_ms=3000, move_ms=900, bank_ms=4000)
    assert event.rules == Rules(players=3, dog_life="none")
    assert event.resources == (("memory_mb", 256),)
    assert (event.gauntlet, event.schedule, event.rounds) == ("a", "sampled", 6)
    assert event.stop is not None and (event.stop.top, event.stop.confidence) == (2, 0.9)
    assert (settings.label, settings.folder) == ("club", Path("results/club"))
    assert event.isolated and event.key()["isolated"] is True
    assert (
        settings.max_games,
        settings.running.jobs,
        settings.running.pin,
        settings.running.dask,
    ) == (
        5000,
        2,
        False,
        None,
    )


def test_each_flag_wins_over_the_config_file(config: Path, tmp_path: Path) -> None:
    flags = Flags(
        config_file=config,
        bots=(f"x={C_BOT}", f"y={C_BOT}"),
        players=2,
        deals=1,
        jobs=1,
        pin=True,
        seed=0,
        name="other",
        out=tmp_path / "elsewhere",
        gauntlet="x",
        schedule="swiss",
        rounds=9,
        stop_top=1,
        stop_confidence=0.6,
        max_games=10,
        rules=("dog_life=expanded",),
        move_ms=100,
        bank_ms=200,
        startup_ms=300,
        limits=("memory_mb=128", "cpu_s=5"),
    )
    settings = resolve(flags)
    event = settings.tournament
    assert [spec.name for spec in event.bots] == ["x", "y"]
    assert (event.players, event.deals, event.seed) == (2, 1, 0)
    assert event.limits == Limits(startup_ms=300, move_ms=100, bank_ms=200)
    assert event.rules == Rules(players=2, dog_life="expanded")
    assert event.resources == (("cpu_s", 5), ("memory_mb", 128))
    assert (event.gauntlet, event.schedule, event.rounds) == ("x", "swiss", 9)
    assert event.stop is not None and (event.stop.top, event.stop.confidence) == (1, 0.6)
    assert (settings.label, settings.folder) == ("other", tmp_path / "elsewhere")
    assert (settings.max_games, settings.running.jobs, settings.running.pin) == (10, 1, True)


def test_the_defaults_where_neither_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = resolve(Flags(bots=(f"a={C_BOT}", f"b={C_BOT}", f"c={C_BOT}"), stop_top=1))
    event = settings.tournament
    assert (event.players, event.deals, event.seed) == (3, DEFAULT_DEALS, 0)
    assert event.limits == Limits() and event.rules == Rules(players=3)
    assert (event.schedule, event.rounds, event.gauntlet, event.resources) == (
        "round-robin",
        None,
        None,
        (),
    )
    assert event.stop is not None and event.stop.confidence == DEFAULT_CONFIDENCE
    assert not event.isolated and "isolated" not in event.key(), "older folders' keys hold"
    assert (settings.label, settings.folder) == ("tournament", Path("results/tournament"))
    assert (settings.max_games, settings.running.jobs, settings.running.pin) == (
        MAX_GAMES,
        DEFAULT_JOBS,
        True,
    )
    assert resolve(Flags(bots=tuple(f"b{i}={C_BOT}" for i in range(6)))).tournament.players == 4


def test_a_cluster_in_the_config_file_gives_way_to_jobs_on_the_command_line(
    config: Path,
) -> None:
    config.write_text('dask = "local:2"\n' + FULL_CONFIG, encoding="utf-8")
    assert resolve(Flags(config_file=config)).running.dask == "local:2"
    assert resolve(Flags(config_file=config, jobs=2)).running.dask is None
    assert (
        resolve(Flags(config_file=config, dask="tcp://head:8786")).running.dask == "tcp://head:8786"
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (Flags(bots=(C_BOT,)), "a tournament needs at least 2 bots"),
        (Flags(bots=(PY_BOT, C_BOT), dask="local:2", jobs=2), "jobs and dask exclude"),
        (Flags(bots=(PY_BOT, C_BOT), stop_confidence=0.9), "stop_confidence needs stop_top"),
        (
            Flags(bots=(PY_BOT, C_BOT), no_sandbox=True, required="net"),
            "require and no_sandbox contradict each other",
        ),
        (
            Flags(bots=(PY_BOT, C_BOT), no_sandbox=True, limits=("memory_mb=64",)),
            "limit and no_sandbox contradict each other",
        ),
    ],
)
def test_options_that_cannot_go_together_are_usage_problems(flags: Flags, message: str) -> None:
    with pytest.raises(UsageProblem, match=message):
        resolve(flags)


def test_players_in_a_rule_is_refused_where_seats_come_from_elsewhere() -> None:
    with pytest.raises(RuleError, match=r"rule players=3: seats per table are players$"):
        resolve(Flags(bots=(PY_BOT, C_BOT), rules=("players=3",)))
    assert rules_from(["players=5"]).players == 5
    assert rules_from(["dog_life=none"], players=3, base={"rainbow": True}) == Rules(
        players=3, dog_life="none", rainbow=True
    )
    with pytest.raises(RuleError, match="the number of players is the number of bots given"):
        rules_from(
            ["players=3"], players=2, seats="the number of players is the number of bots given"
        )


def test_the_sandbox_request_is_checked_before_any_layer_is_looked_for() -> None:
    request = SandboxRequest.parse("net, fs", False, ["memory_mb=64", "cpu_s=3"])
    assert request == SandboxRequest(("net", "fs"), False, (("cpu_s", 3), ("memory_mb", 64)))
    assert SandboxRequest.parse("", True, []).capabilities() is None
    with pytest.raises(SandboxError, match="unknown protection 'walls'"):
        SandboxRequest.parse("walls", True, [])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--quiet", "--hide-hands"], "--quiet prints no hands anyway"),
        (["play", PY_BOT, C_BOT, "--no-sandbox", "--limit", "memory_mb=64"], "--limit and"),
        (
            ["tournament", "--bot", PY_BOT, "--bot", C_BOT, "--no-sandbox", "--limit", "cpu_s=1"],
            "--limit and --no-sandbox",
        ),
    ],
)
def test_silent_conflicts_are_refused_at_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "args",
    [
        ["play", PY_BOT, C_BOT, "--rule", "players=3"],
        ["simulate", "--players", "3", "--rule", "players=5"],
        ["tournament", "--bot", PY_BOT, "--bot", C_BOT, "--rule", "players=2"],
    ],
)
def test_a_players_rule_that_would_be_overruled_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("Error: --rule players=")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"jobs": 3, "pin": False, "seed": 9, "move_ms": 50, "limits": ("memory_mb=256",)},
        {"dask": "local:2", "bank_ms": 7, "startup_ms": 900, "no_sandbox": True},
    ],
)
def test_the_run_settings_mean_the_same_in_a_tournament_and_a_match(given: dict[str, Any]) -> None:
    """One resolver: the same flags give a tournament and a match the same limits, resources,
    sandbox request, jobs, pin, cluster and seed (defaults included)."""
    tournament = resolve(Flags(bots=(f"a={C_BOT}", f"b={C_BOT}"), **given))
    match = resolve_match(MatchFlags(new=f"a={C_BOT}", base=f"b={C_BOT}", **given))
    assert tournament.running == match.running
    assert (tournament.tournament.limits, tournament.tournament.resources) == (
        match.event.limits,
        match.event.resources,
    )
    assert tournament.tournament.seed == match.event.seed == given.get("seed", 0)
    assert tournament.running.pin is given.get("pin", True)
    assert tournament.running.jobs == given.get("jobs", DEFAULT_JOBS)


def test_an_error_names_settings_and_a_front_end_spells_them() -> None:
    """The library's message speaks of settings; the values it shows stay as they are,
    braces and all."""
    error = ScheduleError.about("{update} {name}: no bot of that name is given", name="{x}")
    assert str(error) == "update {x}: no bot of that name is given"
    assert error.settings() == ["update"]
    assert (
        error.spelled(lambda setting: f"--{setting}")
        == "--update {x}: no bot of that name is given"
    )
    again = pickle.loads(pickle.dumps(error))  # as a worker process sends it back
    assert again.spelled(str.upper) == "UPDATE {x}: no bot of that name is given"
    plain = ScheduleError("no settings here {at all}")
    assert plain.settings() == [] and plain.spelled(str.upper) == "no settings here {at all}"
    kept = " (1 of 2 games are saved in f; run it again to resume)"
    unfinished = Unfinished(error, 1, 2, Path("f"))
    assert str(unfinished) == f"update {{x}}: no bot of that name is given{kept}"
    assert unfinished.spelled(lambda setting: f"--{setting}").startswith("--update {x}: ")


def test_a_setting_from_the_config_file_is_named_as_its_key(tmp_path: Path) -> None:
    """``rounds = 3`` in a round-robin's file is told about ``rounds``, not ``--rounds``; a
    user who typed one of the settings an error names is told about flags."""
    config = tmp_path / "club.toml"
    config.write_text(
        f'rounds = 3\nout = "{tmp_path / "out"}"\n'
        f'[[bots]]\ncommand = "{C_BOT}"\nname = "a"\n[[bots]]\ncommand = "{C_BOT}"\nname = "b"\n',
        encoding="utf-8",
    )
    messages = {
        "file": "Error: rounds needs schedule sampled or swiss (a round-robin plays every table)",
        "flag": "Error: --rounds needs --schedule sampled or swiss (a round-robin plays every "
        "table)",
        "flags": "Error: --rounds needs --schedule sampled or swiss (a round-robin plays every "
        "table)",
    }
    for source, args in (
        ("file", ["tournament", str(config)]),
        ("flag", ["tournament", str(config), "--rounds", "4"]),
        ("flags", ["tournament", "--bot", C_BOT, "--bot", PY_BOT, "--rounds", "4"]),
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        assert result.stderr.strip() == messages[source]
    typed = ["tournament", str(config), "--schedule", "sampled", "--stop-confidence", "0.9"]
    result = CliRunner().invoke(main, typed)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().endswith("Error: --stop-confidence needs --stop-top K")
    assert not (tmp_path / "out").exists()

"""How many games ``arena match``'s sequential test needs, with duplicate deals and without.

For two pairs of sample bots (greedy against random; the search bot,
``ismcts_bot.py``, against greedy), the SPRT of :mod:`arena.match.stats`
(``elo0`` 0, ``elo1`` 5, ``alpha`` = ``beta`` = 0.05, the defaults of
``arena match``) is fed units, one at a time, and checked after every unit
(``arena match`` checks at round boundaries, every 8 deal sets, so it can
only stop later), until it gives H1 or H0 or a run reaches its cap of games
(inconclusive). ``--design`` picks which of ``arena match``'s two designs is
measured (``copies``, the default, ``field``, or ``both``); each is
measured paired and unpaired, which differ only in pairing.

**Copies** (``arena match`` without ``--field``): NEW against K-1 = 3
copies of BASE; a unit is K games:

- ``paired``: a unit is one deal set, one shuffle played in each of its K
  seat rotations, NEW holding each seat's cards once; the unit is NEW's
  mean score over the K games minus 1/2 (the unit of ``arena match``
  without a field, :mod:`arena.match.units`);
- ``unpaired``: the same, but each of the K games deals its own
  independent shuffle (``deal_set_seed(seed, 1_000_000 + game)``), NEW's
  seat still rotating over the K seats.

**Field** (``arena match --field``): NEW and BASE each play K games
against the same K-1 = 3 field bots (3 random bots for greedy against
random, 3 greedy bots for the search bot against greedy), each field bot
its own in-process instance; a unit is 2K games, NEW's K and BASE's K:

- ``field-paired``: NEW's table ``(NEW, F1, F2, F3)`` plays one deal set in
  its K rotations (rotation ``r`` seats ``table[(seat + r) % K]``, as arena
  does), and BASE's table ``(BASE, F1, F2, F3)`` the same deal set, seeds,
  seats and game ids, so the seeded field bots (seeded from the game id and
  seat at ``game_start``) play the same moves in NEW's and BASE's games
  until the two diverge; the unit is NEW's mean score over its K games
  minus BASE's over its K (the unit of ``arena match --field``);
- ``field-unpaired``: the same, but each of BASE's K games deals its own
  independent shuffle (``deal_set_seed(seed, 1_000_000 + game)``) under its
  own game id, BASE's seat still rotating, so nothing is shared with NEW's
  games (which are still one deal set in its K rotations).

The field unit is a difference of two mean scores, not a mean score minus
1/2: its Elo (``elo_of_score(1/2 + unit)``, as ``arena match --field``
reports and tests it) is NEW's edge over BASE as seen against that field,
not NEW's Elo against BASE, and is not comparable with the copies' Elo.
Games to a verdict count all 2K games of a field unit (BASE's must be
played too).

A game's score for a seat is :func:`arena.game.scoring.seat_scores`'s. Each
game has its own game id (the bots seed their randomness from it and their
seat). Every player is in-process (each bot module loaded once per seat, so
copies of a seeded bot keep their own generator): the referee and the
scoring are arena's own, only the bot processes are left out.

How the runs get their games:

- greedy against random (fast, ~3 ms a game): every run plays fresh games
  from its own base seed (``--seed`` + run), so the runs are independent.
  The unit mean and variance shown are those of ``--calibration-units``
  further units of each design (seed ``--seed`` + 2000) played to the end:
  the units of runs stopped by the test are biased toward what stops it;
- the search bot against greedy (time-bounded search, ~0.6 s a game): a
  pool is played once, ``--search-deals`` units of each design (the
  paired units from deal sets 0.. of seed ``--seed`` + 1000, the unpaired
  units from that seed's independent games), and each of ``--search-runs``
  runs feeds the test that design's pool in its own random order (a
  permutation, drawn from ``--seed``; no unit twice in a run). A run that
  uses up the pool is inconclusive at the pool's size. The runs share
  units, so their spread understates a real one, and each design's median
  is that of its pool: the pool's mean unit, which is noisy, moves it. The
  search bot searches for ``--move-ms`` milliseconds x 0.8 per decision
  (``Limits(move_ms, bank_ms=1)``: no bank); its log is silenced. Its
  strength depends on the machine's speed and load. ``--search-elo1``
  adds the test at larger ``elo1`` (same pools, same orders).

Both pairs, runs and pools are the same for the field design: a field
run plays fresh field units (greedy against random: seed ``--seed`` + run,
calibration units from ``--seed`` + 2000), a field pool is ``--search-deals``
units of each field design from ``--seed`` + 1000 (the copies pool's deal
sets, under game ids of their own). A field unit of the search
pair plays the search bot in its K games only (BASE's K are greedy against
greedy, ~5 ms each), so a field pool takes about as long as a copies pool
of the same size. Caps are in games: ``--cap-games`` // 2K field units a
fresh run, ``--search-deals`` x 2K games a pool.

Printed: a Markdown table per design (per pair, ``elo1`` and design:
H1/H0/capped runs, median and mean games to a verdict, inconclusive runs
counted at the cap, the mean unit (and its Elo) and the units' variance,
and the ratios unpaired/paired of the median games and of the unit
variances), then one JSON line of the same figures. Paired and unpaired
have the same expected unit, so for a test that stops on the drift of its
LLR the variance ratio is what the ratio of games should come near. A
ratio whose unpaired median is at the cap is a lower bound (``>=``); one
whose paired median is, none. Progress goes to stderr. The defaults
(copies) took 19 minutes on 2 cores shared with another job (the search
pool, 3,200 games, 17 of them); on 16 CPUs, ``--design copies`` and
``--design field`` run side by side with ``--jobs 8`` each took 261 s and
296 s (the README's table).

    .venv/bin/python benchmarks/match_sprt.py [--design copies|field|both] [--runs 100] \\
        [--search-runs 40] [--search-deals 400] [--move-ms 50] [--search-elo1 5,10,20] \\
        [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from search_ab import BOTS, InProcess, load  # beside this file

from arena.events.schedule import deal_set_seed
from arena.game import Rules
from arena.game.scoring import seat_scores
from arena.match.stats import Running, Sprt, Verdict, elo_of_score
from arena.protocol import Limits
from arena.referee import play_game

FILES = {"random": "random_bot.py", "greedy": "greedy_bot.py", "search": "ismcts_bot.py"}
#: Seats at a table: NEW and K-1 copies of BASE.
K = 4
#: Where an unpaired game's deal index starts (``deal_set_seed(seed, UNPAIRED + game)``).
UNPAIRED = 1_000_000
DESIGNS = ("paired", "unpaired")
#: The field design's (``arena match --field``): NEW's and BASE's tables against the same field.
FIELD_DESIGNS = ("field-paired", "field-unpaired")
#: ``--design``'s choices, and the designs each measures.
FAMILIES = {"copies": DESIGNS, "field": FIELD_DESIGNS}
#: Each paired design's unpaired counterpart.
UNPAIRED_OF = {"paired": "unpaired", "field-paired": "field-unpaired"}
Message = dict[str, Any]


# ---------------------------------------------------------------------- players


def quiet(*parts: object) -> None:
    """The search bot's log, silenced (it notes each fallback to greedy play)."""


_PLAYERS: dict[tuple[str, int | str], InProcess] = {}


def player(bot: str, seat: int | str) -> InProcess:
    """``bot`` at ``seat``: its own module per seat, loaded once per process.

    A field bot's ``seat`` is its place in the table (``"field1"`` ..), so it
    is an instance of its own, apart from BASE's copies of the same bot.
    """
    key = (bot, seat)
    if key not in _PLAYERS:
        module = load(BOTS / FILES[bot], f"match_sprt_{bot}_{seat}")
        if hasattr(module, "log"):
            setattr(module, "log", quiet)  # noqa: B010 - a module loaded from a file
        _PLAYERS[key] = InProcess(f"{bot}@{seat}", module)
    return _PLAYERS[key]


# ---------------------------------------------------------------------- units


@dataclass(frozen=True)
class Pair:
    """NEW against K-1 copies of BASE (or BASE and NEW against a field), and the clock."""

    new: str
    base: str
    move_ms: int = 1_000
    bank_ms: int = 10_000
    #: The bot the field design's K-1 field seats play.
    field: str = "random"

    @property
    def name(self) -> str:
        """How the table names it."""
        return f"{self.new} vs {self.base}"

    def label(self, design: str) -> str:
        """How the table names it for ``design`` (a field design names its field)."""
        if design in FIELD_DESIGNS:
            return f"{self.name}, field {K - 1} {self.field}"
        return self.name


def games_per_unit(design: str) -> int:
    """The games a unit of ``design`` plays: K, or 2K with a field (NEW's and BASE's)."""
    return 2 * K if design in FIELD_DESIGNS else K


def unit(pair: Pair, design: str, seed: int, index: int) -> float:
    """Unit ``index`` of ``design`` from ``seed``: NEW's mean score over K games minus 1/2.

    Game ``r`` of the unit is rotation ``r`` (table ``(NEW, BASE, ...)``,
    seat ``s`` holding ``table[(s + r) % K]``, so NEW sits at ``-r % K``):
    of one deal set when paired, of its own deal otherwise. A field design's
    unit is :func:`field_unit`'s.
    """
    if design in FIELD_DESIGNS:
        return field_unit(pair, design, seed, index)
    limits = Limits(move_ms=pair.move_ms, bank_ms=pair.bank_ms)
    total = 0.0
    for rotation in range(K):
        seat = -rotation % K
        if design == "paired":
            deal, game_id = deal_set_seed(seed, index), f"s{seed}-d{index}-r{rotation}"
        else:
            game = index * K + rotation
            deal, game_id = deal_set_seed(seed, UNPAIRED + game), f"s{seed}-u{game}"
        players = [player(pair.new if s == seat else pair.base, s) for s in range(K)]
        result = play_game(players, Rules(players=K), seed=deal, game_id=game_id, limits=limits)
        if result.faults:
            raise RuntimeError(f"game {game_id}: faults {result.faults}")
        total += seat_scores(result.placements)[seat]
    return total / K - 0.5


def field_unit(pair: Pair, design: str, seed: int, index: int) -> float:
    """Unit ``index`` of a field design from ``seed``: NEW's mean score minus BASE's.

    NEW's table is ``(NEW, F1, .., F(K-1))``, BASE's ``(BASE, F1, ..)``, the
    field bots ``pair.field`` in instances of their own; game ``r`` of a
    table is rotation ``r`` (seat ``s`` holding ``table[(s + r) % K]``, so
    NEW or BASE sits at ``-r % K``). NEW's K games play deal set ``index``;
    BASE's play it too, with the same seeds and game ids, when paired, and
    each its own deal and id otherwise.
    """
    limits = Limits(move_ms=pair.move_ms, bank_ms=pair.bank_ms)
    field: list[tuple[str, int | str]] = [(pair.field, f"field{place}") for place in range(1, K)]
    means = []
    for side, bot in (("new", pair.new), ("base", pair.base)):
        total = 0.0
        for rotation in range(K):
            seat = -rotation % K
            if side == "new" or design == "field-paired":
                deal, game_id = deal_set_seed(seed, index), f"s{seed}-f{index}-r{rotation}"
            else:
                game = index * K + rotation
                deal, game_id = deal_set_seed(seed, UNPAIRED + game), f"s{seed}-fu{game}"
            table: list[tuple[str, int | str]] = [(bot, seat), *field]
            players = [player(*table[(s + rotation) % K]) for s in range(K)]
            result = play_game(players, Rules(players=K), seed=deal, game_id=game_id, limits=limits)
            if result.faults:
                raise RuntimeError(f"game {game_id} ({side}): faults {result.faults}")
            total += seat_scores(result.placements)[seat]
        means.append(total / K)
    return means[0] - means[1]


def _pool_unit(task: tuple[Pair, str, int, int]) -> tuple[str, int, float]:
    pair, design, seed, index = task
    return design, index, unit(pair, design, seed, index)


@dataclass(frozen=True)
class Run:
    """One run of the test: its verdict ("continue": capped) and the games it used."""

    verdict: Verdict
    games: int


def sequential(units: Iterable[float], sprt: Sprt, per_unit: int = K) -> Run:
    """Feed ``units`` to the test, checking after each, until a verdict or they run out.

    ``per_unit``: the games a unit counts for (:func:`games_per_unit`).
    """
    running = Running()
    for value in units:
        running.add(value)
        verdict = sprt.verdict(running)
        if verdict != "continue":
            return Run(verdict, running.n * per_unit)
    return Run("continue", running.n * per_unit)


def _fresh_run(task: tuple[Pair, str, int, int, Sprt]) -> tuple[Run, list[float]]:
    """A run on fresh games from ``seed``: its result and every unit it played."""
    pair, design, seed, cap_units, sprt = task
    played: list[float] = []

    def stream() -> Iterable[float]:
        for index in range(cap_units):
            played.append(unit(pair, design, seed, index))
            yield played[-1]

    return sequential(stream(), sprt, games_per_unit(design)), played


# ---------------------------------------------------------------------- report


@dataclass
class Case:
    """One pair, elo1 and design: its runs and the units behind them."""

    pair: str
    elo1: float
    design: str
    runs: list[Run]
    #: The units its mean and variance are taken from (see the module).
    units: list[float]
    cap: int
    source: str

    def row(self) -> dict[str, Any]:
        """The figures, as the JSON line gives them."""
        games = [run.games for run in self.runs]
        mean = statistics.fmean(self.units)
        return {
            "pair": self.pair,
            "elo1": self.elo1,
            "design": self.design,
            "source": self.source,
            "runs": len(self.runs),
            "h1": sum(run.verdict == "H1" for run in self.runs),
            "h0": sum(run.verdict == "H0" for run in self.runs),
            "capped": sum(run.verdict == "continue" for run in self.runs),
            "cap_games": self.cap,
            "median_games": statistics.median(games),
            "mean_games": round(statistics.fmean(games), 1),
            "min_games": min(games),
            "max_games": max(games),
            "units_played": len(self.units),
            "unit_mean": round(mean, 4),
            "unit_variance": round(statistics.variance(self.units), 5),
            "elo": round(elo_of_score(0.5 + mean), 1),
        }


#: Each design's table header (the field's unit is a difference of two means).
HEADERS = {
    "copies": (
        "| NEW vs BASE | elo1 | design | runs | H1 / H0 / capped | median games | mean games "
        "| min-max | unit mean (Elo) | unit variance | unpaired/paired: median games / "
        "unit variance |"
    ),
    "field": (
        "| NEW vs BASE, field | elo1 | design | runs | H1 / H0 / capped | median games "
        "(2K = 8 a unit) | mean games | min-max | unit mean: NEW's mean score - BASE's "
        "(Elo of 1/2 + unit) | unit variance | unpaired/paired: median games / unit variance |"
    ),
}


def report(cases: list[Case], settings: dict[str, Any], wall_s: float) -> None:
    """Print a Markdown table per design (copies, field) and the JSON line."""
    rows = [case.row() for case in cases]
    ratios: dict[str, dict[str, Any]] = {}
    cells: dict[str, str] = {}
    for paired in rows:
        if paired["design"] not in UNPAIRED_OF:
            continue
        unpaired = next(
            row
            for row in rows
            if row["pair"] == paired["pair"]
            and row["elo1"] == paired["elo1"]
            and row["design"] == UNPAIRED_OF[paired["design"]]
        )
        key = f"{paired['pair']} @ elo1={paired['elo1']:g}"
        games = round(unpaired["median_games"] / paired["median_games"], 2)
        variance = round(unpaired["unit_variance"] / paired["unit_variance"], 2)
        at_cap = [2 * row["capped"] >= row["runs"] for row in (paired, unpaired)]
        bound = "none" if at_cap[0] else ">=" if at_cap[1] else "="
        ratios[key] = {"median_games": games, "bound": bound, "unit_variance": variance}
        shown = "n/a (paired capped)" if at_cap[0] else f"{'>= ' if at_cap[1] else ''}{games:.2f}"
        cells[key] = f"**{shown}** / {variance:.2f}"
    for number, (family, designs) in enumerate(
        (family, designs)
        for family, designs in FAMILIES.items()
        if any(row["design"] in designs for row in rows)
    ):
        if number:
            print()
        table(HEADERS[family], [row for row in rows if row["design"] in designs], cells)
    print(
        json.dumps(
            {
                "benchmark": "match_sprt",
                "settings": settings,
                "cases": rows,
                "unpaired_over_paired": ratios,
                "wall_s": round(wall_s, 1),
            }
        )
    )


def table(header: str, rows: list[dict[str, Any]], cells: dict[str, str]) -> None:
    """Print one design's Markdown table."""
    print(header)
    print("|---|---:|---|---:|---|---:|---:|---|---:|---:|---:|")
    for row in rows:
        key = f"{row['pair']} @ elo1={row['elo1']:g}"
        ratio = cells[key] if row["design"] not in UNPAIRED_OF else ""
        print(
            f"| {row['pair']} | {row['elo1']:g} | {row['design']} ({row['source']}) "
            f"| {row['runs']} | {row['h1']} / {row['h0']} / {row['capped']} "
            f"| {row['median_games']:g} | {row['mean_games']:g} "
            f"| {row['min_games']}-{row['max_games']} "
            f"| {row['unit_mean']:+.4f} ({row['elo']:+.0f}) | {row['unit_variance']:.5f} "
            f"| {ratio} |"
        )


def progress(text: str) -> None:
    """A line of progress on stderr."""
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- main


def fresh_cases(
    pool: Any,
    pair: Pair,
    args: argparse.Namespace,
    sprt: Sprt,
    designs: tuple[str, ...] = DESIGNS,
) -> list[Case]:
    """Independent runs on fresh games, both ``designs`` (paired, unpaired)."""
    per_unit = games_per_unit(designs[0])
    cap_units = args.cap_games // per_unit
    tasks = [
        (pair, design, args.seed + run, cap_units, sprt)
        for run in range(args.runs)
        for design in designs
    ]
    results: dict[str, list[tuple[Run, list[float]]]] = {design: [] for design in designs}
    started = time.perf_counter()
    for done, (task, result) in enumerate(
        zip(tasks, pool.imap(_fresh_run, tasks, chunksize=1), strict=True), 1
    ):
        results[task[1]].append(result)
        progress(
            f"{pair.name}: run {done}/{len(tasks)} ({task[1]}): {result[0].verdict} after "
            f"{result[0].games} games, {time.perf_counter() - started:.0f} s"
        )
    calibration = play_pool(pool, pair, args.seed + 2000, args.calibration_units, designs)
    return [
        Case(
            pair.label(design),
            sprt.elo1,
            design,
            [run for run, _ in results[design]],
            calibration[design],
            cap_units * per_unit,
            "fresh",
        )
        for design in designs
    ]


def play_pool(
    pool: Any, pair: Pair, seed: int, size: int, designs: tuple[str, ...] = DESIGNS
) -> dict[str, list[float]]:
    """Units ``0 .. size - 1`` of each of ``designs`` from ``seed``, designs interleaved."""
    per_unit = games_per_unit(designs[0])
    tasks = [(pair, design, seed, index) for index in range(size) for design in designs]
    units: dict[str, list[float]] = {design: [0.0] * size for design in designs}
    started = time.perf_counter()
    step = max(1, len(tasks) // 40)
    for done, (design, index, value) in enumerate(
        pool.imap_unordered(_pool_unit, tasks, chunksize=1), 1
    ):
        units[design][index] = value
        if done % step == 0 or done == len(tasks):
            elapsed = time.perf_counter() - started
            progress(
                f"{pair.label(designs[0])}: {done}/{len(tasks)} units ({done * per_unit} games) "
                f"in {elapsed:.0f} s, "
                f"~{elapsed / done * (len(tasks) - done):.0f} s to go"
            )
    return units


def pool_cases(
    pool: Any,
    pair: Pair,
    args: argparse.Namespace,
    sprts: list[Sprt],
    designs: tuple[str, ...] = DESIGNS,
) -> list[Case]:
    """A pool of units per design, played once; runs on random orders of it."""
    per_unit = games_per_unit(designs[0])
    units = play_pool(pool, pair, args.seed + 1000, args.search_deals, designs)
    cases = []
    for sprt in sprts:
        for design in designs:
            runs = []
            for run in range(args.search_runs):
                order = units[design][:]
                random.Random(f"{args.seed}/order/{run}").shuffle(order)
                runs.append(sequential(order, sprt, per_unit))
            cases.append(
                Case(
                    pair.label(design),
                    sprt.elo1,
                    design,
                    runs,
                    units[design],
                    args.search_deals * per_unit,
                    "pool",
                )
            )
    return cases


def main() -> None:
    """Play, test, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="greedy vs random runs per design")
    parser.add_argument("--cap-games", type=int, default=4000, help="a fresh run's cap")
    parser.add_argument(
        "--calibration-units", type=int, default=500, help="greedy vs random: for mean, variance"
    )
    parser.add_argument("--search-runs", type=int, default=40, help="orders of each pool")
    parser.add_argument("--search-deals", type=int, default=400, help="units in each pool")
    parser.add_argument("--move-ms", type=int, default=50, help="the search bot's move_ms")
    parser.add_argument("--search-elo1", default="5,10,20", help="elo1 values for the search pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip", choices=("greedy", "search"), help="leave one pair out")
    parser.add_argument(
        "--design",
        choices=(*FAMILIES, "both"),
        default="copies",
        help="copies of BASE (arena match), a field (arena match --field), or both",
    )
    args = parser.parse_args()
    families = list(FAMILIES) if args.design == "both" else [args.design]
    sprt = Sprt().checked()
    sprts = [Sprt(elo1=float(text)).checked() for text in args.search_elo1.split(",")]
    started = time.perf_counter()
    cases: list[Case] = []
    with Pool(args.jobs) as pool:
        if args.skip != "greedy":
            greedy = Pair("greedy", "random", field="random")
            for family in families:
                cases += fresh_cases(pool, greedy, args, sprt, FAMILIES[family])
        if args.skip != "search":
            search = Pair("search", "greedy", move_ms=args.move_ms, bank_ms=1, field="greedy")
            for family in families:
                cases += pool_cases(pool, search, args, sprts, FAMILIES[family])
    wall_s = time.perf_counter() - started
    settings = {
        "players": K,
        "elo0": sprt.elo0,
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "check": "after every unit",
        "runs": args.runs,
        "cap_games": args.cap_games,
        "calibration_units": args.calibration_units,
        "search_runs": args.search_runs,
        "search_pool_units": args.search_deals,
        "search_move_ms": args.move_ms,
        "search_bank_ms": 1,
        "seed": args.seed,
        "jobs": args.jobs,
    }
    if args.design != "copies":
        settings["design"] = args.design
        settings["field"] = {
            "greedy vs random": f"{K - 1} random",
            "search vs greedy": f"{K - 1} greedy",
        }
        settings["field_games_per_unit"] = 2 * K
    progress(f"done in {wall_s:.0f} s")
    report(cases, settings, wall_s)


if __name__ == "__main__":
    main()

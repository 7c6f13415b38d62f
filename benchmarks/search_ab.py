"""A/B tests of the search bot in-process: quick, paired comparisons while tuning it.

``benchmarks/strength.py`` is the reference (real processes, the sandbox,
the referee's clocks); this one plays the same kind of games, a Python bot
module against three greedy bots on duplicate deals in every seat, but with
every player in one process per worker, so a variant is judged in minutes.
``--set NAME=VALUE`` overrides a constant of the module (``TIME_SHARE``,
``CHOOSER_EDGE``, ...). ``--save`` keeps each game's result; ``--against``
pairs this run with a saved one game by game (same deal, same seat), which
cancels much of the luck of the deal:

    .venv/bin/python benchmarks/search_ab.py --deals 200 --save /tmp/a.json
    .venv/bin/python benchmarks/search_ab.py --deals 200 --set CHOOSER_EDGE=0.76 \\
        --against /tmp/a.json

``--oracle N`` measures what hidden information is worth: the bot is told
the true hidden cards once it has seen N moves of the others this hand
(0: always), the rest of its search unchanged.

Time-bounded search makes runs of one variant differ: 800 games give a
standard error of about 1.7 points on a win rate and on a paired difference.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import math
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from types import ModuleType
from typing import Any

import arena.referee
from arena.game import GameState, Rules
from arena.protocol import Limits
from arena.referee import play_game

BOTS = Path(__file__).resolve().parent.parent / "arena" / "samples"
Message = dict[str, Any]


def load(path: Path, name: str) -> ModuleType:
    """Import a bot module from its file (its folder on the path, as when it runs)."""
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcess:
    """A bot module as a referee player: its ``choose``, and its info handler if any.

    ``choose(state, legal)`` or ``choose(state, legal, request)``; the handler is
    ``TRACKER.see`` or ``on_info``, given every message the seat receives.
    """

    def __init__(self, name: str, module: ModuleType) -> None:
        self.name = name
        self.description = "in-process"
        self.choose: Callable[..., Any] = module.choose
        self.wants_request = len(inspect.signature(self.choose).parameters) >= 3
        tracker = getattr(module, "TRACKER", None)
        self.see: Callable[[Message], None] | None = (
            tracker.see if tracker is not None else getattr(module, "on_info", None)
        )

    def start_game(self, message: Message, line: bytes) -> None:
        """Pass ``game_start`` on (the bot seeds itself from it)."""
        self.deliver(message, line)

    def deliver(self, message: Message, line: bytes) -> None:
        """Pass an information message on."""
        if self.see is not None:
            self.see(message)

    def request(self, message: Message, line: bytes, timeout_s: float) -> tuple[str, float]:
        """Ask the module, timing it (the referee charges the bank with the time)."""
        started = time.perf_counter()
        if self.wants_request:
            answer = self.choose(message["state"], message["legal"], message)
        else:
            answer = self.choose(message["state"], message["legal"])
        move: str = answer[0] if isinstance(answer, tuple) else answer  # (move, info) or move
        return move, (time.perf_counter() - started) * 1000

    def end_game(self) -> None:
        """Nothing to do."""

    def abandon(self, error_line: bytes | None) -> None:
        """A fault of an in-process sample bot is a bug: say so."""
        raise RuntimeError(f"{self.name} faulted: {error_line!r}")


class Oracle:
    """The referee's game, shown to the challenger's deal sampler (``--oracle``)."""

    game: GameState | None = None
    watching = False

    @classmethod
    def watch(cls) -> None:
        """Keep each new game's state where the sampler can read it.

        Once per process: a worker plays many games, and wrapping the
        constructor again for each would nest the wrappers ever deeper.
        """
        if cls.watching:
            return
        if not str(arena.referee.__file__).endswith(".py"):
            raise SystemExit(
                "--oracle wraps GameState.__init__, which the compiled referee calls "
                "natively, past the wrapper: run it on the Python build "
                "(ARENA_PURE_PYTHON=1 .venv/bin/pip install -e .)"
            )
        cls.watching = True
        start = GameState.__init__

        def init(self: GameState, *args: Any, **kwargs: Any) -> None:
            start(self, *args, **kwargs)
            cls.game = self

        GameState.__init__ = init  # type: ignore[method-assign]

    @classmethod
    def install(cls, bot: ModuleType, after: int) -> None:
        """Replace the bot's deal sampler: the true hands once ``after`` moves are seen."""
        sample = bot.sample_hands

        def true_hands(state: Message, rng: Any) -> Any:
            seen = sum(1 for seat, _ in bot.TRACKER.moves if seat != state["seat"])
            if seen < after or cls.game is None:
                return sample(state, rng)
            hands = [list(held) for held in cls.game.hands]
            return hands, [], [s for s in range(len(hands)) if s != state["seat"]]

        # MCMC off: the true deal explains every move, there is nothing to walk to.
        bot.__dict__.update(sample_hands=true_hands, MCMC=False)


def one_game(task: tuple[str, dict[str, str], int, int, int, int | None]) -> tuple[int, int, int]:
    """Play one deal with the challenger in one seat; its placement."""
    path, settings, deal, seat, move_ms, oracle = task
    challenger = load(Path(path), "challenger")
    for name, text in settings.items():
        old = getattr(challenger, name)
        value = text in ("1", "true") if isinstance(old, bool) else type(old)(text)
        setattr(challenger, name, value)
    if oracle is not None:
        Oracle.watch()
        Oracle.install(challenger, oracle)
    greedy = load(BOTS / "greedy_bot.py", "greedy")
    players = [
        InProcess("challenger", challenger) if s == seat else InProcess(f"greedy{s}", greedy)
        for s in range(4)
    ]
    limits = Limits(move_ms=move_ms, bank_ms=10 * move_ms)
    result = play_game(players, Rules(), seed=deal, game_id=f"ab{deal}", limits=limits)
    return deal, seat, result.placements[seat]


def main() -> None:
    """Run the games, print the win rate, save and pair as asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default=str(BOTS / "ismcts_bot.py"))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--move-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--oracle", type=int, metavar="N", help="true hands after N moves seen")
    args = parser.parse_args()
    settings = dict(item.split("=", 1) for item in args.set)
    deals = range(args.first_deal, args.first_deal + args.deals)
    tasks = [(args.bot, settings, d, s, args.move_ms, args.oracle) for d in deals for s in range(4)]
    with Pool(args.jobs) as pool:
        results = pool.map(one_game, tasks, chunksize=1)
    wins = sum(place == 1 for _, _, place in results)
    rate = wins / len(results)
    print(
        json.dumps(
            {
                "benchmark": "search_ab",
                "settings": settings,
                "oracle": args.oracle,
                "games": len(results),
                "wins": wins,
                "win_rate": round(rate, 4),
                "se": round(math.sqrt(rate * (1 - rate) / len(results)), 4),
                "avg_place": round(sum(p for _, _, p in results) / len(results), 3),
            }
        )
    )
    if args.save:
        args.save.write_text(json.dumps(results))
    if args.against:
        before = {(d, s): p for d, s, p in json.loads(args.against.read_text())}
        diffs = [(p == 1) - (before[d, s] == 1) for d, s, p in results if (d, s) in before]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1))
        print(
            f"paired with {args.against} over {len(diffs)} games: "
            f"{100 * mean:+.1f} points (se {100 * spread / math.sqrt(len(diffs)):.1f})"
        )


if __name__ == "__main__":
    main()

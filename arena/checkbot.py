"""``arena check-bot``: a protocol conformance report for one bot, or for a class.

The bot plays real games through the referee (as seat 0, against in-process
random opponents) under every rule option, including hand-built deals that
put it in a Dog's Life, a blind Dog's Life, a face-up Dog's Life and a
``no_picture`` declaration. Each check passes or fails with a reason.
:func:`check_bots` checks several bots side by side (a teacher's 24), each
bot's stderr kept in a log its report names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bots.builds import BuildWatcher
from arena.bots.health import build_all
from arena.bots.player import BYE_GRACE_S, ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec, parse_bots
from arena.errors import BotFault, FaultKind
from arena.execute.game import play_one
from arena.game import Rules
from arena.game.cards import CARD_INDEX
from arena.game.decks import DeckSource, StackedDecks, stack_deal
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.referee import Fault, GameResult, Player
from arena.tournament.config import config_bots, load_config

JSON = dict[str, Any]


@dataclass
class Check:
    """One line of the report."""

    name: str
    passed: bool
    detail: str = ""
    #: False for a check a failure before it made meaningless (it did not run): shown
    #: "not reached", never PASS ("answers in time (0 requests)" passed nothing).
    reached: bool = True


#: What a reply that is not JSON usually is, and where it belongs.
STDOUT_HINT = "print debug output to stderr, not stdout: stdout carries the protocol"


@dataclass
class _Recorder:
    """Wraps the bot's player to see the requests it was sent and its answers."""

    inner: ProcessPlayer
    asked: list[tuple[str, list[str], str]] = field(default_factory=list)
    slowest_ms: float = 0.0
    #: The request the bot was last asked and has not answered (None: all answered).
    waiting: JSON | None = None
    name: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        self.name = self.inner.name
        self.description = self.inner.description

    def start_game(self, message: JSON, line: bytes) -> None:
        self.inner.start_game(message, line)

    def deliver(self, message: JSON, line: bytes) -> None:
        self.inner.deliver(message, line)

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        self.waiting = message  # still set if no answer comes: the check names it
        move, ms = self.inner.request(message, line, timeout_s)
        self.waiting = None
        self.asked.append((message["action"], message["legal"], move))
        self.slowest_ms = max(self.slowest_ms, ms)
        return move, ms

    def end_game(self) -> None:
        self.inner.end_game()

    def abandon(self, error_line: bytes | None) -> None:
        self.inner.abandon(error_line)


class _TrumpSpades(RandomPlayer):
    """A random opponent that always names spades, so hand-built deals stay predictable."""

    def _choose(self, request: JSON) -> str:
        return "S" if request["action"] == "trump" else super()._choose(request)


def _cards(text: str) -> list[int]:
    return [CARD_INDEX[card] for card in text.split()]


def _dog_decks() -> DeckSource:
    """Deals in which seat 0 cannot take a trick in hand 1 nor with its dog card in hand 2.

    Seat 0 holds 2C..8C while every opponent holds two higher clubs and
    hearts are trumps; in hand 2 (spades named by an opponent) its one card
    is 2C.
    """
    hand_1 = stack_deal(
        4,
        0,
        {
            0: _cards("2C 3C 4C 5C 6C 7C 8C"),
            1: _cards("9C TC 3H 4H 5H 6H 7H"),
            2: _cards("JC QC 8H 9H TH JH QH"),
            3: _cards("KC AC KH AH 2D 3D 4D"),
        },
        hand_size=7,
        turn_up=CARD_INDEX["2H"],
    )
    hand_2 = stack_deal(
        4,
        1,
        {0: _cards("2C")},
        hand_size=6,
        statuses=["dog", "active", "active", "active"],
    )
    return StackedDecks(
        {("cut", 0): _cards("AS 2D 3D 4D"), ("deal", 1): hand_1, ("deal", 2): hand_2}
    )


def _no_picture_decks() -> DeckSource:
    """Hand 1 gives seat 0 nothing above a ten."""
    hand_1 = stack_deal(4, 0, {0: _cards("2C 3H 5D 7S 8C 9H TD")}, hand_size=7)
    return StackedDecks({("cut", 0): _cards("AS 2D 3D 4D"), ("deal", 1): hand_1})


RULE_VARIANTS: tuple[tuple[str, JSON], ...] = (
    ("standard rules", {}),
    ("dog_life=expanded", {"dog_life": "expanded"}),
    ("dog_life=none", {"dog_life": "none"}),
    ("dog_first_hand_only", {"dog_first_hand_only": True}),
    ("blind_dog", {"blind_dog": True}),
    ("upside_dog", {"upside_dog": True}),
    ("rainbow", {"rainbow": True}),
    ("no_picture", {"no_picture": True}),
    ("trumps_broken", {"trumps_broken": True}),
    ("eliminated_deals", {"eliminated_deals": True}),
    ("sweep_wins", {"sweep_wins": True}),
    ("tie_break=random", {"tie_break": "random"}),
    ("2 players", {"players": 2}),
    ("7 players", {"players": 7}),
    (
        "every option at once",
        {
            "dog_life": "expanded",
            "blind_dog": True,
            "upside_dog": True,
            "rainbow": True,
            "no_picture": True,
            "trumps_broken": True,
            "eliminated_deals": True,
            "players": 5,
        },
    ),
)


#: What a hand-built situation looks for in one request: its legal moves and its action.
_Wanted = Callable[[list[str], str], bool]


def _situations() -> list[tuple[str, JSON, DeckSource, _Wanted]]:
    """The hand-built situations: a label, the rule options, the deals that make the
    situation, and how to tell that the bot was asked in it."""
    return [
        ("dog: knocks or plays", {}, _dog_decks(), lambda legal, a: "knock" in legal),
        (
            "blind dog: plays unseen",
            {"blind_dog": True},
            _dog_decks(),
            lambda legal, a: "blind" in legal,
        ),
        (
            "face-up dog",
            {"upside_dog": True},
            _dog_decks(),
            lambda legal, a: "knock" in legal,
        ),
        (
            "no_picture declaration",
            {"no_picture": True},
            _no_picture_decks(),
            lambda legal, a: a == "no_picture",
        ),
    ]


class _Session:
    """The games the bot plays for one report, in one process, each with a seed of its own."""

    def __init__(self, player: ProcessPlayer, limits: Limits, seed: int) -> None:
        self.player = player
        self.bot = _Recorder(player)
        self.limits = limits
        self.seed = seed
        self.played = 0
        #: The bot's fault in each game it faulted in.
        self.faults: list[Fault] = []

    def game(self, rules: Rules, decks: DeckSource | None = None) -> GameResult:
        """Play one game with the bot as seat 0 and random opponents that name spades."""
        self.played += 1
        opponents: list[Player] = [_TrumpSpades(f"opponent{s}") for s in range(1, rules.players)]
        result = play_one(
            [self.bot, *opponents],
            rules,
            seed=self.seed * 1000 + self.played,
            game_id=f"check-{self.seed}-{self.played}",
            limits=self.limits,
            decks=decks,
        )
        if 0 in result.faults:
            self.faults.append(result.faults[0])
        return result


def _fault_text(result: GameResult) -> str:
    """The bot's fault in a game, as the report says it ("": none); a reply that is not
    JSON gets the hint where such a line belongs."""
    fault = result.faults.get(0)
    if fault is None:
        return ""
    hint = f" ({STDOUT_HINT})" if "not JSON" in fault.detail else ""
    return f"{fault.kind.value}: {fault.detail}{hint}"


def _no_answers(session: _Session, first: GameResult, fault: Fault) -> Check:
    """The check a bot fails when its first game had no answer of it: silent, or a line
    that is not a reply (debug output on stdout)."""
    if fault.kind is FaultKind.TIMEOUT:
        asked = session.bot.waiting or {}
        limits = session.limits
        return Check(
            "answers requests",
            False,
            f"no reply to its first request (game {first.game_id}, request "
            f"{asked.get('id')}: {asked.get('action')}) within {limits.move_ms} ms + "
            f"{limits.bank_ms} ms of bank; the other checks need answers",
        )
    return Check("answers requests", False, f"{_fault_text(first)}; the other checks need answers")


def _answering_checks(games: int) -> list[str]:
    """The checks that need a bot that answers, by name, in the report's order."""
    return [
        "plays a standard game",
        *(f"rules: {label}" for label, _ in RULE_VARIANTS),
        *(label for label, _, _, _ in _situations()),
        f"survives {games} games in one process",
        "answers in time",
        "only legal moves",
        "well-formed replies with the right ids",
        "never crashes",
    ]


def check_bot(
    spec: BotSpec,
    limits: Limits,
    *,
    games: int = 20,
    seed: int = 1,
    log_dir: Path | None = None,
    sandbox: Capabilities | str | None = "detect",
) -> Iterator[Check]:
    """Run every check against the bot, yielding each result as it is known (its stderr
    to ``log_dir/NAME.stderr.log`` where given), in ``sandbox`` (every layer found, by
    default; a server's, which gives a stranger's bot a uid of its own or refuses it)."""
    player = ProcessPlayer(spec, limits, log_dir=log_dir, sandbox=sandbox)
    session = _Session(player, limits, seed)
    try:
        first = session.game(Rules())
        handshake = player.ready is not None
        yield Check(
            "handshake",
            handshake,
            f"ready as {player.ready.get('name')!r}" if player.ready else _fault_text(first),
        )
        if not handshake:  # nothing else can be checked of a bot that does not start
            yield from (Check(name, False, "not reached: no handshake", False)
                        for name in [*_answering_checks(games), "exits on bye"])  # fmt: skip
            player.close()
            return
        fault = first.faults.get(0)
        if fault is not None and not session.bot.asked:
            # Every other check needs answers: a bot that gives none fails now, not in minutes,
            # and the checks it never reached say so rather than pass on no requests.
            yield _no_answers(session, first, fault)
            yield from (Check(name, False, "not reached: it gave no answer", False)
                        for name in _answering_checks(games))  # fmt: skip
        else:
            yield Check("plays a standard game", 0 not in first.faults, _fault_text(first))
            for label, options in RULE_VARIANTS:
                result = session.game(Rules.from_dict(options))
                yield Check(f"rules: {label}", 0 not in result.faults, _fault_text(result))
            yield from _situation_checks(session)
            yield _endurance_check(session, games)
            yield from _fault_checks(session)
    finally:
        status = player.close()
    yield _exits_on_bye(player, status)


def _situation_checks(session: _Session) -> Iterator[Check]:
    """Whether the bot plays through each hand-built situation and was asked in it."""
    bot = session.bot
    for label, options, decks, wanted in _situations():
        before = len(bot.asked)
        result = session.game(Rules.from_dict(options), decks)
        reached = any(wanted(legal, action) for action, legal, _ in bot.asked[before:])
        if 0 in result.faults:
            yield Check(label, False, _fault_text(result))
        else:
            yield Check(label, reached, "" if reached else "the situation was not reached")


def _endurance_check(session: _Session, games: int) -> Check:
    """Whether the bot plays ``games`` standard games more without a fault or a restart."""
    player = session.player
    starts = player.starts
    faults: list[str] = []
    for _ in range(games):
        result = session.game(Rules())
        if 0 in result.faults:
            faults.append(_fault_text(result))
    restarted = player.starts - starts
    return Check(
        f"survives {games} games in one process",
        not faults and restarted == 0,
        faults[0] if faults else f"restarted {restarted} times" if restarted else "",
    )


def _fault_checks(session: _Session) -> Iterator[Check]:
    """A check for each kind of fault, over every game the session played."""
    bot, limits = session.bot, session.limits
    for kind, label in (
        (FaultKind.TIMEOUT, "answers in time"),
        (FaultKind.ILLEGAL, "only legal moves"),
        (FaultKind.MALFORMED, "well-formed replies with the right ids"),
        (FaultKind.CRASH, "never crashes"),
    ):
        bad = [f.detail for f in session.faults if f.kind is kind]
        summary = f"{len(bot.asked)} requests in {session.played} games"
        if kind is FaultKind.TIMEOUT:
            summary += f", slowest {bot.slowest_ms:.1f} ms (limit {limits.move_ms} ms)"
        yield Check(label, not bad, f"{len(bad)} faults, e.g. {bad[0]}" if bad else summary)


def _exits_on_bye(player: ProcessPlayer, status: int | None) -> Check:
    """Whether the bot exits with status 0 within the grace after ``bye`` (protocol/README.md).

    A bot stopped after a fault never got its ``bye``; it is asked in a
    session of its own, so the verdict is about what the bot does.
    """
    if status is None:  # the last process was stopped for a fault: no bye was sent to it
        try:
            player.launch()
        except BotFault as fault:
            return Check("exits on bye", False, f"a new session failed: {fault.detail}")
        status = player.close()
    if status == 0:
        return Check("exits on bye", True, "")
    if status is not None and status < 0:
        detail = f"still running {BYE_GRACE_S:g} s after bye (stopped by signal {-status})"
    else:
        detail = f"exit status {status} after bye"
    return Check("exits on bye", False, detail)


@dataclass(frozen=True)
class Report:
    """One bot's checks, for a table of several bots."""

    bot: str
    checks: tuple[Check, ...]
    #: Its stderr, kept for the checks' games (None: none was written).
    log: Path | None = None

    @property
    def passed(self) -> int:
        return sum(check.passed for check in self.checks)

    @property
    def started(self) -> bool:
        """Whether it answered ``hello`` (the first check)."""
        return bool(self.checks) and self.checks[0].passed

    @property
    def problem(self) -> Check | None:
        """The first check that failed (None: all passed)."""
        return next((check for check in self.checks if not check.passed), None)


def check_bots(
    specs: Sequence[BotSpec], limits: Limits, *, games: int, jobs: int, log_dir: Path
) -> Iterator[Report]:
    """Check each bot (:func:`check_bot`), ``jobs`` at once, its stderr in ``log_dir``;
    yield the reports in the order given, each as soon as it and those before are done."""

    def one(spec: BotSpec) -> Report:
        log = log_dir / f"{spec.name}.stderr.log"
        log.unlink(missing_ok=True)  # the log of this check only (a bot's log appends)
        checks = tuple(check_bot(spec, limits, games=games, log_dir=log_dir))
        return Report(spec.name, checks, log if log.is_file() else None)

    with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(specs)))) as pool:
        yield from pool.map(one, specs)


@dataclass(frozen=True)
class Row:
    """One bot's line in the table of several bots checked (:func:`check_table`)."""

    bot: str
    #: "yes", "no" (its build failed) or "-" (it has no build).
    built: str
    #: "yes", "no" (no valid ready) or "-" (not built, so not tried).
    started: str
    #: Checks passed of those run, "27/27"; "-" where none ran.
    checks: str
    #: The first problem in one line, with its log's path; "" where every check passed.
    problem: str

    HEADERS = ("bot", "built", "started", "checks", "first problem")

    def cells(self) -> list[str]:
        return [self.bot, self.built, self.started, self.checks, self.problem]


def check_table(
    specs: Sequence[BotSpec],
    limits: Limits,
    *,
    games: int,
    jobs: int,
    log_dir: Path,
    rebuild: bool,
    watcher: BuildWatcher | None = None,
) -> list[Row]:
    """Build every bot, check each one that built (:func:`check_bots`), and say each in a
    :class:`Row`, in the order given: a bot whose build failed is one row too (a class's
    24 bots are checked at once, the broken ones named beside the rest)."""
    broken = {bot.bot: bot for bot in build_all(specs, rebuild=rebuild, watcher=watcher)}
    built = [spec for spec in specs if spec.name not in broken]
    reports = {r.bot: r for r in check_bots(built, limits, games=games, jobs=jobs, log_dir=log_dir)}
    rows = []
    for spec in specs:
        made = "-" if spec.build is None else "no" if spec.name in broken else "yes"
        report = reports.get(spec.name)
        if report is None:
            rows.append(Row(spec.name, made, "-", "-", broken[spec.name].why))
            continue
        problem = report.problem
        said = "" if problem is None else f"{problem.name}: {problem.detail}".rstrip(": ")
        if problem is not None and report.log is not None:
            said += f" (log: {report.log})"
        started = "yes" if report.started else "no"
        rows.append(Row(spec.name, made, started, f"{report.passed}/{len(report.checks)}", said))
    return rows


def bots_to_check(texts: Sequence[str]) -> list[BotSpec]:
    """The bots ``arena check-bot`` is given: BOT arguments, or the bots of one
    tournament config file (``class.toml``).

    Raises:
        ArenaError: a bad BOT argument or config file, in one line.
    """
    if len(texts) == 1 and texts[0].endswith(".toml") and Path(texts[0]).is_file():
        path = Path(texts[0])
        return config_bots(load_config(path), path)
    return parse_bots(list(texts))

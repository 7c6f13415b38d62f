#!/usr/bin/env python3
"""A search bot: Perfect Information Monte Carlo over sampled deals (determinization).

At each card decision it samples deals of the hidden cards that agree with
everything public (cards played, suits a seat has shown out of, hand sizes,
the turned-up card, face-up dog cards), plays each legal move on each sample
with arena's own engine, finishes the hand with random play, and picks the
move with the best average outcome: staying in the game first, knocking
others out second. The search stops at the request's time budget (a share of
``move_ms``, never the bank). Trumps and declarations use the greedy bot's
rules. As GIB did for bridge; see also Cowling, Powley and Whitehouse (2012)
on information-set search.

It finds the ``arena`` package relative to its own file when it is not
installed, and otherwise needs only the standard library.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent.parent))  # the repository, for the arena package

from arena_bot import log, run  # noqa: E402 - after the path set-up above
from greedy_bot import choose as greedy_choose  # noqa: E402

from arena.game import GameState, RandomDecks, Rules  # noqa: E402
from arena.game.cards import CARD_INDEX, CARD_TEXT  # noqa: E402

#: Share of move_ms spent searching; the rest is margin for the pipe and the referee.
TIME_SHARE = 0.5
#: Never search longer than this, whatever move_ms allows.
MAX_SEARCH_S = 1.0
OUT_BONUS = 0.25
#: What a status after the hand is worth: a dog still has a chance.
STANDING = {"active": 1.0, "dog": 0.5, "out": 0.0}
TRICK_BONUS = 0.03
CHOOSER_BONUS = 0.1
DEBUG = False

Message = dict[str, Any]
KING = CARD_INDEX["KC"] >> 2


class Tracker:
    """What the bot remembers of a game beyond the ``state`` of a request."""

    def __init__(self) -> None:
        self.rules = Rules()
        self.seat = 0
        self.rng = random.Random(0)
        self.statuses: list[str] = []
        self.previous: list[str] = []
        self.had_dog: list[bool] = []
        self.out_hand: list[int] = []
        self.zero_event = False
        self.hand = 0
        self.trick_leader = 0
        self.voids: list[set[str]] = []
        self.trick: list[tuple[int, str]] = []
        self.played_by: set[int] = set()

    def see(self, message: Message) -> None:
        """Follow the public messages of the game."""
        kind = message["type"]
        if kind == "game_start":
            self.rules = Rules.from_dict(message["rules"])
            self.seat = message["seat"]
            self.rng = random.Random(f"{message['game']}/{message['seat']}")
            n = self.rules.players
            self.statuses = ["active"] * n
            self.had_dog = [False] * n
            self.out_hand = [0] * n
            self.zero_event = False
        elif kind == "hand_start":
            self.previous, self.statuses = self.statuses, list(message["statuses"])
            self.hand = message["hand"]
            n = len(self.statuses)
            for seat, status in enumerate(self.statuses):
                if status == "dog":
                    self.had_dog[seat] = True
                if status != "active":
                    self.zero_event = True
            self.voids = [set() for _ in range(n)]
            self.trick = []
            self.played_by = set()
            dealer = message["dealer"]
            self.trick_leader = next(
                (dealer + i) % n
                for i in range(1, n + 1)
                if self.statuses[(dealer + i) % n] != "out"
            )
        elif kind == "event":
            self._event(message)
        elif kind == "hand_end":
            for seat, status in enumerate(message["statuses"]):
                if status == "out" and self.statuses[seat] != "out":
                    self.out_hand[seat] = message["hand"]
                if status != "active":
                    self.zero_event = True

    def _event(self, message: Message) -> None:
        event = message["event"]
        if event == "play":
            seat, card = message["seat"], message["card"]
            if self.trick and card[1] != self.trick[0][1][1] and self.statuses[seat] == "active":
                self.voids[seat].add(self.trick[0][1][1])
            self.trick.append((seat, card))
            if self.statuses[seat] == "dog":
                self.played_by.add(seat)
        elif event == "trick":
            winner = message["winner"]
            n = len(self.statuses)
            self.trick = []
            self.trick_leader = (
                next((winner + i) % n for i in range(n) if self._holds_cards((winner + i) % n))
                if any(self._holds_cards(s) for s in range(n))
                else winner
            )

    def _holds_cards(self, seat: int) -> bool:
        status = self.statuses[seat]
        return status == "active" or (status == "dog" and seat not in self.played_by)

    def blind(self) -> list[bool]:
        """Dogs whose card nobody may see: dogs for a second hand in a row (blind_dog)."""
        return [
            self.rules.blind_dog and s == "dog" and p == "dog"
            for s, p in zip(self.statuses, self.previous or self.statuses, strict=True)
        ]


TRACKER = Tracker()


def sample_hands(state: Message, rng: random.Random) -> list[list[str]] | None:
    """Hidden cards dealt at random, consistent with everything public (None if stuck)."""
    n = len(state["statuses"])
    me = state["seat"]
    blind = TRACKER.blind()
    known = set(state["cards"]) | {card for _, card in state["played"]}
    if state["turn_up"]:
        known.add(state["turn_up"])
    face_up = {int(seat): card for seat, card in state.get("dog_cards", {}).items()}
    known |= set(face_up.values())
    unseen = [card for card in CARD_TEXT if card not in known]
    played_count = [0] * n
    for seat, _ in state["played"]:
        played_count[seat] += 1
    hands: list[list[str]] = [[] for _ in range(n)]
    needs: list[int] = [0] * n
    for seat, status in enumerate(state["statuses"]):
        if status == "active":
            needs[seat] = state["hand_size"] - played_count[seat]
        elif status == "dog" and played_count[seat] == 0:
            if seat in face_up:
                hands[seat] = [face_up[seat]]
            else:
                needs[seat] = 1
    if not blind[me] or state["cards"]:
        hands[me] = list(state["cards"])
        needs[me] = 0
    for _ in range(20):
        rng.shuffle(unseen)
        pool = list(unseen)
        attempt = [list(h) for h in hands]
        order = sorted(range(n), key=lambda s: -len(TRACKER.voids[s]) if TRACKER.voids else 0)
        ok = True
        for seat in order:
            voids = TRACKER.voids[seat] if TRACKER.voids else set()
            fits = [card for card in pool if card[1] not in voids]
            if len(fits) < needs[seat]:
                ok = False
                break
            chosen = fits[: needs[seat]]
            attempt[seat] += chosen
            taken = set(chosen)
            pool = [card for card in pool if card not in taken]
        if ok:
            return attempt
    return None


def outcome(state: GameState, me: int, before: list[str], tricks: list[int]) -> float:
    """How good the end of the hand (or game) is for ``me``.

    Staying in counts most; then each opponent knocked out; then tricks, and
    naming trumps next (most tricks), which shape the next hand.
    """
    if state.pending is None:
        return 2.0 if state.winner == me else 0.0
    standing = STANDING[state.statuses[me]]
    others = sum(
        STANDING[old] - STANDING[state.statuses[seat]]
        for seat, old in enumerate(before)
        if seat != me
    )
    chooser = state.chooser == me
    return standing + OUT_BONUS * others + TRICK_BONUS * tricks[me] + CHOOSER_BONUS * chooser


def rollout_move(game: GameState, legal: list[str], rng: random.Random) -> str:
    """A quick, sensible move for the simulated players (random play misleads the search).

    Cheapest card that takes the trick, else the lowest card; a dog plays
    when its card would take the trick; leaders mostly cash an ace or king,
    else play a random card.
    """
    if len(legal) == 1:
        return legal[0]
    if game.pending is not None and game.pending.action != "play":
        return legal[int(rng.random() * len(legal))]
    cards = [move for move in legal if move not in ("knock", "blind")]
    if not game.trick:
        if "knock" in legal or "blind" in legal:
            return legal[0] if rng.random() < 0.7 else legal[1]
        top = cards[-1]
        if CARD_INDEX[top] >> 2 >= KING and rng.random() < 0.8:
            return top  # lead a likely winner
        return cards[int(rng.random() * len(cards))]
    best, trump = game.best, game.trump
    for card in cards:  # legal cards come in rank order: the first winner is the cheapest
        index = CARD_INDEX[card]
        if (index & 3 == best & 3 and index > best) or (index & 3 == trump and best & 3 != trump):
            return card
    return legal[0] if legal[0] in ("knock", "blind") else cards[0]


def search(state: Message, legal: list[str], request: Message) -> str:
    """The legal move with the best average outcome over sampled deals."""
    budget = min(MAX_SEARCH_S, request["time"]["move_ms"] / 1000 * TIME_SHARE)
    deadline = time.monotonic() + budget
    rng = TRACKER.rng
    me = state["seat"]
    totals = dict.fromkeys(legal, 0.0)
    counts = dict.fromkeys(legal, 0)
    rules = TRACKER.rules
    decks = RandomDecks(rng)
    samples = 0
    while time.monotonic() < deadline:
        hands = sample_hands(state, rng)
        if hands is None:
            break
        samples += 1
        for move in legal:
            game = GameState.from_position(
                rules,
                decks,
                hand=state["hand"],
                dealer=state["dealer"],
                trump=state["trump"],
                turn_up=state["turn_up"],
                statuses=state["statuses"],
                blind=TRACKER.blind(),
                hands=hands,
                tricks=state["tricks"],
                played=[(s, c) for s, c in state["played"]],
                trick=[(s, c) for s, c in state["trick"]],
                trick_leader=TRACKER.trick_leader,
                to_act=me,
                zero_event=TRACKER.zero_event,
                had_dog=TRACKER.had_dog,
                out_hand=TRACKER.out_hand,
            )
            before = list(game.statuses)
            # The engine counts tricks in this list in place and starts a new
            # one for the next hand: holding it keeps the hand's final count.
            tricks = game.tricks
            game.apply(move)
            while (pending := game.pending) is not None and game.hand == state["hand"]:
                game.apply(rollout_move(game, pending.legal, rng))
            totals[move] += outcome(game, me, before, tricks)
            counts[move] += 1
    if samples == 0:
        log("no consistent deal found; playing greedily")
        return ""
    if DEBUG:
        log(f"hand {state['hand']}: {samples} samples x {len(legal)} moves")
    return max(legal, key=lambda move: (totals[move] / max(1, counts[move]), -legal.index(move)))


def choose(state: Message, legal: list[str], request: Message) -> str:
    """Search card plays; use the greedy rules for trumps and declarations."""
    if request["action"] != "play" or len(legal) == 1:
        return greedy_choose(state, legal, request)
    try:
        move = search(state, legal, request)
    except ValueError as error:  # a position the tracker got wrong: never lose the game to it
        log(f"search failed ({error}); playing greedily")
        move = ""
    return move or greedy_choose(state, legal, request)


if __name__ == "__main__":
    run(choose, name="ismcts-python", version="1.0", on_info=TRACKER.see)

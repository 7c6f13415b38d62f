#!/usr/bin/env python3
"""A sensible heuristic bot: a baseline worth beating.

- Following: win the trick as cheaply as possible; otherwise throw the lowest
  card. Void in the suit led: trump only when it matters (no trick yet this
  hand, or trumps to spare), else discard the lowest card of a short suit.
- Leading: a card no one can beat in its suit (all higher ones played or
  held), else low from the longest side suit.
- As a dog: play the card where it will surely win (the top trump left), or
  where it wins now with no one left to play; otherwise knock. A blind dog
  plays when it is last to act on a weak trick.
- Trumps: the suit with the most length and high cards.
- Declarations: rainbow when the hand is weak (it voids the hand), always
  no_picture (a hand without pictures is weak).

Standard library only; the whole information set comes in each request's
``state``, so the bot keeps no memory between requests.

A strength knob: ``greedy_bot.py --eps E`` plays a random legal move with
probability E (0 <= E <= 1) and the heuristic move otherwise, so a field of
known strength orders itself by E (E = 1 is the random bot). The random
choices are seeded from the game id and the seat: the same game, the same
moves.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, not with -m: find the arena package above this one
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.samples.arena_bot import run

RANKS = "23456789TJQKA"
SUITS = "CHDS"
HIGH_CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
State = dict[str, Any]


def rank(card: str) -> int:
    """0 for a two .. 12 for an ace."""
    return RANKS.index(card[0])


def suit(card: str) -> str:
    """The card's suit letter."""
    return card[1]


def beats(card: str, best: str, trump: str | None) -> bool:
    """Whether ``card`` would take the trick from ``best`` (of the suit led, or a trump)."""
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return suit(card) == trump


def winning_card(trick: Sequence[Sequence[Any]], trump: str | None) -> str:
    """The card currently winning a trick in progress."""
    best: str = trick[0][1]
    for _, card in trick[1:]:
        if beats(card, best, trump):
            best = card
    return best


def unseen_higher(card: str, state: State) -> list[str]:
    """Cards of the same suit above ``card`` that are neither played nor in this hand."""
    gone = {c for _, c in state["played"]} | set(state["cards"])
    return [r + suit(card) for r in RANKS[rank(card) + 1 :] if r + suit(card) not in gone]


def seats_after_me(state: State) -> int:
    """How many seats still play to this trick after this one."""
    seats = len(state["statuses"])
    me, leader = state["seat"], state["leader"]
    played_by = {s for s, _ in state["played"]}
    count = 0
    seat = (me + 1) % seats
    while seat != leader:
        status = state["statuses"][seat]
        if status == "active" or (status == "dog" and seat not in played_by):
            count += 1
        seat = (seat + 1) % seats
    return count


def choose_trump(cards: list[str]) -> str:
    """The suit with the best length and high cards."""

    def strength(s: str) -> float:
        mine = [c for c in cards if suit(c) == s]
        return (
            2 * len(mine) + sum(HIGH_CARD_POINTS.get(c[0], 0) for c in mine) + SUITS.index(s) / 10
        )

    return max(SUITS, key=strength)


def play_as_dog(state: State, legal: list[str]) -> str:
    trump = state["trump"]
    trick = state["trick"]
    if "blind" in legal:
        if "knock" not in legal:
            return "blind"
        weak = trick and suit(winning_card(trick, trump)) != trump
        weak = weak and rank(winning_card(trick, trump)) <= RANKS.index("8")
        return "blind" if weak and seats_after_me(state) == 0 else "knock"
    card = next(m for m in legal if m != "knock")
    if "knock" not in legal:
        return card
    if suit(card) == trump and not unseen_higher(card, state):
        return card  # the top trump left: it wins wherever it is played
    if trick and beats(card, winning_card(trick, trump), trump) and seats_after_me(state) == 0:
        return card
    return "knock"


def lead(state: State, cards: list[str]) -> str:
    trump = state["trump"]
    sides = [c for c in cards if suit(c) != trump]
    bosses = [c for c in sides if not unseen_higher(c, state)]
    if bosses:
        return max(bosses, key=rank)
    trumps = [c for c in cards if suit(c) == trump]
    if (
        trumps
        and state["tricks"][state["seat"]] == 0
        and not unseen_higher(max(trumps, key=rank), state)
    ):
        return max(trumps, key=rank)
    if not sides:
        return min(cards, key=rank)
    longest = max(SUITS, key=lambda s: (sum(suit(c) == s for c in sides), s))
    return min((c for c in sides if suit(c) == longest), key=rank)


def follow(state: State, cards: list[str]) -> str:
    trump = state["trump"]
    trick = state["trick"]
    led = suit(trick[0][1])
    best = winning_card(trick, trump)
    winners = [c for c in cards if beats(c, best, trump)]
    if any(suit(c) == led for c in cards):  # following suit
        return min(winners, key=rank) if winners else min(cards, key=rank)
    trumps = [c for c in winners if suit(c) == trump]
    my_trumps = [c for c in cards if suit(c) == trump]
    tricks_left = state["hand_size"] - sum(state["tricks"])
    matters = state["tricks"][state["seat"]] == 0 or len(my_trumps) * 2 >= max(1, tricks_left)
    if trumps and matters:
        return min(trumps, key=rank)
    discards = [c for c in cards if suit(c) != trump] or cards
    # sorted(): a set's order changes from run to run, and ties must break the same way.
    shortest = min(
        sorted({suit(c) for c in discards}), key=lambda s: sum(suit(c) == s for c in discards)
    )
    return min((c for c in discards if suit(c) == shortest), key=rank)


def weak_hand(cards: list[str]) -> bool:
    """Few high cards: worth voiding the hand with a rainbow."""
    return sum(HIGH_CARD_POINTS.get(c[0], 0) for c in cards) < 5


def choose(state: State, legal: list[str], request: dict[str, Any]) -> str:
    """The move for a request, by the heuristics above."""
    action = request["action"]
    if action == "trump":
        return choose_trump(state["cards"])
    if action == "rainbow":
        return "declare" if weak_hand(state["cards"]) else "pass"
    if action == "no_picture":
        return "declare"
    if "knock" in legal or "blind" in legal or state["statuses"][state["seat"]] == "dog":
        return play_as_dog(state, legal)
    if len(legal) == 1:
        return legal[0]
    return follow(state, legal) if state["trick"] else lead(state, legal)


class Noisy:
    """The heuristic move, or with probability ``eps`` a random legal one (see the docstring)."""

    def __init__(self, eps: float) -> None:
        self.eps = eps
        self.rng = random.Random(0)

    def start(self, message: dict[str, Any]) -> None:
        """Reseed at ``game_start`` from the game id and the seat."""
        if message.get("type") == "game_start":
            self.rng = random.Random(f"{message['game']}/{message['seat']}/{self.eps}")

    def choose(self, state: State, legal: list[str], request: dict[str, Any]) -> str:
        """A random legal move with probability ``eps``, else :func:`choose`'s."""
        if self.eps > 0 and self.rng.random() < self.eps:
            return legal[int(self.rng.random() * len(legal))]
        return choose(state, legal, request)


def main() -> None:
    """Play, with the strength knob from the command line."""
    parser = argparse.ArgumentParser(description="The greedy sample bot.")
    parser.add_argument("--eps", type=float, default=0.0, help="share of random moves (0..1)")
    eps = parser.parse_args().eps
    if not 0.0 <= eps <= 1.0:
        parser.error(f"--eps takes a share from 0 to 1, not {eps}")
    if eps == 0.0:
        run(choose, name="greedy-python", version="1.0")
        return
    noisy = Noisy(eps)
    run(noisy.choose, name=f"greedy-python-eps{eps}", version="1.0", on_info=noisy.start)


if __name__ == "__main__":
    main()

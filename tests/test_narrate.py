"""Narration reads the log records and tells the game trick by trick."""

from __future__ import annotations

from arena.game import Rules
from arena.report.narrate import narrate
from arena.simulate import random_game


def test_one_line_per_trick_and_a_result_line() -> None:
    state = random_game(Rules(), 42)
    lines = list(narrate(state.log, ["A", "B", "C", "D"]))
    tricks = [r for r in state.log if r.get("event") == "trick"]
    assert sum(1 for line in lines if line.startswith("  Trick ")) == len(tricks)
    winner = ["A", "B", "C", "D"][state.log[-1]["winner"]]
    assert lines[-1].startswith(f"Game over: {winner} wins.")


def test_knock_outs_and_dogs_are_told() -> None:
    for seed in range(50):
        state = random_game(Rules(players=5), seed)
        text = "\n".join(narrate(state.log, [f"P{s}" for s in range(5)]))
        if "Dog's Life" in text and "knocked out" in text:
            return
    raise AssertionError("no game among 50 told of a Dog's Life and a knock-out")


def test_hands_can_be_hidden() -> None:
    state = random_game(Rules(), 1)
    shown = list(narrate(state.log, ["A", "B", "C", "D"]))
    hidden = list(narrate(state.log, ["A", "B", "C", "D"], show_hands=False))
    assert len(hidden) < len(shown)
    assert not any(line.startswith("  A: ") for line in hidden)

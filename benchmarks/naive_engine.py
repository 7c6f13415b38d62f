"""A deliberately naive Knockout Whist, the speed floor for benchmarks/engine.py.

Standard rules only (no rule options, no events, no views, no checks, no
copies): the least a pure-Python engine must do to play random games. It is
not used by arena; it exists so that the engine benchmark can report its
speed as a ratio to this floor measured in the same run, on the same machine.
"""

from __future__ import annotations

import random


def play(rng: random.Random, players: int = 4) -> int:
    """Play one game of random legal moves; return the number of decisions."""
    choice = rng.choice
    in_game = [True] * players
    dog = [False] * players
    dogs_given = False
    dealer = rng.randrange(players)
    decisions = 0
    for hand in range(1, 8):
        size = 8 - hand
        deck = list(range(52))
        rng.shuffle(deck)
        seats = [(dealer + 1 + i) % players for i in range(players)]
        seats = [s for s in seats if in_game[s]]
        hands: dict[int, list[int]] = {}
        for s in seats:
            count = 1 if dog[s] else size
            hands[s], deck = sorted(deck[:count]), deck[count:]
        trump = deck[0] & 3 if hand == 1 else choice(range(4))
        decisions += hand > 1
        tricks = dict.fromkeys(seats, 0)
        leader = seats[0]
        for trick_no in range(size):
            start = seats.index(leader)
            order = [s for s in seats[start:] + seats[:start] if hands[s]]
            led = best = best_seat = -1
            for s in order:
                held = hands[s]
                decisions += 1
                if dog[s]:
                    if trick_no < size - 1 and choice((True, False)):
                        continue
                    card = held[0]
                elif led < 0:
                    card = choice(held)
                else:
                    card = choice([c for c in held if c & 3 == led] or held)
                held.remove(card)
                if led < 0:
                    led, best, best_seat = card & 3, card, s
                elif (card & 3 == best & 3 and card > best) or (
                    card & 3 == trump and best & 3 != trump
                ):
                    best, best_seat = card, s
            tricks[best_seat] += 1
            leader = best_seat
            if trick_no < size - 1 and not hands[leader]:
                start = seats.index(leader)
                leader = next(s for s in seats[start:] + seats[:start] if hands[s])
        zero = [s for s in seats if tricks[s] == 0]
        for s in seats:
            if tricks[s]:
                dog[s] = False
            elif not dogs_given and not dog[s] and hand < 7:
                dog[s] = True
            else:
                in_game[s] = False
        dogs_given = dogs_given or bool(zero)
        if sum(in_game) <= 1:
            break
        dealer = next(s for s in seats[1:] + seats[:1] if in_game[s])
    return decisions

"""How often a seat goes on to win from the start of a hand, in greedy self-play.

The search bot (``arena/samples/ismcts_bot.py``) scores the end of a
simulated hand with an estimate of its chance to win the game; its constants
(``DOG_VALUE``, ``CHOOSER_EDGE``) come from this table. For each hand after
the first and each seat still in: its status, how many other seats are
active and dogs, whether it names trumps, and the share of those seats that
won. Also prints the chooser's edge: the fraction of the gap between a fair
share and a sure win that naming trumps is worth.

    .venv/bin/python benchmarks/selfplay_values.py --games 20000
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from search_ab import BOTS, load

from arena.game import GameState, Rules, request_state

Key = tuple[int, str, int, int, bool]


def main() -> None:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    greedy = load(BOTS / "greedy_bot.py", "greedy_bot")
    rules = Rules(players=args.players)
    seen: dict[Key, list[int]] = defaultdict(lambda: [0, 0])
    for seed in range(args.games):
        game = GameState(rules, seed, record=False)
        starts: list[tuple[int, Key]] = []
        hand = game.hand
        while (pending := game.pending) is not None:
            state = request_state(game, pending.seat)
            game.apply(greedy.choose(state, pending.legal, {"action": pending.action}))
            if game.hand != hand and game.pending is not None:
                hand = game.hand
                for seat, status in enumerate(game.statuses):
                    if status == "out":
                        continue
                    others = [s for i, s in enumerate(game.statuses) if i != seat]
                    active, dogs = others.count("active"), others.count("dog")
                    starts.append((seat, (hand, status, active, dogs, game.chooser == seat)))
        for seat, key in starts:
            seen[key][0] += 1
            seen[key][1] += game.winner == seat
    print("hand status others_active others_dogs chooser  seats  won")
    for key in sorted(seen):
        count, won = seen[key]
        if count >= 50:
            print(*key, count, f"{won / count:.3f}")
    print("chooser edge (hand size: edge for each number of active players)")
    for hand in range(2, 8):
        size = 8 - hand
        edges = []
        for active in range(2, args.players + 1):
            key = (hand, "active", active - 1, 0, True)
            if seen[key][0] >= 50:
                fair = 1 / active
                edges.append(f"{active}: {(seen[key][1] / seen[key][0] - fair) / (1 - fair):.2f}")
        print(f"  {size} cards: {', '.join(edges)}  (0.76 / size = {0.76 / size:.2f})")


if __name__ == "__main__":
    main()

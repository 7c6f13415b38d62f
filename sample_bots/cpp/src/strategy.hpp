// The one place for your strategy: Strategy::choose() in strategy.cpp.
#pragma once

#include <random>
#include <vector>

#include "protocol.hpp"

namespace arena {

class Strategy {
 public:
  /// Called at every game_start. One process plays many games, and may join a
  /// game after another process faulted in it: keep nothing that must span games.
  /// Reseeds rng_ from the game id and the seat, so the same game gets the same moves.
  void new_game(const GameStart& game);

  /// Your move for a request: return one of `legal`. `state` is your seat's whole
  /// information set; `request` also has the `action` (play, trump, rainbow,
  /// no_picture) and the `time` (see recommended_budget_ms() in helpers.hpp).
  /// A move that is not legal, or an exception, makes the bot log it and play
  /// legal[0] instead, so a bug costs a poor move rather than the game.
  ///
  /// Return the move alone (`return card;`), or with `info`, what the bot was
  /// thinking, sent with the move and kept in the replay: any JSON value, e.g.
  /// `return {card, json{{"value", 0.6}}};`. Keep it under 4096 bytes of compact
  /// JSON: the arena keeps a larger one as its size only. The greedy sample
  /// sends the name of the rule that picked the move: {"rule": "cheapest_winner"}.
  Decision choose(const State& state, const std::vector<Move>& legal, const Request& request);

 private:
  /// For strategies that draw at random (the greedy one does not): mt19937_64's
  /// output is fixed by the C++ standard, so the same seed gives the same moves
  /// with every compiler. Draw with rng_() % n: the std:: distributions differ
  /// from one standard library to another.
  std::mt19937_64 rng_{0};
};

}  // namespace arena

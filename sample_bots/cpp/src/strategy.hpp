// Your bot's player, Strategy: write choose() (and observe() if it needs to) in
// strategy.cpp; add the members it should remember across requests here.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "protocol.hpp"

namespace arena {

class Strategy {
 public:
  /// `eps`, the share of random moves (`bot --eps E`), from 0 to 1; 0 plays the
  /// greedy moves only.
  explicit Strategy(double eps = 0.0);

  /// The move for a request, one of `legal` (never empty), with what the bot was
  /// thinking as its optional info.
  Decision choose(const State& state, const std::vector<Move>& legal, const Request& request);

  /// Sees every message that gets no reply: game_start, hand_start, the events,
  /// error, hand_end, game_end.
  void observe(const Message& message);

  /// The game_start of the game in progress (game id, seat, players, rules), once seen.
  std::optional<GameStart> game;

 private:
  double eps_;
  /// Reseeded at each game_start. mt19937_64's output is fixed by the C++
  /// standard, so the same seed gives the same moves with every compiler; draw
  /// with rng_() % n, as the std:: distributions differ between standard libraries.
  std::mt19937_64 rng_;
};

}  // namespace arena

// The greedy sample strategy (greedy.cpp): what Strategy::choose() plays by default.
#pragma once

#include <vector>

#include "protocol.hpp"

namespace arena {

/// A move of the greedy strategy and the name of the rule that picked it
/// ("cheapest_winner", "dog_knock"...: the same names in every starter kit).
struct GreedyMove {
  Move move;
  const char* rule;
};

/// The greedy strategy's move for a request asking for `action`: one of `legal`
/// (never empty). It keeps no memory: `state` is the seat's whole information set.
GreedyMove greedy(const State& state, const std::vector<Move>& legal, Action action);

}  // namespace arena

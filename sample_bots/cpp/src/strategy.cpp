// YOUR STRATEGY: Strategy::choose() below is the one function to write. It gets
// the request's state (your seat's whole information set), the legal moves and
// the whole request (request.action: play, trump, rainbow or no_picture;
// request.time), and returns a Decision: a move of `legal`, alone (`return card;`)
// or with an info, any JSON value kept in the replay (`return {card, json{...}};`).
//
// - Helpers, in helpers.hpp: legal_cards(), winning_play(), beats(),
//   unseen_cards(), recommended_budget_ms(). The types are in protocol.hpp.
// - The sample plays greedy() from greedy.cpp, the greedy strategy.
// - observe() sees every message that gets no reply (game_start, events...);
//   keep what must last as members of Strategy, in strategy.hpp.
// - If choose() throws or returns a move not in `legal`, the bot logs it and
//   plays legal[0]: a bug costs that move, not the game.
// - Log to std::cerr. std::cout carries the protocol: a stray line there is read
//   as a garbled reply, and the game is forfeit.
#include "strategy.hpp"

#include <variant>

#include "greedy.hpp"
#include "helpers.hpp"

namespace arena {

Strategy::Strategy(double eps) : eps_(eps), rng_(game_seed("", 0)) {}

Decision Strategy::choose(const State& state, const std::vector<Move>& legal, const Request& request) {
  // With probability eps_, a random legal move. 53 random bits make a double in
  // [0, 1) the same way everywhere (std::uniform_real_distribution may not).
  if (eps_ > 0 && static_cast<double>(rng_() >> 11) * 0x1p-53 < eps_) {
    return {legal[rng_() % legal.size()], json{{"rule", "random"}}};
  }
  const GreedyMove chosen = greedy(state, legal, request.action);
  return {chosen.move, json{{"rule", chosen.rule}}};
}

void Strategy::observe(const Message& message) {
  // One process plays many games: reseed at each from its id and our seat, so a
  // strategy that draws at random plays the same game the same way.
  if (const auto* game = std::get_if<GameStart>(&message)) {
    this->game = *game;
    rng_.seed(game_seed(game->game, game->seat));
  }
}

}  // namespace arena

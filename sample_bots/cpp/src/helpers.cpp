#include "helpers.hpp"

#include <algorithm>
#include <bitset>

namespace arena {

std::vector<Card> full_deck() {
  std::vector<Card> deck;
  deck.reserve(52);
  for (Rank rank : kRanks) {
    for (Suit suit : kSuits) deck.push_back(Card{rank, suit});
  }
  return deck;
}

std::vector<Card> legal_cards(const std::vector<Move>& legal) {
  std::vector<Card> cards;
  for (const Move& move : legal) {
    if (move.is_card()) cards.push_back(move.card());
  }
  return cards;
}

bool is_legal(const Move& move, const std::vector<Move>& legal) {
  return std::find(legal.begin(), legal.end(), move) != legal.end();
}

bool beats(Card card, Card best, Nullable<Suit> trump) {
  if (card.suit == best.suit) return card.rank > best.rank;
  return card.suit == trump;  // false when trump is null
}

std::optional<Play> winning_play(const std::vector<Play>& trick, Nullable<Suit> trump) {
  if (trick.empty()) return std::nullopt;
  Play best = trick.front();
  for (const Play& play : trick) {
    if (beats(play.card, best.card, trump)) best = play;
  }
  return best;
}

std::vector<Card> unseen_cards(const State& state) {
  std::bitset<52> seen;
  for (Card card : state.cards) seen.set(static_cast<std::size_t>(card.index()));
  for (const Play& play : state.played) seen.set(static_cast<std::size_t>(play.card.index()));
  if (state.dog_cards) {
    for (const auto& entry : *state.dog_cards) seen.set(static_cast<std::size_t>(entry.second.index()));
  }
  if (state.turn_up) seen.set(static_cast<std::size_t>(state.turn_up->index()));
  std::vector<Card> unseen;
  for (Card card : full_deck()) {
    if (!seen.test(static_cast<std::size_t>(card.index()))) unseen.push_back(card);
  }
  return unseen;
}

Millis time_left_ms(const Time& time) { return time.move_ms + time.bank_ms; }

Millis recommended_budget_ms(const Time& time, const State& state) {
  // Decisions left: this hand's cards, then (if we stay in) one per card of
  // each smaller hand to come. Only an estimate: it need not be exact.
  const Millis this_hand = std::max<Millis>(1, static_cast<Millis>(state.cards.size()));
  const Millis later_hands = static_cast<Millis>(state.hand_size - 1) * state.hand_size / 2;
  const Millis bank_share = time.bank_ms / (2 * (this_hand + std::max<Millis>(0, later_hands)));
  const Millis budget = time.move_ms * 8 / 10 + bank_share;
  const Millis margin = std::max<Millis>(20, time.move_ms / 10);
  return std::clamp<Millis>(budget, 0, std::max<Millis>(0, time_left_ms(time) - margin));
}

std::uint64_t game_seed(const std::string& game, Seat seat) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char byte : game + "/" + std::to_string(seat)) {
    hash ^= byte;
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace arena

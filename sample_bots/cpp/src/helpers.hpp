// Helpers most strategies need: legal moves as cards, who is winning a trick,
// the cards this seat has not seen, the time left for a move, and a seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol.hpp"

namespace arena {

/// The 52 cards in the order of `legal` (by rank, then suit C H D S).
std::vector<Card> full_deck();

/// The cards among `legal`, in their order (knock, blind, suits and words left out).
std::vector<Card> legal_cards(const std::vector<Move>& legal);

/// Whether `move` is one of `legal`.
bool is_legal(const Move& move, const std::vector<Move>& legal);

/// Whether `card` would take the trick from `best`, the card winning it so far:
/// a higher card of best's suit, or a trump over a card that is not one.
bool beats(Card card, Card best, Nullable<Suit> trump);

/// Who is winning a trick in progress, and with which card: the highest trump,
/// or else the highest card of the suit led. std::nullopt for an empty trick.
std::optional<Play> winning_play(const std::vector<Play>& trick, Nullable<Suit> trump);

/// The cards whose place this seat does not know: 52 minus its own cards, the
/// cards played this hand, the face-up dog cards and the turned-up card. They
/// are in the other seats' hands or undealt. In the order of `legal`.
std::vector<Card> unseen_cards(const State& state);

/// The time before a move is late: the free allowance plus what is left of the bank.
Millis time_left_ms(const Time& time);

/// A sensible time to think about this move: 80% of move_ms, plus half the bank
/// shared among the decisions likely left in the game, always well inside
/// time_left_ms() (a margin covers the pipe and the scheduler).
Millis recommended_budget_ms(const Time& time, const State& state);

/// A seed for a random generator from the game id and the seat: FNV-1a (64 bits)
/// of "<game>/<seat>", the same on every platform (std::hash is not), so a
/// strategy that draws at random plays the same game the same way.
std::uint64_t game_seed(const std::string& game, Seat seat);

}  // namespace arena

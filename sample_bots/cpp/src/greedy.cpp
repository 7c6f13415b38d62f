// The greedy sample strategy, ported from arena/samples/greedy_bot.py: greedy()
// picks the move and names the rule that picked it; Strategy::choose() in
// strategy.cpp plays it. Replace any of it with your own.
//
// - Following: win the trick as cheaply as possible; otherwise throw the lowest
//   card. Void in the suit led: trump only when it matters (no trick yet this
//   hand, or trumps to spare), else discard the lowest card of a short suit.
// - Leading: a card no one can beat in its suit (all higher ones played or
//   held), else low from the longest side suit.
// - As a dog: play the card where it will surely win (the top trump left), or
//   where it wins now with no one left to play; otherwise knock. A blind dog
//   plays when it is last to act on a weak trick.
// - Trumps: the suit with the most length and high cards.
// - Declarations: rainbow when the hand is weak (it voids the hand), always
//   no_picture (a hand without pictures is weak).
//
// Ties are broken exactly as the Python bot breaks them, so that the two bots
// make the same move in the same position. The rule names are the same in
// every starter kit.
#include "greedy.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <optional>

#include "helpers.hpp"

namespace arena {
namespace {

int high_card_points(Card card) {
  switch (card.rank) {
    case Rank::Ace:
      return 4;
    case Rank::King:
      return 3;
    case Rank::Queen:
      return 2;
    case Rank::Jack:
      return 1;
    default:
      return 0;
  }
}

/// The suit's letter. greedy_bot.py breaks some ties by comparing suit letters
/// (C < D < H < S), which is not the order of `legal` (C H D S).
char letter(Suit suit) { return to_string(suit)[0]; }

template <typename Keep>
std::vector<Card> cards_where(const std::vector<Card>& cards, Keep keep) {
  std::vector<Card> kept;
  std::copy_if(cards.begin(), cards.end(), std::back_inserter(kept), keep);
  return kept;
}

int count_of_suit(const std::vector<Card>& cards, Suit suit) {
  return static_cast<int>(std::count_if(cards.begin(), cards.end(), [suit](Card c) { return c.suit == suit; }));
}

/// The move, with the name of the rule that picked it.
GreedyMove rule(Move move, const char* name) { return {move, name}; }

bool by_rank(Card a, Card b) { return a.rank < b.rank; }
/// The first card of the lowest rank (min_element keeps the first of equals, as Python's min()).
Card lowest(const std::vector<Card>& cards) { return *std::min_element(cards.begin(), cards.end(), by_rank); }
/// The first card of the highest rank.
Card highest(const std::vector<Card>& cards) { return *std::max_element(cards.begin(), cards.end(), by_rank); }

/// Whether some card of `card`'s suit above it is neither played this hand nor
/// in our hand: if none is, `card` is the boss of its suit.
bool has_unseen_higher(Card card, const State& state) {
  for (int rank = static_cast<int>(card.rank) + 1; rank < static_cast<int>(kRanks.size()); ++rank) {
    const Card higher{static_cast<Rank>(rank), card.suit};
    const bool played = std::any_of(state.played.begin(), state.played.end(),
                                    [higher](const Play& play) { return play.card == higher; });
    const bool mine = std::find(state.cards.begin(), state.cards.end(), higher) != state.cards.end();
    if (!played && !mine) return true;
  }
  return false;
}

/// How many seats still play to this trick after this one: the active seats,
/// and the dogs that have not played their card yet this hand.
int seats_after_me(const State& state) {
  const int seats = static_cast<int>(state.statuses.size());
  auto has_played = [&state](Seat seat) {
    return std::any_of(state.played.begin(), state.played.end(), [seat](const Play& play) { return play.seat == seat; });
  };
  int count = 0;
  for (int step = 1; step < seats; ++step) {  // bounded: a bad `leader` cannot loop forever
    const Seat seat = (state.seat + step) % seats;
    if (seat == state.leader) break;
    const Status status = state.statuses[static_cast<std::size_t>(seat)];
    if (status == Status::Active || (status == Status::Dog && !has_played(seat))) ++count;
  }
  return count;
}

/// The suit with the best length and high cards (ties: the later one in C H D S).
Move choose_trump(const std::vector<Card>& cards, const std::vector<Move>& legal) {
  std::optional<Suit> best;
  int best_strength = -1;
  for (const Move& move : legal) {  // suits, in the order C H D S
    if (!move.is_suit()) continue;
    int strength = 0;
    for (Card card : cards) {
      if (card.suit == move.suit()) strength += 2 + high_card_points(card);
    }
    if (strength >= best_strength) {
      best = move.suit();
      best_strength = strength;
    }
  }
  return best ? Move(*best) : legal.front();
}

GreedyMove play_as_dog(const State& state, const std::vector<Move>& legal) {
  const bool can_knock = is_legal(Move::knock(), legal);
  const std::optional<Play> winning = winning_play(state.trick, state.trump);
  if (is_legal(Move::blind(), legal)) {
    if (!can_knock) return rule(Move::blind(), "dog_must_play");
    // A blind dog cannot see its card: it plays only when last to act on a
    // trick held by a low card (eight or less) that is not a trump.
    const bool weak = winning && winning->card.suit != state.trump && winning->card.rank <= Rank::Eight;
    return weak && seats_after_me(state) == 0 ? rule(Move::blind(), "dog_blind_gamble")
                                              : rule(Move::knock(), "dog_knock");
  }
  const auto first = std::find_if(legal.begin(), legal.end(), [](const Move& move) { return move != Move::knock(); });
  if (first == legal.end()) return rule(legal.front(), "only_move");
  if (!can_knock || !first->is_card()) return rule(*first, "dog_must_play");  // the last trick: the dog must play
  const Card card = first->card();
  if (card.suit == state.trump && !has_unseen_higher(card, state)) {
    return rule(card, "dog_top_trump");  // the top trump left: it wins wherever it is played
  }
  if (winning && beats(card, winning->card, state.trump) && seats_after_me(state) == 0) {
    return rule(card, "dog_wins_last");
  }
  return rule(Move::knock(), "dog_knock");
}

GreedyMove lead(const State& state, const std::vector<Card>& cards) {
  const auto trump = state.trump;
  const auto sides = cards_where(cards, [trump](Card c) { return c.suit != trump; });
  const auto bosses = cards_where(sides, [&state](Card c) { return !has_unseen_higher(c, state); });
  if (!bosses.empty()) return rule(highest(bosses), "lead_boss");
  const auto trumps = cards_where(cards, [trump](Card c) { return c.suit == trump; });
  if (!trumps.empty() && state.tricks.at(static_cast<std::size_t>(state.seat)) == 0 &&
      !has_unseen_higher(highest(trumps), state)) {
    return rule(highest(trumps), "lead_top_trump");  // no trick yet: draw with the top trump
  }
  if (sides.empty()) return rule(lowest(cards), "lead_low_trump");
  // Low from the longest side suit (ties: the later suit letter, as greedy_bot.py).
  Suit longest = Suit::Clubs;
  int longest_count = -1;
  for (Suit suit : kSuits) {
    const int count = count_of_suit(sides, suit);
    if (count > longest_count || (count == longest_count && letter(suit) > letter(longest))) {
      longest = suit;
      longest_count = count;
    }
  }
  return rule(lowest(cards_where(sides, [longest](Card c) { return c.suit == longest; })), "lead_longest_suit");
}

GreedyMove follow(const State& state, const std::vector<Card>& cards) {
  const auto trump = state.trump;
  const Suit led = state.trick.front().card.suit;
  const Card best = winning_play(state.trick, trump)->card;
  const auto winners = cards_where(cards, [best, trump](Card c) { return beats(c, best, trump); });
  if (count_of_suit(cards, led) > 0) {
    return winners.empty() ? rule(lowest(cards), "follow_low") : rule(lowest(winners), "cheapest_winner");
  }
  // Void in the suit led: ruff only when it matters.
  const auto trumps = cards_where(winners, [trump](Card c) { return c.suit == trump; });
  const int my_trumps = static_cast<int>(cards_where(cards, [trump](Card c) { return c.suit == trump; }).size());
  const int tricks_left = state.hand_size - std::accumulate(state.tricks.begin(), state.tricks.end(), 0);
  const bool matters =
      state.tricks.at(static_cast<std::size_t>(state.seat)) == 0 || my_trumps * 2 >= std::max(1, tricks_left);
  if (!trumps.empty() && matters) return rule(lowest(trumps), "ruff");
  auto discards = cards_where(cards, [trump](Card c) { return c.suit != trump; });
  if (discards.empty()) discards = cards;
  // The lowest card of the shortest suit (ties: the earlier suit letter, as greedy_bot.py).
  std::optional<Suit> shortest;
  int shortest_count = 0;
  for (Suit suit : kSuits) {
    const int count = count_of_suit(discards, suit);
    if (count == 0) continue;
    if (!shortest || count < shortest_count || (count == shortest_count && letter(suit) < letter(*shortest))) {
      shortest = suit;
      shortest_count = count;
    }
  }
  return rule(lowest(cards_where(discards, [&shortest](Card c) { return c.suit == shortest; })), "discard_short_suit");
}

/// Few high cards: worth voiding the hand with a rainbow.
bool weak_hand(const std::vector<Card>& cards) {
  int points = 0;
  for (Card card : cards) points += high_card_points(card);
  return points < 5;
}

}  // namespace

GreedyMove greedy(const State& state, const std::vector<Move>& legal, Action action) {
  switch (action) {
    case Action::Trump:
      return rule(choose_trump(state.cards, legal), "strongest_suit");
    case Action::Rainbow:
      return weak_hand(state.cards) ? rule(Move::declare(), "weak_hand") : rule(Move::pass(), "strong_hand");
    case Action::NoPicture:
      return rule(Move::declare(), "always_declare");  // no card above a ten: a weak hand, void it
    case Action::Play:
      break;
  }
  const bool dog = state.statuses.at(static_cast<std::size_t>(state.seat)) == Status::Dog;
  if (is_legal(Move::knock(), legal) || is_legal(Move::blind(), legal) || dog) return play_as_dog(state, legal);
  if (legal.size() == 1) return rule(legal.front(), "only_move");
  const std::vector<Card> cards = legal_cards(legal);
  return state.trick.empty() ? lead(state, cards) : follow(state, cards);
}

}  // namespace arena

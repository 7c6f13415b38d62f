// A typed model of the arena's bot protocol v1 (see protocol/README.md).
//
// Every message is a plain struct; parse a JSON line with parse_referee_message()
// or parse_bot_message(), and turn a message back into JSON with serialize()
// (or `json j = message;` for a single struct). Unknown fields are ignored when
// parsing, so a newer referee that adds fields does not break the bot.
//
// Null versus absent is kept exactly:
//   - Nullable<T> is a field that is always sent but may be `null` (`trump`,
//     `turn_up`, `chooser`...): std::nullopt reads and writes as `null`;
//   - std::optional<T> is a field that may be left out (`dog_cards`,
//     `error.id`, `ready.version`...): std::nullopt means "not sent" and is
//     not written back.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

using json = nlohmann::json;

/// A seat number, 0..n-1 in clockwise order; the seat on your left is (seat + 1) % n.
using Seat = int;
/// A time in whole milliseconds.
using Millis = std::int64_t;

/// A field that is always present on the wire but may be `null` (see the top of this file).
template <typename T>
using Nullable = std::optional<T>;

/// A map keyed by seat: a JSON object whose keys are seat numbers as strings ({"2": "7S"}).
template <typename T>
using SeatMap = std::map<Seat, T>;

/// A message (or a part of one) that does not fit protocol v1. what() names the
/// field, as a path: `.state.trick[0]: not a card: "1X"`.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// Enumerations and their wire names

/// Suits in the order `legal` uses: clubs, hearts, diamonds, spades.
enum class Suit : std::uint8_t { Clubs, Hearts, Diamonds, Spades };
/// Ranks from two up to ace (aces high).
enum class Rank : std::uint8_t { Two, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King, Ace };
enum class Status : std::uint8_t { Active, Dog, Out };
/// What a request asks for.
enum class Action : std::uint8_t { Play, Trump, Rainbow, NoPicture };
/// What a `declare` event declares.
enum class Declaration : std::uint8_t { Rainbow, NoPicture };
enum class CutPurpose : std::uint8_t { Dealer, Trump };
enum class DogLife : std::uint8_t { Standard, Expanded, None };
enum class TieBreak : std::uint8_t { Cut, Random };
enum class FaultKind : std::uint8_t { Timeout, Crash, Illegal, Malformed };

inline constexpr std::array<Suit, 4> kSuits{Suit::Clubs, Suit::Hearts, Suit::Diamonds, Suit::Spades};
inline constexpr std::array<Rank, 13> kRanks{Rank::Two,  Rank::Three, Rank::Four, Rank::Five, Rank::Six,
                                             Rank::Seven, Rank::Eight, Rank::Nine, Rank::Ten, Rank::Jack,
                                             Rank::Queen, Rank::King,  Rank::Ace};

/// The wire names of an enumeration, indexed by its values (specialised below).
template <typename E>
struct EnumNames {};

template <>
struct EnumNames<Suit> {
  static constexpr std::string_view what = "suit";
  static constexpr std::array<std::string_view, 4> names{"C", "H", "D", "S"};
};
template <>
struct EnumNames<Rank> {
  static constexpr std::string_view what = "rank";
  static constexpr std::array<std::string_view, 13> names{"2", "3", "4", "5", "6", "7", "8",
                                                          "9", "T", "J", "Q", "K", "A"};
};
template <>
struct EnumNames<Status> {
  static constexpr std::string_view what = "status";
  static constexpr std::array<std::string_view, 3> names{"active", "dog", "out"};
};
template <>
struct EnumNames<Action> {
  static constexpr std::string_view what = "action";
  static constexpr std::array<std::string_view, 4> names{"play", "trump", "rainbow", "no_picture"};
};
template <>
struct EnumNames<Declaration> {
  static constexpr std::string_view what = "declaration";
  static constexpr std::array<std::string_view, 2> names{"rainbow", "no_picture"};
};
template <>
struct EnumNames<CutPurpose> {
  static constexpr std::string_view what = "cut purpose";
  static constexpr std::array<std::string_view, 2> names{"dealer", "trump"};
};
template <>
struct EnumNames<DogLife> {
  static constexpr std::string_view what = "dog_life";
  static constexpr std::array<std::string_view, 3> names{"standard", "expanded", "none"};
};
template <>
struct EnumNames<TieBreak> {
  static constexpr std::string_view what = "tie_break";
  static constexpr std::array<std::string_view, 2> names{"cut", "random"};
};
template <>
struct EnumNames<FaultKind> {
  static constexpr std::string_view what = "fault kind";
  static constexpr std::array<std::string_view, 4> names{"timeout", "crash", "illegal", "malformed"};
};

/// The wire name of an enumeration value: to_string(Suit::Spades) == "S".
template <typename E>
constexpr std::string_view to_string(E value) {
  return EnumNames<E>::names[static_cast<std::size_t>(value)];
}

/// The value whose wire name is `text`; throws ProtocolError for an unknown name.
template <typename E>
E parse_enum(std::string_view text) {
  const auto& names = EnumNames<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<E>(i);
  }
  throw ProtocolError("not a " + std::string(EnumNames<E>::what) + ": \"" + std::string(text) + "\"");
}

// JSON conversions of the enumerations, as their wire names. They are plain
// functions, not one template, so that they take precedence over nlohmann's
// default of writing an enum as its number.
#define ARENA_JSON_ENUM(E)                                                      \
  inline void to_json(json& j, E value) { j = std::string(to_string(value)); } \
  inline void from_json(const json& j, E& value) { value = parse_enum<E>(j.get<std::string>()); }
ARENA_JSON_ENUM(Suit)
ARENA_JSON_ENUM(Rank)
ARENA_JSON_ENUM(Status)
ARENA_JSON_ENUM(Action)
ARENA_JSON_ENUM(Declaration)
ARENA_JSON_ENUM(CutPurpose)
ARENA_JSON_ENUM(DogLife)
ARENA_JSON_ENUM(TieBreak)
ARENA_JSON_ENUM(FaultKind)
#undef ARENA_JSON_ENUM

// ---------------------------------------------------------------------------
// Cards and moves

/// A card, written on the wire as rank then suit: "TD" is the ten of diamonds.
struct Card {
  Rank rank = Rank::Two;
  Suit suit = Suit::Clubs;

  /// Reads "TD"; throws ProtocolError for anything else than a card.
  static Card parse(std::string_view text);
  /// "TD".
  std::string str() const;
  /// 0..51 in the order of `legal` (by rank, then suit C H D S): handy for bitsets.
  constexpr int index() const { return static_cast<int>(rank) * 4 + static_cast<int>(suit); }
};

constexpr bool operator==(Card a, Card b) { return a.rank == b.rank && a.suit == b.suit; }
constexpr bool operator!=(Card a, Card b) { return !(a == b); }
/// The order of `legal`: by rank from 2 up to ace, then by suit C H D S.
constexpr bool operator<(Card a, Card b) { return a.index() < b.index(); }

void to_json(json& j, const Card& card);
void from_json(const json& j, Card& card);

/// One entry of `legal`, and what a `move` reply carries: a card, a suit (naming
/// trumps), or one of the words "knock", "blind", "pass", "declare".
class Move {
 public:
  enum class Kind : std::uint8_t { Card, Suit, Knock, Blind, Pass, Declare };

  /// A placeholder ("pass") to be assigned; JSON parsing needs default construction.
  Move() = default;
  /// A card is a move, and so is a suit: `Move m = card;` reads naturally.
  Move(Card card) : kind_(Kind::Card), card_(card) {}  // NOLINT(google-explicit-constructor)
  Move(Suit suit) : kind_(Kind::Suit), suit_(suit) {}  // NOLINT(google-explicit-constructor)
  static Move knock() { return Move(Kind::Knock); }
  static Move blind() { return Move(Kind::Blind); }
  static Move pass() { return Move(Kind::Pass); }
  static Move declare() { return Move(Kind::Declare); }

  /// Reads "TD", "S", "knock", "blind", "pass" or "declare"; throws ProtocolError otherwise.
  static Move parse(std::string_view text);
  std::string str() const;

  Kind kind() const { return kind_; }
  bool is_card() const { return kind_ == Kind::Card; }
  bool is_suit() const { return kind_ == Kind::Suit; }
  /// The card of a card move; throws std::logic_error for another kind.
  Card card() const;
  /// The suit of a suit move; throws std::logic_error for another kind.
  Suit suit() const;

  friend bool operator==(const Move& a, const Move& b) {
    return a.kind_ == b.kind_ && (a.kind_ != Kind::Card || a.card_ == b.card_) &&
           (a.kind_ != Kind::Suit || a.suit_ == b.suit_);
  }
  friend bool operator!=(const Move& a, const Move& b) { return !(a == b); }

 private:
  explicit Move(Kind kind) : kind_(kind) {}

  Kind kind_ = Kind::Pass;
  Card card_{};
  Suit suit_{};
};

void to_json(json& j, const Move& move);
void from_json(const json& j, Move& move);

/// [seat, card]: who played (or drew, in a cut) which card.
struct Play {
  Seat seat = 0;
  Card card{};
};
void to_json(json& j, const Play& play);
void from_json(const json& j, Play& play);

/// [seat, card or "knock"]: one turn of a completed trick.
struct Turn {
  Seat seat = 0;
  std::optional<Card> card;  ///< std::nullopt: the seat (a dog) knocked

  bool knocked() const { return !card; }
};
void to_json(json& j, const Turn& turn);
void from_json(const json& j, Turn& turn);

/// A completed trick of `state.history`.
struct CompletedTrick {
  Seat leader = 0;          ///< the seat whose card led
  std::vector<Turn> moves;  ///< every turn in order, a dog's knock included
  Seat winner = 0;
};
void to_json(json& j, const CompletedTrick& trick);
void from_json(const json& j, CompletedTrick& trick);

// ---------------------------------------------------------------------------
// Parts of messages

struct Limits {
  Millis startup_ms = 0;
  Millis move_ms = 0;
  Millis bank_ms = 0;
};
void to_json(json& j, const Limits& limits);
void from_json(const json& j, Limits& limits);

/// The time for one request: the free allowance, then what is left of this game's bank.
struct Time {
  Millis move_ms = 0;
  Millis bank_ms = 0;
};
void to_json(json& j, const Time& time);
void from_json(const json& j, Time& time);

/// The rule options in force (game_start.rules); the defaults are the standard game.
struct Rules {
  int players = 4;
  DogLife dog_life = DogLife::Standard;
  bool dog_first_hand_only = false;
  bool blind_dog = false;
  bool upside_dog = false;
  bool rainbow = false;
  bool no_picture = false;
  bool trumps_broken = false;
  bool eliminated_deals = false;
  bool sweep_wins = false;
  TieBreak tie_break = TieBreak::Cut;
};
void to_json(json& j, const Rules& rules);
void from_json(const json& j, Rules& rules);

/// A request's `state`: everything the requested seat may know.
struct State {
  Seat seat = 0;
  int hand = 1;       ///< 1..7
  int hand_size = 7;  ///< cards dealt to each active seat this hand (8 - hand)
  Seat dealer = 0;
  Nullable<Suit> trump;       ///< null only while trumps are being named
  std::vector<Card> cards;    ///< the cards you still hold; [] for a blind dog
  Seat leader = 0;            ///< the seat leading the current trick
  std::vector<Play> trick;    ///< the current trick so far
  std::vector<Play> played;   ///< every card played this hand, in order (the current trick included)
  std::vector<int> tricks;    ///< tricks taken this hand, per seat
  std::vector<Status> statuses;
  Nullable<Card> turn_up;                   ///< hand 1's turned-up card (out of play), else null
  std::optional<SeatMap<Card>> dog_cards;   ///< face-up dog cards (upside_dog); absent when none
  std::vector<CompletedTrick> history;      ///< the completed tricks of this hand
  std::vector<Seat> blind;                  ///< seats playing a blind dog this hand
  /// Seats that knocked in the trick in progress: this arena always sends it,
  /// another v1 referee may leave it out.
  std::optional<std::vector<Seat>> knocked;
};
void to_json(json& j, const State& state);
void from_json(const json& j, State& state);

/// game_end.faults: why a seat forfeited.
struct Fault {
  FaultKind kind = FaultKind::Crash;
  std::string detail;
};
void to_json(json& j, const Fault& fault);
void from_json(const json& j, Fault& fault);

// ---------------------------------------------------------------------------
// Messages from the referee

struct Hello {
  int protocol = 1;
  Limits limits;
};
struct GameStart {
  std::string game;                  ///< an opaque, reproducible id
  Seat seat = 0;                     ///< your seat
  std::vector<std::string> players;  ///< the arena's names of the bots, in seat order
  Rules rules;
};
struct HandStart {
  int hand = 1;
  Seat dealer = 0;
  std::vector<Card> cards;  ///< your hand; [] when you hold none or are a blind dog
  int hand_size = 7;
  Nullable<Card> turn_up;  ///< hand 1 only, else null
  std::vector<Status> statuses;
  std::optional<SeatMap<Card>> dog_cards;  ///< absent when no dog card is face up
};
/// Trumps are set; `seat` is null when the turned-up card decided (hand 1).
struct TrumpEvent {
  Suit suit = Suit::Clubs;
  Nullable<Seat> seat;
};
struct PlayEvent {
  Seat seat = 0;
  Card card{};
};
struct KnockEvent {
  Seat seat = 0;
};
struct TrickEvent {
  Seat winner = 0;
  std::vector<Play> cards;  ///< in play order
};
struct DeclareEvent {
  Seat seat = 0;
  Declaration what = Declaration::Rainbow;
  std::vector<Card> cards;
};
struct CutEvent {
  CutPurpose purpose = CutPurpose::Dealer;
  std::vector<Play> draws;
  Seat winner = 0;
};
struct Request {
  std::int64_t id = 0;  ///< echo it in the move; an opaque integer
  Action action = Action::Play;
  std::vector<Move> legal;  ///< every allowed move, never empty
  State state;
  Time time;
};
/// Your last reply was refused: you have lost this game.
struct Error {
  std::optional<std::int64_t> id;  ///< the refused request's id; absent when not about a request
  std::string message;
};
struct HandEnd {
  int hand = 1;
  std::vector<int> tricks;
  std::vector<Status> statuses;  ///< after this hand
  Nullable<Seat> chooser;        ///< who names trumps next; null when the game is over
};
struct GameEnd {
  std::string game;
  std::vector<int> placements;  ///< per seat, 1 = winner, equal numbers share a place
  Seat winner = 0;
  SeatMap<Fault> faults;
};
struct Bye {};

void to_json(json& j, const Hello& message);
void from_json(const json& j, Hello& message);
void to_json(json& j, const GameStart& message);
void from_json(const json& j, GameStart& message);
void to_json(json& j, const HandStart& message);
void from_json(const json& j, HandStart& message);
void to_json(json& j, const TrumpEvent& message);
void from_json(const json& j, TrumpEvent& message);
void to_json(json& j, const PlayEvent& message);
void from_json(const json& j, PlayEvent& message);
void to_json(json& j, const KnockEvent& message);
void from_json(const json& j, KnockEvent& message);
void to_json(json& j, const TrickEvent& message);
void from_json(const json& j, TrickEvent& message);
void to_json(json& j, const DeclareEvent& message);
void from_json(const json& j, DeclareEvent& message);
void to_json(json& j, const CutEvent& message);
void from_json(const json& j, CutEvent& message);
void to_json(json& j, const Request& message);
void from_json(const json& j, Request& message);
void to_json(json& j, const Error& message);
void from_json(const json& j, Error& message);
void to_json(json& j, const HandEnd& message);
void from_json(const json& j, HandEnd& message);
void to_json(json& j, const GameEnd& message);
void from_json(const json& j, GameEnd& message);
void to_json(json& j, const Bye& message);
void from_json(const json& j, Bye& message);

/// Any line the referee writes (each `event` kind is its own struct): what
/// parse_referee_message() reads; Strategy::observe() is shown those that get no
/// reply. A std::variant: `std::get_if<GameStart>(&message)` picks one kind out.
using Message = std::variant<Hello, GameStart, HandStart, TrumpEvent, PlayEvent, KnockEvent, TrickEvent,
                             DeclareEvent, CutEvent, Request, Error, HandEnd, GameEnd, Bye>;

// ---------------------------------------------------------------------------
// The bot's replies

/// The answer to hello.
struct Ready {
  std::string name;
  std::optional<std::string> version;
  std::optional<std::string> author;
};
/// The answer to a request (the `move` message).
struct MoveReply {
  std::int64_t id = 0;  ///< the request's id
  Move move;            ///< one of the request's legal moves
  /// What the bot was thinking: any JSON value, `null` included, kept in the
  /// replay with the move (at most 4096 bytes compact; a larger one is kept as
  /// its size only); std::nullopt leaves the field out.
  std::optional<json> info;
};

/// What a strategy decides for a request: the move, and the `info` to send
/// with it, if any (what the bot was thinking: an estimate, rollouts, a line
/// of play; any JSON value). A Move, a Card or a Suit converts to a Decision
/// without info, so `return card;` still works; `return {card, json{...}};`
/// sends info too. No info, or a JSON null, sends no `info` key at all.
struct Decision {
  Decision(Move chosen) : move(chosen) {}  // NOLINT(google-explicit-constructor)
  Decision(Card card) : move(card) {}      // NOLINT(google-explicit-constructor)
  Decision(Suit suit) : move(suit) {}      // NOLINT(google-explicit-constructor)
  Decision(Move chosen, json what) : move(chosen), info(std::move(what)) {}

  Move move;                 ///< one of the request's legal moves
  std::optional<json> info;  ///< sent as the move's `info`; std::nullopt: none
};
void to_json(json& j, const Ready& message);
void from_json(const json& j, Ready& message);
void to_json(json& j, const MoveReply& message);
void from_json(const json& j, MoveReply& message);

using BotMessage = std::variant<Ready, MoveReply>;

// ---------------------------------------------------------------------------
// Whole messages

/// The typed message for a JSON object from the referee, chosen by its `type`
/// (and `event`). std::nullopt for a type or event this v1 model does not
/// know (a v1 bot ignores those). Throws ProtocolError when a known message
/// is malformed.
std::optional<Message> parse_referee_message(const json& message);
/// The same for the bot's replies (`ready`, `move`).
std::optional<BotMessage> parse_bot_message(const json& message);

/// The JSON object of a message, ready to dump() on one line.
json serialize(const Message& message);
json serialize(const BotMessage& message);

/// A message through the typed model and back to JSON (`bot --roundtrip`, the kit's
/// tests). Throws ProtocolError for a malformed message or a type v1 does not know.
json reserialize(const json& message);

}  // namespace arena

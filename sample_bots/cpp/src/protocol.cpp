// JSON conversions of the protocol model (see protocol.hpp).
//
// Parsing is strict about what it reads (an integer field takes only a JSON
// integer, a card only "TD"-like strings) and ignores fields it does not know.
#include "protocol.hpp"

#include <limits>
#include <type_traits>
#include <utility>

namespace arena {
namespace {

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsSeatMap : std::false_type {};
template <typename T>
struct IsSeatMap<SeatMap<T>> : std::true_type {};

/// A short excerpt of a JSON value for error messages.
std::string excerpt(const json& value) {
  std::string text = value.dump();
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

/// Rethrows the exception being handled as a ProtocolError whose message starts
/// with `where` (".state", "[0]"), so that the message reads as a path.
[[noreturn]] void rethrow_within(const std::string& where) {
  try {
    throw;
  } catch (const ProtocolError& error) {
    const std::string inner = error.what();
    const bool path = !inner.empty() && (inner[0] == '.' || inner[0] == '[');
    throw ProtocolError(where + (path ? "" : ": ") + inner);
  } catch (const json::exception& error) {
    throw ProtocolError(where + ": " + error.what());
  }
}

Seat parse_seat_key(const std::string& key) {
  // Seat keys are small numbers written as strings: "0".."6".
  if (key.empty() || key.size() > 2 || key.find_first_not_of("0123456789") != std::string::npos) {
    throw ProtocolError("not a seat number: \"" + key + "\"");
  }
  return std::stoi(key);
}

/// Reads a JSON value as a T. Integers must be JSON integers (nlohmann's own
/// get<int>() would accept 1.5 and truncate it), a Nullable<T> takes `null`,
/// everything else goes through the from_json() functions of this file.
template <typename T>
T read(const json& value) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean()) throw ProtocolError("expected true or false, got " + excerpt(value));
    return value.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!value.is_number_integer()) throw ProtocolError("expected an integer, got " + excerpt(value));
    const bool fits = value.is_number_unsigned()
                          ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                          : value.get<std::int64_t>() >= std::numeric_limits<T>::min() &&
                                value.get<std::int64_t>() <= std::numeric_limits<T>::max();
    if (!fits) throw ProtocolError("integer out of range: " + excerpt(value));
    return value.get<T>();
  } else if constexpr (IsOptional<T>::value) {
    if (value.is_null()) return std::nullopt;
    return read<typename T::value_type>(value);
  } else if constexpr (IsVector<T>::value) {
    if (!value.is_array()) throw ProtocolError("expected a list, got " + excerpt(value));
    T items;
    items.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
      try {
        items.push_back(read<typename T::value_type>(value[i]));
      } catch (...) {
        rethrow_within("[" + std::to_string(i) + "]");
      }
    }
    return items;
  } else if constexpr (IsSeatMap<T>::value) {
    if (!value.is_object()) throw ProtocolError("expected an object keyed by seat, got " + excerpt(value));
    T map;
    for (const auto& [key, item] : value.items()) {
      try {
        map.emplace(parse_seat_key(key), read<typename T::mapped_type>(item));
      } catch (...) {
        rethrow_within("." + key);
      }
    }
    return map;
  } else if constexpr (std::is_same_v<T, json>) {
    return value;
  } else {
    return value.get<T>();  // strings, enums, cards, moves and the structs below
  }
}

void expect_object(const json& value) {
  if (!value.is_object()) throw ProtocolError("expected an object, got " + excerpt(value));
}

/// A required field (a Nullable<T> must be present, and may be null).
template <typename T>
T field(const json& object, const char* key) {
  expect_object(object);
  const auto it = object.find(key);
  if (it == object.end()) throw ProtocolError(std::string("missing field \"") + key + "\"");
  try {
    return read<T>(*it);
  } catch (...) {
    rethrow_within(std::string(".") + key);
  }
}

/// A field that may be absent: std::nullopt when it is.
template <typename T>
std::optional<T> optional_field(const json& object, const char* key) {
  expect_object(object);
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  try {
    return read<T>(*it);
  } catch (...) {
    rethrow_within(std::string(".") + key);
  }
}

/// A Nullable<T> as JSON: the value, or null.
template <typename T>
json nullable(const Nullable<T>& value) {
  return value ? json(*value) : json(nullptr);
}

/// A SeatMap as a JSON object keyed by seat strings.
template <typename T>
json seat_map(const SeatMap<T>& map) {
  json object = json::object();
  for (const auto& [seat, item] : map) object[std::to_string(seat)] = item;
  return object;
}

/// Adds `key` to `object` only when the optional field was sent.
template <typename T>
void put_optional(json& object, const char* key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

}  // namespace

// ---------------------------------------------------------------------------
// Cards and moves

Card Card::parse(std::string_view text) {
  if (text.size() == 2) {
    try {
      return Card{parse_enum<Rank>(text.substr(0, 1)), parse_enum<Suit>(text.substr(1, 1))};
    } catch (const ProtocolError&) {
      // fall through to the message below, which names the whole string
    }
  }
  throw ProtocolError("not a card: \"" + std::string(text) + "\"");
}

std::string Card::str() const { return std::string(to_string(rank)) + std::string(to_string(suit)); }

void to_json(json& j, const Card& card) { j = card.str(); }
void from_json(const json& j, Card& card) { card = Card::parse(j.get<std::string>()); }

Move Move::parse(std::string_view text) {
  if (text == "knock") return knock();
  if (text == "blind") return blind();
  if (text == "pass") return pass();
  if (text == "declare") return declare();
  if (text.size() == 1) return parse_enum<Suit>(text);
  if (text.size() == 2) return Card::parse(text);
  throw ProtocolError("not a move: \"" + std::string(text) + "\"");
}

std::string Move::str() const {
  switch (kind_) {
    case Kind::Card:
      return card_.str();
    case Kind::Suit:
      return std::string(to_string(suit_));
    case Kind::Knock:
      return "knock";
    case Kind::Blind:
      return "blind";
    case Kind::Pass:
      return "pass";
    case Kind::Declare:
      return "declare";
  }
  return "pass";  // unreachable: every kind is handled above
}

Card Move::card() const {
  if (kind_ != Kind::Card) throw std::logic_error("move " + str() + " is not a card");
  return card_;
}

Suit Move::suit() const {
  if (kind_ != Kind::Suit) throw std::logic_error("move " + str() + " is not a suit");
  return suit_;
}

void to_json(json& j, const Move& move) { j = move.str(); }
void from_json(const json& j, Move& move) { move = Move::parse(j.get<std::string>()); }

void to_json(json& j, const Play& play) { j = json::array({play.seat, play.card}); }
void from_json(const json& j, Play& play) {
  if (!j.is_array() || j.size() != 2) throw ProtocolError("expected [seat, card], got " + excerpt(j));
  play.seat = read<Seat>(j[0]);
  play.card = read<Card>(j[1]);
}

void to_json(json& j, const Turn& turn) {
  j = json::array({turn.seat, turn.card ? json(*turn.card) : json("knock")});
}
void from_json(const json& j, Turn& turn) {
  if (!j.is_array() || j.size() != 2) throw ProtocolError("expected [seat, card or \"knock\"], got " + excerpt(j));
  turn.seat = read<Seat>(j[0]);
  if (j[1] == "knock") {
    turn.card.reset();
  } else {
    turn.card = read<Card>(j[1]);
  }
}

void to_json(json& j, const CompletedTrick& trick) {
  j = {{"leader", trick.leader}, {"moves", trick.moves}, {"winner", trick.winner}};
}
void from_json(const json& j, CompletedTrick& trick) {
  trick.leader = field<Seat>(j, "leader");
  trick.moves = field<std::vector<Turn>>(j, "moves");
  trick.winner = field<Seat>(j, "winner");
}

// ---------------------------------------------------------------------------
// Parts of messages

void to_json(json& j, const Limits& limits) {
  j = {{"startup_ms", limits.startup_ms}, {"move_ms", limits.move_ms}, {"bank_ms", limits.bank_ms}};
}
void from_json(const json& j, Limits& limits) {
  limits.startup_ms = field<Millis>(j, "startup_ms");
  limits.move_ms = field<Millis>(j, "move_ms");
  limits.bank_ms = field<Millis>(j, "bank_ms");
}

void to_json(json& j, const Time& time) { j = {{"move_ms", time.move_ms}, {"bank_ms", time.bank_ms}}; }
void from_json(const json& j, Time& time) {
  time.move_ms = field<Millis>(j, "move_ms");
  time.bank_ms = field<Millis>(j, "bank_ms");
}

void to_json(json& j, const Rules& rules) {
  j = {
      {"players", rules.players},
      {"dog_life", rules.dog_life},
      {"dog_first_hand_only", rules.dog_first_hand_only},
      {"blind_dog", rules.blind_dog},
      {"upside_dog", rules.upside_dog},
      {"rainbow", rules.rainbow},
      {"no_picture", rules.no_picture},
      {"trumps_broken", rules.trumps_broken},
      {"eliminated_deals", rules.eliminated_deals},
      {"sweep_wins", rules.sweep_wins},
      {"tie_break", rules.tie_break},
  };
}
void from_json(const json& j, Rules& rules) {
  rules.players = field<int>(j, "players");
  rules.dog_life = field<DogLife>(j, "dog_life");
  rules.dog_first_hand_only = field<bool>(j, "dog_first_hand_only");
  rules.blind_dog = field<bool>(j, "blind_dog");
  rules.upside_dog = field<bool>(j, "upside_dog");
  rules.rainbow = field<bool>(j, "rainbow");
  rules.no_picture = field<bool>(j, "no_picture");
  rules.trumps_broken = field<bool>(j, "trumps_broken");
  rules.eliminated_deals = field<bool>(j, "eliminated_deals");
  rules.sweep_wins = field<bool>(j, "sweep_wins");
  rules.tie_break = field<TieBreak>(j, "tie_break");
}

void to_json(json& j, const State& state) {
  j = {
      {"seat", state.seat},
      {"hand", state.hand},
      {"hand_size", state.hand_size},
      {"dealer", state.dealer},
      {"trump", nullable(state.trump)},
      {"cards", state.cards},
      {"leader", state.leader},
      {"trick", state.trick},
      {"played", state.played},
      {"tricks", state.tricks},
      {"statuses", state.statuses},
      {"turn_up", nullable(state.turn_up)},
      {"history", state.history},
      {"blind", state.blind},
  };
  if (state.dog_cards) j["dog_cards"] = seat_map(*state.dog_cards);
  put_optional(j, "knocked", state.knocked);
}
void from_json(const json& j, State& state) {
  state.seat = field<Seat>(j, "seat");
  state.hand = field<int>(j, "hand");
  state.hand_size = field<int>(j, "hand_size");
  state.dealer = field<Seat>(j, "dealer");
  state.trump = field<Nullable<Suit>>(j, "trump");
  state.cards = field<std::vector<Card>>(j, "cards");
  state.leader = field<Seat>(j, "leader");
  state.trick = field<std::vector<Play>>(j, "trick");
  state.played = field<std::vector<Play>>(j, "played");
  state.tricks = field<std::vector<int>>(j, "tricks");
  state.statuses = field<std::vector<Status>>(j, "statuses");
  state.turn_up = field<Nullable<Card>>(j, "turn_up");
  state.dog_cards = optional_field<SeatMap<Card>>(j, "dog_cards");
  state.history = field<std::vector<CompletedTrick>>(j, "history");
  state.blind = field<std::vector<Seat>>(j, "blind");
  state.knocked = optional_field<std::vector<Seat>>(j, "knocked");
}

void to_json(json& j, const Fault& fault) { j = {{"kind", fault.kind}, {"detail", fault.detail}}; }
void from_json(const json& j, Fault& fault) {
  fault.kind = field<FaultKind>(j, "kind");
  fault.detail = field<std::string>(j, "detail");
}

// ---------------------------------------------------------------------------
// Messages from the referee

void to_json(json& j, const Hello& message) {
  j = {{"type", "hello"}, {"protocol", message.protocol}, {"limits", message.limits}};
}
void from_json(const json& j, Hello& message) {
  message.protocol = field<int>(j, "protocol");
  message.limits = field<Limits>(j, "limits");
}

void to_json(json& j, const GameStart& message) {
  j = {{"type", "game_start"},
       {"game", message.game},
       {"seat", message.seat},
       {"players", message.players},
       {"rules", message.rules}};
}
void from_json(const json& j, GameStart& message) {
  message.game = field<std::string>(j, "game");
  message.seat = field<Seat>(j, "seat");
  message.players = field<std::vector<std::string>>(j, "players");
  message.rules = field<Rules>(j, "rules");
}

void to_json(json& j, const HandStart& message) {
  j = {{"type", "hand_start"},
       {"hand", message.hand},
       {"dealer", message.dealer},
       {"cards", message.cards},
       {"hand_size", message.hand_size},
       {"turn_up", nullable(message.turn_up)},
       {"statuses", message.statuses}};
  if (message.dog_cards) j["dog_cards"] = seat_map(*message.dog_cards);
}
void from_json(const json& j, HandStart& message) {
  message.hand = field<int>(j, "hand");
  message.dealer = field<Seat>(j, "dealer");
  message.cards = field<std::vector<Card>>(j, "cards");
  message.hand_size = field<int>(j, "hand_size");
  message.turn_up = field<Nullable<Card>>(j, "turn_up");
  message.statuses = field<std::vector<Status>>(j, "statuses");
  message.dog_cards = optional_field<SeatMap<Card>>(j, "dog_cards");
}

void to_json(json& j, const TrumpEvent& message) {
  j = {{"type", "event"}, {"event", "trump"}, {"suit", message.suit}, {"seat", nullable(message.seat)}};
}
void from_json(const json& j, TrumpEvent& message) {
  message.suit = field<Suit>(j, "suit");
  message.seat = field<Nullable<Seat>>(j, "seat");
}

void to_json(json& j, const PlayEvent& message) {
  j = {{"type", "event"}, {"event", "play"}, {"seat", message.seat}, {"card", message.card}};
}
void from_json(const json& j, PlayEvent& message) {
  message.seat = field<Seat>(j, "seat");
  message.card = field<Card>(j, "card");
}

void to_json(json& j, const KnockEvent& message) {
  j = {{"type", "event"}, {"event", "knock"}, {"seat", message.seat}};
}
void from_json(const json& j, KnockEvent& message) { message.seat = field<Seat>(j, "seat"); }

void to_json(json& j, const TrickEvent& message) {
  j = {{"type", "event"}, {"event", "trick"}, {"winner", message.winner}, {"cards", message.cards}};
}
void from_json(const json& j, TrickEvent& message) {
  message.winner = field<Seat>(j, "winner");
  message.cards = field<std::vector<Play>>(j, "cards");
}

void to_json(json& j, const DeclareEvent& message) {
  j = {{"type", "event"},
       {"event", "declare"},
       {"seat", message.seat},
       {"what", message.what},
       {"cards", message.cards}};
}
void from_json(const json& j, DeclareEvent& message) {
  message.seat = field<Seat>(j, "seat");
  message.what = field<Declaration>(j, "what");
  message.cards = field<std::vector<Card>>(j, "cards");
}

void to_json(json& j, const CutEvent& message) {
  j = {{"type", "event"},
       {"event", "cut"},
       {"purpose", message.purpose},
       {"draws", message.draws},
       {"winner", message.winner}};
}
void from_json(const json& j, CutEvent& message) {
  message.purpose = field<CutPurpose>(j, "purpose");
  message.draws = field<std::vector<Play>>(j, "draws");
  message.winner = field<Seat>(j, "winner");
}

void to_json(json& j, const Request& message) {
  j = {{"type", "request"},
       {"id", message.id},
       {"action", message.action},
       {"legal", message.legal},
       {"state", message.state},
       {"time", message.time}};
}
void from_json(const json& j, Request& message) {
  message.id = field<std::int64_t>(j, "id");
  message.action = field<Action>(j, "action");
  message.legal = field<std::vector<Move>>(j, "legal");
  message.state = field<State>(j, "state");
  message.time = field<Time>(j, "time");
}

void to_json(json& j, const Error& message) {
  j = {{"type", "error"}, {"message", message.message}};
  put_optional(j, "id", message.id);
}
void from_json(const json& j, Error& message) {
  message.id = optional_field<std::int64_t>(j, "id");
  message.message = field<std::string>(j, "message");
}

void to_json(json& j, const HandEnd& message) {
  j = {{"type", "hand_end"},
       {"hand", message.hand},
       {"tricks", message.tricks},
       {"statuses", message.statuses},
       {"chooser", nullable(message.chooser)}};
}
void from_json(const json& j, HandEnd& message) {
  message.hand = field<int>(j, "hand");
  message.tricks = field<std::vector<int>>(j, "tricks");
  message.statuses = field<std::vector<Status>>(j, "statuses");
  message.chooser = field<Nullable<Seat>>(j, "chooser");
}

void to_json(json& j, const GameEnd& message) {
  j = {{"type", "game_end"},
       {"game", message.game},
       {"placements", message.placements},
       {"winner", message.winner},
       {"faults", seat_map(message.faults)}};
}
void from_json(const json& j, GameEnd& message) {
  message.game = field<std::string>(j, "game");
  message.placements = field<std::vector<int>>(j, "placements");
  message.winner = field<Seat>(j, "winner");
  message.faults = field<SeatMap<Fault>>(j, "faults");
}

void to_json(json& j, const Bye& /*message*/) { j = {{"type", "bye"}}; }
void from_json(const json& j, Bye& /*message*/) { expect_object(j); }

// ---------------------------------------------------------------------------
// The bot's replies

void to_json(json& j, const Ready& message) {
  j = {{"type", "ready"}, {"name", message.name}};
  put_optional(j, "version", message.version);
  put_optional(j, "author", message.author);
}
void from_json(const json& j, Ready& message) {
  message.name = field<std::string>(j, "name");
  message.version = optional_field<std::string>(j, "version");
  message.author = optional_field<std::string>(j, "author");
}

void to_json(json& j, const MoveReply& message) {
  j = {{"type", "move"}, {"id", message.id}, {"move", message.move}};
  put_optional(j, "info", message.info);
}
void from_json(const json& j, MoveReply& message) {
  message.id = field<std::int64_t>(j, "id");
  message.move = field<Move>(j, "move");
  message.info = optional_field<json>(j, "info");
}

// ---------------------------------------------------------------------------
// Whole messages

namespace {

/// Runs a parse, turning nlohmann's exceptions into ProtocolError.
template <typename Parse>
auto guarded(Parse parse) {
  try {
    return parse();
  } catch (const json::exception& error) {
    throw ProtocolError(error.what());
  }
}

}  // namespace

std::optional<Message> parse_referee_message(const json& message) {
  return guarded([&]() -> std::optional<Message> {
    const auto type = field<std::string>(message, "type");
    if (type == "hello") return message.get<Hello>();
    if (type == "game_start") return message.get<GameStart>();
    if (type == "hand_start") return message.get<HandStart>();
    if (type == "request") return message.get<Request>();
    if (type == "error") return message.get<Error>();
    if (type == "hand_end") return message.get<HandEnd>();
    if (type == "game_end") return message.get<GameEnd>();
    if (type == "bye") return message.get<Bye>();
    if (type == "event") {
      const auto event = field<std::string>(message, "event");
      if (event == "trump") return message.get<TrumpEvent>();
      if (event == "play") return message.get<PlayEvent>();
      if (event == "knock") return message.get<KnockEvent>();
      if (event == "trick") return message.get<TrickEvent>();
      if (event == "declare") return message.get<DeclareEvent>();
      if (event == "cut") return message.get<CutEvent>();
    }
    return std::nullopt;  // a type (or event) of a later protocol version
  });
}

std::optional<BotMessage> parse_bot_message(const json& message) {
  return guarded([&]() -> std::optional<BotMessage> {
    const auto type = field<std::string>(message, "type");
    if (type == "ready") return message.get<Ready>();
    if (type == "move") return message.get<MoveReply>();
    return std::nullopt;
  });
}

json serialize(const Message& message) {
  return std::visit([](const auto& typed) { return json(typed); }, message);
}

json serialize(const BotMessage& message) {
  return std::visit([](const auto& typed) { return json(typed); }, message);
}

json reserialize(const json& message) {
  const auto type = message.is_object() && message.contains("type") && message["type"].is_string()
                        ? message["type"].get<std::string>()
                        : std::string();
  if (type == "ready" || type == "move") return serialize(*parse_bot_message(message));
  const auto parsed = parse_referee_message(message);
  if (!parsed) throw ProtocolError("not a protocol v1 message type: \"" + type + "\"");
  return serialize(*parsed);
}

}  // namespace arena

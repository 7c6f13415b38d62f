// The kit's own tests (ctest, see CMakeLists.txt): every line of the arena's
// round-trip fixture is read into the typed model and written back the same;
// greedy() picks the same move, by the same rule, as every other kit's on fixed
// positions; Strategy::choose() sends that move with its rule as info, or with
// eps 1 a legal random move drawn from the seed observe() sets.
//
//   kit_test roundtrip FIXTURE   exit 77 (skipped) when FIXTURE is missing: a bot
//                                made by `arena new-bot` is not in the arena's repository
//   kit_test greedy
//   kit_test strategy
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "greedy.hpp"
#include "helpers.hpp"
#include "protocol.hpp"
#include "strategy.hpp"

namespace {

using arena::json;

int roundtrip(const std::string& fixture) {
  std::ifstream in(fixture);
  if (!in) {
    std::cout << "no fixture at " << fixture << ": not in the arena repository\n";
    return 77;
  }
  int lines = 0;
  int failed = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    ++lines;
    const json sent = json::parse(line);
    if (arena::reserialize(sent) != sent) {
      ++failed;
      std::cout << "FAIL: " << line << "\n came back as " << arena::reserialize(sent).dump() << '\n';
    }
  }
  std::cout << lines - failed << " of " << lines << " lines came back the same\n";
  return failed == 0 && lines > 10 ? 0 : 1;
}

struct Choice {
  const char* name;
  const char* request;
  const char* move;
  const char* rule;
};

/// Fixed positions, and the greedy move and rule for each (the same in every kit).
const std::vector<Choice> kChoices = {
  {"names trumps with the jack of clubs alone",
   R"({"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}})",
   "C", "strongest_suit"},
  {"a weak hand declares its rainbow",
   R"({"type": "request", "id": 54, "action": "rainbow", "legal": ["pass", "declare"], "state": {"seat": 1, "hand": 4, "hand_size": 4, "dealer": 1, "trump": "C", "cards": ["3H", "4S", "TD", "QC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "active", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}})",
   "declare", "weak_hand"},
  {"following hearts, the ten wins the four cheaply",
   R"({"type": "request", "id": 46, "action": "play", "legal": ["2H", "TH"], "state": {"seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "D", "cards": ["2H", "5S", "TH", "AS"], "leader": 2, "trick": [[2, "4H"]], "played": [[0, "3C"], [1, "6C"], [2, "9C"], [2, "4H"]], "tricks": [0, 0, 1], "statuses": ["active", "active", "active"], "turn_up": null, "history": [{"leader": 0, "moves": [[0, "3C"], [1, "6C"], [2, "9C"]], "winner": 2}], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 9340}})",
   "TH", "cheapest_winner"},
  {"a dog leading with the queen of trumps, the ace and king out, knocks",
   R"({"type": "request", "id": 81, "action": "play", "legal": ["knock", "QD"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 0, "trump": "D", "cards": ["QD"], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["active", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": [], "dog_cards": {"1": "QD"}}, "time": {"move_ms": 1000, "bank_ms": 10000}})",
   "knock", "dog_knock"},
  {"a blind dog leading knocks",
   R"({"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}})",
   "knock", "dog_knock"},
};

arena::Request request_of(const Choice& choice) {
  return std::get<arena::Request>(*arena::parse_referee_message(json::parse(choice.request)));
}

/// Prints "ok: WHAT" or "FAIL: WHAT" and counts the failures.
void check(bool ok, const std::string& what, int& failed) {
  std::cout << (ok ? "ok: " : "FAIL: ") << what << '\n';
  failed += ok ? 0 : 1;
}

int greedy() {
  int failed = 0;
  for (const auto& choice : kChoices) {
    const auto request = request_of(choice);
    const auto chosen = arena::greedy(request.state, request.legal, request.action);
    check(chosen.move.str() == choice.move && std::string(chosen.rule) == choice.rule,
          std::string(choice.name) + " (" + chosen.move.str() + ", " + chosen.rule + ")", failed);
  }
  return failed == 0 ? 0 : 1;
}

/// The game_start Strategy::observe() reseeds from.
arena::Message game_start(const std::string& game, arena::Seat seat) {
  arena::GameStart start;
  start.game = game;
  start.seat = seat;
  start.players = {"a", "b", "c"};
  return start;
}

/// The moves of `count` requests, all `choice`'s, from a strategy with eps 1 that has seen `start`.
std::vector<std::string> random_moves(const arena::Message& start, const Choice& choice, int count) {
  arena::Strategy strategy(1.0);
  strategy.observe(start);
  const auto request = request_of(choice);
  std::vector<std::string> moves;
  for (int i = 0; i < count; ++i) moves.push_back(strategy.choose(request.state, request.legal, request).move.str());
  return moves;
}

int strategy() {
  int failed = 0;
  bool greedy_ok = true;
  bool random_ok = true;
  for (const auto& choice : kChoices) {
    const auto request = request_of(choice);
    const auto sure = arena::Strategy(0.0).choose(request.state, request.legal, request);
    greedy_ok = greedy_ok && sure.move.str() == choice.move && sure.info == json{{"rule", choice.rule}};
    arena::Strategy gambler(1.0);
    gambler.observe(game_start("g1", 2));
    const auto drawn = gambler.choose(request.state, request.legal, request);
    random_ok = random_ok && arena::is_legal(drawn.move, request.legal) && drawn.info == json{{"rule", "random"}};
  }
  check(greedy_ok, "eps 0: choose() sends greedy()'s move with {\"rule\": its rule} on every position", failed);
  check(random_ok, "eps 1: choose() sends a legal move with {\"rule\": \"random\"} on every position", failed);

  const Choice& trumps = kChoices.front();  // four legal moves
  const auto moves = random_moves(game_start("g1", 2), trumps, 40);
  check(std::set<std::string>(moves.begin(), moves.end()).size() == 4, "eps 1 draws every legal move", failed);
  check(random_moves(game_start("g1", 2), trumps, 40) == moves, "the same game and seat replay the same draws", failed);
  check(random_moves(game_start("g1", 1), trumps, 40) != moves, "another seat draws other moves", failed);

  const arena::Decision plain = arena::Move::knock();
  check(!plain.info, "a Decision made from a move alone carries no info", failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 2 && args[0] == "roundtrip") return roundtrip(args[1]);
  if (args.size() == 1 && args[0] == "greedy") return greedy();
  if (args.size() == 1 && args[0] == "strategy") return strategy();
  std::cerr << "usage: kit_test roundtrip FIXTURE | kit_test greedy | kit_test strategy\n";
  return 2;
}

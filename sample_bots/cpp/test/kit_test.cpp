// The kit's own tests (ctest, see CMakeLists.txt): every line of the arena's
// round-trip fixture is read into the typed model and written back the same,
// and the greedy strategy picks the same move, by the same rule, as every
// other kit's on fixed positions.
//
//   kit_test roundtrip FIXTURE   exit 77 (skipped) when FIXTURE is missing: a bot
//                                made by `arena new-bot` is not in the arena's repository
//   kit_test greedy
#include <fstream>
#include <iostream>
#include <string>
#include <variant>
#include <vector>

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

int greedy() {
  const std::vector<Choice> choices = {
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
  int failed = 0;
  for (const auto& choice : choices) {
    const auto request = std::get<arena::Request>(*arena::parse_referee_message(json::parse(choice.request)));
    arena::Strategy strategy;
    const auto decision = strategy.choose(request.state, request.legal, request);
    const bool ok = decision.move.str() == choice.move && decision.info == json{{"rule", choice.rule}};
    std::cout << (ok ? "ok: " : "FAIL: ") << choice.name << " (" << decision.move.str() << ", "
              << (decision.info ? decision.info->dump() : "no info") << ")\n";
    failed += ok ? 0 : 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 2 && args[0] == "roundtrip") return roundtrip(args[1]);
  if (args.size() == 1 && args[0] == "greedy") return greedy();
  std::cerr << "usage: kit_test roundtrip FIXTURE | kit_test greedy\n";
  return 2;
}

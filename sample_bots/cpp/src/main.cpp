// The bot program.
//
//   bot               plays a session: reads the referee's lines on stdin until
//                     `bye` or end of input, answers `hello` and each `request`
//                     on stdout (one line each, flushed at once), shows every
//                     other message to Strategy::observe(), logs to stderr.
//   bot --eps E       the same, playing a random legal move with probability E
//                     (0 to 1).
//   bot --roundtrip   reads protocol lines until end of input and writes each one
//                     back after a trip through the typed model (a test of the
//                     model); exits non-zero on a line it cannot read.
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "helpers.hpp"
#include "protocol.hpp"
#include "strategy.hpp"

namespace {

using arena::json;

constexpr const char* kName = "cpp-greedy";
constexpr const char* kVersion = "1.0";
constexpr int kProtocol = 1;
/// The largest `info` the arena keeps as sent (bytes of compact JSON); a larger
/// one is kept as {"truncated": true, "bytes": N}, never a fault.
constexpr std::size_t kMaxInfoBytes = 4096;

/// One lambda per alternative for std::visit.
template <typename... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <typename... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

/// A line on stderr: the referee keeps it for you and never reads it.
void note(const std::string& text) { std::cerr << kName << ": " << text << '\n' << std::flush; }

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t\r\n") == std::string::npos; }

/// A JSON object's `type`, or "" when there is none.
std::string type_of(const json& message) {
  if (!message.is_object()) return "";
  const auto type = message.find("type");
  return type != message.end() && type->is_string() ? type->get<std::string>() : "";
}

/// Writes one reply line and flushes it: an unflushed reply is a late reply.
/// False when stdout is gone (the referee closed it).
bool send(std::ostream& out, const json& reply) {
  out << reply.dump() << '\n' << std::flush;
  return static_cast<bool>(out);
}

/// The reply to a request: the strategy's move with its info, or legal[0] (the
/// move the arena itself would play for us) without info when the strategy
/// throws or picks an illegal move.
arena::MoveReply answer(arena::Strategy& strategy, const arena::Request& request) {
  const arena::Move fallback = request.legal.front();
  arena::Decision decision = fallback;
  try {
    decision = strategy.choose(request.state, request.legal, request);
    if (!arena::is_legal(decision.move, request.legal)) {
      note("choose() returned " + decision.move.str() + ", which is not legal; playing " + fallback.str());
      decision = fallback;
    }
  } catch (const std::exception& error) {
    note(std::string("choose() failed: ") + error.what() + "; playing " + fallback.str());
    decision = fallback;
  }
  if (decision.info && decision.info->is_null()) decision.info.reset();  // no info key, never null
  static bool warned_big_info = false;  // an info over kMaxInfoBytes is logged once
  if (decision.info) {
    try {
      const std::size_t bytes = decision.info->dump().size();
      if (bytes > kMaxInfoBytes && !warned_big_info) {
        warned_big_info = true;
        note("an info of " + std::to_string(bytes) + " bytes: the arena keeps only its size (at most " +
             std::to_string(kMaxInfoBytes) + ")");
      }
    } catch (const json::exception& error) {  // a string that is not UTF-8: not JSON
      note(std::string("info is not JSON (") + error.what() + "); sending the move without it");
      decision.info.reset();
    }
  }
  return arena::MoveReply{request.id, decision.move, decision.info};
}

/// Shows the strategy a message that gets no reply. An exception from observe()
/// is logged and costs nothing more: the next request is answered.
void observe(arena::Strategy& strategy, const arena::Message& message) {
  try {
    strategy.observe(message);
  } catch (const std::exception& error) {
    note(std::string("observe() failed: ") + error.what() + "; playing on");
  }
}

/// The reply to a request the model could not read (a later protocol version?):
/// its first legal move, taken from the raw JSON. Null when even that is missing.
json raw_fallback(const json& request) {
  const auto id = request.find("id");
  const auto legal = request.find("legal");
  if (id == request.end() || !id->is_number_integer() || legal == request.end() || !legal->is_array() ||
      legal->empty() || !(*legal)[0].is_string()) {
    return nullptr;
  }
  return {{"type", "move"}, {"id", *id}, {"move", (*legal)[0]}};
}

int play_session(std::istream& in, std::ostream& out, arena::Strategy strategy) {
  std::string line;
  while (std::getline(in, line)) {
    if (is_blank(line)) continue;
    json raw;
    try {
      raw = json::parse(line);
    } catch (const json::parse_error& error) {
      note(std::string("ignoring a line that is not JSON: ") + error.what());
      continue;
    }
    std::optional<arena::Message> message;
    try {
      message = arena::parse_referee_message(raw);
    } catch (const arena::ProtocolError& error) {
      note(std::string("cannot read a ") + type_of(raw) + " message: " + error.what());
      if (type_of(raw) == "request") {
        const json reply = raw_fallback(raw);
        if (!reply.is_null() && !send(out, reply)) return 0;
      }
      continue;
    }
    if (!message) continue;  // a message type of a later protocol: a v1 bot ignores it

    bool done = false;
    std::visit(Overloaded{
                   [&](const arena::Hello& hello) {
                     if (hello.protocol != kProtocol) note("written for protocol 1, got " + std::to_string(hello.protocol));
                     send(out, arena::Ready{kName, kVersion, std::nullopt});
                   },
                   [&](const arena::Request& request) {
                     if (request.legal.empty()) {
                       note("a request without legal moves: cannot answer");
                       return;
                     }
                     send(out, answer(strategy, request));
                   },
                   [&](const arena::Bye&) { done = true; },
                   [&](const auto&) { observe(strategy, *message); },  // news: never answered
               },
               *message);
    if (done || !out) return 0;  // bye, or nobody reads our replies any more
  }
  return 0;  // end of input: the referee is gone
}

int roundtrip(std::istream& in, std::ostream& out) {
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (is_blank(line)) continue;
    try {
      out << arena::reserialize(json::parse(line)).dump() << '\n';
    } catch (const std::exception& error) {
      out.flush();
      std::cerr << "--roundtrip: line " << number << ": " << error.what() << '\n';
      return 1;
    }
  }
  out.flush();
  return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef SIGPIPE
  // If the referee closes our stdout, a write then fails (and is noticed)
  // instead of killing the process with a signal.
  std::signal(SIGPIPE, SIG_IGN);
#endif
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--roundtrip") return roundtrip(std::cin, std::cout);
  if (args.size() == 2 && args[0] == "--eps") {
    // strtod's end pointer turns "0.5x" away, and the range test NaN.
    char* end = nullptr;
    const double eps = std::strtod(args[1].c_str(), &end);
    if (args[1].empty() || *end != '\0' || !(eps >= 0.0 && eps <= 1.0)) {
      std::cerr << "bot: --eps takes a share from 0 to 1, not \"" << args[1] << "\"\n";
      return 2;
    }
    return play_session(std::cin, std::cout, arena::Strategy(eps));
  }
  if (!args.empty()) {
    std::cerr << "usage: bot [--eps E | --roundtrip]\n";
    return 2;
  }
  return play_session(std::cin, std::cout, arena::Strategy());
}

// The kit's own tests (npm test): every line of the arena's round-trip fixture
// is read into the typed model and written back the same, and the greedy
// strategy picks the same move, by the same rule, as every other kit's on
// fixed positions. Run from the arena repository; a bot made by `arena
// new-bot` lacks the fixture, and that one test says so and skips.
import * as assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decodeMessage, decodeRefereeMessage, formatMessage, type Request } from "./protocol";
import { choose } from "./strategy";

const FIXTURE = join(__dirname, "..", "..", "..", "protocol", "examples", "roundtrip.jsonl");

test("every line of the round-trip fixture comes back the same", { skip: !existsSync(FIXTURE) && "not in the arena repository" }, () => {
  const lines = readFileSync(FIXTURE, "utf8").split("\n").filter((line) => line.trim() !== "");
  assert.ok(lines.length > 10);
  for (const line of lines) {
    assert.deepStrictEqual(JSON.parse(formatMessage(decodeMessage(JSON.parse(line)))), JSON.parse(line), line);
  }
});

const CHOICES: [string, string, string, string][] = [
  ["names trumps with the jack of clubs alone", `{"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "C", "strongest_suit"],
  ["a weak hand declares its rainbow", `{"type": "request", "id": 54, "action": "rainbow", "legal": ["pass", "declare"], "state": {"seat": 1, "hand": 4, "hand_size": 4, "dealer": 1, "trump": "C", "cards": ["3H", "4S", "TD", "QC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "active", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "declare", "weak_hand"],
  ["following hearts, the ten wins the four cheaply", `{"type": "request", "id": 46, "action": "play", "legal": ["2H", "TH"], "state": {"seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "D", "cards": ["2H", "5S", "TH", "AS"], "leader": 2, "trick": [[2, "4H"]], "played": [[0, "3C"], [1, "6C"], [2, "9C"], [2, "4H"]], "tricks": [0, 0, 1], "statuses": ["active", "active", "active"], "turn_up": null, "history": [{"leader": 0, "moves": [[0, "3C"], [1, "6C"], [2, "9C"]], "winner": 2}], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 9340}}`, "TH", "cheapest_winner"],
  ["a dog leading with the queen of trumps, the ace and king out, knocks", `{"type": "request", "id": 81, "action": "play", "legal": ["knock", "QD"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 0, "trump": "D", "cards": ["QD"], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["active", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": [], "dog_cards": {"1": "QD"}}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "knock", "dog_knock"],
  ["a blind dog leading knocks", `{"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "knock", "dog_knock"],
];

for (const [name, line, move, rule] of CHOICES) {
  test(`greedy: ${name}`, () => {
    const request = decodeRefereeMessage(JSON.parse(line)) as Request;
    const chosen = choose(request.state, request.legal, { request, game: undefined, random: () => 0.5 });
    assert.deepStrictEqual(typeof chosen === "string" ? { move: chosen } : chosen, { move, info: { rule } });
  });
}

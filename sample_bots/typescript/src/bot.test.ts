// The kit's own tests (npm test): every line of the arena's round-trip fixture
// is read into the typed model and written back the same; `Strategy.choose`
// picks the same move, by the same rule, as every other kit's on fixed
// positions, and random ones with --eps; the program answers as the protocol
// asks. Run from the arena repository; a bot made by `arena new-bot` lacks the
// fixture, and that one test says so and skips.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decodeMessage, decodeRefereeMessage, formatMessage, type Message, type Request } from "./protocol";
import { Strategy } from "./strategy";

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

const decode = <T extends Message>(line: string): T => decodeRefereeMessage(JSON.parse(line)) as T;

for (const [name, line, move, rule] of CHOICES) {
  test(`greedy: ${name}`, () => {
    const request = decode<Request>(line);
    assert.deepStrictEqual(new Strategy().choose(request.state, request.legal, request), { move, info: { rule } });
  });
}

const GAME_START = `{"type": "game_start", "game": "g7-1", "seat": 0, "players": ["random15", "alice", "bob"], "rules": {"players": 3, "dog_life": "standard", "dog_first_hand_only": false, "blind_dog": false, "upside_dog": true, "rainbow": true, "no_picture": false, "trumps_broken": false, "eliminated_deals": false, "sweep_wins": false, "tie_break": "cut"}}`;

test("eps = 1 plays legal random moves, the same ones in the same game", () => {
  let firsts = 0; // moves that were legal[0], the kit's fallback
  const moves = (): unknown[] => {
    const strategy = new Strategy(1);
    strategy.observe(decode(GAME_START));
    return [1, 2, 3, 4].flatMap(() =>
      CHOICES.map(([, line]) => {
        const request = decode<Request>(line);
        const decision = strategy.choose(request.state, request.legal, request);
        assert.ok(request.legal.includes(decision.move), `${decision.move} in ${request.legal}`);
        assert.deepStrictEqual(decision.info, { rule: "random" });
        if (decision.move === request.legal[0]) firsts += 1;
        return decision.move;
      }),
    );
  };
  const first = moves();
  assert.deepStrictEqual(moves(), first);
  assert.ok(firsts < 2 * first.length, "some random move is not legal[0]");
});

/** The bot program (dist/bot.js) run with `args` on `input`. */
function runBot(args: string[], input: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(__dirname, "bot.js"), ...args], { input, encoding: "utf8" });
}

test("the program answers hello and each request, with its rule, and ends at bye", () => {
  const hello = `{"type": "hello", "protocol": 1, "limits": {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 10000}}`;
  const input = [hello, GAME_START, CHOICES[2]![1], `{"type": "bye"}`, hello].join("\n") + "\n";
  const done = runBot([], input);
  assert.equal(done.status, 0, done.stderr);
  const [ready, move, ...rest] = done.stdout.split("\n");
  assert.match(ready!, /^\{"type":"ready","name":"[^"]+","version":"1\.0"\}$/); // `arena new-bot` renames it
  assert.equal(move, `{"type":"move","id":46,"move":"TH","info":{"rule":"cheapest_winner"}}`);
  assert.deepStrictEqual(rest, [""]);
});

test("--eps outside 0..1 is one line on stderr and exit status 2", () => {
  for (const eps of ["1.5", "-0.1", "", "x"]) {
    const done = runBot(["--eps", eps], "");
    assert.equal(done.status, 2);
    assert.match(done.stderr, /^bot\.ts: --eps takes a share from 0 to 1, not .*\n$/);
  }
});

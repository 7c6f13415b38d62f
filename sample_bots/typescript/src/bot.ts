// The bot program: the session loop of protocol v1, and a --roundtrip mode.
//
//   node dist/bot.js              play: read the referee's lines on stdin, answer on stdout
//   node dist/bot.js --roundtrip  parse every line into the typed model and print it back
//
// The strategy lives in strategy.ts (`choose`); nothing here needs changing.
// stdout carries protocol lines only: log with console.error (stderr).

import * as readline from "node:readline";
import { seededRandom } from "./helpers";
import {
  type BotMessage,
  type Decision,
  type GameStart,
  type Move,
  type MoveReply,
  ProtocolError,
  type Request,
  decodeMessage,
  decodeRefereeMessage,
  formatMessage,
  parseJsonLine,
} from "./protocol";
import { choose } from "./strategy";

// A console.log left in a strategy would write to stdout and garble the protocol (a fault):
// send it to stderr, with console.error. Replies go out by process.stdout.write only.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const NAME = "typescript-greedy";
const VERSION = "1.0";
const PROTOCOL = 1;
/** The largest `info` the arena keeps as sent (bytes of compact JSON); larger: `{"truncated": true, "bytes": N}`. */
const MAX_INFO_BYTES = 4096;

function log(text: string): void {
  console.error(`bot.ts: ${text}`);
}

function send(message: BotMessage): void {
  // Writes to pipes and files are synchronous in Node on Linux: the line is
  // out of the process (flushed) when write returns.
  process.stdout.write(formatMessage(message) + "\n");
}

/** One session, hello to bye: answers hello and each request, reads everything else. */
class Session {
  private game: GameStart | undefined;
  private random: () => number = seededRandom("", 0);
  private warnedBigInfo = false;

  /** Handles one line; returns false when the session is over (bye). */
  handle(line: string): boolean {
    let value: unknown;
    try {
      value = parseJsonLine(line);
      const message = decodeRefereeMessage(value);
      switch (message.type) {
        case "hello":
          if (message.protocol !== PROTOCOL) log(`written for protocol ${PROTOCOL}, got ${message.protocol}`);
          send({ type: "ready", name: NAME, version: VERSION });
          break;
        case "game_start":
          this.game = message;
          this.random = seededRandom(message.game, message.seat);
          break;
        case "request":
          send(this.answer(message));
          break;
        case "error":
          log(`the referee refused a reply: ${message.message}`);
          break;
        case "bye":
          return false;
        default:
          // hand_start, event, hand_end, game_end: news, never answered.
          break;
      }
    } catch (error) {
      if (error instanceof ProtocolError && error.unknown) return true; // a newer message type: ignore it
      const why = error instanceof Error ? error.message : String(error);
      log(`cannot read a line (${why}): ${line.slice(0, 200)}`);
      this.answerAnyway(value);
    }
    return true;
  }

  /** The reply to a request: the strategy's move with its `info`, if it gave one (see `decide`). */
  private answer(request: Request): MoveReply {
    const { move, info } = this.decide(request);
    const reply: MoveReply = { type: "move", id: request.id, move };
    // No `info` key without info, never `"info": null`.
    if (info === undefined || info === null) return reply;
    let text: string | undefined;
    try {
      text = JSON.stringify(info);
    } catch (error) {
      log(`info is not JSON (${error instanceof Error ? error.message : String(error)}); sending the move without it`);
      return reply;
    }
    if (text === undefined) {
      log("info is not JSON; sending the move without it");
      return reply;
    }
    if (!this.warnedBigInfo && Buffer.byteLength(text) > MAX_INFO_BYTES) {
      this.warnedBigInfo = true;
      log(`an info of ${Buffer.byteLength(text)} bytes: the arena keeps only its size (at most ${MAX_INFO_BYTES})`);
    }
    return { ...reply, info };
  }

  /**
   * The strategy's move and info, or legal[0] (the arena's fallback) without
   * info if it fails or the move is not legal.
   */
  private decide(request: Request): Decision {
    const { legal, state } = request;
    try {
      const chosen: Move | Decision = choose(state, legal, { request, game: this.game, random: this.random });
      const decision: Decision = typeof chosen === "object" && chosen !== null ? chosen : { move: chosen };
      if (legal.includes(decision.move)) return decision;
      log(`choose() returned ${JSON.stringify(decision.move)}, not in ${JSON.stringify(legal)}; playing ${legal[0]}`);
    } catch (error) {
      log(`choose() failed; playing ${legal[0]}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    return { move: legal[0]! };
  }

  /** A request the model could not read still gets an answer if it has an id and a legal move. */
  private answerAnyway(value: unknown): void {
    if (typeof value !== "object" || value === null) return;
    const { type, id, legal } = value as { type?: unknown; id?: unknown; legal?: unknown };
    if (type === "request" && Number.isInteger(id) && Array.isArray(legal) && typeof legal[0] === "string") {
      log(`answering ${legal[0]}, the first legal move`);
      process.stdout.write(JSON.stringify({ type: "move", id, move: legal[0] }) + "\n");
    }
  }
}

function play(): void {
  const session = new Session();
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on("line", (line) => {
    if (line.trim() === "") return;
    if (!session.handle(line)) process.exit(0); // bye
  });
  input.on("close", () => process.exit(0)); // end of input: the referee is gone
}

/**
 * --roundtrip: every line is parsed into the typed model (by its `type`:
 * `ready` and `move` are a bot's replies, the rest the referee's) and printed
 * back, one line each, in order. The first line that does not parse stops the
 * run with a message on stderr and exit status 1.
 */
function roundtrip(): void {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let number = 0;
  let failed = false;
  input.on("line", (line) => {
    number += 1;
    if (failed || line.trim() === "") return;
    try {
      process.stdout.write(formatMessage(decodeMessage(parseJsonLine(line))) + "\n");
    } catch (error) {
      failed = true;
      console.error(`roundtrip: line ${number}: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
      input.close();
      process.stdin.destroy();
    }
  });
}

// EPIPE: the referee closed our stdout, nobody is listening any more.
process.stdout.on("error", () => process.exit(0));

const args = process.argv.slice(2);
if (args.length === 0) {
  play();
} else if (args.length === 1 && args[0] === "--roundtrip") {
  roundtrip();
} else {
  console.error("usage: node dist/bot.js [--roundtrip]");
  process.exitCode = 2;
}

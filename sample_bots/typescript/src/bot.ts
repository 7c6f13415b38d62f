// The bot program: the session loop of protocol v1, and a --roundtrip mode.
//
//   node dist/bot.js              play: read the referee's lines on stdin, answer on stdout
//   node dist/bot.js --eps E      play a random legal move with probability E (0 to 1)
//   node dist/bot.js --roundtrip  parse every line into the typed model and print it back
//
// The strategy lives in strategy.ts (`Strategy.choose`); nothing here needs changing.
// stdout carries protocol lines only: log with console.error (stderr).

import * as readline from "node:readline";
import {
  type BotMessage,
  type Decision,
  type MoveReply,
  ProtocolError,
  type RefereeMessage,
  type Request,
  decodeMessage,
  decodeRefereeMessage,
  formatMessage,
  parseJsonLine,
} from "./protocol";
import { Strategy } from "./strategy";

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

/** One session, hello to bye: answers hello and each request, shows the strategy everything else. */
class Session {
  private warnedBigInfo = false;

  constructor(private readonly strategy: Strategy) {}

  /** Handles one line; returns false when the session is over (bye). */
  handle(line: string): boolean {
    let value: unknown;
    let message: RefereeMessage;
    try {
      value = parseJsonLine(line);
      message = decodeRefereeMessage(value);
    } catch (error) {
      if (error instanceof ProtocolError && error.unknown) return true; // a newer message type: ignore it
      const why = error instanceof Error ? error.message : String(error);
      log(`cannot read a line (${why}): ${line.slice(0, 200)}`);
      this.answerAnyway(value);
      return true;
    }
    switch (message.type) {
      case "hello":
        if (message.protocol !== PROTOCOL) log(`written for protocol ${PROTOCOL}, got ${message.protocol}`);
        send({ type: "ready", name: NAME, version: VERSION });
        break;
      case "request":
        send(this.answer(message));
        break;
      case "bye":
        return false;
      case "error":
        log(`the referee refused a reply: ${message.message}`);
        this.observe(message);
        break;
      default:
        // game_start, hand_start, event, hand_end, game_end: news, never answered.
        this.observe(message);
        break;
    }
    return true;
  }

  /** Shows the strategy a message; if `observe` throws, the bot logs it and plays on. */
  private observe(message: RefereeMessage): void {
    try {
      this.strategy.observe(message);
    } catch (error) {
      log(`observe() failed on ${message.type}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
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
      const decision = this.strategy.choose(state, legal, request);
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

function play(strategy: Strategy): void {
  const session = new Session(strategy);
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

/** A one-line complaint about the command line, and exit status 2. */
function usageError(text: string): void {
  console.error(text);
  process.exitCode = 2;
}

const args = process.argv.slice(2);
if (args.length === 0) {
  play(new Strategy());
} else if (args.length === 1 && args[0] === "--roundtrip") {
  roundtrip();
} else if (args.length === 2 && args[0] === "--eps") {
  const text = args[1]!;
  const eps = Number(text); // Number("") is 0, hence the test of the text
  if (text.trim() !== "" && eps >= 0 && eps <= 1) play(new Strategy(eps));
  else usageError(`bot.ts: --eps takes a share from 0 to 1, not ${JSON.stringify(text)}`);
} else {
  usageError("usage: node dist/bot.js [--eps E | --roundtrip]");
}

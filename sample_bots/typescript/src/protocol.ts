// The typed model of protocol v1 (see protocol/README.md in the arena repository).
//
// Every message is a plain object shaped exactly like its JSON line, so that
// printing one is `JSON.stringify` and nothing else. The types are
// discriminated unions on `type` (and on `event` for events), so a `switch`
// narrows a message to its fields.
//
// Two kinds of "missing" are kept apart, as on the wire:
// - `field: T | null` is always present and may be null (`trump`, `turn_up`,
//   `chooser`, the `seat` of a trump event);
// - `field?: T` may be absent (`dog_cards`, `error.id`, `ready.version`,
//   `move.info`, `state.knocked`). The decoders set such a field only when the
//   line has it, and `exactOptionalPropertyTypes` (tsconfig.json) forbids
//   setting it to `undefined`, so an absent field stays absent when printed.
//
// Decoding checks at run time every field the model holds and throws a
// `ProtocolError` naming the field ("request.state.trick[0][1]: expected a
// card like "TD", got "1X""). Fields the model does not know are dropped
// (forward compatibility: later versions may add fields).

import { type Card, type Suit, isCard, isSuit } from "./cards";

/** A seat number, 0..n-1 clockwise. */
export type Seat = number;
export type Status = "active" | "dog" | "out";
export type Action = "play" | "trump" | "rainbow" | "no_picture";
/** How long a knocked-out player stays in as a dog (the `dog_life` rule). */
export type DogLife = "standard" | "expanded" | "none";
/** Any move string: a card (play), a suit (trump), or one of the four words. */
export type Move = Card | Suit | "knock" | "blind" | "pass" | "declare";
/** `[seat, card]`: who played (or drew) which card. */
export type SeatCard = [seat: Seat, card: Card];
/** `[seat, card or "knock"]`: one turn of a completed trick. */
export type Turn = [seat: Seat, move: Card | "knock"];
/** Any JSON value (the free-form `info` of a move). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A map keyed by seat number written as a string (`{"2": "7S"}`), as on the wire. */
export type BySeat<T> = { [seat: string]: T };

export interface Limits {
  startup_ms: number;
  move_ms: number;
  bank_ms: number;
}

export interface Time {
  move_ms: number;
  bank_ms: number;
}

export interface Rules {
  players: number;
  dog_life: DogLife;
  dog_first_hand_only: boolean;
  blind_dog: boolean;
  upside_dog: boolean;
  rainbow: boolean;
  no_picture: boolean;
  trumps_broken: boolean;
  eliminated_deals: boolean;
  sweep_wins: boolean;
  tie_break: "cut" | "random";
}

/** A completed trick of this hand, as `state.history` lists it. */
export interface CompletedTrick {
  /** The seat whose card led (a dog that knocked before it comes first in `moves`). */
  leader: Seat;
  /** Every turn taken, in order, knocks included. */
  moves: Turn[];
  winner: Seat;
}

/** The `state` of a request: everything this seat may know. */
export interface State {
  seat: Seat;
  hand: number;
  hand_size: number;
  dealer: Seat;
  /** null only while trumps are being named. */
  trump: Suit | null;
  /** The cards this seat still holds; `[]` for a blind dog. */
  cards: Card[];
  /** The seat leading the current trick. */
  leader: Seat;
  /** The current trick so far. */
  trick: SeatCard[];
  /** Every card played this hand, in order (the current trick included). */
  played: SeatCard[];
  /** Tricks taken this hand, per seat. */
  tricks: number[];
  statuses: Status[];
  /** The card turned up for trumps on hand 1 (out of play); null later. */
  turn_up: Card | null;
  /** Face-up dog cards (upside_dog); absent when none is face up. */
  dog_cards?: BySeat<Card>;
  history: CompletedTrick[];
  /** Seats playing a blind dog this hand. */
  blind: Seat[];
  /** Seats that knocked in the trick in progress (this arena always sends it; v1 does not promise it). */
  knocked?: Seat[];
}

export interface Fault {
  kind: "timeout" | "crash" | "illegal" | "malformed";
  detail: string;
}

// ---- referee -> bot ----------------------------------------------------------

export interface Hello {
  type: "hello";
  protocol: number;
  limits: Limits;
}

export interface GameStart {
  type: "game_start";
  game: string;
  seat: Seat;
  players: string[];
  rules: Rules;
}

export interface HandStart {
  type: "hand_start";
  hand: number;
  dealer: Seat;
  cards: Card[];
  hand_size: number;
  turn_up: Card | null;
  statuses: Status[];
  dog_cards?: BySeat<Card>;
}

export interface TrumpEvent {
  type: "event";
  event: "trump";
  suit: Suit;
  /** The seat that named trumps, or null when the turned-up card set them. */
  seat: Seat | null;
}

export interface PlayEvent {
  type: "event";
  event: "play";
  seat: Seat;
  card: Card;
}

export interface KnockEvent {
  type: "event";
  event: "knock";
  seat: Seat;
}

export interface TrickEvent {
  type: "event";
  event: "trick";
  winner: Seat;
  cards: SeatCard[];
}

export interface DeclareEvent {
  type: "event";
  event: "declare";
  seat: Seat;
  what: "rainbow" | "no_picture";
  cards: Card[];
}

export interface CutEvent {
  type: "event";
  event: "cut";
  purpose: "dealer" | "trump";
  draws: SeatCard[];
  winner: Seat;
}

export type GameEvent = TrumpEvent | PlayEvent | KnockEvent | TrickEvent | DeclareEvent | CutEvent;

export interface Request {
  type: "request";
  id: number;
  action: Action;
  legal: Move[];
  state: State;
  time: Time;
}

export interface ErrorMessage {
  type: "error";
  /** The id of the request whose answer was refused; absent when not about a request. */
  id?: number;
  message: string;
}

export interface HandEnd {
  type: "hand_end";
  hand: number;
  tricks: number[];
  statuses: Status[];
  /** Who names trumps next; null when the game is over. */
  chooser: Seat | null;
}

export interface GameEnd {
  type: "game_end";
  game: string;
  placements: number[];
  winner: Seat;
  faults: BySeat<Fault>;
}

export interface Bye {
  type: "bye";
}

export type RefereeMessage =
  | Hello
  | GameStart
  | HandStart
  | GameEvent
  | Request
  | ErrorMessage
  | HandEnd
  | GameEnd
  | Bye;

// ---- bot -> referee ----------------------------------------------------------

export interface Ready {
  type: "ready";
  name: string;
  version?: string;
  author?: string;
}

export interface MoveReply {
  type: "move";
  id: number;
  move: Move;
  /** What the bot was thinking: any JSON value, kept in the replay (at most 4096 bytes; larger: its size only). */
  info?: JsonValue;
}

/**
 * What `Strategy.choose` returns: the move and the `info` to send with it
 * (what the bot was thinking: an estimate, rollouts, a line of play), e.g.
 * `{ move: "TH", info: { value: 0.6 } }`; `{ move: "TH" }` has none. No
 * `info`, or `null`, sends no `info` key at all.
 */
export interface Decision {
  move: Move;
  info?: JsonValue;
}

export type BotMessage = Ready | MoveReply;
export type Message = RefereeMessage | BotMessage;

// ---- decoding ----------------------------------------------------------------

/** A line that is not a message of the model. `unknown` marks a `type` or `event` this version does not know. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly unknown = false,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}

type Decoder<T> = (value: unknown, path: string) => T;
type JsonObject = { [key: string]: unknown };

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function fail(path: string, expected: string, value: unknown): never {
  throw new ProtocolError(`${path}: expected ${expected}, got ${show(value)}`);
}

const integer: Decoder<number> = (v, p) =>
  typeof v === "number" && Number.isInteger(v) ? v : fail(p, "an integer", v);
const count: Decoder<number> = (v, p) => (integer(v, p) >= 0 ? (v as number) : fail(p, "an integer >= 0", v));
const seat: Decoder<Seat> = (v, p) => (integer(v, p) >= 0 ? (v as number) : fail(p, "a seat (an integer >= 0)", v));
const string: Decoder<string> = (v, p) => (typeof v === "string" ? v : fail(p, "a string", v));
const boolean: Decoder<boolean> = (v, p) => (typeof v === "boolean" ? v : fail(p, "true or false", v));
const card: Decoder<Card> = (v, p) => (isCard(v) ? v : fail(p, 'a card like "TD"', v));
const suit: Decoder<Suit> = (v, p) => (isSuit(v) ? v : fail(p, "a suit (C, H, D or S)", v));
/** A JSON value as JSON.parse made it: any value is one. */
const json: Decoder<JsonValue> = (v) => v as JsonValue;

function oneOf<T extends string>(...values: readonly T[]): Decoder<T> {
  return (v, p) =>
    typeof v === "string" && (values as readonly string[]).includes(v)
      ? (v as T)
      : fail(p, `one of ${values.join(", ")}`, v);
}

const status = oneOf<Status>("active", "dog", "out");
const action = oneOf<Action>("play", "trump", "rainbow", "no_picture");
const move: Decoder<Move> = (v, p) =>
  isCard(v) || isSuit(v) || v === "knock" || v === "blind" || v === "pass" || v === "declare"
    ? v
    : fail(p, "a move (a card, a suit, knock, blind, pass or declare)", v);
const turnMove: Decoder<Card | "knock"> = (v, p) => (v === "knock" ? v : card(v, p));

function nullable<T>(decode: Decoder<T>): Decoder<T | null> {
  return (v, p) => (v === null ? null : decode(v, p));
}

function arrayOf<T>(decode: Decoder<T>, minLength = 0): Decoder<T[]> {
  return (v, p) => {
    if (!Array.isArray(v)) return fail(p, "a list", v);
    if (v.length < minLength) return fail(p, `a list of at least ${minLength}`, v);
    return v.map((item, i) => decode(item, `${p}[${i}]`));
  };
}

function pair<A, B>(first: Decoder<A>, second: Decoder<B>): Decoder<[A, B]> {
  return (v, p) => {
    if (!Array.isArray(v) || v.length !== 2) return fail(p, "a pair [seat, ...]", v);
    return [first(v[0], `${p}[0]`), second(v[1], `${p}[1]`)];
  };
}

function object(v: unknown, p: string): JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonObject) : fail(p, "an object", v);
}

/** A map keyed by seat strings ("0", "1", ...). */
function bySeat<T>(decode: Decoder<T>): Decoder<BySeat<T>> {
  return (v, p) => {
    const out: BySeat<T> = {};
    for (const [key, item] of Object.entries(object(v, p))) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) fail(`${p} key`, "a seat number as a string", key);
      out[key] = decode(item, `${p}.${key}`);
    }
    return out;
  };
}

const has = (o: JsonObject, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** A required field (it may hold null if its decoder allows null). */
function req<T>(o: JsonObject, key: string, decode: Decoder<T>, p: string): T {
  if (!has(o, key)) throw new ProtocolError(`${p}: missing field "${key}"`);
  return decode(o[key], `${p}.${key}`);
}

/** An optional field, as an object to spread: `{}` when absent, so it stays absent. */
function opt<K extends string, T>(o: JsonObject, key: K, decode: Decoder<T>, p: string): { [k in K]?: T } {
  return has(o, key) ? ({ [key]: decode(o[key], `${p}.${key}`) } as { [k in K]?: T }) : {};
}

function fields<T>(decode: (o: JsonObject, p: string) => T): Decoder<T> {
  return (v, p) => decode(object(v, p), p);
}

const limits = fields<Limits>((o, p) => ({
  startup_ms: req(o, "startup_ms", count, p),
  move_ms: req(o, "move_ms", count, p),
  bank_ms: req(o, "bank_ms", count, p),
}));

const time = fields<Time>((o, p) => ({
  move_ms: req(o, "move_ms", count, p),
  bank_ms: req(o, "bank_ms", count, p),
}));

const rules = fields<Rules>((o, p) => ({
  players: req(o, "players", integer, p),
  dog_life: req(o, "dog_life", oneOf<DogLife>("standard", "expanded", "none"), p),
  dog_first_hand_only: req(o, "dog_first_hand_only", boolean, p),
  blind_dog: req(o, "blind_dog", boolean, p),
  upside_dog: req(o, "upside_dog", boolean, p),
  rainbow: req(o, "rainbow", boolean, p),
  no_picture: req(o, "no_picture", boolean, p),
  trumps_broken: req(o, "trumps_broken", boolean, p),
  eliminated_deals: req(o, "eliminated_deals", boolean, p),
  sweep_wins: req(o, "sweep_wins", boolean, p),
  tie_break: req(o, "tie_break", oneOf("cut", "random"), p),
}));

const seatCards = arrayOf(pair(seat, card));

const completedTrick = fields<CompletedTrick>((o, p) => ({
  leader: req(o, "leader", seat, p),
  moves: req(o, "moves", arrayOf(pair(seat, turnMove), 1), p),
  winner: req(o, "winner", seat, p),
}));

const state = fields<State>((o, p) => ({
  seat: req(o, "seat", seat, p),
  hand: req(o, "hand", integer, p),
  hand_size: req(o, "hand_size", integer, p),
  dealer: req(o, "dealer", seat, p),
  trump: req(o, "trump", nullable(suit), p),
  cards: req(o, "cards", arrayOf(card), p),
  leader: req(o, "leader", seat, p),
  trick: req(o, "trick", seatCards, p),
  played: req(o, "played", seatCards, p),
  tricks: req(o, "tricks", arrayOf(count), p),
  statuses: req(o, "statuses", arrayOf(status), p),
  turn_up: req(o, "turn_up", nullable(card), p),
  ...opt(o, "dog_cards", bySeat(card), p),
  history: req(o, "history", arrayOf(completedTrick), p),
  blind: req(o, "blind", arrayOf(seat), p),
  ...opt(o, "knocked", arrayOf(seat), p),
}));

const fault = fields<Fault>((o, p) => ({
  kind: req(o, "kind", oneOf("timeout", "crash", "illegal", "malformed"), p),
  detail: req(o, "detail", string, p),
}));

function decodeEvent(o: JsonObject, p: string): GameEvent {
  const kind = req(o, "event", string, p);
  switch (kind) {
    case "trump":
      return { type: "event", event: kind, suit: req(o, "suit", suit, p), seat: req(o, "seat", nullable(seat), p) };
    case "play":
      return { type: "event", event: kind, seat: req(o, "seat", seat, p), card: req(o, "card", card, p) };
    case "knock":
      return { type: "event", event: kind, seat: req(o, "seat", seat, p) };
    case "trick":
      return {
        type: "event",
        event: kind,
        winner: req(o, "winner", seat, p),
        cards: req(o, "cards", seatCards, p),
      };
    case "declare":
      return {
        type: "event",
        event: kind,
        seat: req(o, "seat", seat, p),
        what: req(o, "what", oneOf("rainbow", "no_picture"), p),
        cards: req(o, "cards", arrayOf(card), p),
      };
    case "cut":
      return {
        type: "event",
        event: kind,
        purpose: req(o, "purpose", oneOf("dealer", "trump"), p),
        draws: req(o, "draws", seatCards, p),
        winner: req(o, "winner", seat, p),
      };
    default:
      throw new ProtocolError(`${p}.event: unknown event ${show(kind)}`, true);
  }
}

/** Decode a message from the referee (a value from `JSON.parse`). */
export function decodeRefereeMessage(value: unknown): RefereeMessage {
  const p = "message";
  const o = object(value, p);
  const type = req(o, "type", string, p);
  const at = type; // paths read "request.state.cards[2]"
  switch (type) {
    case "hello":
      return { type, protocol: req(o, "protocol", integer, at), limits: req(o, "limits", limits, at) };
    case "game_start":
      return {
        type,
        game: req(o, "game", string, at),
        seat: req(o, "seat", seat, at),
        players: req(o, "players", arrayOf(string), at),
        rules: req(o, "rules", rules, at),
      };
    case "hand_start":
      return {
        type,
        hand: req(o, "hand", integer, at),
        dealer: req(o, "dealer", seat, at),
        cards: req(o, "cards", arrayOf(card), at),
        hand_size: req(o, "hand_size", integer, at),
        turn_up: req(o, "turn_up", nullable(card), at),
        statuses: req(o, "statuses", arrayOf(status), at),
        ...opt(o, "dog_cards", bySeat(card), at),
      };
    case "event":
      return decodeEvent(o, at);
    case "request":
      return {
        type,
        id: req(o, "id", integer, at),
        action: req(o, "action", action, at),
        // Never empty: the fallback move of a bot is legal[0].
        legal: req(o, "legal", arrayOf(move, 1), at),
        state: req(o, "state", state, at),
        time: req(o, "time", time, at),
      };
    case "error":
      return { type, ...opt(o, "id", integer, at), message: req(o, "message", string, at) };
    case "hand_end":
      return {
        type,
        hand: req(o, "hand", integer, at),
        tricks: req(o, "tricks", arrayOf(count), at),
        statuses: req(o, "statuses", arrayOf(status), at),
        chooser: req(o, "chooser", nullable(seat), at),
      };
    case "game_end":
      return {
        type,
        game: req(o, "game", string, at),
        placements: req(o, "placements", arrayOf(integer), at),
        winner: req(o, "winner", seat, at),
        faults: req(o, "faults", bySeat(fault), at),
      };
    case "bye":
      return { type };
    default:
      throw new ProtocolError(`message.type: unknown message type ${show(type)}`, true);
  }
}

/** Decode a reply of a bot (a value from `JSON.parse`). */
export function decodeBotMessage(value: unknown): BotMessage {
  const p = "message";
  const o = object(value, p);
  const type = req(o, "type", string, p);
  switch (type) {
    case "ready":
      return {
        type,
        name: req(o, "name", string, type),
        ...opt(o, "version", string, type),
        ...opt(o, "author", string, type),
      };
    case "move":
      return {
        type,
        id: req(o, "id", integer, type),
        move: req(o, "move", move, type),
        ...opt(o, "info", json, type),
      };
    default:
      throw new ProtocolError(`message.type: ${show(type)} is not a reply of a bot (ready or move)`, true);
  }
}

/** Decode either direction, by `type`: `ready` and `move` are replies, the rest come from the referee. */
export function decodeMessage(value: unknown): Message {
  const type = typeof value === "object" && value !== null ? (value as JsonObject)["type"] : undefined;
  return type === "ready" || type === "move" ? decodeBotMessage(value) : decodeRefereeMessage(value);
}

/** One line of JSON, parsed with the standard library; throws a `ProtocolError` if it is not JSON. */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new ProtocolError(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A message as its JSON line (without the newline). */
export function formatMessage(message: Message): string {
  // The model is shaped like the wire (see the top of this file): nothing to convert.
  return JSON.stringify(message);
}

// Helpers a strategy needs again and again: the legal moves by kind, who is
// winning a trick, which cards this seat has not seen, how much time a move
// may take, and a seeded random generator.

import { type Card, DECK, type Suit, isCard, isSuit, rankValue, suitOf } from "./cards";
import type { BySeat, Move, Seat, SeatCard, State, Time } from "./protocol";

// ---- legal moves ---------------------------------------------------------------

/** The legal moves of a request, sorted by kind. */
export interface LegalMoves {
  /** The cards that may be played (in the canonical order of `legal`). */
  cards: Card[];
  /** The suits that may be named as trumps. */
  suits: Suit[];
  /** A dog may let its turn go by. */
  knock: boolean;
  /** A blind dog may play its unseen card. */
  blind: boolean;
  /** A declaration offer (rainbow, no_picture): "pass" and "declare". */
  pass: boolean;
  declare: boolean;
}

export function sortLegal(legal: readonly Move[]): LegalMoves {
  return {
    cards: legal.filter(isCard),
    suits: legal.filter(isSuit),
    knock: legal.includes("knock"),
    blind: legal.includes("blind"),
    pass: legal.includes("pass"),
    declare: legal.includes("declare"),
  };
}

// ---- tricks --------------------------------------------------------------------

/** Whether `card` takes the trick from `best` (a card of the suit led, or a trump). */
export function beats(card: Card, best: Card, trump: Suit | null): boolean {
  if (suitOf(card) === suitOf(best)) return rankValue(card) > rankValue(best);
  return suitOf(card) === trump;
}

/** Who is winning a trick in progress, and with which card; undefined for an empty trick. */
export function trickWinner(trick: readonly SeatCard[], trump: Suit | null): SeatCard | undefined {
  let best: SeatCard | undefined;
  for (const entry of trick) {
    if (best === undefined || beats(entry[1], best[1], trump)) best = entry;
  }
  return best;
}

/**
 * How many seats may still play to the current trick after this one, going
 * clockwise up to the leader: active seats, and dogs that have not played
 * their card this hand (a dog may knock, so this is an upper bound).
 */
export function seatsStillToPlay(state: State): number {
  const seats = state.statuses.length;
  const playedBy = new Set(state.played.map(([seat]) => seat));
  let count = 0;
  for (let seat = (state.seat + 1) % seats; seat !== state.leader; seat = (seat + 1) % seats) {
    const status = state.statuses[seat];
    if (status === "active" || (status === "dog" && !playedBy.has(seat))) count += 1;
  }
  return count;
}

// ---- cards -------------------------------------------------------------------

/** The face-up card of a dog (upside_dog), if this seat may see it. */
export function dogCard(state: State, seat: Seat): Card | undefined {
  const cards = state.dog_cards;
  return cards !== undefined && Object.prototype.hasOwnProperty.call(cards, String(seat))
    ? cards[String(seat)]
    : undefined;
}

/**
 * The cards this seat has not seen: the 52 minus its own cards, every card
 * played this hand, the face-up dog cards and the turned-up card. The hidden
 * cards of the other seats are among them (and so is the undealt rest of the deck).
 */
export function unseenCards(state: State): Card[] {
  const seen = new Set<Card>(state.cards);
  for (const [, card] of state.played) seen.add(card);
  const dogCards: BySeat<Card> = state.dog_cards ?? {};
  for (const card of Object.values(dogCards)) seen.add(card);
  if (state.turn_up !== null) seen.add(state.turn_up);
  return DECK.filter((card) => !seen.has(card));
}

// ---- time ----------------------------------------------------------------------

/** The most this move may take before it is late: the free allowance plus the bank. */
export function timeLeftMs(time: Time): number {
  return time.move_ms + time.bank_ms;
}

/**
 * A safe thinking budget for this move, in milliseconds: 80% of `move_ms`
 * (the rest is margin for the pipe and the referee) plus half the bank spread
 * over the decisions still to come this game (at most the cards held now and
 * those of the later, smaller hands), so a slow machine still finds a reserve.
 */
export function recommendedBudgetMs(time: Time, state: State): number {
  const decisionsLeft = state.cards.length + (state.hand_size * (state.hand_size - 1)) / 2;
  return Math.floor(0.8 * time.move_ms + (0.5 * time.bank_ms) / Math.max(1, decisionsLeft));
}

// ---- randomness ----------------------------------------------------------------

/** FNV-1a, 32 bits, over the UTF-8 bytes of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A random generator (floats in [0, 1)) seeded from the game id and the seat,
 * so the same game gets the same moves: FNV-1a of "<game>/<seat>", then
 * mulberry32, as the JavaScript and C sample bots do.
 */
export function seededRandom(game: string, seat: Seat): () => number {
  let a = fnv1a(`${game}/${seat}`);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Cards, suits and ranks in their wire form.
//
// A card is the two-character string the protocol uses ("TD", "AS"): the
// template literal type below admits exactly the 52 cards, so a `Card` needs
// no conversion to print and the compiler catches a typo like "1X". Values
// that come from outside are checked once, by `parseCard` / `parseSuit`.

/** The suits, in the protocol's canonical order (the order of `legal`). */
export const SUITS = ["C", "H", "D", "S"] as const;
/** The ranks from low to high: the index of a rank is its strength. */
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"] as const;

export type Suit = (typeof SUITS)[number];
export type Rank = (typeof RANKS)[number];
/** A card on the wire: rank then suit, e.g. "TD" is the ten of diamonds. */
export type Card = `${Rank}${Suit}`;

/** Every card of the deck, in the canonical order (rank 2..A, then suit C, H, D, S). */
export const DECK: readonly Card[] = RANKS.flatMap((r) => SUITS.map((s): Card => `${r}${s}`));

const SUIT_SET: ReadonlySet<string> = new Set(SUITS);
const RANK_SET: ReadonlySet<string> = new Set(RANKS);

export function isSuit(value: unknown): value is Suit {
  return typeof value === "string" && SUIT_SET.has(value);
}

export function isCard(value: unknown): value is Card {
  return (
    typeof value === "string" &&
    value.length === 2 &&
    RANK_SET.has(value.charAt(0)) &&
    SUIT_SET.has(value.charAt(1))
  );
}

/** A card from its wire form; throws on anything else. */
export function parseCard(text: string): Card {
  if (!isCard(text)) throw new Error(`not a card: ${JSON.stringify(text)} (expected e.g. "TD")`);
  return text;
}

/** A suit from its wire form; throws on anything else. */
export function parseSuit(text: string): Suit {
  if (!isSuit(text)) throw new Error(`not a suit: ${JSON.stringify(text)} (expected C, H, D or S)`);
  return text;
}

export function makeCard(rank: Rank, suit: Suit): Card {
  return `${rank}${suit}`;
}

export function suitOf(card: Card): Suit {
  return card.charAt(1) as Suit;
}

export function rankOf(card: Card): Rank {
  return card.charAt(0) as Rank;
}

/** 0 for a two .. 12 for an ace. */
export function rankValue(card: Card): number {
  return RANKS.indexOf(rankOf(card));
}

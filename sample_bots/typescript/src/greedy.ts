// The greedy sample strategy, a port of arena's arena/samples/greedy_bot.py,
// rule for rule and tie for tie, so the two play the same moves:
// - following: win the trick as cheaply as possible, else throw the lowest
//   card; void in the suit led: trump only when it matters (no trick yet this
//   hand, or trumps to spare), else discard the lowest card of a short suit;
// - leading: a card nobody can beat in its suit, else low from the longest
//   side suit;
// - as a dog: play the card where it surely wins (the top trump left) or wins
//   now with nobody left to play, else knock; a blind dog plays when it is
//   last to act on a weak trick;
// - trumps: the suit with the most length and high cards;
// - declarations: rainbow on a weak hand (it voids the hand), always no_picture.
// It keeps no memory: the request's `state` is the whole information set.
// Each move comes with the name of the rule that picked it ("cheapest_winner"
// and the like, the same names in every starter kit).

import { type Card, type Rank, RANKS, SUITS, type Suit, makeCard, rankOf, rankValue, suitOf } from "./cards";
import { beats, seatsStillToPlay, sortLegal, trickWinner } from "./helpers";
import type { Action, Move, State } from "./protocol";

/** A move and the name of the rule that picked it. */
export type Choice = [move: Move, rule: string];

/** The greedy bot's move for a request (`action`: what is asked), and the name of its rule. */
export function greedy(state: State, legal: Move[], action: Action): Choice {
  switch (action) {
    case "trump":
      return rule(chooseTrump(state.cards), "strongest_suit");
    case "rainbow":
      return weakHand(state.cards) ? rule("declare", "weak_hand") : rule("pass", "strong_hand");
    case "no_picture":
      return rule("declare", "always_declare"); // a hand without pictures is weak: void it
    case "play":
      break;
  }
  const moves = sortLegal(legal);
  if (moves.knock || moves.blind || state.statuses[state.seat] === "dog") {
    return playAsDog(state, legal);
  }
  if (legal.length === 1) return rule(legal[0]!, "only_move");
  const cards = moves.cards;
  return state.trick.length > 0 ? follow(state, cards) : lead(state, cards);
}

/** The move with the name of the rule that picked it. */
function rule(move: Move, name: string): Choice {
  return [move, name];
}

// ---- the greedy heuristics ---------------------------------------------------

const HIGH_CARD_POINTS: Partial<Record<Rank, number>> = { A: 4, K: 3, Q: 2, J: 1 };

function highCardPoints(cards: readonly Card[]): number {
  return cards.reduce((sum, card) => sum + (HIGH_CARD_POINTS[rankOf(card)] ?? 0), 0);
}

/** The first item with the largest key (ties go to the earliest, as Python's max). */
function maxBy<T>(items: readonly T[], key: (item: T) => number): T {
  let best = items[0] as T; // callers never pass an empty list
  for (const item of items.slice(1)) if (key(item) > key(best)) best = item;
  return best;
}

/** The first item with the smallest key. */
function minBy<T>(items: readonly T[], key: (item: T) => number): T {
  let best = items[0] as T;
  for (const item of items.slice(1)) if (key(item) < key(best)) best = item;
  return best;
}

const lowest = (cards: readonly Card[]): Card => minBy(cards, rankValue);
const highest = (cards: readonly Card[]): Card => maxBy(cards, rankValue);
const countOfSuit = (cards: readonly Card[], suit: Suit): number => cards.filter((c) => suitOf(c) === suit).length;

/** Cards of the same suit above `card` that are neither played nor in this hand. */
function unseenHigher(card: Card, state: State): Card[] {
  const gone = new Set<Card>(state.cards);
  for (const [, played] of state.played) gone.add(played);
  return RANKS.slice(rankValue(card) + 1)
    .map((rank) => makeCard(rank, suitOf(card)))
    .filter((higher) => !gone.has(higher));
}

/** The suit with the best length and high cards (ties: the later suit in C, H, D, S). */
function chooseTrump(cards: readonly Card[]): Suit {
  // Python's 2 * length + points + index / 10, times ten to stay in integers.
  const strength = (suit: Suit): number => {
    const mine = cards.filter((c) => suitOf(c) === suit);
    return 20 * mine.length + 10 * highCardPoints(mine) + SUITS.indexOf(suit);
  };
  return maxBy(SUITS, strength);
}

/** Few high cards: worth voiding the hand with a rainbow. */
function weakHand(cards: readonly Card[]): boolean {
  return highCardPoints(cards) < 5;
}

function playAsDog(state: State, legal: Move[]): Choice {
  const { trump, trick } = state;
  const moves = sortLegal(legal);
  const winning = trickWinner(trick, trump);
  if (moves.blind) {
    if (!moves.knock) return rule("blind", "dog_must_play");
    // Play the unseen card only as the last to act on a trick a low side card is winning.
    const weak = winning !== undefined && suitOf(winning[1]) !== trump && rankValue(winning[1]) <= RANKS.indexOf("8");
    return weak && seatsStillToPlay(state) === 0 ? rule("blind", "dog_blind_gamble") : rule("knock", "dog_knock");
  }
  const card = moves.cards[0];
  if (card === undefined) return rule(legal[0]!, "only_move");
  if (!moves.knock) return rule(card, "dog_must_play"); // the hand's last trick: it must play
  if (suitOf(card) === trump && unseenHigher(card, state).length === 0) {
    return rule(card, "dog_top_trump"); // the top trump left: it wins wherever it is played
  }
  if (winning !== undefined && beats(card, winning[1], trump) && seatsStillToPlay(state) === 0) {
    return rule(card, "dog_wins_last");
  }
  return rule("knock", "dog_knock");
}

function lead(state: State, cards: Card[]): Choice {
  const trump = state.trump;
  const sides = cards.filter((c) => suitOf(c) !== trump);
  const bosses = sides.filter((c) => unseenHigher(c, state).length === 0);
  if (bosses.length > 0) return rule(highest(bosses), "lead_boss");
  const trumps = cards.filter((c) => suitOf(c) === trump);
  if (trumps.length > 0 && state.tricks[state.seat] === 0 && unseenHigher(highest(trumps), state).length === 0) {
    return rule(highest(trumps), "lead_top_trump");
  }
  if (sides.length === 0) return rule(lowest(cards), "lead_low_trump");
  // The longest side suit; ties go to the suit letter last in the alphabet (as the Python bot).
  const longest = [...new Set(sides.map(suitOf))].sort().reduce((best, suit) =>
    countOfSuit(sides, suit) >= countOfSuit(sides, best) ? suit : best,
  );
  return rule(lowest(sides.filter((c) => suitOf(c) === longest)), "lead_longest_suit");
}

function follow(state: State, cards: Card[]): Choice {
  const trump = state.trump;
  const led = suitOf(state.trick[0]![1]);
  const best = trickWinner(state.trick, trump)![1];
  const winners = cards.filter((c) => beats(c, best, trump));
  if (cards.some((c) => suitOf(c) === led)) {
    // Following suit (then every legal card is of the suit led).
    return winners.length > 0 ? rule(lowest(winners), "cheapest_winner") : rule(lowest(cards), "follow_low");
  }
  const trumpWinners = winners.filter((c) => suitOf(c) === trump);
  const myTrumps = cards.filter((c) => suitOf(c) === trump);
  const tricksLeft = state.hand_size - state.tricks.reduce((a, b) => a + b, 0);
  const matters = state.tricks[state.seat] === 0 || myTrumps.length * 2 >= Math.max(1, tricksLeft);
  if (trumpWinners.length > 0 && matters) return rule(lowest(trumpWinners), "ruff");
  const discards = cards.filter((c) => suitOf(c) !== trump);
  const pool = discards.length > 0 ? discards : cards;
  // The shortest suit; ties go to the suit letter first in the alphabet (as the Python bot).
  const shortest = minBy(
    [...new Set(pool.map(suitOf))].sort(),
    (suit) => countOfSuit(pool, suit),
  );
  return rule(lowest(pool.filter((c) => suitOf(c) === shortest)), "discard_short_suit");
}

// YOUR BOT: `Strategy.choose` below is the one function to write.
//
// Helpers: src/helpers.ts (`sortLegal`, `trickWinner`, `unseenCards`,
// `recommendedBudgetMs`), src/cards.ts (`suitOf`, `rankValue`); the message
// types are in src/protocol.ts. The greedy sample that `choose` plays now is
// in src/greedy.ts. If `choose` throws or returns a move not in `legal`, that
// costs only this move: bot.ts logs it and plays `legal[0]`. Log with
// console.error (stderr): stdout carries the protocol.

import { greedy } from "./greedy";
import { seededRandom } from "./helpers";
import type { Decision, GameStart, Message, Move, Request, State } from "./protocol";

/** The bot's player. Keep here what it should remember: one process plays many games, until bye. */
export class Strategy {
  /** The `game_start` of the game in progress (game id, seat, players, rules), once seen. */
  game: GameStart | undefined;
  /** Floats in [0, 1), reseeded at each game_start from the game id and the seat. */
  random: () => number = seededRandom("", 0);

  /** `eps`: the share of random moves (`--eps`); 0 plays the greedy moves only. */
  constructor(readonly eps = 0) {}

  /**
   * The move for a request: one of `legal` (never empty). `state` is the seat's
   * whole information set; `request.action` says what is asked ("play", "trump",
   * "rainbow", "no_picture") and `request.time` how long it may take. `info` is
   * any JSON value, kept in the replay beside the move (under 4096 bytes of
   * compact JSON); `return { move }` sends none.
   */
  choose(state: State, legal: Move[], request: Request): Decision {
    if (this.eps > 0 && this.random() < this.eps) {
      return { move: legal[Math.floor(this.random() * legal.length)]!, info: { rule: "random" } };
    }
    const [move, rule] = greedy(state, legal, request.action);
    return { move, info: { rule } };
  }

  /** Sees every message that gets no reply: game_start, hand_start, events, error, hand_end, game_end. */
  observe(message: Message): void {
    if (message.type === "game_start") {
      this.game = message;
      this.random = seededRandom(message.game, message.seat);
    }
  }
}

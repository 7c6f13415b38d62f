//! YOUR BOT: `Strategy::choose` is the one function to write.
//!
//! Helpers: `state.winning()`, `state.unseen()`, `state.higher_outstanding(card)`,
//! `card.beats(best, trump)`, `cards_of(legal)` and `request.time.budget()` in
//! `src/helpers.rs`; cards and moves in `src/cards.rs`, messages in
//! `src/protocol.rs`. The greedy sample strategy is in `src/greedy.rs`. A
//! panic or a move not in `legal` costs only that move: the kit logs it and
//! plays `legal[0]`. Log with `eprintln!` (stderr): stdout carries the
//! protocol, a stray `println!` garbles it.

use serde_json::json;

use crate::cards::Move;
use crate::greedy::greedy;
use crate::helpers::Rng;
use crate::protocol::{Decision, GameStart, Message, Request, State};

/// The bot's player: keep whatever it should remember across requests here.
pub struct Strategy {
    /// The share of random moves (`--eps`; 0 plays the greedy moves only).
    eps: f64,
    /// The `game_start` of the game in progress (game id, seat, players, rules), once seen.
    pub game: Option<GameStart>,
    /// Reseeded at every `game_start` from the game id and seat: same game, same draws.
    rng: Rng,
}

impl Strategy {
    /// Plays a random legal move with probability `eps` (0 to 1), else the greedy one.
    pub fn new(eps: f64) -> Strategy {
        Strategy {
            eps,
            game: None,
            rng: Rng::for_game("", 0),
        }
    }

    /// The move for `request`, one of `legal` (never empty), as a `Decision`:
    /// `Decision::new(mv)` alone, or `.with_info(json!(...))` to send what the
    /// bot was thinking with it (any JSON under 4096 bytes, kept in the
    /// replay). `state` is the seat's whole information set; `request.action`
    /// says what is asked, `request.time.budget()` how long to think.
    pub fn choose(&mut self, state: &State, legal: &[Move], request: &Request) -> Decision {
        if self.eps > 0.0 && self.rng.unit() < self.eps {
            let random = legal[self.rng.below(legal.len())];
            return Decision::new(random).with_info(json!({"rule": "random"}));
        }
        let (chosen, rule) = greedy(state, legal, request.action);
        Decision::new(chosen).with_info(json!({ "rule": rule }))
    }

    /// Sees every message that gets no reply: `game_start`, `hand_start`, the
    /// events, `error`, `hand_end`, `game_end`.
    pub fn observe(&mut self, message: &Message) {
        if let Message::GameStart(start) = message {
            self.rng = Rng::for_game(&start.game, start.seat);
            self.game = Some(start.clone());
        }
    }
}

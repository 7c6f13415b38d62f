//! A starter kit for Knockout Whist bots in the arena (protocol v1).
//!
//! * [`protocol`]: every message, both ways, as serde types;
//! * [`cards`]: cards, suits, ranks and moves with their wire forms;
//! * [`helpers`]: who wins a trick, unseen cards, the clock, a seeded generator;
//! * [`strategy`]: **the place to write your bot**, `Strategy::choose`;
//! * [`greedy`]: the sample strategy it plays, `greedy(state, legal, action)`.
//!
//! The `bot` binary (`src/main.rs`) does the talking with the referee.

pub mod cards;
pub mod greedy;
pub mod helpers;
pub mod protocol;
pub mod strategy;

//! The messages of protocol v1 as Rust types (see `protocol/README.md`).
//!
//! Messages are enums tagged by their `type` field (events by `event`).
//! Parsing ignores fields it does not know, so a later referee that adds
//! fields still parses. Three kinds of field, kept apart on purpose:
//!
//! * required: a plain field; a message without it does not parse;
//! * required but nullable (`trump`, `turn_up`, the trump event's `seat`,
//!   `chooser`): `Option<T>` that must be present; `null` is `None` and
//!   prints back as `null`;
//! * optional (`dog_cards`, `error.id`, `ready.version`, `move.info`, ...):
//!   `Option<T>` where `None` means absent and is not printed at all.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::cards::{Card, Move, Suit, Turn};

/// A seat number, 0 to n-1 clockwise.
pub type Seat = usize;

/// `[seat, card]`: who played (or drew) which card.
pub type SeatCard = (Seat, Card);

/// A line from the referee: `Strategy::observe` sees every one but `hello`,
/// `request` and `bye`.
// Messages are read one at a time: boxing the large `Request` would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    Hello(Hello),
    GameStart(GameStart),
    HandStart(HandStart),
    Event(Event),
    Request(Request),
    Error(ErrorMessage),
    HandEnd(HandEnd),
    GameEnd(GameEnd),
    Bye,
}

/// A line from the bot: the answer to `hello` or to a `request`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToReferee {
    Ready(Ready),
    Move(MoveReply),
}

/// Session start: answer with `ready` within `limits.startup_ms`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    pub limits: Limits,
}

/// The session's time limits, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub startup_ms: u64,
    pub move_ms: u64,
    pub bank_ms: u64,
}

/// A new game: its id, our seat, the arena's names for the seats, the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStart {
    pub game: String,
    pub seat: Seat,
    pub players: Vec<String>,
    pub rules: Rules,
}

/// Every rule option and its value (`players` is the number of seats).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub players: usize,
    pub dog_life: DogLife,
    pub dog_first_hand_only: bool,
    pub blind_dog: bool,
    pub upside_dog: bool,
    pub rainbow: bool,
    pub no_picture: bool,
    pub trumps_broken: bool,
    pub eliminated_deals: bool,
    pub sweep_wins: bool,
    pub tie_break: TieBreak,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DogLife {
    Standard,
    Expanded,
    /// `"none"`: a seat that takes no trick is out, always.
    #[serde(rename = "none")]
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    Cut,
    Random,
}

/// A seat's status for a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Dog,
    Out,
}

/// A new deal. `cards` is empty for a blind dog (or a seat holding nothing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandStart {
    pub hand: u32,
    pub dealer: Seat,
    pub cards: Vec<Card>,
    pub hand_size: usize,
    /// The card turned up for trumps on hand 1, `null` on later hands.
    #[serde(deserialize_with = "nullable")]
    pub turn_up: Option<Card>,
    pub statuses: Vec<Status>,
    /// Face-up dog cards by seat (`upside_dog`); absent when there are none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "seat_map::present"
    )]
    pub dog_cards: Option<BTreeMap<Seat, Card>>,
}

/// Something public happened; every seat receives every event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Trumps are set; `seat` is who named them, `None` for the turned-up card.
    Trump {
        suit: Suit,
        #[serde(deserialize_with = "nullable")]
        seat: Option<Seat>,
    },
    /// A card was played to the trick in progress.
    Play { seat: Seat, card: Card },
    /// A dog let its turn go by.
    Knock { seat: Seat },
    /// A trick is complete: its cards in play order and its winner.
    Trick { winner: Seat, cards: Vec<SeatCard> },
    /// A seat declared, showing the cards that justify it.
    Declare {
        seat: Seat,
        what: Declaration,
        cards: Vec<Card>,
    },
    /// Cards were cut, to pick the first dealer or break a tie for trumps.
    Cut {
        purpose: CutPurpose,
        draws: Vec<SeatCard>,
        winner: Seat,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    Rainbow,
    NoPicture,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CutPurpose {
    Dealer,
    Trump,
}

/// Our turn: answer a `move` with this `id` and one of `legal`, in time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// An opaque integer to echo in the reply.
    pub id: i64,
    pub action: Action,
    /// Every allowed move, in the protocol's canonical order; never empty.
    pub legal: Vec<Move>,
    pub state: State,
    pub time: Time,
}

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Play,
    Trump,
    Rainbow,
    NoPicture,
}

/// The time for one move: `move_ms` free, then what is left of the game's bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Time {
    pub move_ms: u64,
    pub bank_ms: u64,
}

/// Everything our seat may know: its whole information set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seat: Seat,
    pub hand: u32,
    pub hand_size: usize,
    pub dealer: Seat,
    /// `None` (`null`) only while trumps are being named.
    #[serde(deserialize_with = "nullable")]
    pub trump: Option<Suit>,
    /// The cards we still hold; empty for a blind dog.
    pub cards: Vec<Card>,
    /// The seat leading this trick (after a leading dog knocked, the seat leading instead).
    pub leader: Seat,
    /// The current trick so far.
    pub trick: Vec<SeatCard>,
    /// Every card played this hand, in order, the current trick included.
    pub played: Vec<SeatCard>,
    /// Tricks taken by each seat this hand.
    pub tricks: Vec<usize>,
    /// Each seat's status as dealt this hand.
    pub statuses: Vec<Status>,
    /// The turned-up card on hand 1 (out of play), `null` afterwards.
    #[serde(deserialize_with = "nullable")]
    pub turn_up: Option<Card>,
    /// Face-up dog cards by seat, played or not; absent when there are none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "seat_map::present"
    )]
    pub dog_cards: Option<BTreeMap<Seat, Card>>,
    /// The completed tricks of this hand, in order.
    pub history: Vec<CompletedTrick>,
    /// The seats playing a blind dog this hand.
    pub blind: Vec<Seat>,
    /// Seats that knocked in the trick in progress. This arena always sends
    /// it; it is not in the v1 contract, so another referee may leave it out
    /// (see [`State::knocked_seats`], which reads that as an empty list).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub knocked: Option<Vec<Seat>>,
}

/// A completed trick: who led, every turn in order (knocks included), who won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletedTrick {
    pub leader: Seat,
    pub moves: Vec<(Seat, Turn)>,
    pub winner: Seat,
}

/// Our last reply was refused and we have lost the game; do not answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorMessage {
    /// The refused request's id; absent when the error is not about a request.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub id: Option<i64>,
    pub message: String,
}

/// A hand is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandEnd {
    pub hand: u32,
    pub tricks: Vec<usize>,
    /// Statuses after this hand.
    pub statuses: Vec<Status>,
    /// Who names trumps next; `None` (`null`) when the game is over.
    #[serde(deserialize_with = "nullable")]
    pub chooser: Option<Seat>,
}

/// A game is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEnd {
    pub game: String,
    /// Each seat's place, 1 = winner (competition numbering: 1, 2, 2, 4).
    pub placements: Vec<u32>,
    /// The lowest seat placed 1st.
    pub winner: Seat,
    /// The seats that forfeited, and why (empty in a clean game).
    #[serde(deserialize_with = "seat_map::required")]
    pub faults: BTreeMap<Seat, Fault>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    Timeout,
    Crash,
    Illegal,
    Malformed,
}

/// The answer to `hello`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ready {
    pub name: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub version: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub author: Option<String>,
}

/// The answer to a `request`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReply {
    pub id: i64,
    #[serde(rename = "move")]
    pub chosen: Move,
    /// What the bot was thinking, kept in the replay with the move (any JSON,
    /// at most 4096 bytes compact; a larger one is kept as its size only).
    /// `Some(Value::Null)` is an `info` that is `null`; `None` is no `info`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub info: Option<Value>,
}

/// What a strategy decides for a request: the move, and the `info` to send
/// with it, if any (what the bot was thinking: an estimate, rollouts, a line
/// of play). `Decision::new(Move::Knock)` (or `Move::Knock.into()`) is a
/// decision without info, `Decision::new(Move::Knock).with_info(json!({"rule":
/// "dog_knock"}))` one with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub chosen: Move,
    /// Sent as the move's `info` and kept in the replay; `None` (or a JSON
    /// `null`) sends no `info` at all.
    pub info: Option<Value>,
}

impl Decision {
    /// The move alone, without info.
    pub fn new(chosen: Move) -> Decision {
        Decision { chosen, info: None }
    }

    /// This decision with `info` to send along: any JSON value (`json!({...})`,
    /// a string, a number...), under 4096 bytes of compact JSON.
    pub fn with_info(self, info: impl Into<Value>) -> Decision {
        let info = Some(info.into());
        Decision { info, ..self }
    }
}

impl From<Move> for Decision {
    fn from(chosen: Move) -> Decision {
        Decision::new(chosen)
    }
}

/// For a required field that may be `null`: unlike a bare `Option` field,
/// which serde quietly fills with `None` when the field is missing, a field
/// with its own `deserialize_with` and no `default` must be present.
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// For an optional field (with `default`): when present it is `Some`, even a
/// JSON `null` (so `"info": null` stays distinct from no `info`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// Maps keyed by seat (`dog_cards`, `faults`) have the seat number as a
/// string key: `{"2": "7S"}`. serde_json writes integer keys that way, but
/// inside a tagged enum serde buffers the message and then will not read
/// `"2"` as an integer, so these read string keys and convert them.
mod seat_map {
    use std::collections::BTreeMap;

    use serde::de::Error;
    use serde::{Deserialize, Deserializer};

    use super::Seat;

    pub fn required<'de, D, V>(deserializer: D) -> Result<BTreeMap<Seat, V>, D::Error>
    where
        D: Deserializer<'de>,
        V: Deserialize<'de>,
    {
        BTreeMap::<String, V>::deserialize(deserializer)?
            .into_iter()
            .map(|(key, value)| match key.parse::<Seat>() {
                // Only the canonical form ("2", not "02" or "+2") is a seat key.
                Ok(seat) if seat.to_string() == key => Ok((seat, value)),
                _ => Err(D::Error::custom(format!("{key:?} is not a seat number"))),
            })
            .collect()
    }

    pub fn present<'de, D, V>(deserializer: D) -> Result<Option<BTreeMap<Seat, V>>, D::Error>
    where
        D: Deserializer<'de>,
        V: Deserialize<'de>,
    {
        required(deserializer).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(line: &str) -> Value {
        let parsed: T = serde_json::from_str(line).expect(line);
        serde_json::to_value(parsed).unwrap()
    }

    fn same<T: Serialize + for<'de> Deserialize<'de>>(line: &str) {
        let expected: Value = serde_json::from_str(line).unwrap();
        assert_eq!(round_trip::<T>(line), expected, "{line}");
    }

    #[test]
    fn null_and_absent_stay_apart() {
        same::<Message>(r#"{"type": "event", "event": "trump", "suit": "C", "seat": null}"#);
        same::<Message>(r#"{"type": "error", "message": "bad ready"}"#);
        same::<Message>(
            r#"{"type": "hand_end", "hand": 7, "tricks": [0, 1], "statuses": ["out", "active"], "chooser": null}"#,
        );
        same::<ToReferee>(r#"{"type": "move", "id": 3, "move": "AS", "info": null}"#);
        same::<ToReferee>(r#"{"type": "move", "id": 3, "move": "AS"}"#);
        same::<ToReferee>(r#"{"type": "ready", "name": "x"}"#);
        // A required nullable field may not be left out.
        assert!(serde_json::from_str::<Message>(
            r#"{"type": "event", "event": "trump", "suit": "C"}"#
        )
        .is_err());
    }

    #[test]
    fn a_decision_carries_info_only_when_given() {
        let plain: Decision = Move::Knock.into();
        assert_eq!(plain.info, None);
        let noted = Decision::new(Move::Pass).with_info(serde_json::json!({"rule": "strong_hand"}));
        assert_eq!(noted.chosen, Move::Pass);
        assert_eq!(noted.info, Some(serde_json::json!({"rule": "strong_hand"})));
        assert_eq!(
            Decision::new(Move::Blind).with_info(0.5).info,
            Some(serde_json::json!(0.5))
        );
    }

    #[test]
    fn seat_keyed_maps() {
        same::<Message>(
            r#"{"type": "hand_start", "hand": 5, "dealer": 1, "cards": ["4D"], "hand_size": 3, "turn_up": null, "statuses": ["active", "active", "dog"], "dog_cards": {"2": "7S"}}"#,
        );
        same::<Message>(
            r#"{"type": "game_end", "game": "g", "placements": [1, 3, 2], "winner": 0, "faults": {"1": {"kind": "timeout", "detail": "late"}}}"#,
        );
        assert!(serde_json::from_str::<Message>(
            r#"{"type": "game_end", "game": "g", "placements": [1, 2], "winner": 0, "faults": {"x": {"kind": "crash", "detail": ""}}}"#
        )
        .is_err());
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let message: Message = serde_json::from_str(r#"{"type": "bye", "later": [1, 2]}"#).unwrap();
        assert_eq!(message, Message::Bye);
        let message: Message = serde_json::from_str(
            r#"{"type": "event", "event": "knock", "seat": 2, "new_field": {"a": 1}}"#,
        )
        .unwrap();
        assert_eq!(message, Message::Event(Event::Knock { seat: 2 }));
    }
}

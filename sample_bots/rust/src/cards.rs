//! Cards, suits, ranks and moves, with their wire forms (`"TD"`, `"S"`, `"knock"`).
//!
//! Every type here parses with [`str::parse`] and prints with `Display`; serde
//! (de)serializes them as those same strings.

use std::fmt;
use std::str::FromStr;

/// A suit. The declaration order C < H < D < S is both the order of `legal`
/// and the strength order of a cut (S > D > H > C), so `Ord` fits both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Hearts,
    Diamonds,
    Spades,
}

impl Suit {
    /// The four suits in the protocol's canonical order: C, H, D, S.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Hearts, Suit::Diamonds, Suit::Spades];

    /// The suit's letter on the wire.
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Spades => 'S',
        }
    }

    /// The suit for a letter, if it is one.
    pub fn from_letter(letter: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|suit| suit.letter() == letter)
    }
}

/// A rank, two low to ace high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// The thirteen ranks, low to high.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank's character on the wire: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn letter(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    /// The rank for a character, if it is one.
    pub fn from_letter(letter: char) -> Option<Rank> {
        Rank::ALL.into_iter().find(|rank| rank.letter() == letter)
    }

    /// 0 for a two up to 12 for an ace.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A card. `Ord` sorts by rank, then suit C, H, D, S: the order of `legal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub rank: Rank,
    pub suit: Suit,
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The 52 cards in canonical order (2C, 2H, 2D, 2S, 3C, ... AS).
    pub fn deck() -> impl Iterator<Item = Card> {
        Rank::ALL
            .into_iter()
            .flat_map(|rank| Suit::ALL.into_iter().map(move |suit| Card::new(rank, suit)))
    }
}

/// One move: the answer to a request, and an entry of its `legal` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// `"knock"`: a dog lets its turn go by.
    Knock,
    /// `"blind"`: a blind dog plays the card it may not see.
    Blind,
    /// `"pass"`: no declaration.
    Pass,
    /// `"declare"`: declare a rainbow or a no_picture hand.
    Declare,
    /// A suit, to name trumps.
    Trump(Suit),
    /// A card, to play it.
    Play(Card),
}

impl Move {
    /// The card this move plays, if it plays a named card.
    pub fn card(self) -> Option<Card> {
        match self {
            Move::Play(card) => Some(card),
            _ => None,
        }
    }
}

/// One turn of a completed trick in `history`: a card, or a dog's knock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Knock,
    Played(Card),
}

/// The error for a string that is not the wire form of the type asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    text: String,
}

impl ParseError {
    fn new(what: &'static str, text: &str) -> ParseError {
        ParseError {
            what,
            text: text.to_owned(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a {}", self.text, self.what)
    }
}

impl std::error::Error for ParseError {}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Suit, ParseError> {
        let mut chars = text.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(ParseError::new("suit (C, H, D or S)", text)),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.letter(), self.suit.letter())
    }
}

impl FromStr for Card {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Card, ParseError> {
        let mut chars = text.chars();
        let rank = chars.next().and_then(Rank::from_letter);
        let suit = chars.next().and_then(Suit::from_letter);
        match (rank, suit, chars.next()) {
            (Some(rank), Some(suit), None) => Ok(Card::new(rank, suit)),
            _ => Err(ParseError::new(
                "card (rank 2-9TJQKA, then suit SHDC)",
                text,
            )),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Knock => f.write_str("knock"),
            Move::Blind => f.write_str("blind"),
            Move::Pass => f.write_str("pass"),
            Move::Declare => f.write_str("declare"),
            Move::Trump(suit) => suit.fmt(f),
            Move::Play(card) => card.fmt(f),
        }
    }
}

impl FromStr for Move {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Move, ParseError> {
        match text {
            "knock" => Ok(Move::Knock),
            "blind" => Ok(Move::Blind),
            "pass" => Ok(Move::Pass),
            "declare" => Ok(Move::Declare),
            _ => text
                .parse()
                .map(Move::Trump)
                .or_else(|_| text.parse().map(Move::Play))
                .map_err(|_| ParseError::new("move", text)),
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Knock => f.write_str("knock"),
            Turn::Played(card) => card.fmt(f),
        }
    }
}

impl FromStr for Turn {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Turn, ParseError> {
        match text {
            "knock" => Ok(Turn::Knock),
            _ => text
                .parse()
                .map(Turn::Played)
                .map_err(|_| ParseError::new("card or \"knock\"", text)),
        }
    }
}

/// Serde support for types that travel as their `Display` / `FromStr` string.
macro_rules! serde_as_string {
    ($($type:ty),*) => {$(
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // An owned String: a borrowed &str fails on strings with escapes.
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

serde_as_string!(Suit, Card, Move, Turn);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_print_and_parse() {
        let ten = Card::new(Rank::Ten, Suit::Diamonds);
        assert_eq!(ten.to_string(), "TD");
        assert_eq!("TD".parse(), Ok(ten));
        assert!("1D".parse::<Card>().is_err());
        assert!("TDX".parse::<Card>().is_err());
        assert_eq!(Card::deck().count(), 52);
        for card in Card::deck() {
            assert_eq!(card.to_string().parse(), Ok(card));
        }
    }

    #[test]
    fn moves_print_and_parse() {
        for text in ["knock", "blind", "pass", "declare", "S", "AS", "2C"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        assert!("spades".parse::<Move>().is_err());
    }

    #[test]
    fn card_order_is_the_order_of_legal() {
        let legal = ["7C", "7H", "9D", "QS", "AC"];
        let mut cards: Vec<Card> = legal.iter().map(|c| c.parse().unwrap()).collect();
        cards.reverse();
        cards.sort();
        let sorted: Vec<String> = cards.iter().map(Card::to_string).collect();
        assert_eq!(sorted, legal);
    }
}

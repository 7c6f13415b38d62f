//! The sample strategy: the greedy bot of `arena/samples/greedy_bot.py`,
//! ported rule for rule (ties included), so both play the same moves.
//! [`greedy`] returns the move and the name of the rule that picked it
//! (`"cheapest_winner"`, `"dog_knock"`, ...: the same names in every starter
//! kit), which `Strategy::choose` sends as the move's info.
//!
//! - Following: win the trick as cheaply as possible, otherwise throw the
//!   lowest card. Void in the suit led: trump only when it matters (no trick
//!   yet this hand, or trumps to spare), else discard low from a short suit.
//! - Leading: a card no one can beat in its suit, else low from the longest
//!   side suit.
//! - As a dog: play the card where it surely wins (the top trump left), or
//!   where it wins now with no one left to play; otherwise knock. A blind
//!   dog plays when it is last to act on a weak trick.
//! - Trumps: the suit with the most length and high cards.
//! - Declarations: rainbow when the hand is weak, always no_picture.

use crate::cards::{Card, Move, Rank, Suit};
use crate::helpers::cards_of;
use crate::protocol::{Action, State, Status};

/// The greedy move for a request, and the name of the rule that picked it.
pub fn greedy(state: &State, legal: &[Move], action: Action) -> (Move, &'static str) {
    match action {
        Action::Trump => (Move::Trump(choose_trump(&state.cards)), "strongest_suit"),
        // A rainbow voids the hand: worth it when ours is weak.
        Action::Rainbow if weak_hand(&state.cards) => (Move::Declare, "weak_hand"),
        Action::Rainbow => (Move::Pass, "strong_hand"),
        // A hand without pictures is weak: always void it.
        Action::NoPicture => (Move::Declare, "always_declare"),
        Action::Play => play(state, legal),
    }
}

fn play(state: &State, legal: &[Move]) -> (Move, &'static str) {
    let dog = legal.contains(&Move::Knock)
        || legal.contains(&Move::Blind)
        || state.statuses.get(state.seat) == Some(&Status::Dog);
    if dog {
        return play_as_dog(state, legal);
    }
    let cards = cards_of(legal);
    if legal.len() == 1 || cards.is_empty() {
        return (legal[0], "only_move");
    }
    let (card, rule) = if state.trick.is_empty() {
        lead(state, &cards)
    } else {
        follow(state, &cards)
    };
    (Move::Play(card), rule)
}

fn play_as_dog(state: &State, legal: &[Move]) -> (Move, &'static str) {
    let trump = state.trump;
    let may_knock = legal.contains(&Move::Knock);
    if legal.contains(&Move::Blind) {
        if !may_knock {
            return (Move::Blind, "dog_must_play");
        }
        // Blind, our card is as likely low as high: risk it only last to play
        // on a trick held by a low card of a side suit.
        let weak = state
            .winning()
            .is_some_and(|(_, best)| Some(best.suit) != trump && best.rank <= Rank::Eight);
        return if weak && state.seats_after_me() == 0 {
            (Move::Blind, "dog_blind_gamble")
        } else {
            (Move::Knock, "dog_knock")
        };
    }
    let Some(card) = legal.iter().find_map(|m| m.card()) else {
        return (legal[0], "only_move");
    };
    if !may_knock {
        return (Move::Play(card), "dog_must_play");
    }
    if Some(card.suit) == trump && state.higher_outstanding(card).is_empty() {
        // The top trump left: it wins wherever it is played.
        return (Move::Play(card), "dog_top_trump");
    }
    let wins_now = state
        .winning()
        .is_some_and(|(_, best)| card.beats(best, trump));
    if wins_now && state.seats_after_me() == 0 {
        return (Move::Play(card), "dog_wins_last");
    }
    (Move::Knock, "dog_knock")
}

fn lead(state: &State, cards: &[Card]) -> (Card, &'static str) {
    let trump = state.trump;
    let sides: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|c| Some(c.suit) != trump)
        .collect();
    let bosses = sides
        .iter()
        .copied()
        .filter(|&c| state.higher_outstanding(c).is_empty());
    if let Some(boss) = highest(bosses) {
        return (boss, "lead_boss");
    }
    let trumps = cards.iter().copied().filter(|c| Some(c.suit) == trump);
    if let Some(top) = highest(trumps) {
        // Not a trick yet this hand: cash the top trump left while it is one.
        if state.tricks[state.seat] == 0 && state.higher_outstanding(top).is_empty() {
            return (top, "lead_top_trump");
        }
    }
    if sides.is_empty() {
        let low = lowest(cards.iter().copied()).expect("cards is not empty");
        return (low, "lead_low_trump");
    }
    let longest = ALPHABETICAL
        .into_iter()
        // max_by_key keeps the last of equals: the highest letter, as in Python.
        .max_by_key(|&s| sides.iter().filter(|c| c.suit == s).count())
        .expect("four suits");
    let low =
        lowest(sides.iter().copied().filter(|c| c.suit == longest)).expect("a card of that suit");
    (low, "lead_longest_suit")
}

fn follow(state: &State, cards: &[Card]) -> (Card, &'static str) {
    let trump = state.trump;
    let (_, best) = state.winning().expect("a trick in progress");
    let led = state.led_suit().expect("a trick in progress");
    let winners: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|c| c.beats(best, trump))
        .collect();
    if cards.iter().any(|c| c.suit == led) {
        // Following suit: the cheapest winner, else the lowest card.
        return match lowest(winners.iter().copied()) {
            Some(winner) => (winner, "cheapest_winner"),
            None => (
                lowest(cards.iter().copied()).expect("cards is not empty"),
                "follow_low",
            ),
        };
    }
    let my_trumps = cards.iter().filter(|c| Some(c.suit) == trump).count();
    let matters = state.tricks[state.seat] == 0 || my_trumps * 2 >= state.tricks_left().max(1);
    if matters {
        if let Some(trump_card) = lowest(winners.iter().copied().filter(|c| Some(c.suit) == trump))
        {
            return (trump_card, "ruff");
        }
    }
    // Discard low from the shortest side suit (any card when all are trumps).
    let mut discards: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|c| Some(c.suit) != trump)
        .collect();
    if discards.is_empty() {
        discards = cards.to_vec();
    }
    let count = |s: Suit| discards.iter().filter(|c| c.suit == s).count();
    let shortest = ALPHABETICAL
        .into_iter()
        .filter(|&s| count(s) > 0)
        .min_by_key(|&s| count(s)) // the first, alphabetically, among the shortest
        .expect("a suit with discards");
    let low = lowest(discards.iter().copied().filter(|c| c.suit == shortest))
        .expect("a card of that suit");
    (low, "discard_short_suit")
}

/// The suit with the best length and high cards (ties to the later of C, H, D, S).
fn choose_trump(cards: &[Card]) -> Suit {
    let strength = |suit: Suit| {
        let mine = cards.iter().filter(|c| c.suit == suit);
        let points: usize = mine.clone().map(|&c| high_card_points(c)).sum();
        (2 * mine.count() + points, suit)
    };
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| strength(s))
        .expect("four suits")
}

/// Few high cards: worth voiding the hand with a rainbow.
fn weak_hand(cards: &[Card]) -> bool {
    cards.iter().map(|&c| high_card_points(c)).sum::<usize>() < 5
}

/// Ace 4, king 3, queen 2, jack 1.
fn high_card_points(card: Card) -> usize {
    match card.rank {
        Rank::Ace => 4,
        Rank::King => 3,
        Rank::Queen => 2,
        Rank::Jack => 1,
        _ => 0,
    }
}

/// The suits in alphabetical order of their letters (C, D, H, S): the Python
/// bot breaks some ties by the letter, and the port keeps its moves.
const ALPHABETICAL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

/// The first card of the lowest rank.
fn lowest(cards: impl Iterator<Item = Card>) -> Option<Card> {
    cards.min_by_key(|c| c.rank)
}

/// The first card of the highest rank (`max_by_key` would give the last).
fn highest(cards: impl Iterator<Item = Card>) -> Option<Card> {
    cards.fold(None, |best, c| match best {
        Some(b) if b.rank >= c.rank => Some(b),
        _ => Some(c),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_strongest_suit() {
        let cards: Vec<Card> = ["2C", "3C", "AH", "KS"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        // Clubs 4, hearts 6, spades 5: hearts.
        assert_eq!(choose_trump(&cards), Suit::Hearts);
        assert!(weak_hand(&cards[..3]));
    }

    #[test]
    fn ties_break_on_the_first_card() {
        let cards: Vec<Card> = ["AC", "AH", "2D"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(highest(cards.iter().copied()), Some(cards[0]));
        assert_eq!(lowest(cards.iter().copied()), Some(cards[2]));
    }
}

//! Helpers for strategies: tricks, unseen cards, the clock, a seeded generator.

use std::time::Duration;

use crate::cards::{Card, Move, Suit};
use crate::protocol::{Seat, SeatCard, State, Status, Time};

impl Card {
    /// Whether this card would take a trick from `best`, the card winning it
    /// so far (which is of the suit led, or a trump).
    pub fn beats(self, best: Card, trump: Option<Suit>) -> bool {
        if self.suit == best.suit {
            self.rank > best.rank
        } else {
            Some(self.suit) == trump
        }
    }
}

/// Who is winning a trick (cards in play order), and with which card;
/// `None` for an empty trick.
pub fn trick_winner(trick: &[SeatCard], trump: Option<Suit>) -> Option<SeatCard> {
    let (&first, rest) = trick.split_first()?;
    Some(rest.iter().fold(first, |best, &(seat, card)| {
        if card.beats(best.1, trump) {
            (seat, card)
        } else {
            best
        }
    }))
}

/// The cards among a list of moves (the `legal` of a play request).
pub fn cards_of(moves: &[Move]) -> Vec<Card> {
    moves.iter().filter_map(|m| m.card()).collect()
}

impl State {
    /// Who is winning the current trick, and with which card.
    pub fn winning(&self) -> Option<SeatCard> {
        trick_winner(&self.trick, self.trump)
    }

    /// The suit led to the current trick, if a card has been led.
    pub fn led_suit(&self) -> Option<Suit> {
        self.trick.first().map(|&(_, card)| card.suit)
    }

    /// The number of seats at the table.
    pub fn players(&self) -> usize {
        self.statuses.len()
    }

    /// Our status this hand.
    pub fn my_status(&self) -> Status {
        self.statuses[self.seat]
    }

    /// Tricks still to be played this hand.
    pub fn tricks_left(&self) -> usize {
        self.hand_size.saturating_sub(self.tricks.iter().sum())
    }

    /// Seats that knocked in the trick in progress (empty when the referee
    /// does not send `knocked`).
    pub fn knocked_seats(&self) -> &[Seat] {
        self.knocked.as_deref().unwrap_or(&[])
    }

    /// Cards this seat has not seen: the 52 minus our own cards, every card
    /// played, the face-up dog cards and the turned-up card. They are in the
    /// other seats' hands or out of the deal, in canonical order.
    pub fn unseen(&self) -> Vec<Card> {
        let mut seen = [false; 52];
        let mut mark = |card: Card| seen[card_index(card)] = true;
        self.cards.iter().copied().for_each(&mut mark);
        self.played.iter().for_each(|&(_, card)| mark(card));
        self.dog_cards
            .iter()
            .flat_map(|dogs| dogs.values())
            .copied()
            .for_each(&mut mark);
        self.turn_up.into_iter().for_each(&mut mark);
        Card::deck()
            .filter(|&card| !seen[card_index(card)])
            .collect()
    }

    /// Cards of `card`'s suit ranked above it that are neither played nor
    /// ours: the cards that might still beat it in its suit.
    pub fn higher_outstanding(&self, card: Card) -> Vec<Card> {
        Card::deck()
            .filter(|other| other.suit == card.suit && other.rank > card.rank)
            .filter(|other| !self.cards.contains(other))
            .filter(|other| !self.played.iter().any(|(_, played)| played == other))
            .collect()
    }

    /// How many seats still play to this trick after us: active seats, and
    /// dogs that have not played their card yet this hand.
    pub fn seats_after_me(&self) -> usize {
        let n = self.players();
        let mut seat = (self.seat + 1) % n;
        let mut count = 0;
        while seat != self.leader && seat != self.seat {
            let dog_in_hand = self.statuses[seat] == Status::Dog
                && !self.played.iter().any(|&(played_by, _)| played_by == seat);
            if self.statuses[seat] == Status::Active || dog_in_hand {
                count += 1;
            }
            seat = (seat + 1) % n;
        }
        count
    }
}

/// Position of a card in the canonical order (0 = 2C .. 51 = AS).
fn card_index(card: Card) -> usize {
    card.rank.index() * 4 + card.suit as usize
}

impl Time {
    /// The hard deadline for this move: `move_ms` plus what is left of the bank.
    pub fn deadline(&self) -> Duration {
        Duration::from_millis(self.move_ms + self.bank_ms)
    }

    /// A sensible thinking budget for this move: most of the free allowance
    /// plus a slice of the bank, leaving room for the pipes and the scheduler.
    pub fn budget(&self) -> Duration {
        Duration::from_millis(self.move_ms * 3 / 4 + self.bank_ms / 30)
    }
}

/// A small deterministic generator (mulberry32), seeded like the C and
/// JavaScript sample bots: FNV-1a of `"<game>/<seat>"`. The same game and
/// seat give the same numbers, so a game replays move for move.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u32,
}

impl Rng {
    /// The generator for a game id and a seat.
    pub fn for_game(game: &str, seat: Seat) -> Rng {
        let hash = format!("{game}/{seat}")
            .bytes()
            .fold(0x811C_9DC5_u32, |hash, byte| {
                (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
            });
        Rng { state: hash }
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x6D2B_79F5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    /// A number in `0..n` (as the C and JavaScript bots draw it); `n` > 0.
    pub fn below(&mut self, n: usize) -> usize {
        ((u64::from(self.next_u32()) * n as u64) >> 32) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &[&str]) -> Vec<Card> {
        text.iter().map(|c| c.parse().unwrap()).collect()
    }

    fn request_state(json: &str) -> State {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn trump_wins_the_trick() {
        let trick: Vec<SeatCard> = vec![
            (2, "TC".parse().unwrap()),
            (0, "KC".parse().unwrap()),
            (1, "2H".parse().unwrap()),
        ];
        assert_eq!(trick_winner(&trick, Some(Suit::Hearts)), Some(trick[2]));
        assert_eq!(trick_winner(&trick, Some(Suit::Spades)), Some(trick[1]));
        assert_eq!(trick_winner(&[], None), None);
    }

    #[test]
    fn unseen_cards() {
        let state = request_state(
            r#"{"seat": 0, "hand": 1, "hand_size": 2, "dealer": 1, "trump": "H",
            "cards": ["2C"], "leader": 1, "trick": [[1, "3C"]], "played": [[0, "4C"], [1, "5C"], [1, "3C"]],
            "tricks": [1, 0], "statuses": ["active", "dog"], "turn_up": "5H", "dog_cards": {"1": "AS"},
            "history": [], "blind": [], "knocked": []}"#,
        );
        let unseen = state.unseen();
        assert_eq!(unseen.len(), 52 - 6);
        for gone in cards(&["2C", "3C", "4C", "5C", "5H", "AS"]) {
            assert!(!unseen.contains(&gone), "{gone}");
        }
        assert_eq!(
            state.higher_outstanding("QS".parse().unwrap()),
            cards(&["KS", "AS"])
        );
        assert_eq!(state.winning(), Some((1, "3C".parse().unwrap())));
        assert_eq!(state.seats_after_me(), 0);
    }

    #[test]
    fn generator_matches_the_c_bot() {
        // The values of the formula in sample_bots/c/random_bot.c.
        let mut rng = Rng::for_game("g7-1", 0);
        assert_eq!(rng.state, 0xB228_090E);
        assert_eq!(rng.next_u32(), 1_623_105_005);
        assert_eq!(rng.next_u32(), 3_551_170_491);
        assert_eq!(rng.below(5), ((2_629_233_973_u64 * 5) >> 32) as usize);
        let unit = rng.unit();
        assert!((0.0..1.0).contains(&unit));
    }
}

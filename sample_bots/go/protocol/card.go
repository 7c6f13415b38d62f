package protocol

import (
	"fmt"
	"strings"
)

// Suit is one of the four suits. The values follow the protocol's canonical
// order (C, H, D, S), the order of suits in `legal`; the strength order of a
// cut (S > D > H > C) is a different one.
type Suit uint8

// The suits, in the canonical order.
const (
	Clubs Suit = iota
	Hearts
	Diamonds
	Spades
)

// Suits lists the four suits in the canonical order C, H, D, S.
var Suits = [4]Suit{Clubs, Hearts, Diamonds, Spades}

const suitLetters = "CHDS"

// ParseSuit reads a suit letter: "C", "H", "D" or "S".
func ParseSuit(text string) (Suit, error) {
	if len(text) == 1 {
		if i := strings.IndexByte(suitLetters, text[0]); i >= 0 {
			return Suit(i), nil
		}
	}
	return 0, fmt.Errorf("not a suit: %q", text)
}

// String returns the suit's letter, as on the wire.
func (s Suit) String() string {
	if s > Spades {
		return fmt.Sprintf("Suit(%d)", uint8(s))
	}
	return suitLetters[s : s+1]
}

// MarshalText writes the suit's letter.
func (s Suit) MarshalText() ([]byte, error) {
	if s > Spades {
		return nil, fmt.Errorf("invalid suit %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a suit letter.
func (s *Suit) UnmarshalText(text []byte) error {
	parsed, err := ParseSuit(string(text))
	if err != nil {
		return err
	}
	*s = parsed
	return nil
}

// Rank is a card's rank, from Two (2) to Ace (14): aces are high.
type Rank uint8

// The ranks; the number cards are Rank(2) to Rank(10).
const (
	Two   Rank = 2
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
	Ace   Rank = 14
)

const rankLetters = "23456789TJQKA"

// String returns the rank's character, as on the wire ("T" for ten).
func (r Rank) String() string {
	if r < Two || r > Ace {
		return fmt.Sprintf("Rank(%d)", uint8(r))
	}
	i := r - Two
	return rankLetters[i : i+1]
}

// Card is a playing card. Its zero value is not a card.
type Card struct {
	Rank Rank
	Suit Suit
}

// ParseCard reads a card: rank then suit, e.g. "TD" for the ten of diamonds.
func ParseCard(text string) (Card, error) {
	if len(text) == 2 {
		r := strings.IndexByte(rankLetters, text[0])
		s := strings.IndexByte(suitLetters, text[1])
		if r >= 0 && s >= 0 {
			return Card{Rank: Two + Rank(r), Suit: Suit(s)}, nil
		}
	}
	return Card{}, fmt.Errorf("not a card: %q", text)
}

// MustCard is ParseCard for literals in code and tests: it panics on a bad card.
func MustCard(text string) Card {
	c, err := ParseCard(text)
	if err != nil {
		panic(err)
	}
	return c
}

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c.Rank >= Two && c.Rank <= Ace && c.Suit <= Spades }

// String returns the wire form, e.g. "TD".
func (c Card) String() string { return c.Rank.String() + c.Suit.String() }

// MarshalText writes the wire form (so a Card is a JSON string and can key a map).
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("invalid card %d/%d", c.Rank, c.Suit)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads the wire form.
func (c *Card) UnmarshalText(text []byte) error {
	parsed, err := ParseCard(string(text))
	if err != nil {
		return err
	}
	*c = parsed
	return nil
}

// Index numbers the deck 0..51 in the canonical order of `legal`: by rank
// from two to ace, then by suit C, H, D, S. Handy for arrays and bit sets.
func (c Card) Index() int { return int(c.Rank-Two)*4 + int(c.Suit) }

// CardAt is the inverse of Card.Index.
func CardAt(index int) Card { return Card{Rank: Two + Rank(index/4), Suit: Suit(index % 4)} }

// Deck returns the 52 cards in the canonical order.
func Deck() []Card {
	deck := make([]Card, 52)
	for i := range deck {
		deck[i] = CardAt(i)
	}
	return deck
}

// Less orders cards canonically (rank first, then suit C, H, D, S), the
// order the referee uses for `legal`.
func Less(a, b Card) bool { return a.Index() < b.Index() }

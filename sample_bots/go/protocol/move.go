package protocol

import "fmt"

// MoveKind says what a Move does.
type MoveKind uint8

// The kinds of move. The zero MoveKind is no move at all.
const (
	KindCard    MoveKind = iota + 1 // play a card (action "play")
	KindSuit                        // name trumps (action "trump")
	KindKnock                       // a dog lets its turn go by: "knock"
	KindBlind                       // a blind dog plays its unseen card: "blind"
	KindPass                        // decline a declaration: "pass"
	KindDeclare                     // declare a rainbow or no_picture: "declare"
)

// Move is one entry of a request's `legal`, and the `move` of a reply. On
// the wire it is a string: a card ("TD"), a suit ("S"), or one of the words
// "knock", "blind", "pass", "declare". Moves are comparable with ==.
type Move struct {
	Kind MoveKind
	Card Card // set when Kind is KindCard
	Suit Suit // set when Kind is KindSuit
}

// The moves that carry no card or suit.
var (
	Knock   = Move{Kind: KindKnock}
	Blind   = Move{Kind: KindBlind}
	Pass    = Move{Kind: KindPass}
	Declare = Move{Kind: KindDeclare}
)

var moveWords = map[MoveKind]string{
	KindKnock:   "knock",
	KindBlind:   "blind",
	KindPass:    "pass",
	KindDeclare: "declare",
}

// PlayCard is the move that plays c.
func PlayCard(c Card) Move { return Move{Kind: KindCard, Card: c} }

// NameTrump is the move that names s as trumps.
func NameTrump(s Suit) Move { return Move{Kind: KindSuit, Suit: s} }

// ParseMove reads a move's wire form.
func ParseMove(text string) (Move, error) {
	switch len(text) {
	case 1:
		s, err := ParseSuit(text)
		return NameTrump(s), err
	case 2:
		c, err := ParseCard(text)
		return PlayCard(c), err
	}
	for kind, word := range moveWords {
		if text == word {
			return Move{Kind: kind}, nil
		}
	}
	return Move{}, fmt.Errorf("not a move: %q", text)
}

// IsCard reports whether m plays a card (then m.Card is the card).
func (m Move) IsCard() bool { return m.Kind == KindCard }

// String returns the wire form.
func (m Move) String() string {
	switch m.Kind {
	case KindCard:
		return m.Card.String()
	case KindSuit:
		return m.Suit.String()
	}
	if word, ok := moveWords[m.Kind]; ok {
		return word
	}
	return fmt.Sprintf("Move(%d)", uint8(m.Kind))
}

// MarshalText writes the wire form.
func (m Move) MarshalText() ([]byte, error) {
	switch {
	case m.Kind == KindCard && !m.Card.Valid(), m.Kind == KindSuit && m.Suit > Spades:
		return nil, fmt.Errorf("invalid move %+v", m)
	case m.Kind == KindCard || m.Kind == KindSuit || moveWords[m.Kind] != "":
		return []byte(m.String()), nil
	}
	return nil, fmt.Errorf("invalid move %+v", m)
}

// UnmarshalText reads the wire form.
func (m *Move) UnmarshalText(text []byte) error {
	parsed, err := ParseMove(string(text))
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// Cards returns the cards among moves, in their order (e.g. the playable
// cards of a `legal` list, without "knock" or "blind").
func Cards(moves []Move) []Card {
	var cards []Card
	for _, m := range moves {
		if m.IsCard() {
			cards = append(cards, m.Card)
		}
	}
	return cards
}

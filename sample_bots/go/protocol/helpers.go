package protocol

import (
	"hash/fnv"
	"math/rand"
	"strconv"
	"time"
)

// IsTrump reports whether c is a trump; no card is while trump is nil.
func IsTrump(c Card, trump *Suit) bool { return trump != nil && c.Suit == *trump }

// Beats reports whether card would take a trick from best, the card winning
// it so far: a higher card of best's suit, or a trump over a non-trump.
func Beats(card, best Card, trump *Suit) bool {
	if card.Suit == best.Suit {
		return card.Rank > best.Rank
	}
	return IsTrump(card, trump)
}

// TrickWinner returns the [seat, card] winning a trick, complete or in
// progress: the highest trump, or else the highest card of the suit led.
// ok is false for an empty trick.
func TrickWinner(trick []SeatCard, trump *Suit) (best SeatCard, ok bool) {
	if len(trick) == 0 {
		return SeatCard{}, false
	}
	best = trick[0]
	for _, play := range trick[1:] {
		if Beats(play.Card, best.Card, trump) {
			best = play
		}
	}
	return best, true
}

// Winning returns who is winning the trick in progress and with which
// card; ok is false when no card has been played to it yet.
func (s *State) Winning() (best SeatCard, ok bool) { return TrickWinner(s.Trick, s.Trump) }

// Status returns this seat's status in the hand.
func (s *State) Status() Status { return s.Statuses[s.Seat] }

// Unseen returns the cards this seat has not seen, in the canonical order:
// the 52 less its own cards, the cards played this hand, the face-up dog
// cards and the turned-up card. Every card another seat holds is among
// them, except the face-up dog cards (see Outstanding); so are the cards
// nobody was dealt.
func (s *State) Unseen() []Card {
	var seen [52]bool
	for _, c := range s.Cards {
		seen[c.Index()] = true
	}
	for _, play := range s.Played {
		seen[play.Card.Index()] = true
	}
	for _, c := range s.DogCards {
		seen[c.Index()] = true
	}
	if s.TurnUp != nil {
		seen[s.TurnUp.Index()] = true
	}
	return unmarked(&seen)
}

// Outstanding returns the cards that another seat may still play this
// hand, in the canonical order: Unseen plus the face-up dog cards of other
// seats that are not played yet.
func (s *State) Outstanding() []Card {
	var gone [52]bool
	for _, c := range s.Cards {
		gone[c.Index()] = true
	}
	for _, play := range s.Played {
		gone[play.Card.Index()] = true
	}
	if s.TurnUp != nil {
		gone[s.TurnUp.Index()] = true
	}
	return unmarked(&gone)
}

func unmarked(marked *[52]bool) []Card {
	var cards []Card
	for i, m := range marked {
		if !m {
			cards = append(cards, CardAt(i))
		}
	}
	return cards
}

// ToPlay returns the seats that still have a turn in the trick in progress
// after this one, in turn order: active seats, and dogs that still hold
// their card and have not knocked in this trick.
func (s *State) ToPlay() []int {
	n := len(s.Statuses)
	played := make([]bool, n) // dogs that have played their one card this hand
	for _, play := range s.Played {
		played[play.Seat] = true
	}
	for _, seat := range s.Knocked {
		played[seat] = true // knocked in this trick: its turn is over
	}
	var seats []int
	for seat := (s.Seat + 1) % n; seat != s.Leader && seat != s.Seat; seat = (seat + 1) % n {
		switch s.Statuses[seat] {
		case Active:
			seats = append(seats, seat)
		case Dog:
			if !played[seat] {
				seats = append(seats, seat)
			}
		}
	}
	return seats
}

// DecisionsLeft estimates how many more requests this seat may get in the
// game, this one included: a card for each card it holds now (at least
// one), and a full hand in each later hand. It is an upper bound for a seat
// that stays in the game (naming trumps adds one a hand).
func (s *State) DecisionsLeft() int {
	n := max(len(s.Cards), 1)
	for hand := s.Hand + 1; hand <= 7; hand++ {
		n += 8 - hand
	}
	return n
}

// Left is the hard limit for this move: MoveMS + BankMS. The clock started
// when the referee wrote the request, so start yours when you read it.
func (t Time) Left() time.Duration {
	return time.Duration(t.MoveMS+t.BankMS) * time.Millisecond
}

// Budget recommends how long to think about this move: most of the free
// time (80% of MoveMS), plus an even share of half the bank over the
// decisions left, and never closer than 100 ms (or a tenth of it, when it
// is shorter) to the hard limit, for the reply to travel.
func (t Time) Budget(decisionsLeft int) time.Duration {
	ms := t.MoveMS*4/5 + t.BankMS/2/max(decisionsLeft, 1)
	margin := min(100, (t.MoveMS+t.BankMS)/10)
	ms = min(ms, t.MoveMS+t.BankMS-margin)
	return time.Duration(max(ms, 0)) * time.Millisecond
}

// Budget is r.Time.Budget for the decisions left in r's state.
func (r *Request) Budget() time.Duration { return r.Time.Budget(r.State.DecisionsLeft()) }

// SeededRand returns a generator seeded from "<game>/<seat>" hashed with
// 32-bit FNV-1a, as the C and JavaScript sample bots seed theirs: a strategy
// that draws from it plays the same game the same way.
func SeededRand(game string, seat int) *rand.Rand {
	h := fnv.New32a()
	h.Write([]byte(game + "/" + strconv.Itoa(seat)))
	return rand.New(rand.NewSource(int64(h.Sum32())))
}

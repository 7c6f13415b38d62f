package main

import (
	"slices"

	"arena/bots/gobot/protocol"
)

// greedy is the sample strategy, a port of arena/samples/greedy_bot.py:
//
//   - Following: win the trick as cheaply as possible, else throw the
//     lowest card. Void in the suit led: trump only when it matters (no
//     trick yet this hand, or trumps to spare), else discard the lowest
//     card of a short suit.
//   - Leading: a card no one can beat in its suit, else low from the
//     longest side suit.
//   - As a dog: play the card where it surely wins (the top trump left),
//     or where it wins now with no one left to play; otherwise knock. A
//     blind dog plays when it is last to act on a weak trick.
//   - Trumps: the suit with the most length and high cards.
//   - Declarations: rainbow on a weak hand (it voids the hand), always
//     no_picture (a hand without pictures is weak).
//
// Ties break as in the Python bot, so both make the same moves; two
// differences, both from information the Python bot does not use: the
// turned-up card counts as gone, and a dog that knocked in this trick is
// not counted as still to play. (Fed the 10,498 requests the Python bot
// answered in 90 games of greedy self-play, every rule option on in half
// of them, this port chose differently 9 times, each for the second reason.)
//
// With the move comes the name of the rule that picked it ("cheapest_winner",
// "dog_knock", ...: the same names in every starter kit), which Choose sends
// as the move's info.
func greedy(state *protocol.State, legal []protocol.Move, action protocol.Action) (protocol.Move, string) {
	switch action {
	case protocol.TrumpAction:
		return protocol.NameTrump(strongestSuit(state.Cards)), "strongest_suit"
	case protocol.RainbowAction:
		if highCardPoints(state.Cards) < 5 {
			return protocol.Declare, "weak_hand"
		}
		return protocol.Pass, "strong_hand"
	case protocol.NoPictureAction:
		return protocol.Declare, "always_declare"
	}
	if slices.Contains(legal, protocol.Knock) || slices.Contains(legal, protocol.Blind) ||
		state.Status() == protocol.Dog {
		return playAsDog(state, legal)
	}
	cards := protocol.Cards(legal)
	if len(legal) == 1 || len(cards) == 0 {
		return legal[0], "only_move"
	}
	if len(state.Trick) > 0 {
		card, rule := follow(state, cards)
		return protocol.PlayCard(card), rule
	}
	card, rule := lead(state, cards)
	return protocol.PlayCard(card), rule
}

// highCardPoints counts A = 4, K = 3, Q = 2, J = 1.
func highCardPoints(cards []protocol.Card) int {
	points := 0
	for _, c := range cards {
		points += max(int(c.Rank)-int(protocol.Ten), 0)
	}
	return points
}

// strongestSuit is the suit with the best length and high cards: two
// points a card plus high-card points, ties to the later suit in C, H, D, S.
func strongestSuit(cards []protocol.Card) protocol.Suit {
	best, bestScore := protocol.Clubs, -1
	for _, s := range protocol.Suits {
		mine := ofSuit(cards, s)
		score := 10*(2*len(mine)+highCardPoints(mine)) + int(s)
		if score > bestScore {
			best, bestScore = s, score
		}
	}
	return best
}

func playAsDog(state *protocol.State, legal []protocol.Move) (protocol.Move, string) {
	canKnock := slices.Contains(legal, protocol.Knock)
	winning, started := state.Winning()
	if slices.Contains(legal, protocol.Blind) {
		if !canKnock {
			return protocol.Blind, "dog_must_play"
		}
		// Last to act on a trick won by a low side card: worth the gamble.
		weak := started && !protocol.IsTrump(winning.Card, state.Trump) && winning.Card.Rank <= 8
		if weak && len(state.ToPlay()) == 0 {
			return protocol.Blind, "dog_blind_gamble"
		}
		return protocol.Knock, "dog_knock"
	}
	cards := protocol.Cards(legal)
	if len(cards) == 0 {
		return legal[0], "only_move"
	}
	card := cards[0]
	if !canKnock {
		return protocol.PlayCard(card), "dog_must_play"
	}
	if protocol.IsTrump(card, state.Trump) && !higherOutstanding(state, card) {
		// the top trump left: it wins wherever it is played
		return protocol.PlayCard(card), "dog_top_trump"
	}
	if started && protocol.Beats(card, winning.Card, state.Trump) && len(state.ToPlay()) == 0 {
		return protocol.PlayCard(card), "dog_wins_last"
	}
	return protocol.Knock, "dog_knock"
}

func lead(state *protocol.State, cards []protocol.Card) (protocol.Card, string) {
	var sides, trumps, bosses []protocol.Card
	for _, c := range cards {
		if protocol.IsTrump(c, state.Trump) {
			trumps = append(trumps, c)
		} else {
			sides = append(sides, c)
			if !higherOutstanding(state, c) {
				bosses = append(bosses, c)
			}
		}
	}
	if len(bosses) > 0 {
		return highest(bosses), "lead_boss"
	}
	if len(trumps) > 0 && state.Tricks[state.Seat] == 0 && !higherOutstanding(state, highest(trumps)) {
		return highest(trumps), "lead_top_trump"
	}
	if len(sides) == 0 {
		return lowest(cards), "lead_low_trump"
	}
	// The longest side suit; ties to the suit later in the alphabet (S, H,
	// D, C), as the Python bot compares suit letters.
	longest, length := protocol.Clubs, 0
	for _, s := range alphabetical {
		if n := len(ofSuit(sides, s)); n >= length {
			longest, length = s, n
		}
	}
	return lowest(ofSuit(sides, longest)), "lead_longest_suit"
}

func follow(state *protocol.State, cards []protocol.Card) (protocol.Card, string) {
	trump := state.Trump
	led := state.Trick[0].Card.Suit
	winning, _ := state.Winning()
	var winners, trumpWinners, myTrumps []protocol.Card
	for _, c := range cards {
		if protocol.Beats(c, winning.Card, trump) {
			winners = append(winners, c)
			if protocol.IsTrump(c, trump) {
				trumpWinners = append(trumpWinners, c)
			}
		}
		if protocol.IsTrump(c, trump) {
			myTrumps = append(myTrumps, c)
		}
	}
	if len(ofSuit(cards, led)) > 0 { // following suit
		if len(winners) > 0 {
			return lowest(winners), "cheapest_winner"
		}
		return lowest(cards), "follow_low"
	}
	taken := 0
	for _, n := range state.Tricks {
		taken += n
	}
	tricksLeft := state.HandSize - taken
	matters := state.Tricks[state.Seat] == 0 || len(myTrumps)*2 >= max(1, tricksLeft)
	if len(trumpWinners) > 0 && matters {
		return lowest(trumpWinners), "ruff"
	}
	discards := cards
	if sides := slices.DeleteFunc(slices.Clone(cards), func(c protocol.Card) bool {
		return protocol.IsTrump(c, trump)
	}); len(sides) > 0 {
		discards = sides
	}
	// The shortest suit among the discards; ties to the first in the alphabet.
	shortest, length := protocol.Clubs, len(discards)+1
	for _, s := range alphabetical {
		if n := len(ofSuit(discards, s)); n > 0 && n < length {
			shortest, length = s, n
		}
	}
	return lowest(ofSuit(discards, shortest)), "discard_short_suit"
}

// alphabetical lists the suits by letter: C, D, H, S.
var alphabetical = []protocol.Suit{protocol.Clubs, protocol.Diamonds, protocol.Hearts, protocol.Spades}

// higherOutstanding reports whether another seat may still hold a higher
// card of c's suit.
func higherOutstanding(state *protocol.State, c protocol.Card) bool {
	return slices.ContainsFunc(state.Outstanding(), func(o protocol.Card) bool {
		return o.Suit == c.Suit && o.Rank > c.Rank
	})
}

func ofSuit(cards []protocol.Card, s protocol.Suit) []protocol.Card {
	var same []protocol.Card
	for _, c := range cards {
		if c.Suit == s {
			same = append(same, c)
		}
	}
	return same
}

// highest and lowest return the first card of the highest (lowest) rank,
// in the order given: for cards in legal's order, the first suit in C, H,
// D, S.
func highest(cards []protocol.Card) protocol.Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if c.Rank > best.Rank {
			best = c
		}
	}
	return best
}

func lowest(cards []protocol.Card) protocol.Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if c.Rank < best.Rank {
			best = c
		}
	}
	return best
}

// strategy.go is your bot: Strategy.Choose is the one function to write.
//
// The helpers are in package protocol (protocol/helpers.go): state.Winning(),
// state.Outstanding(), state.ToPlay(), protocol.Beats, protocol.Cards(legal),
// req.Budget() (how long to think). The greedy sample is greedy() in greedy.go.
// A panic or an illegal move costs only that move: the kit logs it and plays
// legal[0]. Log with the log package, to stderr: stdout carries the protocol.
package main

import (
	"math/rand"

	"arena/bots/gobot/protocol"
)

// Strategy is the bot's player: keep what it should remember across requests
// here. One process plays many games, until bye.
type Strategy struct {
	// Eps is the share of random moves (--eps); 0 plays the greedy moves only.
	Eps float64
	// Game is the game being played (nil before the first game_start).
	Game *protocol.GameStart
	// Rand is reseeded at each game_start from the game id and the seat, so
	// a strategy that draws from it plays the same game the same way.
	Rand *rand.Rand
}

// NewStrategy returns a Strategy that plays a random legal move with
// probability eps (0 to 1) and the greedy move otherwise.
func NewStrategy(eps float64) *Strategy {
	return &Strategy{Eps: eps, Rand: protocol.SeededRand("", 0)}
}

// Choose returns the Decision for req: its Move, one of legal (never empty),
// and its Info, sent with the move and kept in the replay (keep it under
// 4096 bytes of JSON; protocol.Decision{Move: m} sends none). state is the
// seat's whole information set, req.Action what is asked ("play", "trump",
// "rainbow", "no_picture"), req.Time the clock. The sample names its rule.
func (s *Strategy) Choose(state *protocol.State, legal []protocol.Move, req *protocol.Request) protocol.Decision {
	if s.Eps > 0 && s.Rand.Float64() < s.Eps {
		return protocol.Decision{Move: legal[s.Rand.Intn(len(legal))], Info: map[string]string{"rule": "random"}}
	}
	move, rule := greedy(state, legal, req.Action)
	return protocol.Decision{Move: move, Info: map[string]string{"rule": rule}}
}

// Observe sees every message that gets no reply: game_start, hand_start,
// events, error, hand_end, game_end. A request's state holds all a seat may
// know, so the sample only keeps the game and reseeds at game_start.
func (s *Strategy) Observe(msg protocol.Message) {
	if start, ok := msg.(*protocol.GameStart); ok {
		s.Game = start
		s.Rand = protocol.SeededRand(start.Game, start.Seat)
	}
}

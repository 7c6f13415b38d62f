package main

import (
	"hash/fnv"
	"math/rand"
	"strconv"

	"arena/bots/gobot/protocol"
)

// Bot is the strategy: Choose below is the one place where moves are
// decided. Replace its body with your own; the rest of the kit reads the
// messages, answers them, and keeps illegal moves off the wire.
type Bot struct {
	// Game is the game being played (nil before the first game_start).
	Game *protocol.GameStart
	// Rand is seeded from the game id and the seat at each game_start, so
	// a strategy that draws from it plays the same game the same way.
	// The greedy strategy draws nothing.
	Rand *rand.Rand
}

// NewBot returns a Bot ready for its first game.
func NewBot() *Bot { return &Bot{Rand: rand.New(rand.NewSource(0))} }

// Choose returns the move for a request, one of legal, and its info: what
// the bot was thinking, any value encoding/json can write (a map, a struct,
// a number...), sent with the move and kept in the replay beside it; nil
// sends no info. Keep it under 4096 bytes of compact JSON: the arena keeps
// a larger one as its size only. state is the seat's whole information set
// (see the protocol package's helpers: state.Winning, state.Unseen,
// state.ToPlay, ...), legal lists every allowed move, and req is the whole
// request, for req.Action ("play", "trump", "rainbow" or "no_picture") and
// req.Time (req.Budget() is a sensible time to think).
func (b *Bot) Choose(state *protocol.State, legal []protocol.Move, req *protocol.Request) (protocol.Move, any) {
	move, rule := greedy(state, legal, req.Action)
	return move, map[string]string{"rule": rule}
}

// Observe sees every message that gets no reply: game_start, hand_start,
// events, error, hand_end, game_end. The state of a request holds all a
// seat may know, so the greedy strategy only reseeds at game_start.
func (b *Bot) Observe(msg protocol.Message) {
	if start, ok := msg.(*protocol.GameStart); ok {
		b.Game = start
		b.Rand = rand.New(rand.NewSource(seed(start.Game, start.Seat)))
	}
}

// seed hashes "<game>/<seat>" with 32-bit FNV-1a, as the C and JavaScript
// sample bots do.
func seed(game string, seat int) int64 {
	h := fnv.New32a()
	h.Write([]byte(game + "/" + strconv.Itoa(seat)))
	return int64(h.Sum32())
}

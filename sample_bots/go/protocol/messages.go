// Package protocol is a typed model of the arena's bot protocol v1
// (protocol/README.md in the arena repository): every message the referee
// sends, the two replies, cards, suits and moves, and helpers that answer the
// questions every strategy asks (who is winning the trick, which cards are
// still unseen, how much time is left).
//
// Conventions, so that a message decoded and encoded again is the message
// that was sent:
//   - a field that may be null is a pointer (nil is null) and is always written;
//   - an optional field has `omitempty` in its tag and is left out when absent;
//   - every other field is required: Decode refuses a message without it;
//   - unknown fields are ignored, as the protocol asks of a v1 bot.
//
// Seats are plain ints (0..n-1); lists indexed by seat are slices.
package protocol

import (
	"encoding/json"
	"fmt"
)

// Message is any protocol line. MessageType returns its "type" field.
type Message interface {
	MessageType() string
}

// Event is a public event ("type": "event"); EventKind returns its "event" field.
type Event interface {
	Message
	EventKind() string
}

// Header is the "type" field every message carries, as it carries it on the
// wire: Decode fills it, json.Marshal writes it, and NewReady and
// NewMoveReply set it on the replies a bot makes.
type Header struct {
	Type string `json:"type"`
}

// MessageType returns the "type" field.
func (h Header) MessageType() string { return h.Type }

// EventHeader is the "type" ("event") and "event" fields of a public event.
type EventHeader struct {
	Type  string `json:"type"`
	Event string `json:"event"`
}

// MessageType returns the "type" field: "event".
func (h EventHeader) MessageType() string { return h.Type }

// EventKind returns the "event" field: "trump", "play", "knock", ...
func (h EventHeader) EventKind() string { return h.Event }

// ---- Messages from the referee ----

// Hello opens a session; answer it with Ready within Limits.StartupMS.
type Hello struct {
	Header
	Protocol int    `json:"protocol"`
	Limits   Limits `json:"limits"`
}

// Limits are the session's time limits, in milliseconds.
type Limits struct {
	StartupMS int `json:"startup_ms"`
	MoveMS    int `json:"move_ms"`
	BankMS    int `json:"bank_ms"`
}

// GameStart begins a game: its id, your seat, the arena's names of the bots
// in seat order, and the rules.
type GameStart struct {
	Header
	Game    string   `json:"game"`
	Seat    int      `json:"seat"`
	Players []string `json:"players"`
	Rules   Rules    `json:"rules"`
}

// Rules are the rule options of a game (see the guide's table). Options
// added by later protocol versions are not kept.
type Rules struct {
	Players          int     `json:"players"`
	DogLife          DogLife `json:"dog_life"`
	DogFirstHandOnly bool    `json:"dog_first_hand_only"`
	BlindDog         bool    `json:"blind_dog"`
	UpsideDog        bool    `json:"upside_dog"`
	Rainbow          bool    `json:"rainbow"`
	NoPicture        bool    `json:"no_picture"`
	TrumpsBroken     bool    `json:"trumps_broken"`
	EliminatedDeals  bool    `json:"eliminated_deals"`
	SweepWins        bool    `json:"sweep_wins"`
	TieBreak         string  `json:"tie_break"` // "cut" or "random"
}

// DogLife is the dog_life rule option: who gets a Dog's Life.
type DogLife string

// The three dog_life options.
const (
	DogLifeStandard DogLife = "standard"
	DogLifeExpanded DogLife = "expanded"
	DogLifeNone     DogLife = "none"
)

// Status is a seat's status in a hand.
type Status string

// The three statuses.
const (
	Active Status = "active"
	Dog    Status = "dog"
	Out    Status = "out"
)

// HandStart is a new deal. Cards is empty when you hold nothing or are a
// blind dog; DogCards (seat -> face-up dog card) is nil when absent.
type HandStart struct {
	Header
	Hand     int          `json:"hand"`
	Dealer   int          `json:"dealer"`
	Cards    []Card       `json:"cards"`
	HandSize int          `json:"hand_size"`
	TurnUp   *Card        `json:"turn_up"`
	Statuses []Status     `json:"statuses"`
	DogCards map[int]Card `json:"dog_cards,omitempty"`
}

// TrumpEvent: trumps are set. Seat is the chooser, nil when the turned-up
// card decided (hand 1).
type TrumpEvent struct {
	EventHeader
	Suit Suit `json:"suit"`
	Seat *int `json:"seat"`
}

// PlayEvent: a card was played to the trick in progress.
type PlayEvent struct {
	EventHeader
	Seat int  `json:"seat"`
	Card Card `json:"card"`
}

// KnockEvent: a dog let its turn go by.
type KnockEvent struct {
	EventHeader
	Seat int `json:"seat"`
}

// TrickEvent: a trick is complete, with its cards in play order.
type TrickEvent struct {
	EventHeader
	Winner int        `json:"winner"`
	Cards  []SeatCard `json:"cards"`
}

// DeclareEvent: a seat declared ("rainbow" or "no_picture"), showing its cards.
type DeclareEvent struct {
	EventHeader
	Seat  int    `json:"seat"`
	What  string `json:"what"`
	Cards []Card `json:"cards"`
}

// CutEvent: cards were cut, for the first dealer (Purpose "dealer") or to
// break a tie for naming trumps ("trump").
type CutEvent struct {
	EventHeader
	Purpose string     `json:"purpose"`
	Draws   []SeatCard `json:"draws"`
	Winner  int        `json:"winner"`
}

// Action is what a request asks for.
type Action string

// The four actions.
const (
	PlayAction      Action = "play"
	TrumpAction     Action = "trump"
	RainbowAction   Action = "rainbow"
	NoPictureAction Action = "no_picture"
)

// Request: your turn. Answer with a MoveReply carrying ID and one of Legal.
type Request struct {
	Header
	ID     int    `json:"id"`
	Action Action `json:"action"`
	Legal  []Move `json:"legal"`
	State  State  `json:"state"`
	Time   Time   `json:"time"`
}

// Time is the clock for one request, in milliseconds: MoveMS is free,
// BankMS is what is left of this game's bank.
type Time struct {
	MoveMS int `json:"move_ms"`
	BankMS int `json:"bank_ms"`
}

// State is everything the requested seat may know: its information set.
type State struct {
	Seat     int        `json:"seat"`
	Hand     int        `json:"hand"`
	HandSize int        `json:"hand_size"`
	Dealer   int        `json:"dealer"`
	Trump    *Suit      `json:"trump"` // nil only while trumps are being named
	Cards    []Card     `json:"cards"` // empty for a blind dog
	Leader   int        `json:"leader"`
	Trick    []SeatCard `json:"trick"`  // the trick in progress
	Played   []SeatCard `json:"played"` // every card played this hand, trick included
	Tricks   []int      `json:"tricks"`
	Statuses []Status   `json:"statuses"`
	TurnUp   *Card      `json:"turn_up"`
	// DogCards maps a seat to its face-up dog card (upside_dog); nil when
	// absent. A card stays listed after it is played.
	DogCards map[int]Card     `json:"dog_cards,omitempty"`
	History  []CompletedTrick `json:"history"`
	Blind    []int            `json:"blind"` // seats playing a blind dog
	// Knocked lists the seats that knocked in the trick in progress. This
	// arena always sends it (nil, not empty, means it was absent).
	Knocked []int `json:"knocked,omitempty"`
}

// CompletedTrick is an entry of State.History.
type CompletedTrick struct {
	Leader int    `json:"leader"` // the seat whose card led
	Moves  []Turn `json:"moves"`  // every turn, knocks included
	Winner int    `json:"winner"`
}

// ErrorMessage: your last reply was refused and you forfeit this game. ID
// is the refused request's id, nil when the error is not about a request.
type ErrorMessage struct {
	Header
	ID      *int   `json:"id,omitempty"`
	Message string `json:"message"`
}

// HandEnd: a hand is over. Chooser names trumps next, nil when the game is over.
type HandEnd struct {
	Header
	Hand     int      `json:"hand"`
	Tricks   []int    `json:"tricks"`
	Statuses []Status `json:"statuses"`
	Chooser  *int     `json:"chooser"`
}

// GameEnd: the game is over. Placements per seat (1 = winner); Faults by seat.
type GameEnd struct {
	Header
	Game       string        `json:"game"`
	Placements []int         `json:"placements"`
	Winner     int           `json:"winner"`
	Faults     map[int]Fault `json:"faults"`
}

// Fault says why a seat forfeited.
type Fault struct {
	Kind   string `json:"kind"` // "timeout", "crash", "illegal" or "malformed"
	Detail string `json:"detail"`
}

// Bye ends the session: exit with status 0.
type Bye struct{ Header }

// ---- Replies ----

// Ready answers Hello. Version and Author are optional (nil: left out).
type Ready struct {
	Header
	Name    string  `json:"name"`
	Version *string `json:"version,omitempty"`
	Author  *string `json:"author,omitempty"`
}

// MoveReply answers a Request. Info is optional: any JSON value the bot
// wants kept in the replay with its move (at most 4096 bytes compact; a
// larger one is kept as its size only), left out when nil. The session
// fills it from the Decision that Strategy.Choose returns.
type MoveReply struct {
	Header
	ID   int             `json:"id"`
	Move Move            `json:"move"`
	Info json.RawMessage `json:"info,omitempty"`
}

// Decision is a strategy's answer to a request: Move, one of the request's
// legal moves, and Info, what the bot was thinking (any value encoding/json
// writes: a map, a struct, a number...), sent as the reply's "info" and kept
// in the replay beside the move. A nil Info sends no "info" key:
// protocol.Decision{Move: m} is a move alone.
type Decision struct {
	Move Move
	Info any
}

// NewReady is the Ready reply to Hello, its "type" set.
func NewReady(name string) Ready {
	return Ready{Header: Header{Type: "ready"}, Name: name}
}

// NewMoveReply is the reply to the request id, its "type" set; Info may be set after.
func NewMoveReply(id int, move Move) MoveReply {
	return MoveReply{Header: Header{Type: "move"}, ID: id, Move: move}
}

// ---- Pairs ----

// SeatCard is a [seat, card] pair: who played or drew which card.
type SeatCard struct {
	Seat int
	Card Card
}

// MarshalJSON writes [seat, "card"].
func (p SeatCard) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]any{p.Seat, p.Card})
}

// UnmarshalJSON reads [seat, "card"].
func (p *SeatCard) UnmarshalJSON(data []byte) error {
	return decodePair(data, &p.Seat, &p.Card)
}

// Turn is a [seat, card or "knock"] pair of a completed trick's moves:
// Move is a card move, or Knock.
type Turn struct {
	Seat int
	Move Move
}

// MarshalJSON writes [seat, "card"] or [seat, "knock"].
func (t Turn) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]any{t.Seat, t.Move})
}

// UnmarshalJSON reads [seat, "card"] or [seat, "knock"].
func (t *Turn) UnmarshalJSON(data []byte) error {
	if err := decodePair(data, &t.Seat, &t.Move); err != nil {
		return err
	}
	if t.Move.Kind != KindCard && t.Move.Kind != KindKnock {
		return fmt.Errorf("a turn is a card or \"knock\", not %q", t.Move)
	}
	return nil
}

// decodePair reads a two-element JSON array into seat and second.
func decodePair(data []byte, seat *int, second any) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if len(raw) != 2 || isNull(raw[0]) || isNull(raw[1]) {
		return fmt.Errorf("expected a [seat, card] pair, got %s", data)
	}
	if err := json.Unmarshal(raw[0], seat); err != nil {
		return err
	}
	return json.Unmarshal(raw[1], second)
}

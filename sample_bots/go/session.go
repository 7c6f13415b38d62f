package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log"
	"runtime/debug"
	"slices"

	"arena/bots/gobot/protocol"
)

// The ready reply's name and version (the arena shows its own name for the
// bot, from its command line or bot.toml).
const (
	botName    = "go-greedy"
	botVersion = "1.0"
)

// play runs one session: it answers hello with ready and each request with
// the move strategy.Choose decides, shows every other message to
// strategy.Observe, and returns on bye or at the end of input.
func play(in io.Reader, out io.Writer, strategy *Strategy) error {
	// bufio.Reader rather than bufio.Scanner: a line may be longer than
	// the Scanner's 64 KiB default.
	reader := bufio.NewReader(in)
	writer := bufio.NewWriter(out)
	send := func(reply any) error {
		data, err := json.Marshal(reply)
		if err != nil {
			return err
		}
		writer.Write(data)
		writer.WriteByte('\n')
		return writer.Flush() // an unflushed reply is a late reply
	}
	for {
		line, readErr := reader.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			reply, done := handle(line, strategy)
			if reply != nil {
				if err := send(reply); err != nil {
					return err
				}
			}
			if done {
				return nil
			}
		}
		if readErr == io.EOF {
			return nil // the referee is gone: end quietly
		}
		if readErr != nil {
			return readErr
		}
	}
}

// handle reads one message and returns the reply to send (nil: none), and
// whether the session is over.
func handle(line []byte, strategy *Strategy) (reply any, done bool) {
	msg, err := protocol.Decode(line)
	if errors.Is(err, protocol.ErrUnknown) {
		return nil, false // a message of a later protocol version: ignore it
	}
	if err != nil {
		log.Printf("cannot read %.200q: %v", line, err)
		return rawFallback(line), false
	}
	switch m := msg.(type) {
	case *protocol.Hello:
		if m.Protocol != 1 {
			log.Printf("written for protocol 1, got %d", m.Protocol)
		}
		ready := protocol.NewReady(botName)
		version := botVersion
		ready.Version = &version
		return ready, false
	case *protocol.Request:
		if len(m.Legal) == 0 {
			log.Printf("request %d has no legal move", m.ID)
			return nil, false
		}
		decision := decide(strategy, m)
		reply := protocol.NewMoveReply(m.ID, decision.Move)
		reply.Info = encodeInfo(decision.Info)
		return reply, false
	case *protocol.Bye:
		return nil, true
	}
	observe(strategy, msg)
	return nil, false
}

// observe shows the strategy a message that gets no reply. A panic in
// Observe is logged and costs nothing more: the next request is answered.
func observe(strategy *Strategy, msg protocol.Message) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("Observe panicked on %s: %v\n%s", msg.MessageType(), r, debug.Stack())
		}
	}()
	strategy.Observe(msg)
}

// decide asks the strategy for its Decision, and never returns a move
// outside legal: if Choose panics or picks an illegal move, the problem is
// logged and the first legal move is played (the arena's own fallback
// move), without info.
func decide(strategy *Strategy, req *protocol.Request) (decision protocol.Decision) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("Choose panicked: %v; playing %v\n%s", r, req.Legal[0], debug.Stack())
			decision = protocol.Decision{Move: req.Legal[0]}
		}
	}()
	decision = strategy.Choose(&req.State, req.Legal, req)
	if !slices.Contains(req.Legal, decision.Move) {
		log.Printf("Choose returned %v, not in %v; playing %v", decision.Move, req.Legal, req.Legal[0])
		decision = protocol.Decision{Move: req.Legal[0]}
	}
	return decision
}

// maxInfoBytes is the largest info the arena keeps as sent (compact JSON);
// a larger one is kept as {"truncated": true, "bytes": N}, never a fault.
const maxInfoBytes = 4096

// warnedBigInfo: an info over maxInfoBytes is logged once per process.
var warnedBigInfo bool

// encodeInfo is a strategy's info as the move's "info" field: nil (the
// field left out) for no info or a JSON null; an info encoding/json cannot
// write is logged and left out, the move is sent all the same.
func encodeInfo(info any) json.RawMessage {
	if info == nil {
		return nil
	}
	data, err := json.Marshal(info)
	if err != nil {
		log.Printf("info is not JSON (%v); sending the move without it", err)
		return nil
	}
	if string(data) == "null" { // a nil map, slice or pointer
		return nil
	}
	if len(data) > maxInfoBytes && !warnedBigInfo {
		warnedBigInfo = true
		log.Printf("an info of %d bytes: the arena keeps only its size (at most %d)", len(data), maxInfoBytes)
	}
	return data
}

// rawFallback answers a request that the typed model could not read (a
// field of an unexpected form, say) with its first legal move, copied as
// sent: still a legal answer. Any other unreadable line gets no reply.
func rawFallback(line []byte) any {
	var raw struct {
		Type  string            `json:"type"`
		ID    json.RawMessage   `json:"id"`
		Legal []json.RawMessage `json:"legal"`
	}
	if json.Unmarshal(line, &raw) != nil || raw.Type != "request" || raw.ID == nil || len(raw.Legal) == 0 {
		return nil
	}
	return map[string]json.RawMessage{"type": json.RawMessage(`"move"`), "id": raw.ID, "move": raw.Legal[0]}
}

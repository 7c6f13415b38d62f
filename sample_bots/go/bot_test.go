package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log"
	"os"
	"slices"
	"strings"
	"testing"

	"arena/bots/gobot/protocol"
)

// TestTranscript plays the referee's side of the guide's transcript and
// checks that the bot answers hello and every request, legally, and
// nothing else.
func TestTranscript(t *testing.T) {
	guide, err := os.ReadFile("../../protocol/README.md")
	if err != nil {
		// Justified skip: in a bot made by `arena new-bot` the arena's guide is not
		// beside the kit; the arena's own suite round-trips every kit (tests/test_kits.py).
		t.Skip("not in the arena repository:", err)
	}
	var input bytes.Buffer
	var requests []*protocol.Request
	inTranscript := false
	for _, line := range strings.Split(string(guide), "\n") {
		switch {
		case strings.HasPrefix(line, "```text transcript"):
			inTranscript = true
		case strings.HasPrefix(line, "```"):
			inTranscript = false
		case inTranscript && strings.HasPrefix(line, "ref "):
			input.WriteString(line[4:] + "\n")
			if msg, err := protocol.Decode([]byte(line[4:])); err != nil {
				t.Fatal(err)
			} else if req, ok := msg.(*protocol.Request); ok {
				requests = append(requests, req)
			}
		}
	}
	if len(requests) == 0 {
		t.Fatal("no transcript found")
	}
	var output bytes.Buffer
	if err := play(&input, &output, NewStrategy(0)); err != nil {
		t.Fatal(err)
	}
	scanner := bufio.NewScanner(&output)
	scanner.Scan()
	if !strings.HasPrefix(scanner.Text(), `{"type":"ready","name":"go-greedy"`) {
		t.Errorf("first reply %s", scanner.Text())
	}
	for _, req := range requests {
		if !scanner.Scan() {
			t.Fatalf("no answer to request %d", req.ID)
		}
		var reply protocol.MoveReply
		if err := json.Unmarshal(scanner.Bytes(), &reply); err != nil || reply.ID != req.ID || !slices.Contains(req.Legal, reply.Move) {
			t.Errorf("request %d %v: answered %s (%v)", req.ID, req.Legal, scanner.Text(), err)
		}
		var info struct{ Rule string }
		if err := json.Unmarshal(reply.Info, &info); err != nil || info.Rule == "" {
			t.Errorf("request %d: no rule in the info of %s (%v)", req.ID, scanner.Text(), err)
		}
	}
	if scanner.Scan() {
		t.Errorf("extra output %s", scanner.Text())
	}
}

// positions are five fixed requests and the greedy move and rule for each.
var positions = []struct{ request, want, rule string }{
	// Naming trumps with the jack of clubs alone.
	{`{"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "C", "strongest_suit"},
	// A weak hand declares its rainbow.
	{`{"type": "request", "id": 54, "action": "rainbow", "legal": ["pass", "declare"], "state": {"seat": 1, "hand": 4, "hand_size": 4, "dealer": 1, "trump": "C", "cards": ["3H", "4S", "TD", "QC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "active", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "declare", "weak_hand"},
	// Following hearts: the ten wins the four cheaply.
	{`{"type": "request", "id": 46, "action": "play", "legal": ["2H", "TH"], "state": {"seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "D", "cards": ["2H", "5S", "TH", "AS"], "leader": 2, "trick": [[2, "4H"]], "played": [[0, "3C"], [1, "6C"], [2, "9C"], [2, "4H"]], "tricks": [0, 0, 1], "statuses": ["active", "active", "active"], "turn_up": null, "history": [{"leader": 0, "moves": [[0, "3C"], [1, "6C"], [2, "9C"]], "winner": 2}], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 9340}}`, "TH", "cheapest_winner"},
	// A dog leading with the queen of trumps while the ace and king are out: knock.
	{`{"type": "request", "id": 81, "action": "play", "legal": ["knock", "QD"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 0, "trump": "D", "cards": ["QD"], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["active", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": [], "dog_cards": {"1": "QD"}}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "knock", "dog_knock"},
	// A blind dog leading: knock.
	{`{"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}`, "knock", "dog_knock"},
}

func decodeRequest(t *testing.T, line string) *protocol.Request {
	t.Helper()
	msg, err := protocol.Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return msg.(*protocol.Request)
}

// TestGreedyChoices: Choose's Decision at eps 0 is the greedy move, with
// the rule that picked it as its info.
func TestGreedyChoices(t *testing.T) {
	for _, c := range positions {
		req := decodeRequest(t, c.request)
		decision := NewStrategy(0).Choose(&req.State, req.Legal, req)
		if decision.Move.String() != c.want || !slices.Contains(req.Legal, decision.Move) {
			t.Errorf("request %d: played %s, want %s", req.ID, decision.Move, c.want)
		}
		if got := string(encodeInfo(decision.Info)); got != `{"rule":"`+c.rule+`"}` {
			t.Errorf("request %d: info %s, want rule %s", req.ID, got, c.rule)
		}
	}
}

// TestRandomMoves: at eps 1 every move is a legal one drawn from the
// generator seeded at game_start, so the same game gets the same moves.
func TestRandomMoves(t *testing.T) {
	start, err := protocol.Decode([]byte(`{"type": "game_start", "game": "g7", "seat": 1, "players": ["a", "b", "c"], "rules": {"players": 3, "dog_life": "standard", "dog_first_hand_only": false, "blind_dog": false, "upside_dog": false, "rainbow": false, "no_picture": false, "trumps_broken": false, "eliminated_deals": false, "sweep_wins": false, "tie_break": "cut"}}`))
	if err != nil {
		t.Fatal(err)
	}
	firsts := 0 // moves that were legal[0], the kit's fallback
	moves := func() (played []protocol.Move) {
		strategy := NewStrategy(1)
		strategy.Observe(start)
		for round := 0; round < 4; round++ {
			for _, c := range positions {
				req := decodeRequest(t, c.request)
				decision := decide(strategy, req)
				if !slices.Contains(req.Legal, decision.Move) || string(encodeInfo(decision.Info)) != `{"rule":"random"}` {
					t.Errorf("request %d: %+v", req.ID, decision)
				}
				if decision.Move == req.Legal[0] {
					firsts++
				}
				played = append(played, decision.Move)
			}
		}
		return played
	}
	first, second := moves(), moves()
	if !slices.Equal(first, second) {
		t.Errorf("the same game played %v, then %v", first, second)
	}
	if firsts == len(first)+len(second) {
		t.Errorf("every random move was legal[0]: %v", first)
	}
}

// TestArgs: --eps takes a share from 0 to 1, and anything else is refused
// before a session starts.
func TestArgs(t *testing.T) {
	if eps, roundtrip, err := parseArgs([]string{"--eps", "0.25"}); eps != 0.25 || roundtrip || err != nil {
		t.Errorf("--eps 0.25: %v %v %v", eps, roundtrip, err)
	}
	if eps, roundtrip, err := parseArgs([]string{"--roundtrip"}); eps != 0 || !roundtrip || err != nil {
		t.Errorf("--roundtrip: %v %v %v", eps, roundtrip, err)
	}
	for _, args := range [][]string{{"--eps", "1.5"}, {"--eps", "-0.1"}, {"--eps", "NaN"}, {"--eps", "x"}, {"--fast"}, {"0.3"}} {
		if _, _, err := parseArgs(args); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line", args, err)
		}
	}
}

// TestObservePanics: a panic in Observe is logged, and the session goes on.
func TestObservePanics(t *testing.T) {
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	start := `{"type":"game_start","game":"g1","seat":0,"players":["a","b"],"rules":{"players":2,` +
		`"dog_life":"standard","dog_first_hand_only":false,"blind_dog":false,"upside_dog":false,` +
		`"rainbow":false,"no_picture":false,"trumps_broken":false,"eliminated_deals":false,` +
		`"sweep_wins":false,"tie_break":"cut"}}`
	// A nil *Strategy: its Observe panics on the first field it sets.
	reply, done := handle([]byte(start), nil)
	if reply != nil || done {
		t.Errorf("game_start: reply %v, done %v", reply, done)
	}
	if !strings.Contains(logged.String(), "Observe panicked on game_start") {
		t.Errorf("log: %q", logged.String())
	}
}

// TestInfo: the info a strategy returns is sent when it is JSON, and no
// "info" key is written otherwise (never "info": null).
func TestInfo(t *testing.T) {
	var none map[string]int
	for _, c := range []struct {
		info any
		want string
	}{
		{nil, `{"type":"move","id":7,"move":"AS"}`},
		{none, `{"type":"move","id":7,"move":"AS"}`},
		{func() {}, `{"type":"move","id":7,"move":"AS"}`},
		{0.5, `{"type":"move","id":7,"move":"AS","info":0.5}`},
		{[]any{"AS", 2, nil}, `{"type":"move","id":7,"move":"AS","info":["AS",2,null]}`},
	} {
		reply := protocol.NewMoveReply(7, protocol.PlayCard(protocol.MustCard("AS")))
		reply.Info = encodeInfo(c.info)
		got, err := json.Marshal(reply)
		if err != nil || string(got) != c.want {
			t.Errorf("info %#v: wrote %s (%v), want %s", c.info, got, err, c.want)
		}
	}
}

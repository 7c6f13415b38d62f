package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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
	if err := play(&input, &output, NewBot()); err != nil {
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

func TestGreedyChoices(t *testing.T) {
	for _, c := range []struct{ request, want, rule string }{
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
	} {
		msg, err := protocol.Decode([]byte(c.request))
		if err != nil {
			t.Fatal(err)
		}
		req := msg.(*protocol.Request)
		move, info := decide(NewBot(), req)
		if move.String() != c.want {
			t.Errorf("request %d: played %s, want %s", req.ID, move, c.want)
		}
		if got := string(encodeInfo(info)); got != `{"rule":"`+c.rule+`"}` {
			t.Errorf("request %d: info %s, want rule %s", req.ID, got, c.rule)
		}
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

package protocol

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ErrUnknown marks a message whose "type" (or event kind) protocol v1 does
// not define. A v1 bot ignores such messages: later versions may add them.
var ErrUnknown = errors.New("unknown message")

// Every message type, by its "type" field, and every event, by its "event".
var (
	messageTypes = map[string]func() Message{
		"hello":      func() Message { return new(Hello) },
		"game_start": func() Message { return new(GameStart) },
		"hand_start": func() Message { return new(HandStart) },
		"request":    func() Message { return new(Request) },
		"error":      func() Message { return new(ErrorMessage) },
		"hand_end":   func() Message { return new(HandEnd) },
		"game_end":   func() Message { return new(GameEnd) },
		"bye":        func() Message { return new(Bye) },
		"ready":      func() Message { return new(Ready) },
		"move":       func() Message { return new(MoveReply) },
	}
	eventKinds = map[string]func() Message{
		"trump":   func() Message { return new(TrumpEvent) },
		"play":    func() Message { return new(PlayEvent) },
		"knock":   func() Message { return new(KnockEvent) },
		"trick":   func() Message { return new(TrickEvent) },
		"declare": func() Message { return new(DeclareEvent) },
		"cut":     func() Message { return new(CutEvent) },
	}
)

// Decode parses one protocol line, chosen by its "type" (and "event"), into
// a pointer to its type: *Hello, *Request, *TrumpEvent, ..., *Ready,
// *MoveReply. Unknown fields are ignored. It fails when the line is not a
// JSON object, lacks a required field, has a value of the wrong type or a
// null where none is allowed; and with an error wrapping ErrUnknown when
// the type or event is not one of v1's.
func Decode(line []byte) (Message, error) {
	var head struct {
		Type  *string         `json:"type"`
		Event json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, err
	}
	if head.Type == nil {
		return nil, errors.New(`no "type" field`)
	}
	newMessage := messageTypes[*head.Type]
	if *head.Type == "event" {
		var kind string
		if err := json.Unmarshal(head.Event, &kind); err != nil {
			return nil, fmt.Errorf(`an event needs an "event" string: %v`, err)
		}
		if newMessage = eventKinds[kind]; newMessage == nil {
			return nil, fmt.Errorf("%w: event %q", ErrUnknown, kind)
		}
	} else if newMessage == nil {
		return nil, fmt.Errorf("%w: type %q", ErrUnknown, *head.Type)
	}
	msg := newMessage()
	if err := checkRequired(line, reflect.TypeOf(msg).Elem(), *head.Type); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(line, msg); err != nil {
		return nil, err
	}
	return msg, nil
}

// An optional map or list must be written when present, even empty, and
// left out when absent (nil). `omitempty` alone would also drop an empty
// one, so these MarshalJSON methods shadow such a field with a pointer
// (nil: absent; encoding/json prefers the outer field of the same name).

// MarshalJSON writes the message with dog_cards only when present.
func (m HandStart) MarshalJSON() ([]byte, error) {
	type plain HandStart
	return json.Marshal(struct {
		plain
		DogCards *map[int]Card `json:"dog_cards,omitempty"`
	}{plain(m), presentMap(m.DogCards)})
}

// MarshalJSON writes the state with dog_cards and knocked only when present.
func (s State) MarshalJSON() ([]byte, error) {
	type plain State
	return json.Marshal(struct {
		plain
		DogCards *map[int]Card `json:"dog_cards,omitempty"`
		Knocked  *[]int        `json:"knocked,omitempty"`
	}{plain(s), presentMap(s.DogCards), presentSlice(s.Knocked)})
}

func presentMap[M ~map[K]V, K comparable, V any](m M) *M {
	if m == nil {
		return nil
	}
	return &m
}

func presentSlice[S ~[]E, E any](s S) *S {
	if s == nil {
		return nil
	}
	return &s
}

func isNull(data []byte) bool { return string(data) == "null" }

var (
	jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

// checkRequired walks a JSON value along the Go type it will be decoded
// into and reports a missing required field (a field whose tag has no
// omitempty), or a null where the Go type cannot hold one. encoding/json
// would silently leave a zero value there, which would then be written
// back as a value the sender never sent. Errors of type are left to
// json.Unmarshal, which reports them anyway.
func checkRequired(data []byte, t reflect.Type, path string) error {
	if isNull(data) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			return nil // nil, written back as null
		}
		return fmt.Errorf("%s: null is not allowed here", path)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p := reflect.PointerTo(t); p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler) {
		return nil // cards, moves, pairs: they check their own text
	}
	switch t.Kind() {
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) != nil {
			return nil
		}
		for i := 0; i < t.NumField(); i++ {
			field := t.Field(i)
			name, options, _ := strings.Cut(field.Tag.Get("json"), ",")
			if !field.IsExported() || name == "" || name == "-" {
				continue
			}
			value, ok := fields[name]
			if !ok {
				if strings.Contains(options, "omitempty") {
					continue
				}
				return fmt.Errorf("%s: missing field %q", path, name)
			}
			if err := checkRequired(value, field.Type, path+"."+name); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return nil
		}
		for i, item := range items {
			if err := checkRequired(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		var items map[string]json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return nil
		}
		for key, item := range items {
			if err := checkRequired(item, t.Elem(), fmt.Sprintf("%s[%q]", path, key)); err != nil {
				return err
			}
		}
	}
	return nil
}

package customid

import (
	"strings"
	"testing"
)

func TestCustomIDRoundTrip(t *testing.T) {
	tests := []Action{
		{Table: "k3x9a", Stamp: 0, View: ViewLobby, Verb: "join"},
		{Table: "k3x9a", Stamp: 1234, View: ViewTable, Verb: "white", Arg: "red"},
		{Table: "abc", Stamp: 7, View: ViewSheet, Verb: "take", Arg: "5-9-12"},
		{Table: "abc", Stamp: 7, View: ViewTable, Verb: "color", Arg: "2.blue"},
		{Table: "abc", Stamp: 9, View: ViewHand, Verb: "play", Arg: "R4-J7.r.4-7"},
		{Table: "abc", Stamp: 9, View: ViewHand, Verb: "pick"},
		{Table: "abc", Stamp: 9, View: ViewResults, Verb: "again"},
	}
	for _, a := range tests {
		id := a.Encode()
		if len(id) > MaxCustomID {
			t.Fatalf("%q too long", id)
		}
		got, err := Decode(id)
		if err != nil || got != a {
			t.Errorf("Decode(%q) = %+v, %v; want %+v", id, got, err, a)
		}
	}
}

func TestCustomIDForgeries(t *testing.T) {
	for _, id := range []string{
		"", "x", "q2", "q2:t:1", "q2:t:1:l", "q2::1:l:join", "q2:t:-1:l:join", "q2:t:x:l:join",
		"q2:T:1:l:join", "q2:t:1:l:jo in", "q2:t:1:l:join:a b", "q2:t:1:t:white:" + strings.Repeat("a", 49),
		strings.Repeat("q", 101), "q2:t:99999999999999999999999:l:join", "q2:t:01:l:join", "q2:t:+1:l:join",
		// verbs in views that do not carry them
		"q2:t:1:t:join", "q2:t:1:l:pass", "q2:t:1:s:pick", "q2:t:1:r:pass", "q2:t:1:x:pass", "q2:t:1:tt:pass",
		// arguments that are not exactly what the bot writes
		"q2:t:1:t:white:r", "q2:t:1:t:white:Red", "q2:t:1:t:white:red ", "q2:t:1:t:white:", "q2:t:1:t:white",
		"q2:t:1:t:pass:", "q2:t:1:t:pass:x", "q2:t:1:t:color:3.red", "q2:t:1:t:color:1.r", "q2:t:1:t:color:1",
		"q2:t:1:t:take:05", "q2:t:1:t:take:5--9", "q2:t:1:t:take:1", "q2:t:1:t:take:5-6-7-8", "q2:t:1:t:take:13",
		"q2:t:1:h:play:r4.r.4", "q2:t:1:h:play:R4.red.4", "q2:t:1:h:play:R4.r.04", "q2:t:1:h:play:R4.r", "q2:t:1:h:play:R4-R5-R6-R7.r.",
		"q2:t:1:h:cross:R4.r.4:x",
	} {
		for _, id := range []string{id, id + "#" + checkOf(id)} {
			if a, err := Decode(id); err == nil {
				t.Errorf("Decode(%q) accepted a forgery: %+v", id, a)
			}
		}
	}
}

// TestCustomIDTruncationsRefused cuts every custom_id the bot makes at every
// length: no proper prefix decodes to an action (a truncated "white:red"
// must never be read as red, or anything else).
func TestCustomIDTruncationsRefused(t *testing.T) {
	for _, a := range []Action{
		{Table: "k3x9a", Stamp: 12, View: ViewTable, Verb: "white", Arg: "red"},
		{Table: "k3x9a", Stamp: 12, View: ViewSheet, Verb: "white", Arg: "green"},
		{Table: "k3x9a", Stamp: 12, View: ViewTable, Verb: "color", Arg: "1.yellow"},
		{Table: "k3x9a", Stamp: 12, View: ViewHand, Verb: "play", Arg: "R4-R5-J7.r.4-5"},
		{Table: "k3x9a", Stamp: 12, View: ViewHand, Verb: "take", Arg: "5-12"},
	} {
		id := a.Encode()
		for n := 0; n < len(id); n++ {
			if got, err := Decode(id[:n]); err == nil {
				t.Errorf("Decode(%q), a truncation of %q, = %+v", id[:n], id, got)
			}
		}
	}
}

func TestCustomIDOldVersionIsOutdated(t *testing.T) {
	if _, err := Decode("q1:abc:3:white:red"); err != ErrOldButton {
		t.Fatalf("q1 custom_id: %v, want ErrOldButton", err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, a := range []Action{
		{Table: "abc", Stamp: 3, View: ViewTable, Verb: "white", Arg: "red"},
		{Table: "abc", Stamp: 3, View: ViewLobby, Verb: "join"},
		{Table: "abc", Stamp: 3, View: ViewHand, Verb: "play", Arg: "R4-J7.r.4-7"},
	} {
		f.Add(a.Encode())
	}
	f.Fuzz(func(t *testing.T, id string) {
		a, err := Decode(id)
		if err != nil {
			return
		}
		// Whatever decodes is exactly what the bot would have written.
		if a.Encode() != id {
			t.Fatalf("%q decodes to %+v, which the bot writes as %q", id, a, a.Encode())
		}
	})
}

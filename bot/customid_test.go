package bot

import (
	"strings"
	"testing"
)

func TestCustomIDRoundTrip(t *testing.T) {
	tests := []Action{
		{Table: "k3x9a", Stamp: 0, Verb: "join"},
		{Table: "k3x9a", Stamp: 1234, Verb: "white", Arg: "red"},
		{Table: "abc", Stamp: 7, Verb: "take", Arg: "5,9,12"},
	}
	for _, a := range tests {
		id := a.Encode()
		if len(id) > MaxCustomID {
			t.Fatalf("%q too long", id)
		}
		got, err := DecodeAction(id)
		if err != nil || got != a {
			t.Errorf("DecodeAction(%q) = %+v, %v; want %+v", id, got, err, a)
		}
	}
}

func TestCustomIDForgeries(t *testing.T) {
	for _, id := range []string{
		"", "x", "q1", "q1:t:1", "q2:t:1:join", "q1::1:join", "q1:t:-1:join", "q1:t:x:join",
		"q1:T:1:join", "q1:t:1:jo in", "q1:t:1:join:a b", "q1:t:1:join:" + strings.Repeat("a", 49),
		strings.Repeat("q", 101), "q1:t:99999999999999999999999:join",
	} {
		if a, err := DecodeAction(id); err == nil {
			t.Errorf("DecodeAction(%q) accepted a forgery: %+v", id, a)
		}
	}
}

func FuzzDecodeAction(f *testing.F) {
	f.Add("q1:abc:3:white:red")
	f.Add("q1:abc:3:join")
	f.Fuzz(func(t *testing.T, id string) {
		a, err := DecodeAction(id)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to something that decodes the same.
		b, err := DecodeAction(a.Encode())
		if err != nil || a != b {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", id, a, a.Encode(), b, err)
		}
	})
}

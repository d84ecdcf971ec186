package customid

import (
	"hash/crc32"
	"strconv"
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

// TestEncodeWritesTheSameIDs: Encode, written into one buffer, makes the
// custom_ids the bot always made (the fields joined by ":", "#" and the
// check of what precedes it), so that buttons already posted stay valid;
// JoinInts writes what strings.Join of the numbers does.
func TestEncodeWritesTheSameIDs(t *testing.T) {
	joined := func(a Action) string {
		s := customIDPrefix + ":" + a.Table + ":" + strconv.Itoa(a.Stamp) + ":" + string(rune(a.View)) + ":" + a.Verb
		if a.Arg != "" {
			s += ":" + a.Arg
		}
		return s + "#" + checkOf(s)
	}
	for _, a := range []Action{
		{Table: "k3x9a", Stamp: 0, View: ViewLobby, Verb: "join"},
		{Table: "k3x9a", Stamp: 1234567, View: ViewTable, Verb: "white", Arg: "red"},
		{Table: "abc", Stamp: 7, View: ViewSheet, Verb: "take", Arg: "5-9-12"},
		{Table: "abc", Stamp: 9, View: ViewHand, Verb: "play", Arg: "R4-J7.r.4-7"},
		{Table: "zz", Stamp: 42, View: ViewDaily, Verb: "hint"},
		{Table: "zz", Stamp: 42, View: ViewPeople, Verb: "record", Arg: "3"},
	} {
		if got, want := a.Encode(), joined(a); got != want {
			t.Errorf("Encode(%+v) = %q, want %q", a, got, want)
		}
	}
	if got := checkOf("q2:abc:7:s:pass"); len(got) != 4 || got != checkOf("q2:abc:7:s:pass") {
		t.Errorf("checkOf: %q", got)
	}
	for _, ns := range [][]int{nil, {5}, {5, 9, 12}, {10, 11, 12}} {
		words := make([]string, len(ns))
		for i, n := range ns {
			words[i] = strconv.Itoa(n)
		}
		if got, want := JoinInts(ns, "-"), strings.Join(words, "-"); got != want {
			t.Errorf("JoinInts(%v) = %q, want %q", ns, got, want)
		}
	}
}

// TestEncodeAllocatesOnlyItsString: a button's custom_id costs the click
// one allocation, and reading one at most two (its fields, its argument).
func TestEncodeAllocatesOnlyItsString(t *testing.T) {
	a := Action{Table: "k3x9a", Stamp: 1234, View: ViewTable, Verb: "white", Arg: "red"}
	if n := testing.AllocsPerRun(100, func() { _ = a.Encode() }); n > 1 {
		t.Errorf("Encode: %.1f allocations", n)
	}
	id := a.Encode()
	if n := testing.AllocsPerRun(100, func() { _, _ = Decode(id) }); n > 2 {
		t.Errorf("Decode: %.1f allocations", n)
	}
}

// TestCheckIsCRC32: the check is the CRC-32 (IEEE) of the body, in four
// base-36 digits, as crc32.ChecksumIEEE computes it.
func TestCheckIsCRC32(t *testing.T) {
	for _, body := range []string{"", "q2:abc:7:s:pass", "q2:k3x9a:1234:t:white:red", strings.Repeat("x", 99)} {
		c := crc32.ChecksumIEEE([]byte(body)) % (36 * 36 * 36 * 36)
		want := ""
		for range 4 {
			want = string("0123456789abcdefghijklmnopqrstuvwxyz"[c%36]) + want
			c /= 36
		}
		if got := checkOf(body); got != want {
			t.Errorf("checkOf(%q) = %q, want %q", body, got, want)
		}
	}
}

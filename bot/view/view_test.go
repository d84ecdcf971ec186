package view

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares the JSON of v, the data a view returns as Discord would
// receive it, with testdata/<name>.json (go test ./bot/view -update
// rewrites the files).
func golden(t *testing.T, name string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./bot/view -update writes it)", err)
	}
	if !bytes.Equal(want, buf.Bytes()) {
		t.Errorf("%s differs (go test ./bot/view -update rewrites it):\n%s", path, firstDiff(string(want), buf.String()))
	}
}

// firstDiff shows the first line where got differs from want.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n want " + a + "\n  got " + b
		}
	}
	return "(none)"
}

func itoa(n int) string { return strconv.Itoa(n) }

// langs are the languages the golden files are written in.
var langs = []string{"en", "de", "fr"}

// clock is the time the fixtures are made at.
var clock = time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)

// newTable is a channel's table of the variant with the named players
// seated (user ids u1, u2, …), in its lobby.
func newTable(t *testing.T, v game.Variant, names ...string) *session.Table {
	t.Helper()
	tb := &session.Table{
		Version: session.TableVersion, ID: "k3x9a", GuildID: "g1", ChannelID: "c1", Host: "u1",
		Variant: v, Games: 1, Stage: session.StageLobby, Lang: "en", Created: clock, MaxSeats: 5,
	}
	for i, n := range names {
		tb.Seats = append(tb.Seats, session.Seat{UserID: "u" + itoa(i+1), Name: n})
	}
	return tb
}

// started is newTable with its game begun from a fixed seed.
func started(t *testing.T, v game.Variant, names ...string) *session.Table {
	t.Helper()
	tb := newTable(t, v, names...)
	g, err := game.New(game.Config{Variant: v, Players: names, Seed: [32]byte{7}})
	if err != nil {
		t.Fatal(err)
	}
	tm := session.Timing{Now: clock, Timeout: func() time.Duration { return 10 * time.Minute }, ReminderLead: 2 * time.Minute}
	if err := tb.Begin(g, tm); err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestRulesGolden(t *testing.T) {
	for _, code := range langs {
		golden(t, "rules_"+code, Rules(i18n.For(code)))
	}
}

// Every refusal of a move is worded from the message files, the row and
// number named (RULES S3, S4: the cells left of the last cross).
func TestExplainGolden(t *testing.T) {
	errs := []error{
		&game.MoveError{Reason: game.ReasonLeftOfLast, Color: game.Red, Number: 4, Last: 6},
		&game.MoveError{Reason: game.ReasonNeedFive, Color: game.Blue, Number: 2, Count: 3},
		&game.MoveError{Reason: game.ReasonGap, Left: []int{5, 6}},
		&game.MoveError{Reason: game.ReasonJokerColor, Color: game.Green},
		errors.New("not a move error"),
	}
	for _, code := range langs {
		l := i18n.For(code)
		var out []string
		for _, err := range errs {
			out = append(out, Explain(l, err))
		}
		golden(t, "explain_"+code, out)
	}
}

func TestNewsWordsGolden(t *testing.T) {
	seats := []session.Seat{{UserID: "u1", Name: "Anna"}, {UserID: "u2", Name: "Ben"}}
	news := []session.News{
		{Event: session.NewsLock, Seat: 1, Color: game.Blue},
		{Event: session.NewsMisthrow, Seat: 0, N: 2},
		{Event: session.NewsPlayed, Seat: 0, Cards: []string{"R4", "J7"}, Color: game.Red},
		{Event: session.NewsTimeoutTake, Seat: 1, Nums: []int{5, 9}},
		{Event: session.NewsLeft, Seat: 7},
	}
	for _, code := range langs {
		var out []string
		for _, n := range news {
			out = append(out, NewsWords(n, i18n.For(code), seats))
		}
		golden(t, "news_"+code, out)
	}
}

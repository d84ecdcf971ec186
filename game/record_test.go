package game

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func loadRecord(t *testing.T, name string) *Record {
	t.Helper()
	data, err := os.ReadFile("testdata/records/" + name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestRecordHandWrittenDice(t *testing.T) {
	g, err := Replay(loadRecord(t, "dice-short.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Anna: red 7 and blue 7 (turn 1); yellow 2, the white sum of Ben's
	// turn 2; red 11 and yellow 7 (turn 3).
	anna, ben := g.Sheet(0), g.Sheet(1)
	want := map[Color][]int{Red: {7, 11}, Yellow: {2, 7}, Blue: {7}}
	for c, ns := range want {
		for _, n := range ns {
			if !anna.Rows[c].Crossed(Position(c, n)) {
				t.Errorf("Anna's %s %d not crossed", c, n)
			}
		}
	}
	if anna.Crosses() != 5 || anna.Misthrows != 0 {
		t.Errorf("Anna: %d crosses %d misthrows", anna.Crosses(), anna.Misthrows)
	}
	// Ben: green 7 (turn 1), blue 11 (turn 3); he passed both actions as the
	// active player of turn 2: one misthrow.
	if ben.Crosses() != 2 || ben.Misthrows != 1 {
		t.Errorf("Ben: %d crosses %d misthrows, want 2 and 1", ben.Crosses(), ben.Misthrows)
	}
	if got := g.Scores(); !slices.Equal(got, []int{3 + 3 + 1, 1 + 1 - 5}) {
		t.Errorf("scores %v", got)
	}
	if g.Turn() != 4 || g.Active() != 1 {
		t.Errorf("turn %d active %d, want turn 4 with Ben active", g.Turn(), g.Active())
	}
	// The game's own record of the replay matches the hand-written one.
	own := g.Record()
	h, err := Replay(own)
	if err != nil || !slices.Equal(h.Scores(), g.Scores()) {
		t.Fatalf("replaying the game's own record: %v", err)
	}
}

func TestRecordIllegalStepNamed(t *testing.T) {
	_, err := Replay(loadRecord(t, "dice-illegal.json"))
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("want a *StepError, got %v", err)
	}
	if se.Step != 3 || se.Turn != 1 || se.Player != "Anna" || reason(se) != ReasonLeftOfLast {
		t.Fatalf("got %+v", se)
	}
	for _, want := range []string{"step 3", "turn 1", "Anna", `"action":"color"`, "red 4 is left of your last red cross (5)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestRecordCardsGapRule(t *testing.T) {
	_, err := Replay(loadRecord(t, "cards-gap.json"))
	if reason(err) != ReasonGap || !strings.Contains(err.Error(), "leave out 3 and 5") {
		t.Fatalf("got %v, want the C6 gap refusal naming 3 and 5", err)
	}
}

func TestRecordStrictness(t *testing.T) {
	base := `{"format":"qwixx-record","version":1,"variant":"dice","players":["A","B"],"first":"A","moves":[]}`
	if _, err := ParseRecord([]byte(base)); err != nil {
		t.Fatalf("minimal record refused: %v", err)
	}
	bad := []struct{ name, from, to string }{
		{"unknown field", `"moves"`, `"mvoes":[],"moves"`},
		{"format", `qwixx-record`, `chess`},
		{"version", `"version":1`, `"version":2`},
	}
	for _, b := range bad {
		if _, err := ParseRecord([]byte(strings.Replace(base, b.from, b.to, 1))); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	replayBad := []struct {
		name string
		edit func(r *Record)
	}{
		{"unknown first", func(r *Record) { r.First = "Z" }},
		{"six players", func(r *Record) { r.Players = append(r.Players, "C", "D", "E", "F") }},
		{"variant", func(r *Record) { r.Variant = "chess" }},
		{"die 7", func(r *Record) { r.Rolls = [][6]int{{7, 1, 1, 1, 1, 1}} }},
		{"deck in dice", func(r *Record) { r.Deck = []string{"R5"} }},
		{"rolls in cards", func(r *Record) { r.Variant = "cards"; r.Rolls = [][6]int{{1, 1, 1, 1, 1, 1}} }},
		{"duplicate card", func(r *Record) { r.Variant = "cards"; r.Deck = []string{"R5", "R5"} }},
		{"joker without jokers", func(r *Record) { r.Variant = "cards"; r.Deck = []string{"J5"} }},
		{"bad card", func(r *Record) { r.Variant = "jokers"; r.Deck = []string{"X5"} }},
	}
	for _, b := range replayBad {
		rec, _ := ParseRecord([]byte(base))
		b.edit(rec)
		if _, err := Replay(rec); err == nil {
			t.Errorf("%s: replay accepted", b.name)
		}
	}
	moveBad := []RecordMove{
		{Player: "Z", Action: "pass"},
		{Player: "A", Action: "jump"},
		{Player: "A", Action: "white"},
		{Player: "A", Action: "white", Row: "purple"},
	}
	for _, m := range moveBad {
		rec, _ := ParseRecord([]byte(base))
		rec.Moves = []RecordMove{m}
		var se *StepError
		if _, err := Replay(rec); !errors.As(err, &se) || se.Step != 1 {
			t.Errorf("move %v: got %v, want a step-1 error", m, err)
		}
	}
}

// A record with only a seed and moves plays on with the seed's dice.
func TestRecordSeedFillsChance(t *testing.T) {
	rec := &Record{Format: RecordFormat, Version: RecordVersion, Variant: "jokers", Players: []string{"A", "B", "C"}, First: "B", Seed: 11}
	g1, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := Replay(rec)
	if !slices.Equal(g1.Hand(0), g2.Hand(0)) || g1.Active() != 1 {
		t.Fatal("the same seed must deal the same cards")
	}
	data, _ := json.Marshal(g1.Record())
	if !strings.Contains(string(data), `"deck":[`) {
		t.Fatal("the game's record must list the whole deck")
	}
}

func TestRecordBadReshuffleReported(t *testing.T) {
	// Play a card game until a reshuffle, then corrupt the recorded pile.
	for s := uint64(0); s < 50; s++ {
		g := playRandom(t, Cards, 5, s, nil)
		rec := g.Record()
		if len(rec.Reshuffles) == 0 {
			continue
		}
		rec.Reshuffles[0] = rec.Reshuffles[0][1:]
		_, err := Replay(rec)
		if err == nil || !strings.Contains(err.Error(), "reshuffle") {
			t.Fatalf("corrupt reshuffle: got %v", err)
		}
		return
	}
	t.Fatal("no random 5-player card game reshuffled")
}

// A game started from a record keeps following the record's dice after a
// save and restore (the bot saves after every move), then the seed's.
func TestRecordScriptSurvivesRestore(t *testing.T) {
	rec := &Record{Format: RecordFormat, Version: RecordVersion, Variant: "dice", Players: []string{"A", "B"}, First: "A",
		Rolls: [][6]int{{1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2}, {3, 3, 3, 3, 3, 3}}}
	g, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	for want := 2; want <= 3; want++ {
		mustApply(t, g, PassMove(0), PassMove(1), PassMove(g.Active()))
		data, _ := g.MarshalBinary()
		if g, err = Restore(data); err != nil {
			t.Fatal(err)
		}
		if d := g.Dice(); d[0] != want || d[5] != want {
			t.Fatalf("turn %d dice %v, want the record's %d", g.Turn(), d, want)
		}
	}
	if g.st.Script != nil {
		t.Fatal("a used-up script must be dropped")
	}
}

// RECORD.md: when a take frees several display slots, they are refilled
// from the draw pile in ascending order of the numbers taken (equal
// numbers left to right), not left to right. Here Anna takes 9 (slot 1)
// and 5 (slot 2): slot 2 gets the top card (R7), slot 1 the next (B7); so
// Ben's take of a 7 (the leftmost 7) gives him B7, which he plays (C4).
func TestC4RecordRefillOrder(t *testing.T) {
	rec := loadRecord(t, "cards-refill.json")
	r, err := NewReplayer(rec)
	if err != nil {
		t.Fatal(err)
	}
	for range 9 { // through Anna's take of 9 and 5
		if err := r.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var shown []string
	for _, c := range r.Game().st.Display {
		shown = append(shown, c.String())
	}
	if want := []string{"B7", "R7", "G6", "Y8"}; !slices.Equal(shown, want) {
		t.Fatalf("display after the take %v, want %v", shown, want)
	}
	g, err := Replay(rec)
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	if ben := g.Sheet(1).Rows[Blue]; !ben.Crossed(Position(Blue, 12)) || !ben.Crossed(Position(Blue, 7)) {
		t.Fatal("Ben's blue 12 and 7 are not crossed")
	}
}

// Issue: a number repeated in a play's cross ([9, 9] with one blue 9) was
// accepted silently and crossed once, though a typo must never pass
// silently. It is an illegal step, reported with its position.
func TestC6RecordRepeatedCrossRefused(t *testing.T) {
	data, err := os.ReadFile("testdata/records/cards-refill.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), `"cards": ["B7"], "cross": [7]`, `"cards": ["B7"], "cross": [7, 7]`, 1)
	rec, err := ParseRecord([]byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Replay(rec)
	if err == nil || !strings.Contains(err.Error(), "7 twice") || !strings.Contains(err.Error(), "16") {
		t.Fatalf("replay of a cross listing 7 twice: %v; want the step (move 16) and the number named", err)
	}
}

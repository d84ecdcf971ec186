package session

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the file testdata/name, or rewrites the file
// under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed:\ngot  %s\nwant %s", name, got, want)
	}
}

// storedTable is a playing table with every field of what its surfaces
// show filled (fill), and an earlier version's message fields.
func storedTable(t *testing.T) *Table {
	t.Helper()
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}, Seed: [32]byte{7}})
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{
		ID: "t1", GuildID: "g1", ChannelID: "c1", Host: "u1", Variant: game.Dice, Games: 2,
		Seats:    []Seat{{UserID: "u1", Name: "Anna"}, {UserID: "u2", Name: "Ben", Left: true}},
		MaxSeats: 4, NoHints: true, Interactions: true, Stage: StagePlaying, Lang: "de",
		Created: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), Game: g,
		Match:    &game.Match{Players: []string{"Anna", "Ben"}, Games: 2, Results: [][]int{{3, 4}}},
		Deadline: time.Date(2026, 11, 27, 12, 5, 0, 0, time.UTC), Reminded: true,
		RemindAt: time.Date(2026, 11, 27, 12, 4, 0, 0, time.UTC), Seq: 5, GameNo: 2,
		News: []News{{Turn: 1, Event: NewsMisthrow, Seat: 1, N: 2}},
	}
	tb.LobbyMessage, tb.TableMessage, tb.Posted = "m-lobby", "m-table", 3
	fill(t, reflect.ValueOf(&tb.Shown).Elem(), 0)
	return tb
}

// TestStoredTableJSONGolden: the stored form of a table (its JSON, then
// its game's snapshot) is fixed by a golden file, surfaces and an earlier
// version's message fields included, and reads back into what was
// stored, byte for byte when written again.
func TestStoredTableJSONGolden(t *testing.T) {
	tb := storedTable(t)
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	head, snapshot, ok := bytes.Cut(blob, []byte{'\n'})
	if !ok || len(snapshot) == 0 {
		t.Fatalf("no snapshot after the table's JSON: %q", blob)
	}
	golden(t, "table.json", append(head, '\n'))

	back, err := Decode(blob)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Shown, tb.Shown) {
		t.Errorf("shown read back as\n%+v\nwant\n%+v", back.Shown, tb.Shown)
	}
	if back.LobbyMessage != "m-lobby" || back.TableMessage != "m-table" || back.Posted != 3 {
		t.Errorf("earlier version's fields read back as %q %q %d", back.LobbyMessage, back.TableMessage, back.Posted)
	}
	again, err := back.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, blob) {
		t.Errorf("written again, the table differs:\n%s\nwant\n%s", again, blob)
	}
}

// TestStoredTableEarlierVersionGolden: a table stored by an earlier
// version (its game inside the JSON, the table message kept as
// table_message and posted, no stamp position) still decodes, and is
// written in today's form as the golden file fixes it.
func TestStoredTableEarlierVersionGolden(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "table-earlier.json"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Game == nil || tb.TableMessage != "m-table" || tb.Posted != 4 || tb.LobbyMessage != "m-lobby" {
		t.Errorf("decoded as game %v, table message %q posted %d, lobby message %q",
			tb.Game != nil, tb.TableMessage, tb.Posted, tb.LobbyMessage)
	}
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := bytes.Cut(blob, []byte{'\n'})
	golden(t, "table-earlier.golden", append(head, '\n'))
}

package store

import (
	"errors"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// A game saved twice (a crash between saving and answering, then the same
// game saved again) keeps one result, replaced in place.
func TestSaveGameTwiceKeepsOneResult(t *testing.T) {
	s := openWith(t)
	g, rec := playedGame(t, game.Dice, []string{"Anna", "Ben"}, 3)
	at := time.Now().UTC().Truncate(time.Second).Add(500 * time.Microsecond) // below the result's millisecond
	r := resultOf("g1", "tbl-1", at, game.Dice, g, []string{"a", "b"})
	old := simpleResult("g1", -5, 10, 20)
	old.Time = at.Add(-time.Hour)
	if err := s.SaveGame(old, nil); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.SaveGame(r, rec); err != nil {
			t.Fatal(err)
		}
	}
	rs := must(s.Results("g1", 0))
	if got := gameIDs(rs); len(got) != 2 || got[0] != "tbl-1" || got[1] != "game--5" {
		t.Fatalf("results %v, want [tbl-1 game--5]", got)
	}
	if n := len(must(s.Records("g1", 0))); n != 1 {
		t.Fatalf("%d records, want 1", n)
	}
}

// UpdateSaving writes the channel's value and the finished game together,
// and neither when fn fails or writes nothing.
func TestUpdateSavingAtomic(t *testing.T) {
	s := openWith(t)
	g, rec := playedGame(t, game.Cards, []string{"Anna", "Ben", "Bot Emma"}, 4)
	r := resultOf("g1", "tbl-1", time.Now().UTC(), game.Cards, g, []string{"a", "b", ""})
	games := []Finished{{Result: r, Record: rec}}
	boom := errors.New("boom")
	if err := s.UpdateSaving("ch", games, func([]byte, bool) ([]byte, bool, error) { return nil, false, boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if err := s.UpdateSaving("ch", games, func([]byte, bool) ([]byte, bool, error) { return nil, false, nil }); err != nil {
		t.Fatal(err)
	}
	if rs := must(s.Results("g1", 0)); len(rs) != 0 {
		t.Fatalf("%d results saved without a write of the table", len(rs))
	}
	if err := s.UpdateSaving("ch", games, func([]byte, bool) ([]byte, bool, error) { return []byte("over"), false, nil }); err != nil {
		t.Fatal(err)
	}
	blob, ok, err := s.Get("ch")
	if err != nil || !ok || string(blob) != "over" {
		t.Fatalf("table %q %v %v", blob, ok, err)
	}
	rs := must(s.Results("g1", 0))
	if len(rs) != 1 || rs[0].GameID != "tbl-1" || rs[0].Seats[2].Computer != true {
		t.Fatalf("results %+v", rs)
	}
	gr, ok, err := s.Record("g1", "tbl-1")
	if err != nil || !ok || gr.Users[0] != "a" {
		t.Fatalf("record %+v %v %v", gr, ok, err)
	}
	if _, err := game.ParseRecord(gr.JSON); err != nil {
		t.Fatal(err)
	}
}

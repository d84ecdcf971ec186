package session

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot/session/surface"
	"github.com/qwixxbot/qwixxbot/game"
)

// midGameBlob is where the stored form of a realistic mid-game table lies
// for the store's benchmarks (store/sessiondb), which may not import this
// package: 3 players, dice and cards, 40 moves in.
var midGameBlob = filepath.Join("..", "..", "store", "sessiondb", "testdata", "midgame-table.blob")

// midGameTable is a table of 3 players, dice and cards, 40 moves into its
// game, with what the channel shows filled as the bot fills it.
func midGameTable(t testing.TB) *Table {
	t.Helper()
	g, err := game.New(game.Config{Variant: game.Cards, Players: []string{"Anna", "Ben", "Chris"}, Seed: [32]byte{9}})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		w := g.Waiting()
		ms := g.LegalMoves(w[r.IntN(len(w))])
		if err := g.Apply(ms[r.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tb := &Table{
		ID: "1311458812345678901", GuildID: "1311000000000000001", ChannelID: "1311000000000000002", Host: "1311000000000000010",
		Variant: game.Cards, Games: 1, Stage: StagePlaying, Lang: "en", Interactions: true, Created: at, Game: g,
		Seats: []Seat{{UserID: "1311000000000000010", Name: "Anna"}, {UserID: "1311000000000000011", Name: "Ben"},
			{UserID: "1311000000000000012", Name: "Chris"}},
		MaxSeats: 5, Deadline: at.Add(5 * time.Minute), RemindAt: at.Add(4 * time.Minute), Seq: 41, GameNo: 1,
		News: []News{{Turn: g.Turn(), Event: NewsPlayed, Seat: 1, Cards: []string{"r5", "r6"}}, {Turn: g.Turn(), Event: NewsMisthrow, Seat: 2, N: 1}},
		Shown: surface.Shown{
			Msg: "1311458899999999001", Turn: "game.1.14.1", Rev: "a81f09c3d2e4b5f6", Pic: "77c0e1d2f3a4b5c6", Att: "1311458899999999777",
			Token: &surface.Token{ID: "1311458899999999500", App: "1311000000000000999", At: at.Add(3 * time.Minute), Budget: 4,
				Value: "aW50ZXJhY3Rpb246MTMxMTQ1ODg5OTk5OTk5OTUwMDp2Z0JzT3JQcU1uTGtKaUhnRmVEY0JhWnlYd1Z1VHNScVBvTm1MaktqSWhHZkVkQ2JBOXg3djVyM3AxbjBsOWo3aDVmM2QxYjB6OHk2eDR3MnYwdTh0NnI0cDJuMGw="},
			MsgBy: "1311458899999999500",
			Past:  []PastTurn{{Msg: "1311458899999998001", Line: "Turn 13: Ben played red 5, red 6."}},
			At:    at.Add(2 * time.Minute), Stamp: 41, Edited: at.Add(3 * time.Minute),
		},
	}
	return tb
}

// TestMidGameBlob: the stored mid-game table the store's benchmarks save
// (testdata of store/sessiondb) is one this package reads: a cards game of
// 3 players under way. "go test ./bot/session -run MidGameBlob -update"
// writes it again.
func TestMidGameBlob(t *testing.T) {
	if *update {
		blob, err := midGameTable(t).Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(midGameBlob, blob, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	blob, err := os.ReadFile(midGameBlob)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	tb, err := Decode(blob)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Game == nil || tb.Game.Over() || len(tb.Game.Players()) != 3 || tb.Variant != game.Cards || tb.Game.Turn() < 5 {
		t.Fatalf("the stored mid-game table decodes as game %v variant %v", tb.Game != nil, tb.Variant)
	}
	t.Logf("%d bytes", len(blob))
}

// Encode writes the table's JSON (json.Marshal's, without the snapshot), a
// newline and its game's snapshot (MarshalBinary's), in one buffer whose
// snapshot part Snapshot then is, capped so that nothing appended to it
// shows in the stored bytes; a table without a game keeps the snapshot it
// has. Checked for a mid-game table as it is saved move after move.
func TestEncodeIsJSONThenSnapshot(t *testing.T) {
	tb := midGameTable(t)
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		blob, err := tb.Encode()
		if err != nil {
			t.Fatal(err)
		}
		snapshot, err := tb.Game.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		plain := *tb
		plain.Snapshot = nil
		head, err := json.Marshal(&plain)
		if err != nil {
			t.Fatal(err)
		}
		want := append(append(head, '\n'), snapshot...)
		if !bytes.Equal(blob, want) {
			t.Fatalf("encoded as\n%s\nwant\n%s", blob, want)
		}
		if !bytes.Equal(tb.Snapshot, snapshot) || cap(tb.Snapshot) != len(tb.Snapshot) {
			t.Fatalf("Snapshot is %q (cap %d), want the snapshot written", tb.Snapshot, cap(tb.Snapshot))
		}
		_ = append(tb.Snapshot, "more"...)
		if !bytes.Equal(blob, want) {
			t.Fatal("appending to Snapshot changed the stored bytes")
		}
		w := tb.Game.Waiting()
		ms := tb.Game.LegalMoves(w[r.IntN(len(w))])
		if err := tb.Game.Apply(ms[r.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	tb.Game = nil
	kept := tb.Snapshot
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, after, _ := bytes.Cut(blob, []byte{'\n'}); !bytes.Equal(after, kept) {
		t.Fatalf("a table without a game wrote the snapshot %q, want %q", after, kept)
	}
}

// BenchmarkEncodeMidGame writes a mid-game table as the bot saves it (its
// game's moves' JSON kept from the save before).
func BenchmarkEncodeMidGame(b *testing.B) {
	tb := midGameTable(b)
	if _, err := tb.Encode(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tb.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCloneStoredMidGame copies a mid-game table, as the bot does
// for every read of a table it holds decoded.
func BenchmarkCloneStoredMidGame(b *testing.B) {
	tb := midGameTable(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = tb.CloneStored()
	}
}

package game

import (
	"encoding/json"
	"strings"
	"testing"
)

// playSome plays n moves of a seeded game of v, each the first legal move
// of the first waiting player.
func playSome(t testing.TB, v Variant, n int) *Game {
	t.Helper()
	g, err := New(Config{Variant: v, Players: []string{"Anna", "Ben", "Chloé"}, Seed: [32]byte{7}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n && !g.Over(); i++ {
		p := g.Waiting()[0]
		if err := g.Apply(g.LegalMoves(p)[0]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// Issue: a stored game with a valid checksum whose state contradicts its
// own move log was loaded and played. RestoreChecked replays the log and
// refuses such a state; Restore (for made-up positions, Determinize) still
// only checks the invariants.
func TestRestoreCheckedRefusesStateBehindItsLog(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			g := playSome(t, v, 40)
			data, err := g.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := RestoreChecked(data); err != nil {
				t.Fatalf("an honest game refused: %v", err)
			}
			var snap map[string]any
			json.Unmarshal(data, &snap)
			st := snap["state"].(map[string]any)
			sheet := st["sheets"].([]any)[2].(map[string]any)
			sheet["misthrows"] = sheet["misthrows"].(float64) + 1 // a misthrow nobody took
			bad, _ := json.Marshal(snap)
			if _, err := Restore(bad); err != nil {
				t.Fatalf("Restore checks only the invariants, which hold: %v", err)
			}
			if _, err := RestoreChecked(bad); err == nil || !strings.Contains(err.Error(), "not where its move log leads") {
				t.Fatalf("RestoreChecked took a state its log does not lead to: %v", err)
			}
		})
	}
	// A game a record scripts (its dice still to come) is checked without
	// what is still to come.
	g := playSome(t, Dice, 10)
	rec := g.Record()
	h, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := h.MarshalBinary()
	if _, err := RestoreChecked(data); err != nil {
		t.Fatalf("a replayed game refused: %v", err)
	}
}

// BenchmarkRestoreChecked measures what the log check adds to loading a
// stored game (Restore against RestoreChecked, a card game of 5 players
// near its end).
func BenchmarkRestoreChecked(b *testing.B) {
	g, err := New(Config{Variant: Jokers, Players: []string{"A", "B", "C", "D", "E"}, Seed: [32]byte{3}})
	if err != nil {
		b.Fatal(err)
	}
	for !g.Over() && len(g.st.Log.Moves) < 400 {
		if err := g.Apply(g.LegalMoves(g.Waiting()[0])[0]); err != nil {
			b.Fatal(err)
		}
	}
	data, _ := g.MarshalBinary()
	b.Run("Restore", func(b *testing.B) {
		for b.Loop() {
			if _, err := Restore(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RestoreChecked", func(b *testing.B) {
		for b.Loop() {
			if _, err := RestoreChecked(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package game

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"reflect"
	"testing"
)

// observed is what the invariants compare between two states.
type observed struct {
	sheets []Sheet
	closed [NumColors]bool
	turn   int
}

func observe(g *Game) observed {
	return observed{sheets: append([]Sheet(nil), g.st.Sheets...), closed: g.st.Closed, turn: g.st.Turn}
}

// scoreOf recomputes a sheet's score independently of Sheet.Score.
func scoreOf(s Sheet) int {
	total := 0
	for _, r := range s.Rows {
		n := bits.OnesCount16(uint16(r))
		for i := 1; i <= n; i++ {
			total += i
		}
	}
	return total - 5*s.Misthrows
}

// checkInvariants checks one legal step from before to g.
func checkInvariants(t testing.TB, before observed, g *Game, m Move) {
	t.Helper()
	if err := g.Validate(); err != nil {
		t.Fatalf("after %v: %v", m, err)
	}
	pv := g.Public()
	for p, s := range g.st.Sheets {
		old := before.sheets[p]
		for c, r := range s.Rows {
			o := old.Rows[c]
			if r&o != o {
				t.Fatalf("after %v: player %d %s row lost crosses: %b -> %b", m, p, Color(c), o, r)
			}
			if r.Last() < o.Last() {
				t.Fatalf("after %v: crosses moved left", m)
			}
			// Crosses only move right: nothing new left of the old last cross.
			if added := r &^ o; added != 0 && o.Last() >= 0 && bits.TrailingZeros16(uint16(added)) <= o.Last() {
				t.Fatalf("after %v: player %d crossed %s left of the last cross", m, p, Color(c))
			}
		}
		if s.Misthrows < old.Misthrows {
			t.Fatalf("misthrows went down")
		}
		if s.Misthrows > old.Misthrows && p != m.Player {
			t.Fatalf("after %v: player %d who did not move got a misthrow", m, p)
		}
		if got, want := pv.Players[p].Score, scoreOf(s); got != want {
			t.Fatalf("score %d does not recompute from the sheet (%d)", got, want)
		}
	}
	for c, cl := range before.closed {
		if cl && !g.st.Closed[c] {
			t.Fatalf("locked row %s reopened", Color(c))
		}
	}
	if limit := 51*len(g.st.Players) + 1; g.st.Turn > limit {
		t.Fatalf("turn %d exceeds the bound %d", g.st.Turn, limit)
	}
}

// stateJSON is the game's persistent state without the generator.
func stateJSON(t testing.TB, g *Game) []byte {
	t.Helper()
	b, err := json.Marshal(g.st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkRoundTrip checks that save-then-restore gives an equal game that
// goes on with the same chance outcomes.
func checkRoundTrip(t testing.TB, g *Game) {
	t.Helper()
	data, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Restore(data)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if !bytes.Equal(stateJSON(t, g), stateJSON(t, h)) {
		t.Fatal("restored state differs")
	}
	a, _ := g.src.MarshalBinary()
	b, _ := h.src.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("restored generator differs")
	}
}

// checkHiddenColours checks that changing the colour of a card in a hand
// (swapping it with a same-numbered card in the draw pile) changes nothing
// public (C10).
func checkHiddenColours(t testing.TB, g *Game) {
	t.Helper()
	if !g.st.Variant.CardGame() {
		return
	}
	data, _ := g.MarshalBinary()
	h, err := Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	swapped := false
	for p, hand := range h.st.Hands {
		for i, c := range hand {
			for j, d := range h.st.Draw {
				if j > 0 && d.Number() == c.Number() && d != c {
					h.st.Hands[p][i], h.st.Draw[j] = d, c
					swapped = true
					break
				}
			}
			if swapped {
				break
			}
		}
		if swapped {
			break
		}
	}
	if !swapped {
		return
	}
	if a, b := g.Public(), h.Public(); !reflect.DeepEqual(a, b) {
		t.Fatalf("the public view depends on a hidden hand colour:\n%+v\n%+v", a, b)
	}
}

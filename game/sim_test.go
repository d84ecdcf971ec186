package game

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

func seed(n uint64) [32]byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], n)
	return s
}

var names = []string{"Anna", "Ben", "Cleo", "Dan", "Emma"}

// playRandom plays a whole game with uniformly random legal moves, calling
// each after every move with the state observed before it.
func playRandom(t testing.TB, v Variant, players int, s uint64, each func(before observed, g *Game, m Move)) *Game {
	g, err := New(Config{Variant: v, Players: names[:players], Seed: seed(s)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(s, 99))
	var buf []Move
	for steps := 0; !g.Over(); steps++ {
		if steps > maxSteps {
			t.Fatalf("%s game with seed %d did not end in %d moves", v, s, maxSteps)
		}
		w := g.Waiting()
		p := w[r.IntN(len(w))]
		buf = g.AppendLegalMoves(buf[:0], p)
		if len(buf) == 0 {
			t.Fatalf("player %d may act but has no legal move (phase %s)", p, g.Phase())
		}
		m := buf[r.IntN(len(buf))]
		var before observed
		if each != nil {
			before = observe(g)
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("legal move %v refused: %v", m, err)
		}
		if each != nil {
			each(before, g, m)
		}
	}
	return g
}

// maxSteps bounds a game's moves: at most 51n+1 turns (each turn the active
// player crosses one of their 48 boxes or takes one of 4 misthrows) of at
// most n+2 moves.
const maxSteps = (51*MaxPlayers + 1) * (MaxPlayers + 2)

// checkRecord checks that the game's record survives JSON and replays to
// the same state.
func checkRecord(t testing.TB, g *Game) {
	t.Helper()
	data, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseRecord(data)
	if err != nil {
		t.Fatalf("parse own record: %v", err)
	}
	h, err := Replay(rec)
	if err != nil {
		t.Fatalf("replay own record: %v\n%s", err, data)
	}
	if !bytes.Equal(stateJSON(t, g), stateJSON(t, h)) {
		t.Fatalf("replayed state differs from the game")
	}
}

// TestSimulation plays 10,000 random games of each variant (2–5 players,
// cycling) and checks the invariants on every state, and persistence, the
// record and hidden colours on many. Each variant's games are split into
// chunks that run as parallel subtests (the same games, seeds and checks as
// one loop; the end reasons are counted over all of a variant's chunks).
//
// Under the race detector it plays every raceStride-th of those games (the
// same games, seeds and checks: 2,000 per variant): each game runs on one
// goroutine and shares nothing with the others but the package's read-only
// tables, so the race detector has nothing more to find in the 10,000th
// game than in the 20th, while it makes every game about 8 times slower.
// With -short it plays every shortStride-th game, both ends included.
// All 10,000 are played without -race (CI runs that too: see .ci/run).
// A stride rather than a prefix keeps games that end by locks in the
// jokers variant (only 6 of its 10,000 do; 6645 and 6720 are in the
// stride).
func TestSimulation(t *testing.T) {
	const shortStride = 15
	games, stride := 10000, 1
	if raceEnabled {
		stride = raceStride
	}
	if testing.Short() {
		// Every 15th game: about 670 of each variant, still including the
		// two jokers games that end by locks (6645 and 6720, both
		// multiples of 15), so the end-reason check below holds.
		stride = shortStride
	}
	const chunks = 8
	per := (games + chunks - 1) / chunks
	for _, v := range []Variant{Dice, Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			ends := map[End]int{}
			// Runs once every chunk is done: both ways to end must occur in
			// random play.
			t.Cleanup(func() {
				if t.Failed() {
					return
				}
				if ends[EndLocks] == 0 || ends[EndMisthrows] == 0 {
					t.Errorf("end reasons %v: both locks and misthrows should end some games", ends)
				}
			})
			for lo := 0; lo < games; lo += per {
				hi := min(lo+per, games)
				t.Run(fmt.Sprintf("%d-%d", lo, hi-1), func(t *testing.T) {
					t.Parallel()
					mine := map[End]int{}
					for i := lo; i < hi; i++ {
						if i%stride == 0 {
							simulate(t, v, i, mine)
						}
					}
					mu.Lock()
					defer mu.Unlock()
					for e, n := range mine {
						ends[e] += n
					}
				})
			}
		})
	}
}

// raceStride: under the race detector TestSimulation plays game i only if
// i%raceStride == 0.
const raceStride = 5

// simulate plays random game i of the variant with every check, and counts
// its end reason.
func simulate(t *testing.T, v Variant, i int, ends map[End]int) {
	n := 2 + i%4
	step := 0
	g := playRandom(t, v, n, uint64(i), func(before observed, g *Game, m Move) {
		checkInvariants(t, before, g, m)
		if step++; step%16 == 0 && i%8 == 0 {
			checkRoundTrip(t, g)
			checkHiddenColours(t, g)
		}
	})
	ends[g.EndReason()]++
	if i%10 == 0 {
		checkRecord(t, g)
		checkRoundTrip(t, g)
	}
	if len(g.Winners()) == 0 {
		t.Fatal("no winner")
	}
}

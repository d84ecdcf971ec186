package ai

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// The solo table's first state is the published optimum of the solo dice
// game: 115.48 expected points (bmhowe34/qwixx-gen-single-opt).
func TestSoloTableStartIsThePublishedOptimum(t *testing.T) {
	if got := soloTable().at([4]uint8{}, 0); math.Abs(got-115.48) > 0.05 {
		t.Fatalf("solo table at the start: %.3f, want 115.48", got)
	}
}

// checkBellman checks stored values (want) against one step of backward
// induction from the stored values of their successors (after), at
// random states: a table that was not built by this code, or was
// corrupted, fails. of picks the checked value from the step's
// expectation and second moment.
func checkBellman(t *testing.T, name string, want func(rows [4]uint8, m int) float64, after func(rows [4]uint8, m int) (float32, float32), of func(v, s float64) float64, tol float64) {
	b := &builder{after: after}
	w := &soloWorker{b: b}
	r := rand.New(rand.NewPCG(7, 11))
	checked := 0
	for checked < 1500 {
		rows, m := quadRows(int32(r.IntN(quads))), r.IntN(4)
		if lockedRows(rows) >= 2 {
			continue
		}
		checked++
		v, s := w.solo(rows, m)
		if got, want := of(float64(v), float64(s)), want(rows, m); math.Abs(got-want) > tol {
			t.Fatalf("%s: state %v with %d misthrows holds %.3f, one step from its successors gives %.3f", name, rows, m, want, got)
		}
	}
}

func mean(v, _ float64) float64 { return v }

func TestTablesHoldBackwardInduction(t *testing.T) {
	solo := soloTable()
	checkBellman(t, "solo", solo.at, func(rows [4]uint8, m int) (float32, float32) { return float32(solo.at(rows, m)), 0 }, mean, 0.05)
	for name, set := range map[string]duoSet{"duo": duoV1(), "hard duo": duoHard()} {
		duo := afterOwn(set)
		checkBellman(t, name, set.before.at, func(rows [4]uint8, m int) (float32, float32) { return float32(duo.at(rows, m)), 0 }, mean, 0.05)
	}
}

// The spread table holds the standard deviation of hard's duo table's
// points still to come under that table's play: one step of backward
// induction of the second moment from the stored expectations and
// spreads of the successors gives the stored spread.
func TestHardDuoSpreadHoldsBackwardInduction(t *testing.T) {
	set := duoHard()
	duo := afterOwn(set)
	after := func(rows [4]uint8, m int) (float32, float32) {
		v, s := duo.moments(rows, m)
		return float32(v), float32(s)
	}
	sd := func(v, s float64) float64 { return math.Sqrt(max(0, s-v*v)) }
	// Wider than for the expectations: where two choices are nearly as
	// good, the step's play (from stored, rounded expectations) may
	// take the other one, of another spread (over 3,000 states the
	// median difference is 0.008, the largest 0.13).
	checkBellman(t, "hard duo spread", set.spread.at, after, sd, 0.25)
}

// The symmetries the tables rely on: red and yellow swap, green and blue
// swap, and the two pairs swap, without changing a state's value.
func TestTableSymmetries(t *testing.T) {
	tab := soloTable()
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		var rows [4]uint8
		for i := range rows {
			rows[i] = uint8(r.IntN(rowStates))
		}
		m := r.IntN(4)
		v := tab.at(rows, m)
		for _, o := range [][4]uint8{{rows[1], rows[0], rows[2], rows[3]}, {rows[0], rows[1], rows[3], rows[2]}, {rows[2], rows[3], rows[0], rows[1]}} {
			if tab.at(o, m) != v {
				t.Fatalf("%v and %v differ", rows, o)
			}
		}
	}
}

func TestDecodeTableRefusesBadBytes(t *testing.T) {
	good := soloData
	for name, data := range map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("qwixx-values-9\n"), good[len(tableMagic):]...),
		"checksum":  flip(good, len(tableMagic)+5),
		"truncated": good[:len(good)/2],
		"count":     append(append(append([]byte{}, tableMagic...), 1, 0, 0, 0), good[len(tableMagic)+4:]...),
		"flipped":   flip(good, len(good)/3),
	} {
		if _, err := decodeTable(data); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	if _, err := decodeTable(bytes.Clone(good)); err != nil {
		t.Fatal(err)
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0xff
	return c
}

// expectMax against every throw of the four colour dice: the expectation
// of the best value, and the second moment of the choice that is best.
func TestExpectMaxMatchesEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 200 {
		var h, hs [4][6]float32
		perm := r.Perm(24) // distinct values: the best choice is unique
		for j := range h {
			for d := range h[j] {
				h[j][d] = float32(perm[j*6+d]) + 0.5
				if r.IntN(5) == 0 {
					h[j][d] = float32(math.Inf(-1))
				}
				hs[j][d] = float32(r.IntN(400))
			}
		}
		c, cs := float32(r.IntN(24)), float32(r.IntN(400))
		var e, e2 float64
		for d0 := range 6 {
			for d1 := range 6 {
				for d2 := range 6 {
					for d3 := range 6 {
						best, bs := c, cs
						for j, d := range [4]int{d0, d1, d2, d3} {
							if h[j][d] > best {
								best, bs = h[j][d], hs[j][d]
							}
						}
						e += float64(best) / 1296
						e2 += float64(bs) / 1296
					}
				}
			}
		}
		got, got2 := expectMax(c, cs, &h, &hs)
		if math.Abs(float64(got)-e) > 1e-3 || math.Abs(float64(got2)-e2) > 1e-2 {
			t.Fatalf("expectMax gives %.4f and %.4f, enumeration %.4f and %.4f", got, got2, e, e2)
		}
	}
}

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

// checkBellman checks stored values against one step of backward
// induction from the stored values of their successors, at random states:
// a table that was not built by this code, or was corrupted, fails.
func checkBellman(t *testing.T, name string, tab *valueTable, after func(rows [4]uint8, m int) float32) {
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
		want := tab.at(rows, m)
		if got := float64(w.solo(rows, m)); math.Abs(got-want) > 0.05 {
			t.Fatalf("%s: state %v with %d misthrows holds %.3f, one step from its successors gives %.3f", name, rows, m, want, got)
		}
	}
}

func TestTablesHoldBackwardInduction(t *testing.T) {
	solo := soloTable()
	checkBellman(t, "solo", solo, func(rows [4]uint8, m int) float32 { return float32(solo.at(rows, m)) })
	duo := afterOwn{duoTable()}
	checkBellman(t, "duo", duoTable(), func(rows [4]uint8, m int) float32 { return float32(duo.at(rows, m)) })
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

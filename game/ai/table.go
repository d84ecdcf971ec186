package ai

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// A sheet state, as the value tables see it, is the state of each row and
// the misthrows. A row's state is one of 57: empty; the position of its
// rightmost cross (0–9) with the number of its crosses; or locked (by
// anybody: a locked row gives no more points, and its crosses are already
// scored). The tables hold the points still to come, so two sheets that
// differ only in points already scored share a state.
const (
	rowStates = 57
	rowEmpty  = 0
	rowLocked = 56
	noRow     = 255
	lockPos   = 10 // the position of a row's rightmost number
	pairs     = rowStates * (rowStates + 1) / 2
	quads     = pairs * (pairs + 1) / 2
	// tableStates counts the states of a table: misthrows 0–3 times the
	// row states up to symmetry. Red and yellow are alike, so are green
	// and blue; and turning every die over (d → 7−d) maps the red and
	// yellow rows onto green and blue, so the two pairs may swap too.
	tableStates = 4 * quads
)

var (
	rowPos, rowCount [rowStates]int8
	// rowNext is a row's state after crossing position q, or noRow where
	// the cross is illegal (S2, S3); rowGain is the points it scores,
	// the lock's cross included (S4).
	rowNext [rowStates][lockPos + 1]uint8
	rowGain [rowStates][lockPos + 1]uint8
	// rowIndex is the state of a row with its rightmost cross at p and c
	// crosses.
	rowIndex [lockPos][lockPos + 2]uint8
	// rowKey grows with every cross: the table is filled by falling key.
	rowKey  [rowStates]int
	pairOf  [rowStates][rowStates]int32 // a ≤ b
	pairRow [pairs][2]uint8
)

func init() {
	s := 1
	for p := 0; p < lockPos; p++ {
		for c := 1; c <= p+1; c++ {
			rowPos[s], rowCount[s] = int8(p), int8(c)
			rowKey[s] = p + 1 + c
			rowIndex[p][c] = uint8(s)
			s++
		}
	}
	rowPos[rowEmpty] = -1
	rowPos[rowLocked], rowCount[rowLocked] = lockPos, 0
	rowKey[rowLocked] = 30
	find := func(p, c int) uint8 {
		for s := 1; s < rowLocked; s++ {
			if int(rowPos[s]) == p && int(rowCount[s]) == c {
				return uint8(s)
			}
		}
		panic("ai: no row state")
	}
	for s := 0; s < rowStates; s++ {
		for q := 0; q <= lockPos; q++ {
			rowNext[s][q] = noRow
			p, c := int(rowPos[s]), int(rowCount[s])
			switch {
			case s == rowLocked || q <= p:
			case q == lockPos:
				if c >= 5 {
					rowNext[s][q] = rowLocked
					rowGain[s][q] = uint8(2*c + 3) // the number and the lock
				}
			default:
				rowNext[s][q] = find(q, c+1)
				rowGain[s][q] = uint8(c + 1)
			}
		}
	}
	n := int32(0)
	for a := 0; a < rowStates; a++ {
		for b := a; b < rowStates; b++ {
			pairOf[a][b], pairOf[b][a] = n, n
			pairRow[n] = [2]uint8{uint8(a), uint8(b)}
			n++
		}
	}
}

// quadOf numbers an unordered pair of pairs.
func quadOf(x, y int32) int32 {
	if x > y {
		x, y = y, x
	}
	return x*pairs - x*(x-1)/2 + (y - x)
}

// stateIndex numbers rows (red, yellow, green, blue) with m misthrows.
func stateIndex(rows [4]uint8, m int) int {
	return m*quads + int(quadOf(pairOf[rows[0]][rows[1]], pairOf[rows[2]][rows[3]]))
}

func lockedRows(rows [4]uint8) int {
	n := 0
	for _, r := range rows {
		if r == rowLocked {
			n++
		}
	}
	return n
}

// posOf is the position of number n in row i (0, 1 ascending; 2, 3
// descending), as game.Position.
func posOf(i, n int) int {
	if i < 2 {
		return n - 2
	}
	return 12 - n
}

// A builder fills value tables by backward induction over sheet states:
// a, the points still to come before the throw of one's own turn; for
// the two-player game also p, before the throw of the other player's
// turn, in which one may only cross the white sum, and after which the
// game ends by the other's doing with probability hazard. Beside each
// expectation it keeps the second moment (a2, p2) of the same points
// under the same play: the choices maximize the expectation alone.
type builder struct {
	a, p, a2, p2 []float32
	hazard       func(rows [4]uint8, m int) float32
	// after, when set, gives the points still to come after one's own
	// turn, expectation and second moment, instead of a or p (the tests
	// check stored tables with it).
	after func(rows [4]uint8, m int) (float32, float32)
}

// val is the points still to come after one's own turn from rows with m
// misthrows, expectation and second moment: 0 once the game is over (D9).
func (b *builder) val(rows [4]uint8, m int) (float32, float32) {
	if m >= 4 || lockedRows(rows) >= 2 {
		return 0, 0
	}
	if b.after != nil {
		return b.after(rows, m)
	}
	i := stateIndex(rows, m)
	if b.p != nil {
		return b.p[i], b.p2[i]
	}
	return b.a[i], b.a2[i]
}

// own is the points still to come before one's own throw.
func (b *builder) own(rows [4]uint8, m int) (float32, float32) {
	if m >= 4 || lockedRows(rows) >= 2 {
		return 0, 0
	}
	i := stateIndex(rows, m)
	return b.a[i], b.a2[i]
}

// passive is the points still to come before the other player's throw.
func (w *soloWorker) passive(rows [4]uint8, m int) (float32, float32) {
	return whiteOnly(rows, m, 1-w.b.hazard(rows, m), w.b.own)
}

// then2 is the second moment of pts + X, where X has expectation v and
// second moment s: the points scored now and those still to come.
func then2(pts, v, s float32) float32 { return pts*pts + 2*pts*v + s }

// whiteOnly is the points still to come before a throw in which one may
// only cross the white sum in one row (D4; no misthrow, D6), keep being
// the chance that own (the points still to come before one's next own
// throw, expectation and second moment) counts; else the game ends. It
// returns the expectation and the second moment under the choices that
// maximize the expectation.
func whiteOnly(rows [4]uint8, m int, keep float32, own func([4]uint8, int) (float32, float32)) (float32, float32) {
	var total, total2 float32
	for ws := 2; ws <= 12; ws++ {
		v, s := own(rows, m)
		best, best2 := keep*v, keep*s
		for i := range 4 {
			q := posOf(i, ws)
			if next := rowNext[rows[i]][q]; next != noRow {
				r := rows
				r[i] = next
				pts := float32(rowGain[rows[i]][q])
				v, s := own(r, m)
				if x := pts + keep*v; x > best {
					best, best2 = x, pts*pts+keep*(2*pts*v+s)
				}
			}
		}
		p := float32(ways(ws)) / 36
		total += p * best
		total2 += p * best2
	}
	return total, total2
}

// soloWorker holds one goroutine's scratch space.
type soloWorker struct {
	b *builder
	// memo caches the value of an action 1 (key: 0 none, 1+row*11+sum-2)
	// followed by a colour cross (row, number) for the state at hand,
	// with its second moment (memo2), valid where gen matches.
	memo, memo2 [45][4][13]float32
	gen         [45][4][13]uint32
	cur         uint32
}

type option struct {
	key   int
	rows  [4]uint8
	pts   float32
	ends  bool
	value float32
	sec   float32 // the second moment of value's points
}

// solo is the expected points still to come in the solo game (one sheet,
// always active) before the throw of a turn, playing best, and their
// second moment under the same play.
func (w *soloWorker) solo(rows [4]uint8, m int) (float32, float32) {
	w.cur++
	var total, total2 float32
	var opts [5]option
	var h, hs [4][6]float32
	for w1 := 1; w1 <= 6; w1++ {
		for w2 := w1; w2 <= 6; w2++ {
			prob := float32(2.0 / 36)
			if w1 == w2 {
				prob = 1.0 / 36
			}
			ws := w1 + w2
			// Action 1: nothing (a misthrow unless action 2 crosses) or
			// the white sum in one row.
			n := 0
			mis, mis2 := float32(-5), float32(25)
			if m+1 < 4 {
				v, s := w.b.val(rows, m+1)
				mis += v
				mis2 = then2(-5, v, s)
			}
			opts[n] = option{key: 0, rows: rows, value: mis, sec: mis2}
			n++
			for i := range 4 {
				next := rowNext[rows[i]][posOf(i, ws)]
				if next == noRow {
					continue
				}
				o := option{key: 1 + i*11 + ws - 2, rows: rows, pts: float32(rowGain[rows[i]][posOf(i, ws)])}
				o.rows[i] = next
				o.ends = lockedRows(o.rows) >= 2
				v, s := w.b.val(o.rows, m)
				o.value = o.pts + v
				o.sec = then2(o.pts, v, s)
				opts[n] = o
				n++
			}
			c, cs := float32(math.Inf(-1)), float32(0)
			for _, o := range opts[:n] {
				if o.value > c {
					c, cs = o.value, o.sec
				}
			}
			// Action 2: white die + colour die d in row j, after action 1.
			for j := range 4 {
				for d := 1; d <= 6; d++ {
					best, best2 := float32(math.Inf(-1)), float32(0)
					for _, o := range opts[:n] {
						if o.ends {
							continue
						}
						for _, k := range [2]int{w1, w2} {
							if v, s, ok := w.then(o, m, j, k+d); ok && v > best {
								best, best2 = v, s
							}
						}
					}
					h[j][d-1], hs[j][d-1] = best, best2
				}
			}
			e, e2 := expectMax(c, cs, &h, &hs)
			total += prob * e
			total2 += prob * e2
		}
	}
	return total, total2
}

// then is the value of option o followed by crossing number t in row j,
// and its second moment.
func (w *soloWorker) then(o option, m, j, t int) (float32, float32, bool) {
	q := posOf(j, t)
	next := rowNext[o.rows[j]][q]
	if next == noRow {
		return 0, 0, false
	}
	if w.gen[o.key][j][t] == w.cur {
		return w.memo[o.key][j][t], w.memo2[o.key][j][t], true
	}
	rows := o.rows
	rows[j] = next
	pts := o.pts + float32(rowGain[o.rows[j]][q])
	v, s := w.b.val(rows, m)
	x := pts + v
	x2 := then2(pts, v, s)
	w.memo[o.key][j][t], w.memo2[o.key][j][t], w.gen[o.key][j][t] = x, x2, w.cur
	return x, x2, true
}

// expectMax is E[max(c, X0..X3)] for independent Xj, each uniform over
// h[j] (−Inf for an impossible choice), and the expected second moment of
// the choice that is the maximum: cs for c, hs[j][d] for h[j][d] (ties go
// to c, then to the value seen first).
func expectMax(c, cs float32, h, hs *[4][6]float32) (float32, float32) {
	type hit struct {
		v, s float32
		row  int
	}
	var vals [24]hit
	n := 0
	var below [4]int
	for j := range h {
		for d, v := range h[j] {
			if v > c {
				vals[n] = hit{v, hs[j][d], j}
				n++
			} else {
				below[j]++
			}
		}
	}
	if n == 0 {
		return c, cs
	}
	// insertion sort: at most 24 values
	for i := 1; i < n; i++ {
		for k := i; k > 0 && vals[k].v < vals[k-1].v; k-- {
			vals[k], vals[k-1] = vals[k-1], vals[k]
		}
	}
	// f is the chance that the maximum is among the values so far (c
	// and the hits before x): x is the maximum with the chance that f
	// grows by when x joins them.
	e, prev := c, c
	f := float32(below[0]*below[1]*below[2]*below[3]) / 1296
	e2 := f * cs
	for _, x := range vals[:n] {
		e += (x.v - prev) * (1 - f)
		prev = x.v
		below[x.row]++
		g := float32(below[0]*below[1]*below[2]*below[3]) / 1296
		e2 += (g - f) * x.s
		f = g
	}
	return e, e2
}

// build fills b's tables by falling key and falling misthrows, spreading
// each level over the CPUs.
func (b *builder) build() {
	byKey := make([][]int32, 4*rowKey[rowLocked]+1)
	for q := int32(0); q < quads; q++ {
		rows := quadRows(q)
		if lockedRows(rows) >= 2 {
			continue
		}
		k := 0
		for _, r := range rows {
			k += rowKey[r]
		}
		byKey[k] = append(byKey[k], q)
	}
	workers := runtime.GOMAXPROCS(0)
	for k := len(byKey) - 1; k >= 0; k-- {
		level := byKey[k]
		for m := 3; m >= 0; m-- {
			var next atomic.Int64
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := &soloWorker{b: b}
					for {
						i := int(next.Add(64)) - 64
						if i >= len(level) {
							return
						}
						for _, q := range level[i:min(i+64, len(level))] {
							rows := quadRows(q)
							i := m*quads + int(q)
							b.a[i], b.a2[i] = w.solo(rows, m)
							if b.p != nil {
								b.p[i], b.p2[i] = w.passive(rows, m)
							}
						}
					}
				}()
			}
			wg.Wait()
		}
	}
}

// quadRows is a representative of state q: rows red, yellow, green, blue.
func quadRows(q int32) [4]uint8 {
	// invert quadOf: find x with start(x) ≤ q < start(x+1)
	x := int32(0)
	lo, hi := int32(0), int32(pairs-1)
	for lo <= hi {
		mid := (lo + hi) / 2
		if mid*pairs-mid*(mid-1)/2 <= q {
			x, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	y := q - (x*pairs - x*(x-1)/2) + x
	a, b := pairRow[x], pairRow[y]
	return [4]uint8{a[0], a[1], b[0], b[1]}
}

// soloValues builds the solo table.
func soloValues() []float32 {
	b := &builder{a: make([]float32, tableStates), a2: make([]float32, tableStates)}
	b.build()
	return b.a
}

// duoValues builds the two-player tables before one's own throw: the
// expected points still to come (a) and their second moment (a2).
func duoValues(hazard func(rows [4]uint8, m int) float32) (a, a2 []float32) {
	b := &builder{hazard: hazard}
	for _, t := range []*[]float32{&b.a, &b.a2, &b.p, &b.p2} {
		*t = make([]float32, tableStates)
	}
	b.build()
	return b.a, b.a2
}

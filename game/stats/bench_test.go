package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// benchResults are n results of 2–5 of 40 players, one a minute.
func benchResults(n int) []Result {
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]Result, n)
	for j := range out {
		r := Result{Guild: "123456789012345678", GameID: fmt.Sprintf("987654321098765432/%d", j),
			Time: t0.Add(time.Duration(j) * time.Minute), Variant: Variants[j%3]}
		for k, p := range rng.Perm(40)[:2+rng.IntN(4)] {
			if k == 0 && rng.IntN(4) == 0 {
				r.Seats = append(r.Seats, Seat{Name: "🤖 Bot Emma (hard)", Computer: true, Score: rng.IntN(120) - 10})
				continue
			}
			r.Seats = append(r.Seats, Seat{UserID: fmt.Sprintf("1000000000000000%02d", p), Name: fmt.Sprintf("Player name %d", p), Score: rng.IntN(120) - 10})
		}
		out[j] = r
	}
	return out
}

// BenchmarkDecode10000 decodes a guild's 10,000 results.
func BenchmarkDecode10000(b *testing.B) {
	var enc [][]byte
	for _, r := range benchResults(10000) {
		v, err := r.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		enc = append(enc, v)
	}
	b.ReportAllocs()
	for b.Loop() {
		var dec Decoder
		out := make([]Result, 0, len(enc))
		for _, v := range enc {
			r, err := dec.Decode(v)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, r)
		}
		benchSink = out
	}
}

// benchSink keeps benchmark results alive.
var benchSink []Result

// BenchmarkLeaders10000 ranks a guild's 10,000 results.
func BenchmarkLeaders10000(b *testing.B) {
	rs := benchResults(10000)
	b.ReportAllocs()
	for b.Loop() {
		if board := Leaders(rs, LeaderboardOptions{}); board.Games != len(rs) {
			b.Fatal(board.Games)
		}
	}
}

package stats

import (
	"math"
	"testing"
)

// The vectors come from openskill 4.1.0 (npm, MIT), the reference
// implementation of the Weng-Lin models, called as
// rate(teams, {tau: 25/300, score}) with one player per team.
var plackettLuceVectors = []struct {
	name   string
	before []Rating
	scores []int
	after  []Rating
}{
	{"2 new players", []Rating{{25.000000000000000, 8.3333333333333339}, {25.000000000000000, 8.3333333333333339}}, []int{50, 30},
		[]Rating{{27.635389493140497, 8.0659014135436795}, {22.364610506859503, 8.0659014135436795}}},
	{"3 new players, tie for first", []Rating{{25.000000000000000, 8.3333333333333339}, {25.000000000000000, 8.3333333333333339}, {25.000000000000000, 8.3333333333333339}}, []int{10, 40, 40},
		[]Rating{{23.565475659625285, 8.2052433773979931}, {25.717262170187357, 8.2052433773979931}, {25.717262170187357, 8.2052433773979931}}},
	{"5 players, priors, tie in the middle", []Rating{{30.000000000000000, 2.0000000000000000}, {22.500000000000000, 6.0000000000000000}, {25.000000000000000, 8.3333333333333339}, {18.000000000000000, 1.5000000000000000}, {40.000000000000000, 4.0000000000000000}}, []int{12, 80, 45, 45, 3},
		[]Rating{{30.057682793118968, 2.0002704712531285}, {24.646865470823538, 5.9777099687671171}, {25.842391958940645, 8.1237585643061099}, {18.046245671756978, 1.5021672839283660}, {38.293035812186723, 3.9715733435730165}}},
	{"4 players all tied", []Rating{{28.000000000000000, 3.0000000000000000}, {25.000000000000000, 8.3333333333333339}, {21.000000000000000, 5.0000000000000000}, {25.000000000000000, 7.0000000000000000}}, []int{20, 20, 20, 20},
		[]Rating{{27.965703656249122, 2.9985469302765422}, {24.996378744672949, 8.1955328357683737}, {21.097828379373738, 4.9860160134616569}, {24.997444735642137, 6.9319106356325868}}},
	{"favourite loses", []Rating{{35.000000000000000, 1.2000000000000000}, {15.000000000000000, 7.0000000000000000}}, []int{-4, 61},
		[]Rating{{34.859328039544508, 1.2027672645537462}, {19.764455869333830, 6.8582202307920053}}},
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestRateMatchesOpenSkill(t *testing.T) {
	for _, tt := range plackettLuceVectors {
		t.Run(tt.name, func(t *testing.T) {
			got := Rate(tt.before, tt.scores)
			for i := range got {
				if !closeTo(got[i].Mu, tt.after[i].Mu) || !closeTo(got[i].Sigma, tt.after[i].Sigma) {
					t.Errorf("seat %d: got %+v, openskill gives %+v", i, got[i], tt.after[i])
				}
			}
		})
	}
}

// TestRateSequenceMatchesOpenSkill chains 30 games of 2–4 of 4 players;
// errors would add up.
func TestRateSequenceMatchesOpenSkill(t *testing.T) {
	games := []struct{ seats, scores []int }{
		{[]int{0, 1}, []int{25, 3}},
		{[]int{1, 2, 3}, []int{11, 11, 11}},
		{[]int{2, 3, 0, 1}, []int{3, 11, 19, -2}},
		{[]int{3, 0}, []int{18, 14}},
		{[]int{0, 1, 2}, []int{18, -2, 10}},
		{[]int{1, 2, 3, 0}, []int{30, 13, 21, 0}},
		{[]int{2, 3}, []int{3, -5}},
		{[]int{3, 0, 1}, []int{11, 11, 22}},
		{[]int{0, 1, 2, 3}, []int{18, -2, 26, 14}},
		{[]int{1, 2}, []int{18, -2}},
		{[]int{2, 3, 0}, []int{18, 6, 10}},
		{[]int{3, 0, 1, 2}, []int{6, 5, 3, 25}},
		{[]int{0, 1}, []int{15, -1}},
		{[]int{1, 2, 3}, []int{31, -1, 15}},
		{[]int{2, 3, 0, 1}, []int{34, 14, 26, 30}},
		{[]int{3, 0}, []int{34, -2}},
		{[]int{0, 1, 2}, []int{10, -2, -3}},
		{[]int{1, 2, 3, 0}, []int{-3, 8, 12, 8}},
		{[]int{2, 3}, []int{-4, 0}},
		{[]int{3, 0, 1}, []int{-4, 0, 12}},
		{[]int{0, 1, 2, 3}, []int{8, 28, 32, 4}},
		{[]int{1, 2}, []int{-5, 3}},
		{[]int{2, 3, 0}, []int{3, 3, 11}},
		{[]int{3, 0, 1, 2}, []int{11, -2, 10, 14}},
		{[]int{0, 1}, []int{2, 14}},
		{[]int{1, 2, 3}, []int{10, 30, 10}},
		{[]int{2, 3, 0, 1}, []int{6, 34, -2, 10}},
		{[]int{3, 0}, []int{-2, 34}},
		{[]int{0, 1, 2}, []int{14, 29, -3}},
		{[]int{1, 2, 3, 0}, []int{29, 29, -3, 29}},
	}
	want := []Rating{{24.074615409133660, 5.1047912039808017}, {27.294114354125021, 5.3710186802936022}, {25.964954453891671, 5.3711487581247459}, {22.336941185743324, 5.2554741999066152}}
	rs := []Rating{NewRating(), NewRating(), NewRating(), NewRating()}
	for _, g := range games {
		before := make([]Rating, len(g.seats))
		for j, p := range g.seats {
			before[j] = rs[p]
		}
		for j, r := range Rate(before, g.scores) {
			rs[g.seats[j]] = r
		}
	}
	for i := range rs {
		if !closeTo(rs[i].Mu, want[i].Mu) || !closeTo(rs[i].Sigma, want[i].Sigma) {
			t.Errorf("player %d: got %+v, openskill gives %+v", i, rs[i], want[i])
		}
	}
}

func TestRateEdges(t *testing.T) {
	one := []Rating{{Mu: 30, Sigma: 2}}
	if got := Rate(one, []int{5}); got[0] != one[0] {
		t.Errorf("a game of one changed the rating: %+v", got[0])
	}
	two := []Rating{NewRating(), NewRating()}
	got := Rate(two, []int{10, 20})
	if !(got[1].Mu > got[0].Mu) || math.Abs(got[0].Mu+got[1].Mu-2*InitialMu) > 1e-9 {
		t.Errorf("winner should gain what the loser loses: %+v", got)
	}
	if two[0] != NewRating() {
		t.Error("Rate changed its argument")
	}
	if NewRating().Ordinal() != 0 {
		t.Errorf("a new player's ordinal is %v, want 0", NewRating().Ordinal())
	}
}

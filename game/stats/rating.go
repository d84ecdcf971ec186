package stats

import "math"

// The rating model is the Plackett-Luce model of Weng and Lin's Bayesian
// approximation for online ranking (Weng, Lin, "A Bayesian Approximation
// Method for Online Ranking", JMLR 12, 2011, algorithm 4), as the OpenSkill
// libraries implement it, with their defaults: a new player starts at
// μ = 25, σ = 25/3; β = σ₀/2; κ = 0.0001; γ = σᵢ/c; and before each game
// every σ grows by τ = μ₀/300 (additive dynamics, so that ratings keep
// moving). Every seat is a team of one; equal scores are a tie. The tests
// check it against vectors from openskill (npm, 4.1.0, MIT) with the same
// options.
//
// No Go module of such a model was available from the module proxy this
// project uses (go-openskill, go-trueskill and the Glicko-2 modules were
// all absent), and the model is some 40 lines, so it is written here from
// the paper.
const (
	// InitialMu and InitialSigma are a new player's rating.
	InitialMu    = 25.0
	InitialSigma = InitialMu / 3
	// Z is how many σ the conservative estimate (Rating.Ordinal) lies
	// below μ: mu - 3σ, below which a player's skill lies with about 99.9 %
	// certainty.
	Z = 3.0

	beta  = InitialSigma / 2
	kappa = 0.0001
	tau   = InitialMu / 300
)

// Rating is a skill estimate: a normal distribution with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// NewRating is the rating of a player without games.
func NewRating() Rating { return Rating{Mu: InitialMu, Sigma: InitialSigma} }

// Ordinal is the conservative estimate Mu - Z·Sigma that leaderboards sort
// by: a player with few games has a large Sigma and so a low Ordinal, and
// climbs only by playing and doing well. A new player's is 0.
func (r Rating) Ordinal() float64 { return r.Mu - Z*r.Sigma }

// Rate returns the ratings after one game: ratings[i] is seat i's rating
// before it, scores[i] its final score (higher is better; equal is a tie).
// The slices have the same length; fewer than two seats change nothing.
func Rate(ratings []Rating, scores []int) []Rating {
	out := make([]Rating, len(ratings))
	rateInto(out, ratings, scores)
	return out
}

// rateInto is Rate writing into out (as long as ratings), without
// allocating for up to 8 seats.
func rateInto(out, ratings []Rating, scores []int) {
	n := len(ratings)
	copy(out, ratings)
	if n < 2 || len(scores) != n {
		return
	}
	var buf [4 * 8]float64 // zero, as the sums below need
	b := buf[:]
	if n > 8 {
		b = make([]float64, 4*n)
	}
	rateWith(out, ratings, scores, b[:4*n])
}

// rateWith does the work of rateInto with buf, 4·len(ratings) zeros, as
// its scratch space.
func rateWith(out, ratings []Rating, scores []int, buf []float64) {
	n := len(ratings)
	// Additive dynamics first (τ), as openskill's rate does with tau set.
	sig2, e, sumQ, a := buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n], buf[3*n:4*n]
	c2 := 0.0
	for i, r := range ratings {
		sig2[i] = r.Sigma*r.Sigma + tau*tau
		c2 += sig2[i] + beta*beta
	}
	c := math.Sqrt(c2)
	for i, r := range ratings {
		e[i] = math.Exp(r.Mu / c)
	}
	// better(q, i): q placed at least as well as i (rank_q <= rank_i).
	atLeast := func(q, i int) bool { return scores[q] >= scores[i] }
	// sumQ[q] is Σ e[i] over the i placed no better than q; a[q] how
	// many share q's place.
	for q := range n {
		for i := range n {
			if atLeast(q, i) {
				sumQ[q] += e[i]
			}
			if scores[i] == scores[q] {
				a[q]++
			}
		}
	}
	for i := range n {
		var omega, delta float64
		for q := range n {
			if !atLeast(q, i) {
				continue
			}
			p := e[i] / sumQ[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
			delta += p * (1 - p) / a[q]
		}
		sigma := math.Sqrt(sig2[i])
		gamma := sigma / c
		out[i].Mu = ratings[i].Mu + sig2[i]/c*omega
		out[i].Sigma = sigma * math.Sqrt(math.Max(1-sig2[i]/c2*gamma*delta, kappa))
	}
}

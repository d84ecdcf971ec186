//go:build experiments

package ai

// The measurements behind NOTES.md: they print figures and decide
// nothing, so they are built only with the tag experiments, by the tool
// cmd/qwixxlab (go run -tags experiments ./cmd/qwixxlab -h). They write
// to the writer they are given and read the clock they are given; the
// package stays free of I/O.

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// LabOptions are an experiment's inputs.
type LabOptions struct {
	// Games is the number of games (or seeds) to play; rank-hist plays
	// it per variant.
	Games int
	// Variant is the card variant of tune-heur, calib-judge, calib-sigma,
	// calib-fit and slow-decisions (Cards or Jokers); the dice
	// experiments play the dice game.
	Variant game.Variant
	// Search is the card search that tune-heur, rank-hist and
	// slow-decisions try: hard's own, changed by Set.
	Search cardSearch
	// Scale is scaled-duo's factor on hazard.
	Scale float64
	// Now reads the clock (slow-decisions).
	Now func() time.Time
}

// NewLabOptions are the options of games games of variant, with hard's
// card search changed by set, a comma-separated list of name=value over
// the names SearchKnobs lists (e.g. "endCap=3,heur.rate=1.7").
func NewLabOptions(games int, variant game.Variant, set string, scale float64, now func() time.Time) (LabOptions, error) {
	o := LabOptions{Games: games, Variant: variant, Search: hardSearch, Scale: scale, Now: now}
	knobs := o.Search.knobs()
	for kv := range strings.SplitSeq(set, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("ai lab: %q is not name=value", kv)
		}
		p, ok := knobs[name]
		if !ok {
			return o, fmt.Errorf("ai lab: no knob %q (knobs: %s)", name, strings.Join(SearchKnobs(), ", "))
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return o, fmt.Errorf("ai lab: knob %s: %w", name, err)
		}
		p.set(x)
	}
	return o, nil
}

// knob is one tunable field of a cardSearch.
type knob struct {
	f *float64
	i *int
}

func (k knob) set(x float64) {
	if k.f != nil {
		*k.f = x
	} else {
		*k.i = int(x)
	}
}

// knobs names cs's fields for NewLabOptions.
func (cs *cardSearch) knobs() map[string]knob {
	return map[string]knob{
		"candidates": {i: &cs.candidates}, "rollouts": {i: &cs.rollouts}, "rollouts2": {i: &cs.rollouts2},
		"marginWeight": {f: &cs.marginWeight}, "horizon": {f: &cs.horizon}, "sigmaScale": {f: &cs.sigmaScale},
		"opp": {i: &cs.opp}, "tempo": {f: &cs.tempo}, "sigmaA": {f: &cs.sigmaA}, "sigmaB": {f: &cs.sigmaB},
		"endG": {f: &cs.endG}, "endCap": {f: &cs.endCap}, "hands": {f: &cs.hands},
		"heur.winBonus": {f: &cs.heur.winBonus}, "heur.cardVal": {f: &cs.heur.cardVal},
		"heur.deadCard": {f: &cs.heur.deadCard}, "heur.lockExtra": {f: &cs.heur.lockExtra},
		"heur.misthrowGo": {f: &cs.heur.misthrowGo}, "heur.rate": {f: &cs.heur.rate},
		"heur.lockBonus": {f: &cs.heur.lockBonus}, "heur.length": {f: &cs.heur.length},
	}
}

// SearchKnobs lists the names NewLabOptions' set takes, sorted.
func SearchKnobs() []string {
	var cs cardSearch
	return slices.Sorted(func(yield func(string) bool) {
		for k := range cs.knobs() {
			if !yield(k) {
				return
			}
		}
	})
}

// Experiment is one measurement.
type Experiment struct {
	Name string
	// Prints says what it prints, and how long it takes.
	Prints string
	Run    func(w io.Writer, o LabOptions) error
}

// Experiments lists the measurements, by name.
var Experiments = []Experiment{
	{"tune-heur", `The heuristic with Search's tuning against the heuristic's own, two
players, Games seeds from 90001, each in both seatings; one line:
"TUNE {tuning} games N share S ± 95% margin M", the tuned side's win
share (ties half) and mean margin.`, labTuneHeur},
	{"rank-hist", `Which of the heuristic's ranks Search picks, seat 0 against hard-v1
over Games two-player games of each card variant; one line per variant:
the decisions, the mean number of legal moves and the histogram of the
picked move's rank (0: the heuristic's favourite, 11: 11th or lower).`, labRankHist},
	{"calib-judge", `How well variants of the search's judge (the weight of the hand,
the heuristic's rate, length and card value, a tempo bonus) predict
heuristic self-play, Games two-player games from seed 110001, at each
turn's start: per variant "CALIB name n rmse slope logloss s1.0:… s4.0:…",
the final margin's rmse, the least-squares slope and the win's log loss
of Φ(d/(σ·s)) for six scales s; for the base, the log loss by expected
turns left (buckets 0–3: ≤5, ≤10, ≤15, more).`, labCalibJudge},
	{"calib-sigma", `Fits the judge's spread σ = a + b·√(turns left) by log loss over the
positions of calib-judge: "SIG a b ll" for every pair of a grid, then
"SIGBEST a b ll".`, labCalibSigma},
	{"calib-fit", `Fits a linear judge of the final margin on 11 features (projection,
hand, crosses, free cells, misthrows, locks, products with the turns
left, tempo) on the first half of calib-judge's positions: "FIT beta
[…]", then the holdout rmse of the base judge, of 1.19 × base and of
the fit.`, labCalibFit},
	{"calib-dice", `The dice win estimate over Games games of hard self-play (two
players, seeds from 110001), at every turn's start from the second:
"CALIBDICE positions N", then the log loss of a normal final margin
with the crude spread (4 + points still to come) and with the spread
table at correlations 0, 0.3, 0.6, each at several scales.`, labCalibDice},
	{"hazard-dice", `The duo tables' hazard over Games games of hard self-play (two
players): per band of the waiting player's fill, "HAZARD x a-b turns T
ended E model M", the share of turns that ended the game against the
model's hazard.`, labHazardDice},
	{"hazard-by-other", `The chance that a turn ends the game over Games games of hard
self-play (two players, seeds from 110001), by the active player's
sheet ("HAZARD locked lockable three-misthrows turns ended") and by the
waiting player's fill ("HAZARD waiting fill a-b turns ended").`, labHazardByOther},
	{"misthrows-dice", `Hard against hard-v1 in the dice game, Games seeds from 90001 in both
seatings: per level, "MIS level end m=k games win", the win share by
misthrows at the end, and "MIS level voluntary to m=k ahead=a count
win", misthrows taken by passing with a cross at hand, by the count
reached and whether it was ahead then.`, labMisthrowsDice},
	{"slow-decisions", `Times Search's decisions over Games two-player games of Search against
itself (seeds from 50001): "N decisions, p99 D, mean D", then the ten
slowest with the turn, the legal moves, the expected turns left (below
endG play-outs run endCap turns) and the phase. Run with GOMAXPROCS=1.`, labSlowDecisions},
	{"scaled-duo", `Writes the duo table built with min(0.4, Scale × hazard), encoded as
the .tbl files are (binary: send it to a file), about three and a half
minutes on one core.`, labScaledDuo},
}

// / labTuneHeur: see Experiments ("tune-heur").
func labTuneHeur(w io.Writer, o LabOptions) error {
	n, variant := o.Games, o.Variant
	seed0 := uint64(90001)
	wins, games := 0.0, 0
	diff := 0.0
	buf := make([]game.Move, 0, 64)
	for i := range n {
		for r := range 2 { // r: seat of the tuned player
			g, err := twoPlayerGame(variant, seed0+uint64(i))
			if err != nil {
				return err
			}
			for !g.Over() {
				p := g.Waiting()[0]
				buf = g.AppendLegalMoves(buf[:0], p)
				v := g.Private(p)
				hp := &heurBase
				if p == r {
					hp = &o.Search.heur
				}
				if err := g.Apply(heuristicChoiceP(&v, buf, hp)); err != nil {
					return err
				}
			}
			a, b := g.Sheet(r).Score(), g.Sheet(1-r).Score()
			switch {
			case a > b:
				wins++
			case a == b:
				wins += 0.5
			}
			diff += float64(a - b)
			games++
		}
	}
	sh := wins / float64(games)
	fmt.Fprintf(w, "TUNE %+v games %d share %.4f ± %.4f margin %.2f\n", o.Search.heur, games, sh, 1.96*math.Sqrt(sh*(1-sh)/float64(games)), diff/float64(games))
	return nil
}

// labRankHist: see Experiments ("rank-hist").
func labRankHist(w io.Writer, o LabOptions) error {
	for _, variant := range []game.Variant{game.Cards, game.Jokers} {
		hist := make([]int, 12)
		nlegal := 0
		dec := 0
		buf := make([]game.Move, 0, 64)
		for i := range o.Games {
			var s [32]byte
			s[0] = byte(i + 7)
			g, err := game.New(game.Config{Variant: variant, Players: []string{"a", "b"}, Seed: s})
			if err != nil {
				return err
			}
			for !g.Over() {
				p := g.Waiting()[0]
				buf = g.AppendLegalMoves(buf[:0], p)
				v := g.Private(p)
				var m game.Move
				if p == 0 && len(buf) > 1 {
					vals := make([]float64, len(buf))
					heuristicValuesP(&v, buf, vals, &o.Search.heur)
					hv := o.Search.values(v, buf)
					best := 0
					for j := range hv {
						if hv[j] > hv[best] {
							best = j
						}
					}
					order := byValue(vals)
					r := slices.Index(order, best)
					hist[min(r, 11)]++
					nlegal += len(buf)
					dec++
					m = buf[best]
				} else {
					m = Choose(HardV1, v, buf)
				}
				if err := g.Apply(m); err != nil {
					return err
				}
			}
		}
		fmt.Fprintln(w, variant, "decisions", dec, "mean legal", float64(nlegal)/float64(dec), "rank hist", hist)
	}
	return nil
}

type calibPos struct {
	g      *game.Game
	margin float64 // final, seat 0 minus seat 1
	win    float64
	turn   int
}

// labCalibJudge: see Experiments ("calib-judge").
func labCalibJudge(w io.Writer, o LabOptions) error {
	n, variant := o.Games, o.Variant
	var pos []calibPos
	buf := make([]game.Move, 0, 64)
	for i := range n {
		var mine []calibPos
		margin, win, err := selfPlay(variant, i, &buf, func(g *game.Game) {
			mine = append(mine, calibPos{g: g.Clone(), turn: g.Turn()})
		})
		if err != nil {
			return err
		}
		for _, c := range mine {
			c.margin, c.win = margin, win
			pos = append(pos, c)
		}
	}
	type cfg struct {
		name  string
		hp    heurParams
		hands float64
		tempo float64
	}
	var cfgs []cfg
	base := heurBase
	cfgs = append(cfgs, cfg{"base", base, 1, 0})
	for _, h := range []float64{0, 0.5, 1.5, 2} {
		cfgs = append(cfgs, cfg{fmt.Sprintf("hands=%v", h), base, h, 0})
	}
	for _, r := range []float64{0.8, 1.1, 1.7, 2.0} {
		c := base
		c.rate = r
		cfgs = append(cfgs, cfg{fmt.Sprintf("rate=%v", r), c, 1, 0})
	}
	for _, l := range []float64{0.8, 0.9, 1.1, 1.2} {
		c := base
		c.length = l
		cfgs = append(cfgs, cfg{fmt.Sprintf("len=%v", l), c, 1, 0})
	}
	for _, cv := range []float64{0.3, 0.8, 1.0} {
		c := base
		c.cardVal = cv
		cfgs = append(cfgs, cfg{fmt.Sprintf("card=%v", cv), c, 1, 0})
	}
	for _, tp := range []float64{-3, 3, 6} {
		cfgs = append(cfgs, cfg{fmt.Sprintf("tempo=%v", tp), base, 1, tp})
	}
	var view game.PrivateView
	for _, c := range cfgs {
		hp := c.hp
		sse, n := 0.0, 0
		// fit scale s: margin ≈ a*d ; win ≈ Φ(d/(σ s)) — report log loss for several s
		scales := []float64{1, 1.5, 2, 2.5, 3, 4}
		var bll [4][6]float64
		var bn [4]int
		ll := make([]float64, len(scales))
		sxy, sxx := 0.0, 0.0
		for _, p := range pos {
			var x [2]float64
			var sig, gg float64
			for q := range 2 {
				p.g.PrivateInto(&view, q)
				e := newCardEvalP(&view, &hp, nil)
				sh := view.Players[q].Sheet
				x[q] = e.project(sh) + c.hands*e.handWorth(sh, nil, nil)
				if q == p.g.Active() {
					x[q] += c.tempo
				}
				if q == 0 {
					sig = e.sigma
					gg = e.g
				}
			}
			d := x[0] - x[1]
			sxy += d * p.margin
			sxx += d * d
			sse += (d - p.margin) * (d - p.margin)
			for i, s := range scales {
				pr := math.Min(1-1e-6, math.Max(1e-6, normCDF(d/(sig*s))))
				l := p.win*math.Log(pr) + (1-p.win)*math.Log(1-pr)
				ll[i] -= l
				bk := 0
				switch {
				case gg > 15:
					bk = 3
				case gg > 10:
					bk = 2
				case gg > 5:
					bk = 1
				}
				bll[bk][i] -= l
				if i == 0 {
					bn[bk]++
				}
			}
			n++
		}
		a := sxy / sxx
		fmt.Fprintf(w, "CALIB %-10s n %d rmse %.3f slope %.3f logloss", c.name, n, math.Sqrt(sse/float64(n)), a)
		for i, s := range scales {
			fmt.Fprintf(w, " s%.1f:%.4f", s, ll[i]/float64(n))
		}
		fmt.Fprintln(w)
		if c.name == "base" {
			for bk := range 4 {
				fmt.Fprintf(w, "  bucket %d n %d:", bk, bn[bk])
				for i, s := range scales {
					fmt.Fprintf(w, " s%.1f:%.4f", s, bll[bk][i]/float64(bn[bk]))
				}
				fmt.Fprintln(w)
			}
		}
	}
	return nil
}

// labCalibSigma: see Experiments ("calib-sigma").
func labCalibSigma(w io.Writer, o LabOptions) error {
	n, variant := o.Games, o.Variant
	type rec struct{ d, g, win float64 }
	var recs []rec
	buf := make([]game.Move, 0, 64)
	var view game.PrivateView
	for i := range n {
		var mine []rec
		_, win, err := selfPlay(variant, i, &buf, func(g *game.Game) {
			var xx [2]float64
			var gg float64
			for q := range 2 {
				g.PrivateInto(&view, q)
				e := newCardEvalP(&view, &heurBase, nil)
				sh := view.Players[q].Sheet
				xx[q] = e.project(sh) + e.handWorth(sh, nil, nil)
				if q == 0 {
					gg = e.g
				}
			}
			mine = append(mine, rec{d: xx[0] - xx[1], g: gg})
		})
		if err != nil {
			return err
		}
		for _, c := range mine {
			c.win = win
			recs = append(recs, c)
		}
	}
	best, ba, bb := math.Inf(1), 0.0, 0.0
	for _, a := range []float64{3, 5, 7, 9, 11, 13, 15, 18} {
		for _, b := range []float64{0, 1, 1.5, 2.2, 3, 4} {
			ll := 0.0
			for _, r := range recs {
				pr := math.Min(1-1e-6, math.Max(1e-6, normCDF(r.d/(a+b*math.Sqrt(r.g)))))
				ll -= r.win*math.Log(pr) + (1-r.win)*math.Log(1-pr)
			}
			ll /= float64(len(recs))
			fmt.Fprintf(w, "SIG a %v b %v ll %.4f\n", a, b, ll)
			if ll < best {
				best, ba, bb = ll, a, b
			}
		}
	}
	fmt.Fprintf(w, "SIGBEST a %v b %v ll %.4f (base 3+2.2: see above)\n", ba, bb, best)
	return nil
}

func calibFeatures(view *game.PrivateView, q int, hp *heurParams, out []float64) {
	e := newCardEvalP(view, hp, nil)
	sh := view.Players[q].Sheet
	var cnt, cnt2, free, locks float64
	for _, r := range sh.Rows {
		c := float64(r.Count())
		cnt += c
		cnt2 += c * c
		if r.Locked() {
			locks++
		} else {
			free += float64(game.LastPos - r.Last())
		}
	}
	gg := e.g / 20
	out[0] = e.project(sh)
	out[1] = e.handWorth(sh, nil, nil)
	out[2] = cnt
	out[3] = cnt2
	out[4] = free
	out[5] = float64(sh.Misthrows)
	out[6] = locks
	out[7] = free * gg
	out[8] = cnt * gg
	out[9] = out[1] * gg
}

const nFeat = 11

// labCalibFit: see Experiments ("calib-fit").
func labCalibFit(w io.Writer, o LabOptions) error {
	n, variant := o.Games, o.Variant
	type rec struct {
		f      [nFeat]float64
		base   float64
		margin float64
	}
	var recs []rec
	buf := make([]game.Move, 0, 64)
	var view game.PrivateView
	for i := range n {
		var mine []rec
		m, _, err := selfPlay(variant, i, &buf, func(g *game.Game) {
			var r rec
			var f [2][nFeat]float64
			for q := range 2 {
				g.PrivateInto(&view, q)
				calibFeatures(&view, q, &heurBase, f[q][:])
			}
			for k := range nFeat - 1 {
				r.f[k] = f[0][k] - f[1][k]
			}
			r.f[nFeat-1] = 1
			if g.Active() == 1 {
				r.f[nFeat-1] = -1
			}
			r.base = r.f[0] + r.f[1]
			mine = append(mine, r)
		})
		if err != nil {
			return err
		}
		for _, c := range mine {
			c.margin = m
			recs = append(recs, c)
		}
	}
	half := len(recs) / 2
	// normal equations on the first half
	var A [nFeat][nFeat + 1]float64
	for _, r := range recs[:half] {
		for i := range nFeat {
			for j := range nFeat {
				A[i][j] += r.f[i] * r.f[j]
			}
			A[i][nFeat] += r.f[i] * r.margin
		}
	}
	for i := range nFeat { // Gauss-Jordan
		p := i
		for k := i + 1; k < nFeat; k++ {
			if math.Abs(A[k][i]) > math.Abs(A[p][i]) {
				p = k
			}
		}
		A[i], A[p] = A[p], A[i]
		for k := range nFeat {
			if k != i {
				f := A[k][i] / A[i][i]
				for j := i; j <= nFeat; j++ {
					A[k][j] -= f * A[i][j]
				}
			}
		}
	}
	beta := make([]float64, nFeat)
	for i := range nFeat {
		beta[i] = A[i][nFeat] / A[i][i]
	}
	sseB, sseF, sseB2 := 0.0, 0.0, 0.0
	for _, r := range recs[half:] {
		y := 0.0
		for i := range nFeat {
			y += beta[i] * r.f[i]
		}
		sseF += (y - r.margin) * (y - r.margin)
		sseB += (r.base - r.margin) * (r.base - r.margin)
		sseB2 += (1.19*r.base - r.margin) * (1.19*r.base - r.margin)
	}
	m := float64(len(recs) - half)
	fmt.Fprintf(w, "FIT beta %.3f\nFIT holdout rmse base %.3f base*1.19 %.3f fitted %.3f\n", beta, math.Sqrt(sseB/m), math.Sqrt(sseB2/m), math.Sqrt(sseF/m))
	return nil
}

// selfPlay plays heuristic self-play game i (two players, seed 110001+i),
// calling atTurn at the start of every turn from the second, and returns
// seat 0's final margin and win (1, ½ or 0).
func selfPlay(variant game.Variant, i int, buf *[]game.Move, atTurn func(g *game.Game)) (margin, win float64, err error) {
	var s [32]byte
	x := uint64(110001 + i)
	for b := 0; b < 8; b, x = b+1, x>>8 {
		s[b] = byte(x)
	}
	g, err := game.New(game.Config{Variant: variant, Players: []string{"a", "b"}, Seed: s})
	if err != nil {
		return 0, 0, err
	}
	last := -1
	for !g.Over() {
		if g.Phase() == game.PhaseTake && g.Turn() != last && g.Turn() > 0 {
			last = g.Turn()
			atTurn(g)
		}
		p := g.Waiting()[0]
		*buf = g.AppendLegalMoves((*buf)[:0], p)
		v := g.Private(p)
		if err := g.Apply(heuristicChoiceP(&v, *buf, &heurBase)); err != nil {
			return 0, 0, err
		}
	}
	a, b := g.Sheet(0).Score(), g.Sheet(1).Score()
	switch {
	case a > b:
		win = 1
	case a == b:
		win = 0.5
	}
	return float64(a - b), win, nil
}

// labCalibDice: see Experiments ("calib-dice").
func labCalibDice(w io.Writer, o LabOptions) error {
	n := o.Games
	set := duoHard()
	before, spread := set.before, set.spread
	after := afterOwn(set)
	type est struct{ mean, v0, v1, crude float64 }
	var pos []est
	var res []float64
	buf := make([]game.Move, 0, 64)
	for i := range n {
		g, err := twoPlayerGame(game.Dice, uint64(110001+i))
		if err != nil {
			return err
		}
		last := -1
		var mine []est
		for !g.Over() {
			if g.Phase() == game.PhaseWhite && g.Turn() != last && g.Turn() > 0 {
				last = g.Turn()
				v := g.Private(0)
				var e est
				for q := range 2 {
					rows, m := sheetState(v, q)
					var mu, sec float64
					if q == v.Active {
						mu, sec = momentsAt(before, spread, rows, m)
					} else {
						mu, sec = after.moments(rows, m)
					}
					sign := 1.0
					if q == 1 {
						sign = -1
					}
					e.mean += sign * (float64(v.Players[q].Sheet.Score()) + mu)
					if q == 0 {
						e.v0 = max(0, sec-mu*mu)
					} else {
						e.v1 = max(0, sec-mu*mu)
					}
					e.crude += mu
				}
				e.crude = max(4, 4+e.crude)
				mine = append(mine, e)
			}
			p := g.Waiting()[0]
			buf = g.AppendLegalMoves(buf[:0], p)
			if err := g.Apply(Choose(Hard, g.Private(p), buf)); err != nil {
				return err
			}
		}
		a, b := g.Sheet(0).Score(), g.Sheet(1).Score()
		w := 0.0
		switch {
		case a > b:
			w = 1
		case a == b:
			w = 0.5
		}
		for _, e := range mine {
			pos = append(pos, e)
			res = append(res, w)
		}
	}
	loss := func(sd func(e est) float64) float64 {
		l := 0.0
		for i, e := range pos {
			pr := math.Min(1-1e-6, math.Max(1e-6, normCDF(e.mean/sd(e))))
			l -= res[i]*math.Log(pr) + (1-res[i])*math.Log(1-pr)
		}
		return l / float64(len(pos))
	}
	fmt.Fprintf(w, "CALIBDICE positions %d\n", len(pos))
	for _, k := range []float64{0.5, 0.75, 1, 1.5, 2} {
		fmt.Fprintf(w, "CALIBDICE crude spread × %.2f: %.4f\n", k, loss(func(e est) float64 { return k * math.Sqrt(e.crude) }))
	}
	for _, rho := range []float64{0, 0.3, 0.6} {
		for _, k := range []float64{0.5, 0.75, 1, 1.25} {
			fmt.Fprintf(w, "CALIBDICE table ρ %.1f × %.2f: %.4f\n", rho, k, loss(func(e est) float64 {
				return k * math.Sqrt(max(4, 4+e.v0+e.v1-2*rho*math.Sqrt(e.v0*e.v1)))
			}))
		}
	}
	return nil
}

// labHazardDice: see Experiments ("hazard-dice").
func labHazardDice(w io.Writer, o LabOptions) error {
	n := o.Games
	var cnt, ends [80]float64
	buf := make([]game.Move, 0, 64)
	for i := range n {
		g, err := twoPlayerGame(game.Dice, uint64(110001+i))
		if err != nil {
			return err
		}
		last, bucket := -1, -1
		for !g.Over() {
			if g.Phase() == game.PhaseWhite && g.Turn() != last {
				last = g.Turn()
				v := g.Private(0)
				rows, _ := sheetState(v, 1-v.Active)
				x := fill(rows)
				bucket = min(x, 79)
				cnt[bucket]++
			}
			p := g.Waiting()[0]
			buf = g.AppendLegalMoves(buf[:0], p)
			if err := g.Apply(Choose(Hard, g.Private(p), buf)); err != nil {
				return err
			}
		}
		ends[bucket]++
	}
	for x := 0; x < 80; x += 4 {
		var c, e float64
		for y := x; y < x+4; y++ {
			c, e = c+cnt[y], e+ends[y]
		}
		if c > 0 {
			fmt.Fprintf(w, "HAZARD x %2d-%2d turns %6.0f ended %.3f model %.3f\n", x, x+3, c, e/c, min(0.4, 0.06+0.004*float64(x+2)))
		}
	}
	return nil
}

// labSlowDecisions: see Experiments ("slow-decisions").
func labSlowDecisions(w io.Writer, o LabOptions) error {
	n, variant := o.Games, o.Variant
	type rec struct {
		d           time.Duration
		turn, legal int
		g           float64
		phase       game.Phase
	}
	var recs []rec
	buf := make([]game.Move, 0, 64)
	for i := range n {
		g, err := twoPlayerGame(variant, uint64(50001+i))
		if err != nil {
			return err
		}
		for !g.Over() {
			p := g.Waiting()[0]
			buf = g.AppendLegalMoves(buf[:0], p)
			v := g.Private(p)
			start := o.Now()
			vals := o.Search.values(v, buf)
			d := o.Now().Sub(start)
			m := buf[byValue(vals)[0]]
			e := newCardEvalP(&v, &o.Search.heur, nil)
			recs = append(recs, rec{d, v.Turn, len(buf), e.g, v.Phase})
			if err := g.Apply(m); err != nil {
				return err
			}
		}
	}
	slices.SortFunc(recs, func(a, b rec) int { return cmp.Compare(b.d, a.d) })
	var total time.Duration
	for _, r := range recs {
		total += r.d
	}
	fmt.Fprintf(w, "%d decisions, p99 %v, mean %v\n", len(recs), recs[len(recs)/100].d, total/time.Duration(len(recs)))
	for _, r := range recs[:min(10, len(recs))] {
		fmt.Fprintf(w, "%6.1f ms turn %2d legal %3d expected turns left %.1f phase %v\n", float64(r.d)/1e6, r.turn, r.legal, r.g, r.phase)
	}
	return nil
}

// labScaledDuo: see Experiments ("scaled-duo").
func labScaledDuo(w io.Writer, o LabOptions) error {
	k := o.Scale
	h := func(rows [4]uint8, m int) float32 { return min(0.4, float32(k)*hazard(rows, m)) }
	a, _ := duoValues(h)
	_, err := w.Write(encodeTable(a))
	return err
}

// labHazardByOther: see Experiments ("hazard-by-other").
func labHazardByOther(w io.Writer, o LabOptions) error {
	n := o.Games
	type cell struct{ locked, lockable, three int }
	cnt, ends := map[cell]float64{}, map[cell]float64{}
	var fcnt, fends [20]float64
	buf := make([]game.Move, 0, 64)
	for i := range n {
		g, err := twoPlayerGame(game.Dice, uint64(110001+i))
		if err != nil {
			return err
		}
		last := -1
		var c cell
		f := 0
		for !g.Over() {
			if g.Phase() == game.PhaseWhite && g.Turn() != last {
				last = g.Turn()
				v := g.Private(0)
				arow, am := sheetState(v, v.Active)
				prow, _ := sheetState(v, 1-v.Active)
				c = cell{min(lockedRows(arow), 1), 0, 0}
				for _, r := range arow {
					if r != rowLocked && r != rowEmpty && rowCount[r] >= 5 {
						c.lockable++
					}
				}
				c.lockable = min(c.lockable, 3)
				if am >= 3 {
					c.three = 1
				}
				cnt[c]++
				f = min(fill(prow)/4, 19)
				fcnt[f]++
			}
			p := g.Waiting()[0]
			buf = g.AppendLegalMoves(buf[:0], p)
			if err := g.Apply(Choose(Hard, g.Private(p), buf)); err != nil {
				return err
			}
		}
		ends[c]++
		fends[f]++
	}
	for locked := range 2 {
		for three := range 2 {
			for lockable := range 4 {
				c := cell{locked, lockable, three}
				if cnt[c] > 0 {
					fmt.Fprintf(w, "HAZARD locked %d lockable %d three misthrows %d turns %6.0f ended %.3f\n", locked, lockable, three, cnt[c], ends[c]/cnt[c])
				}
			}
		}
	}
	for f := range fcnt {
		if fcnt[f] > 0 {
			fmt.Fprintf(w, "HAZARD waiting fill %2d-%2d turns %6.0f ended %.3f\n", 4*f, 4*f+3, fcnt[f], fends[f]/fcnt[f])
		}
	}
	return nil
}

// labMisthrowsDice: see Experiments ("misthrows-dice").
func labMisthrowsDice(w io.Writer, o LabOptions) error {
	n := o.Games
	lv := [2]Level{Hard, HardV1}
	type key struct {
		lvl, m int
		ahead  int
	}
	vol := map[key][2]float64{} // count, wins
	var endM [2][5][2]float64
	buf := make([]game.Move, 0, 64)
	for i := range n {
		for sw := range 2 {
			g, err := twoPlayerGame(game.Dice, uint64(90001+i))
			if err != nil {
				return err
			}
			var marks [][3]int // player level, m reached, ahead
			for !g.Over() {
				p := g.Waiting()[0]
				buf = g.AppendLegalMoves(buf[:0], p)
				v := g.Private(p)
				mv := Choose(lv[(p+sw)%2], v, buf)
				if g.Phase() == game.PhaseColor && mv.Kind == game.Pass && len(buf) > 1 {
					crossed := false
					for _, f := range v.Players[p].Fresh {
						crossed = crossed || f != 0
					}
					if !crossed {
						d := v.Players[p].Sheet.Score() - v.Players[1-p].Sheet.Score()
						a := 0
						if d > 0 {
							a = 1
						}
						marks = append(marks, [3]int{(p + sw) % 2, v.Players[p].Sheet.Misthrows + 1, a})
					}
				}
				if err := g.Apply(mv); err != nil {
					return err
				}
			}
			s := [2]int{g.Sheet(0).Score(), g.Sheet(1).Score()}
			for p := range 2 {
				w := 0.0
				if s[p] > s[1-p] {
					w = 1
				} else if s[p] == s[1-p] {
					w = 0.5
				}
				lvl := (p + sw) % 2
				endM[lvl][g.Sheet(p).Misthrows][0]++
				endM[lvl][g.Sheet(p).Misthrows][1] += w
				for _, mk := range marks {
					if mk[0] == lvl {
						k := key{lvl, mk[1], mk[2]}
						x := vol[k]
						x[0]++
						x[1] += w
						vol[k] = x
					}
				}
			}
		}
	}
	for l := range 2 {
		for m := range 5 {
			c := endM[l][m]
			if c[0] > 0 {
				fmt.Fprintf(w, "MIS %v end m=%d games %5.0f win %.3f\n", lv[l], m, c[0], c[1]/c[0])
			}
		}
		for m := 1; m <= 4; m++ {
			for a := range 2 {
				c := vol[key{l, m, a}]
				if c[0] > 0 {
					fmt.Fprintf(w, "MIS %v voluntary to m=%d ahead=%d count %5.0f win %.3f\n", lv[l], m, a, c[0], c[1]/c[0])
				}
			}
		}
	}
	return nil
}

// twoPlayerGame starts a two-player game of variant with the arena's seed
// x (its little-endian bytes).
func twoPlayerGame(variant game.Variant, x uint64) (*game.Game, error) {
	var seed [32]byte
	for b := 0; b < 8; b, x = b+1, x>>8 {
		seed[b] = byte(x)
	}
	g, err := game.New(game.Config{Variant: variant, Players: []string{"a", "b"}, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("ai lab: new game: %w", err)
	}
	return g, nil
}

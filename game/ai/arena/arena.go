// Package arena plays computer players against each other and sums up
// each one's figures: win share with its interval, scores, game-ending
// choices by their result and decision times. `qwixxbot arena` prints them.
package arena

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// Result is one computer player's figures over the arena's games.
type Result struct {
	Player string `json:"player"`
	Level  string `json:"level"`
	Games  int    `json:"games"`
	// WinShare counts a shared first place as a share of a win.
	WinShare     float64    `json:"win_share"`
	WinShareCI95 [2]float64 `json:"win_share_ci95"`
	MeanScore    float64    `json:"mean_score"`
	MeanTurns    float64    `json:"mean_turns"`
	// Endings counts the choices of this player that ended the game (a
	// second lock, a fourth misthrow) by how the game then ended for it.
	Endings Endings `json:"endings"`
	// Times sums up how long this player took to decide (--times), and
	// LevelTimes how long all the players of its level took.
	Times      *Times `json:"decision_times,omitempty"`
	LevelTimes *Times `json:"level_decision_times,omitempty"`
}

// Times are the percentiles of one player's decision times over
// the arena's games, in milliseconds.
type Times struct {
	Decisions int     `json:"decisions"`
	Mean      float64 `json:"mean_ms"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Max       float64 `json:"max_ms"`
}

// summarize returns the percentiles of took, which it sorts.
func summarize(took []time.Duration) *Times {
	if len(took) == 0 {
		return &Times{}
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	at := func(q int) float64 { return ms(took[(len(took)*q+99)/100-1]) } // nearest rank
	return &Times{Decisions: len(took), Mean: ms(sum) / float64(len(took)), P50: at(50), P99: at(99), Max: ms(took[len(took)-1])}
}

// Endings counts game-ending choices by their result for the chooser.
type Endings struct {
	Won  int `json:"won"`
	Lost int `json:"lost"`
	Tied int `json:"tied"`
	// LostForced counts the lost ones that were the only legal choice (a
	// misthrow with nothing to cross).
	LostForced int `json:"lost_forced"`
}

// ender is a seat whose choice ended the game, and whether that choice
// was its only legal one.
type ender struct {
	seat   int
	forced bool
}

// Run plays n games of variant v between computer players of the given
// levels, in seat order (the first player is drawn by each game's seed),
// and sums up each player. With swap, each seed is played once per
// rotation of the seats (player p sits in seat (p+r) mod k in rotation r),
// so every player meets each deal in every seat; with times, it also
// times each player's decisions.
func Run(v game.Variant, levels []ai.Level, n int, seed uint64, swap, times bool) ([]Result, error) {
	k := len(levels)
	names := make([]string, k)
	for i, l := range levels {
		names[i] = fmt.Sprintf("%d-%s", i+1, l)
	}
	rotations := 1
	if swap {
		rotations = k
	}
	sp := seating{v: v, levels: levels, names: names, seed: seed, rotations: rotations, times: times}
	games := make([]outcome, n*rotations)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := int(next.Add(1)) - 1; j < len(games); j = int(next.Add(1)) - 1 {
				games[j] = sp.play(j)
			}
		}()
	}
	wg.Wait()
	tl, err := tallyGames(games, k, times)
	if err != nil {
		return nil, err
	}
	return tl.results(levels, names, times), nil
}

// outcome is one arena game, by player (not seat).
type outcome struct {
	final []int // by player
	turns int
	ended []ender // players whose choice ended the game
	took  [][]time.Duration
	err   error
}

// seating plays the arena's games: game j is seed i = j/rotations in
// rotation r = j%rotations.
type seating struct {
	v         game.Variant
	levels    []ai.Level
	names     []string
	seed      uint64
	rotations int
	times     bool
}

// play plays game j and turns its seats' figures into its players'.
func (sp seating) play(j int) outcome {
	k := len(sp.levels)
	i, r := j/sp.rotations, j%sp.rotations
	seats := make([]ai.Level, k) // the player of seat s is (s-r) mod k
	seatNames := make([]string, k)
	for p := range k {
		seats[(p+r)%k], seatNames[(p+r)%k] = sp.levels[p], sp.names[p]
	}
	var took [][]time.Duration
	if sp.times {
		took = make([][]time.Duration, k)
	}
	final, turns, ended, err := playGame(sp.v, seats, seatNames, sp.seed+uint64(i), took)
	if err != nil {
		return outcome{err: fmt.Errorf("game %d (seating %d): %w", i, r, err)}
	}
	o := outcome{final: make([]int, k), turns: turns}
	if sp.times {
		o.took = make([][]time.Duration, k)
	}
	for p := range k {
		o.final[p] = final[(p+r)%k]
		if sp.times {
			o.took[p] = took[(p+r)%k]
		}
	}
	for _, e := range ended {
		o.ended = append(o.ended, ender{(e.seat - r + k) % k, e.forced})
	}
	return o
}

// tally is the sums of the arena's games by player.
type tally struct {
	games        int
	wins, scores []float64
	ends         []Endings
	turns        float64
	took         [][]time.Duration // each player's decision times (nil without times)
}

// tallyGames sums up the games of k players (and their decision times,
// with times), or returns the first game's error.
func tallyGames(games []outcome, k int, times bool) (tally, error) {
	tl := tally{games: len(games), wins: make([]float64, k), scores: make([]float64, k), ends: make([]Endings, k)}
	for _, o := range games {
		if o.err != nil {
			return tally{}, o.err
		}
		for p := range k {
			tl.scores[p] += float64(o.final[p])
		}
		best := slices.Max(o.final)
		first := 0 // seats sharing the first place (P3)
		for _, sc := range o.final {
			if sc == best {
				first++
			}
		}
		for p, sc := range o.final {
			if sc == best {
				tl.wins[p] += 1 / float64(first)
			}
		}
		for _, e := range o.ended {
			p := e.seat
			switch {
			case o.final[p] < best:
				tl.ends[p].Lost++
				if e.forced {
					tl.ends[p].LostForced++
				}
			case first > 1:
				tl.ends[p].Tied++
			default:
				tl.ends[p].Won++
			}
		}
		tl.turns += float64(o.turns)
	}
	if times {
		tl.took = make([][]time.Duration, k)
		for _, o := range games {
			for p := range k {
				tl.took[p] = append(tl.took[p], o.took[p]...)
			}
		}
	}
	return tl, nil
}

// results turns the sums into each player's figures: shares and means
// per game, and with times the percentiles of its own and its level's
// decision times.
func (tl tally) results(levels []ai.Level, names []string, times bool) []Result {
	n := tl.games
	out := make([]Result, len(levels))
	for p, l := range levels {
		share := tl.wins[p] / float64(n)
		// The normal approximation of the share's 95 % interval.
		half := 1.96 * math.Sqrt(share*(1-share)/float64(n))
		out[p] = Result{Player: names[p], Level: l.String(), Games: n, WinShare: share,
			WinShareCI95: [2]float64{max(0, share-half), min(1, share+half)},
			MeanScore:    tl.scores[p] / float64(n), MeanTurns: tl.turns / float64(n), Endings: tl.ends[p]}
		if times {
			out[p].Times = summarize(slices.Clone(tl.took[p]))
			var all []time.Duration
			for q, lq := range levels {
				if lq == l {
					all = append(all, tl.took[q]...)
				}
			}
			out[p].LevelTimes = summarize(all)
		}
	}
	return out
}

// playGame plays one game with the given seed and returns the final
// scores, the number of turns and the seats whose choice ended the game;
// if took is not nil, it appends each seat's decision times to took[seat].
func playGame(v game.Variant, levels []ai.Level, names []string, seed uint64, took [][]time.Duration) ([]int, int, []ender, error) {
	var s [32]byte
	for b, x := 0, seed; b < 8; b, x = b+1, x>>8 {
		s[b] = byte(x)
	}
	g, err := game.New(game.Config{Variant: v, Players: names, Seed: s})
	if err != nil {
		return nil, 0, nil, err
	}
	buf := make([]game.Move, 0, 64)
	var ending []ender // seats whose choice, once the action resolves, ends the game
	for steps := 0; !g.Over(); steps++ {
		if steps > 10000 {
			return nil, 0, nil, fmt.Errorf("the game did not end")
		}
		p := g.Waiting()[0]
		buf = g.AppendLegalMoves(buf[:0], p)
		view := g.Private(p)
		start := time.Now()
		m := ai.Choose(levels[p], view, buf)
		if took != nil {
			took[p] = append(took[p], time.Since(start))
		}
		if ai.EndsGame(view, m) {
			ending = append(ending, ender{p, len(buf) == 1})
		}
		turn, phase := g.Turn(), g.Phase()
		if err := g.Apply(m); err != nil {
			return nil, 0, nil, err
		}
		if !g.Over() && (g.Turn() != turn || g.Phase() != phase) {
			ending = ending[:0] // the action resolved and the game goes on
		}
	}
	final := make([]int, len(levels))
	for p := range levels {
		final[p] = g.Sheet(p).Score()
	}
	return final, g.Turn(), ending, nil
}

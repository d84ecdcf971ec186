package render

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// Game states for the tests, built by playing real games with a fixed seed
// and a simple deterministic policy, so every picture shows a legal state.

func seed(n byte) [32]byte {
	var s [32]byte
	s[0] = n
	return s
}

func newGame(t testing.TB, v game.Variant, n byte, players ...string) *game.Game {
	t.Helper()
	g, err := game.New(game.Config{Variant: v, Players: players, Seed: seed(n)})
	if err != nil {
		t.Fatalf("game.New: %v", err)
	}
	return g
}

// skip is how many open numbers crossing n in row c would pass over.
func skip(s game.Sheet, c game.Color, n int) int {
	return game.Position(c, n) - s.Rows[c].Last() - 1
}

// choose picks p's move: the crossing that passes over the fewest numbers
// (at most slack), otherwise a pass; the first take; the play crossing most.
func choose(g *game.Game, p, slack int) game.Move {
	moves := g.LegalMoves(p)
	sh := g.Sheet(p)
	best, bestV := moves[0], -1<<30
	for _, m := range moves {
		v := -1 << 29
		switch m.Kind {
		case game.Pass:
			v = 0
		case game.White:
			v = 10 - 10*max(0, skip(sh, m.Color, g.WhiteSum())-slack) - skip(sh, m.Color, g.WhiteSum())
		case game.Colored:
			d := g.Dice()
			n := d[m.White-1] + d[game.DieOf(m.Color)]
			v = 10 - 10*max(0, skip(sh, m.Color, n)-slack) - skip(sh, m.Color, n)
		case game.Number:
			n := g.Public().Table.DrawTop
			v = 10 - 10*max(0, skip(sh, m.Color, n)-slack) - skip(sh, m.Color, n)
		case game.Take:
			v = 0
		case game.Play:
			nums := m.CrossNumbers()
			v = -len(m.CardList())
			if len(nums) > 0 {
				last := sh.Rows[m.Color].Last()
				span := game.Position(m.Color, nums[len(nums)-1]) - last
				gaps := span - len(nums)
				v = 12*len(nums) - 10*max(0, gaps-slack) - gaps
			}
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// playUntil plays g with the policy until stop reports true (checked before
// every move) or the game ends.
func playUntil(t testing.TB, g *game.Game, slack int, stop func(g *game.Game) bool) {
	t.Helper()
	if !tryUntil(g, slack, stop) && !g.Over() {
		t.Fatal("game does not end")
	}
}

// find plays games with seeds from 1 on until one reaches stop before it
// ends, and returns that game.
func find(t testing.TB, v game.Variant, players []string, stop func(g *game.Game) bool) *game.Game {
	t.Helper()
	for n := byte(1); n < 200; n++ {
		g := newGame(t, v, n, players...)
		if tryUntil(g, 1, stop) {
			return g
		}
	}
	t.Fatal("no seed reaches the state")
	return nil
}

// tryUntil plays until stop holds (true) or the game ends (false).
func tryUntil(g *game.Game, slack int, stop func(g *game.Game) bool) bool {
	for steps := 0; !g.Over(); steps++ {
		if stop(g) {
			return true
		}
		if steps > 5000 {
			return false
		}
		p := g.Waiting()[0]
		if err := g.Apply(choose(g, p, slack)); err != nil {
			panic(err)
		}
	}
	return false
}

func closedRows(v game.PublicView) int {
	n := 0
	for _, c := range v.Closed {
		if c {
			n++
		}
	}
	return n
}

// Scenarios.

func emptyDice2(t testing.TB) game.PublicView {
	return newGame(t, game.Dice, 1, "Anna", "Ben").Public()
}

// dice5Locked is a 5-player dice game in action 2 with one row closed for
// everybody, fresh crosses from action 1 and a misthrow or two.
func dice5Locked(t testing.TB) game.PublicView {
	g := find(t, game.Dice, []string{"Anna", "Benedikt", "Chloé", "Dörte", "Émile"}, func(g *game.Game) bool {
		v := g.Public()
		return closedRows(v) == 1 && g.Phase() == game.PhaseColor && g.Turn() > 20
	})
	return g.Public()
}

// dice5TwoLocks is the same game played on until two rows are locked: the
// game is over (D9).
func dice5TwoLocks(t testing.TB) (*game.Game, game.PublicView) {
	g := newGame(t, game.Dice, 3, "Anna", "Benedikt", "Chloé", "Dörte", "Émile")
	playUntil(t, g, 1, func(*game.Game) bool { return false })
	return g, g.Public()
}

// dice4 is a 4-player dice game in action 1, some players decided.
func dice4(t testing.TB) game.PublicView {
	g := find(t, game.Dice, []string{"Anna", "Ben", "Chloé", "Dörte"}, func(g *game.Game) bool {
		return g.Turn() >= 14 && g.Phase() == game.PhaseWhite && len(g.Waiting()) == 2
	})
	return g.Public()
}

// cards4 is a 4-player jokers game in action 2 with a joker just played.
func cards4(t testing.TB) (*game.Game, game.PublicView) {
	g := find(t, game.Jokers, []string{"Anna", "Ben", "Chloé", "Dörte"}, func(g *game.Game) bool {
		v := g.Public()
		if g.Phase() != game.PhaseNumber || len(g.Waiting()) != 2 || g.Turn() < 8 {
			return false
		}
		for _, pc := range v.Table.Played {
			if pc.Joker {
				return len(v.Table.Played) > 1
			}
		}
		return false
	})
	return g, g.Public()
}

// dice2 is a 2-player dice game in action 2, half played.
func dice2(t testing.TB) game.PublicView {
	g := find(t, game.Dice, []string{"Anna", "Benedikt"}, func(g *game.Game) bool {
		return g.Turn() >= 16 && g.Phase() == game.PhaseColor
	})
	return g.Public()
}

// cards2 is a 2-player card game (no jokers) in action 2 after a play.
func cards2(t testing.TB) game.PublicView {
	g := find(t, game.Cards, []string{"Jürgen", "Zoé"}, func(g *game.Game) bool {
		return g.Turn() >= 10 && g.Phase() == game.PhaseNumber && len(g.Public().Table.Played) > 1
	})
	return g.Public()
}

// cards5 is a 5-player jokers game in action 2.
func cards5(t testing.TB) game.PublicView {
	g := find(t, game.Jokers, []string{"Anna", "Ben", "Chloé", "Dörte", "Émile"}, func(g *game.Game) bool {
		return g.Turn() > 10 && g.Phase() == game.PhaseNumber
	})
	return g.Public()
}

// cards3 is a 3-player jokers game in action 2 (for the language images).
func cards3(t testing.TB) game.PublicView {
	g := find(t, game.Jokers, []string{"Anna", "Jürgen", "Zoé"}, func(g *game.Game) bool {
		return g.Turn() >= 9 && g.Phase() == game.PhaseNumber && len(g.Waiting()) == 2 && len(g.Public().Table.Played) > 0
	})
	return g.Public()
}

// handWithJokers is a private view whose hand holds at least one joker.
func handWithJokers(t testing.TB) game.PrivateView {
	g := find(t, game.Jokers, []string{"Anna", "Ben", "Chloé"}, func(g *game.Game) bool {
		if g.Phase() != game.PhasePlay {
			return false
		}
		seat := g.Active()
		jokers := 0
		for _, k := range g.Hand(seat) {
			if k.Joker() {
				jokers++
			}
		}
		return jokers >= 1 && len(g.Hand(seat)) == 5
	})
	return g.Private(g.Active())
}

// finished3 is a finished 3-player dice game and a match of 5 games with
// it as game 3.
func finished3(t testing.TB) (game.PublicView, *game.Match) {
	g := newGame(t, game.Dice, 13, "Anna", "Ben", "Chloé")
	playUntil(t, g, 1, func(*game.Game) bool { return false })
	m, err := game.NewMatch(g.Players(), 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][]int{{54, 71, 38}, {88, 60, 88}} {
		if err := m.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.AddGame(g); err != nil {
		t.Fatal(err)
	}
	return g.Public(), m
}

// tiedGame is a finished game whose winners share the win (D10).
func tiedGame(t testing.TB) game.PublicView {
	t.Helper()
	for n := byte(1); n < 250; n++ {
		g := newGame(t, game.Dice, n, "Anna", "Ben")
		playUntil(t, g, 1, func(*game.Game) bool { return false })
		if len(g.Winners()) == 2 {
			return g.Public()
		}
	}
	t.Fatal("no tied game")
	return game.PublicView{}
}

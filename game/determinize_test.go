package game

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// detSample is what one seat saw at one moment of a random card game.
type detSample struct {
	game       int
	view       PrivateView
	reshuffles int // reshuffles so far in the real game (C4)
}

// determinizeSamples plays random card games of variant v with 2–5 players
// and keeps the private view of a random seat at random moments: the deal,
// every phase, mid simultaneous action (C5), after reshuffles (C4), and the
// end.
func determinizeSamples(t testing.TB, v Variant) []detSample {
	games := 60
	if raceEnabled {
		games = 16
	}
	var out []detSample
	for i := range games {
		s := uint64(7100 + i)
		players := 2 + i%4
		r := rand.New(rand.NewPCG(s, 17))
		g, err := New(Config{Variant: v, Players: names[:players], Seed: seed(s)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, detSample{game: i, view: g.Private(r.IntN(players))})
		playRandom(t, v, players, s, func(_ observed, g *Game, _ Move) {
			reshuffledPlay := g.Public().Table.DiscardSize == 0 && len(g.st.Played) > 0
			if g.Over() || reshuffledPlay || r.IntN(6) == 0 {
				out = append(out, detSample{game: i, view: g.Private(r.IntN(players)), reshuffles: g.Reshuffles()})
			}
		})
	}
	return out
}

// hiddenCards is what the seat of v cannot see in g: the other hands, the
// display, the draw pile and the discard pile.
func hiddenCards(g *Game, seat int) [][]Card {
	var out [][]Card
	for p, h := range g.st.Hands {
		if p != seat {
			out = append(out, h)
		}
	}
	return append(out, g.st.Display, g.st.Draw, g.st.Discard)
}

// TestC10DeterminizeMatchesView: the determinized game shows the seat
// exactly its view (public part and own hand, C10), passes Validate, and
// every card is in one place (C1). The samples cover every card phase,
// choices pending in action 2 (C5), reshuffled discard piles (C4), a last
// play reshuffled away, and finished games.
func TestC10DeterminizeMatchesView(t *testing.T) {
	for _, v := range []Variant{Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			samples := determinizeSamples(t, v)
			phases := map[Phase]int{}
			midC5, reshuffled, playReshuffled := 0, 0, 0
			for k, sm := range samples {
				d, err := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), 3)))
				if err != nil {
					t.Fatalf("game %d, sample %d: %v", sm.game, k, err)
				}
				if err := d.Validate(); err != nil {
					t.Fatalf("game %d, sample %d: invalid: %v", sm.game, k, err)
				}
				if got := d.Private(sm.view.Seat); !reflect.DeepEqual(got, sm.view) {
					t.Fatalf("game %d, sample %d: the seat sees\n%+v\nwant\n%+v", sm.game, k, got, sm.view)
				}
				if got := d.Public(); !reflect.DeepEqual(got, sm.view.PublicView) {
					t.Fatalf("game %d, sample %d: public view\n%+v\nwant\n%+v", sm.game, k, got, sm.view.PublicView)
				}
				phases[sm.view.Phase]++
				if sm.view.Phase == PhaseNumber && slices.ContainsFunc(sm.view.Players, func(p PlayerView) bool { return p.Decided }) {
					midC5++
					for p, pv := range sm.view.Players {
						if d.Decided(p) != pv.Decided {
							t.Fatalf("sample %d: player %d decided %v, the view says %v (C5)", k, p, d.Decided(p), pv.Decided)
						}
					}
				}
				if sm.reshuffles > 0 {
					reshuffled++
				}
				if sm.view.Table.DiscardSize == 0 && len(sm.view.Table.Played) > 0 {
					playReshuffled++
				}
				// The first player follows from the turn and the active seat (D2).
				if want := (sm.view.Active - (sm.view.Turn - 1)) % len(sm.view.Players); d.st.First != (want+len(sm.view.Players))%len(sm.view.Players) {
					t.Fatalf("sample %d: first player %d", k, d.st.First)
				}
			}
			for _, ph := range []Phase{PhaseTake, PhaseNumber, PhasePlay, PhaseOver} {
				if phases[ph] == 0 {
					t.Errorf("no sample in phase %s", ph)
				}
			}
			if midC5 == 0 || reshuffled == 0 || playReshuffled == 0 {
				t.Errorf("samples: %d mid action 2, %d after a reshuffle, %d with the last play reshuffled; want some of each", midC5, reshuffled, playReshuffled)
			}
			t.Logf("%d samples: phases %v, %d mid action 2, %d after reshuffles, %d with the last play reshuffled", len(samples), phases, midC5, reshuffled, playReshuffled)
		})
	}
}

// TestC9DeterminizePlaysToEnd: a determinized game can be played to its
// end (C9) with random legal moves; every move is accepted, the state stays
// valid, and it can be saved, restored, recorded and summarised.
func TestC9DeterminizePlaysToEnd(t *testing.T) {
	for _, v := range []Variant{Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			samples := determinizeSamples(t, v)
			var buf []Move
			for k, sm := range samples {
				if raceEnabled && k%3 != 0 {
					continue
				}
				r := rand.New(rand.NewPCG(uint64(k), 5))
				d, err := Determinize(sm.view, r)
				if err != nil {
					t.Fatalf("sample %d: %v", k, err)
				}
				data, err := d.MarshalBinary()
				if err != nil {
					t.Fatalf("sample %d: save: %v", k, err)
				}
				if _, err := Restore(data); err != nil {
					t.Fatalf("sample %d: restore: %v", k, err)
				}
				for steps := 0; !d.Over(); steps++ {
					if steps > maxSteps {
						t.Fatalf("sample %d: no end in %d moves", k, maxSteps)
					}
					w := d.Waiting()
					p := w[r.IntN(len(w))]
					buf = d.AppendLegalMoves(buf[:0], p)
					if len(buf) == 0 {
						t.Fatalf("sample %d: player %d may act but has no legal move (phase %s)", k, p, d.Phase())
					}
					if err := d.Apply(buf[r.IntN(len(buf))]); err != nil {
						t.Fatalf("sample %d: legal move refused: %v", k, err)
					}
					if steps%16 == 0 {
						if err := d.Validate(); err != nil {
							t.Fatalf("sample %d, step %d: %v", k, steps, err)
						}
					}
				}
				if err := d.Validate(); err != nil {
					t.Fatalf("sample %d: at the end: %v", k, err)
				}
				_ = d.Turns()
				_ = d.Record()
			}
		})
	}
}

// TestC10DeterminizeVariesHiddenCards: two random sources deal the hidden
// cards differently in nearly every position, and never anything public or
// the seat's own hand (C10).
func TestC10DeterminizeVariesHiddenCards(t *testing.T) {
	for _, v := range []Variant{Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			samples := determinizeSamples(t, v)
			differ := 0
			for k, sm := range samples {
				a, err := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), 7)))
				if err != nil {
					t.Fatal(err)
				}
				b, err := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), 8)))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a.Private(sm.view.Seat), b.Private(sm.view.Seat)) {
					t.Fatalf("sample %d: the seat can tell the two apart", k)
				}
				if !reflect.DeepEqual(hiddenCards(a, sm.view.Seat), hiddenCards(b, sm.view.Seat)) {
					differ++
				}
				// The same source gives the same game.
				c, _ := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), 7)))
				if !reflect.DeepEqual(a.st, c.st) {
					t.Fatalf("sample %d: the same source gave two games", k)
				}
			}
			if differ*100 < len(samples)*95 {
				t.Fatalf("only %d of %d positions dealt differently by two sources", differ, len(samples))
			}
			t.Logf("%d of %d positions dealt differently", differ, len(samples))
		})
	}
}

// TestC1DeterminizeRefusesDice: the dice game (D1) has no hidden cards.
func TestC1DeterminizeRefusesDice(t *testing.T) {
	for _, players := range []int{1, 2, 5} {
		g, err := New(Config{Variant: Dice, Players: names[:players], Seed: seed(1)})
		if err != nil {
			t.Fatal(err)
		}
		if d, err := Determinize(g.Private(0), rand.New(rand.NewPCG(1, 1))); err == nil || d != nil {
			t.Fatalf("%d players: dice game determinized: %v, %v", players, d, err)
		}
	}
}

// TestC3DeterminizeRefusesImpossibleViews: a view no deal can match (C1,
// C3) is refused with an error, not a panic or an invalid game.
func TestC3DeterminizeRefusesImpossibleViews(t *testing.T) {
	g, err := New(Config{Variant: Cards, Players: names[:3], Seed: seed(4)})
	if err != nil {
		t.Fatal(err)
	}
	base := g.Private(1)
	clone := func() PrivateView {
		v := base
		v.Players = slices.Clone(base.Players)
		v.Hand = slices.Clone(base.Hand)
		tb := *base.Table
		tb.Display = slices.Clone(base.Table.Display)
		v.Table = &tb
		return v
	}
	if _, err := Determinize(clone(), rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatalf("the real view: %v", err)
	}
	bad := map[string]func(v *PrivateView){
		"no table":        func(v *PrivateView) { v.Table = nil },
		"seat":            func(v *PrivateView) { v.Seat = 3 },
		"hand size":       func(v *PrivateView) { v.Hand = v.Hand[:2] },
		"duplicate card":  func(v *PrivateView) { v.Hand[1] = v.Hand[0] },
		"joker in cards":  func(v *PrivateView) { v.Hand[0] = JokerCard(5) },
		"draw pile size":  func(v *PrivateView) { v.Table.DrawSize++ },
		"empty draw pile": func(v *PrivateView) { v.Table.DrawSize, v.Table.DrawTop = 0, 0 },
		"display size":    func(v *PrivateView) { v.Table.Display = v.Table.Display[:3] },
		"too many fives":  func(v *PrivateView) { v.Table.Display = []int{5, 5, 5, 5}; v.Table.DrawTop = 5 },
		"one player":      func(v *PrivateView) { v.Players = v.Players[:1]; v.Seat = 0 },
		"variant":         func(v *PrivateView) { v.Variant = 0 },
		"turn":            func(v *PrivateView) { v.Turn = 0 },
		"phase":           func(v *PrivateView) { v.Phase = PhaseWhite },
		"all decided":     func(v *PrivateView) { v.Phase = PhaseNumber; setDecided(v) },
		"played, no pile": func(v *PrivateView) { v.Table.Played = []PlayedCard{{Number: 3}, {Number: 4}}; v.Table.DiscardSize = 1 },
		"played card held": func(v *PrivateView) {
			c := v.Hand[0]
			v.Table.Played = []PlayedCard{{Number: c.Number(), Color: c.Color()}}
			v.Table.DiscardSize = 1
		},
	}
	for name, f := range bad {
		v := clone()
		f(&v)
		d, err := Determinize(v, rand.New(rand.NewPCG(1, 1)))
		if err == nil || d != nil {
			t.Errorf("%s: accepted (%v)", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
}

func setDecided(v *PrivateView) {
	for p := range v.Players {
		v.Players[p].Decided = true
	}
}

// BenchmarkDeterminize deals the hidden cards of mid-game views of 4-player
// joker games, one view per iteration.
func BenchmarkDeterminize(b *testing.B) {
	var views []PrivateView
	for i := range 8 {
		playRandom(b, Jokers, 4, uint64(50+i), func(_ observed, g *Game, _ Move) {
			if !g.Over() && g.Turn()%5 == 0 {
				views = append(views, g.Private(g.Turn()%4))
			}
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Determinize(views[i%len(views)], r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestC10DealerDealsAsDeterminize: a Dealer's deals, made into the memory
// of one game used over and over (dealt from views of other sizes and
// variants, and played on after each deal), are the games Determinize
// deals from the same random source: the same state, the same generator,
// and the same game when both are played on alike to the end. A card
// game's search reuses it this way (game/ai).
func TestC10DealerDealsAsDeterminize(t *testing.T) {
	var reused *Game // shared by both variants and every sample
	var buf []Move
	for _, v := range []Variant{Cards, Jokers} {
		for k, sm := range determinizeSamples(t, v) {
			if raceEnabled && k%3 != 0 {
				continue
			}
			d, err := NewDealer(sm.view)
			if err != nil {
				t.Fatalf("%s sample %d: %v", v, k, err)
			}
			for deal := range uint64(3) {
				want, err := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), deal)))
				if err != nil {
					t.Fatalf("%s sample %d: %v", v, k, err)
				}
				got, err := d.Deal(rand.New(rand.NewPCG(uint64(k), deal)), reused)
				if err != nil {
					t.Fatalf("%s sample %d, deal %d: %v", v, k, deal, err)
				}
				if reused != nil && got != reused {
					t.Fatalf("%s sample %d: Deal did not deal into the game it was given", v, k)
				}
				reused = got
				if !reflect.DeepEqual(got.st, want.st) {
					t.Fatalf("%s sample %d, deal %d: state\n%+v\nwant\n%+v", v, k, deal, got.st, want.st)
				}
				gs, _ := got.src.MarshalBinary()
				ws, _ := want.src.MarshalBinary()
				if !slices.Equal(gs, ws) {
					t.Fatalf("%s sample %d, deal %d: the generators differ", v, k, deal)
				}
				if err := got.Validate(); err != nil {
					t.Fatalf("%s sample %d, deal %d: %v", v, k, deal, err)
				}
				// Both played on with the same random moves end alike; the
				// reused game is left dirty for the next deal.
				r1, r2 := rand.New(rand.NewPCG(uint64(k), 9)), rand.New(rand.NewPCG(uint64(k), 9))
				for _, pair := range []struct {
					g *Game
					r *rand.Rand
				}{{got, r1}, {want, r2}} {
					for steps := 0; !pair.g.Over() && steps < maxSteps; steps++ {
						w := pair.g.Waiting()
						p := w[pair.r.IntN(len(w))]
						buf = pair.g.AppendLegalMoves(buf[:0], p)
						if err := pair.g.Apply(buf[pair.r.IntN(len(buf))]); err != nil {
							t.Fatalf("%s sample %d: %v", v, k, err)
						}
					}
				}
				if !reflect.DeepEqual(got.st, want.st) {
					t.Fatalf("%s sample %d, deal %d: played on alike, the games differ", v, k, deal)
				}
			}
		}
	}
}

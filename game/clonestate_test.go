package game

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/segmentio/encoding/json"
)

// A clone's state is the original's to the letter (reflect.DeepEqual:
// nil lists stay nil, empty ones empty, the script and the generator
// alike), at every move of whole random games of each variant and of a
// replayed record; and a clone whose lists all grow (and whose lists
// outside the log, which is only ever appended to, change in place)
// leaves every other list of its own and the original as they were,
// though the clone's lists share their memory with each other and its
// log with the original's.
func TestCloneStateEqualAndListsApart(t *testing.T) {
	check := func(g *Game) {
		t.Helper()
		c := g.Clone()
		if !reflect.DeepEqual(c.st, g.st) {
			t.Fatalf("the clone's state differs:\n%+v\nwant\n%+v", c.st, g.st)
		}
		if *c.src != *g.src || c.encMoves.Load() != g.encMoves.Load() {
			t.Fatal("the clone's generator or kept moves differ")
		}
		before, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		// The clone's lists of cards: those it may change in place, then
		// the log's.
		lists := func(s *state) []*[]Card {
			ls := []*[]Card{&s.Display, &s.Draw, &s.Discard, &s.Played}
			for i := range s.Hands {
				ls = append(ls, &s.Hands[i])
			}
			ls = append(ls, &s.Log.Deck)
			for i := range s.Log.Reshuffles {
				ls = append(ls, &s.Log.Reshuffles[i])
			}
			return ls
		}
		inPlace := 4 + len(c.st.Hands)
		var was [][]Card
		for _, l := range lists(&c.st) {
			was = append(was, slices.Clone(*l))
		}
		wasMoves, wasPending := slices.Clone(c.st.Log.Moves), slices.Clone(c.st.Pending)
		for i, l := range lists(&c.st) {
			if i < inPlace && len(*l) > 0 {
				(*l)[0] ^= 0x7f
			}
			*l = append(*l, Card(i), Card(i))
		}
		c.st.Log.Reshuffles = append(c.st.Log.Reshuffles, []Card{1, 2})
		c.st.Log.Moves = append(c.st.Log.Moves, slices.Repeat([]Move{{Player: 9}}, 20)...)
		c.st.Log.Rolls = append(c.st.Log.Rolls, [6]int{9, 9, 9, 9, 9, 9})
		c.st.Log.Left = append(c.st.Log.Left, Departure{Player: 9})
		if len(c.st.Pending) > 0 {
			c.st.Pending[0].Player = 9
		}
		c.st.Pending = append(c.st.Pending, Move{Player: 8})
		for i, l := range lists(&c.st) {
			if i >= len(was) {
				break
			}
			got, w := (*l)[:len(*l)-2], was[i]
			if i < inPlace && len(w) > 0 {
				got, w = got[1:], w[1:]
			}
			if !slices.Equal(got, w) {
				t.Fatalf("list %d of the clone changed with another: %v, want %v", i, got, w)
			}
		}
		if !slices.Equal(c.st.Log.Moves[:len(wasMoves)], wasMoves) || len(wasPending) > 0 && !slices.Equal(c.st.Pending[1:len(wasPending)], wasPending[1:]) {
			t.Fatal("the clone's moves changed with another list")
		}
		if after, _ := g.MarshalBinary(); !bytes.Equal(after, before) {
			t.Fatal("changes to the clone showed in the original")
		}
	}
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for s := range uint64(3) {
			playRandom(t, v, 2+int(s), s+31, func(_ observed, g *Game, _ Move) { check(g) })
		}
	}
	g, err := Replay(playRandom(t, Jokers, 4, 5, nil).Record())
	if err != nil {
		t.Fatal(err)
	}
	check(g)
	check(&Game{st: state{Hands: [][]Card{}, Log: history{Moves: []Move{}}}, src: &rand.ChaCha8{}})
}

// A clone shares its log with the original (Clone), and a snapshot's kept
// moves share it too (movesJSON): a game whose log is shared so, made into
// another game in its own memory (CloneInto, and a deal of hidden cards
// for a computer player's search, which renews a game), leaves the games
// and the kept moves it shares its log with as they were. Checked with
// both ends of the sharing as the game reused.
func TestSharedLogNotReused(t *testing.T) {
	a := midGame(t)
	other := midGameOf(t, Jokers, 4, 3)
	for _, into := range []func(g *Game){
		func(g *Game) { other.CloneInto(g) },
		func(g *Game) {
			d, err := NewDealer(other.Private(other.Waiting()[0]))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Deal(rand.New(rand.NewPCG(1, 2)), g); err != nil {
				t.Fatal(err)
			}
		},
	} {
		g := midGameOf(t, Cards, 3, 11) // its log its own, until:
		if _, err := g.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		kept := g.encMoves.Load()
		was := slices.Clone(kept.moves)
		into(g)
		if !slices.Equal(kept.moves, was) {
			t.Fatal("a game made into another changed the moves its last snapshot kept")
		}
	}
	for _, reuse := range []string{"clone", "original"} {
		g := a.Clone()
		c := g.Clone()
		keep, dst := g, c
		if reuse == "original" {
			keep, dst = c, g
		}
		before, err := keep.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		other.CloneInto(dst)
		if after, _ := keep.MarshalBinary(); !bytes.Equal(after, before) {
			t.Fatalf("CloneInto over the %s changed the game it shares its log with", reuse)
		}
		d, err := NewDealer(other.Private(other.Waiting()[0]))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Deal(rand.New(rand.NewPCG(1, 2)), dst); err != nil {
			t.Fatal(err)
		}
		if after, _ := keep.MarshalBinary(); !bytes.Equal(after, before) {
			t.Fatalf("a deal into the %s changed the game it shares its log with", reuse)
		}
	}
}

// AppendBinary appends to what it is given exactly the bytes
// MarshalBinary returns, at every move of a whole game.
func TestAppendBinaryIsMarshalBinary(t *testing.T) {
	prefix := []byte("table\n")
	playRandom(t, Cards, 3, 41, func(_ observed, g *Game, _ Move) {
		want, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Clone().AppendBinary(slices.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
			t.Fatalf("AppendBinary wrote\n%s\nMarshalBinary\n%s", got, want)
		}
	})
}

// midGame is a game of 3 players, dice and cards, 40 moves in: the
// stored tables' usual game.
func midGame(tb testing.TB) *Game { return midGameOf(tb, Cards, 3, 9) }

// midGameOf is a game of variant v and n players, 40 moves in.
func midGameOf(tb testing.TB, v Variant, n int, s uint64) *Game {
	tb.Helper()
	g, err := New(Config{Variant: v, Players: names[:n], Seed: seed(s)})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		w := g.Waiting()
		ms := g.LegalMoves(w[r.IntN(len(w))])
		if err := g.Apply(ms[r.IntN(len(ms))]); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// BenchmarkCloneMidGame clones a mid-game game, as the bot does for every
// read of a table it holds decoded.
func BenchmarkCloneMidGame(b *testing.B) {
	g := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = g.Clone()
	}
}

// BenchmarkMarshalBinaryMidGame writes a mid-game game's snapshot after a
// move, as the bot does for every table it saves (the moves' JSON of the
// snapshot before kept).
func BenchmarkMarshalBinaryMidGame(b *testing.B) {
	g := midGame(b)
	last := g.st.Log.Moves[len(g.st.Log.Moves)-1]
	g.st.Log.Moves = g.st.Log.Moves[:len(g.st.Log.Moves)-1]
	if _, err := g.MarshalBinary(); err != nil {
		b.Fatal(err)
	}
	kept := g.encMoves.Load()
	g.st.Log.Moves = append(g.st.Log.Moves, last)
	b.ReportAllocs()
	for b.Loop() {
		g.encMoves.Store(&encodedMoves{moves: kept.moves, json: kept.json}) // as the save before left it
		if _, err := g.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}

// The snapshot's lists of cards, written by hand, are what the encoder
// writes for them: every card (jokers and a card that is none included),
// empty and nil lists, and nil lists inside a list.
func TestCardsWrittenAsTheEncoderWrites(t *testing.T) {
	var all []Card
	for k := range 256 {
		all = append(all, Card(k))
	}
	lists := [][]Card{nil, {}, all, FullDeck(true), {ColorCard(Red, 5)}}
	for _, l := range lists {
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCards(nil, l); !bytes.Equal(got, want) {
			t.Errorf("cards written as\n%s\nthe encoder writes\n%s", got, want)
		}
	}
	want, err := json.Marshal(lists)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := appendCardListsField(nil, lists); !bytes.Equal(got, want) {
		t.Errorf("lists written as\n%s\nthe encoder writes\n%s", got, want)
	}
	if f, _ := appendCardField(nil, []Card{}); f != nil {
		t.Errorf("an empty list is written as %q, not left out", f)
	}
}

// Clones of one game share the JSON of its moves written last (movesJSON)
// and the first to write more writes it in place: 8 clones at once, each
// playing its own moves on and writing a snapshot after each, write what
// a copy that has written nothing yet writes, byte for byte (and the race
// detector finds no two writing the same bytes).
func TestSharedMovesJSONWrittenApart(t *testing.T) {
	g := midGame(t)
	if _, err := g.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		c := g.Clone()
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 3))
			for step := 0; step < 30 && !c.Over(); step++ {
				ws := c.Waiting()
				ms := c.LegalMoves(ws[r.IntN(len(ws))])
				if err := c.Apply(ms[r.IntN(len(ms))]); err != nil {
					errs <- err
					return
				}
				got, err := c.MarshalBinary()
				if err != nil {
					errs <- err
					return
				}
				fresh := c.Clone()
				fresh.encMoves.Store(nil)
				want, err := fresh.MarshalBinary()
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(got, want) {
					errs <- fmt.Errorf("clone %d step %d wrote\n%s\nwant\n%s", w, step, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

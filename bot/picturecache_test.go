package bot

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// countingRenderer draws a distinct picture per call and counts the calls.
type countingRenderer struct{ n atomic.Int64 }

func (r *countingRenderer) draw() ([]byte, error) {
	n := r.n.Add(1)
	return bytes.Repeat([]byte{byte(n)}, 1000), nil
}
func (r *countingRenderer) ReviewChart(game.PublicView, game.ScoreSeries, []render.Moment, Lang) ([]byte, error) {
	return r.draw()
}
func (r *countingRenderer) Table(game.PublicView, Lang) ([]byte, error) { return r.draw() }
func (r *countingRenderer) Sheet(game.PublicView, int, []render.Cell, Lang) ([]byte, error) {
	return r.draw()
}
func (r *countingRenderer) Hand(game.PrivateView, Lang) ([]byte, error) { return r.draw() }
func (r *countingRenderer) Results(game.PublicView, *game.Match, Lang) ([]byte, error) {
	return r.draw()
}
func (r *countingRenderer) Chart(game.PublicView, game.ScoreSeries, Lang) ([]byte, error) {
	return r.draw()
}

// A picture is drawn once per state and language and shared; a new state,
// another seat or language is drawn anew; the least recently used go once
// the byte budget is spent.
func TestPictureCacheDrawsOncePerState(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben", "Chloé"}})
	if err != nil {
		t.Fatal(err)
	}
	r := &countingRenderer{}
	c := NewPictureCache(r, 3500) // room for three pictures
	en, de := LangFor("en"), LangFor("de")
	pv := g.Public()
	a, _ := c.Table(pv, en)
	b, _ := c.Table(g.Public(), en)
	if r.n.Load() != 1 || !bytes.Equal(a, b) {
		t.Fatalf("the same table drawn %d times", r.n.Load())
	}
	c.Table(pv, de)
	c.Sheet(pv, 0, nil, en)
	c.Sheet(pv, 0, nil, en)
	if r.n.Load() != 3 {
		t.Fatalf("%d drawings for table en, table de, sheet 0 twice; want 3", r.n.Load())
	}
	if err := g.Apply(g.LegalMoves(g.Waiting()[0])[0]); err != nil {
		t.Fatal(err)
	}
	c.Table(g.Public(), en) // a new state: the fourth picture; the least recently used (table en) goes
	if r.n.Load() != 4 {
		t.Fatalf("a new state was not drawn: %d", r.n.Load())
	}
	if _, _, size := c.Stats(); size > 3500 {
		t.Fatalf("the cache holds %d bytes over its budget", size)
	}
	c.Table(pv, de) // still there
	c.Table(pv, en) // evicted: drawn again
	hits, misses, _ := c.Stats()
	if r.n.Load() != 5 || hits != 3 || misses != 5 {
		t.Fatalf("drawings %d, hits %d, misses %d; want 5, 3, 5", r.n.Load(), hits, misses)
	}
}

// blockingRenderer draws only when released, counting the drawings.
type blockingRenderer struct {
	countingRenderer
	started chan struct{}
	release chan struct{}
}

func (r *blockingRenderer) Table(game.PublicView, Lang) ([]byte, error) {
	if r.n.Load() == 0 {
		close(r.started)
	}
	<-r.release
	return r.draw()
}

// Issue: two goroutines asking for the same new picture at once both drew
// it. Now the second waits for the first's drawing.
func TestPictureCacheDrawsOnceForConcurrentCallers(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	r := &blockingRenderer{started: make(chan struct{}), release: make(chan struct{})}
	c := NewPictureCache(r, 1<<20)
	const callers = 4
	got := make(chan []byte, callers)
	for range callers {
		go func() {
			png, err := c.Table(g.Public(), LangFor("en"))
			if err != nil {
				t.Error(err)
			}
			got <- png
		}()
	}
	<-r.started
	// Until every caller is in the cache: one drawing, the others waiting.
	waitUntil(t, "every caller in the cache", func() bool { hits, misses, _ := c.Stats(); return hits+misses == callers })
	close(r.release)
	first := <-got
	for range callers - 1 {
		if png := <-got; !bytes.Equal(png, first) {
			t.Fatal("callers got different pictures")
		}
	}
	if n := r.n.Load(); n != 1 {
		t.Fatalf("drawn %d times, want once", n)
	}
}

// A private sheet with other choices marked is another picture: the
// choices are part of the cache key.
func TestPictureCacheSheetChoices(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	r := &countingRenderer{}
	c := NewPictureCache(r, 1<<20)
	en, pv := LangFor("en"), g.Public()
	a, _ := c.Sheet(pv, 0, nil, en)
	b, _ := c.Sheet(pv, 0, []render.Cell{{Color: game.Red, Number: 7}}, en)
	b2, _ := c.Sheet(pv, 0, []render.Cell{{Color: game.Red, Number: 7}}, en)
	if r.n.Load() != 2 || bytes.Equal(a, b) || !bytes.Equal(b, b2) {
		t.Fatalf("%d drawings for a sheet without and twice with a choice; want 2", r.n.Load())
	}
}

// A hand's picture is drawn once per hand: the same cards in another state
// of the table are the same picture (render.Hand draws nothing else of the
// game); other cards, another seat or another language are drawn anew.
func TestPictureCacheHandOncePerHand(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Cards, Players: []string{"Anna", "Ben", "Chloé"}, Seed: [32]byte{5}})
	if err != nil {
		t.Fatal(err)
	}
	r := &countingRenderer{}
	c := NewPictureCache(r, 1<<20)
	en := LangFor("en")
	seen := map[string]int64{} // hand → drawings when first drawn
	checked := 0
	for step := 0; step < 60 && !g.Over(); step++ {
		v := g.Private(1)
		before := r.n.Load()
		c.Hand(v, en)
		key := fmt.Sprint(v.Hand)
		if _, ok := seen[key]; ok {
			checked++
			if r.n.Load() != before {
				t.Fatalf("step %d: hand %s drawn again in another state", step, key)
			}
		} else if r.n.Load() != before+1 {
			t.Fatalf("step %d: a new hand %s not drawn", step, key)
		}
		seen[key] = before
		if err := g.Apply(g.LegalMoves(g.Waiting()[0])[0]); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d states showed a hand seen before", checked)
	}
	n := r.n.Load()
	c.Hand(g.Private(0), en)
	c.Hand(g.Private(1), LangFor("de"))
	if r.n.Load() != n+2 {
		t.Fatalf("another seat and another language: %d drawings, want 2", r.n.Load()-n)
	}
}

// sliceRenderer hands out pictures that are slices of larger buffers.
type sliceRenderer struct{ countingRenderer }

func (r *sliceRenderer) Table(game.PublicView, Lang) ([]byte, error) {
	png, _ := r.draw()
	buf := make([]byte, len(png), 100*len(png))
	copy(buf, png)
	return buf, nil
}

// A picture is kept at about its length (the budget counts what it
// holds): one handed out as a slice of a much larger buffer is copied,
// render's (allocated at their size) are kept as they are.
func TestPictureCacheKeepsPicturesAtTheirSize(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	c := NewPictureCache(&sliceRenderer{}, 1<<20)
	png, _ := c.Table(g.Public(), LangFor("en"))
	if cap(png) > len(png)+len(png)/8 {
		t.Fatalf("a picture of %d bytes kept in %d", len(png), cap(png))
	}
	if _, _, held := c.Stats(); held != cap(png) {
		t.Fatalf("the cache counts %d bytes for a picture holding %d", held, cap(png))
	}
	real := NewPictureCache(Images{}, 1<<20)
	a, err := real.Table(g.Public(), LangFor("en"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := real.Table(g.Public(), LangFor("en"))
	sh, err := real.Sheet(g.Public(), 0, nil, LangFor("en"))
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := real.Sheet(g.Public(), 0, nil, LangFor("en"))
	if &a[0] != &b[0] || &sh[0] != &c2[0] {
		t.Fatal("render's pictures copied")
	}
	if _, _, held := real.Stats(); held != cap(a)+cap(sh) {
		t.Fatalf("the cache counts %d bytes for pictures holding %d", held, cap(a)+cap(sh))
	}
}

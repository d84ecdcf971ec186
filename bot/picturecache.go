package bot

import (
	"bytes"
	"encoding/hex"
	"hash/fnv"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
	"github.com/qwixxbot/qwixxbot/render/lru"
)

// PictureCache is a Renderer that draws and encodes each picture once: a
// picture is a function of what it shows (the view, the seat, the match)
// and the language, so it is kept under a fingerprint of those and shared
// by every message that shows it (the table's live message and the click
// answer that updates it, a player's sheet view opened again, everyone
// looking at the same results). The least recently used pictures go first
// once the cache holds more than its byte budget (render/lru). It is safe
// for concurrent use; two goroutines asking for the same new picture at
// once draw it once.
type PictureCache struct {
	next  Renderer
	cache *lru.Cache[string, []byte]
}

// NewPictureCache wraps next with a cache of at most budget bytes of PNG.
func NewPictureCache(next Renderer, budget int) *PictureCache {
	return &PictureCache{next: next, cache: lru.New[string](budget, func(png []byte) int { return cap(png) })}
}

// Stats reports the cache's lookups that found a picture and those that
// drew one, and the bytes it holds.
func (c *PictureCache) Stats() (hits, misses int64, bytes int) { return c.cache.Stats() }

func (c *PictureCache) get(key string, draw func() ([]byte, error)) ([]byte, error) {
	return c.cache.GetOrLoad(key, func() ([]byte, error) {
		png, err := draw()
		// The budget counts what a picture holds (its capacity). One
		// handed out in a much larger buffer is copied; render's are
		// allocated at their size (rounded up by the allocator) and kept
		// as they are.
		if cap(png) > 2*len(png) {
			png = bytes.Clone(png)
		}
		return png, err
	})
}

// Table implements Renderer.
func (c *PictureCache) Table(v game.PublicView, l Lang) ([]byte, error) {
	return c.get("table "+l.Code()+" "+pictureKey(v), func() ([]byte, error) { return c.next.Table(v, l) })
}

// Sheet implements Renderer.
func (c *PictureCache) Sheet(v game.PublicView, seat int, choices []render.Cell, l Lang) ([]byte, error) {
	return c.get("sheet "+l.Code()+" "+pictureKey(v, seat, choices), func() ([]byte, error) { return c.next.Sheet(v, seat, choices, l) })
}

// Hand implements Renderer. A hand's picture shows the seat's cards and
// name and nothing else of the game (render.Hand), so it is kept under
// those: one picture per hand, not one per state of the table (the views
// of a hand are updated at every move).
func (c *PictureCache) Hand(v game.PrivateView, l Lang) ([]byte, error) {
	names := make([]string, len(v.Players))
	for p, pv := range v.Players {
		names[p] = pv.Name
	}
	key := pictureKey(v.Variant, v.Seat, names, v.Hand)
	return c.get("hand "+l.Code()+" "+key, func() ([]byte, error) { return c.next.Hand(v, l) })
}

// Results implements Renderer.
func (c *PictureCache) Results(v game.PublicView, m *game.Match, l Lang) ([]byte, error) {
	return c.get("results "+l.Code()+" "+pictureKey(v, m), func() ([]byte, error) { return c.next.Results(v, m, l) })
}

// Chart implements Renderer. The chart shows the series and the players'
// names (its last point is the scores), so the key covers those.
func (c *PictureCache) Chart(v game.PublicView, s game.ScoreSeries, l Lang) ([]byte, error) {
	names := make([]string, len(v.Players))
	for p, pv := range v.Players {
		names[p] = pv.Name
	}
	return c.get("chart "+l.Code()+" "+pictureKey(names, s), func() ([]byte, error) { return c.next.Chart(v, s, l) })
}

// pictureKey hashes what a picture shows (128-bit FNV of the JSON): a
// collision would show one state's picture for another.
func pictureKey(vs ...any) string {
	h := fnv.New128a()
	hashJSON(h, vs...)
	var sum [16]byte
	var out [32]byte
	hex.Encode(out[:], h.Sum(sum[:0]))
	return string(out[:])
}

// ReviewChart implements Renderer. Reviews pass by this cache: the bot
// keeps its review answers, charts included, in its own (reviewCache).
func (c *PictureCache) ReviewChart(v game.PublicView, s game.ScoreSeries, moments []render.Moment, l Lang) ([]byte, error) {
	return c.next.ReviewChart(v, s, moments, l)
}

package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// News is kept as data and put into words when shown: the stored table
// holds no words of any language, the same news reads in German and in
// English, and news stored in words by an earlier version still shows.
func TestNewsKeptAsDataWordedWhenShown(t *testing.T) {
	seats := []Seat{{UserID: "a", Name: "Anna"}, {UserID: "b", Name: "Ben"}}
	cases := []struct {
		n      News
		en, de string
	}{
		{News{Event: newsLock, Seat: 1, Color: game.Blue}, "🔒 Ben locked", "🔒 Ben hat"},
		{News{Event: newsMisthrow, Seat: 0, N: 2}, "Anna took a misthrow (2/4)", "Anna kreuzt einen Fehlwurf an (2/4)"},
		{News{Event: newsReshuffle, N: 23}, "23 cards", "23 Karten"},
		{News{Event: newsLeft, Seat: 1}, "Ben has left the game and passes", "Ben hat das Spiel verlassen und passt"},
		{News{Event: newsLeftBot, Seat: 0}, "a computer player plays for them", "ein Computer"},
		{News{Event: newsTimeoutTake, Seat: 1, Nums: []int{5, 9}}, "(5 + 9)", "5 + 9"},
		{News{Event: newsTimeout, Seat: 0}, "⌛ Time ran out for Anna", "⌛ Anna hat die Zeit überschritten"},
		{News{Event: newsPlayed, Seat: 0, Cards: []string{"R4", "J7"}, Color: game.Green}, "Anna played", "Anna hat"},
		{News{Turn: 3, Text: "⌛ Old words"}, "⌛ Old words", "⌛ Old words"},
	}
	for _, c := range cases {
		en, de := view.NewsWords(c.n, LangFor("en"), seats), view.NewsWords(c.n, LangFor("de"), seats)
		if !strings.Contains(en, c.en) || !strings.Contains(de, c.de) {
			t.Errorf("%+v: en %q, de %q", c.n, en, de)
		}
		if (strings.HasPrefix(c.n.Event, "timeout") || c.n.Event == "") != c.n.IsTimeout() {
			t.Errorf("%+v: timeout() = %v", c.n, c.n.IsTimeout())
		}
	}
	// A real game's news: stored without words.
	h := newHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	tb := h.table()
	if len(tb.News) == 0 {
		t.Fatal("a whole game made no news")
	}
	raw, err := json.Marshal(tb.News)
	if err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"locked", "misthrow (", "anna", "ben"} {
		if strings.Contains(string(raw), word) {
			t.Errorf("stored news hold words (%q): %s", word, raw)
		}
	}
	for _, n := range tb.News {
		if n.Event == "" || view.NewsWords(n, LangFor("fr"), tb.Seats) == "" {
			t.Errorf("news %+v has no event or no French words", n)
		}
	}
}

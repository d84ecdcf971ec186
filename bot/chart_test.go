package bot

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
)

// lastChart is the series of the newest chart drawn.
func (r *tinyRenderer) lastChart() (game.ScoreSeries, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.charts) == 0 {
		return game.ScoreSeries{}, 0
	}
	return r.charts[len(r.charts)-1], len(r.charts)
}

func attachmentNames(m *discordgo.Message) []string {
	var out []string
	for _, a := range m.Attachments {
		out = append(out, a.Filename)
	}
	return out
}

// The results of a finished game carry the score chart beside the results
// picture, drawn from the game's whole series (D9, C9: it ends at the final
// scores).
func TestResultsCarryTheScoreChartD9C9(t *testing.T) {
	for _, variant := range []string{"dice", "cards"} {
		t.Run(variant, func(t *testing.T) {
			h := newHarness(t)
			h.bot.opt.LiveAnswers = true
			lobby := h.command("anna", "new", strOpt("variant", variant))
			lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Add computer (medium)")[0], nil)
			h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
			h.playAnnaAlone()
			g := h.table().Game
			if !g.Over() {
				t.Fatal("the game is not over")
			}
			msgs := h.dc.channel[testChannel]
			res := msgs[len(msgs)-1]
			if got, want := attachmentNames(res), []string{"results.png", "chart.png"}; !slices.Equal(got, want) {
				t.Fatalf("results message attachments %v, want %v", got, want)
			}
			s, _ := h.bot.rd.(*tinyRenderer).lastChart()
			if want := g.ScoreSeries(); !reflect.DeepEqual(s, want) {
				t.Fatalf("chart drawn of %+v, want the game's series %+v", s, want)
			}
			if s.Turns() != g.Turn() || !slices.Equal(s.Final(), g.Scores()) {
				t.Fatalf("chart of %d turns ending at %v; the game had %d turns, scores %v", s.Turns(), s.Final(), g.Turn(), g.Scores())
			}
		})
	}
}

// /qwixx end on a game in progress answers with the results and the chart
// of the turns played so far, ending at the scores as they stand.
func TestStoppedGameResultsCarryTheChartOfTheTurnsPlayed(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTwo("dice")
	for range 13 {
		tb := h.table()
		p := tb.Game.Waiting()[0]
		h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
	}
	g := h.table().Game
	if g.Over() || g.Turn() < 3 {
		t.Fatalf("turn %d, over %v: want a game in progress", g.Turn(), g.Over())
	}
	r := h.command("anna", "end")
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data == nil {
		t.Fatalf("/qwixx end answered %+v", r)
	}
	var names []string
	for _, f := range r.Data.Files {
		names = append(names, f.Name)
	}
	if want := []string{"results.png", "chart.png"}; !slices.Equal(names, want) {
		t.Fatalf("stopped game's results files %v, want %v", names, want)
	}
	s, n := h.bot.rd.(*tinyRenderer).lastChart()
	if n == 0 {
		t.Fatal("no chart drawn")
	}
	if !slices.Equal(s.Final(), g.Scores()) || s.Turns() < g.Turn()-1 || s.Turns() > g.Turn() {
		t.Fatalf("chart of %d turns ending at %v; the game stopped in turn %d at %v", s.Turns(), s.Final(), g.Turn(), g.Scores())
	}
}

// The picture cache draws a chart once per series, names and language.
func TestPictureCacheChartKey(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	r := &countingRenderer{}
	c := NewPictureCache(r, 1<<20)
	en, de := LangFor("en"), LangFor("de")
	v, s := g.Public(), g.ScoreSeries()
	a, _ := c.Chart(v, s, en)
	b, _ := c.Chart(g.Public(), g.ScoreSeries(), en)
	if !bytes.Equal(a, b) || r.n.Load() != 1 {
		t.Fatalf("the same chart drawn %d times", r.n.Load())
	}
	c.Chart(v, s, de)
	renamed := v
	renamed.Players = slices.Clone(v.Players)
	renamed.Players[1].Name = "Benedikt"
	c.Chart(renamed, s, en)
	for !g.Over() && g.Turn() < 3 {
		g.Apply(game.PassMove(g.Waiting()[0]))
	}
	c.Chart(g.Public(), g.ScoreSeries(), en)
	if r.n.Load() != 4 {
		t.Fatalf("%d charts drawn, want 4 (a language, a name, a series)", r.n.Load())
	}
}

// Issue 40: a game stopped before its first turn ended got an empty chart
// (axes and nothing on them). Its results carry no chart (the renderer
// refuses such a chart: render's TestChartOfNoTurnIsRefused).
func TestStoppedBeforeTurnOneHasNoChart(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTwo("dice")
	tb := h.table()
	p := tb.Game.Waiting()[0]
	h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p)) // a move, but no turn ends
	g := h.table().Game
	if s := g.ScoreSeries(); s.Turns() != 0 {
		t.Fatalf("%d turns finished at the start", s.Turns())
	}
	before := len(h.bot.rd.(*tinyRenderer).charts)
	r := h.command("anna", "end")
	if r.Data == nil {
		t.Fatalf("/qwixx end answered %+v", r)
	}
	var names []string
	for _, f := range r.Data.Files {
		names = append(names, f.Name)
	}
	if slices.Contains(names, "chart.png") {
		t.Fatalf("the results of a game stopped before turn 1 carry a chart: %v", names)
	}
	if _, n := h.bot.rd.(*tinyRenderer).lastChart(); n != before {
		t.Fatal("a chart was drawn")
	}
}

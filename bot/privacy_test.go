package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// privacyGame is a finished game of the privacy matrix.
type privacyGame struct {
	name   string
	at     where  // where it was played
	player string // its first seat, who asks as "the player"
	table  *Table // as it ended
	id     string // its game ID in the history
	end    time.Time
	// results is the ID of its results message in its channel, with the
	// score chart ("" for a private game: it posts nothing).
	results string
	// share is its text to share ("" but for the daily challenge).
	share string
}

// privacyWhats are the matrix's columns: what a viewer tries to get of a
// game.
var privacyWhats = []string{"record", "autocomplete", "button", "stats", "leaderboard", "review", "chart", "share"}

// playPrivacyGames plays the matrix's five games through the bot, an
// hour apart: a table game in a server's channel (anna, ben), a table
// game in a group DM (gus, gwen; gina is the group's third member), a
// solo game in the channel (sam), a private solo game (pia) and the daily
// challenge (dan), the last two started in the server.
func playPrivacyGames(t *testing.T, h *harness, st *store.Store) []*privacyGame {
	t.Helper()
	var games []*privacyGame
	finish := func(g *privacyGame, key string) {
		t.Helper()
		tb, err := h.bot.loadTable(context.Background(), key)
		if err != nil || tb == nil || tb.Game == nil || !tb.Game.Over() {
			t.Fatalf("%s did not end: %v", g.name, err)
		}
		g.table, g.id = tb, tb.GameID()
		var found bool
		for _, place := range []string{"g1", "@dm:gdm1"} {
			rs, _ := st.Results(place, 0)
			for _, r := range rs {
				if r.GameID == g.id {
					g.end, found = r.Time, true
				}
			}
		}
		if !found {
			t.Fatalf("%s: no result kept", g.name)
		}
		if tb.Private == "" {
			h.dc.mu.Lock()
			for _, m := range h.dc.channel[g.at.channel] {
				if slices.ContainsFunc(m.Attachments, func(a *discordgo.MessageAttachment) bool { return a.Filename == "chart.png" }) {
					g.results = m.ID
				}
			}
			h.dc.mu.Unlock()
			if g.results == "" {
				t.Fatalf("%s: no results with a chart in %s", g.name, g.at.channel)
			}
		}
		games = append(games, g)
		h.clock.Advance(time.Hour)
	}

	h.startTwo("dice")
	h.playToEnd()
	finish(&privacyGame{name: "table in a channel", at: inServer, player: "anna"}, testChannel)

	lobby := h.commandAt(inGroupDM, "gus", "new", strOpt("variant", "dice"))
	joined := h.clickAt(inGroupDM, "gwen", buttons(lobby.Data.Components, "Join")[0], &discordgo.Message{ID: "lobby"})
	h.clickAt(inGroupDM, "gus", buttons(joined.Data.Components, "Start")[0], &discordgo.Message{ID: "lobby"})
	h.playToEndAt(inGroupDM)
	finish(&privacyGame{name: "table in a group DM", at: inGroupDM, player: "gus"}, inGroupDM.channel)

	h.command("sam", "solo", strOption("where", "channel"))
	h.playToEnd()
	finish(&privacyGame{name: "solo in a channel", at: inServer, player: "sam"}, testChannel)

	h.playPrivate("pia", h.command("pia", "solo"), cycle)
	finish(&privacyGame{name: "solo private", at: inServer, player: "pia"}, privateKey(privateSolo, "pia"))

	h.playPrivate("dan", h.command("dan", "daily"), cycle)
	d := &privacyGame{name: "daily", at: inServer, player: "dan"}
	finish(d, privateKey(privateDaily, "dan"))
	d.share = view.DailyShare(LangFor("en"), d.table)
	return games
}

// probe tries what of game g as user from w through the bot's handlers
// and reports whether any of g reached them.
func (h *harness) probe(w where, user, what string, g *privacyGame) bool {
	h.t.Helper()
	first := g.table.Seats[0].Name
	switch what {
	case "record":
		return strings.Contains(h.recordFile(h.commandAt(w, user, "record", strOption("game", g.id))), `"first": "`+first+`"`)
	case "autocomplete":
		return slices.ContainsFunc(h.autocompleteAt(w, user, ""), func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == g.id })
	case "button":
		// The 📄 Record button of g's results, forged: the table and game
		// number of its ID. A daily challenge's ID cannot be written in
		// one (it has no such button): the forgery names its table.
		table, arg, _ := strings.Cut(g.id, "-")
		if g.table.Daily > 0 {
			table, arg = g.table.ID, "1"
		}
		id := customid.Action{Table: table, View: customid.ViewResults, Verb: "record", Arg: arg}.Encode()
		return strings.Contains(h.recordFile(h.clickAt(w, user, id, nil)), `"first": "`+first+`"`)
	case "stats":
		// A table game is among the last games, by its time; a solo game
		// in the solo line (each solo player here has one game).
		text := embedText(h.commandAt(w, user, "stats", userOpt("player", g.player)))
		if len(g.table.Seats) == 1 {
			return strings.Contains(text, fmt.Sprintf("1 game · mean %d.0 · best %d", g.table.Game.Scores()[0], g.table.Game.Scores()[0]))
		}
		return strings.Contains(text, fmt.Sprintf("<t:%d:d>", g.end.Unix()))
	case "leaderboard":
		return strings.Contains(embedText(h.commandAt(w, user, "leaderboard")), first)
	case "review", "chart":
		// The Review buttons of g: its results' (a table game's) and its
		// private view's (solo, daily), forged for g's table.
		var got []*discordgo.InteractionResponse
		got = append(got, h.clickAt(w, user, customid.Action{Table: g.table.ID, View: customid.ViewResults, Verb: "review", Arg: "1"}.Encode(), nil))
		for _, v := range []customid.View{customid.ViewSolo, customid.ViewDaily} {
			got = append(got, h.clickAt(w, user, customid.Action{Table: g.table.ID, View: v, Verb: "review", Arg: "1"}.Encode(), ephemeralMsg))
		}
		for _, r := range got {
			if r.Data == nil {
				continue
			}
			if what == "review" && strings.Contains(r.Data.Content, "Review of your game") {
				return true
			}
			if what == "chart" && slices.ContainsFunc(r.Data.Files, func(f *discordgo.File) bool { return f.Name == "review.png" }) {
				return true
			}
		}
		if what == "chart" && g.results != "" {
			// The chart beside the results, in the channel g was
			// played in: seen by whoever is in that channel.
			h.dc.mu.Lock()
			m := h.dc.byID[g.results]
			h.dc.mu.Unlock()
			return m != nil && m.ChannelID == w.channel
		}
		return false
	case "share":
		// The text to share is on the finished daily challenge's view,
		// which /qwixx daily shows its player.
		if g.share == "" {
			return false
		}
		r := h.commandAt(w, user, "daily")
		return r.Data != nil && strings.Contains(r.Data.Content, g.share)
	}
	h.t.Fatalf("no probe %q", what)
	return false
}

// TestPrivacyMatrix (issue 39): who may see what of which game, every
// cell through the bot's real handlers. A table game is its players' and
// its place's (the server, or the group DM: a place of its own); a
// private game (solo, daily challenge) its player's alone. Beyond the
// place rule: a review is of one's own seat (players only); the
// leaderboard is posted in the channel and rates games against
// opponents, so no solo game is on it; a daily challenge's record has no
// button (its ID cannot be written in one); only the daily challenge
// has a text to share, shown to its player on its finished view.
func TestPrivacyMatrix(t *testing.T) {
	h, st := newHistoryHarness(t)
	games := playPrivacyGames(t, h, st)
	type who struct {
		name string
		at   func(g *privacyGame) where
		user func(g *privacyGame) string
	}
	whos := []who{
		{"player", func(g *privacyGame) where { return g.at }, func(g *privacyGame) string { return g.player }},
		{"other member", func(*privacyGame) where { return inServer }, func(*privacyGame) string { return "carl" }},
		{"other server", func(*privacyGame) where { return inServer2 }, func(*privacyGame) string { return "olga" }},
		{"DM stranger", func(*privacyGame) where { return dmOf("dora") }, func(*privacyGame) string { return "dora" }},
		{"group-DM member", func(*privacyGame) where { return inGroupDM }, func(*privacyGame) string { return "gina" }},
	}
	// want[game][who] lists the columns allowed; every other is refused.
	all := "record autocomplete button stats leaderboard review chart"
	want := map[string]map[string]string{
		"table in a channel": {
			"player":       all,
			"other member": "record autocomplete button stats leaderboard chart",
		},
		"table in a group DM": {
			"player":          all,
			"group-DM member": "record autocomplete button stats leaderboard chart",
		},
		"solo in a channel": {
			"player":       "record autocomplete button stats review chart",
			"other member": "record autocomplete button stats chart",
		},
		"solo private": {
			"player": "record autocomplete button stats review chart",
		},
		"daily": {
			"player": "record autocomplete stats review chart share",
		},
	}
	if len(games) != len(want) {
		t.Fatalf("%d games for %d rows", len(games), len(want))
	}
	// The share column asks for the daily challenge, which deals one to a
	// viewer who has none: it goes last, after every other column.
	cols := slices.DeleteFunc(slices.Clone(privacyWhats), func(s string) bool { return s == "share" })
	cols = append(cols, "share")
	cells := 0
	defer func() { t.Logf("%d cells asserted", cells) }()
	for _, what := range cols {
		for _, g := range games {
			for _, w := range whos {
				cells++
				allowed := slices.Contains(strings.Fields(want[g.name][w.name]), what)
				if got := h.probe(w.at(g), w.user(g), what, g); got != allowed {
					t.Errorf("%s × %s × %s: allowed %v, want %v", w.name, what, g.name, got, allowed)
				}
			}
		}
	}
	// /qwixx record with no game gives each viewer the newest record they
	// may see, never another.
	for _, w := range whos[1:] {
		got := h.recordFile(h.commandAt(w.at(nil), w.user(nil), "record"))
		for _, g := range games {
			mayRecord := slices.Contains(strings.Fields(want[g.name][w.name]), "record")
			if !mayRecord && got != "" && strings.Contains(got, `"first": "`+g.table.Seats[0].Name+`"`) {
				t.Errorf("%s's newest record is %s's", w.name, g.name)
			}
		}
	}
	// No private game posted anything in a channel.
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	for ch, msgs := range h.dc.channel {
		for _, m := range msgs {
			for _, name := range []string{"pia", "dan"} {
				if strings.Contains(m.Content, name) {
					t.Errorf("channel %s shows %s's private game: %q", ch, name, m.Content)
				}
			}
		}
	}
}

// keepLegacyDM keeps a finished dice game of users (seat order) as a
// version-4 database kept every DM's game, under the shared DM history,
// and as store migration 5 leaves it: private. It returns its game ID.
func keepLegacyDM(t *testing.T, st *store.Store, id string, at time.Time, users ...string) string {
	t.Helper()
	g, err := game.New(game.Config{Variant: game.Dice, Players: users, Seed: [32]byte{9}})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		p := g.Waiting()[0]
		if err := g.Apply(ai.Choose(ai.Easy, g.Private(p), g.LegalMoves(p))); err != nil {
			t.Fatal(err)
		}
	}
	r, err := stats.FromGame(session.LegacyDMPlace, id, at, g, users)
	if err != nil {
		t.Fatal(err)
	}
	r.Private = true
	rec, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveGame(r, rec); err != nil {
		t.Fatal(err)
	}
	return id
}

// The shared DM history of before the places (store migration 5): each
// game kept there is its players' alone, seen by them from any DM or
// group DM, and by nobody else; from a server it is not seen.
func TestLegacyDMHistoryItsPlayersAlone(t *testing.T) {
	h, st := newHistoryHarness(t)
	now := h.clock.Now()
	solo := keepLegacyDM(t, st, "old-solo-1", now.Add(-2*time.Hour), "anna")
	table := keepLegacyDM(t, st, "old-table-1", now.Add(-time.Hour), "anna", "dora")
	for _, tc := range []struct {
		user string
		at   where
		want []string
	}{
		{"anna", dmOf("anna"), []string{table, solo}},
		{"anna", inGroupDM, []string{table, solo}},
		{"dora", dmOf("dora"), []string{table}},
		{"gina", inGroupDM, nil},
		{"carl", dmOf("carl"), nil},
		{"anna", inServer, nil},
	} {
		var got []string
		for _, c := range h.autocompleteAt(tc.at, tc.user, "") {
			got = append(got, fmt.Sprint(c.Value))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s in %v is offered %v, want %v", tc.user, tc.at, got, tc.want)
		}
		for _, id := range []string{solo, table} {
			file := h.recordFile(h.commandAt(tc.at, tc.user, "record", strOption("game", id)))
			if (file != "") != slices.Contains(tc.want, id) {
				t.Errorf("%s in %v gets record %s: %v, want %v", tc.user, tc.at, id, file != "", slices.Contains(tc.want, id))
			}
		}
	}
}

// The daily challenge's ranking (dailyRanking) is made of the day's
// results in the place the viewer played it, and only for a viewer who
// finished it there: to anybody else it shows nothing, so no score of the
// day reaches who has not played its dice.
func TestDailyRankingOnlyForWhoFinishedIt(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.playPrivate("anna", h.command("anna", "daily"), cycle)
	h.playPrivate("ben", h.command("ben", "daily"), cycle)
	ta, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	req := func(user string, w where) *request {
		i := h.interaction(user, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{Name: "qwixx"}, nil)
		i.GuildID, i.ChannelID = w.guild, w.channel
		return &request{ctx: context.Background(), b: h.bot, i: i, lang: LangFor("en"), userID: user, log: reqLog{base: &h.bot.log}}
	}
	if rank, of, top := (records{h.bot.opt.History}).dailyRanking(req("anna", inServer), ta); rank == 0 || of != 2 || len(top) != 2 {
		t.Fatalf("anna's ranking: %d of %d, %q", rank, of, top)
	}
	// Carl, who has not played, is shown nothing of anna's table.
	if rank, of, top := (records{h.bot.opt.History}).dailyRanking(req("carl", inServer), ta); rank != 0 || of != 0 || len(top) != 0 {
		t.Fatalf("carl, who did not play, sees a ranking: %d of %d, %q", rank, of, top)
	}
	// A daily finished in a DM is ranked in that DM alone.
	h.playPrivate("dora", h.commandAt(dmOf("dora"), "dora", "daily"), cycle)
	td, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "dora"))
	if rank, of, _ := (records{h.bot.opt.History}).dailyRanking(req("dora", dmOf("dora")), td); rank != 1 || of != 1 {
		t.Fatalf("dora's ranking in her DM: %d of %d", rank, of)
	}
}

// A daily table of the day without its mark (dealt before the marks were
// kept, or by a process stopped before writing it) gets its mark when
// forget-me deletes it: the day is not dealt again.
func TestForgetMeMarksAnUnmarkedDailyOfTheDay(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.playPrivate("anna", h.command("anna", "daily"), cycle)
	h.st.mu.Lock()
	if len(h.st.marks) != 1 {
		h.st.mu.Unlock()
		t.Fatalf("%d daily marks after anna's daily, want 1", len(h.st.marks))
	}
	h.st.marks = nil // as before the marks
	h.st.mu.Unlock()
	ask := h.command("anna", "forget-me")
	h.click("anna", buttons(ask.Data.Components, "Forget me")[0], ephemeralMsg)
	again := h.command("anna", "daily")
	if len(moveButtons(t, again.Data.Components)) != 0 || !strings.Contains(again.Data.Content, "already played") {
		t.Fatalf("the day's daily after forget-me: %q", again.Data.Content)
	}
	h.st.mu.Lock()
	defer h.st.mu.Unlock()
	for k := range h.st.marks {
		if strings.Contains(k, "anna") {
			t.Errorf("a daily mark holds the user ID: %q", k)
		}
	}
}

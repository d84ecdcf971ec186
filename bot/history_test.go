package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"
	"go.etcd.io/bbolt"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
	"github.com/qwixxbot/qwixxbot/store/sessiondb"
)

// histStore is the harness's memStore with a real store for the history.
// UpdateSaving writes the table, then the games (the real store does both
// in one transaction; store's tests check that).
type histStore struct {
	*sessiondb.OnDisk
	tables *memStore
	hist   *store.Store
	fail   bool // UpdateSaving fails, writing nothing
}

func (s *histStore) UpdateSaving(ctx context.Context, ch string, games []session.Finished, fn func([]byte, bool) ([]byte, bool, error)) error {
	if s.fail {
		return fmt.Errorf("histstore: update %s: disk full", ch)
	}
	if err := s.tables.Update(ctx, ch, fn); err != nil {
		return err
	}
	for _, g := range games {
		if err := s.hist.SaveGame(g.Result, g.Record); err != nil {
			return err
		}
	}
	return nil
}

// newHistoryHarness is a harness whose bot keeps a history in a store in
// a temporary directory.
func newHistoryHarness(t *testing.T) (*harness, *store.Store) {
	h := newHarness(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.use(h.st, &histStore{OnDisk: sessiondb.NewOnDisk(st), tables: h.st, hist: st})
	return h, st
}

// playToEnd plays the running game to its end through the players' sheet
// buttons, each time the step's choice among them, and returns how many
// clicks it took.
func (h *harness) playToEnd() (clicks int) {
	h.t.Helper()
	h.untilOver(func(tb *Table, p, step int) {
		h.sheetChoice(tb.Seats[p].UserID, step)
		clicks += 2
	})
	return clicks
}

// sheetChoice opens user's sheet from the table message and clicks the
// step-th of its buttons (modulo their number), returning the answer.
func (h *harness) sheetChoice(user string, step int) *discordgo.InteractionResponse {
	h.t.Helper()
	msg := h.dc.lastTable(testChannel)
	sheet := h.click(user, buttons(msg.Components, "My sheet")[0], msg)
	ids := buttons(sheet.Data.Components, "")
	if len(ids) == 0 {
		h.t.Fatalf("player %s may act but the sheet offers nothing", user)
	}
	return h.click(user, ids[step%len(ids)], &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral})
}

// resultsPost is the channel's newest message with a Play again button.
// reviewOfResults is the finished game's results post, its one 🔍 Review
// button and the review the bot should answer seat with (graded from the
// game as played).
func (h *harness) reviewOfResults(seat int) (res *discordgo.Message, button string, want ai.GameReview) {
	h.t.Helper()
	tb := h.table()
	res = h.resultsPost()
	rv := buttons(res.Components, "Review")
	if len(rv) != 1 {
		h.t.Fatalf("%d Review buttons on the results", len(rv))
	}
	want, err := ai.Review(tb.Game.Record(), seat)
	if err != nil {
		h.t.Fatal(err)
	}
	return res, rv[0], want
}

func (h *harness) resultsPost() *discordgo.Message {
	h.t.Helper()
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	msgs := h.dc.channel[testChannel]
	for i := len(msgs) - 1; i >= 0; i-- {
		if len(buttons(msgs[i].Components, "Play again")) > 0 || len(buttons(msgs[i].Components, "Next game")) > 0 {
			return msgs[i]
		}
	}
	h.t.Fatal("no results posted")
	return nil
}

// sentFile is the file name of an interaction's response.
func (h *harness) sentFile(resp *discordgo.InteractionResponse, interaction, suffix string) []byte {
	h.t.Helper()
	if resp.Data == nil || len(resp.Data.Files) != 1 || !strings.HasSuffix(resp.Data.Files[0].Name, suffix) {
		h.t.Fatalf("response %+v has no %s file", resp.Data, suffix)
	}
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	return h.dc.files[interaction+"/"+resp.Data.Files[0].Name]
}

// lastID is the ID of the harness's newest interaction.
func (h *harness) lastID() string { return fmt.Sprintf("i%d", h.seq) }

// replayScores replays a record as `qwixxbot replay` does and returns its
// players and final scores.
func replayScores(t *testing.T, data []byte) ([]string, []int) {
	t.Helper()
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatalf("record does not parse: %v\n%s", err, data)
	}
	g, err := game.Replay(rec)
	if err != nil {
		t.Fatalf("record does not replay: %v", err)
	}
	if !g.Over() {
		t.Fatal("the replayed game is not over")
	}
	return rec.Players, g.Scores()
}

func userOpt(name, id string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: id}
}

func embedText(resp *discordgo.InteractionResponse) string {
	if resp.Data == nil || len(resp.Data.Embeds) != 1 {
		return ""
	}
	e := resp.Data.Embeds[0]
	s := e.Title + "\n" + e.Description
	for _, f := range e.Fields {
		s += "\n" + f.Name + ": " + f.Value
	}
	if e.Footer != nil {
		s += "\n" + e.Footer.Text
	}
	return s
}

// A game played to its end through the bot is kept: /qwixx stats shows it
// to each player, the leaderboard lists both, and the Record button and
// /qwixx record give its record, which replays to the same scores.
func TestHistoryOfAFinishedGame(t *testing.T) {
	h, st := newHistoryHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	tb := h.table()
	scores := tb.Game.Scores()
	results, err := st.Results("g1", 0)
	if err != nil || len(results) != 1 {
		t.Fatalf("results %v, %v; want the one game", results, err)
	}
	if r := results[0]; r.GameID != tb.ID+"-1" || r.Seats[0].UserID != "anna" || r.Seats[1].Score != scores[1] {
		t.Fatalf("result %+v, scores %v", r, scores)
	}

	// Stats: private, with the game, and a button that shows them.
	for i, u := range []string{"anna", "ben"} {
		resp := h.command(u, "stats")
		if resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatal("stats must be private")
		}
		text := embedText(resp)
		wins := 0
		if slices.Contains(game.Winners(scores), i) {
			wins = 1
		}
		want := fmt.Sprintf("1 game · %d win", wins)
		if wins != 1 {
			want += "s"
		}
		if !strings.Contains(text, want) || !strings.Contains(text, fmt.Sprintf("**%s %d**", u, scores[i])) {
			t.Fatalf("%s's stats %q lack %q or their score %d", u, text, want, scores[i])
		}
	}
	resp := h.command("ben", "stats", userOpt("player", "anna"))
	if !strings.Contains(embedText(resp), "anna: Qwixx statistics") {
		t.Fatalf("stats of another player: %q", embedText(resp))
	}
	show := buttons(resp.Data.Components, "Show in channel")
	if len(show) != 1 {
		t.Fatal("no Show in channel button")
	}
	// The buttons outlive a restart: they carry all they need.
	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	shown := h.click("ben", show[0], &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral})
	if shown.Type != discordgo.InteractionResponseChannelMessageWithSource || shown.Data.Flags&discordgo.MessageFlagsEphemeral != 0 ||
		!strings.Contains(embedText(shown), "anna: Qwixx statistics") {
		t.Fatalf("Show in channel answered %+v", shown.Data)
	}
	// A forged show button (another user's ID, the check not recomputed).
	forged := strings.Replace(show[0], ":anna:", ":cleo:", 1)
	if r := h.click("ben", forged, &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}); !strings.Contains(r.Data.Content, "not one of mine") {
		t.Fatalf("forged stats button answered %+v", r.Data)
	}

	// Leaderboard: public, both players, the measure explained.
	board := h.command("anna", "leaderboard")
	text := embedText(board)
	if board.Data.Flags&discordgo.MessageFlagsEphemeral != 0 || !strings.Contains(text, "anna (1)") || !strings.Contains(text, "ben (1)") ||
		!strings.Contains(text, "Rating:") || !strings.Contains(text, "ranked from 3 games") {
		t.Fatalf("leaderboard %q", text)
	}

	// The Record button on the results, and /qwixx record.
	post := h.resultsPost()
	rec := buttons(post.Components, "Record")
	if len(rec) != 1 {
		t.Fatalf("results have no Record button: %+v", post.Components)
	}
	resp = h.click("ben", rec[0], post)
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatal("the record must be sent privately")
	}
	byButton := h.sentFile(resp, h.lastID(), ".json")
	players, got := replayScores(t, byButton)
	if !slices.Equal(got, scores) || !slices.Equal(players, []string{"anna", "ben"}) {
		t.Fatalf("record replays to %v %v, the game ended %v", players, got, scores)
	}
	resp = h.command("anna", "record")
	if string(h.sentFile(resp, h.lastID(), ".json")) != string(byButton) {
		t.Fatal("/qwixx record sends another record than the button")
	}
	resp = h.command("anna", "record", strOpt("game", tb.ID+"-1"))
	if string(h.sentFile(resp, h.lastID(), ".json")) != string(byButton) {
		t.Fatal("/qwixx record with the game's ID sends another record")
	}
	if resp = h.command("anna", "record", strOpt("game", "nope-3")); !strings.Contains(resp.Data.Content, "I have no record") {
		t.Fatalf("unknown game answered %q", resp.Data.Content)
	}

	// Autocomplete offers the game, with its players and scores.
	ac := h.autocompleteGame("anna", "ben")
	if len(ac.Data.Choices) != 1 || ac.Data.Choices[0].Value != tb.ID+"-1" || !strings.Contains(ac.Data.Choices[0].Name, fmt.Sprintf("ben %d", scores[1])) {
		t.Fatalf("autocomplete offers %+v", ac.Data.Choices)
	}

	// Play again keeps the finished game's Record and Review buttons on
	// its results (TestReviewStaysOnResultsAfterPlayAgain).
	rev := buttons(post.Components, "Review")
	h.click("anna", buttons(post.Components, "Play again")[0], post)
	if ids := messageCustomIDs(h.dc.byID[post.ID]); len(ids) != 2 || ids[0] != rec[0] || len(rev) != 1 || ids[1] != rev[0] {
		t.Fatalf("after Play again the old results carry %v", ids)
	}
}

// forget-me, confirmed, takes the user out of every statistic and renames
// them in the kept records, which still replay to the same scores; only
// the user can confirm, and Cancel deletes nothing.
func TestForgetMe(t *testing.T) {
	h, st := newHistoryHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	scores := h.table().Game.Scores()
	ask := h.command("ben", "forget-me")
	if ask.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(ask.Data.Content, "Forget me?") {
		t.Fatalf("forget-me asked %+v", ask.Data)
	}
	eph := &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}
	yes := buttons(ask.Data.Components, "Forget me")
	no := buttons(ask.Data.Components, "Cancel")
	if len(yes) != 1 || len(no) != 1 {
		t.Fatal("no confirmation buttons")
	}
	if r := h.click("anna", yes[0], eph); !strings.Contains(r.Data.Content, "not one of mine") {
		t.Fatalf("another user's confirmation answered %q", r.Data.Content)
	}
	if r := h.click("ben", no[0], eph); !strings.Contains(r.Data.Content, "Nothing was deleted") {
		t.Fatalf("Cancel answered %q", r.Data.Content)
	}
	if rs, _ := st.Results("g1", 0); rs[0].Seat("ben") < 0 {
		t.Fatal("Cancel forgot")
	}
	done := h.click("ben", yes[0], eph)
	if !strings.Contains(done.Data.Content, "1 result and 1 game record") {
		t.Fatalf("forget answered %q", done.Data.Content)
	}
	if r := h.command("ben", "stats"); !strings.Contains(r.Data.Content, "no finished games") {
		t.Fatalf("ben's stats after forget-me: %+v", r.Data)
	}
	if text := embedText(h.command("anna", "stats")); !strings.Contains(text, "1 game") || strings.Contains(text, "ben") {
		t.Fatalf("anna's stats after ben was forgotten: %q", text)
	}
	if text := embedText(h.command("anna", "leaderboard")); strings.Contains(text, "ben") || !strings.Contains(text, "anna") {
		t.Fatalf("leaderboard after forget-me: %q", text)
	}
	resp := h.command("anna", "record")
	data := h.sentFile(resp, h.lastID(), ".json")
	players, got := replayScores(t, data)
	if !slices.Equal(got, scores) || players[1] == "ben" || players[0] != "anna" || strings.Contains(string(data), `"ben"`) {
		t.Fatalf("record after forget-me: players %v scores %v (game %v)", players, got, scores)
	}
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		t.Fatal("record is not JSON")
	}
}

// GUILD_DELETE marks the guild left; after the grace period the hourly
// sweep deletes its history. An unavailable guild (an outage) keeps it,
// and so does a guild the bot comes back to.
func TestGuildDeleteThenSweep(t *testing.T) {
	h, st := newHistoryHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	has := func() bool {
		rs, err := st.Results("g1", 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(rs) > 0
	}
	h.bot.GuildDeleted("g1", true) // an outage
	h.clock.Advance(store.DefaultGuildGrace + time.Hour)
	h.bot.Tick()
	if !has() {
		t.Fatal("an unavailable guild's history was deleted")
	}
	h.bot.GuildDeleted("g1", false)
	h.clock.Advance(time.Hour)
	h.bot.GuildCreated("g1") // back within the grace period
	h.clock.Advance(store.DefaultGuildGrace + time.Hour)
	h.bot.Tick()
	if !has() {
		t.Fatal("the history of a guild the bot came back to was deleted")
	}
	h.bot.GuildDeleted("g1", false)
	h.clock.Advance(store.DefaultGuildGrace - time.Hour)
	h.bot.Tick()
	if !has() {
		t.Fatal("deleted before the grace period ended")
	}
	h.clock.Advance(2 * time.Hour)
	h.bot.Tick()
	if has() {
		t.Fatal("the history outlived the grace period")
	}
	if recs, _ := st.Records("g1", 0); len(recs) != 0 {
		t.Fatalf("records %v outlived the grace period", recs)
	}
}

// A game stopped with /qwixx end is not kept, and its results offer no
// Record button.
func TestStoppedGameNotKept(t *testing.T) {
	h, st := newHistoryHarness(t)
	h.startTwo("dice")
	resp := h.command("anna", "end")
	if len(buttons(resp.Data.Components, "Record")) != 0 {
		t.Fatal("a stopped game offers its record")
	}
	if rs, _ := st.Results("g1", 0); len(rs) != 0 {
		t.Fatalf("a stopped game was kept: %+v", rs)
	}
}

// A bot whose Store is the real store keeps each game of a match once: a
// restart after the game does not save it again, and the next game gets
// its own ID. A failed write of the finishing move saves nothing; the move
// made again saves the game once.
func TestGamesSavedOnceWithTheTable(t *testing.T) {
	h := newHarness(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "q.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	disk := sessiondb.NewOnDisk(st)
	h.use(disk, disk)
	resp := h.command("anna", "new", strOpt("variant", "dice"), &discordgo.ApplicationCommandInteractionDataOption{Name: "games", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(2)})
	resp = h.click("ben", buttons(resp.Data.Components, "Join")[0], nil)
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	h.playToEnd()
	first := h.table().ID
	h.bot = h.newBot() // a restart
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	h.bot.Idle()
	h.bot.Tick()
	if rs, _ := st.Results("g1", 0); len(rs) != 1 || rs[0].GameID != first+"-1" {
		t.Fatalf("after game 1 and a restart: %v", gameIDsOf(rs))
	}
	post := h.resultsPost()
	h.click("anna", buttons(post.Components, "Next game")[0], post)
	h.playToEnd()
	rs, _ := st.Results("g1", 0)
	if got := gameIDsOf(rs); !slices.Equal(got, []string{first + "-2", first + "-1"}) {
		t.Fatalf("after the match: %v", got)
	}
	if recs, _ := st.Records("g1", 0); len(recs) != 2 {
		t.Fatalf("%d records after the match", len(recs))
	}
}

// A write of the table that fails when a game ends saves no result; the
// move made again ends the game and saves it once.
func TestFailedFinishSavesNothing(t *testing.T) {
	h, st := newHistoryHarness(t)
	hs := h.hist.(*histStore)
	h.startTwo("dice")
	// Everybody passes until the next pass ends the game (a fourth
	// misthrow), then that write fails.
	pass := func(tb *Table, p int) {
		h.click(tb.Seats[p].UserID, view.ActionID(tb, customid.ViewTable, "pass", ""), &discordgo.Message{ID: "live"})
	}
	for steps := 0; ; steps++ {
		tb := h.table()
		if tb.Stage != StagePlaying || steps > 200 {
			t.Fatal("the game ended before a failed write")
		}
		p := tb.Game.Waiting()[0]
		probe := tb.Game.Clone()
		if err := probe.Apply(game.PassMove(p)); err != nil {
			t.Fatal(err)
		}
		if !probe.Over() {
			pass(tb, p)
			continue
		}
		hs.fail = true
		pass(tb, p)
		if h.table().Stage != StagePlaying {
			t.Fatal("the table moved on though its write failed")
		}
		if rs, _ := st.Results("g1", 0); len(rs) != 0 {
			t.Fatalf("a failed write saved %d results", len(rs))
		}
		hs.fail = false
		pass(h.table(), p)
		break
	}
	if h.table().Stage != StageOver {
		t.Fatal("the game did not end")
	}
	if rs, _ := st.Results("g1", 0); len(rs) != 1 {
		t.Fatalf("%d results, want 1", len(rs))
	}
}

// Computer players count in the ratings but are listed on the leaderboard
// only when asked, marked with a robot, by their level (a computer is its
// level, whatever name it had at the table).
func TestLeaderboardComputers(t *testing.T) {
	h, _ := newHistoryHarness(t)
	resp := h.command("anna", "new", strOpt("variant", "dice"))
	resp = h.click("anna", buttons(resp.Data.Components, "🤖 Add computer")[0], nil)
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	h.playToEnd()
	board := embedText(h.command("anna", "leaderboard"))
	if !strings.Contains(board, "anna (1)") || strings.Contains(board, "🤖") {
		t.Fatalf("leaderboard without computers: %q", board)
	}
	all := embedText(h.command("anna", "leaderboard", &discordgo.ApplicationCommandInteractionDataOption{Name: "computers", Type: discordgo.ApplicationCommandOptionBoolean, Value: true}))
	if !strings.Contains(all, "🤖 Computer (easy)") || strings.Contains(all, "Bot Emma") || !strings.Contains(all, "anna") {
		t.Fatalf("leaderboard with computers: %q", all)
	}
	if stats := embedText(h.command("anna", "stats")); !strings.Contains(stats, "🤖 Bot Emma") {
		t.Fatalf("stats do not mark the computer: %q", stats)
	}
}

func gameIDsOf(rs []stats.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.GameID)
	}
	return out
}

// embedWithinLimits fails unless e keeps Discord's embed limits.
func embedWithinLimits(t *testing.T, e *discordgo.MessageEmbed) {
	t.Helper()
	n := func(s string) int { return len([]rune(s)) }
	total := n(e.Title) + n(e.Description)
	if n(e.Title) > 256 || n(e.Description) > 4096 || len(e.Fields) > 25 {
		t.Errorf("title %d, description %d, %d fields", n(e.Title), n(e.Description), len(e.Fields))
	}
	for _, f := range e.Fields {
		total += n(f.Name) + n(f.Value)
		if n(f.Name) > 256 || n(f.Value) > 1024 || f.Value == "" {
			t.Errorf("field %q: name %d, value %d", f.Name, n(f.Name), n(f.Value))
		}
	}
	if e.Footer != nil {
		total += n(e.Footer.Text)
		if n(e.Footer.Text) > 2048 {
			t.Errorf("footer %d", n(e.Footer.Text))
		}
	}
	if total > 6000 {
		t.Errorf("embed of %d characters", total)
	}
}

// Stats and leaderboards of many players with the longest names, full of
// Markdown, stay within Discord's embed limits in every language.
func TestHistoryEmbedsWithinLimits(t *testing.T) {
	h, st := newHistoryHarness(t)
	long := func(i int) string { return strings.Repeat("*_", 14) + fmt.Sprintf("%04d", i) } // 32 characters
	at := h.clock.Now().Add(-time.Hour)
	for g := range 60 {
		r := stats.Result{Guild: "g1", GameID: fmt.Sprintf("t-%d", g), Time: at.Add(time.Duration(g) * time.Second), Variant: stats.Variants[g%3]}
		for s := range 5 {
			u := (g + s*7) % 40
			r.Seats = append(r.Seats, stats.Seat{UserID: fmt.Sprintf("u%d", u), Name: long(u), Score: (g*s)%90 - 10})
		}
		r.Seats[0].UserID = "anna"
		if err := st.SaveGame(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, loc := range []string{"en-US", "de", "fr"} {
		for _, sub := range []string{"stats", "leaderboard"} {
			i := h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
				Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}},
			}, nil)
			l := discordgo.Locale(loc)
			i.Locale, i.GuildLocale = l, &l
			h.bot.Handle(i)
			resp := h.response(i)
			if len(resp.Data.Embeds) != 1 {
				t.Fatalf("%s %s answered %q", loc, sub, resp.Data.Content)
			}
			embedWithinLimits(t, resp.Data.Embeds[0])
		}
	}
	if text := embedText(h.command("anna", "stats")); !strings.Contains(text, "60 games") || strings.Count(text, "<t:") != recentGames {
		t.Fatalf("stats of 60 games: %q", text)
	}
}

// autocompleteGame is the answer to user typing typed into /qwixx
// record's game option.
func (h *harness) autocompleteGame(user, typed string) *discordgo.InteractionResponse {
	i := h.interaction(user, discordgo.InteractionApplicationCommandAutocomplete, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "record", Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "game", Type: discordgo.ApplicationCommandOptionString, Value: typed, Focused: true}}}},
	}, nil)
	h.bot.Handle(i)
	return h.response(i)
}

// damageValue flips a byte in the payload of the newest value of
// bucket/guild whose key ends in suffix, in the store file at path (the
// store closed).
func damageValue(t *testing.T, path, bucket, guild, suffix string) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bbolt.Tx) error {
		g := tx.Bucket([]byte(bucket)).Bucket([]byte(guild))
		c := g.Cursor()
		k, v := c.Last()
		for k != nil && !bytes.HasSuffix(k, []byte(suffix)) {
			k, v = c.Prev()
		}
		if k == nil {
			return fmt.Errorf("no key ending in %q", suffix)
		}
		v = bytes.Clone(v)
		v[len(v)/2] ^= 0x10
		return g.Put(bytes.Clone(k), v)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Issue: a damaged game record answered "Something went wrong… try again",
// and autocomplete kept offering it; a damaged result silently dropped out
// of the stats. Now the record is said to be damaged and is no longer
// offered, and the stats and leaderboard say how many games they could not
// count.
func TestDamagedRecordAndResultAreSaidSo(t *testing.T) {
	h := newHarness(t)
	path := filepath.Join(t.TempDir(), "history.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	hs := &histStore{OnDisk: sessiondb.NewOnDisk(st), tables: h.st, hist: st}
	h.use(h.st, hs)
	var ids []string
	for range 2 {
		h.startTwo("dice")
		h.playToEnd()
		ids = append(ids, gameID(h.table()))
	}
	st.Close()
	damageValue(t, path, "records", "g1", ids[1])
	damageValue(t, path, "results", "g1", "")
	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hs.hist, hs.OnDisk = st, sessiondb.NewOnDisk(st)

	resp := h.command("anna", "record", strOpt("game", ids[1]))
	if !isEphemeral(resp) || !strings.Contains(resp.Data.Content, "could not be read: its stored data is damaged") || strings.Contains(resp.Data.Content, "try again") {
		t.Fatalf("/qwixx record of the damaged game: %q", resp.Data.Content)
	}
	ac := h.autocompleteGame("anna", "")
	if len(ac.Data.Choices) != 1 || ac.Data.Choices[0].Value != ids[0] {
		t.Fatalf("autocomplete offers %+v, want only the readable %s", ac.Data.Choices, ids[0])
	}
	if resp := h.command("anna", "record", strOpt("game", ids[0])); len(h.sentFile(resp, h.lastID(), ".json")) == 0 {
		t.Fatal("the readable record is not sent")
	}
	for _, sub := range []string{"stats", "leaderboard"} {
		resp := h.command("anna", sub)
		if resp.Data == nil || len(resp.Data.Embeds) != 1 || resp.Data.Embeds[0].Footer == nil ||
			!strings.Contains(resp.Data.Embeds[0].Footer.Text, "1 game of this server could not be read (damaged data) and is not counted") {
			t.Fatalf("/qwixx %s does not say a game is missing: %+v", sub, resp.Data)
		}
		if sub == "stats" && !strings.Contains(embedText(resp), "1 game ·") {
			t.Fatalf("stats do not count the readable game: %q", embedText(resp))
		}
	}
}

// README: 🔍 Review stays on the results of a dice game once the table
// moved on. After Play again (a lobby), Next game (a match's next game) and
// /qwixx new, the old results keep 📄 Record and 🔍 Review (and lose only
// Play again or Next game), and the kept Review answers its player, only
// them, from the kept record.
func TestReviewStaysOnResultsAfterPlayAgain(t *testing.T) {
	for _, how := range []string{"play again", "next game", "new table"} {
		t.Run(how, func(t *testing.T) {
			h, _ := newHistoryHarness(t)
			games := 1
			if how == "next game" {
				games = 2
			}
			resp := h.command("anna", "new", strOpt("variant", "dice"), &discordgo.ApplicationCommandInteractionDataOption{Name: "games", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(games)})
			resp = h.click("ben", buttons(resp.Data.Components, "Join")[0], nil)
			h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
			h.playToEnd()
			post := h.resultsPost()
			rec, rev := buttons(post.Components, "Record"), buttons(post.Components, "Review")
			if len(rec) != 1 || len(rev) != 1 {
				t.Fatalf("the results offer %v", messageCustomIDs(post))
			}
			switch how {
			case "play again":
				h.click("anna", buttons(post.Components, "Play again")[0], post)
			case "next game":
				h.click("anna", buttons(post.Components, "Next game")[0], post)
			case "new table":
				h.command("ben", "new")
			}
			h.bot.Idle()
			if ids := messageCustomIDs(h.dc.byID[post.ID]); !slices.Equal(ids, []string{rec[0], rev[0]}) {
				t.Fatalf("after %s the old results carry %v, want Record and Review", how, ids)
			}
			r := h.click("ben", rev[0], post)
			if r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || r.Data.Content == "" || r.Data.Content == LangFor("en").T(msg.ReviewGone) || r.Data.Content == LangFor("en").T(msg.ReviewNotplayer) {
				t.Fatalf("the kept Review after %s answered %q", how, r.Data.Content)
			}
		})
	}
}

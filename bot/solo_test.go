package bot

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/stats"
)

// moveButtons are a private view's move buttons (not the hint, review or
// new game).
func moveButtons(t testing.TB, comps []discordgo.MessageComponent) []string {
	t.Helper()
	var out []string
	for _, id := range buttons(comps, "") {
		a, err := customid.Decode(id)
		if err != nil {
			t.Fatalf("button %q: %v", id, err)
		}
		switch a.Verb {
		case "white", "color", "pass":
			out = append(out, id)
		}
	}
	return out
}

// playPrivate plays user's private game shown in resp to its end through
// the view's buttons, choosing with pick among the move buttons, and
// returns the last view. Every answer must replace the clicked view (type
// 7) and nothing may be posted to the channel.
func (h *harness) playPrivate(user string, resp *discordgo.InteractionResponse, pick func(step int, ids []string) string) *discordgo.InteractionResponse {
	h.t.Helper()
	for step := 0; ; step++ {
		if step > 400 {
			h.t.Fatal("the private game did not end")
		}
		ids := moveButtons(h.t, resp.Data.Components)
		if len(ids) == 0 {
			if !strings.Contains(resp.Data.Content, "is over") {
				h.t.Fatalf("a running private game offers no move: %q", resp.Data.Content)
			}
			return resp
		}
		resp = h.click(user, pick(step, ids), ephemeralMsg)
		if resp.Type != discordgo.InteractionResponseUpdateMessage || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			h.t.Fatalf("a move in the private view was answered with %+v", resp)
		}
	}
}

func cycle(step int, ids []string) string { return ids[step%len(ids)] }

func strOption(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

// S-rules of the solo setting (RULES, one sheet): /qwixx solo plays a
// whole game privately, survives a restart midway, keeps its result as a
// solo game, and reviews it.
func TestSoloPrivateGameToTheEndWithRestartAndReview(t *testing.T) {
	h, _ := newHistoryHarness(t)
	resp := h.command("anna", "solo")
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("/qwixx solo answered %+v", resp)
	}
	if len(resp.Data.Files) != 1 || resp.Data.Files[0].Name != "sheet.png" || !strings.Contains(resp.Data.Content, "turn 1") {
		t.Fatalf("the private view shows no sheet or turn: %q %v", resp.Data.Content, resp.Data.Files)
	}
	// A few moves, then a restart: the same view's buttons go on.
	for range 6 {
		resp = h.click("anna", moveButtons(t, resp.Data.Components)[0], ephemeralMsg)
	}
	key := privateKey(privateSolo, "anna")
	before, err := h.bot.loadTable(context.Background(), key)
	if err != nil || before == nil || before.Private != privateSolo || before.Game.NumPlayers() != 1 {
		t.Fatalf("private table under %s: %+v, %v", key, before, err)
	}
	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	// /qwixx solo again shows the running game, not a new one.
	again := h.command("anna", "solo")
	if !strings.Contains(again.Data.Content, "goes on") {
		t.Fatalf("/qwixx solo during a game: %q", again.Data.Content)
	}
	if tb, _ := h.bot.loadTable(context.Background(), key); tb.ID != before.ID || tb.Game.Turn() != before.Game.Turn() {
		t.Fatal("/qwixx solo replaced the running game")
	}
	end := h.playPrivate("anna", resp, cycle)
	tb, _ := h.bot.loadTable(context.Background(), key)
	if tb.Stage != StageOver || !tb.Game.Over() {
		t.Fatal("the private game is not over")
	}
	if !strings.Contains(end.Data.Content, fmt.Sprintf("is over: **%d point", tb.Game.Scores()[0])) || len(buttons(end.Data.Components, "Review")) != 1 || len(buttons(end.Data.Components, "New solo game")) != 1 {
		t.Fatalf("the end of a solo game: %q", end.Data.Content)
	}
	h.dc.mu.Lock()
	posted := len(h.dc.channel[testChannel])
	h.dc.mu.Unlock()
	if posted != 0 {
		t.Fatalf("a private game posted %d channel messages", posted)
	}
	// The result is kept as a solo game: in the solo summary only.
	results, err := h.hist.Results(context.Background(), "g1", 0)
	if err != nil || len(results) != 1 || !results[0].Solo() || results[0].Seats[0].Score != tb.Game.Scores()[0] {
		t.Fatalf("kept results %+v, %v", results, err)
	}
	us := stats.ForUser(results, "anna", 5)
	if us.Solo.Games != 1 || us.All.Games != 0 || len(us.Recent) != 0 {
		t.Fatalf("solo game in the statistics: %+v", us)
	}
	if b := stats.Leaders(results, stats.LeaderboardOptions{MinGames: -1}); len(b.Entries) != 0 {
		t.Fatalf("a solo game on the leaderboard: %+v", b.Entries)
	}
	// The review: the figures of ai.Review, the costliest marked.
	rv := h.click("anna", buttons(end.Data.Components, "Review")[0], ephemeralMsg)
	want, err := ai.Review(tb.Game.Record(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rv.Type != discordgo.InteractionResponseChannelMessageWithSource || rv.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("review answered %+v", rv)
	}
	if !strings.Contains(rv.Data.Content, "Accuracy **"+view.Percent(want.Accuracy/100)+"**") || !strings.Contains(rv.Data.Content, view.Decimal(LangFor("en"), want.Lost)) {
		t.Fatalf("review text %q does not give accuracy %.1f and loss %.2f", rv.Data.Content, want.Accuracy, want.Lost)
	}
	if want.Estimate || !strings.Contains(rv.Data.Content, "exact") {
		t.Fatal("a solo review must say it is exact")
	}
	h.rd.mu.Lock()
	moments := h.rd.moments
	h.rd.mu.Unlock()
	if len(moments) != len(want.Costliest) {
		t.Fatalf("the chart marks %d moments, the review has %d costliest", len(moments), len(want.Costliest))
	}
	for i, m := range moments {
		if m.Turn != want.Costliest[i].Turn || m.N != i+1 || m.Player != 0 {
			t.Fatalf("moment %d: %+v, want turn %d", i, m, want.Costliest[i].Turn)
		}
	}
	// New solo game: a new table with a new game.
	nw := h.click("anna", buttons(end.Data.Components, "New solo game")[0], ephemeralMsg)
	if nt, _ := h.bot.loadTable(context.Background(), key); nt.ID == tb.ID || nt.Stage != StagePlaying || nw.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatal("New solo game did not start a new game")
	}
}

// dailyIn runs /qwixx daily as user in guild (its own channel).
func (h *harness) dailyIn(guild, user string) *discordgo.InteractionResponse {
	return h.commandIn("ch-"+guild, guild, user, "daily")
}

// The daily challenge: the same dice for everybody on every server that
// day; once a day; the par is the hard player's score on those dice; the
// streak counts days in a row; the next day brings other dice.
func TestDailySameDiceEverywhereOnceADayWithParAndStreak(t *testing.T) {
	h, _ := newHistoryHarness(t)
	anna := h.dailyIn("g1", "anna")
	ben := h.dailyIn("g2", "ben")
	ta, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	tb, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "ben"))
	if ta == nil || tb == nil || ta.Daily != ai.DailyNumber(h.clock.Now()) || tb.Daily != ta.Daily {
		t.Fatalf("daily tables %+v %+v", ta, tb)
	}
	if ta.Game.Dice() != tb.Game.Dice() {
		t.Fatalf("two servers got different dice for the same daily: %v %v", ta.Game.Dice(), tb.Game.Dice())
	}
	// Played through to the end with different choices, both see the same
	// dice turn after turn (a misthrow ends no game early here: the pick
	// differs but the dice are the seed's).
	endA := h.playPrivate("anna", anna, cycle)
	endB := h.playPrivate("ben", ben, func(step int, ids []string) string { return ids[0] })
	ga, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	gb, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "ben"))
	ra, rb := ga.Game.Record(), gb.Game.Record()
	same := 0
	for i := 0; i < min(len(ra.Rolls), len(rb.Rolls)); i++ {
		if slices.Contains(ra.Rolls[i][:], 0) || slices.Contains(rb.Rolls[i][:], 0) {
			break // a locked row's die left one of the games (S3)
		}
		if ra.Rolls[i] != rb.Rolls[i] {
			t.Fatalf("turn %d: dice %v and %v differ", i+1, ra.Rolls[i], rb.Rolls[i])
		}
		same++
	}
	if same < 3 {
		t.Fatalf("only %d turns compared", same)
	}
	// The par is the hard solo player's score on exactly these dice.
	secret, err := h.bot.dailySecret(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seed := ai.DailySeed(secret, h.clock.Now())
	g, err := ai.DailyGame(seed, "hard")
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		p := g.Waiting()[0]
		if err := g.Apply(ai.Choose(ai.Hard, g.Private(p), g.LegalMoves(p))); err != nil {
			t.Fatal(err)
		}
	}
	if ga.Par != g.Scores()[0] || gb.Par != ga.Par {
		t.Fatalf("par %d / %d, the hard player scores %d on these dice", ga.Par, gb.Par, g.Scores()[0])
	}
	if g.Dice() == [6]int{} || g.Record().Rolls[0] != ra.Rolls[0] {
		t.Fatal("the par's game is not on the day's dice")
	}
	for _, end := range []*discordgo.InteractionResponse{endA, endB} {
		if !strings.Contains(end.Data.Content, "Par") || !strings.Contains(end.Data.Content, "place 1 of 1") || !strings.Contains(end.Data.Content, "Streak: 1 day") {
			t.Fatalf("daily summary: %q", end.Data.Content)
		}
	}
	// Share text: number, score and par, nothing of the dice.
	share := view.DailyShare(LangFor("en"), ga)
	if !strings.Contains(share, "Qwixx daily #"+strconv.Itoa(ga.Daily)+": ") || strings.Contains(share, "⚪") {
		t.Fatalf("share text %q", share)
	}
	// A second attempt the same day is refused politely: the result again.
	again := h.dailyIn("g1", "anna")
	if !isEphemeral(again) || !strings.Contains(again.Data.Content, "You have played today's daily challenge") || len(moveButtons(t, again.Data.Components)) != 0 {
		t.Fatalf("second daily: %q", again.Data.Content)
	}
	if nt, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna")); nt.ID != ga.ID {
		t.Fatal("a second daily replaced the first")
	}
	// Also from another server.
	if other := h.dailyIn("g2", "anna"); !strings.Contains(other.Data.Content, "You have played today's daily challenge") {
		t.Fatalf("second daily from another server: %q", other.Data.Content)
	}
	// A second player of the same server is ranked with the first.
	h.playPrivate("cleo", h.dailyIn("g1", "cleo"), func(step int, ids []string) string { return ids[len(ids)-1] })
	tc, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "cleo"))
	rank, of, _ := records{h.bot.opt.History}.dailyRanking(&request{ctx: context.Background(), b: h.bot, lang: LangFor("en"), userID: "cleo", log: reqLog{base: &h.bot.log}}, tc)
	want := 1
	if ga.Game.Scores()[0] > tc.Game.Scores()[0] {
		want = 2
	}
	if of != 2 || rank != want {
		t.Fatalf("cleo ranked %d of %d, want %d of 2 (scores %d, %d)", rank, of, want, ga.Game.Scores()[0], tc.Game.Scores()[0])
	}
	// Tomorrow: other dice, and the streak goes on.
	h.clock.Advance(24 * time.Hour)
	next := h.dailyIn("g1", "anna")
	n2, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	if n2.Daily != ga.Daily+1 || n2.ID == ga.ID {
		t.Fatalf("the next day's daily: %+v", n2)
	}
	if n2.Game.Record().Rolls[0] == ra.Rolls[0] && n2.Game.Record().Rolls[1] == ra.Rolls[1] {
		t.Fatal("the next day brought the same dice")
	}
	end2 := h.playPrivate("anna", next, cycle)
	if !strings.Contains(end2.Data.Content, "Streak: 2 days") {
		t.Fatalf("the streak after two days: %q", end2.Data.Content)
	}
	// A day missed breaks it.
	h.clock.Advance(48 * time.Hour)
	h.playPrivate("anna", h.dailyIn("g1", "anna"), cycle)
	if n4, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna")); n4.Streak != 1 {
		t.Fatalf("streak after a missed day: %d", n4.Streak)
	}
}

// The daily seed is keyed by the store's secret: a bot with another secret
// deals other dice the same day, and the secret appears in no message or
// log, so what players see cannot tell them tomorrow's dice (ai.DailySeed).
func TestDailySeedKeyedBySecretNeverShown(t *testing.T) {
	h1, h2 := newHarness(t), newHarness(t)
	r1 := h1.command("anna", "daily")
	h2.command("anna", "daily")
	t1, _ := h1.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	t2, _ := h2.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	if t1.Daily != t2.Daily {
		t.Fatal("the two bots disagree on the day")
	}
	if t1.Game.Record().Rolls[0] == t2.Game.Record().Rolls[0] && t1.Par == t2.Par {
		t.Fatal("two secrets dealt the same daily")
	}
	secret, err := h1.bot.dailySecret(context.Background())
	if err != nil || len(secret) != 32 {
		t.Fatalf("secret of %d bytes, %v", len(secret), err)
	}
	again, _ := h1.bot.dailySecret(context.Background())
	if !bytes.Equal(secret, again) {
		t.Fatal("the secret changed between two uses")
	}
	blob, _, _ := h1.st.Get(context.Background(), privateKey(privateDaily, "anna"))
	for _, hay := range []string{r1.Data.Content, h1.logs.String(), string(blob)} {
		for _, enc := range []string{hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret), string(secret)} {
			if strings.Contains(hay, enc) {
				t.Fatal("the daily secret is shown or stored with a game")
			}
		}
	}
}

// A click on another user's private game never reaches it: the key is the
// clicker's own, so the button is not theirs (RULES C10 stays intact:
// nobody sees or moves another's game).
func TestPrivateGameOnlyItsPlayerMoves(t *testing.T) {
	h := newHarness(t)
	anna := h.command("anna", "solo")
	before, _ := h.bot.loadTable(context.Background(), privateKey(privateSolo, "anna"))
	id := moveButtons(t, anna.Data.Components)[0]
	r := h.click("ben", id, ephemeralMsg)
	if !isEphemeral(r) || !strings.Contains(r.Data.Content, "replaced") {
		t.Fatalf("ben's click on anna's button: %+v", r.Data)
	}
	after, _ := h.bot.loadTable(context.Background(), privateKey(privateSolo, "anna"))
	if after.Seq != before.Seq {
		t.Fatal("another user's click moved anna's game")
	}
	if tb, _ := h.bot.loadTable(context.Background(), privateKey(privateSolo, "ben")); tb != nil {
		t.Fatal("ben's click made a game")
	}
	// A private view's button on a public message is forged.
	if r := h.click("anna", id, &discordgo.Message{ID: "pub"}); !strings.Contains(r.Data.Content, "not one of mine") {
		t.Fatalf("a private button on a public message: %q", r.Data.Content)
	}
	// An outdated button of the running game shows the game as it is.
	h.click("anna", id, ephemeralMsg)
	old := h.click("anna", id, ephemeralMsg)
	if old.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(old.Data.Content, "outdated") || len(moveButtons(t, old.Data.Components)) == 0 {
		t.Fatalf("an outdated button: %+v", old.Data)
	}
}

// /qwixx solo where:channel: a table of one seat in the channel, played
// through the table message like any game, with a solo line in the
// results and a review of the game.
func TestSoloInTheChannelAndItsReview(t *testing.T) {
	h, st := newHistoryHarness(t)
	r := h.command("anna", "solo", strOption("where", "channel"))
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || isEphemeral(r) || !strings.Contains(r.Data.Content, "solo game here") {
		t.Fatalf("solo in the channel answered %+v", r.Data)
	}
	tb := h.table()
	if tb.Stage != StagePlaying || len(tb.Seats) != 1 || tb.Game.NumPlayers() != 1 || tb.Private != "" {
		t.Fatalf("channel solo table %+v", tb)
	}
	if busy := h.command("ben", "solo", strOption("where", "channel")); !strings.Contains(busy.Data.Content, "already has a table") {
		t.Fatalf("a second table in the channel: %q", busy.Data.Content)
	}
	h.playToEnd()
	res := h.resultsPost()
	if !strings.Contains(res.Content, "scored") || strings.Contains(res.Content, "wins") {
		t.Fatalf("solo results: %q", res.Content)
	}
	rv := buttons(res.Components, "Review")
	if len(rv) != 1 {
		t.Fatal("no Review button on the results of a dice game")
	}
	if r := h.click("ben", rv[0], res); !strings.Contains(r.Data.Content, "did not play") {
		t.Fatalf("a stranger's review: %q", r.Data.Content)
	}
	got := h.click("anna", rv[0], res)
	if !isEphemeral(got) || !strings.Contains(got.Data.Content, "Review of your game") || !strings.Contains(got.Data.Content, "exact") {
		t.Fatalf("review of the channel solo game: %q", got.Data.Content)
	}
	if rs, _ := st.Results("g1", 0); len(rs) != 1 || !rs[0].Solo() {
		t.Fatalf("results %+v", rs)
	}
}

// The Review button of a table's results reviews the clicker's own seat,
// labelled as an estimate, from the kept record once the table moved on.
func TestReviewOfATableGame(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	res, review, want := h.reviewOfResults(1)
	rv := []string{review}
	check := func(what string) {
		t.Helper()
		got := h.click("ben", rv[0], res)
		if !isEphemeral(got) || !strings.Contains(got.Data.Content, "estimates") || !strings.Contains(got.Data.Content, view.Decimal(LangFor("en"), want.Lost)) {
			t.Fatalf("%s: ben's review %q, want loss %.2f", what, got.Data.Content, want.Lost)
		}
	}
	check("from the table")
	// Play again replaces the table: the review reads the kept record.
	h.click("anna", buttons(res.Components, "Play again")[0], res)
	check("from the record")
}

// /qwixx forget-me deletes the user's private games with their results.
func TestForgetMeDeletesPrivateGames(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.command("ben", "solo")
	h.command("ben", "daily")
	ask := h.command("ben", "forget-me")
	h.click("ben", buttons(ask.Data.Components, "Forget me")[0], ephemeralMsg)
	for _, kind := range []string{privateSolo, privateDaily} {
		if tb, _ := h.bot.loadTable(context.Background(), privateKey(kind, "ben")); tb != nil {
			t.Fatalf("ben's %s game is kept after forget-me", kind)
		}
	}
}

// A private game the store cannot read is its player's alone: /qwixx solo
// puts it aside (quarantine, bytes kept) and deals a new game, saying so.
func TestUnreadablePrivateGamePutAside(t *testing.T) {
	h := newHarness(t)
	h.command("anna", "solo")
	key := privateKey(privateSolo, "anna")
	h.st.mu.Lock()
	h.st.corrupt = map[string]bool{key: true}
	h.st.mu.Unlock()
	r := h.command("anna", "solo")
	if !strings.Contains(r.Data.Content, "could not be read") || len(moveButtons(t, r.Data.Components)) == 0 {
		t.Fatalf("/qwixx solo on a damaged game: %q", r.Data.Content)
	}
	h.st.mu.Lock()
	kept := len(h.st.quarantined[key])
	h.st.mu.Unlock()
	if kept != 1 {
		t.Fatalf("%d damaged games kept in the quarantine, want 1", kept)
	}
	if tb, err := h.bot.loadTable(context.Background(), key); err != nil || tb == nil || tb.Stage != StagePlaying {
		t.Fatalf("the new game: %v, %v", tb, err)
	}
}

// hintButton is the custom_id of a view's 💡 Hint button ("" for none).
func hintButton(t testing.TB, comps []discordgo.MessageComponent) string {
	t.Helper()
	for _, id := range buttons(comps, "") {
		if a, err := customid.Decode(id); err == nil && a.Verb == "hint" {
			return id
		}
	}
	return ""
}

// The solo game's view offers 💡 Hint, as the sheet view at a table does:
// clicked, it answers only the player, in the view itself (the advice at
// its head, the advised choice's button green), posting nothing; a solo
// game with hints turned off has no button and refuses a forged click;
// the daily challenge has none (README: hints are off in the daily).
func TestSoloViewOffersPrivateHint(t *testing.T) {
	h, _ := newHistoryHarness(t)
	resp := h.command("anna", "solo")
	hint := hintButton(t, resp.Data.Components)
	if hint == "" {
		t.Fatalf("the solo view has no 💡 Hint button: %v", buttons(resp.Data.Components, ""))
	}
	if a, _ := customid.Decode(hint); a.View != customid.ViewSolo {
		t.Fatalf("the solo view's hint button is of view %c", a.View)
	}
	h.dc.mu.Lock()
	posts, followups := h.dc.posts, h.dc.followups
	h.dc.mu.Unlock()
	r := h.click("anna", hint, ephemeralMsg)
	if r.Type != discordgo.InteractionResponseUpdateMessage || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("the hint was answered with %+v", r)
	}
	if !strings.HasPrefix(r.Data.Content, "💡 ") {
		t.Fatalf("the hint's view does not start with the advice: %q", r.Data.Content)
	}
	green := 0
	for _, row := range r.Data.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.SuccessButton {
				if a, _ := customid.Decode(b.CustomID); a.Verb == "white" || a.Verb == "color" || a.Verb == "pass" {
					green++
				}
			}
		}
	}
	if green != 1 {
		t.Fatalf("%d move buttons green after the hint, want the advised one", green)
	}
	h.dc.mu.Lock()
	if h.dc.posts != posts || h.dc.followups != followups {
		t.Errorf("the hint posted to the channel (%d posts, %d follow-ups)", h.dc.posts-posts, h.dc.followups-followups)
	}
	h.dc.mu.Unlock()
	// The hint changed nothing: the game is where it was.
	key := privateKey(privateSolo, "anna")
	tb, err := h.bot.loadTable(context.Background(), key)
	if err != nil || tb.Game.Turn() != 1 {
		t.Fatalf("the solo game after the hint: %v, turn %d", err, tb.Game.Turn())
	}

	// Hints off for this game: no button, and a forged click is refused.
	tb.NoHints = true
	if err := h.bot.saveTable(context.Background(), key, tb); err != nil {
		t.Fatal(err)
	}
	r = h.click("anna", moveButtons(t, resp.Data.Components)[0], ephemeralMsg)
	if id := hintButton(t, r.Data.Components); id != "" {
		t.Fatalf("a solo game with hints off shows %q", id)
	}
	tb, _ = h.bot.loadTable(context.Background(), key)
	r = h.click("anna", view.ActionID(tb, customid.ViewSolo, "hint", ""), ephemeralMsg)
	if r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || strings.HasPrefix(r.Data.Content, "💡") || r.Data.Content != LangFor("en").T(msg.HintOff) {
		t.Fatalf("a forged hint click with hints off: %q", r.Data.Content)
	}

	// The daily challenge: no hint.
	resp = h.command("ben", "daily")
	if len(moveButtons(t, resp.Data.Components)) == 0 {
		t.Fatalf("the daily offers no move: %q", resp.Data.Content)
	}
	if id := hintButton(t, resp.Data.Components); id != "" {
		t.Fatalf("the daily challenge shows a hint button %q", id)
	}
}

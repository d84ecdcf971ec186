package main

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/store"
)

// privateMoves are the move buttons of a private game's view.
func privateMoves(m *discordtest.Message) []string {
	var out []string
	for _, id := range m.CustomIDs() {
		if strings.Contains(id, ":white:") || strings.Contains(id, ":color:") || strings.Contains(id, ":pass#") {
			out = append(out, id)
		}
	}
	return out
}

// playPrivate plays u's private game in view to its end, choosing the
// step-th move button (cyclically), and returns the last view.
func (e *e2e) playPrivate(u *discordtest.User, view *discordtest.Message, offset int) *discordtest.Message {
	e.t.Helper()
	for step := 0; ; step++ {
		if step > 400 {
			e.t.Fatal("the private game did not end")
		}
		ids := privateMoves(view)
		if len(ids) == 0 {
			return view
		}
		view = e.answer(u.Click(view, ids[(step+offset)%len(ids)]))
		if !view.Ephemeral() {
			e.t.Fatalf("a private game's move was answered in public: %q", view.Content)
		}
	}
}

var parRE = regexp.MustCompile(`Par \([^)]*\): (-?\d+)`)

// Solo, daily challenge and review through the fake Discord: a private
// solo game to its end and its review; two users in two servers get the
// same dice for the day, a second attempt is refused, and the par is the
// hard player's score on those dice (the bot keeps the secret that keys
// them in its database).
func TestE2ESoloDailyAndReview(t *testing.T) {
	t.Parallel()
	e := newE2EClock(t, true)
	ch := e.srv.DefaultChannel()
	anna, ben := e.srv.AddUser("Anna", ""), e.srv.AddUser("Ben", "")
	view := e.answer(anna.Command(ch, "qwixx", "solo", nil))
	if !view.Ephemeral() || !strings.Contains(view.Content, "Solo game") {
		t.Fatalf("/qwixx solo: %q", view.Content)
	}
	if _, ok := view.Attachment("sheet.png"); !ok {
		t.Fatal("the solo view has no sheet")
	}
	end := e.playPrivate(anna, view, 0)
	if !strings.Contains(end.Content, "is over") {
		t.Fatalf("the solo game's end: %q", end.Content)
	}
	rv := e.answer(anna.Click(end, players.IDWith(end, "review")))
	if !rv.Ephemeral() || !strings.Contains(rv.Content, "Review of your game") || !strings.Contains(rv.Content, "Accuracy") {
		t.Fatalf("the review: %q", rv.Content)
	}
	if _, ok := rv.Attachment("review.png"); !ok {
		t.Fatal("the review has no chart")
	}
	for _, m := range ben.Messages(ch) {
		if strings.Contains(m.Content, "Solo game") || strings.Contains(m.Content, "Review") {
			t.Fatalf("ben sees anna's private game: %q", m.Content)
		}
	}

	other := e.srv.AddGuild("Other", "de")
	ch2 := e.srv.AddChannel(other, "spiele")
	da := e.answer(anna.Command(ch, "qwixx", "daily", nil))
	db := e.answer(ben.Command(ch2, "qwixx", "daily", nil))
	if !strings.Contains(da.Content, "daily #") || !strings.Contains(db.Content, "daily #") {
		t.Fatalf("daily views: %q / %q", da.Content, db.Content)
	}
	endA := e.playPrivate(anna, da, 0)
	endB := e.playPrivate(ben, db, 1)
	again := e.answer(anna.Command(ch2, "qwixx", "daily", nil))
	if !strings.Contains(again.Content, "You have played today's daily challenge") || len(privateMoves(again)) != 0 {
		t.Fatalf("a second daily: %q", again.Content)
	}
	pars := []int{}
	for _, m := range []*discordtest.Message{endA, endB} {
		p := parRE.FindStringSubmatch(m.Content)
		if p == nil {
			t.Fatalf("no par in %q", m.Content)
		}
		n, _ := strconv.Atoi(p[1])
		pars = append(pars, n)
	}
	e.stop()
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secret, err := st.Secret("daily")
	if err != nil {
		t.Fatal(err)
	}
	// Tomorrow's dice come from the secret, which nothing shows: not the
	// log, not a message anybody saw.
	for _, enc := range []string{hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret)} {
		if strings.Contains(e.logs.String(), enc) {
			t.Fatal("the daily secret is in the log")
		}
		for _, u := range []*discordtest.User{anna, ben} {
			for _, ch := range []string{ch, ch2} {
				for _, m := range u.Messages(ch) {
					if strings.Contains(m.Content, enc) {
						t.Fatal("the daily secret is in a message")
					}
				}
			}
		}
	}
	if tomorrow := ai.DailySeed(secret, e.clock.Now().Add(24*time.Hour)); tomorrow == ai.DailySeed(secret, e.clock.Now()) {
		t.Fatal("tomorrow's seed is today's")
	}
	par, parGame, err := ai.Par(ai.DailySeed(secret, e.clock.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if pars[0] != par || pars[1] != par {
		t.Fatalf("pars shown %v, the hard player scores %d on the day's dice", pars, par)
	}
	// The two games' records: the same dice, turn after turn, as long as
	// both games had every die (a locked row's die leaves, S3).
	var rolls [][][6]int
	for _, g := range []string{e.srv.DefaultGuild(), other} {
		infos, err := st.Records(g, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, in := range infos {
			if !strings.HasPrefix(in.GameID, "daily-") {
				continue
			}
			gr, ok, err := st.Record(g, in.GameID)
			if err != nil || !ok {
				t.Fatalf("record %s: %v", in.GameID, err)
			}
			rec, err := game.ParseRecord(gr.JSON)
			if err != nil {
				t.Fatal(err)
			}
			rolls, found = append(rolls, rec.Rolls), true
		}
		if !found {
			t.Fatalf("no daily result kept in guild %s", g)
		}
	}
	if rolls[0][0] != parGame.Record().Rolls[0] || rolls[1][0] != rolls[0][0] || rolls[1][1] != rolls[0][1] {
		t.Fatalf("the daily dealt different dice: %v / %v / par %v", rolls[0][:2], rolls[1][:2], parGame.Record().Rolls[0])
	}
}

// User install (issue 25): a user who installed the app plays a private
// solo game in a group DM, where the bot is no member, entirely through
// the interactions (the bot's channel REST there would be refused); the
// daily challenge works in a server without the bot; what needs the bot
// in the channel (a table, a solo table in the channel) is refused there
// with a word on what works.
func TestE2EUserInstallPrivateGamesAnywhere(t *testing.T) {
	t.Parallel()
	e2eUserInstallPrivateGamesAnywhere(t, "")
}

// TestE2EUserInstallPrivateGamesAnywhereHTTP is TestE2EUserInstallPrivateGamesAnywhere with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2EUserInstallPrivateGamesAnywhereHTTP(t *testing.T) {
	t.Parallel()
	e2eUserInstallPrivateGamesAnywhere(t, "http")
}

// e2eUserInstallPrivateGamesAnywhere runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eUserInstallPrivateGamesAnywhere(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	anna, ben := e.srv.AddUser("Anna", ""), e.srv.AddUser("Ben", "")
	cmd, ok := e.srv.CommandJSON("", "qwixx")
	if !ok {
		t.Fatal("no global /qwixx")
	}
	if fmt.Sprint(cmd["integration_types"]) != "[0 1]" || fmt.Sprint(cmd["contexts"]) != "[0 1 2]" {
		t.Fatalf("/qwixx registered for %v in %v", cmd["integration_types"], cmd["contexts"])
	}
	group := e.srv.AddGroupDM("friends", anna, ben)
	if _, err := anna.Command(group, "qwixx", "solo", nil); err == nil {
		t.Fatal("a user who did not install the app ran /qwixx in a group DM")
	}
	anna.InstallApp()
	view := e.answer(anna.Command(group, "qwixx", "solo", nil))
	if !view.Ephemeral() || !strings.Contains(view.Content, "Solo game") {
		t.Fatalf("/qwixx solo in a group DM: %q", view.Content)
	}
	end := e.playPrivate(anna, view, 0)
	if !strings.Contains(end.Content, "is over") {
		t.Fatalf("the end: %q", end.Content)
	}
	rv := e.answer(anna.Click(end, players.IDWith(end, "review")))
	if !strings.Contains(rv.Content, "Review of your game") {
		t.Fatalf("the review in a group DM: %q", rv.Content)
	}
	for _, m := range ben.Messages(group) {
		if strings.Contains(m.Content, "Solo game") {
			t.Fatal("ben sees anna's private game in the group DM")
		}
	}
	st := e.answer(anna.Command(group, "qwixx", "stats", nil))
	if len(st.Embeds) == 0 {
		t.Fatalf("/qwixx stats in a group DM: %q", st.Content)
	}
	solo := ""
	for _, f := range st.Embeds[0].Fields {
		if f.Name == "Solo" {
			solo = f.Value
		}
	}
	if !st.Ephemeral() || !strings.HasPrefix(solo, "Solo: 1 game") {
		t.Fatalf("/qwixx stats in a group DM: solo %q", solo)
	}
	_, foreignCh := e.srv.AddGuildWithoutBot("Elsewhere", "")
	daily := e.answer(anna.Command(foreignCh, "qwixx", "daily", nil))
	if !strings.Contains(daily.Content, "daily #") || len(privateMoves(daily)) == 0 {
		t.Fatalf("/qwixx daily in a server without the bot: %q", daily.Content)
	}
	lobby := e.answer(anna.Command(foreignCh, "qwixx", "new", nil))
	if lobby.Ephemeral() || len(lobby.Embeds) == 0 || !strings.Contains(lobby.Embeds[0].Description, "not a member here") {
		t.Fatalf("a table in a server without the bot: %+v", lobby)
	}
	settings := e.answer(anna.Command(foreignCh, "qwixx", "settings", nil))
	if !strings.Contains(settings.Content, "settings need me") || !settings.Ephemeral() {
		t.Fatalf("a server's settings in a server without the bot: %q", settings.Content)
	}
	for _, r := range e.srv.Requests() {
		if strings.Contains(r.Path, "/channels/"+group) || strings.Contains(r.Path, "/channels/"+foreignCh) {
			t.Errorf("the bot sent %s %s to a channel it is not in", r.Method, r.Path)
		}
	}
}

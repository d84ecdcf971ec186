package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// Issue: one HTTP 500 while registering the commands at start-up made the
// bot exit. It retries with backoff, and serves interactions meanwhile.
func TestE2ECommandRegistrationRetriedAfterServerErrors(t *testing.T) {
	e := newE2E(t)
	e.stop()
	e.srv.InjectServerErrors(2, "PUT /applications", 500)
	e.start() // waits for the registration, after the two failures
	if n := strings.Count(e.logs.String(), "registering commands failed"); n != 2 {
		t.Fatalf("%d failed registrations logged, want 2:\n%s", n, e.logs.String())
	}
	anna := e.srv.AddUser("Anna", "en-US")
	lobby := e.answer(anna.Command(e.srv.DefaultChannel(), "qwixx", "new", nil))
	if players.IDWith(lobby, "join") == "" {
		t.Fatalf("no lobby after the retried registration: %+v", lobby)
	}
}

// Issue: a lost answer to /qwixx new left a lobby nobody could see, which
// blocked the channel. Another /qwixx new shows it again. (Discord answers
// every attempt with a server error until the deadline has passed.)
func TestE2ELostLobbyAnswerShownAgain(t *testing.T) {
	e := newE2EGateway(t) // server errors of the callback route
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	e.srv.InjectServerErrors(1000, "/callback", 500)
	it, err := anna.Command(ch, "qwixx", "new", map[string]any{"variant": "cards"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := it.WaitResponse(t.Context()); err == nil {
		t.Fatal("the lobby's answer should have been lost")
	}
	e.srv.ClearFaults()
	lobby := e.answer(ben.Command(ch, "qwixx", "new", nil))
	if lobby.Ephemeral() || !strings.Contains(lobby.Content, "already has an open table") || !strings.Contains(lobby.Embeds[0].Title, "card") {
		t.Fatalf("second /qwixx new: %q %+v", lobby.Content, lobby.Embeds)
	}
	lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
	e.answer(anna.Click(lobby, players.IDWith(lobby, "start")))
	e.table(anna, "Action 1")
}

// Issue: an interaction answer that got 500, 503 or 504 was not sent again
// (only 502 was), so a move that was saved showed "This interaction
// failed". Now each is sent again within the deadline, and an answer that
// had gone through although its reply was an error (the "after" faults:
// the 40060 of the next attempt) is not given twice.
func TestE2EInteractionAnswersSurviveServerErrors(t *testing.T) {
	t.Parallel()
	e := newE2EGateway(t) // server errors of the callback route
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	after := 0
	for _, status := range []int{500, 503, 504} {
		e.srv.InjectServerErrors(2, "/callback", status)
		e.srv.InjectServerErrorsAfter(1, "/callback", status)
		after++
	}
	e.startTable(anna, ben)
	for range 3 {
		tbl := e.table(anna, "Action 1")
		e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
		e.answer(ben.Click(tbl, players.IDWith(tbl, "pass")))
		next := e.table(anna, "Action 2")
		active := ben
		if strings.Contains(next.Content, "<@"+anna.ID+">") {
			active = anna
		}
		e.srv.InjectServerErrors(1, "/callback", 503)
		e.answer(active.Click(next, players.IDWith(next, "pass")))
	}
	st := e.srv.InteractionStats()
	if st.Failed != 0 || st.Pending != 0 || st.Answered != st.Sent || st.Late != 0 {
		t.Fatalf("interactions %+v: every one must be answered", st)
	}
	if st.Duplicate != after {
		t.Fatalf("%d answers refused as already given, want %d (one per answer that went through with an error)", st.Duplicate, after)
	}
	if n := strings.Count(e.logs.String(), "interaction response failed"); n != 0 {
		t.Fatalf("%d answers failed:\n%s", n, e.logs.String())
	}
}

// Issue (RULES C10): a forged select with the card picker's custom_id on
// the public table message turned it into the active player's hand. Only
// an ephemeral message is answered with private content, decided from the
// message's flags and the custom_id, also when Discord omits attachments.
func TestE2EForgedPickerOnPublicTableRefused(t *testing.T) {
	e := newE2E(t)
	e.srv.SetOmitInteractionAttachments(true)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	e.startCards("cards", anna, ben)
	tbl := e.table(anna, "Action 1")
	active := anna
	if strings.Contains(tbl.Content, "active player: <@"+ben.ID+">") {
		active = ben
	}
	// To the active player's action 3, where the card picker exists.
	e.answer(active.Click(tbl, players.IDWith(tbl, "take")))
	num := e.table(anna, "Action 2")
	e.answer(anna.Click(num, players.IDWith(num, "pass")))
	e.answer(ben.Click(num, players.IDWith(num, "pass")))
	tbl = e.table(anna, "Action 3")
	hv := e.answer(active.Click(tbl, players.IDWith(tbl, "hand")))
	pick := players.IDWith(hv, "pick")
	hand := cardsNamed(hv.Content)
	if !hv.Ephemeral() || pick == "" || len(hand) == 0 {
		t.Fatalf("no play builder in the hand view: %q %v", hv.Content, hv.CustomIDs())
	}
	refresh := players.IDWith(hv, "hand")
	// The picker's own custom_id, sent with the public table message.
	it, err := active.ForgeComponent(ch, tbl.ID, pick, 3, []string{hand[0].String()})
	if err != nil {
		t.Fatal(err)
	}
	m := e.answer(it, nil)
	if !m.Ephemeral() || !strings.Contains(m.Content, "not one of mine") {
		t.Fatalf("forged picker on the public message: %q", m.Content)
	}
	pub, _ := e.srv.Message(tbl.ID)
	if _, ok := pub.Attachment("hand.png"); ok || strings.Contains(pub.Content, "Your cards") {
		t.Fatal("the public table shows a hand")
	}
	// The real refresh in the hand view works without attachments.
	up := e.answer(active.Click(hv, refresh))
	if !up.Ephemeral() || !strings.Contains(up.Content, "Your cards") {
		t.Fatalf("refresh in the hand view: %q", up.Content)
	}
}

// Issues: a bit flipped in a stored game loaded as another game; an
// unreadable table blocked its channel for good; the message said its host
// could clear it, but a table whose checksum failed refused its host. Now
// the checksum catches the flip, the table is never played on, everybody
// is told who may clear it (the host, named from the damaged bytes, or a
// moderator), and the host clears it; the bytes are kept in the
// quarantine.
func TestE2EFlippedBitInStoredGame(t *testing.T) {
	e := newE2E(t)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	e.startTable(anna, ben)
	tbl := e.table(anna, "Action 1")
	e.stop()
	flipped := flipStoredBit(t, e.db, ch, 200)
	e.start()
	for _, tc := range []struct {
		u  *discordtest.User
		it func() (*discordtest.Interaction, error)
	}{
		{anna, func() (*discordtest.Interaction, error) { return anna.Click(tbl, players.IDWith(tbl, "pass")) }},
		{ben, func() (*discordtest.Interaction, error) { return ben.Command(ch, "qwixx", "sheet", nil) }},
		{ben, func() (*discordtest.Interaction, error) { return ben.Command(ch, "qwixx", "end", nil) }},
		{ben, func() (*discordtest.Interaction, error) { return ben.Command(ch, "qwixx", "new", nil) }},
	} {
		m := e.answer(tc.it())
		if !m.Ephemeral() || !strings.Contains(m.Content, "could not be read") || !strings.Contains(m.Content, "Its host, <@"+anna.ID+">,") {
			t.Fatalf("%s on the damaged table: %q", tc.u.Name, m.Content)
		}
	}
	if n := strings.Count(e.logs.String(), "stored table unreadable"); n != 1 {
		t.Fatalf("logged %d times, want once", n)
	}
	m := e.answer(anna.Command(ch, "qwixx", "end", nil))
	if m.Ephemeral() || !strings.Contains(m.Content, "cleared") {
		t.Fatalf("the host's /qwixx end: %q", m.Content)
	}
	lobby := e.answer(anna.Command(ch, "qwixx", "new", nil))
	if players.IDWith(lobby, "join") == "" {
		t.Fatal("no new table after clearing")
	}
	e.stop()
	// The operator's view: qwixxbot quarantine lists it and writes its
	// bytes, exactly as they were on disk.
	dir := t.TempDir()
	cfg := filepath.Join(dir, "q.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[store]\npath = %q\n", e.db)), 0o600)
	var out, errOut strings.Builder
	if code := run(t.Context(), []string{"quarantine", "-config", cfg, "-o", dir}, &out, &errOut); code != 0 {
		t.Fatalf("qwixxbot quarantine exited %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "channel "+ch) || !strings.Contains(out.String(), "corrupt") {
		t.Fatalf("qwixxbot quarantine: %q", out.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, ch+"-*.bin"))
	if len(files) != 1 {
		t.Fatalf("raw bytes written: %v", files)
	}
	raw, _ := os.ReadFile(files[0])
	if string(raw) != string(flipped) {
		t.Fatal("the quarantined bytes differ from the damaged value on disk")
	}
}

// flipStoredBit flips one bit of channelID's stored game value, in place
// in the bbolt file (as a failing disk would).
func flipStoredBit(t *testing.T, path, channelID string, byteAt int) []byte {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v []byte
	err = db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		v = append([]byte(nil), b.Get([]byte(channelID))...)
		if len(v) <= byteAt {
			t.Fatalf("stored game is only %d bytes", len(v))
		}
		v[byteAt] ^= 0x04
		return b.Put([]byte(channelID), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Issue: Anna and Ben each left with /qwixx leave, the game ended, Ben
// clicked Play again: a new game started at once, pinged Anna and waited
// on her. Through the fake Discord: Play again opens a lobby that Ben
// hosts, says he started it, and names no departed player (so nobody who
// left is seated or pinged); the results lose their Play again button.
func TestE2EPlayAgainLeavesDepartedPlayersOut(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	e.startTable(anna, ben)
	e.table(anna, "Action 1")
	e.answer(anna.Command(ch, "qwixx", "leave", nil))
	e.answer(ben.Command(ch, "qwixx", "leave", nil))
	var results *discordtest.Message
	if err := e.until(20*time.Second, func() bool {
		for _, m := range ben.Messages(ch) {
			if players.IDWith(m, "again") != "" {
				results = m
			}
		}
		return results != nil
	}); err != nil {
		t.Fatal("no results after both left")
	}
	lobby := e.answer(ben.Click(results, players.IDWith(results, "again")))
	text := lobby.Content
	for _, em := range lobby.Embeds {
		text += em.Title + em.Description
		for _, f := range em.Fields {
			text += f.Name + f.Value
		}
	}
	if lobby.Ephemeral() || !strings.Contains(lobby.Content, "<@"+ben.ID+"> wants to play again") || strings.Contains(text, anna.ID) || players.IDWith(lobby, "join") == "" {
		t.Fatalf("the lobby of Play again: %q", text)
	}
	if err := e.until(10*time.Second, func() bool {
		m, _ := e.srv.Message(results.ID)
		return players.IDWith(m, "again") == ""
	}); err != nil {
		t.Fatal("the results keep their Play again button")
	}
	// Anna may come back by joining, like anyone.
	lobby = e.answer(anna.Click(lobby, players.IDWith(lobby, "join")))
	e.answer(ben.Click(lobby, players.IDWith(lobby, "start")))
	e.table(anna, "Action 1")
}

// Issue 39: anybody in a server got the record of anybody's private solo
// game or daily challenge, dice included (with /qwixx record, its
// autocomplete and a forged 📄 Record button), and all DMs shared one
// history. Through the fake Discord, with forged and stale interactions:
// Anna plays her daily challenge and a private solo game in the server,
// and a solo game in her DM; Ben, in the server and in his DM, reaches
// none of them by any command, autocompletion or forged button (record,
// review, statistics); Anna reaches her own; and after /qwixx forget-me
// Anna's daily is not dealt again the same day.
func TestE2EPrivateGamesUnreachableByForgery(t *testing.T) {
	t.Parallel()
	e := newE2EClock(t, true)
	ch := e.srv.DefaultChannel()
	anna, ben := e.srv.AddUser("Anna", ""), e.srv.AddUser("Ben", "")
	annaDM, benDM := e.srv.DMChannel(anna.ID), e.srv.DMChannel(ben.ID)
	endDaily := e.playPrivate(anna, e.answer(anna.Command(ch, "qwixx", "daily", nil)), 0)
	endSolo := e.playPrivate(anna, e.answer(anna.Command(ch, "qwixx", "solo", nil)), 1)
	e.playPrivate(anna, e.answer(anna.Command(annaDM, "qwixx", "solo", nil)), 2)
	if !strings.Contains(endDaily.Content, "is over") || !strings.Contains(endSolo.Content, "is over") {
		t.Fatalf("anna's games did not end: %q / %q", endDaily.Content, endSolo.Content)
	}
	choices := func(u *discordtest.User, channel string) []string {
		t.Helper()
		it, err := u.Autocomplete(channel, "qwixx", "record", map[string]any{"game": ""}, "game")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := it.Wait(ctx); err != nil {
			t.Fatalf("autocomplete unanswered: %v", err)
		}
		var ids []string
		for _, c := range it.AutocompleteChoices() {
			ids = append(ids, fmt.Sprint(c["value"]))
		}
		return ids
	}
	// Anna's own games, as she sees them: two in the server, one in her DM.
	ids := choices(anna, ch)
	dmIDs := choices(anna, annaDM)
	if len(ids) != 2 || len(dmIDs) != 1 {
		t.Fatalf("anna is offered %v in the server and %v in her DM", ids, dmIDs)
	}
	mine := e.answer(anna.Command(ch, "qwixx", "record", map[string]any{"game": ids[0]}))
	if a, ok := mine.Attachment(strings.TrimSpace(attachmentName(mine))); !ok || !strings.Contains(string(a.Data), `"rolls"`) {
		t.Fatalf("anna does not get her own record: %q", mine.Content)
	}
	leaks := func(who string, m *discordtest.Message) {
		t.Helper()
		for _, a := range m.Attachments {
			if strings.HasSuffix(a.Filename, ".json") || a.Filename == "review.png" {
				t.Errorf("%s got %s: %q", who, a.Filename, m.Content)
			}
		}
		if strings.Contains(m.Content, "Review of your game") {
			t.Errorf("%s got a review: %q", who, m.Content)
		}
	}
	for _, at := range []string{ch, benDM} {
		if got := choices(ben, at); len(got) != 0 {
			t.Errorf("ben is offered %v in %s", got, at)
		}
		leaks("ben's /qwixx record", e.answer(ben.Command(at, "qwixx", "record", nil)))
		for _, id := range append(slices.Clone(ids), dmIDs...) {
			leaks("ben's /qwixx record "+id, e.answer(ben.Command(at, "qwixx", "record", map[string]any{"game": id})))
			table, arg, _ := strings.Cut(id, "-")
			if strings.HasPrefix(id, "daily-") {
				continue // no button can name a daily challenge's game
			}
			for _, forged := range []string{
				customid.Action{Table: table, View: customid.ViewResults, Verb: "record", Arg: arg}.Encode(),
				customid.Action{Table: table, View: customid.ViewResults, Verb: "review", Arg: arg}.Encode(),
				customid.Action{Table: table, View: customid.ViewSolo, Verb: "review", Arg: arg}.Encode(),
			} {
				leaks("ben's forged "+forged, e.answer(ben.ForgeClick(at, "forged", forged)))
			}
		}
		st := e.answer(ben.Command(at, "qwixx", "stats", map[string]any{"player": anna.ID}))
		if len(st.Embeds) != 0 {
			t.Errorf("ben sees anna's private games in her statistics from %s: %+v", at, st.Embeds)
		}
		show := customid.Action{Table: anna.ID, View: customid.ViewPeople, Verb: "show"}.Encode()
		if m := e.answer(ben.ForgeClick(at, "forged", show)); len(m.Embeds) != 0 {
			t.Errorf("ben's forged Show button posted anna's private games from %s: %+v", at, m.Embeds)
		}
	}
	// Forgetting is no second attempt at the day's dice.
	ask := e.answer(anna.Command(ch, "qwixx", "forget-me", nil))
	e.answer(anna.Click(ask, players.IDWith(ask, "forget")))
	again := e.answer(anna.Command(ch, "qwixx", "daily", nil))
	if len(privateMoves(again)) != 0 || !strings.Contains(again.Content, "already played") {
		t.Fatalf("the day's daily after forget-me: %q", again.Content)
	}
}

// attachmentName is the name of a message's one JSON attachment ("" none).
func attachmentName(m *discordtest.Message) string {
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Filename, ".json") {
			return a.Filename
		}
	}
	return ""
}

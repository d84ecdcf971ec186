package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/store"
)

// Card names as people write them, in the three languages, and card codes
// as the engine writes them: what a leak of a hidden card would look like.
var (
	cardWord = regexp.MustCompile(`(?i)\b(red|yellow|green|blue|joker|rot|gelb|grün|blau|rouge|jaune|vert|bleu)\s+(1[0-2]|[2-9])\b`)
	cardCode = regexp.MustCompile(`\b([RYGBJ])(1[0-2]|[2-9])\b`)
	colorOf  = map[string]string{"red": "R", "rot": "R", "rouge": "R", "yellow": "Y", "gelb": "Y", "jaune": "Y",
		"green": "G", "grün": "G", "vert": "G", "blue": "B", "blau": "B", "bleu": "B", "joker": "J"}
	mention = regexp.MustCompile(`<@(\d+)>`)
)

// cardsNamed lists the cards a text names, by name or by code.
func cardsNamed(text string) []game.Card {
	var out []game.Card
	for _, loc := range cardWord.FindAllStringSubmatchIndex(text, -1) {
		if strings.HasSuffix(text[:loc[0]], "✕ ") {
			continue // a cross in a row ("Anna ✕ blue 8" in a turn's log line), not a card
		}
		m := []string{text[loc[0]:loc[1]], text[loc[2]:loc[3]], text[loc[4]:loc[5]]}
		if c, err := game.ParseCard(colorOf[strings.ToLower(m[1])] + m[2]); err == nil {
			out = append(out, c)
		}
	}
	for _, m := range cardCode.FindAllString(text, -1) {
		if c, err := game.ParseCard(m); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// cardDriver plays a card game through the bot as its players would: it
// reads the public table message and each player's private hand view and
// clicks. After every move it scans everything public (RULES C10).
type cardDriver struct {
	e     *e2e
	t     *testing.T
	users map[string]*discordtest.User // by user ID
	rnd   *rand.Rand
	// eve is a member of the channel who does not play: she sees only what
	// is public, and so does pub, which sees every version of every public
	// message. eveSees follows every version of every message Eve can see.
	eve     *discordtest.User
	pub     *discordtest.Watcher
	eveSees *discordtest.Watcher
	// views are the newest hand views, by user ID.
	views map[string]*discordtest.Message
	// played are the cards shown so far: their colours are public.
	played map[game.Card]bool
	// images are the public pictures seen, by content.
	images map[[32]byte]string
	last   string // the table message acted on last (shownState)
	// manual counts hand views that had to be refreshed by a click because
	// the bot did not update them.
	manual int
	plays  int
	// midPlay, if set, runs in each action 3 once u has picked the cards.
	midPlay func(play int, u *discordtest.User)
	scanned int             // public message versions scanned
	said    strings.Builder // the content of every public message version
}

func newCardDriver(e *e2e, seed uint64, players ...*discordtest.User) *cardDriver {
	d := &cardDriver{e: e, t: e.t, users: map[string]*discordtest.User{}, rnd: rand.New(rand.NewPCG(seed, 7)),
		views: map[string]*discordtest.Message{}, played: map[game.Card]bool{}, images: map[[32]byte]string{}}
	for _, u := range players {
		d.users[u.ID] = u
	}
	d.eve = e.srv.AddUser("Eve", "en-US")
	d.pub = e.srv.Watch(e.srv.DefaultChannel())
	d.eveSees = d.eve.Watch(e.srv.DefaultChannel())
	return d
}

// answer waits for the bot's answer to an interaction.
func (d *cardDriver) answer(it *discordtest.Interaction, err error) *discordtest.Message {
	d.t.Helper()
	return d.e.answer(it, err)
}

// current waits for the table message to change since the last action and
// returns it, or the results message at the end.
func (d *cardDriver) current() (table, results *discordtest.Message) {
	d.t.Helper()
	err := d.e.until(15*time.Second, func() bool {
		table, results = nil, nil
		var ms []*discordtest.Message // what Eve sees of the channel
		if d.e.public != nil {
			ms = d.e.public.Messages()
		} else { // an e2e not made by newE2E: read the whole channel
			ms = d.eve.Messages(d.e.srv.DefaultChannel())
		}
		for i := len(ms) - 1; i >= 0; i-- {
			m := ms[i]
			if m.AuthorID != d.e.srv.BotUserID() {
				continue
			}
			if players.IDWith(m, "again") != "" {
				results = m
				return true
			}
			if players.IDWith(m, "sheet") != "" {
				table = m
				return shownState(m) != d.last
			}
		}
		return false
	})
	if err != nil {
		d.t.Fatalf("the table did not change after the last move (%d moves so far)", d.plays)
	}
	if table != nil {
		d.last = shownState(table)
	}
	return table, results
}

// shownState sums up what a table message shows: an edit that shows the
// same again (the bot making sure of it after a restart) is no change.
func shownState(m *discordtest.Message) string {
	return m.ID + "\n" + m.Content + "\n" + strings.Join(m.CustomIDs(), " ")
}

// play plays the game to its end and returns the results message.
func (d *cardDriver) play() *discordtest.Message {
	d.t.Helper()
	for steps := 0; ; steps++ {
		if steps > 3000 {
			d.t.Fatal("the game did not end")
		}
		table, results := d.current()
		d.scan()
		if results != nil {
			d.eveSeesNothingPrivate()
			return results
		}
		d.act(table)
	}
}

// act makes the move the table waits for.
func (d *cardDriver) act(table *discordtest.Message) {
	d.t.Helper()
	var waiting []*discordtest.User
	for _, line := range strings.Split(table.Content, "\n") {
		if strings.HasPrefix(line, "Waiting for:") {
			for _, m := range mention.FindAllStringSubmatch(line, -1) {
				waiting = append(waiting, d.users[m[1]])
			}
		}
	}
	if len(waiting) == 0 || waiting[0] == nil {
		d.t.Fatalf("nobody to wait for in %q", table.Content)
	}
	u := waiting[0]
	switch c := table.Content; {
	case strings.Contains(c, "takes cards from the display"):
		if d.rnd.IntN(2) == 0 { // from the public table
			ids := idsWith(table, "take")
			d.answer(u.Click(table, ids[d.rnd.IntN(len(ids))]))
			return
		}
		v := d.view(u, table, "take")
		ids := idsWith(v, "take")
		d.views[u.ID] = d.answer(u.Click(v, ids[d.rnd.IntN(len(ids))]))
	case strings.Contains(c, "the number for everyone is"):
		// Decided on the table message, where everybody decides it.
		n := numberFor(c)
		choice := players.IDWith(table, "pass")
		// Cross where the number costs little: low numbers in the rising
		// rows, high ones in the falling rows.
		for _, row := range []string{"red", "yellow", "green", "blue"} {
			id := players.IDWith(table, "number:"+row)
			good := (row == "red" || row == "yellow") == (n <= 5+d.rnd.IntN(2)) && (n <= 6 || n >= 8)
			if id != "" && good {
				choice = id
				break
			}
		}
		it, err := u.Click(table, choice)
		if m := d.answer(it, err); !acked(it, m) {
			// Not a choice for u (that row is closed on u's sheet).
			d.answer(u.Click(table, players.IDWith(table, "pass")))
		}
	case strings.Contains(c, "plays 1 to 3 cards"):
		d.playCards(u, d.view(u, table, "pick"))
	default:
		d.t.Fatalf("unknown action in %q", c)
	}
}

// numberFor reads the number for everyone from the table text.
func numberFor(content string) int {
	_, rest, _ := strings.Cut(content, "the number for everyone is **")
	n, _ := strconv.Atoi(strings.SplitN(rest, "*", 2)[0])
	return n
}

// idsWith lists the custom_ids with the verb.
func idsWith(m *discordtest.Message, verb string) []string {
	var ids []string
	for _, id := range m.CustomIDs() {
		if strings.Contains(id, ":"+verb) {
			ids = append(ids, id)
		}
	}
	return ids
}

// view returns u's hand view once it offers verb: the view the bot keeps up
// to date, else (no view yet, or not updated) one opened or refreshed by a
// click, as a person would.
func (d *cardDriver) view(u *discordtest.User, table *discordtest.Message, verb string) *discordtest.Message {
	d.t.Helper()
	v := d.views[u.ID]
	if v == nil {
		v = d.answer(u.Click(table, players.IDWith(table, "hand")))
		if v.VisibleTo != u.ID || !v.Ephemeral() {
			d.t.Fatalf("%s's hand view is not private to them", u.Name)
		}
	} else {
		err := d.e.until(5*time.Second, func() bool {
			m, ok := d.e.srv.Message(v.ID)
			if ok && players.IDWith(m, verb) != "" {
				v = m
				return true
			}
			return false
		})
		if err != nil {
			d.manual++
			v, _ = d.e.srv.Message(v.ID)
			v = d.answer(u.Click(v, players.IDWith(v, "hand")))
		}
	}
	if players.IDWith(v, verb) == "" {
		d.t.Fatalf("%s's hand view offers no %s: %q %v\ntable: %q %v", u.Name, verb, v.Content, v.CustomIDs(), table.Content, table.CustomIDs())
	}
	d.views[u.ID] = v
	return v
}

// playCards builds a play in the hand view: the largest group of one
// colour (jokers help), crossing as many of its numbers as the rules allow.
func (d *cardDriver) playCards(u *discordtest.User, v *discordtest.Message) {
	d.t.Helper()
	pick, _ := v.Component(players.IDWith(v, "pick"))
	var hand []game.Card
	for _, o := range pick.Options {
		c, err := game.ParseCard(o.Value)
		if err != nil {
			d.t.Fatalf("hand option %q: %v", o.Value, err)
		}
		hand = append(hand, c)
	}
	for _, sel := range playCandidates(hand) {
		m := d.answer(u.Select(v, players.IDWith(v, "pick"), codes(sel.cards)...))
		if d.midPlay != nil {
			d.midPlay(d.plays, u)
		}
		if as := players.IDWith(m, "as"); as != "" {
			m = d.answer(u.Select(m, as, sel.as))
		}
		nums := []string{}
		for _, c := range sel.cards {
			if n := strconv.Itoa(c.Number()); !slices.Contains(nums, n) {
				nums = append(nums, n)
			}
		}
		for _, cross := range subsets(nums) {
			m = d.answer(u.Select(m, players.IDWith(m, "cross"), cross...))
			if b, ok := m.Component(players.IDWith(m, "play")); ok && !b.Disabled {
				for _, c := range sel.cards {
					d.played[c] = true
				}
				d.plays++
				d.views[u.ID] = d.answer(u.Click(m, players.IDWith(m, "play")))
				return
			}
		}
		v = m
	}
	d.t.Fatalf("%s found no legal play in %v", u.Name, hand)
}

type candidate struct {
	cards []game.Card
	as    string // the colour named for jokers alone
}

// playCandidates orders the plays to try: the biggest groups of one colour
// first, then single cards.
func playCandidates(hand []game.Card) []candidate {
	var jokers []game.Card
	groups := map[game.Color][]game.Card{}
	for _, c := range hand {
		if c.Joker() {
			jokers = append(jokers, c)
		} else {
			groups[c.Color()] = append(groups[c.Color()], c)
		}
	}
	var out []candidate
	for _, col := range game.Colors {
		if g := append(slices.Clone(groups[col]), jokers...); len(g) > 0 {
			out = append(out, candidate{cards: g[:min(3, len(g))]})
		}
	}
	if len(jokers) > 0 {
		for _, col := range game.Colors {
			out = append(out, candidate{cards: jokers[:min(3, len(jokers))], as: col.String()})
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return len(b.cards) - len(a.cards) })
	for _, c := range hand {
		out = append(out, candidate{cards: []game.Card{c}, as: "red"})
	}
	return out
}

func codes(cs []game.Card) []string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return s
}

// subsets lists the subsets of s, biggest first, ending with the empty one.
func subsets(s []string) [][]string {
	var out [][]string
	for mask := (1 << len(s)) - 1; mask >= 0; mask-- {
		var sub []string
		for i := range s {
			if mask&(1<<i) != 0 {
				sub = append(sub, s[i])
			}
		}
		out = append(out, sub)
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}

// scan checks every public message version since the last scan: no card
// whose colour is not public yet may be named anywhere (content, embeds,
// labels, options, custom_ids, file names); nothing private is shown to
// Eve. It keeps the public pictures for checkImages.
func (d *cardDriver) scan() {
	d.t.Helper()
	for {
		ev, err := d.pub.NextTimeout(time.Millisecond)
		if err != nil {
			break
		}
		m := ev.Message
		if m.Ephemeral() {
			d.t.Fatalf("a private message reached the public watcher: %q", m.Content)
		}
		d.scanned++
		d.said.WriteString(m.Content + "\n")
		for where, text := range publicTexts(m) {
			for _, c := range cardsNamed(text) {
				if !d.played[c] {
					d.t.Errorf("public %s of message %s names %v, which nobody has played: %q", where, m.ID, c, text)
				}
			}
		}
		for _, a := range m.Attachments {
			if strings.HasSuffix(a.Filename, ".png") {
				d.images[sha256.Sum256(a.Data)] = a.Filename
			}
		}
	}
	// Everything Eve could see since the last scan, every version of it
	// (a look at the channel now would miss versions already replaced).
	for {
		ev, err := d.eveSees.NextTimeout(0)
		if err != nil {
			break
		}
		if ev.Message.Ephemeral() {
			d.t.Fatalf("Eve sees a private message: %q", ev.Message.Content)
		}
	}
}

// eveSeesNothingPrivate looks at the channel as Eve does now.
func (d *cardDriver) eveSeesNothingPrivate() {
	d.t.Helper()
	for _, m := range d.eve.Messages(d.e.srv.DefaultChannel()) {
		if m.Ephemeral() {
			d.t.Fatalf("Eve sees a private message: %q", m.Content)
		}
	}
}

// publicTexts is everything readable about a public message, by where it
// is. Row buttons ("Red 7" for the number for everyone) are left out of the
// label check: they offer every row alike and say nothing about cards.
func publicTexts(m *discordtest.Message) map[string]string {
	out := map[string]string{"content": m.Content}
	var sb strings.Builder
	for _, e := range m.Embeds {
		b, _ := json.Marshal(e)
		sb.Write(b)
	}
	out["embeds"] = sb.String()
	sb.Reset()
	var ids strings.Builder
	for _, c := range m.AllComponents() {
		ids.WriteString(c.CustomID + " ")
		if strings.Contains(c.CustomID, ":number:") || strings.Contains(c.CustomID, ":white:") {
			continue
		}
		sb.WriteString(c.Label + " " + c.Placeholder + " " + c.Content + " ")
		for _, o := range c.Options {
			sb.WriteString(o.Label + " " + o.Value + " " + o.Description + " ")
		}
	}
	out["components"] = sb.String()
	out["custom_ids"] = ids.String()
	sb.Reset()
	for _, a := range m.Attachments {
		sb.WriteString(a.Filename + " " + a.Description + " ")
	}
	out["attachments"] = sb.String()
	return out
}

// storedGame reads the one table of a stopped bot's database and restores
// its game.
func storedGame(t *testing.T, path string) *game.Game {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var tables []json.RawMessage
	if err := st.ForEach(func(_ string, blob []byte, err error) error { tables = append(tables, blob); return err }); err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("%d stored tables", len(tables))
	}
	tb, err := bot.DecodeTable(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	if tb.Game == nil {
		t.Fatal("the stored table has no game")
	}
	return tb.Game
}

// checkScores replays the stored game's record with the engine and finds
// its scores in the results message.
func checkScores(t *testing.T, g *game.Game, results string) *game.Record {
	t.Helper()
	rec := g.Record()
	rep, err := game.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Over() {
		t.Fatal("the replayed game is not over")
	}
	for p, name := range rep.Players() {
		if line := fmt.Sprintf("%s: %d", name, rep.Scores()[p]); !strings.Contains(results, line) {
			t.Errorf("results %q lack %q from the replay", results, line)
		}
	}
	return rec
}

// checkHidden proves that the public pictures carry no hidden colour: each
// one is the picture of the engine's public view at some step of the game,
// and that public view stays the same, step by step, in twin games where two
// cards of one number swap places for as long as neither has been played.
func (d *cardDriver) checkHidden(rec *game.Record) {
	t := d.t
	t.Helper()
	orig, err := game.NewReplayer(rec)
	if err != nil {
		t.Fatal(err)
	}
	var views []game.PublicView // the public view before each step, and at the end
	l := bot.LangFor("en-US")
	drawn := map[[32]byte]bool{}
	for {
		pv := orig.Game().Public()
		views = append(views, pv)
		if !orig.Game().Over() {
			png, err := bot.Images{}.Table(pv, l)
			if err != nil {
				t.Fatal(err)
			}
			drawn[sha256.Sum256(png)] = true
		}
		if orig.Done() {
			break
		}
		if err := orig.Step(); err != nil {
			t.Fatal(err)
		}
	}
	m, err := game.NewMatch(rec.Players, 1)
	if err == nil {
		err = m.AddGame(orig.Game())
	}
	if err != nil {
		t.Fatal(err)
	}
	res, err := bot.Images{}.Results(orig.Game().Public(), m, l)
	if err != nil {
		t.Fatal(err)
	}
	drawn[sha256.Sum256(res)] = true
	// The score chart beside the results: drawn from the public turn
	// summaries only (C10).
	chart, err := bot.Images{}.Chart(orig.Game().Public(), orig.Game().ScoreSeries(), l)
	if err != nil {
		t.Fatal(err)
	}
	drawn[sha256.Sum256(chart)] = true
	tables := 0
	for sum, name := range d.images {
		if !drawn[sum] {
			t.Errorf("the public picture %s is not a picture of the public view at any step", name)
		}
		if name == "table.png" {
			tables++
		}
	}
	if tables < 10 {
		t.Errorf("only %d distinct table pictures seen", tables)
	}

	hiddenSteps := 0
	for _, pair := range hiddenPairs(rec, 3) {
		twin := *rec
		twin.Deck = slices.Clone(rec.Deck)
		a, b := slices.Index(twin.Deck, pair.a), slices.Index(twin.Deck, pair.b)
		twin.Deck[a], twin.Deck[b] = twin.Deck[b], twin.Deck[a]
		other, err := game.NewReplayer(&twin)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			if !reflect.DeepEqual(views[step], other.Game().Public()) {
				t.Fatalf("step %d: the public view tells %s from %s", step, pair.a, pair.b)
			}
			if step == pair.until {
				break
			}
			if err := other.Step(); err != nil {
				t.Fatalf("swapping %s and %s: step %d: %v", pair.a, pair.b, step+1, err)
			}
		}
		hiddenSteps += pair.until
	}
	if hiddenSteps < len(rec.Moves) {
		t.Errorf("the twins cover only %d steps of %d", hiddenSteps, len(rec.Moves))
	}
}

// swap is two cards of one number, both unplayed before move until.
type swap struct {
	a, b  string
	until int
}

// hiddenPairs finds up to n pairs of cards of one number that stay unplayed
// the longest, one pair per number.
func hiddenPairs(rec *game.Record, n int) []swap {
	firstPlay := func(card string) int {
		for i, m := range rec.Moves {
			if slices.Contains(m.Cards, card) {
				return i
			}
		}
		return len(rec.Moves)
	}
	best := map[int]swap{}
	for i, a := range rec.Deck {
		for _, b := range rec.Deck[i+1:] {
			ca, _ := game.ParseCard(a)
			cb, _ := game.ParseCard(b)
			if ca.Number() != cb.Number() {
				continue
			}
			s := swap{a: a, b: b, until: min(firstPlay(a), firstPlay(b))}
			if s.until > best[ca.Number()].until {
				best[ca.Number()] = s
			}
		}
	}
	var out []swap
	for _, s := range best {
		out = append(out, s)
	}
	slices.SortFunc(out, func(x, y swap) int { return y.until - x.until })
	return out[:min(n, len(out))]
}

// checkLogs scans the bot's info-level log: it must run (the game is
// logged) and name no card and no token.
func (e *e2e) checkLogs() {
	t := e.t
	t.Helper()
	logs := e.logs.String()
	if !strings.Contains(logs, "game started") {
		t.Fatalf("the bot's info log was not captured: %q", logs)
	}
	for _, line := range strings.Split(logs, "\n") {
		if cs := cardsNamed(line); len(cs) > 0 {
			t.Errorf("an info log line names cards %v: %s", cs, line)
		}
		if strings.Contains(line, e.srv.Token()) {
			t.Errorf("a log line holds the bot token: %s", line)
		}
	}
}

// startCards opens a card table of the variant and seats the players.
func (e *e2e) startCards(variant string, host *discordtest.User, others ...*discordtest.User) {
	e.t.Helper()
	lobby := e.answer(host.Command(e.srv.DefaultChannel(), "qwixx", "new", map[string]any{"variant": variant}))
	for _, u := range others {
		lobby = e.answer(u.Click(lobby, players.IDWith(lobby, "join")))
	}
	e.answer(host.Click(lobby, players.IDWith(lobby, "start")))
}

// TestE2ECardGameThreePlayers plays a whole 3-player card game (RULES
// C1–C10) through the bot, with a restart in the middle of an action 3,
// and checks: the results agree with the engine's replay of the stored
// record, the discard pile was reshuffled on the way (C4), hand views were
// kept up to date without help, and nothing public named a hidden card
// (C10: messages, components, custom_ids, file names, pictures, logs).
func TestE2ECardGameThreePlayers(t *testing.T) {
	t.Parallel()
	e2eCardGameThreePlayers(t, "")
}

// TestE2ECardGameThreePlayersHTTP is TestE2ECardGameThreePlayers with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2ECardGameThreePlayersHTTP(t *testing.T) {
	t.Parallel()
	e2eCardGameThreePlayers(t, "http")
}

// e2eCardGameThreePlayers runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eCardGameThreePlayers(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	e.script = &game.Record{Seed: 3}
	e.restart() // with the script
	anna, ben, chloe := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US"), e.srv.AddUser("Chloé", "en-US")
	d := newCardDriver(e, 3, anna, ben, chloe)
	restarted := false
	d.midPlay = func(play int, u *discordtest.User) {
		if play == 2 && !restarted {
			restarted = true
			e.restart() // between picking the cards and confirming them
			// The new process follows only views clicked since it started;
			// the others reopen their hands from the table when they need
			// them (tested with the refresh button in the 15-minute test).
			for id := range d.views {
				if id != u.ID {
					delete(d.views, id)
				}
			}
		}
	}
	e.startCards("cards", anna, ben, chloe)
	res := d.play()
	if !restarted {
		t.Fatal("the game ended before the restart")
	}
	e.stop()
	g := storedGame(t, e.db)
	rec := checkScores(t, g, res.Content)
	if len(rec.Reshuffles) == 0 {
		t.Error("the discard pile was never reshuffled in this game")
	}
	if !strings.Contains(d.said.String(), "The draw pile ran out") {
		t.Error("the reshuffle was not announced")
	}
	if d.manual != 0 {
		t.Errorf("%d hand views were not updated by the bot", d.manual)
	}
	d.checkHidden(rec)
	e.checkLogs()
	t.Logf("%d plays, %d public message versions scanned, %d pictures, %d reshuffles", d.plays, d.scanned, len(d.images), len(rec.Reshuffles))
}

// TestE2EJokerGameTwoPlayers plays a whole 2-player joker game (C1 jokers)
// through the bot, with the same checks, and hand views that never needed
// a manual refresh.
func TestE2EJokerGameTwoPlayers(t *testing.T) {
	t.Parallel()
	e2eJokerGameTwoPlayers(t, "")
}

// TestE2EJokerGameTwoPlayersHTTP is TestE2EJokerGameTwoPlayers with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2EJokerGameTwoPlayersHTTP(t *testing.T) {
	t.Parallel()
	e2eJokerGameTwoPlayers(t, "http")
}

// e2eJokerGameTwoPlayers runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eJokerGameTwoPlayers(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	e.script = &game.Record{Seed: 2}
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	d := newCardDriver(e, 2, anna, ben)
	e.startCards("jokers", anna, ben)
	res := d.play()
	// The game's record, as /qwixx record sends it: a JSON attachment
	// that replays (as qwixxbot replay does) to the game's scores.
	sent := e.answer(ben.Command(e.srv.DefaultChannel(), "qwixx", "record", nil))
	// The statistics count the game, privately; the leaderboard, public,
	// lists both players.
	st := e.answer(anna.Command(e.srv.DefaultChannel(), "qwixx", "stats", nil))
	board := e.answer(anna.Command(e.srv.DefaultChannel(), "qwixx", "leaderboard", nil))
	e.stop()
	if !st.Ephemeral() || len(st.Embeds) != 1 || !strings.Contains(st.Embeds[0].Description, "1 game ·") {
		t.Errorf("/qwixx stats answered %q %+v", st.Content, st.Embeds)
	}
	if board.Ephemeral() || len(board.Embeds) != 1 || !strings.Contains(board.Embeds[0].Description, "Anna (1)") || !strings.Contains(board.Embeds[0].Description, "Ben (1)") {
		t.Errorf("/qwixx leaderboard answered %q %+v", board.Content, board.Embeds)
	}
	rec := checkScores(t, storedGame(t, e.db), res.Content)
	if !sent.Ephemeral() || len(sent.Attachments) != 1 || !strings.HasSuffix(sent.Attachments[0].Filename, ".json") {
		t.Fatalf("/qwixx record answered %q with %d attachments", sent.Content, len(sent.Attachments))
	}
	exported, err := game.ParseRecord(sent.Attachments[0].Data)
	if err != nil {
		t.Fatalf("the sent record does not parse: %v", err)
	}
	replayed, err := game.Replay(exported)
	if err != nil {
		t.Fatalf("the sent record does not replay: %v", err)
	}
	want, _ := game.Replay(rec)
	if !slices.Equal(replayed.Scores(), want.Scores()) || !slices.Equal(exported.Players, rec.Players) {
		t.Fatalf("the sent record replays to %v %v, the game to %v %v", exported.Players, replayed.Scores(), rec.Players, want.Scores())
	}
	// qwixxbot replay and qwixxbot render take the file as it was sent.
	file := filepath.Join(t.TempDir(), sent.Attachments[0].Filename)
	if err := os.WriteFile(file, sent.Attachments[0].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"replay", file}, &out, &errb); code != 0 {
		t.Fatalf("qwixxbot replay of the sent record: exit %d: %s", code, errb.String())
	}
	var sum game.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil || len(sum.Players) != 2 {
		t.Fatalf("qwixxbot replay printed %q (%v)", out.String(), err)
	}
	for i, p := range sum.Players {
		if p.Score != want.Scores()[i] {
			t.Errorf("qwixxbot replay: %s has %d points, the game gave %d", p.Name, p.Score, want.Scores()[i])
		}
	}
	pics := t.TempDir()
	if code := run(context.Background(), []string{"render", file, "-o", pics}, &out, &errb); code != 0 {
		t.Fatalf("qwixxbot render of the sent record: exit %d: %s", code, errb.String())
	}
	if png, err := os.ReadFile(filepath.Join(pics, "table.png")); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("qwixxbot render wrote no table.png: %v", err)
	}
	if d.manual != 0 {
		t.Errorf("%d hand views were not updated by the bot", d.manual)
	}
	jokers := 0
	for c := range d.played {
		if c.Joker() {
			jokers++
		}
	}
	if jokers == 0 {
		t.Error("no joker was played")
	}
	d.checkHidden(rec)
	e.checkLogs()
	t.Logf("%d plays (%d jokers), %d public message versions scanned", d.plays, jokers, d.scanned)
}

// handCount counts the cards a hand view lists.
func handCount(m *discordtest.Message) int {
	for _, line := range strings.Split(m.Content, "\n") {
		if list, ok := strings.CutPrefix(line, "Your cards: "); ok {
			return len(strings.Split(list, ", "))
		}
	}
	return -1
}

// waitFor waits until message id satisfies ok, and returns it.
func (e *e2e) waitFor(id string, what string, ok func(*discordtest.Message) bool) *discordtest.Message {
	e.t.Helper()
	var m *discordtest.Message
	err := e.until(10*time.Second, func() bool {
		m, _ = e.srv.Message(id)
		return m != nil && ok(m)
	})
	if err != nil {
		e.t.Fatalf("message %s: %s did not happen (content %q)", id, what, m.Content)
	}
	return m
}

// checkTokens fails if the bot ever used an interaction token older than
// Discord allows (15 minutes) or had one refused.
func (e *e2e) checkTokens() {
	e.t.Helper()
	for _, u := range e.srv.TokenUses() {
		if u.Age > discordtest.TokenLifetime || u.Rejected {
			e.t.Errorf("%s %s with a token %v old (rejected: %v)", u.Method, u.Route, u.Age, u.Rejected)
		}
	}
}

// A card game outlives interaction tokens (15 minutes). The hand view
// follows the game while its token is young, is left alone after that (no
// old token is ever used), and a click on it brings a fresh token, so it
// keeps working for hours; /qwixx hand opens one at any time. Timers (P1)
// force the least helpful take and play, crossing nothing.
func TestE2EHandViewOutlivesTokensAndTimersForceTakeAndPlay(t *testing.T) {
	t.Parallel()
	e := newE2EClock(t, true)
	e.config = func(c *config.Config) { c.Game.TurnTimeout = time.Hour }
	e.script = &game.Record{Seed: 11}
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	e.startCards("cards", anna, ben)

	tbl := e.table(anna, "takes cards from the display")
	view := e.answer(anna.Click(tbl, players.IDWith(tbl, "hand")))
	if handCount(view) != 4 {
		t.Fatalf("Anna's first hand: %q", view.Content)
	}
	e.bot.Idle() // the time passes after the bot is done: no request in flight across the jump
	e.clock.Advance(10 * time.Minute)
	e.answer(anna.Click(tbl, idsWith(tbl, "take")[0]))
	// The bot updates the view with its 10-minute-old token.
	e.waitFor(view.ID, "the hand view shows the card taken", func(m *discordtest.Message) bool { return handCount(m) == 5 })

	e.bot.Idle() // the time passes after the bot is done: no request in flight across the jump
	e.clock.Advance(5 * time.Minute)
	tbl = e.table(anna, "the number for everyone")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
	e.answer(ben.Click(tbl, players.IDWith(tbl, "pass")))
	e.table(anna, "plays 1 to 3 cards")
	e.bot.Idle() // the hand views have been looked at
	view, _ = e.srv.Message(view.ID)
	if players.IDWith(view, "pick") != "" {
		t.Fatal("the hand view was edited with a 15-minute-old token")
	}
	e.checkTokens()

	// A click on the old view brings a fresh token: the play builder.
	view = e.answer(anna.Click(view, players.IDWith(view, "hand")))
	pick, ok := view.Component(players.IDWith(view, "pick"))
	if !ok {
		t.Fatalf("no play builder after refreshing: %q", view.Content)
	}
	view = e.answer(anna.Select(view, players.IDWith(view, "pick"), pick.Options[0].Value))
	view = e.answer(anna.Click(view, players.IDWith(view, "play")))
	if !strings.Contains(view.Content, "✅ You chose") || handCount(view) != 4 {
		t.Fatalf("after the play the view shows %q", view.Content)
	}

	// Ben does nothing: an hour later the timer takes for him (C4 forces
	// it), then passes for both, then plays one card for him crossing
	// nothing (C6, C7: a misthrow).
	e.table(ben, "takes cards from the display")
	e.bot.Idle() // the time passes after the bot is done: no request in flight across the jump
	e.clock.Advance(time.Hour + time.Second)
	tbl = e.table(ben, "Time ran out for Ben: the leftmost cards were taken")
	if !strings.Contains(tbl.Content, "the number for everyone") {
		t.Fatalf("after the forced take: %q", tbl.Content)
	}
	e.bot.Idle() // the time passes after the bot is done: no request in flight across the jump
	e.clock.Advance(time.Hour + time.Second)
	e.table(ben, "plays 1 to 3 cards")
	e.bot.Idle() // the time passes after the bot is done: no request in flight across the jump
	e.clock.Advance(time.Hour + time.Second)
	// The turn's log line tells what the timer did.
	line := e.logLine("Time ran out for Ben: one card had to be played, nothing is crossed.")
	for _, want := range []string{"Ben played ", "Ben ✕ misthrow (1/4)"} {
		if !strings.Contains(line.Content, want) {
			t.Errorf("after the forced play the log line lacks %q: %q", want, line.Content)
		}
	}
	e.table(ben, "takes cards from the display") // the next turn

	// Hours into the game: /qwixx hand answers, and so does the old view.
	bv := e.answer(ben.Command(ch, "qwixx", "hand", nil))
	if bv.VisibleTo != ben.ID || handCount(bv) != 4 {
		t.Fatalf("/qwixx hand: %q", bv.Content)
	}
	view = e.answer(anna.Click(view, players.IDWith(view, "hand")))
	if handCount(view) != 4 || players.IDWith(view, "take") == "" {
		t.Fatalf("Anna's old view after 3 hours: %q", view.Content)
	}
	e.checkTokens()
	if age := e.srv.MaxTokenAge(); age > 14*time.Minute {
		t.Errorf("the oldest token used was %v old", age)
	}
	e.stop()
	g := storedGame(t, e.db)
	if s := g.Sheet(1); s.Crosses() != 0 || s.Misthrows != 1 {
		t.Errorf("Ben's sheet after timeouts: %d crosses, %d misthrows", s.Crosses(), s.Misthrows)
	}
}

// The rulebook's yellow 2-4-6 (C6): all three cannot be crossed, because 3
// and 5 would be left out. The hand view says why and keeps the Play button
// off; a forged confirmation gets the same reason and changes nothing;
// mixed colours are refused too; 2 and 4 may be crossed.
func TestE2EC6InvalidMultiCardPlayRefusedWithReason(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	e.script = &game.Record{Seed: 1, Deck: []string{"Y2", "Y4", "Y6", "R4", "B2", "B3", "B4", "B5", "G12", "G11", "G10", "G9"}}
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "de")
	ch := e.srv.DefaultChannel()
	e.startCards("cards", anna, ben)
	tbl := e.table(anna, "takes cards from the display")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "take:12")))
	tbl = e.table(anna, "the number for everyone")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
	e.answer(ben.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = e.table(anna, "plays 1 to 3 cards")

	v := e.answer(anna.Click(tbl, players.IDWith(tbl, "hand")))
	v = e.answer(anna.Select(v, players.IDWith(v, "pick"), "Y2", "Y4", "Y6"))
	v = e.answer(anna.Select(v, players.IDWith(v, "cross"), "2", "4", "6"))
	const gap = "you may leave out at most one number (this would leave out 3 and 5)"
	play, _ := v.Component(players.IDWith(v, "play"))
	if !strings.Contains(v.Content, gap) || !play.Disabled {
		t.Fatalf("yellow 2-4-6 crossing all: %q, play disabled %v", v.Content, play.Disabled)
	}
	forged := e.answer(anna.ForgeClick(ch, v.ID, play.CustomID))
	if !forged.Ephemeral() || forged.VisibleTo != anna.ID || !strings.Contains(forged.Content, gap) {
		t.Fatalf("forged confirmation answered %q", forged.Content)
	}
	if tbl2 := e.table(anna, "plays 1 to 3 cards"); strings.Contains(tbl2.Content, "Anna played") {
		t.Fatal("the refused play was shown")
	}

	v = e.answer(anna.Select(v, players.IDWith(v, "pick"), "Y2", "R4"))
	play, _ = v.Component(players.IDWith(v, "play"))
	if !strings.Contains(v.Content, "Cards played together must be of one colour.") || !play.Disabled {
		t.Fatalf("yellow 2 with red 4: %q", v.Content)
	}

	v = e.answer(anna.Select(v, players.IDWith(v, "pick"), "Y2", "Y4", "Y6"))
	v = e.answer(anna.Select(v, players.IDWith(v, "cross"), "2", "4"))
	if play, _ = v.Component(players.IDWith(v, "play")); play.Disabled || !strings.Contains(v.Content, "Play Yellow 2, Yellow 4, Yellow 6 and cross 2, 4?") {
		t.Fatalf("yellow 2-4-6 crossing 2 and 4: %q", v.Content)
	}
	v = e.answer(anna.Click(v, play.CustomID))
	if !strings.Contains(v.Content, "✅ You chose Yellow 2, Yellow 4, Yellow 6, crossing 2, 4.") || handCount(v) != 2 {
		t.Fatalf("after the play: %q", v.Content)
	}
	e.logLine("Anna played Yellow 2, Yellow 4, Yellow 6 ✕ 2, 4")
	e.table(anna, "takes cards from the display") // the next turn
	e.stop()
	s := storedGame(t, e.db).Sheet(0)
	y := s.Rows[game.Yellow]
	if y.Count() != 2 || !y.Crossed(0) || !y.Crossed(2) || s.Misthrows != 0 {
		t.Fatalf("Anna's yellow row %v, misthrows %d", y, s.Misthrows)
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
)

// The channel's cost, measured through the fake Discord only: what the
// channel shows (its public message events) and what the bot sends (the REST
// requests the fake received), whatever messages the bot chooses to send.
// From the bot's side only the stored game record is read, for the number
// of turns and moves.
//
// The dice and the deck come from the seed, the simulated players' choices
// too. By default two cheap games (dice and cards, 3 players) run with
// players who click as fast as the bot answers, and their figures are
// checked for properties any design has. The full table:
//
//	QWIXXTEST_FIGURES=1 go test -count=1 -run TestChannelFigures -v ./cmd/qwixxbot
//
// plays at a human pace: before each look at the channel the players wait
// until the bot has sent nothing for 100ms (QWIXXTEST_FIGURES_PACE=250ms to
// change it; 0 = as fast as they can), so the bot shows every state it
// would show to people and the figures do not depend on timing. With
// QWIXXTEST_FIGURES_GAMES=n it plays n seeds per row (default 1), and with
// QWIXXTEST_FIGURES_OUT=path it writes the Markdown tables to a file;
// QWIXXTEST_FIGURES_CASES="dice 5p,cards 3p" plays only those rows.
const (
	figuresEnv      = "QWIXXTEST_FIGURES"
	figuresGamesEnv = "QWIXXTEST_FIGURES_GAMES"
	figuresOutEnv   = "QWIXXTEST_FIGURES_OUT"
	figuresPaceEnv  = "QWIXXTEST_FIGURES_PACE"
	figuresCasesEnv = "QWIXXTEST_FIGURES_CASES"
)

// figCase is one row of the table.
type figCase struct {
	variant string
	players int
}

func (c figCase) String() string { return fmt.Sprintf("%s %dp", c.variant, c.players) }

// gameFigures is what one game cost.
type gameFigures struct {
	figCase
	seed uint64
	// From the stored game record: turns started, moves made. Every move is
	// a state-changing click (the simulated players wait out no timer).
	turns, moves int
	// Public message events of the bot's messages in the channel.
	created, edited, deleted int
	// Turn messages among the created: what is created besides them is
	// the lobby, the results and reminders.
	turnMsgs int
	// Interactions the players started (clicks, selects, commands).
	clicks int
	// The bot's REST requests: all of them, those counted against the
	// global limit and those exempt from it (interaction callbacks and
	// webhook requests with the interaction token), and the callbacks
	// among them (each answers one interaction; the rest the bot sends
	// on its own: channel posts and edits, hand views followed).
	requests, counted, exempt, answers int
	// The same split by the fake's rate limiter, as a cross-check.
	rlCounted, rlExempt int
	// Answers with status ≥ 400 (or none), and 429s among them.
	failed, limited int
	// Request bodies as uploaded, in bytes.
	bytes int64
	// Users pinged: mentioned in a public message the bot created and
	// allowed by its allowed_mentions.
	mentions int
	// Requests by route, named as in Discord's documentation.
	routes map[string]int
	// Bytes uploaded by route (method and path, IDs and tokens left out).
	routeBytes map[string]int64
	// Schema violations of the bot's requests.
	violations int
}

// TestChannelFigures plays whole games with simulated players through the
// in-process bot and reports per turn and per state-changing click what the
// channel cost: public messages, REST requests (global-limit and exempt),
// bytes uploaded and mentions.
func TestChannelFigures(t *testing.T) {
	t.Parallel()
	cases := []figCase{{"dice", 3}, {"cards", 3}}
	games := 1
	var pace time.Duration // the cheap check: players click as fast as they can
	if os.Getenv(figuresEnv) != "" {
		pace = 100 * time.Millisecond
		if v := os.Getenv(figuresPaceEnv); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil {
				t.Fatalf("%s=%q: %v", figuresPaceEnv, v, err)
			}
			pace = d
		}
		cases = []figCase{{"dice", 2}, {"dice", 3}, {"dice", 5}, {"cards", 2}, {"cards", 3}, {"cards", 5}, {"jokers", 3}}
		if v := os.Getenv(figuresCasesEnv); v != "" {
			cases = nil
			for _, name := range strings.Split(v, ",") {
				var c figCase
				if _, err := fmt.Sscanf(strings.TrimSpace(name), "%s %dp", &c.variant, &c.players); err != nil {
					t.Fatalf("%s: %q is not like \"dice 5p\": %v", figuresCasesEnv, name, err)
				}
				cases = append(cases, c)
			}
		}
		if v := os.Getenv(figuresGamesEnv); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				t.Fatalf("%s=%q: want a positive number", figuresGamesEnv, v)
			}
			games = n
		}
	}
	var mu sync.Mutex
	var all []*gameFigures
	t.Run("games", func(t *testing.T) {
		for _, c := range cases {
			for g := range games {
				seed := uint64(1 + g)
				t.Run(fmt.Sprintf("%s-%dp-seed%d", c.variant, c.players, seed), func(t *testing.T) {
					t.Parallel()
					f := measureGame(t, c, seed, pace)
					checkFigures(t, f)
					mu.Lock()
					all = append(all, f)
					mu.Unlock()
				})
			}
		}
	})
	if t.Failed() || len(all) == 0 {
		return
	}
	order := func(c figCase) int { return slices.Index(cases, c) }
	slices.SortFunc(all, func(a, b *gameFigures) int {
		if d := order(a.figCase) - order(b.figCase); d != 0 {
			return d
		}
		return int(a.seed) - int(b.seed)
	})
	out := figuresTables(cases, all)
	how := fmt.Sprintf("paced: the players look again once the bot sent nothing for %v", pace)
	if pace == 0 {
		how = "unpaced: the players click as fast as the bot answers, so the bot may skip states; " + figuresEnv + "=1 for the paced table"
	}
	out = fmt.Sprintf("Channel figures, %d game(s) per row, %s.\n\n%s", games, how, out)
	t.Logf("\n%s", out)
	if path := os.Getenv(figuresOutEnv); path != "" {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// measureGame plays one game of c with seeded chance and seeded players
// and measures it.
func measureGame(t *testing.T, c figCase, seed uint64, pace time.Duration) *gameFigures {
	e := newE2E(t)
	e.stop()
	e.script = &game.Record{Seed: seed} // the dice and the deck
	e.coalesce = 0                      // the bot's own default
	e.start()
	srv, ch := e.srv, e.srv.DefaultChannel()
	var users []*discordtest.User
	for _, n := range players.Names[:c.players] {
		users = append(users, srv.AddUser(n, "en-US"))
	}
	p := players.New(srv, ch, users, rand.New(rand.NewPCG(seed, 1)))
	// People take seconds to click: the simulated ones wait until the bot
	// has shown the last move (fallen quiet) before they look again, so
	// every state is shown as it would be at a human pace.
	if pace > 0 {
		p.Pace = func() { awaitQuiet(srv, pace) }
	}
	awaitQuiet(srv, 300*time.Millisecond) // the bot's start-up requests are not the game's
	w := srv.Watch(ch)
	req0, rl0, sv0, is0 := len(srv.Requests()), srv.RateLimitStats(), len(srv.SchemaViolations()), srv.InteractionStats()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := p.PlayGame(ctx, c.variant)
	if err != nil {
		m, _ := srv.Newest(ch)
		var reqs strings.Builder
		rs := srv.Requests()
		for _, r := range rs[max(0, len(rs)-20):] {
			fmt.Fprintf(&reqs, "%s %s %s %d %s %.200s\n", r.Time.Format("15:04:05.000"), r.Method, routeOf(r), r.Status, r.Error, r.Payload)
		}
		t.Fatalf("%s seed %d: %v\nnewest message: %s %q %v\nlast requests:\n%s\nbot log:\n%s", c, seed, err, m.ID, m.Content, m.CustomIDs(), reqs.String(), e.logs.String())
	}
	if !strings.Contains(res.Results, "Game over") {
		t.Fatalf("%s seed %d: no results: %q", c, seed, res.Results)
	}
	awaitQuiet(srv, 300*time.Millisecond) // what the end of the game still sends

	f := &gameFigures{figCase: c, seed: seed, routes: map[string]int{}, routeBytes: map[string]int64{}}
	for _, r := range srv.Requests()[req0:] {
		f.requests++
		if discordhttp.ExemptPath(r.Path) {
			f.exempt++
			if strings.HasSuffix(r.Path, "/callback") {
				f.answers++
			}
		} else {
			f.counted++
		}
		if r.Status == 0 || r.Status >= 400 {
			f.failed++
		}
		if r.Status == 429 {
			f.limited++
		}
		f.bytes += r.BodySize
		f.routeBytes[routeOf(r)] += r.BodySize
		f.mentions += pings(r)
	}
	rl := srv.RateLimitStats()
	f.rlCounted, f.rlExempt = rl.Global-rl0.Global, rl.Exempt-rl0.Exempt
	for route, rs := range rl.Routes {
		if n := rs.Requests - rl0.Routes[route].Requests; n > 0 {
			f.routes[route] = n
		}
	}
	f.violations = len(srv.SchemaViolations()) - sv0
	f.clicks = srv.InteractionStats().Sent - is0.Sent
	for {
		ev, err := w.NextTimeout(0)
		if err != nil {
			break
		}
		if ev.Message.AuthorID != srv.BotUserID() || ev.Message.Ephemeral() {
			continue
		}
		switch ev.Kind {
		case discordtest.Created:
			f.created++
			if strings.HasPrefix(ev.Message.Content, "**Turn ") {
				f.turnMsgs++
			}
		case discordtest.Updated:
			f.edited++
		case discordtest.Deleted:
			f.deleted++
		}
	}

	e.stop() // the store is the bot's while it runs
	g := storedGame(t, e.db)
	if !g.Over() {
		t.Fatalf("%s seed %d: the stored game is not over", c, seed)
	}
	f.turns, f.moves = g.Turn(), len(g.Moves())
	return f
}

// awaitQuiet waits until the bot has sent no request for the time still
// (at most a few seconds).
func awaitQuiet(srv *discordtest.Server, still time.Duration) {
	deadline := time.Now().Add(5 * time.Second)
	n := len(srv.Requests())
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), still)
		err := srv.Wait(ctx, func() bool { return len(srv.Requests()) != n })
		cancel()
		if err != nil {
			return // quiet
		}
		n = len(srv.Requests())
	}
}

// routeOf names a request's route: its method and path, with IDs as {id}
// and tokens as {token}, an interaction callback's type, and whether it
// carried a file.
func routeOf(r discordtest.Request) string {
	segs := strings.Split(apiPrefix.ReplaceAllString(r.Path, ""), "/")
	for i, sg := range segs {
		if _, err := strconv.ParseUint(sg, 10, 64); err == nil {
			segs[i] = "{id}"
		} else if len(sg) > 32 {
			segs[i] = "{token}"
		}
	}
	route := r.Method + " " + strings.Join(segs, "/")
	if strings.HasSuffix(route, "/callback") {
		var cb struct {
			Type int `json:"type"`
		}
		if json.Unmarshal(r.Payload, &cb) == nil {
			route += fmt.Sprintf(" (type %d)", cb.Type)
		}
	}
	if len(r.Payload) > 0 && r.BodySize > int64(len(r.Payload))+1024 {
		route += " with a file"
	}
	return route
}

// apiPrefix is the versioned API path prefix of the bot's requests.
var apiPrefix = regexp.MustCompile(`^/api/v\d+`)

var userMention = regexp.MustCompile(`<@!?(\d+)>`)

// pings counts the users a request pings: it creates a public message
// (channel message, interaction response with a message, follow-up) whose
// content mentions them and whose allowed_mentions let the mention notify.
// Edits notify nobody.
func pings(r discordtest.Request) int {
	if r.Method != "POST" || len(r.Payload) == 0 {
		return 0
	}
	type msg struct {
		Content         string `json:"content"`
		Flags           int    `json:"flags"`
		AllowedMentions *struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	var m msg
	p := apiPrefix.ReplaceAllString(r.Path, "")
	switch {
	case strings.HasPrefix(p, "/interactions/"):
		var cb struct {
			Type int  `json:"type"`
			Data *msg `json:"data"`
		}
		// 4: a message in answer; 5 (deferred) shows "thinking" and
		// notifies nobody; 7 edits the clicked message.
		if json.Unmarshal(r.Payload, &cb) != nil || cb.Type != 4 || cb.Data == nil {
			return 0
		}
		m = *cb.Data
	case strings.HasPrefix(p, "/channels/") && strings.HasSuffix(p, "/messages"),
		strings.HasPrefix(p, "/webhooks/") && strings.Count(p, "/") == 3:
		if json.Unmarshal(r.Payload, &m) != nil {
			return 0
		}
	default:
		return 0
	}
	if m.Flags&discordtest.FlagEphemeral != 0 {
		return 0
	}
	n := 0
	seen := map[string]bool{}
	for _, sm := range userMention.FindAllStringSubmatch(m.Content, -1) {
		id := sm[1]
		if seen[id] {
			continue
		}
		seen[id] = true
		am := m.AllowedMentions
		if am == nil || slices.Contains(am.Parse, "users") || slices.Contains(am.Users, id) {
			n++
		}
	}
	return n
}

// checkFigures checks what holds for any way of showing the game.
func checkFigures(t *testing.T, f *gameFigures) {
	t.Helper()
	if f.turns < 1 || f.moves < f.turns {
		t.Errorf("%d turns, %d moves: every turn has a move", f.turns, f.moves)
	}
	if f.created < 1 {
		t.Errorf("no public message was created")
	}
	// One message per turn at most (a turn that ends before its message
	// is posted needs none).
	if f.turnMsgs > f.turns {
		t.Errorf("%d turn messages for %d turns", f.turnMsgs, f.turns)
	}
	// Every click is answered through its interaction, once: at least one
	// answer per move, and one per click.
	if f.answers < f.moves || f.answers != f.clicks {
		t.Errorf("%d answers for %d moves and %d clicks", f.answers, f.moves, f.clicks)
	}
	if f.counted+f.exempt != f.requests {
		t.Errorf("counted %d + exempt %d ≠ %d requests", f.counted, f.exempt, f.requests)
	}
	if f.rlCounted != f.counted || f.rlExempt != f.exempt {
		t.Errorf("the fake's rate limiter counted %d global + %d exempt, the paths say %d + %d",
			f.rlCounted, f.rlExempt, f.counted, f.exempt)
	}
	if f.bytes <= 0 {
		t.Errorf("%d bytes uploaded", f.bytes)
	}
	if f.violations != 0 {
		t.Errorf("%d requests broke Discord's schema", f.violations)
	}
	if f.mentions < 0 {
		t.Errorf("%d mentions", f.mentions)
	}
}

// routeTable writes a table with a row per route and a column per case.
func routeTable(sb *strings.Builder, title string, cases []figCase, sums map[figCase]*gameFigures, routes map[string]bool, cell func(*gameFigures, string) string) {
	fmt.Fprintf(sb, "\n%s:\n\n| route |", title)
	for _, c := range cases {
		if sums[c] != nil {
			fmt.Fprintf(sb, " %s |", c)
		}
	}
	sb.WriteString("\n|---|")
	for _, c := range cases {
		if sums[c] != nil {
			sb.WriteString("--:|")
		}
	}
	sb.WriteString("\n")
	names := make([]string, 0, len(routes))
	for r := range routes {
		names = append(names, r)
	}
	slices.Sort(names)
	for _, r := range names {
		fmt.Fprintf(sb, "| %s |", r)
		for _, c := range cases {
			if s := sums[c]; s != nil {
				fmt.Fprintf(sb, " %s |", cell(s, r))
			}
		}
		sb.WriteString("\n")
	}
}

// figuresTables sums the games of each case and prints the figures as
// Markdown: the summary, then requests per move by route.
func figuresTables(cases []figCase, all []*gameFigures) string {
	sums := map[figCase]*gameFigures{}
	games := map[figCase]int{}
	routes, byteRoutes := map[string]bool{}, map[string]bool{}
	for _, f := range all {
		s := sums[f.figCase]
		if s == nil {
			s = &gameFigures{figCase: f.figCase, routes: map[string]int{}, routeBytes: map[string]int64{}}
			sums[f.figCase] = s
		}
		games[f.figCase]++
		s.turns += f.turns
		s.moves += f.moves
		s.created += f.created
		s.turnMsgs += f.turnMsgs
		s.edited += f.edited
		s.deleted += f.deleted
		s.requests += f.requests
		s.counted += f.counted
		s.exempt += f.exempt
		s.answers += f.answers
		s.clicks += f.clicks
		s.failed += f.failed
		s.limited += f.limited
		s.bytes += f.bytes
		s.mentions += f.mentions
		for r, n := range f.routes {
			s.routes[r] += n
			routes[r] = true
		}
		for r, n := range f.routeBytes {
			s.routeBytes[r] += n
			byteRoutes[r] = true
		}
	}
	per := func(a, b int) string { return fmt.Sprintf("%.2f", float64(a)/float64(b)) }
	kb := func(b int64, n int) string { return fmt.Sprintf("%.1f", float64(b)/1024/float64(n)) }
	var sb strings.Builder
	sb.WriteString("| game | games | turns/game | moves/game | clicks/move | public msgs created/turn | turn msgs/turn | public edits/turn | public deletes/turn" +
		" | requests/move | answers/move | sent on its own/move | counted (global)/move | exempt/move | KiB up/move | KiB up/game | mentions/turn | failed (429) |\n")
	sb.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range cases {
		s, n := sums[c], games[c]
		if s == nil {
			continue
		}
		fmt.Fprintf(&sb, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d (%d) |\n",
			c, n, per(s.turns, n), per(s.moves, n), per(s.clicks, s.moves), per(s.created, s.turns), per(s.turnMsgs, s.turns), per(s.edited, s.turns), per(s.deleted, s.turns),
			per(s.requests, s.moves), per(s.answers, s.moves), per(s.requests-s.answers, s.moves), per(s.counted, s.moves), per(s.exempt, s.moves),
			kb(s.bytes, s.moves), kb(s.bytes, n), per(s.mentions, s.turns), s.failed, s.limited)
	}
	routeTable(&sb, "Requests per move by route", cases, sums, routes, func(s *gameFigures, r string) string { return per(s.routes[r], s.moves) })
	routeTable(&sb, "KiB uploaded per move by route", cases, sums, byteRoutes, func(s *gameFigures, r string) string {
		return fmt.Sprintf("%.1f", float64(s.routeBytes[r])/1024/float64(s.moves))
	})
	sb.WriteString("\nEach game:\n\n| game | seed | turns | moves | public msgs created | public edits | requests | counted | exempt | KiB up | mentions |\n" +
		"|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, f := range all {
		fmt.Fprintf(&sb, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %d |\n", f.figCase, f.seed, f.turns, f.moves,
			f.created, f.edited, f.requests, f.counted, f.exempt, kb(f.bytes, 1), f.mentions)
	}
	return sb.String()
}

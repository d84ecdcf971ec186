package main

import (
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// TestE2EInteractionTokensLeaveNoRateLimitBuckets answers 200 interactions
// of every kind the bot serves (a command, lobby clicks, moves on the live
// message, whose answers update it and whose tokens then edit it, private
// sheets with pictures and moves in them) and checks that discordgo's rate limiter keeps no
// bucket per interaction (discordgo issue #1333): none of its keys holds
// a token, and there are only a few (one per route and channel).
func TestE2EInteractionTokensLeaveNoRateLimitBuckets(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	var tokens []string
	ans := func(it *discordtest.Interaction, err error) *discordtest.Message {
		t.Helper()
		if it != nil {
			tokens = append(tokens, it.Token())
		}
		return e.answer(it, err)
	}
	lobby := ans(anna.Command(ch, "qwixx", "new", nil))
	lobby = ans(ben.Click(lobby, players.IDWith(lobby, "join")))
	ans(anna.Click(lobby, players.IDWith(lobby, "start")))
	const n, turns = 200, 4 // each turn: a penalty for its active player, 4 end the game
	for turn := 0; len(tokens) < n; turn++ {
		tbl := e.table(anna, "Action 1")
		ans(anna.Click(tbl, players.IDWith(tbl, "sheet")))
		sheet := ans(ben.Click(tbl, players.IDWith(tbl, "sheet")))
		if turn >= turns {
			continue
		}
		// Anna's pass updates the live message; Ben's, in his sheet, is
		// shown on it by an edit through Anna's token.
		ans(anna.Click(tbl, players.IDWith(tbl, "pass")))
		ans(ben.Click(sheet, players.IDWith(sheet, "pass")))
		next := e.table(anna, "Action 2")
		active := ben
		if strings.Contains(next.Content, "<@"+anna.ID+">") {
			active = anna
		}
		ans(active.Click(next, players.IDWith(next, "pass")))
	}
	e.table(anna, "**Turn 5**")
	e.bot.Idle()

	keys, err := discordhttp.BucketKeys(e.session.Ratelimiter)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d interactions answered; discordgo's buckets: %q", len(tokens), keys)
	var leaked []string
	for _, k := range keys {
		for _, tok := range tokens {
			if strings.Contains(k, tok) {
				leaked = append(leaked, k)
			}
		}
	}
	if len(leaked) > 0 {
		t.Errorf("discordgo keeps %d buckets keyed by an interaction token, such as %q", len(leaked), leaked[0])
	}
	if len(keys) >= 30 {
		t.Errorf("discordgo keeps %d buckets after %d interactions", len(keys), len(tokens))
	}
	st := e.srv.RateLimitStats()
	var answers, edits int
	for route, rs := range st.Routes {
		switch {
		case strings.HasPrefix(route, "POST /interactions/"):
			answers += rs.Requests
		case strings.HasPrefix(route, "PATCH /webhooks/"):
			edits += rs.Requests
		}
	}
	t.Logf("interaction answers %d, edits through tokens %d, routes %v", answers, edits, st.Routes)
	if answers < n || edits == 0 {
		t.Errorf("%d interaction answers and %d edits through interaction tokens reached Discord; want %d or more, and some", answers, edits, n)
	}
}

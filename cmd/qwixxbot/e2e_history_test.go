package main

import (
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// waitLog waits for the bot's log to contain want.
func (e *e2e) waitLog(want string) {
	e.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(e.logs.String(), want); {
		if time.Now().After(deadline) {
			e.t.Fatalf("the bot did not log %q:\n%s", want, e.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// GUILD_DELETE from the gateway: a guild the bot was removed from loses
// its history once store.guild_grace has passed (the bot's hourly sweep);
// a guild in an outage (unavailable) keeps it.
func TestE2EGuildDeleteSweptAfterGrace(t *testing.T) {
	t.Parallel()
	e := newE2EClock(t, true)
	e.stop()
	other := e.srv.AddGuild("Other", "en-US")
	st, err := store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range []string{e.srv.DefaultGuild(), other} {
		r := stats.Result{Guild: g, GameID: "t-1", Time: e.clock.Now().Add(-time.Hour), Variant: game.Dice,
			Seats: []stats.Seat{{UserID: "1", Name: "Anna", Score: 10 + i}, {UserID: "2", Name: "Ben", Score: 3}}}
		if err := st.SaveGame(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	e.config = func(c *config.Config) { c.Store.GuildGrace = time.Hour }
	debug := zerolog.DebugLevel
	e.logLevel = &debug
	e.start()
	// discordgo runs each event's handlers on a goroutine of its own: the
	// GUILD_CREATE of the connection must be handled before the delete,
	// or it would bring the guild back.
	e.waitLog(`"guild":"` + other + `","message":"in a guild"`)
	e.srv.GuildDelete(e.srv.DefaultGuild(), true) // an outage
	e.srv.GuildDelete(other, false)               // removed
	e.waitLog("left a guild")
	e.clock.Advance(2 * time.Hour)
	e.waitLog("history swept")
	e.stop()
	st, err = store.Open(e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rs, _ := st.Results(other, 0); len(rs) != 0 {
		t.Errorf("the left guild keeps %d results after the grace period", len(rs))
	}
	if rs, _ := st.Results(e.srv.DefaultGuild(), 0); len(rs) != 1 {
		t.Errorf("the guild in an outage keeps %d results, want 1", len(rs))
	}
	if left, _ := st.LeftGuilds(); len(left) != 0 {
		t.Errorf("guilds still marked left: %v", left)
	}
}

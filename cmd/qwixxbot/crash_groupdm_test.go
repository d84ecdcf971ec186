package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/store"
)

// Issue 25: a table in a group DM (the bot no member: interactions alone)
// survives SIGKILLs of the real binary. The players look at the channel
// and click; every 20th look the bot is killed and started again, often
// while it is sending the follow-up of the move just answered. The game
// goes on to its end: every move a player saw confirmed is in the stored
// record (none lost, none twice), and the bot sent nothing to the
// channel.
func TestCrashGroupDMTableLosesNoMove(t *testing.T) { crashGroupDMTableLosesNoMove(t) }

// TestCrashGroupDMTableLosesNoMoveHTTP is TestCrashGroupDMTableLosesNoMove
// with the interactions POSTed to the bot's interactions endpoint.
func TestCrashGroupDMTableLosesNoMoveHTTP(t *testing.T) { crashGroupDMTableLosesNoMove(t, httpIngress) }

// crashGroupDMTableLosesNoMove runs the test with env added to the bot's.
func crashGroupDMTableLosesNoMove(t *testing.T, env ...string) {
	if testing.Short() {
		t.Skip("runs the bot binary through several kills")
	}
	t.Parallel()
	botBinary(t)
	db := filepath.Join(t.TempDir(), "bot.db")
	srv, p := startedBot(t, "groupdm-crash-token", db, append(env, "QWIXXBOT_GAME_TURN_TIMEOUT=24h")...)
	anna, ben := srv.AddUser("Anna", ""), srv.AddUser("Ben", "")
	group := srv.AddGroupDM("friends", anna, ben)
	anna.InstallApp()
	pl := players.New(srv, group, []*discordtest.User{anna, ben}, rand.New(rand.NewPCG(5, 6)))
	looks, kills := 0, 0
	pl.Pace = func() {
		looks++
		if looks%20 == 0 {
			p.Kill()
			kills++
			if err := p.Start(); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	confirmed := map[string]int{} // moves by variant
	for _, v := range []string{"dice", "cards"} {
		before := kills
		res, err := pl.PlayGame(ctx, v)
		if err != nil {
			t.Fatalf("%s, after %d kills: %v\n%s", v, kills, err, p.LogTail(30))
		}
		t.Logf("%s: %d moves, %d kills, results %q", v, res.Moves, kills-before, res.Results)
		if kills-before < 2 {
			t.Fatalf("%s: only %d kills", v, kills-before)
		}
		confirmed[v] = res.Moves
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	infos, err := st.Records("@dm:"+group, 0) // the group DM is its own place
	if err != nil || len(infos) != 2 {
		t.Fatalf("records outside servers: %+v, %v", infos, err)
	}
	for _, info := range infos {
		kept, _, err := st.Record("@dm:"+group, info.GameID)
		if err != nil {
			t.Fatal(err)
		}
		var rec game.Record
		if err := json.Unmarshal(kept.JSON, &rec); err != nil {
			t.Fatal(err)
		}
		if len(rec.Moves) != confirmed[rec.Variant] {
			t.Errorf("the stored %s game has %d moves, the players saw %d confirmed", rec.Variant, len(rec.Moves), confirmed[rec.Variant])
		}
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "/channels/"+group) {
			t.Errorf("the bot sent %s %s to the group DM's channel", r.Method, r.Path)
		}
	}
	if panics, races := p.LogProblems(); len(panics)+len(races) > 0 {
		t.Fatalf("bot log: panics %v, races %v", panics, races)
	}
	t.Logf("moves %v, %d kills, %d looks", confirmed, kills, looks)
}

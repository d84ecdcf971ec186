package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// qwixxbot forget renames a user in the kept results and records, and
// the record, exported as the bot sends it, still replays with qwixxbot
// replay to the same scores.
func TestForgetCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "q.db")
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}, Seed: [32]byte{5}})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if err := g.Apply(game.PassMove(g.Waiting()[0])); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	r, err := stats.FromGame("g1", "t-1", time.Now().UTC(), g, []string{"111", "222"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveGame(r, rec); err != nil {
		t.Fatal(err)
	}
	st.Close()
	cfg := filepath.Join(dir, "q.toml")
	if err := os.WriteFile(cfg, []byte("[store]\npath = "+strings.ReplaceAll(`"`+db+`"`, `\`, `\\`)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"forget", "-config", cfg, "222"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "in 1 results and 1 records") {
		t.Fatalf("forget said %q", out.String())
	}
	st, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	gr, ok, err := st.Record("g1", "t-1")
	rs, _ := st.Results("g1", 0)
	st.Close()
	if err != nil || !ok || len(rs) != 1 || rs[0].Seat("222") >= 0 || rs[0].Seat("111") != 0 {
		t.Fatalf("after forget: record %v %v, results %+v", ok, err, rs)
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, gr.JSON, "", "  ")
	file := filepath.Join(dir, "record.json")
	if err := os.WriteFile(file, pretty.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(context.Background(), []string{"replay", file}, &out, &errb); code != 0 {
		t.Fatalf("replay exit %d: %s", code, errb.String())
	}
	var s game.Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("replay output: %v\n%s", err, out.String())
	}
	if s.Players[0].Name != "Anna" || s.Players[1].Name == "Ben" || s.Players[0].Score != g.Scores()[0] || s.Players[1].Score != g.Scores()[1] {
		t.Fatalf("replayed %+v, the game ended %v", s.Players, g.Scores())
	}
	if code := run(context.Background(), []string{"forget", "-config", cfg}, &out, &errb); code != 2 {
		t.Fatalf("forget without a user: exit %d", code)
	}
}

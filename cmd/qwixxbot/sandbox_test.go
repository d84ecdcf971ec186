package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/store"
)

// TestSandboxWholeGames plays whole games of every variant through the real
// bot (serve, as in production) and the fake Discord, with simulated people
// who only click what they see. The results shown in the channel must match
// the engine's replay of the stored game record; no request may break
// Discord's schema or use a token older than 15 minutes.
func TestSandboxWholeGames(t *testing.T) {
	if discordtest.FindSpec() == "" {
		t.Log("openapi.json not found beside the repository: schema checks are off for this run")
	}
	for _, tc := range []struct {
		variant string
		players int
	}{{"dice", 3}, {"cards", 3}, {"jokers", 2}} {
		t.Run(tc.variant, func(t *testing.T) {
			cfg := config.Default()
			cfg.Sandbox.OutDir = t.TempDir()
			cfg.Sandbox.Variant = tc.variant
			cfg.Sandbox.Players = tc.players
			seed := int64(len(tc.variant))
			cfg.Sandbox.Seed = &seed
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := sandbox(ctx, cfg, zerolog.Nop())
			if err != nil {
				t.Fatal(err)
			}
			if res.SchemaViolations != 0 {
				t.Errorf("%d requests broke Discord's schema", res.SchemaViolations)
			}
			if res.MaxTokenAge > 15*time.Minute {
				t.Errorf("a token %v old was used", res.MaxTokenAge)
			}
			if res.Images == 0 || !strings.Contains(res.Results, "Game over") {
				t.Fatalf("no results: %+v", res)
			}
			tr, err := os.ReadFile(filepath.Join(cfg.Sandbox.OutDir, "transcript.txt"))
			if err != nil || !strings.Contains(string(tr), "/qwixx new") {
				t.Fatalf("transcript: %v", err)
			}
			if strings.Contains(string(tr), "interaction failed") {
				t.Error("an interaction failed (not answered in time)")
			}
			// The engine's replay of the stored record gives the announced scores.
			st, err := store.Open(filepath.Join(cfg.Sandbox.OutDir, "sandbox.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var tables []json.RawMessage
			st.ForEach(func(_ string, blob []byte) error { tables = append(tables, blob); return nil })
			if len(tables) != 1 {
				t.Fatalf("%d stored tables", len(tables))
			}
			var tb struct{ Game json.RawMessage }
			if err := json.Unmarshal(tables[0], &tb); err != nil {
				t.Fatal(err)
			}
			g, err := game.Restore(tb.Game)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := game.Replay(g.Record())
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Over() {
				t.Fatal("the replayed game is not over")
			}
			for p, name := range rep.Players() {
				if line := fmt.Sprintf("%s: %d", name, rep.Scores()[p]); !strings.Contains(res.Results, line) {
					t.Errorf("results %q lack %q from the replay", res.Results, line)
				}
			}
		})
	}
}

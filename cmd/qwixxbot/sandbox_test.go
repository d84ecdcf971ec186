package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/sandbox"
)

// TestSandboxWholeGames plays whole games of every variant through the real
// bot (serve, as in production) and the fake Discord, with simulated people
// who only click what they see. The results shown in the channel must match
// the engine's replay of the stored game record; no request may break
// Discord's schema or use a token older than 15 minutes.
func TestSandboxWholeGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant string
		players int
	}{{"dice", 3}, {"cards", 3}, {"jokers", 2}} {
		t.Run(tc.variant, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default()
			cfg.Sandbox.OutDir = t.TempDir()
			cfg.Sandbox.Variant = tc.variant
			cfg.Sandbox.Players = tc.players
			seed := int64(len(tc.variant))
			cfg.Sandbox.Seed = &seed
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := sandbox.Auto(ctx, cfg, zerolog.Nop())
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
			checkScores(t, storedGame(t, filepath.Join(cfg.Sandbox.OutDir, "sandbox.db")), res.Results)
		})
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/store"
)

var debugAddrRe = regexp.MustCompile(`"addr":"([^"]+)"[^\n]*"message":"debug server`)

// TestE2EBackupUnderLoadRestore backs up a running bot's database on its
// debug listener while three tables (dice, cards, jokers) are being played,
// goes on playing, SIGKILLs the bot, restores the backup with the binary's
// restore command and starts the bot again: every move acknowledged to a
// player before the backup began is in the restored database, and every
// game plays on from the restored state to its end.
func TestE2EBackupUnderLoadRestore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, backups := filepath.Join(dir, "bot.db"), filepath.Join(dir, "backups")
	srv, p := startedBot(t, "backup-token", db, "QWIXXBOT_LOG_DEBUG_ADDR=127.0.0.1:0", "QWIXXBOT_STORE_BACKUP_DIR="+backups, "QWIXXBOT_STORE_BACKUP_EVERY=0")
	m := debugAddrRe.FindStringSubmatch(p.Log())
	if m == nil {
		t.Fatalf("no debug listener address in the log:\n%s", p.LogTail(20))
	}
	debugURL := "http://" + m[1] + "/debug/backup"
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get("http://" + m[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	if code, body := get("/healthz"); code != http.StatusOK {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := get("/readyz"); code != http.StatusOK || body != "ready\n" {
		t.Errorf("/readyz of a connected bot: %d %q", code, body)
	}

	type table struct {
		ch      string
		variant string
		pl      *players.Players
		acked   atomic.Int64 // moves acknowledged to the players
		floor   int64        // acknowledged before the backup began
	}
	var tables []*table
	for i, v := range []string{"dice", "cards", "jokers"} {
		ch := srv.DefaultChannel()
		if i > 0 {
			ch = srv.AddChannel(srv.DefaultGuild(), "table-"+v)
		}
		var users []*discordtest.User
		for j := range 3 {
			users = append(users, srv.AddUser(fmt.Sprintf("%s%d", players.Names[j], i), "en-US"))
		}
		tb := &table{ch: ch, variant: v}
		tb.pl = players.New(srv, ch, users, rand.New(rand.NewPCG(uint64(i)+41, 7)))
		tb.pl.Moved = func() { tb.acked.Add(1) }
		tables = append(tables, tb)
	}

	// Play under load until every table has a few moves, then back up.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, tb := range tables {
		wg.Go(func() { _, _ = tb.pl.PlayGame(ctx, tb.variant) })
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, tb := range tables {
		for tb.acked.Load() < 6 {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("the %s table made %d moves in 2 minutes:\n%s", tb.variant, tb.acked.Load(), p.LogTail(20))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, tb := range tables {
		tb.floor = tb.acked.Load()
	}
	// The metrics see the three games in play and the connected gateway.
	if _, body := get("/metrics"); !strings.Contains(body, `qwixxbot_live_tables{variant="dice"} 1`) ||
		!strings.Contains(body, `qwixxbot_live_tables{variant="cards"} 1`) || !strings.Contains(body, `qwixxbot_live_tables{variant="jokers"} 1`) ||
		!strings.Contains(body, "qwixxbot_gateway_connected 1") || !strings.Contains(body, `qwixxbot_interaction_answer_seconds_count{kind="component",ok="true"}`) ||
		!regexp.MustCompile(`(?m)^qwixxbot_gateway_interactions_taken_total [1-9]`).MatchString(body) {
		t.Errorf("/metrics during three games lacks their tables, the gateway or the answers:\n%s", body)
	}
	resp, err := http.Post(debugURL, "", nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	var made struct {
		Path   string `json:"path"`
		Tables int    `json:"tables"`
	}
	err = json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || made.Path == "" {
		cancel()
		t.Fatalf("POST /debug/backup: %s, %+v, %v", resp.Status, made, err)
	}
	// The streamed backup (GET) works under load too.
	resp, err = http.Get(debugURL)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	var streamed bytes.Buffer
	_, err = streamed.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || streamed.Len() < 4096 {
		cancel()
		t.Fatalf("GET /debug/backup: %s, %d bytes, %v", resp.Status, streamed.Len(), err)
	}

	// Go on playing past the backup, then kill the bot.
	for _, tb := range tables {
		for tb.acked.Load() < tb.floor+4 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	p.Kill()
	cancel()
	wg.Wait()

	// The backup holds every acknowledged move of before it.
	check := func(path string) {
		t.Helper()
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for _, tb := range tables {
			blob, ok, err := st.Get(tb.ch)
			if err != nil || !ok {
				t.Fatalf("%s: the %s table is missing from the backup: %v", path, tb.variant, err)
			}
			tab, err := session.Decode(blob)
			if err != nil {
				t.Fatalf("%s: %s table: %v", path, tb.variant, err)
			}
			if tab.Game == nil {
				t.Fatalf("%s: the %s table has no game", path, tb.variant)
			}
			got := int64(len(tab.Game.Moves()))
			if got < tb.floor {
				t.Errorf("%s: the %s game holds %d moves; %d were acknowledged before the backup began", path, tb.variant, got, tb.floor)
			}
			t.Logf("%s: %s game: %d moves acknowledged before the backup, %d in it, %d acknowledged by the kill", filepath.Base(path), tb.variant, tb.floor, got, tb.acked.Load())
		}
	}
	check(made.Path)
	streamedPath := filepath.Join(dir, "streamed.db")
	if err := os.WriteFile(streamedPath, streamed.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	check(streamedPath)

	// Restore with the binary, as an operator would.
	restore := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(p.bin, append([]string{"restore"}, args...)...)
		cmd.Env = p.environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("qwixxbot restore %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := restore("-check", made.Path); !strings.Contains(out, "verifies") {
		t.Errorf("restore -check said %q", out)
	}
	if out := restore(made.Path); !strings.Contains(out, "kept as") {
		t.Errorf("restore said %q; want it to name where the old database is kept", out)
	}
	check(db)

	// The bot starts on the restored database and every game plays on.
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer pcancel()
	errs := make(chan error, len(tables))
	for _, tb := range tables {
		wg.Go(func() {
			res, err := tb.pl.PlayOn(pctx)
			if err == nil {
				t.Logf("%s: played on to the end in %d more moves", tb.variant, res.Moves)
			}
			if err == nil && !strings.Contains(res.Results, "wins") && !strings.Contains(res.Results, "win") {
				err = fmt.Errorf("results without a winner: %q", res.Results)
			}
			if err != nil {
				errs <- fmt.Errorf("%s: %w", tb.variant, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Logf("bot log:\n%s", p.LogTail(40))
	}
}

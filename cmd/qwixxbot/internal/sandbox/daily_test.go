package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/logbuf"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/store"
)

// Issue 39: the sandbox is no way to see the day's dice before playing
// them. Pointed at the real bot's database (store.path), it deals its
// daily challenge from a secret of its own database, never the real
// one's, and leaves the real database as it was.
func TestSandboxDailyKeyedByItsOwnSecret(t *testing.T) {
	dir := t.TempDir()
	realPath := filepath.Join(dir, "real.db")
	real, err := store.Open(realPath)
	if err != nil {
		t.Fatal(err)
	}
	realSecret, err := real.Secret("daily")
	if err != nil {
		t.Fatal(err)
	}
	if err := real.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(realPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Sandbox.OutDir = filepath.Join(dir, "sandbox")
	cfg.Store.Path = realPath
	var logs logbuf.Buffer
	fw, err := startFake(context.Background(), cfg, zerolog.New(&logs).Level(zerolog.DebugLevel))
	if err != nil {
		t.Fatal(err)
	}
	anna := fw.srv.AddUser("Anna", "en-US")
	if _, err := anna.Command(fw.srv.DefaultChannel(), "qwixx", "daily", nil); err != nil {
		fw.close()
		t.Fatal(err)
	}
	// A fresh sandbox's first answer (its first pictures, the day's par)
	// may take longer than Discord's 3 seconds under the race detector on
	// a busy machine: what counts here is that the sandbox dealt the
	// daily, which its log says.
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(logs.String(), "private game shown"); {
		if time.Now().After(deadline) {
			fw.close()
			t.Fatalf("the sandbox dealt no daily:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	fw.close()
	own, err := store.Open(filepath.Join(cfg.Sandbox.OutDir, "sandbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	if _, ok, err := own.Get(session.PrivateKey(session.PrivateDaily, anna.ID)); !ok || err != nil {
		t.Fatalf("the sandbox's database holds no daily of anna (%v): it played on another", err)
	}
	ownSecret, err := own.Secret("daily")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(ownSecret, realSecret) {
		t.Fatal("the sandbox dealt the daily challenge from the real database's secret")
	}
	if after, err := os.ReadFile(realPath); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the sandbox changed the real database (%v)", err)
	}
}

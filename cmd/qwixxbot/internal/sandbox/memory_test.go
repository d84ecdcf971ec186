package sandbox

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/rs/zerolog"
)

// Issue: the sandbox grew by about 1.7 MB of memory and 0.4 MB of pictures
// per finished game. The fake keeps a bounded history and the picture
// caches are sized for one table: after 50 games the heap is within 1.2
// times what it was after 10 (with the race detector: 20 games, 1.35), and
// the pictures folder is bounded.
//
// The heap is the process's: other tests running in parallel would be
// measured with the sandbox. The test therefore runs itself again in a
// process of its own (the child, QWIXXTEST_MEMORY_CHILD=1), which plays
// the games alone and makes the checks; the parent runs in parallel with
// the other tests and reports the child's verdict.
func TestSandboxMemoryBoundedOverGames(t *testing.T) {
	if os.Getenv("QWIXXTEST_MEMORY_CHILD") != "1" {
		t.Parallel()
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestSandboxMemoryBoundedOverGames$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "QWIXXTEST_MEMORY_CHILD=1")
		out, err := cmd.CombinedOutput()
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if strings.Contains(line, "memory_test.go") {
				t.Log(strings.TrimSpace(line))
			}
		}
		if err != nil {
			t.Fatalf("the measuring process failed: %v\n%s", err, out)
		}
		return
	}
	first, last, bound := 10, 50, 1.2
	if raceEnabled {
		// Each game is several times slower with the race detector, which
		// also changes how memory is reused (sync.Pool keeps little): 20
		// games, and a looser bound, still far from the 2× of 1.7 MB a
		// game.
		last, bound = 20, 1.35
	}
	cfg := config.Default()
	cfg.Sandbox.OutDir = t.TempDir()
	fw, err := startFake(context.Background(), cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer fw.close()
	srv := fw.srv
	var users []*discordtest.User
	for _, n := range Names[:2] {
		users = append(users, srv.AddUser(n, "en-US"))
	}
	p := players.New(srv, srv.DefaultChannel(), users, rand.New(rand.NewPCG(1, 2)))
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	var at int64
	for i := 1; i <= last; i++ {
		if _, err := p.PlayGame(t.Context(), "dice"); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if i == first {
			at = heap()
		}
	}
	end := heap()
	files, _ := os.ReadDir(fw.images)
	t.Logf("heap after %d games %.1f MB, after %d %.1f MB (%.2f×); %d pictures kept", first, float64(at)/1e6, last, float64(end)/1e6, float64(end)/float64(at), len(files))
	if float64(end) > bound*float64(at) {
		t.Errorf("heap after %d games %.1f MB, more than %.2f × the %.1f MB after %d", last, float64(end)/1e6, bound, float64(at)/1e6, first)
	}
	if len(files) > sandboxHistory+sandboxHistory/8 {
		t.Errorf("%d pictures kept, bound %d", len(files), sandboxHistory+sandboxHistory/8)
	}
}

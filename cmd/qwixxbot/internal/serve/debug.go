package serve

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/store"
)

// pictureBudget is how many bytes of PNG the bot keeps drawn: about 160
// pictures of 3–5 players, the current states of the busiest tables (a
// table's new state reuses the compressed bands of its last picture in
// render's own cache, so a picture that falls out is cheap to draw again).
const pictureBudget = 16 << 20

// vars are the bot's counters under /debug/vars; expvar names are global
// to the process, so they are published once and point at the newest bot
// (tests run several in one process).
var vars struct {
	once     sync.Once
	mu       sync.Mutex
	pictures *bot.PictureCache
	store    *store.Store
}

// publishVars shows the picture cache's and the store's counters under
// /debug/vars.
func publishVars(pc *bot.PictureCache, st *store.Store) {
	vars.mu.Lock()
	vars.pictures, vars.store = pc, st
	vars.mu.Unlock()
	vars.once.Do(func() {
		expvar.Publish("pictures", expvar.Func(func() any {
			vars.mu.Lock()
			pc := vars.pictures
			vars.mu.Unlock()
			hits, misses, size := pc.Stats()
			return map[string]any{"hits": hits, "drawn": misses, "bytes": size}
		}))
		expvar.Publish("store", expvar.Func(func() any {
			vars.mu.Lock()
			st := vars.store
			vars.mu.Unlock()
			s := st.Stats()
			return map[string]any{"commits": s.Commits, "writes": s.Writes, "no_change": s.NoChange, "retries": s.Retries, "max_group": s.MaxGroup}
		}))
	})
}

// serveDebug serves Go's profiler (/debug/pprof/), expvar's /debug/vars
// (runtime.MemStats and the bot's counters), the database's backups
// (/debug/backup), Prometheus metrics (/metrics) and the health checks
// (/healthz: the process answers; /readyz: the gateway is connected and
// the store readable) on addr (log.debug_addr) until ctx ends. The load harness reads the bot's heap from /debug/pprof/heap
// after a garbage collection (?gc=1&debug=1).
func serveDebug(ctx context.Context, addr string, bk *backups, met *metrics, log zerolog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/debug/backup", bk)
	met.handle(mux)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/debug/vars", expvar.Handler())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("log.debug_addr: %w", err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn().Err(err).Msg("debug server stopped")
		}
	}()
	log.Info().Str("addr", ln.Addr().String()).Msg("debug server: /metrics, /healthz, /readyz, /debug/backup, /debug/pprof/, /debug/vars")
	return nil
}

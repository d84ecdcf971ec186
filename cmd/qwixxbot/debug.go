package main

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/rs/zerolog"
)

// serveDebug serves Go's profiler (/debug/pprof/) and expvar's /debug/vars
// (runtime.MemStats and the bot's counters) on addr (log.debug_addr) until
// ctx ends. The load harness reads the bot's heap from /debug/pprof/heap
// after a garbage collection (?gc=1&debug=1).
func serveDebug(ctx context.Context, addr string, log zerolog.Logger) error {
	mux := http.NewServeMux()
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
	log.Info().Str("addr", ln.Addr().String()).Msg("debug server: /debug/pprof/ and /debug/vars")
	return nil
}

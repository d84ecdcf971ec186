package discordtest

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TB is the part of testing.TB the test helpers use. It is an interface of
// its own so that programs that run the fake outside tests (the sandbox,
// the load harness) do not link the testing package.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// NewTestServer starts a Server for a test and closes it when the test ends.
func NewTestServer(t TB, opts Options) *Server {
	t.Helper()
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatalf("discordtest: %v", err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// Connect creates a discordgo session for srv (Client from srv.Client()),
// lets setup add handlers, opens the gateway and closes the session when the
// test ends. Note that discordgo's Session.Close sleeps one second.
func Connect(t TB, srv *Server, setup func(*discordgo.Session)) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatalf("discordtest: session: %v", err)
	}
	s.Client = srv.Client()
	s.LogLevel = discordgo.LogError
	if setup != nil {
		setup(s)
	}
	before := srv.GatewayStats().Heartbeats
	if err := s.Open(); err != nil {
		t.Fatalf("discordtest: open gateway: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	// discordgo sends its first heartbeat right after Open; a Close racing
	// with it makes discordgo reconnect forever, so wait for it.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Wait(ctx, func() bool { return srv.GatewayStats().Heartbeats > before }); err != nil {
		t.Fatalf("discordtest: no first heartbeat: %v", err)
	}
	return s
}

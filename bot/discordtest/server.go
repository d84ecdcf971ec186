package discordtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/clock"
	"github.com/qwixxbot/qwixxbot/bot/discordtest/internal/openapisub"
	"github.com/rs/zerolog"
)

// Options configures a Server. The zero value is usable.
type Options struct {
	// Token is the bot token; the bot must send "Authorization: Bot <Token>"
	// and identify with it. Default "test-token".
	Token string
	// ApplicationID is the application (and bot user) ID. Default: generated.
	ApplicationID string
	// BotName is the bot user's name. Default "qwixxbot".
	BotName string
	// Clock drives timestamps, IDs, token expiry and the windows of the
	// rate limits when they are enabled (RateLimitOptions). The interaction
	// deadline is always measured in real time, because it races against the
	// bot's real goroutines. Default: real time.
	Clock clock.Clock
	// Shards is the shard count GET /gateway/bot recommends (default 1);
	// MaxConcurrency its session_start_limit.max_concurrency (default 1):
	// shards whose IDs are equal modulo it share an identify bucket, and
	// Discord takes one IDENTIFY per bucket every 5 seconds
	// (GatewayStats.IdentifyTooSoon counts those that came sooner).
	Shards, MaxConcurrency int
	// InteractionDeadline is how long (real time) the bot has to answer an
	// interaction before the user sees "This interaction failed". Default 3 s.
	InteractionDeadline time.Duration
	// HeartbeatInterval is sent in the gateway HELLO. Default 41.25 s.
	HeartbeatInterval time.Duration
	// PrivilegedIntents lists the privileged intents (GUILD_MEMBERS,
	// GUILD_PRESENCES, MESSAGE_CONTENT bits) enabled for the application;
	// identifying with any other privileged intent closes the gateway with 4014.
	PrivilegedIntents int64
	// AttachmentSizeLimit is the per-file upload limit. Default 10 MiB.
	AttachmentSizeLimit int
	// Logger, if set, receives every transcript line at debug level.
	Logger *zerolog.Logger
	// Transcript, if set, receives every event as a readable line.
	Transcript io.Writer
	// AttachmentDir, if set, is where every uploaded file is saved as
	// <message id>-<file name>.
	AttachmentDir string
	// SpecPath is a Discord openapi.json to check request bodies against.
	// Empty means the part of it the fake checks, embedded in the package
	// (discord-openapi-subset.json). A schema that cannot be read or
	// compiled makes NewServer fail.
	SpecPath string
	// DisableSchema turns request-body schema checking off.
	DisableSchema bool
	// SchemaReportOnly records schema violations but lets the request pass.
	SchemaReportOnly bool
	// NoDefaultGuild skips creating the default guild and channel.
	NoDefaultGuild bool
	// OmitInteractionAttachments leaves the "attachments" field out of the
	// message object sent with component and modal-submit interactions, as
	// Discord may; see also Server.SetOmitInteractionAttachments.
	OmitInteractionAttachments bool
	// RateLimits configures Discord's rate limits: the global limit per
	// token, per-route buckets, messages per channel and edits of old
	// messages. Off by default; see RateLimitOptions and
	// Server.SetRateLimits.
	RateLimits RateLimitOptions
	// Lean keeps no history, for long load runs (cmd/qwixxbot load): no
	// request log (Requests), token uses (TokenUses) or message events
	// (Watch sees nothing; use OnMessage), no interaction payloads
	// (Payload), and interactions and messages are forgotten once their
	// tokens have expired (a finished turn's message without buttons after
	// a minute). RouteStats and the interactions' latencies are kept.
	Lean bool
	// History, if positive, bounds what the server remembers for a long
	// interactive run (the sandbox): the newest History entries of the
	// request log, token uses and message events (a Watcher that falls
	// further behind gets ErrMissedEvents), of the answered interactions
	// (older tokens stop working), of each channel's messages and of the
	// files in AttachmentDir (an eighth more between trims).
	// Zero keeps everything.
	History int
	// OnMessage, if set, receives every message event (public and
	// ephemeral) as it happens. It is called with the server's lock held:
	// it must return quickly and must not call the Server.
	OnMessage func(MessageEvent)
}

// Server is a loopback fake of Discord's REST API and gateway.
type Server struct {
	// URL is the base URL of the server, e.g. http://127.0.0.1:41234.
	URL string

	opts  Options
	clock clock.Clock
	base  *url.URL
	ln    net.Listener
	hs    *http.Server
	spec  *spec
	specE error

	logMu sync.Mutex

	mu           sync.Mutex
	changed      chan struct{}
	closed       bool
	lastID       uint64
	appID        string
	botID        string
	guilds       map[string]*guild
	guildOrder   []string
	channels     map[string]*channel
	users        map[string]*userRec
	messages     map[string]*Message
	events       []msgEvent
	eventBase    int      // events dropped from the front (History)
	files        []string // names written to AttachmentDir, oldest first
	interactions map[string]*interaction
	byToken      map[string]*interaction
	commands     map[string][]*command // "" = global, else guild ID
	sessions     map[string]*gwSession
	conns        map[*gwConn]struct{}
	heartbeats   int
	identifies   int
	// lastIdentify is when each identify bucket last identified, and
	// identifyTooSoon how often one did within identifyInterval.
	lastIdentify    map[int]time.Time
	identifyTooSoon int
	resumes         int
	tokenUses       []TokenUse
	violations      []SchemaViolation
	requests        []Request
	faults          faults
	buckets         map[string]*bucket
	rl              RateLimitOptions
	globals         map[string]*window // per Authorization header
	oldEdits        map[string]*window // per channel
	rlStats         rlCounters
	defGuild        string
	defChannel      string

	omitAttachments bool
	done            chan struct{} // closed by Close: releases held requests
	delays          []*delay
	held            map[*heldReq]struct{}
	holds           sync.WaitGroup // running holds; Close waits for them to notice done
	heldTotal       int
	gwDown          bool
	gwDownTimer     *time.Timer
	gwRefused       int

	routeStats map[string]*RouteStats
	itOrder    []*interaction // creation order, for Lean's pruning

	// keys sign the interactions POSTed to endpoint (the interactions
	// endpoint URL; empty: interactions go on the gateway).
	keys     endpointKeys
	endpoint string
	epStats  EndpointStats
	epClient *http.Client
	// reorderWindow and reorder are SetEndpointReorder's: the responses
	// held per clicked message.
	reorderWindow time.Duration
	reorder       map[string]*reorderGroup
}

// NewServer starts a fake Discord on 127.0.0.1 with a random port.
func NewServer(opts Options) (*Server, error) {
	if opts.Token == "" {
		opts.Token = "test-token"
	}
	if opts.BotName == "" {
		opts.BotName = "qwixxbot"
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.InteractionDeadline <= 0 {
		opts.InteractionDeadline = 3 * time.Second
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = 41250 * time.Millisecond
	}
	if opts.AttachmentSizeLimit <= 0 {
		opts.AttachmentSizeLimit = DefaultAttachmentSizeLimit
	}
	if opts.AttachmentDir != "" {
		if err := os.MkdirAll(opts.AttachmentDir, 0o755); err != nil {
			return nil, fmt.Errorf("discordtest: attachment dir: %w", err)
		}
	}
	s := &Server{
		opts: opts, clock: opts.Clock, changed: make(chan struct{}),
		guilds: map[string]*guild{}, channels: map[string]*channel{}, users: map[string]*userRec{},
		messages: map[string]*Message{}, interactions: map[string]*interaction{},
		byToken: map[string]*interaction{}, commands: map[string][]*command{},
		sessions: map[string]*gwSession{}, conns: map[*gwConn]struct{}{}, buckets: map[string]*bucket{},
		rl: opts.RateLimits.withDefaults(opts.Clock), globals: map[string]*window{}, oldEdits: map[string]*window{},
		routeStats:      map[string]*RouteStats{},
		rlStats:         rlCounters{limited: map[string]int{}, routes: map[string]*RouteRateStats{}},
		omitAttachments: opts.OmitInteractionAttachments, done: make(chan struct{}), held: map[*heldReq]struct{}{},
		keys: newEndpointKeys(), epClient: newEndpointClient(opts.InteractionDeadline),
	}
	if !opts.DisableSchema {
		sp, err := loadSpec(opts.SpecPath)
		if err != nil {
			return nil, err
		}
		s.spec = sp
	} else {
		s.specE = errors.New("schema checking disabled by Options.DisableSchema")
	}

	s.appID = opts.ApplicationID
	if s.appID == "" {
		s.appID = s.newID()
	}
	s.botID = s.appID
	s.users[s.botID] = &userRec{id: s.botID, name: opts.BotName, locale: "en-US", bot: true}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("discordtest: listen: %w", err)
	}
	s.ln = ln
	s.URL = "http://" + ln.Addr().String()
	s.base, _ = url.Parse(s.URL)
	s.hs = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.hs.Serve(ln) }()

	if !opts.NoDefaultGuild {
		s.defGuild = s.AddGuild("Qwixx Test Guild", "en-US")
		s.defChannel = s.AddChannel(s.defGuild, "general")
	}
	return s, nil
}

// Close stops the server and drops every gateway connection.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	if s.gwDownTimer != nil {
		s.gwDownTimer.Stop()
	}
	for c := range s.conns {
		c.close()
	}
	for _, it := range s.interactions {
		if it.timer != nil {
			it.timer.Stop()
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
	_ = s.hs.Close()
	s.holds.Wait() // every hold ends at once on done
	s.epClient.CloseIdleConnections()
}

// Client returns an HTTP client that sends requests for discord.com,
// discordapp.com and cdn.discordapp.com to this server. Set it as the
// discordgo Session.Client.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: s.Transport(), Timeout: 20 * time.Second}
}

// Transport returns the RoundTripper used by Client.
func (s *Server) Transport() http.RoundTripper {
	return NewRewriteTransport(s.base, nil)
}

// GatewayURL is the websocket URL that GET /gateway returns.
func (s *Server) GatewayURL() string { return "ws://" + s.base.Host + "/gateway" }

// ApplicationID returns the application ID (also the bot's user ID).
func (s *Server) ApplicationID() string { return s.appID }

// BotUserID returns the bot user's ID.
func (s *Server) BotUserID() string { return s.botID }

// Token returns the bot token without the "Bot " prefix.
func (s *Server) Token() string { return s.opts.Token }

// DefaultGuild returns the ID of the guild created by NewServer.
func (s *Server) DefaultGuild() string { return s.defGuild }

// DefaultChannel returns the ID of the default guild's text channel.
func (s *Server) DefaultChannel() string { return s.defChannel }

// rewriteTransport sends Discord's hosts to base.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

var discordAPIHosts = map[string]bool{"discord.com": true, "discordapp.com": true, "www.discord.com": true}
var discordCDNHosts = map[string]bool{"cdn.discordapp.com": true, "media.discordapp.net": true}

// NewRewriteTransport returns a RoundTripper that sends requests addressed to
// https://discord.com (or discordapp.com) to base, keeping the path, and
// requests to cdn.discordapp.com to base with the path prefixed by "/cdn".
// Other requests go to next (http.DefaultTransport if nil) unchanged.
func NewRewriteTransport(base *url.URL, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &rewriteTransport{base: base, next: next}
}

// RoundTrip implements http.RoundTripper.
func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	prefix := ""
	switch {
	case discordAPIHosts[host]:
	case discordCDNHosts[host]:
		prefix = "/cdn"
	default:
		return t.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.URL.Scheme = t.base.Scheme
	r.URL.Host = t.base.Host
	r.URL.Path = strings.TrimSuffix(t.base.Path, "/") + prefix + req.URL.Path
	r.URL.RawPath = ""
	r.Host = t.base.Host
	return t.next.RoundTrip(r)
}

// newID returns a fresh snowflake based on the clock.
func (s *Server) newID() string {
	ms := uint64(s.clock.Now().UnixMilli() - 1420070400000)
	id := ms << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return fmt.Sprint(id)
}

// notifyLocked wakes every waiter. Call with s.mu held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitLocked waits until cond (evaluated with s.mu held) is true.
func (s *Server) waitLocked(ctx context.Context, cond func() bool) error {
	return s.wait(ctx, cond, true)
}

// Wait blocks until cond returns true or ctx ends. cond is called without
// the server's lock held, so it may call Server methods; it is re-evaluated
// whenever anything on the server changes.
func (s *Server) Wait(ctx context.Context, cond func() bool) error {
	return s.wait(ctx, cond, false)
}

// wait re-evaluates cond, under s.mu when locked, after every change.
func (s *Server) wait(ctx context.Context, cond func() bool, locked bool) error {
	for {
		s.mu.Lock()
		ch, closed := s.changed, s.closed
		ok := locked && cond()
		s.mu.Unlock()
		if !locked {
			ok = cond()
		}
		if ok {
			return nil
		}
		if closed {
			return errors.New("discordtest: server closed")
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("discordtest: waiting: %w", ctx.Err())
		}
	}
}

// logf writes one transcript line.
func (s *Server) logf(who, format string, args ...any) {
	if s.opts.Transcript == nil && s.opts.Logger == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	if s.opts.Logger != nil {
		s.opts.Logger.Debug().Str("who", who).Msg(line)
	}
	if s.opts.Transcript != nil {
		s.logMu.Lock()
		fmt.Fprintf(s.opts.Transcript, "%s %-10s %s\n", s.clock.Now().UTC().Format("15:04:05.000"), who, line)
		s.logMu.Unlock()
	}
}

// saveAttachment writes a file to AttachmentDir when configured.
func (s *Server) saveAttachment(msgID string, a Attachment) {
	if s.opts.AttachmentDir == "" {
		return
	}
	name := msgID + "-" + filepath.Base(a.Filename)
	if err := os.WriteFile(filepath.Join(s.opts.AttachmentDir, name), a.Data, 0o644); err != nil {
		s.logf("fake", "saving attachment %s: %v", name, err)
		return
	}
	if s.opts.History > 0 {
		s.files = append(s.files, name)
		s.forgetFilesLocked()
	}
}

// FindSpec looks for shared/discord-api-spec/openapi.json, Discord's whole
// OpenAPI document, in the working directory and its parents and returns
// its path, or "" if there is none. The environment variable
// DISCORDTEST_OPENAPI overrides the search. The fake does not need it (it
// embeds the part it checks); internal/schemagen reads it.
func FindSpec() string { return openapisub.FindSpec() }

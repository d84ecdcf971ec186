// Package serve runs the bot: it opens the store, connects to Discord (or
// the fake at discord.base_url), registers the commands, restores the
// stored tables and answers interactions until its context ends.
package serve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordgw"
	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/workers"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/store"
	"github.com/qwixxbot/qwixxbot/store/sessiondb"
)

// Options are what Run needs besides the configuration.
type Options struct {
	// PictureBudget, if set, replaces the picture cache's budget (the
	// sandbox shows one table).
	PictureBudget int
	// Ready, if set, is called once the bot is connected and registered.
	Ready func(b *bot.Bot)
	// Transport, if set, carries all HTTP (the sandbox's in-process fake).
	Transport http.RoundTripper
	// Tick is how often timers are checked.
	Tick time.Duration
	// Now is the bot's clock (tests pass the fake Discord's); time.Now if nil.
	Now func() time.Time
	// NewGame, if set, starts games (tests script the dice with a record).
	NewGame func(v game.Variant, players []string) (*game.Game, error)
	// Coalesce is bot.Options.CoalesceEdits (tests shorten it).
	Coalesce time.Duration
	// Session, if set, is shown the discordgo session before it connects
	// (tests read its rate limiter).
	Session func(s *discordgo.Session)
}

// Run runs the bot until ctx ends: it opens the store, connects to
// Discord (or the server at discord.base_url), registers the commands,
// restores every stored table and its timers, and answers interactions.
// On the way out it stops taking interactions, finishes those in flight
// and closes the database.
func Run(ctx context.Context, cfg config.Config, log zerolog.Logger, so Options) error {
	if !cfg.Discord.Token.IsSet() {
		return errors.New("no bot token: set QWIXXBOT_TOKEN (or run without one for the sandbox)")
	}
	if err := supported(cfg.Discord); err != nil {
		return err
	}
	publicKey, err := endpointKey(cfg.Discord)
	if err != nil {
		return err
	}
	met := newMetrics()
	st, err := OpenStore(cfg.Store.Path, store.WithLogger(log), store.WithRetention(Retention(cfg.Store)), store.WithCommitObserver(met.observeCommit))
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error().Err(err).Msg("close store")
		}
	}()

	bk, stopBackups := startBackups(ctx, cfg.Store, st, log)
	defer stopBackups() // before the store closes
	if cfg.Log.DebugAddr != "" {
		if err := serveDebug(ctx, cfg.Log.DebugAddr, bk, met, log); err != nil {
			return err
		}
	}

	s, err := newSession(cfg.Discord, so, met)
	if err != nil {
		return err
	}

	budget := pictureBudget
	if so.PictureBudget > 0 {
		budget = so.PictureBudget
	}
	pictures := bot.NewPictureCache(bot.Images{}, budget)
	publishVars(pictures, st)
	disk := sessiondb.NewOnDisk(st)
	if at, n, err := session.AfterRestore(ctx, disk, disk); err != nil {
		return fmt.Errorf("ready the tables of a restored database: %w", err)
	} else if !at.IsZero() || n > 0 {
		log.Warn().Time("restored_at", at).Int("tables", n).Msg("database restored from a backup: its tables are shown afresh, from their state in the backup")
	}
	// Discord's HTTP interactions endpoint, a second way in: its address
	// is taken now, so that a port in use stops the bot at once.
	endpoint, err := listenEndpoint(cfg.Discord)
	if err != nil {
		return err
	}
	if endpoint != nil {
		defer endpoint.Close()
	}
	is := discordhttp.NewInteractionSession(s, log)
	b := bot.New(is, disk, pictures, bot.Options{
		History:        disk,
		Secrets:        disk,
		AppID:          cfg.Discord.ApplicationID,
		GuildID:        cfg.Discord.GuildID,
		TurnTimeout:    cfg.Game.TurnTimeout,
		ReminderBefore: cfg.Game.ReminderBefore,
		MaxPlayers:     cfg.Game.MaxPlayers,
		Language:       cfg.Game.Language,
		Now:            so.Now,
		NewGame:        so.NewGame,
		LiveAnswers:    true,
		FollowupPosts:  true,
		CoalesceEdits:  so.Coalesce,
		Observe:        met.observeAnswer,
	}, log)
	met.watch(b, pictures, st, s)
	if err := b.Start(); err != nil {
		return err
	}
	ready := addHandlers(takeInteractions(s, b, cfg.Discord, met, log), b)
	if !waitIdentifySlot(ctx, s, cfg.Discord.ShardID, cfg.Discord.ShardCount, log) {
		return nil // ctx ended
	}
	if err := s.Open(); err != nil {
		return fmt.Errorf("connect to discord: %w", err)
	}
	defer closeSession(s)

	var r *discordgo.Ready
	select {
	case r = <-ready:
	case <-time.After(30 * time.Second):
		return errors.New("connect to discord: no READY within 30s")
	case <-ctx.Done():
		return nil
	}
	appID := applicationID(cfg.Discord.ApplicationID, r)
	tick := so.Tick
	if tick <= 0 {
		tick = time.Second
	}
	if endpoint != nil {
		// After the bot's Shutdown: the endpoint's handlers have their
		// answers, or gave up.
		defer serveEndpoint(ctx, endpoint, discordhttp.NewEndpoint(publicKey, b.HandleVia, is, log), log)()
	}
	go b.Run(ctx, tick)
	// Interactions and timers are served meanwhile: a failed registration
	// keeps the commands Discord already has.
	if err := registerCommands(ctx, b, appID, log); err != nil {
		return nil // ctx ended
	}
	log.Info().Str("app", appID).Int("shard", cfg.Discord.ShardID).Int("shards", cfg.Discord.ShardCount).
		Str("invite", bot.InviteURL(appID)).Msg("qwixxbot ready")
	if so.Ready != nil {
		so.Ready(b)
	}

	<-ctx.Done()
	shutdown(b, log)
	return nil
}

// startBackups starts the scheduled backups, which run on the wall clock
// whatever clock the games run on; stop stops them and waits.
func startBackups(ctx context.Context, cfg config.Store, st *store.Store, log zerolog.Logger) (bk *backups, stop func()) {
	bk = &backups{st: st, dir: cfg.BackupDir, every: cfg.BackupEvery, keep: cfg.BackupKeep, now: time.Now, log: log}
	var done sync.WaitGroup
	bctx, cancel := context.WithCancel(ctx)
	done.Go(func() { bk.run(bctx) })
	return bk, func() {
		cancel()
		done.Wait()
	}
}

// newSession makes the discordgo session: its HTTP client (to
// cfg.BaseURL, through the metrics and the process's share of the global
// limit), intents and shard; so.Session sees it before it connects.
func newSession(cfg config.Discord, so Options, met *metrics) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + cfg.Token.Value())
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	if s.Client, err = discordhttp.NewHTTPClient(so.Transport, cfg.BaseURL); err != nil {
		return nil, err
	}
	// One token's processes share its global limit: each takes its share.
	s.Client.Transport = discordhttp.NewGlobalLimit(met.transport(s.Client.Transport), discordhttp.GlobalShare*float64(cfg.RateLimit)/float64(max(cfg.ShardCount, 1)))
	s.Identify.Intents = discordgo.IntentsGuilds // no privileged intents
	s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	s.ShouldReconnectOnError = true

	if so.Session != nil {
		so.Session(s)
	}
	return s, nil
}

// endpointKey is the application's public key, made ready to verify
// the interactions endpoint's requests, or nil when the endpoint is off.
// A key no key pair has (no point of the curve, or one of small order)
// stops the start before anything opens.
func endpointKey(cfg config.Discord) (*discordhttp.PublicKey, error) {
	if cfg.InteractionsAddr == "" {
		return nil, nil
	}
	k, err := discordhttp.ParsePublicKey(cfg.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("discord.public_key: %w (copy it from the developer portal's General Information > Public Key)", err)
	}
	return k, nil
}

// listenEndpoint takes the interactions endpoint's address, or returns a
// nil listener when the endpoint is off.
func listenEndpoint(cfg config.Discord) (net.Listener, error) {
	if cfg.InteractionsAddr == "" {
		return nil, nil
	}
	endpoint, err := net.Listen("tcp", cfg.InteractionsAddr)
	if err != nil {
		return nil, fmt.Errorf("discord.interactions_addr: %w", err)
	}
	return endpoint, nil
}

// addHandlers hands the gateway's events to b and returns where the first
// READY arrives.
func addHandlers(s *discordgo.Session, b *bot.Bot) <-chan *discordgo.Ready {
	ready := make(chan *discordgo.Ready, 1)
	// Not AddHandlerOnce: discordgo clears once-handlers by writing their
	// map under a read lock, a data race with its REST goroutines, which
	// dispatch rate-limit events at the same time. Later READYs (after a
	// reconnect) are dropped here.
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		select {
		case ready <- r:
		default:
		}
	})
	// discordgo calls each handler on a new goroutine of its own; the
	// interaction's handling, which goes deep (its stack would grow
	// several times by copying), goes on to a reused one of the workers
	// pool. The other handlers stay as they are: short, and rare.
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		workers.Go(func() { b.OnInteraction(s, ic) })
	})
	// Leaving a guild starts its data's grace period; an unavailable guild
	// is an outage, not a leave. Being in a guild (every GUILD_CREATE,
	// also those at connect) ends it.
	s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildDelete) {
		if g.Guild != nil {
			b.GuildDeleted(g.ID, g.Unavailable)
		}
	})
	s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		if g.Guild != nil && !g.Unavailable {
			b.GuildCreated(g.ID)
		}
	})
	return ready
}

// takeInteractions has the gateway's INTERACTION_CREATE events decoded
// once, by discordgw, and handed to b (discordgo decodes each three
// times); discordgo keeps handling everything else. Its sessions then
// identify without compression, so that dispatches come as text frames.
// Behind a proxy discordgo's own dialer stays (discordgw dials directly).
// It returns s, for addHandlers.
func takeInteractions(s *discordgo.Session, b *bot.Bot, cfg config.Discord, met *metrics, log zerolog.Logger) *discordgo.Session {
	gw := "wss://gateway.discord.gg"
	if cfg.BaseURL != "" {
		gw = cfg.BaseURL
	}
	if discordgw.UsesProxy(gw) {
		log.Info().Msg("a proxy is configured for the gateway: interactions are decoded by discordgo")
		return s
	}
	// The Taker calls this on discordgo's new handler goroutine: the
	// handling goes on to a reused one of the workers pool (addHandlers).
	discordgw.NewTaker(func(i *discordgo.Interaction) {
		met.gatewayTaken.Inc()
		workers.Go(func() { b.Handle(i) })
	}).Install(s)
	return s
}

// closeSession closes the gateway session for good.
func closeSession(s *discordgo.Session) {
	// discordgo's heartbeat may fail while Close waits for the gateway
	// to close the connection, and then reconnect the closed session
	// (which would go on receiving interactions for a stopped bot).
	s.Lock()
	s.ShouldReconnectOnError = false
	s.Unlock()
	s.Close()
}

// applicationID is the configured application ID, or else READY's.
func applicationID(configured string, r *discordgo.Ready) string {
	appID := configured
	if appID == "" && r.Application != nil {
		appID = r.Application.ID
	}
	if appID == "" && r.User != nil {
		appID = r.User.ID
	}
	return appID
}

// serveEndpoint serves the interactions endpoint on l until ctx ends, and
// returns what waits for it to finish (and for its handlers).
func serveEndpoint(ctx context.Context, l net.Listener, ep *discordhttp.Endpoint, log zerolog.Logger) (wait func()) {
	served := make(chan error, 1)
	go func() { served <- ep.Serve(ctx, l) }()
	log.Info().Str("addr", l.Addr().String()).Msg("interactions endpoint listening")
	return func() {
		if err := <-served; err != nil {
			log.Error().Err(err).Msg("interactions endpoint")
		}
		ep.Wait()
	}
}

// shutdown stops b taking interactions and waits up to 10 s for those in
// flight, then for its other work.
func shutdown(b *bot.Bot, log zerolog.Logger) {
	log.Info().Msg("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Shutdown(sctx); err != nil {
		log.Warn().Err(err).Msg("interactions still in flight")
	}
	b.Idle()
}

// supported refuses the deployments the bot does not support. With
// Discord's HTTP interactions endpoint every interaction of the
// application comes to its one URL, whatever its server's shard, while
// each shard's process keeps only its own servers' tables: so the
// endpoint is for a bot of one shard, and a sharded bot takes its
// interactions on each shard's gateway connection, where Discord routes
// them by server.
func supported(d config.Discord) error {
	if d.InteractionsAddr != "" && d.ShardCount > 1 {
		return fmt.Errorf("discord.interactions_addr is set with discord.shard_count %d: Discord sends every interaction to the application's one endpoint URL, but each shard keeps only its own servers' games; with several shards leave discord.interactions_addr empty (interactions then come on each shard's gateway connection)", d.ShardCount)
	}
	return nil
}

// identifySpacing is how far apart the shards of one identify bucket
// connect: Discord takes one IDENTIFY per bucket every 5 seconds.
const identifySpacing = 5500 * time.Millisecond

// waitIdentifySlot asks Discord for the recommended shard count (logged
// when it is more than shardCount: time to reshard) and the identify
// concurrency, and waits for this shard's turn to identify: shards that
// start together (a service manager starting them all) then connect
// (shardID / max_concurrency) × 5.5 s apart instead of being refused. It
// returns false if ctx ended first.
func waitIdentifySlot(ctx context.Context, s *discordgo.Session, shardID, shardCount int, log zerolog.Logger) bool {
	gb, err := s.GatewayBot(discordgo.WithContext(ctx))
	maxc := 1
	if err != nil {
		log.Warn().Err(err).Msg("GET /gateway/bot failed: assuming one identify at a time")
	} else {
		if gb.Shards > shardCount {
			log.Warn().Int("recommended", gb.Shards).Int("shard_count", shardCount).
				Msg("Discord recommends more shards: stop the bots, run qwixxbot reshard and raise discord.shard_count")
		}
		maxc = max(gb.SessionStartLimit.MaxConcurrency, 1)
	}
	wait := time.Duration(shardID/maxc) * identifySpacing
	if wait == 0 {
		return true
	}
	log.Info().Dur("wait", wait).Int("max_concurrency", maxc).Msg("waiting for this shard's turn to identify")
	select {
	case <-time.After(wait):
		return true
	case <-ctx.Done():
		return false
	}
}

// registerCommands registers the slash commands, retrying with exponential
// backoff (1 s doubling to 1 min, with jitter) until it succeeds or ctx
// ends: a Discord hiccup at start-up must not stop the bot.
func registerCommands(ctx context.Context, b *bot.Bot, appID string, log zerolog.Logger) error {
	delay := time.Second
	for attempt := 1; ; attempt++ {
		err := b.RegisterCommands(appID)
		if err == nil {
			return nil
		}
		wait := delay/2 + rand.N(delay/2+1)
		log.Warn().Err(err).Int("attempt", attempt).Dur("retry_in", wait).Msg("registering commands failed")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		delay = min(2*delay, time.Minute)
	}
}

// Retention is the store's retention from the [store] section: an age of
// 0 keeps for ever, a grace of 0 deletes at the next sweep.
func Retention(c config.Store) store.Retention {
	forever := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	return store.Retention{
		ResultMaxAge:    forever(c.ResultMaxAge),
		ResultsPerGuild: c.ResultsPerGuild,
		RecordMaxAge:    forever(c.RecordMaxAge),
		RecordsPerGuild: c.RecordsPerGuild,
		GuildGrace:      forever(c.GuildGrace),
	}
}

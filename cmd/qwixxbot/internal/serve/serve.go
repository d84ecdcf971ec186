// Package serve runs the bot: it opens the store, connects to Discord (or
// the fake at discord.base_url), registers the commands, restores the
// stored tables and answers interactions until its context ends.
package serve

import (
	"context"
	"crypto/ed25519"
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
	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
	"github.com/qwixxbot/qwixxbot/bot/session"
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

	// Backups run on the wall clock, whatever clock the games run on.
	bk := &backups{st: st, dir: cfg.Store.BackupDir, every: cfg.Store.BackupEvery, keep: cfg.Store.BackupKeep, now: time.Now, log: log}
	var backupsDone sync.WaitGroup
	defer backupsDone.Wait() // before the store closes
	bctx, stopBackups := context.WithCancel(ctx)
	defer stopBackups()
	backupsDone.Go(func() { bk.run(bctx) })
	if cfg.Log.DebugAddr != "" {
		if err := serveDebug(ctx, cfg.Log.DebugAddr, bk, met, log); err != nil {
			return err
		}
	}

	s, err := discordgo.New("Bot " + cfg.Discord.Token.Value())
	if err != nil {
		return fmt.Errorf("discord session: %w", err)
	}
	if s.Client, err = discordhttp.NewHTTPClient(so.Transport, cfg.Discord.BaseURL); err != nil {
		return err
	}
	// One token's processes share its global limit: each takes its share.
	s.Client.Transport = discordhttp.NewGlobalLimit(met.transport(s.Client.Transport), discordhttp.GlobalShare*float64(cfg.Discord.RateLimit)/float64(max(cfg.Discord.ShardCount, 1)))
	s.Identify.Intents = discordgo.IntentsGuilds // no privileged intents
	s.ShardID, s.ShardCount = cfg.Discord.ShardID, cfg.Discord.ShardCount
	s.ShouldReconnectOnError = true

	if so.Session != nil {
		so.Session(s)
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
	var endpoint net.Listener
	var publicKey ed25519.PublicKey
	if cfg.Discord.InteractionsAddr != "" {
		if publicKey, err = discordhttp.ParsePublicKey(cfg.Discord.PublicKey); err != nil {
			return fmt.Errorf("discord.public_key: %w", err)
		}
		if endpoint, err = net.Listen("tcp", cfg.Discord.InteractionsAddr); err != nil {
			return fmt.Errorf("discord.interactions_addr: %w", err)
		}
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
	s.AddHandler(b.OnInteraction)
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
	if !waitIdentifySlot(ctx, s, cfg.Discord.ShardID, cfg.Discord.ShardCount, log) {
		return nil // ctx ended
	}
	if err := s.Open(); err != nil {
		return fmt.Errorf("connect to discord: %w", err)
	}
	defer func() {
		// discordgo's heartbeat may fail while Close waits for the gateway
		// to close the connection, and then reconnect the closed session
		// (which would go on receiving interactions for a stopped bot).
		s.Lock()
		s.ShouldReconnectOnError = false
		s.Unlock()
		s.Close()
	}()

	var r *discordgo.Ready
	select {
	case r = <-ready:
	case <-time.After(30 * time.Second):
		return errors.New("connect to discord: no READY within 30s")
	case <-ctx.Done():
		return nil
	}
	appID := cfg.Discord.ApplicationID
	if appID == "" && r.Application != nil {
		appID = r.Application.ID
	}
	if appID == "" && r.User != nil {
		appID = r.User.ID
	}
	tick := so.Tick
	if tick <= 0 {
		tick = time.Second
	}
	if endpoint != nil {
		ep := discordhttp.NewEndpoint(publicKey, b.HandleVia, is, log)
		served := make(chan error, 1)
		go func() { served <- ep.Serve(ctx, endpoint) }()
		defer func() {
			// After the bot's Shutdown: the endpoint's handlers have
			// their answers, or gave up.
			if err := <-served; err != nil {
				log.Error().Err(err).Msg("interactions endpoint")
			}
			ep.Wait()
		}()
		log.Info().Str("addr", endpoint.Addr().String()).Msg("interactions endpoint listening")
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
	log.Info().Msg("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Shutdown(sctx); err != nil {
		log.Warn().Err(err).Msg("interactions still in flight")
	}
	b.Idle()
	return nil
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

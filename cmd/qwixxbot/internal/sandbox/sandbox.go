// Package sandbox is the bot played in the built-in fake Discord
// (bot/discordtest), in this process: a page where a person plays every
// seat (ServePage), or simulated players playing one game (Auto).
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/serve"
	"github.com/qwixxbot/qwixxbot/render"
)

// Names are the sandbox's users, in seat order.
var Names = players.Names

// Result is what a sandbox run produced.
type Result struct {
	Results string // the results message
	Moves   int    // clicks that made a move
	Images  int    // files saved
	// SchemaViolations counts request bodies that failed Discord's schema;
	// MaxTokenAge is the oldest interaction token the bot used.
	SchemaViolations int
	MaxTokenAge      time.Duration
}

// Auto lets simulated players play one whole game in the fake Discord
// and returns what it produced.
func Auto(ctx context.Context, cfg config.Config, log zerolog.Logger) (*Result, error) {
	fw, err := startFake(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	defer fw.close()
	srv := fw.srv
	seed := uint64(time.Now().UnixNano())
	if cfg.Sandbox.Seed != nil {
		seed = uint64(*cfg.Sandbox.Seed)
	}
	var users []*discordtest.User
	for _, n := range Names[:cfg.Sandbox.Players] {
		users = append(users, srv.AddUser(n, "en-US"))
	}
	p := players.New(srv, srv.DefaultChannel(), users, rand.New(rand.NewPCG(seed, 1)))
	game, err := p.PlayGame(ctx, cfg.Sandbox.Variant)
	var res *Result
	if game != nil {
		res = &Result{Results: game.Results, Moves: game.Moves}
		for _, u := range users {
			res.Results = strings.ReplaceAll(res.Results, "<@"+u.ID+">", u.Name)
		}
		res.SchemaViolations = len(srv.SchemaViolations())
		res.MaxTokenAge = srv.MaxTokenAge()
	}
	if berr := fw.stop(); berr != nil && err == nil {
		err = berr
	}
	if err != nil {
		return nil, err
	}
	files, _ := os.ReadDir(fw.images)
	res.Images = len(files)
	return res, nil
}

// fakeWorld is the built-in fake Discord with the real bot connected to it,
// writing its transcript and pictures to the sandbox's folder.
type fakeWorld struct {
	srv    *discordtest.Server
	images string // the folder of the uploaded pictures
	tf     *os.File
	unlock func() // frees the sandbox's folder
	cancel context.CancelFunc
	done   chan error
	err    error
	bot    *bot.Bot
}

// startFake starts the fake Discord and the bot (serve, as in production)
// against it, and returns once the bot is connected and has registered its
// commands.
//
// The folder is the sandbox's alone while it runs (lockOutDir): a second
// sandbox on the same folder stops with a clear error before touching it.
// Each run starts afresh (its database, transcript and pictures of an
// earlier run are deleted), and a long run stays bounded: the fake keeps
// the newest sandboxHistory messages, events, interactions and pictures,
// and the picture caches are sized for one table.
func startFake(ctx context.Context, cfg config.Config, log zerolog.Logger) (*fakeWorld, error) {
	out := cfg.Sandbox.OutDir
	unlock, err := lockOutDir(out)
	if err != nil {
		return nil, err
	}
	images := filepath.Join(out, "images")
	os.RemoveAll(images)
	if err := os.MkdirAll(images, 0o755); err != nil {
		unlock()
		return nil, fmt.Errorf("sandbox folder: %w", err)
	}
	tf, err := os.Create(filepath.Join(out, "transcript.txt"))
	if err != nil {
		unlock()
		return nil, fmt.Errorf("sandbox transcript: %w", err)
	}
	srv, err := discordtest.NewServer(discordtest.Options{Token: "sandbox-token", Transcript: tf, AttachmentDir: images, History: sandboxHistory})
	if err != nil {
		tf.Close()
		unlock()
		return nil, fmt.Errorf("start fake discord: %w", err)
	}
	if cfg.Store.Path != config.Default().Store.Path {
		log.Warn().Str("store_path", cfg.Store.Path).Msg("the sandbox keeps its games in its own folder, not in store.path: that is the real bot's database")
	}
	cfg.Discord.Token = config.NewSecret(srv.Token())
	cfg.Discord.BaseURL = "https://discord.com" // srv.Transport sends it to the fake
	cfg.Store.Path = filepath.Join(out, "sandbox.db")
	os.Remove(cfg.Store.Path)
	render.SetBandBudget(sandboxPictureBudget)

	if log.GetLevel() == zerolog.InfoLevel {
		// The console of a sandbox starts with the page's address: the
		// bot's routine news (a fresh database's migrations, the fake
		// application's invite link) are in the transcript, not there.
		log = log.Level(zerolog.WarnLevel)
	}
	bctx, cancel := context.WithCancel(ctx)
	fw := &fakeWorld{srv: srv, images: images, tf: tf, unlock: unlock, cancel: cancel, done: make(chan error, 1)}
	ready := make(chan *bot.Bot, 1)
	go func() {
		fw.done <- serve.Run(bctx, cfg, log, serve.Options{Transport: srv.Transport(), PictureBudget: sandboxPictureBudget, Ready: func(b *bot.Bot) { ready <- b }})
	}()
	select {
	case fw.bot = <-ready:
		return fw, nil
	case err := <-fw.done:
		fw.done <- err
		fw.close()
		return nil, fmt.Errorf("bot stopped: %w", err)
	case <-time.After(30 * time.Second):
		fw.close()
		return nil, errors.New("bot did not connect to the fake discord")
	}
}

// stop stops the bot and returns what serve returned (nil for a clean
// stop). It may be called more than once.
func (fw *fakeWorld) stop() error {
	if fw.done != nil {
		fw.cancel()
		fw.err = <-fw.done
		fw.done = nil
		if errors.Is(fw.err, context.Canceled) {
			fw.err = nil
		}
	}
	return fw.err
}

// close stops the bot and the fake Discord, and frees the folder.
func (fw *fakeWorld) close() {
	fw.stop()
	fw.srv.Close()
	fw.tf.Close()
	if fw.unlock != nil {
		fw.unlock()
		fw.unlock = nil
	}
}

// sandboxHistory is how much of its history the sandbox's fake Discord
// keeps (discordtest.Options.History): the page shows the newest messages,
// and nothing older is ever needed.
const sandboxHistory = 250

// sandboxPictureBudget bounds each picture cache of the sandbox (finished
// pictures, compressed bands): room for the table, sheets and hands of one
// game.
const sandboxPictureBudget = 4 << 20

// Package load is the load harness: `qwixxbot load` runs the bot binary as
// its own process against the built-in fake Discord (bot/discordtest, in
// this process, in its Lean mode) with N live games in N channels, each with simulated
// players who see only what Discord shows them and act by clicking. It
// measures what an operator sizing a deployment needs: answered clicks per
// second, the answer latency (from the gateway event to the bot's answer,
// as Discord measures its 3-second deadline), answers that came too late,
// REST requests and bytes per click (and those counted against the global
// rate limit per second), and the bot process's CPU, RSS and heap.
package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// Options are what a load run does: the flags of `qwixxbot load`.
type Options struct {
	Games    int
	Players  int
	Variants []string
	PaceMin  time.Duration // think time before each look; 0 = flat out
	PaceMax  time.Duration
	Warmup   time.Duration
	Duration time.Duration
	Sample   time.Duration
	BotPath  string
	Dir      string
	Limits   bool
	Seed     uint64
	Format   string
	Profile  string
	// Ingress is how the fake hands the bot its interactions: "gateway"
	// (or empty), or "http": POSTed, signed, to the bot's interactions
	// endpoint, answered in the HTTP responses.
	Ingress string
	// SelfProfile profiles the harness itself; HeapProfile is the bot's
	// heap at the end.
	SelfProfile, HeapProfile string
}

// Report is what a load run measured.
type Report struct {
	Games    int     `json:"games"`
	Players  int     `json:"players"`
	Variants string  `json:"variants"`
	Pace     string  `json:"pace"`
	Seconds  float64 `json:"seconds"`
	// Clicks are the interactions the players started and the bot
	// answered within Discord's 3 seconds in the measuring time; Failed
	// those it did not ("This interaction failed").
	Clicks       int     `json:"clicks"`
	ClicksPerSec float64 `json:"clicks_per_s"`
	Failed       int     `json:"failed"`
	// Answer latency in milliseconds: gateway event to answer.
	P50, P95, P99, Max float64
	// Moves made, games finished and games that went wrong (a stall or an
	// error: restarted) in the measuring time.
	Moves     int `json:"moves"`
	Finished  int `json:"games_finished"`
	Restarted int `json:"games_restarted"`
	// Problems are the games' errors by kind (a stall, an unanswered
	// click), with how often each occurred.
	Problems map[string]int `json:"problems,omitempty"`
	// REST requests per click (all of them, and those counted against the
	// global rate limit), counted requests per second (the figure that
	// meets Discord's 50 per second) and KiB uploaded per click.
	RequestsPerClick   float64 `json:"requests_per_click"`
	CountedPerClick    float64 `json:"counted_per_click"`
	CountedPerSec      float64 `json:"counted_per_s"`
	KiBPerClick        float64 `json:"kib_per_click"`
	Limited            int64   `json:"limited_429"`
	Requests           int64   `json:"requests"`
	FailedRequests     int64   `json:"failed_requests"`
	StoreCommitsPerClk float64 `json:"store_commits_per_click,omitempty"`
	DrawnPerClick      float64 `json:"pictures_drawn_per_click,omitempty"`
	// The bot process: CPU (percent of one core), resident memory and Go
	// heap (after a collection) at the end, in MiB, and its goroutines.
	BotCPU float64 `json:"bot_cpu_percent"`
	// BotCPUPerClick is the bot's CPU time over the measuring time per
	// click answered, in milliseconds.
	BotCPUPerClick float64 `json:"bot_cpu_ms_per_click"`
	// Ingress is how the interactions reached the bot: gateway or http.
	Ingress    string  `json:"ingress"`
	BotRSS     float64 `json:"bot_rss_mib"`
	BotMaxRSS  float64 `json:"bot_max_rss_mib"`
	BotHeap    float64 `json:"bot_heap_mib"`
	Goroutines int     `json:"bot_goroutines"`
	// This process (fake Discord and players).
	HarnessCPU float64 `json:"harness_cpu_percent"`
	// The bot's own counts over the measuring time, from its /metrics:
	// interaction answers Discord took, REST requests and 429s. They
	// match Clicks + Failed, Requests and Limited but for the few in
	// flight at either end.
	MetricAnswers  float64 `json:"metrics_answers"`
	MetricRequests float64 `json:"metrics_requests"`
	MetricLimited  float64 `json:"metrics_limited_429"`
	// BotErrors counts error lines in the bot's log.
	BotErrors int `json:"bot_log_errors"`
	// Routes are the requests by route over the measuring time.
	Routes  []discordtest.RouteStats `json:"routes"`
	Samples []loadSample             `json:"samples,omitempty"`
}

// loadSample is one line of figures during the run.
type loadSample struct {
	At         float64 `json:"at_s"`
	ClicksPerS float64 `json:"clicks_per_s"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
	Heap       float64 `json:"heap_mib"`
	RSS        float64 `json:"rss_mib"`
	CPU        float64 `json:"bot_cpu_percent"`
	Goroutines int     `json:"goroutines"`
}

func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "%d games (%s, %d players), pace %s, interactions by %s, %.0f s measured\n", r.Games, r.Variants, r.Players, r.Pace, r.Ingress, r.Seconds)
	fmt.Fprintf(w, "clicks answered  %d (%.1f/s), failed (no answer in 3 s) %d\n", r.Clicks, r.ClicksPerSec, r.Failed)
	fmt.Fprintf(w, "answer latency   p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms\n", r.P50, r.P95, r.P99, r.Max)
	fmt.Fprintf(w, "moves %d, games finished %d, restarted after a problem %d\n", r.Moves, r.Finished, r.Restarted)
	for _, k := range slices.Sorted(maps.Keys(r.Problems)) {
		fmt.Fprintf(w, "  %5d × %s\n", r.Problems[k], k)
	}
	fmt.Fprintf(w, "REST per click   %.2f requests (%.2f counted by the global limit: %.1f/s), %.1f KiB up; 429s %d, failed %d\n",
		r.RequestsPerClick, r.CountedPerClick, r.CountedPerSec, r.KiBPerClick, r.Limited, r.FailedRequests)
	if r.StoreCommitsPerClk > 0 || r.DrawnPerClick > 0 {
		fmt.Fprintf(w, "per click        %.2f store commits (fsyncs), %.2f pictures drawn\n", r.StoreCommitsPerClk, r.DrawnPerClick)
	}
	fmt.Fprintf(w, "bot's /metrics   %.0f answers, %.0f REST requests, %.0f 429s (harness: %d clicks + %d failed, %d requests, %d 429s)\n",
		r.MetricAnswers, r.MetricRequests, r.MetricLimited, r.Clicks, r.Failed, r.Requests, r.Limited)
	fmt.Fprintf(w, "bot process      CPU %.0f %% of a core (%.2f ms a click), RSS %.0f MiB (max %.0f), heap %.1f MiB, %d goroutines, %d error lines logged\n",
		r.BotCPU, r.BotCPUPerClick, r.BotRSS, r.BotMaxRSS, r.BotHeap, r.Goroutines, r.BotErrors)
	fmt.Fprintf(w, "harness          CPU %.0f %% of a core (fake Discord and players)\n", r.HarnessCPU)
	if len(r.Samples) > 0 {
		fmt.Fprintf(w, "\n%8s %9s %8s %8s %9s %8s %6s %6s\n", "at s", "clicks/s", "p99 ms", "max ms", "heap MiB", "RSS MiB", "CPU %", "gor.")
		for _, s := range r.Samples {
			fmt.Fprintf(w, "%8.0f %9.1f %8.1f %8.1f %9.1f %8.1f %6.0f %6d\n", s.At, s.ClicksPerS, s.P99, s.Max, s.Heap, s.RSS, s.CPU, s.Goroutines)
		}
	}
	fmt.Fprintf(w, "\n%-72s %9s %9s %7s\n", "route", "requests", "KiB up", "failed")
	for _, rt := range r.Routes {
		fmt.Fprintf(w, "%-72s %9d %9.0f %7d\n", rt.Route, rt.Requests, float64(rt.Bytes)/1024, rt.Failed)
	}
}

// loadChannel follows one channel's table message for its players,
// through the fake's message hook.
type loadChannel struct {
	mu      sync.Mutex
	order   []string // candidate messages (a table or results), oldest first
	msgs    map[string]*discordtest.Message
	changed chan struct{}
}

func (c *loadChannel) on(ev discordtest.MessageEvent) {
	m := ev.Message
	if m.Ephemeral() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	candidate := ev.Kind != discordtest.Deleted && (players.IDWith(m, "sheet") != "" || players.IDWith(m, "again") != "")
	_, known := c.msgs[m.ID]
	switch {
	case candidate && known:
		c.msgs[m.ID] = m
	case candidate:
		c.msgs[m.ID] = m
		c.order = append(c.order, m.ID)
	case known:
		delete(c.msgs, m.ID)
		c.order = slices.DeleteFunc(c.order, func(id string) bool { return id == m.ID })
	default:
		return
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

// current is the newest table message, or the results.
func (c *loadChannel) current() (table, results *discordtest.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.order) == 0 {
		return nil, nil
	}
	m := c.msgs[c.order[len(c.order)-1]]
	if players.IDWith(m, "again") != "" {
		return nil, m
	}
	return m, nil
}

// wait waits until the channel's current message changes (or a second).
func (c *loadChannel) wait(ctx context.Context, seen *discordtest.Message) {
	c.mu.Lock()
	ch := c.changed
	var cur *discordtest.Message
	if len(c.order) > 0 {
		cur = c.msgs[c.order[len(c.order)-1]]
	}
	c.mu.Unlock()
	if cur != seen {
		return
	}
	select {
	case <-ch:
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// loadStats gathers the players' figures.
type loadStats struct {
	measuring atomic.Bool
	mu        sync.Mutex
	lat       []time.Duration // answered in the measuring time
	failed    int
	moves     atomic.Int64
	finished  atomic.Int64
	restarted atomic.Int64
	problems  map[string]int // guarded by mu
}

var digits = regexp.MustCompile(`[0-9]+`)

// problem counts a game's error by its kind: the message with numbers
// (player names, IDs) blurred, cut to a line.
func (s *loadStats) problem(err error) {
	kind := []rune(digits.ReplaceAllString(err.Error(), "#"))
	if len(kind) > 160 {
		kind = append(kind[:159], '…')
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.problems == nil {
		s.problems = map[string]int{}
	}
	s.problems[string(kind)]++
}

func (s *loadStats) answered(it *discordtest.Interaction) {
	if !s.measuring.Load() {
		return
	}
	d, ok := it.Latency()
	s.mu.Lock()
	if ok && !it.Failed() {
		s.lat = append(s.lat, d)
	} else {
		s.failed++
	}
	s.mu.Unlock()
}

// take returns the latencies since the last take and the failures.
func (s *loadStats) take() ([]time.Duration, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, f := s.lat, s.failed
	s.lat, s.failed = nil, 0
	return l, f
}

func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1)*p + 0.5)
	return float64(sorted[i]) / float64(time.Millisecond)
}

// Run starts the fake Discord with o.Games channels and the bot binary
// against it, lets the simulated players play for o.Warmup and then
// measures for o.Duration (sampling every o.Sample if set), and returns
// the figures.
func Run(ctx context.Context, o Options, stderr io.Writer) (*Report, error) {
	dir, removeDir, err := workDir(o.Dir)
	if err != nil {
		return nil, err
	}
	defer removeDir()
	fake, err := startFake(o)
	if err != nil {
		return nil, err
	}
	defer fake.srv.Close()

	// The bot, as its own process.
	bot, err := startBot(ctx, o, fake.srv, dir)
	if err != nil {
		return nil, err
	}
	defer bot.stop()
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	err = fake.srv.Wait(wctx, func() bool {
		return len(fake.srv.Commands("")) > 0 || len(fake.srv.Commands(fake.srv.DefaultGuild())) > 0
	})
	cancel()
	if err != nil {
		return nil, fmt.Errorf("the bot did not connect and register its commands (log: %s): %w", bot.logPath, err)
	}
	fmt.Fprintf(stderr, "load: bot pid %d ready; %d games starting\n", bot.pid, o.Games)

	// The players.
	stats := &loadStats{}
	pctx, stopPlayers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i, ch := range fake.ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loadGame(pctx, fake.srv, fake.chans[ch], ch, i, o, stats)
		}()
	}
	defer func() {
		stopPlayers()
		wg.Wait()
	}()

	select {
	case <-time.After(o.Warmup):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rep := &Report{Games: o.Games, Players: o.Players, Variants: strings.Join(o.Variants, ","), Pace: "flat out", Ingress: "gateway"}
	if o.Ingress == "http" {
		rep.Ingress = "http"
	}
	if o.PaceMax > 0 {
		rep.Pace = fmt.Sprintf("%v–%v", o.PaceMin, o.PaceMax)
	}
	m := startMeasuring(fake.srv, bot, stats)
	if o.SelfProfile != "" {
		if f, err := os.Create(o.SelfProfile); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}
	if o.Profile != "" {
		go bot.saveProfile(o.Profile, o.Duration)
	}
	all, failed, err := m.sample(ctx, o, rep)
	if err != nil {
		return nil, err
	}
	if err := m.finish(rep, all, failed, o.HeapProfile); err != nil {
		return nil, err
	}
	return rep, nil
}

// workDir returns the run's directory (o.Dir, made if missing, or a new
// temporary one) and what removes it (nothing for o.Dir).
func workDir(dir string) (string, func(), error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "qwixxbot-load-")
		if err != nil {
			return "", nil, err
		}
		return d, func() { os.RemoveAll(d) }, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	return dir, func() {}, nil
}

// loadFake is the fake Discord of a run and its channels, one per game.
type loadFake struct {
	srv   *discordtest.Server
	ids   []string
	chans map[string]*loadChannel // by channel ID; written only before the bot starts
}

// startFake starts the fake Discord in its Lean mode with o.Games
// channels (400 a guild), each followed by a loadChannel.
func startFake(o Options) (*loadFake, error) {
	f := &loadFake{chans: map[string]*loadChannel{}}
	var chansMu sync.RWMutex
	srv, err := discordtest.NewServer(discordtest.Options{
		Token: "load-token", DisableSchema: true, Lean: true,
		RateLimits: discordtest.RateLimitOptions{Enabled: o.Limits},
		OnMessage: func(ev discordtest.MessageEvent) {
			chansMu.RLock()
			c := f.chans[ev.Message.ChannelID]
			chansMu.RUnlock()
			if c != nil {
				c.on(ev)
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("start the fake Discord: %w", err)
	}
	f.srv = srv
	guild := srv.DefaultGuild()
	f.ids = make([]string, o.Games)
	for i := range f.ids {
		if i > 0 && i%400 == 0 {
			guild = srv.AddGuild(fmt.Sprintf("Load %d", i/400), "en-US")
		}
		f.ids[i] = srv.AddChannel(guild, fmt.Sprintf("qwixx-%d", i))
		chansMu.Lock()
		f.chans[f.ids[i]] = &loadChannel{msgs: map[string]*discordtest.Message{}, changed: make(chan struct{})}
		chansMu.Unlock()
	}
	return f, nil
}

// loadBot is the bot's process.
type loadBot struct {
	pid       int
	debugAddr string
	logPath   string
	logf      *os.File
	cancel    context.CancelFunc
	done      chan error // the process's end (put back by whoever takes it)
}

// startBot starts the bot binary against srv, its database and log in
// dir, its debug server on a free port; with o.Ingress "http" it takes
// the interactions on an endpoint. On an error nothing is left running.
func startBot(ctx context.Context, o Options, srv *discordtest.Server, dir string) (*loadBot, error) {
	debugAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "bot.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	bctx, stopBot := context.WithCancel(ctx)
	cmd := exec.CommandContext(bctx, o.BotPath)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 15 * time.Second
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QWIXXBOT_") && !strings.HasPrefix(kv, "QWIXXTEST_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "QWIXXBOT_TOKEN="+srv.Token(), "QWIXXBOT_DISCORD_BASE_URL="+srv.URL,
		"QWIXXBOT_STORE_PATH="+filepath.Join(dir, "load.db"), "QWIXXBOT_LOG_LEVEL=warn",
		"QWIXXBOT_LOG_FORMAT=json", "QWIXXBOT_LOG_DEBUG_ADDR="+debugAddr)
	if o.Ingress == "http" {
		addr, err := freeAddr()
		if err != nil {
			stopBot()
			logf.Close()
			return nil, err
		}
		cmd.Env = append(cmd.Env, "QWIXXBOT_DISCORD_INTERACTIONS_ADDR="+addr, "QWIXXBOT_DISCORD_PUBLIC_KEY="+srv.InteractionsPublicKey())
		srv.SetInteractionsEndpoint("http://" + addr + "/interactions")
	}
	if !o.Limits {
		// The fake enforces no rate limit: the bot need not pace itself
		// either, and the run measures the machine, not the token.
		cmd.Env = append(cmd.Env, "QWIXXBOT_DISCORD_RATE_LIMIT=1000000")
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		stopBot()
		logf.Close()
		return nil, fmt.Errorf("start the bot %s: %w", o.BotPath, err)
	}
	b := &loadBot{pid: cmd.Process.Pid, debugAddr: debugAddr, logPath: logPath, logf: logf, cancel: stopBot, done: make(chan error, 1)}
	go func() { b.done <- cmd.Wait() }()
	return b, nil
}

// stop stops the bot (an interrupt, then a kill after 15 s), waits for
// it and closes its log.
func (b *loadBot) stop() {
	b.cancel()
	<-b.done
	b.logf.Close()
}

// saveProfile writes the bot's CPU profile over d to path.
func (b *loadBot) saveProfile(path string, d time.Duration) {
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", b.debugAddr, int(d.Seconds())))
	if err == nil {
		defer resp.Body.Close()
		if f, err := os.Create(path); err == nil {
			io.Copy(f, resp.Body)
			f.Close()
		}
	}
}

// measuring is a run's measurement window: the figures at its start.
type measuring struct {
	srv            *discordtest.Server
	bot            *loadBot
	stats          *loadStats
	routes         []discordtest.RouteStats
	commits, drawn int64
	met            metricCounts
	cpu, self      float64
	t0             time.Time
}

// startMeasuring reads the figures at the start of the window and resets
// the players' counts.
func startMeasuring(srv *discordtest.Server, bot *loadBot, stats *loadStats) *measuring {
	m := &measuring{srv: srv, bot: bot, stats: stats}
	m.routes = srv.RouteStats()
	m.commits, m.drawn = botCounters(bot.debugAddr)
	m.met = scrapeMetrics(bot.debugAddr)
	m.cpu, m.self, m.t0 = procCPU(bot.pid), procCPU(os.Getpid()), time.Now()
	stats.moves.Store(0)
	stats.finished.Store(0)
	stats.restarted.Store(0)
	stats.mu.Lock()
	stats.problems = nil
	stats.mu.Unlock()
	stats.measuring.Store(true)
	return m
}

// sample waits out the window, taking the latencies every o.Sample (a
// sample into rep.Samples each time) or once at its end; it returns them
// and the failed clicks. It stops early if ctx ends or the bot stops.
func (m *measuring) sample(ctx context.Context, o Options, rep *Report) ([]time.Duration, int, error) {
	var all []time.Duration
	failed := 0
	step := o.Sample
	if step <= 0 || step > o.Duration {
		step = o.Duration
	}
	end := m.t0.Add(o.Duration)
	lastT, lastCPU := m.t0, m.cpu
	for time.Now().Before(end) {
		wait := min(step, time.Until(end))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		case err := <-m.bot.done:
			m.bot.done <- err
			return nil, 0, fmt.Errorf("the bot stopped: %v (log: %s)", err, m.bot.logPath)
		}
		lat, f := m.stats.take()
		failed += f
		all = append(all, lat...)
		if o.Sample > 0 {
			now, cpu := time.Now(), procCPU(m.bot.pid)
			slices.Sort(lat)
			heap, gor := botHeap(m.bot.debugAddr)
			rss, _ := procRSS(m.bot.pid)
			rep.Samples = append(rep.Samples, loadSample{At: now.Sub(m.t0).Seconds(), ClicksPerS: float64(len(lat)) / now.Sub(lastT).Seconds(),
				P99: percentile(lat, 0.99), Max: percentile(lat, 1), Heap: heap, RSS: rss,
				CPU: 100 * (cpu - lastCPU) / now.Sub(lastT).Seconds(), Goroutines: gor})
			lastT, lastCPU = now, cpu
		}
	}
	return all, failed, nil
}

// finish ends the window and fills rep: clicks and their latencies, the
// players' counts, the bot's CPU, memory and counters, the requests per
// route (with heapProfile set, it writes the bot's heap profile there).
func (m *measuring) finish(rep *Report, all []time.Duration, failed int, heapProfile string) error {
	stats, pid, debugAddr := m.stats, m.bot.pid, m.bot.debugAddr
	stats.measuring.Store(false)
	// The requests of the same window as the clicks: the players go on
	// while the bot's figures are read below.
	routes1 := m.srv.RouteStats()
	met1 := scrapeMetrics(debugAddr)
	rep.MetricAnswers = met1.answers - m.met.answers
	rep.MetricRequests = met1.requests - m.met.requests
	rep.MetricLimited = met1.limited - m.met.limited
	secs := time.Since(m.t0).Seconds()
	cpu1, self1 := procCPU(pid), procCPU(os.Getpid())
	lat, f := stats.take()
	all, failed = append(all, lat...), failed+f
	slices.Sort(all)
	rep.Seconds = secs
	rep.Clicks, rep.Failed = len(all), failed
	rep.ClicksPerSec = float64(len(all)) / secs
	rep.P50, rep.P95, rep.P99, rep.Max = percentile(all, 0.5), percentile(all, 0.95), percentile(all, 0.99), percentile(all, 1)
	rep.Moves, rep.Finished, rep.Restarted = int(stats.moves.Load()), int(stats.finished.Load()), int(stats.restarted.Load())
	stats.mu.Lock()
	rep.Problems = maps.Clone(stats.problems)
	stats.mu.Unlock()
	rep.BotCPU, rep.HarnessCPU = 100*(cpu1-m.cpu)/secs, 100*(self1-m.self)/secs
	if len(all) > 0 {
		rep.BotCPUPerClick = 1000 * (cpu1 - m.cpu) / float64(len(all))
	}
	rep.BotRSS, rep.BotMaxRSS = procRSS(pid)
	rep.BotHeap, rep.Goroutines = botHeap(debugAddr)
	if heapProfile != "" {
		if err := os.WriteFile(heapProfile, []byte(httpGet("http://"+debugAddr+"/debug/pprof/heap?gc=1")), 0o644); err != nil {
			return err
		}
	}
	if c1, d1 := botCounters(debugAddr); len(all) > 0 {
		if c1 >= 0 && m.commits >= 0 {
			rep.StoreCommitsPerClk = float64(c1-m.commits) / float64(len(all))
		}
		if d1 >= 0 && m.drawn >= 0 {
			rep.DrawnPerClick = float64(d1-m.drawn) / float64(len(all))
		}
	}
	addRoutes(rep, m.routes, routes1, len(all), secs)
	rep.BotErrors = countErrorLines(m.bot.logPath)
	return nil
}

// addRoutes fills rep's requests from the routes' figures at the start
// and the end of the window: per route, per click (clicks) and counted
// against the global limit per second (secs).
func addRoutes(rep *Report, routes0, routes1 []discordtest.RouteStats, clicks int, secs float64) {
	before := map[string]discordtest.RouteStats{}
	for _, r := range routes0 {
		before[r.Route] = r
	}
	var reqs, counted, bytes int64
	for _, r := range routes1 {
		b := before[r.Route]
		r.Requests, r.Bytes, r.Failed, r.Limited = r.Requests-b.Requests, r.Bytes-b.Bytes, r.Failed-b.Failed, r.Limited-b.Limited
		if r.Requests == 0 {
			continue
		}
		rep.Routes = append(rep.Routes, r)
		bytes += r.Bytes
		if rep.Ingress == "http" && strings.HasSuffix(r.Route, "/callback") {
			// The answers went as HTTP responses, not requests.
			continue
		}
		reqs += r.Requests
		if !r.Exempt {
			counted += r.Requests
		}
		rep.Limited += r.Limited
		rep.FailedRequests += r.Failed
	}
	n := float64(max(clicks, 1))
	rep.Requests = reqs
	rep.RequestsPerClick, rep.CountedPerClick = float64(reqs)/n, float64(counted)/n
	rep.KiBPerClick = float64(bytes) / 1024 / n
	rep.CountedPerSec = float64(counted) / secs
}

// loadGame plays games in one channel until ctx ends: a new table as soon
// as one is over; after a problem (a stall, an error) the host ends the
// table and opens a new one.
func loadGame(ctx context.Context, srv *discordtest.Server, c *loadChannel, ch string, i int, o Options, stats *loadStats) {
	rnd := rand.New(rand.NewPCG(o.Seed, uint64(i)))
	p := &players.Players{Srv: srv, Ch: ch, Rand: rnd, Look: c.current, Wait: c.wait, Answered: stats.answered,
		Moved: func() {
			if stats.measuring.Load() {
				stats.moves.Add(1)
			}
		}}
	for k := range o.Players {
		p.Users = append(p.Users, srv.AddUser(fmt.Sprintf("%s %d", players.Names[k], i), "en-US"))
	}
	if o.PaceMax > 0 {
		p.Pace = func() {
			d := o.PaceMin + time.Duration(rnd.Int64N(int64(o.PaceMax-o.PaceMin)+1))
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		p.Pace() // the games do not all start at once
	}
	for n := 0; ctx.Err() == nil; n++ {
		variant := o.Variants[(i+n)%len(o.Variants)]
		_, err := p.PlayGame(ctx, variant)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			stats.finished.Add(1)
			continue
		}
		stats.restarted.Add(1)
		stats.problem(err)
		_, _ = p.Answer(ctx)(p.Users[0].Command(ch, "qwixx", "end", nil))
	}
}

// freeAddr finds a free loopback port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// procCPU is a process's CPU time in seconds (user and system), from
// /proc (Linux); 0 elsewhere.
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name in parentheses.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ is 100 on Linux
}

// procRSS is a process's resident and peak resident memory in MiB.
func procRSS(pid int) (rss, peak float64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch k {
		case "VmRSS":
			rss = kb / 1024
		case "VmHWM":
			peak = kb / 1024
		}
	}
	return rss, peak
}

// botHeap reads the bot's live heap after a collection (MiB) and its
// goroutines, through its debug server.
func botHeap(addr string) (heap float64, goroutines int) {
	body := httpGet("http://" + addr + "/debug/pprof/heap?gc=1&debug=1")
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "# HeapAlloc = "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			heap = n / (1 << 20)
		}
	}
	first, _, _ := strings.Cut(httpGet("http://"+addr+"/debug/pprof/goroutine?debug=1"), "\n")
	if v, ok := strings.CutPrefix(first, "goroutine profile: total "); ok {
		goroutines, _ = strconv.Atoi(v)
	}
	return heap, goroutines
}

// botCounters reads the bot's store commits and pictures drawn from
// /debug/vars, or -1s.
func botCounters(addr string) (commits, drawn int64) {
	var vars struct {
		Store *struct {
			Commits int64 `json:"commits"`
		} `json:"store"`
		Pictures *struct {
			Drawn int64 `json:"drawn"`
		} `json:"pictures"`
	}
	commits, drawn = -1, -1
	if err := json.Unmarshal([]byte(httpGet("http://"+addr+"/debug/vars")), &vars); err != nil {
		return
	}
	if vars.Store != nil {
		commits = vars.Store.Commits
	}
	if vars.Pictures != nil {
		drawn = vars.Pictures.Drawn
	}
	return
}

// metricCounts are totals read from the bot's /metrics.
type metricCounts struct{ answers, requests, limited float64 }

// scrapeMetrics reads the bot's Prometheus metrics: interaction answers
// Discord took (every kind), REST requests and 429s; zeros if it cannot.
func scrapeMetrics(addr string) metricCounts {
	var m metricCounts
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(httpGet("http://" + addr + "/metrics")))
	if err != nil {
		return m
	}
	sum := func(name string, keep func(*dto.Metric) bool) float64 {
		f := fams[name]
		if f == nil {
			return 0
		}
		t := 0.0
		for _, mt := range f.GetMetric() {
			if keep != nil && !keep(mt) {
				continue
			}
			switch {
			case mt.GetCounter() != nil:
				t += mt.GetCounter().GetValue()
			case mt.GetHistogram() != nil:
				t += float64(mt.GetHistogram().GetSampleCount())
			}
		}
		return t
	}
	taken := func(mt *dto.Metric) bool {
		for _, l := range mt.GetLabel() {
			if l.GetName() == "ok" {
				return l.GetValue() == "true"
			}
		}
		return false
	}
	m.answers = sum("qwixxbot_interaction_answer_seconds", taken)
	m.requests = sum("qwixxbot_discord_requests_total", nil)
	m.limited = sum("qwixxbot_discord_rate_limited_total", nil)
	return m
}

func httpGet(url string) string {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// countErrorLines counts the bot's log lines at level error or above.
func countErrorLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(line, []byte(`"level":"error"`)) || bytes.Contains(line, []byte(`"level":"fatal"`)) || bytes.Contains(line, []byte("DATA RACE")) {
			n++
		}
	}
	return n
}

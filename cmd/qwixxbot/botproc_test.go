package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
)

// Subprocess tests run the real qwixxbot binary, as in production, against
// a discordtest server it reaches through discord.base_url, and can kill it
// (SIGKILL) or stop it (SIGTERM) at any moment.

// botBin is the bot binary, built once per test process.
var botBin struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	race bool
	took time.Duration
	err  error
}

// botRaceEnv overrides whether the binary is built with the race detector
// ("1" or "0"). By default it is built with -race exactly when the tests
// are (raceEnabled): the subprocess then reports its own data races, which
// LogProblems finds. Measured on the shared 2-core machine: building costs
// the same either way (1–3 s with the packages cached by `go test -race`,
// 9 s cold; linking dominates). The -race bot answers in 0.1 s (median)
// and 0.65–1.4 s (95th percentile, loaded machine) against 0.02–0.04 s and
// 0.06–0.15 s without, and the crash test takes 50–65 s with it against
// 25–28 s without; but without it the games end within the first half of
// the kill phase, so later kills hit idle tables. With -race the test fits
// its 60–90 s budget, keeps every table busy until the last kill and checks
// the bot process for data races as well.
const botRaceEnv = "QWIXXTEST_BOT_RACE"

// botBinary builds cmd/qwixxbot once per test process (with -race when the
// tests run with it) and returns the binary's path.
func botBinary(t testing.TB) string {
	t.Helper()
	botBin.once.Do(func() {
		botBin.race = raceEnabled
		switch os.Getenv(botRaceEnv) {
		case "1":
			botBin.race = true
		case "0":
			botBin.race = false
		}
		start := time.Now()
		botBin.dir, botBin.path, botBin.err = buildBot(botBin.race)
		botBin.took = time.Since(start)
	})
	if botBin.err != nil {
		t.Fatalf("building the bot binary: %v", botBin.err)
	}
	return botBin.path
}

// goTool finds the go command of the toolchain running the tests.
func goTool() string {
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	//lint:ignore SA1019 the test binary runs where it was built: its GOROOT is the go that is building it
	if p := filepath.Join(runtime.GOROOT(), "bin", exe); runtime.GOROOT() != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

func buildBot(race bool) (dir, path string, err error) {
	dir, err = os.MkdirTemp("", "qwixxbot-testbin-")
	if err != nil {
		return "", "", err
	}
	path = filepath.Join(dir, "qwixxbot")
	args := []string{"build", "-o", path}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command(goTool(), append(args, ".")...) // the test runs in cmd/qwixxbot
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return dir, "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return dir, path, nil
}

func TestMain(m *testing.M) {
	flag.Parse()
	// Most of these tests spend their time waiting: on a bot process to
	// start or answer, on the fake's clock, on Discord's 5 s between two
	// shards' IDENTIFYs. Four at once (unless -parallel says otherwise)
	// keep both cores busy where the default, GOMAXPROCS, leaves one idle.
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		if err := flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0)))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if botBin.dir != "" {
		os.RemoveAll(botBin.dir)
	}
	os.Exit(code)
}

// botRun is one process of a botProc: when it started, became ready (zero
// if never) and ended (zero while running).
type botRun struct {
	started, ready, ended time.Time
	killed                bool
}

// botProc runs the bot binary against a fake Discord on one database, one
// process at a time. Its stderr (the JSON log) is kept across processes.
type botProc struct {
	t    testing.TB
	srv  *discordtest.Server
	bin  string
	db   string
	dir  string
	env  []string
	logs *procLog
	// endpoint is the bot's interactions endpoint URL in the HTTP mode
	// (ingressEnv), empty on the gateway.
	endpoint string

	mu   sync.Mutex
	cmd  *exec.Cmd
	exit chan struct{} // closed when the current process has exited
	runs []botRun
}

// newBotProc prepares (does not start) the bot on the database file db.
// env adds KEY=VALUE pairs to the bot's environment (QWIXXBOT_GAME_..., or
// QWIXXTEST_CLOCK_RATE=60 to run its clock 60 times faster).
func newBotProc(t testing.TB, srv *discordtest.Server, db string, env ...string) *botProc {
	p := &botProc{t: t, srv: srv, bin: botBinary(t), db: db, dir: t.TempDir(), env: env, logs: &procLog{}}
	if ingressHTTP(env) {
		// The same address for every process of this bot: Discord has
		// one endpoint URL per application.
		addr := freeAddr(t)
		p.endpoint = "http://" + addr + "/interactions"
		p.env = append(slices.Clip(p.env), "QWIXXBOT_DISCORD_INTERACTIONS_ADDR="+addr, "QWIXXBOT_DISCORD_PUBLIC_KEY="+srv.InteractionsPublicKey())
		srv.SetInteractionsEndpoint(p.endpoint)
	}
	t.Cleanup(func() {
		if p.Running() {
			p.Kill()
		}
	})
	return p
}

// ingressEnv selects how the fake Discord hands the bot its interactions
// in the subprocess tests: "http" POSTs them, signed, to the bot's
// interactions endpoint (discord.interactions_addr) and takes its HTTP
// responses as the answers; anything else sends them on the gateway. A
// test's own env (newBotProc) wins over the environment's.
const ingressEnv = "QWIXXTEST_INGRESS"

// ingressHTTP reports whether a bot with env runs in the HTTP mode.
func ingressHTTP(env []string) bool {
	mode := os.Getenv(ingressEnv)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, ingressEnv+"="); ok {
			mode = v
		}
	}
	return mode == "http"
}

// httpIngress is the env that puts a bot in the HTTP mode.
const httpIngress = ingressEnv + "=http"

// freeAddr is a loopback address with a port free at the moment.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startedBot starts a fake Discord with token and the bot binary on the
// database db against it (env as for newBotProc), closed with the test.
func startedBot(t *testing.T, token, db string, env ...string) (*discordtest.Server, *botProc) {
	t.Helper()
	srv, err := discordtest.NewServer(discordtest.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := newBotProc(t, srv, db, env...)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	return srv, p
}

// environ is the bot's environment: the test's without QWIXXBOT_ and
// QWIXXTEST_ variables, then the fake Discord, the database and p.env.
func (p *botProc) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QWIXXBOT_") && !strings.HasPrefix(kv, "QWIXXTEST_") {
			env = append(env, kv)
		}
	}
	return append(env, append([]string{
		"QWIXXBOT_TOKEN=" + p.srv.Token(),
		"QWIXXBOT_DISCORD_BASE_URL=" + p.srv.URL,
		"QWIXXBOT_STORE_PATH=" + p.db,
		"QWIXXBOT_LOG_LEVEL=info",
		"QWIXXBOT_LOG_FORMAT=json",
		"GORACE=halt_on_error=0",
	}, p.env...)...)
}

// Start starts a bot process and waits until it is ready: connected to the
// gateway and its commands registered (its "qwixxbot ready" log line). It
// fails if the process exits first or is not ready within a minute.
func (p *botProc) Start() error {
	p.mu.Lock()
	if p.cmd != nil {
		p.mu.Unlock()
		return errors.New("botProc: already running")
	}
	ready := p.logs.startRun(len(p.runs) + 1)
	cmd := exec.Command(p.bin)
	cmd.Dir = p.dir
	cmd.Env = p.environ()
	cmd.Stdout = p.logs
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		return fmt.Errorf("botProc: start: %w", err)
	}
	exit := make(chan struct{})
	p.cmd, p.exit = cmd, exit
	p.runs = append(p.runs, botRun{started: time.Now()})
	n := len(p.runs) - 1
	go func() {
		_ = cmd.Wait()
		p.mu.Lock()
		p.runs[n].ended = time.Now()
		if p.cmd == cmd {
			p.cmd = nil
		}
		p.mu.Unlock()
		close(exit)
	}()
	p.mu.Unlock()

	select {
	case <-ready:
	case <-exit:
		return fmt.Errorf("botProc: the bot exited before it was ready:\n%s", p.LogTail(20))
	case <-time.After(time.Minute):
		p.Kill()
		return fmt.Errorf("botProc: the bot was not ready within a minute:\n%s", p.LogTail(20))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.srv.WaitConnected(ctx, 1); err != nil {
		return fmt.Errorf("botProc: ready but not connected: %w", err)
	}
	if p.endpoint != "" {
		// As Discord checks an endpoint URL when it is saved: a signed
		// PING answered, a forged one refused.
		if err := p.srv.VerifyEndpoint(ctx, p.endpoint); err != nil {
			return fmt.Errorf("botProc: interactions endpoint: %w", err)
		}
	}
	p.mu.Lock()
	p.runs[n].ready = time.Now()
	p.mu.Unlock()
	return nil
}

// signal sends sig to the running process and waits for it to exit.
func (p *botProc) signal(sig syscall.Signal, wait time.Duration) error {
	p.mu.Lock()
	cmd, exit := p.cmd, p.exit
	if cmd == nil {
		p.mu.Unlock()
		return nil
	}
	n := len(p.runs) - 1
	if sig == syscall.SIGKILL {
		p.runs[n].killed = true
	}
	if p.runs[n].ended.IsZero() {
		// The bot is down from the moment it is told to go.
		p.runs[n].ended = time.Now()
	}
	p.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-exit:
		return nil
	case <-time.After(wait):
		_ = cmd.Process.Kill()
		<-exit
		return fmt.Errorf("botProc: the bot did not exit within %v of %v", wait, sig)
	}
}

// Kill kills the bot with SIGKILL, as a crash would, and waits for it to be
// gone.
func (p *botProc) Kill() {
	if err := p.signal(syscall.SIGKILL, 30*time.Second); err != nil {
		p.t.Error(err)
	}
}

// Stop asks the bot to shut down (SIGTERM) and waits for it, at most 30 s.
func (p *botProc) Stop() error { return p.signal(syscall.SIGTERM, 30*time.Second) }

// Running reports whether a bot process is running.
func (p *botProc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// Runs returns the processes started so far.
func (p *botProc) Runs() []botRun {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]botRun(nil), p.runs...)
}

// UpThrough reports whether one bot process was ready at from and neither
// killed nor stopped before to: an interaction sent in between must have
// been answered.
func (p *botProc) UpThrough(from, to time.Time) bool {
	for _, r := range p.Runs() {
		if !r.ready.IsZero() && !r.ready.After(from) && (r.ended.IsZero() || !r.ended.Before(to)) {
			return true
		}
	}
	return false
}

// Log returns everything the bot processes wrote, the token blanked out.
func (p *botProc) Log() string {
	return strings.ReplaceAll(p.logs.String(), p.srv.Token(), "<token>")
}

// LogTail returns the last n lines of Log.
func (p *botProc) LogTail(n int) string {
	lines := strings.Split(strings.TrimRight(p.Log(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// LogProblems lists the log lines that report a panic (recovered or not), a
// fatal runtime error or a data race (a race as its whole report, so that a
// failure says where it is).
func (p *botProc) LogProblems() (panics, races []string) {
	lines := strings.Split(p.Log(), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.Contains(line, "WARNING: DATA RACE"):
			report := []string{line}
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "==================") {
				i++
				report = append(report, lines[i])
			}
			races = append(races, strings.Join(report, "\n"))
		case strings.HasPrefix(line, "panic:"), strings.HasPrefix(line, "fatal error:"),
			strings.Contains(line, `"panic"`), strings.Contains(line, "panicked"):
			panics = append(panics, line)
		}
	}
	return panics, races
}

// procLog collects the output of the bot processes and signals when the
// current one logs that it is ready.
type procLog struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	ready   chan struct{}
}

// startRun marks the start of process n in the log and returns the channel
// closed once it is ready.
func (l *procLog) startRun(n int) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.partial) > 0 {
		l.buf.Write(l.partial)
		l.buf.WriteString("\n")
		l.partial = nil
	}
	fmt.Fprintf(&l.buf, "=== bot process %d\n", n)
	l.ready = make(chan struct{})
	return l.ready
}

func (l *procLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := l.partial[:i+1]
		l.buf.Write(line)
		if l.ready != nil && bytes.Contains(line, []byte(`"qwixxbot ready"`)) {
			close(l.ready)
			l.ready = nil
		}
		l.partial = l.partial[i+1:]
	}
	return len(b), nil
}

func (l *procLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String() + string(l.partial)
}

package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/store"
)

// shardedBots runs one bot process per shard, each on its own database.
type shardedBots struct {
	t     *testing.T
	srv   *discordtest.Server
	procs []*botProc
	dbs   []string
}

func newShardedBots(t *testing.T, srv *discordtest.Server, dbs []string) *shardedBots {
	sb := &shardedBots{t: t, srv: srv, dbs: dbs}
	for i, db := range dbs {
		// Shards need the gateway: Discord has one endpoint URL for all.
		sb.procs = append(sb.procs, newBotProc(t, srv, db, ingressEnv+"=gateway",
			"QWIXXBOT_DISCORD_SHARD_ID="+strconv.Itoa(i), "QWIXXBOT_DISCORD_SHARD_COUNT="+strconv.Itoa(len(dbs))))
	}
	return sb
}

// start starts every shard at once, as a service manager would: the
// shards space their identifies themselves.
func (sb *shardedBots) start() {
	sb.t.Helper()
	// Processes that stopped a moment ago identified within Discord's 5 s:
	// a restart waits that out, as a service manager's restart delay does.
	if wait := 5*time.Second - time.Since(sb.srv.LastIdentify()); wait > 0 {
		time.Sleep(wait)
	}
	tooSoon := sb.srv.GatewayStats().IdentifyTooSoon
	defer func() {
		if n := sb.srv.GatewayStats().IdentifyTooSoon - tooSoon; n != 0 {
			sb.t.Errorf("%d shards started together identified too soon (Discord takes one IDENTIFY per 5 s here)", n)
		}
	}()
	errs := make(chan error, len(sb.procs))
	for _, p := range sb.procs {
		go func() { errs <- p.Start() }()
	}
	for range sb.procs {
		if err := <-errs; err != nil {
			sb.t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sb.srv.WaitConnected(ctx, len(sb.procs)); err != nil {
		sb.t.Fatal(err)
	}
}

func (sb *shardedBots) stop() {
	sb.t.Helper()
	for _, p := range sb.procs {
		if err := p.Stop(); err != nil {
			sb.t.Fatal(err)
		}
	}
}

// tables lists the channels whose tables each shard's database holds.
func (sb *shardedBots) tables() [][]string {
	sb.t.Helper()
	out := make([][]string, len(sb.dbs))
	for i, db := range sb.dbs {
		st, err := store.Open(db)
		if err != nil {
			sb.t.Fatal(err)
		}
		st.ForEach(func(ch string, blob []byte, err error) error {
			if err == nil {
				out[i] = append(out[i], ch)
			}
			return nil
		})
		st.Close()
	}
	return out
}

// shardedGuilds adds guilds until shards of 2 and of 3 each own at least
// one of them (a guild's shard is its snowflake's creation millisecond
// modulo the count), and a channel in each.
func shardedGuilds(t *testing.T, srv *discordtest.Server) (guilds, chans []string) {
	for i := 0; i < 200; i++ {
		g := srv.AddGuild(fmt.Sprintf("server %d", i), "en-US")
		covered := func(n int) bool {
			seen := map[int]bool{}
			for _, x := range guilds {
				seen[store.ShardOf(x, n)] = true
			}
			return len(seen) == n
		}
		new2 := !coveredBy(guilds, 2, store.ShardOf(g, 2))
		new3 := !coveredBy(guilds, 3, store.ShardOf(g, 3))
		if new2 || new3 {
			guilds = append(guilds, g)
			chans = append(chans, srv.AddChannel(g, "qwixx"))
		}
		if covered(2) && covered(3) && len(guilds) >= 3 {
			return guilds, chans
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("no guilds on every shard: %v", guilds)
	return nil, nil
}

func coveredBy(guilds []string, n, shard int) bool {
	for _, g := range guilds {
		if store.ShardOf(g, n) == shard {
			return true
		}
	}
	return false
}

// TestE2EShardsAndReshard runs the bot as two, then three, then one shard
// processes on their own databases against the fake's sharded gateway:
//   - two shards: games in servers of both shards and in a group DM are
//     each served by exactly the process of their shard (its database
//     holds the table, the other's does not); a SIGKILL of shard 1
//     leaves shard 0's games playing (no click of theirs fails while it is
//     down) and shard 1's games go on after its restart; the shards,
//     started together, identify 5 s apart as Discord requires, and stay
//     within the token's global rate limit (no global 429);
//   - reshard 2 → 3 with games in progress (the real binary, killed at
//     every step first: the sources never change and the next run works),
//     and the games play on to their end on the three new shards;
//   - reshard 3 → 1, and a new game plays on the single shard.
func TestE2EShardsAndReshard(t *testing.T) {
	t.Parallel()
	srv, err := discordtest.NewServer(discordtest.Options{Token: "shard-token", Shards: 2, MaxConcurrency: 1,
		RateLimits: discordtest.RateLimitOptions{Enabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	guilds, chans := shardedGuilds(t, srv)
	guildOf := map[string]string{}
	for i, ch := range chans {
		guildOf[ch] = guilds[i]
	}
	var users []*discordtest.User
	for i := range 2 * (len(chans) + 1) {
		u := srv.AddUser(fmt.Sprintf("%s%d", players.Names[i%2], i), "en-US")
		u.InstallApp()
		users = append(users, u)
	}
	gi := len(chans) // the group DM's players are the last two users
	group := srv.AddGroupDM("friends", users[2*gi], users[2*gi+1])
	chans = append(chans, group)
	guildOf[group] = ""
	pls := map[string]*players.Players{}
	for i, ch := range chans {
		pls[ch] = players.New(srv, ch, users[2*i:2*i+2], rand.New(rand.NewPCG(uint64(i), 3)))
	}

	// Two shards.
	two := newShardedBots(t, srv, []string{filepath.Join(dir, "two0.db"), filepath.Join(dir, "two1.db")})
	two.start()
	type click struct {
		at     time.Time
		shard  int
		ms     float64
		failed bool
	}
	var clicksMu sync.Mutex
	var clicks []click
	var down0Moves atomic.Int64
	var shard1Down atomic.Bool
	moves := map[string]*atomic.Int64{}
	for _, ch := range chans {
		shard := store.ShardOf(guildOf[ch], 2)
		n := &atomic.Int64{}
		moves[ch] = n
		pls[ch].Answered = func(it *discordtest.Interaction) {
			d, ok := it.Latency()
			clicksMu.Lock()
			clicks = append(clicks, click{time.Now(), shard, float64(d) / float64(time.Millisecond), !ok || it.Failed()})
			clicksMu.Unlock()
		}
		pls[ch].Moved = func() {
			n.Add(1)
			if shard == 0 && shard1Down.Load() {
				down0Moves.Add(1)
			}
		}
	}
	play := func(ctx context.Context, on func(ch string) (*players.Result, error)) map[string]error {
		var mu sync.Mutex
		errs := map[string]error{}
		var wg sync.WaitGroup
		for _, ch := range chans {
			wg.Go(func() {
				_, err := on(ch)
				mu.Lock()
				errs[ch] = err
				mu.Unlock()
			})
		}
		wg.Wait()
		return errs
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var killedAt, restartedAt atomic.Int64
	killDone := make(chan struct{})
	go func() {
		defer close(killDone)
		// Kill shard 1 once every game has made a few moves; restart it
		// 3 s later.
		for _, ch := range chans {
			for moves[ch].Load() < 3 && ctx.Err() == nil {
				time.Sleep(20 * time.Millisecond)
			}
		}
		shard1Down.Store(true)
		killedAt.Store(time.Now().UnixNano())
		two.procs[1].Kill()
		time.Sleep(3 * time.Second)
		if err := two.procs[1].Start(); err != nil {
			t.Error(err)
		}
		restartedAt.Store(time.Now().UnixNano())
		shard1Down.Store(false)
	}()
	errs := play(ctx, func(ch string) (*players.Result, error) {
		res, err := pls[ch].PlayGame(ctx, "dice")
		for err != nil && store.ShardOf(guildOf[ch], 2) == 1 && ctx.Err() == nil {
			// A game of the killed shard stalls while it is down; once it is
			// back, it plays on.
			for restartedAt.Load() == 0 && ctx.Err() == nil {
				time.Sleep(50 * time.Millisecond)
			}
			res, err = pls[ch].PlayOn(ctx)
		}
		return res, err
	})
	<-killDone
	for ch, err := range errs {
		if err != nil {
			t.Errorf("channel %s (shard %d): %v", ch, store.ShardOf(guildOf[ch], 2), err)
		}
	}
	// After the restart, one more game on each shard.
	var again sync.WaitGroup
	for shard := range 2 {
		for _, ch := range chans {
			if store.ShardOf(guildOf[ch], 2) == shard && guildOf[ch] != "" {
				again.Go(func() {
					if _, err := pls[ch].PlayGame(ctx, "dice"); err != nil {
						t.Errorf("after the restart, shard %d: %v", shard, err)
					}
				})
				break
			}
		}
	}
	again.Wait()
	killed, restarted := time.Unix(0, killedAt.Load()), time.Unix(0, restartedAt.Load())
	clicksMu.Lock()
	var before, during, after []float64
	for _, c := range clicks {
		if c.shard != 0 {
			continue
		}
		if c.failed && c.at.After(killed) && c.at.Before(restarted) {
			t.Errorf("a click of shard 0 failed while shard 1 was down")
		}
		switch {
		case c.at.Before(killed):
			before = append(before, c.ms)
		case c.at.Before(restarted):
			during = append(during, c.ms)
		default:
			after = append(after, c.ms)
		}
	}
	clicksMu.Unlock()
	if down0Moves.Load() == 0 {
		t.Error("shard 0's games made no move while shard 1 was down")
	}
	t.Logf("shard 0's answers (median ms): %.0f before the kill of shard 1 (%d), %.0f while it was down (%d), %.0f after (%d)",
		median(before), len(before), median(during), len(during), median(after), len(after))
	two.stop()
	held := two.tables()
	for _, ch := range chans {
		want := store.ShardOf(guildOf[ch], 2)
		for i := range 2 {
			if has := slices.Contains(held[i], ch); has != (i == want) {
				t.Errorf("channel %s of shard %d: in shard %d's database: %v", ch, want, i, has)
			}
		}
	}
	rl := srv.RateLimitStats()
	if rl.Limited["global"] != 0 {
		t.Errorf("the shards together hit the global rate limit %d times", rl.Limited["global"])
	}

	// Games in progress, then the bots stop and the data moves to 3 shards.
	two.start()
	stopAt := map[string]*atomic.Int64{}
	pctx, pcancel := context.WithCancel(ctx)
	var running sync.WaitGroup
	for _, ch := range chans {
		n := &atomic.Int64{}
		stopAt[ch] = n
		pls[ch].Moved = func() {
			if n.Add(1) == 4 {
				running.Done()
			}
		}
		running.Add(1)
		go pls[ch].PlayGame(pctx, "dice")
	}
	running.Wait()
	pcancel()
	two.stop()
	threeDBs := []string{filepath.Join(dir, "three0.db"), filepath.Join(dir, "three1.db"), filepath.Join(dir, "three2.db")}
	reshardKilledAtEveryStep(t, two.procs[0], two.dbs, threeDBs)
	reshard(t, two.procs[0], two.dbs, threeDBs)
	three := newShardedBots(t, srv, threeDBs)
	held = three.tables()
	for _, ch := range chans {
		want := store.ShardOf(guildOf[ch], 3)
		if !slices.Contains(held[want], ch) {
			t.Errorf("after resharding to 3, channel %s is not in shard %d's database", ch, want)
		}
	}
	three.start()
	for ch, err := range play(ctx, func(ch string) (*players.Result, error) { return pls[ch].PlayOn(ctx) }) {
		if err != nil {
			t.Errorf("three shards, channel %s: %v", ch, err)
		}
	}
	three.stop()

	// Back to one shard: everything in one file, and a new game plays.
	oneDB := []string{filepath.Join(dir, "one.db")}
	reshard(t, two.procs[0], threeDBs, oneDB)
	one := newShardedBots(t, srv, oneDB)
	if held := one.tables(); len(held[0]) < len(chans) {
		t.Errorf("one shard holds %d tables, want %d", len(held[0]), len(chans))
	}
	one.start()
	if _, err := pls[chans[0]].PlayGame(ctx, "cards"); err != nil {
		t.Errorf("one shard: %v", err)
	}
	one.stop()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// reshard runs the binary's reshard command and fails the test unless it
// succeeds.
func reshard(t *testing.T, p *botProc, from, to []string) {
	t.Helper()
	cmd := exec.Command(p.bin, "reshard", "-from", strings.Join(from, ","), "-to", strings.Join(to, ","))
	cmd.Env = p.environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reshard: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "checksum") {
		t.Errorf("reshard said %q", out)
	}
}

// reshardKilledAtEveryStep SIGKILLs the reshard command at each of its
// steps: the sources stay byte for byte as they were.
func reshardKilledAtEveryStep(t *testing.T, p *botProc, from, to []string) {
	t.Helper()
	sum := func() [sha256.Size]byte {
		h := sha256.New()
		for _, f := range from {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(b)
		}
		return [sha256.Size]byte(h.Sum(nil))
	}
	before := sum()
	for _, step := range []string{"open sources", "create targets", "copy", "close targets", "verify targets", "rename", "renamed 0", "renamed 1"} {
		cmd := exec.Command(p.bin, "reshard", "-from", strings.Join(from, ","), "-to", strings.Join(to, ","))
		cmd.Env = append(p.environ(), reshardStopEnv+"="+step)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("reshard killed at %q: %v\n%s", step, err, out)
		}
		if sum() != before {
			t.Fatalf("a reshard killed at %q changed its sources", step)
		}
	}
}

// The one deployment not supported, the HTTP interactions endpoint with
// several shards, is refused at start with what to do, before anything
// connects or opens the database.
func TestStartRefusesEndpointWithShards(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "bot.db")
	cmd := exec.Command(botBinary(t))
	cmd.Env = append(os.Environ(), "QWIXXBOT_TOKEN=x", "QWIXXBOT_DISCORD_SHARD_COUNT=2",
		"QWIXXBOT_DISCORD_INTERACTIONS_ADDR=127.0.0.1:0",
		"QWIXXBOT_DISCORD_PUBLIC_KEY=3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		"QWIXXBOT_STORE_PATH="+db, "QWIXXBOT_DISCORD_BASE_URL=http://127.0.0.1:1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "with several shards leave discord.interactions_addr empty") {
		t.Fatalf("exit %v, output:\n%s", err, out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("the refused start created the database")
	}
}

package bot

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/workers"
	"github.com/qwixxbot/qwixxbot/game"
)

// timerIndex mirrors every stored table's deadline in memory, so that Tick
// finds due timers without reading the database.
type timerIndex struct {
	mu sync.Mutex
	m  map[string]timerEntry
	// live holds the variant of every channel's game in play, timed or
	// not (LiveTables).
	live map[string]game.Variant
}

type timerEntry struct {
	deadline time.Time
	remindAt time.Time // zero: the default lead before the deadline
	reminded bool
}

func (x *timerIndex) set(channelID string, t *Table) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.m == nil {
		x.m, x.live = map[string]timerEntry{}, map[string]game.Variant{}
	}
	if t != nil && t.Stage == StagePlaying && t.Game != nil {
		x.live[channelID] = t.Game.Variant()
	} else {
		delete(x.live, channelID)
	}
	if t == nil || t.Deadline.IsZero() || t.Stage != StagePlaying {
		delete(x.m, channelID)
		return
	}
	x.m[channelID] = timerEntry{deadline: t.Deadline, remindAt: t.RemindAt, reminded: t.Reminded}
}

// due lists channels whose timer ran out, and those due a reminder.
func (x *timerIndex) due(now time.Time, before time.Duration) (expired, remind []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for ch, e := range x.m {
		switch {
		case !now.Before(e.deadline):
			expired = append(expired, ch)
		case !e.reminded && !now.Before(remindTime(e.deadline, e.remindAt, before)):
			remind = append(remind, ch)
		}
	}
	slices.Sort(expired)
	slices.Sort(remind)
	return expired, remind
}

// remindTime is when an action's reminder is due: at remindAt, or for a
// table stored before that was kept, before ahead of the deadline.
func remindTime(deadline, remindAt time.Time, before time.Duration) time.Time {
	if !remindAt.IsZero() {
		return remindAt
	}
	return deadline.Add(-before)
}

// Start loads every stored table: it restores the timers and brings every
// channel that shows a game to its stored state (reconcile). Call it once before
// taking interactions.
func (b *Bot) Start() error {
	var repost []string
	misfiled := map[string]string{}
	err := b.st.ForEach(b.life, func(channelID string, blob []byte, err error) error {
		if err != nil {
			raw, _ := session.DamagedBytes(err)
			b.unreadable(channelID, raw, err)
			return nil
		}
		t, err := session.Decode(blob)
		if err != nil {
			b.unreadable(channelID, blob, err)
			return nil
		}
		if t.ChannelID != "" && t.ChannelID != channelID {
			misfiled[channelID] = t.ChannelID // put aside below, outside the walk
			return nil
		}
		b.timers.set(channelID, t)
		if t.Shown.Unsure {
			b.force.Store(channelID, true)
		}
		if t.Game != nil || t.Shown.ResultsLive || t.Shown.LobbyPending {
			// The channel may show an older state than the stored one (a
			// crash or a failed request came between saving the game and
			// showing it): the reconciler compares and sends what is
			// missing, nothing when the channel is current.
			repost = append(repost, channelID)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bot: load tables: %w", err)
	}
	for ch, storedFor := range misfiled {
		if err := b.misfiled(b.life, ch, storedFor); err != nil {
			return err
		}
	}
	for _, ch := range repost {
		b.refresh.kick(b, ch)
	}
	return nil
}

// Run calls Tick every interval until ctx ends.
func (b *Bot) Run(ctx context.Context, interval time.Duration) {
	tk := time.NewTicker(interval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			b.Tick()
		}
	}
}

// Tick handles every due timer: it sends reminders and, when an action's
// time has run out, passes for everybody still undecided (RULES P1).
func (b *Bot) Tick() {
	now := b.opt.Now()
	if last := b.lastSweep.Load(); now.Sub(time.Unix(0, last)) >= 5*time.Second {
		b.lastSweep.Store(now.UnixNano())
		b.sweep()
		b.pruneTokens(now)
	}
	b.sweepHistory(now)
	b.sweepDue(now)
	expired, remind := b.timers.due(now, b.opt.ReminderBefore)
	for _, ch := range remind {
		b.remind(ch, now)
	}
	for _, ch := range expired {
		b.expire(ch, now)
	}
}

// remind marks the action as reminded: the reconciler posts the reminder,
// mentioning the players who still have to decide, and deletes it when
// the action ends.
func (b *Bot) remind(channelID string, now time.Time) {
	unlock, err := b.withTable(b.life, channelID, func(t *Table) (*Table, error) {
		if t == nil || t.Game == nil || t.Stage != StagePlaying || t.Reminded || now.Before(remindTime(t.Deadline, t.RemindAt, b.opt.ReminderBefore)) {
			return nil, errRefused
		}
		t.Reminded = true
		return t, nil
	})
	unlock()
	if err != nil {
		if _, ok := asUnreadable(err); !ok && err != errRefused {
			b.log.Error().Err(err).Str("channel", channelID).Msg("reminder")
		}
		return
	}
	b.refresh.kick(b, channelID)
}

// expire passes for every undecided player when the timer ran out; where
// the rules force an action, the least helpful legal one is taken and
// nothing is crossed (game.TimeoutMove).
func (b *Bot) expire(channelID string, now time.Time) {
	unlock, err := b.withTable(b.life, channelID, func(t *Table) (*Table, error) {
		if t == nil {
			return nil, errRefused
		}
		tm := b.timing(t)
		tm.Now = now
		due, err := t.Expire(tm)
		logProblems(b.log, t)
		if err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
		if !due {
			return nil, errRefused
		}
		return t, nil
	})
	unlock()
	if err != nil {
		if _, ok := asUnreadable(err); !ok && err != errRefused {
			b.log.Error().Err(err).Str("channel", channelID).Msg("timer")
		}
		return
	}
	b.log.Info().Str("channel", channelID).Msg("turn timer ran out")
	b.refresh.kick(b, channelID)
}

// refresher runs, per surface (a channel's messages, one player's hand
// view), one worker at a time (a goroutine of the workers pool: spawn),
// coalescing requests that arrive while it works. Surfaces run apart: a
// slow request of one (a hand view's edit held by Discord) never holds up
// another (the channel's next turn).
type refresher struct {
	mu      sync.Mutex
	pending map[string]bool
	running map[string]bool
	// idle is signalled when the last worker ends (Idle waits on it). A
	// WaitGroup would not do: workers start while Idle waits (a click
	// arriving meanwhile), which a WaitGroup forbids once its count is
	// zero.
	idle *sync.Cond
	// waiters holds, by surface key, the channels its next kick closes
	// (nextKick).
	waiters map[string]map[chan struct{}]struct{}
}

// channelKey is the refresher's key of a channel's messages.
func channelKey(channelID string) string { return "channel/" + channelID }

// nextKick returns a channel closed by the next request to refresh key
// (run) from now on, and stop, which ends the wait.
func (f *refresher) nextKick(key string) (kicked <-chan struct{}, stop func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.waiters == nil {
		f.waiters = map[string]map[chan struct{}]struct{}{}
	}
	if f.waiters[key] == nil {
		f.waiters[key] = map[chan struct{}]struct{}{}
	}
	ch := make(chan struct{})
	f.waiters[key][ch] = struct{}{}
	return ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if w, ok := f.waiters[key]; ok {
			delete(w, ch)
			if len(w) == 0 {
				delete(f.waiters, key)
			}
		}
	}
}

// kick asks for the channel's messages and its players' open hand views
// to be brought up to date, each by its own worker.
func (f *refresher) kick(b *Bot, channelID string) {
	f.run(channelKey(channelID), func() { b.refreshChannel(channelID) })
	for user := range b.hands.open(channelID) {
		f.run("hand/"+channelID+"/"+user, func() { b.refreshHandOf(channelID, user) })
	}
}

// run runs work for the surface key now, or once more after the run in
// progress when there is one.
func (f *refresher) run(key string, work func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pending == nil {
		f.pending, f.running = map[string]bool{}, map[string]bool{}
	}
	f.pending[key] = true
	for ch := range f.waiters[key] {
		close(ch)
	}
	delete(f.waiters, key)
	if f.running[key] {
		return
	}
	f.running[key] = true
	spawn(func() {
		for {
			f.mu.Lock()
			if !f.pending[key] {
				delete(f.running, key)
				if len(f.running) == 0 && f.idle != nil {
					f.idle.Broadcast()
				}
				f.mu.Unlock()
				return
			}
			delete(f.pending, key)
			f.mu.Unlock()
			work()
		}
	})
}

// spawn runs the bot's units of work that go on while the caller goes
// on (a surface's reconcile, an edit in flight, a review's drawing): on
// the workers pool, whose goroutines keep the stacks they grew.
// BenchmarkClickOnGoroutine sets it to a go statement to compare.
var spawn = workers.Go

// wait blocks until no worker runs.
func (f *refresher) wait() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.idle == nil {
		f.idle = sync.NewCond(&f.mu)
	}
	for len(f.running) > 0 {
		f.idle.Wait()
	}
}

// LiveTables counts the games in play by variant (dice, cards, jokers).
func (b *Bot) LiveTables() map[string]int {
	x := &b.timers
	x.mu.Lock()
	defer x.mu.Unlock()
	out := map[string]int{}
	for _, v := range x.live {
		out[v.String()]++
	}
	return out
}

// Refreshing counts the surfaces (a channel's messages, a player's hand
// view) whose worker is running or waiting to run: the reconciler's queue.
func (b *Bot) Refreshing() (running, pending int) {
	f := &b.refresh
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.running), len(f.pending)
}

// Idle waits until no table message refresh is running (tests and shutdown).
func (b *Bot) Idle() { b.refresh.wait() }

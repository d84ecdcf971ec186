package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// The crash test: the real bot binary, six tables in six channels (three
// dice games, two card games, one joker game) played by simulated users
// through the buttons, and a killer that SIGKILLs the bot at random moments
// and restarts it on the same database. See TestCrashKillsLoseNoMove.

const (
	crashKills = 20 // SIGKILLs per run
	// crashCap bounds the whole test: past it the test fails, saying where
	// each table was, rather than hang.
	crashCap = 150 * time.Second
	// crashDeadline is how long the fake Discord gives the bot to answer an
	// interaction (discordtest's default, Discord's 3 s).
	crashDeadline = 3 * time.Second
	// crashCurrentWithin is how long after the last restart every table
	// must show its current state (check 4).
	crashCurrentWithin = 5 * time.Second
	// crashSeedEnv sets the seed of the kill schedule and the players'
	// choices (default 1): QWIXXTEST_CRASH_SEED=7 go test -run Crash.
	crashSeedEnv = "QWIXXTEST_CRASH_SEED"
)

// crashTables are the tables played at once.
var crashTables = []struct {
	variant string
	players int
}{{"dice", 3}, {"dice", 2}, {"dice", 2}, {"cards", 2}, {"cards", 3}, {"jokers", 2}}

// crashRun is the state shared by the drivers, the killer and the checks.
type crashRun struct {
	t     *testing.T
	srv   *discordtest.Server
	proc  *botProc
	db    string
	ctx   context.Context // ends at crashCap
	start time.Time
	seed  uint64

	// epoch ends whenever the bot is killed, becomes ready or the drivers
	// are paused: waits for the table to change give up then.
	epochMu  sync.Mutex
	epochCtx context.Context
	epochEnd context.CancelFunc
	// lifeCtx ends when the running bot is killed: nobody waits for
	// answers from a dead bot. up is closed while a bot is ready.
	lifeCtx context.Context
	lifeEnd context.CancelFunc
	up      chan struct{}

	mu      sync.Mutex
	cond    *sync.Cond
	paused  atomic.Bool // set with the epoch ended, under epochMu
	parked  map[*crashDriver]bool
	drivers []*crashDriver

	itMu      sync.Mutex
	its       []sentInteraction
	latencies []time.Duration // of the answers

	failMu   sync.Mutex
	failures []string
	figures  crashFigures
}

// crashFigures are the run's counts, printed in one summary line.
type crashFigures struct {
	kills, acked, attempts, lost, phantom, corrupt, checks int
	staleProbes, staleAnswered, staleAccepted, stalls      int
	staleWaiting                                           int
}

// sentInteraction is an interaction a simulated user started, for the
// final count of those left unanswered while the bot was up.
type sentInteraction struct {
	it            *discordtest.Interaction
	before, after time.Time
	what          string
}

// attemptState is what became of a click that makes a move.
type attemptState int

const (
	attPending attemptState = iota // no answer yet (or never seen)
	attAcked                       // "You chose …" / "You passed."
	attFailed                      // "interaction failed": applied or not
	attRefused                     // answered otherwise: nothing changed
)

// crashAttempt is one click that makes a move.
type crashAttempt struct {
	key   string // player|action|details, as recordKey writes record moves
	where string // the table message it was read from
	state attemptState
	note  string
	lost  bool                     // reported lost already
	it    *discordtest.Interaction // the click, while pending
}

// resolve settles a pending attempt by its interaction's fate: failed, or
// answered with a confirmation. Other answers leave it pending: a hand
// view answered with "✅ You chose …" may have been edited since.
func (a *crashAttempt) resolve() {
	if a.state != attPending || a.it == nil {
		return
	}
	if a.it.Failed() {
		a.state = attFailed
	} else if m, ok := a.it.Response(); ok && a.it.CallbackType() != 0 && acked(a.it, m) {
		a.state = attAcked
	}
}

func (c *crashRun) fail(format string, args ...any) {
	msg := fmt.Sprintf("[%5.1fs] ", time.Since(c.start).Seconds()) + fmt.Sprintf(format, args...)
	c.failMu.Lock()
	c.failures = append(c.failures, msg)
	c.failMu.Unlock()
	c.t.Error(msg)
}

func (c *crashRun) count(f func(*crashFigures)) {
	c.failMu.Lock()
	f(&c.figures)
	c.failMu.Unlock()
}

// epoch returns the current epoch, and whether the drivers are paused (if
// not, the epoch ends when they are).
func (c *crashRun) epoch() (context.Context, bool) {
	c.epochMu.Lock()
	defer c.epochMu.Unlock()
	return c.epochCtx, c.paused.Load()
}

func (c *crashRun) bumpLocked() {
	if c.epochEnd != nil {
		c.epochEnd()
	}
	c.epochCtx, c.epochEnd = context.WithCancel(c.ctx)
}

// ready notes that the bot is up.
func (c *crashRun) ready() {
	c.epochMu.Lock()
	defer c.epochMu.Unlock()
	close(c.up)
	c.bumpLocked()
}

// killed notes that the bot is dead.
func (c *crashRun) killed() {
	c.epochMu.Lock()
	defer c.epochMu.Unlock()
	if c.lifeEnd != nil {
		c.lifeEnd()
	}
	c.lifeCtx, c.lifeEnd = context.WithCancel(c.ctx)
	c.up = make(chan struct{})
	c.bumpLocked()
}

func (c *crashRun) life() context.Context {
	c.epochMu.Lock()
	defer c.epochMu.Unlock()
	return c.lifeCtx
}

// waitUp waits until the bot is up (a person tries again a little later),
// or the drivers are paused.
func (c *crashRun) waitUp() {
	for {
		c.epochMu.Lock()
		up, ep, paused := c.up, c.epochCtx, c.paused.Load()
		c.epochMu.Unlock()
		if paused {
			return
		}
		select {
		case <-up:
			return
		case <-c.ctx.Done():
			return
		case <-ep.Done():
		}
	}
}

// gate parks the driver while the drivers are paused; false means the
// test's time is up.
func (c *crashRun) gate(d *crashDriver) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.paused.Load() && c.ctx.Err() == nil {
		c.parked[d] = true
		c.cond.Broadcast()
		c.cond.Wait()
	}
	c.parked[d] = false
	return c.ctx.Err() == nil
}

// pause stops the drivers after their current step and waits until they
// are all parked or done.
func (c *crashRun) pause() {
	c.epochMu.Lock()
	c.paused.Store(true)
	c.bumpLocked()
	c.epochMu.Unlock()
	slow := time.AfterFunc(30*time.Second, func() {
		c.t.Logf("the drivers take long to rest: %s", c.where())
	})
	defer slow.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.ctx.Err() == nil {
		all := true
		for _, d := range c.drivers {
			if !c.parked[d] && !d.isDone() {
				all = false
			}
		}
		if all {
			return
		}
		c.cond.Wait()
	}
}

func (c *crashRun) resume() {
	c.mu.Lock()
	c.paused.Store(false)
	c.cond.Broadcast()
	c.mu.Unlock()
}

// wake lets waiters on c.cond look again (a driver finished, the time is up).
func (c *crashRun) wake() {
	c.mu.Lock()
	c.cond.Broadcast()
	c.mu.Unlock()
}

// outcome is how an interaction ended for the user.
type outcome int

const (
	outAnswered  outcome = iota
	outFailed            // "interaction failed" (or no answer before the cap)
	outGone              // the client could not even send it (button gone)
	outAbandoned         // the bot was killed while the user waited
)

// send starts an interaction and waits for its answer, or for the bot to
// be killed (the interaction is then left to fail, or to be answered by a
// request the bot sent just before it died).
func (c *crashRun) send(what string, do func() (*discordtest.Interaction, error)) (*discordtest.Message, outcome, *discordtest.Interaction) {
	life := c.life()
	before := time.Now()
	it, err := do()
	after := time.Now()
	if err != nil {
		return nil, outGone, nil
	}
	c.itMu.Lock()
	c.its = append(c.its, sentInteraction{it: it, before: before, after: after, what: what})
	c.itMu.Unlock()
	ctx, cancel := context.WithTimeout(life, crashDeadline+20*time.Second)
	defer cancel()
	m, err := it.WaitResponse(ctx)
	if err == nil && it.CallbackType() == 6 {
		// A deferred update (the answer was late for the deadline): the
		// answer follows through the token, an edit of the clicked
		// message or a private follow-up.
		if err = it.WaitDeferred(ctx); err == nil {
			if f := it.Followups(); len(f) > 0 && !it.EditedOriginal() {
				m = f[len(f)-1]
			} else if cur, ok := it.Response(); ok {
				m = cur
			}
		}
	}
	switch {
	case err == nil:
		c.itMu.Lock()
		c.latencies = append(c.latencies, time.Since(after))
		c.itMu.Unlock()
		return m, outAnswered, it
	case errors.Is(err, discordtest.ErrInteractionFailed):
		return nil, outFailed, it
	}
	return nil, outAbandoned, it
}

// acked tells whether an answer confirms a move: a private "You chose …"
// or "You passed.", or, for a click on the live table message, the bot's
// update of that very message (callback type 7), which it answers only
// for an accepted move (refusals are private).
func acked(it *discordtest.Interaction, m *discordtest.Message) bool {
	if it != nil && it.CallbackType() != 5 {
		// What the player saw as the answer, though the bot may have
		// edited that message since (a hand view following the game).
		if a, ok := it.Answered(); ok && players.IsAck(a.Content) {
			return true
		}
		// After a deferred update, a private answer is a follow-up.
		for _, f := range it.Followups() {
			if f.Ephemeral() && players.IsAck(f.Content) {
				return true
			}
		}
	}
	// An update of the public message the move was clicked on: directly
	// (7), or after a deferred update (6) through the token.
	return m != nil && (players.IsAck(m.Content) || (it != nil && !m.Ephemeral() &&
		(it.CallbackType() == 7 || it.CallbackType() == 6 && it.EditedOriginal())))
}

// chanView follows the newest table (or results) message of a channel
// through a watcher: every version of every public message, once.
type chanView struct {
	w     *discordtest.Watcher
	botID string
	cur   *discordtest.Message
	seq   int
}

func newChanView(srv *discordtest.Server, ch string) *chanView {
	return &chanView{w: srv.Watch(ch), botID: srv.BotUserID()}
}

func isTableOrResults(m *discordtest.Message) bool {
	return players.IDWith(m, "sheet") != "" || players.IDWith(m, "again") != ""
}

func (v *chanView) apply(ev discordtest.MessageEvent) {
	m := ev.Message
	if m.AuthorID != v.botID || m.Ephemeral() {
		return
	}
	switch {
	case ev.Kind == discordtest.Created && isTableOrResults(m):
		v.cur = m
		v.seq++
	case v.cur != nil && m.ID == v.cur.ID:
		v.cur = m
		v.seq++
	}
}

// drain applies the events that are there.
func (v *chanView) drain() *discordtest.Message {
	for {
		ev, err := v.w.NextTimeout(0)
		if err != nil {
			return v.cur
		}
		v.apply(ev)
	}
}

// waitChange waits until the newest table message changes from seq0, ctx
// ends or timeout passes; it reports a timeout.
func (v *chanView) waitChange(ctx context.Context, seq0 int, timeout time.Duration) (timedOut bool) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v.drain()
	for v.seq == seq0 {
		ev, err := v.w.Next(tctx)
		if err != nil {
			return ctx.Err() == nil
		}
		v.apply(ev)
	}
	return false
}

// crashDriver plays one table: it reads the newest table message, picks a
// player who can act and makes a legal move through the buttons, as a
// person would, whatever happens to the bot.
type crashDriver struct {
	c       *crashRun
	name    string
	variant string
	ch      string
	users   []*discordtest.User
	byID    map[string]*discordtest.User
	rnd     *rand.Rand
	view    *chanView // the driver's
	check   *chanView // the checker's

	mu       sync.Mutex
	attempts []*crashAttempt
	old      []oldTable
	results  *discordtest.Message
	over     time.Duration // when the results were seen
	done     bool
	finish   bool
	doing    string // what the driver does now, for reports

	nothing map[string]bool    // message/version/user: nothing to decide there
	shadow  map[string]*[4]int // the last number crossed per row, by player, as far as acknowledged
	crossed map[string]int     // the turn of the player's last acknowledged action-1 cross
}

// oldTable is a table message as it was, for clicks on outdated buttons.
type oldTable struct {
	turn  int
	phase game.Phase
	id    string
	ids   []string
}

// does notes what the driver does now.
func (d *crashDriver) does(format string, args ...any) {
	s := fmt.Sprintf("[%5.1fs] ", time.Since(d.c.start).Seconds()) + fmt.Sprintf(format, args...)
	d.mu.Lock()
	d.doing = s
	d.mu.Unlock()
}

func (d *crashDriver) isDone() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.done
}

func (d *crashDriver) finishing() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.finish
}

var (
	turnRe    = regexp.MustCompile(`\*\*Turn (\d+)\*\*`)
	numberRe  = regexp.MustCompile(`\d+`)
	mentionRe = regexp.MustCompile(`<@(\d+)>`)
)

// tableState reads the turn and phase a table message shows.
func tableState(content string) (turn int, phase game.Phase) {
	if m := turnRe.FindStringSubmatch(content); m != nil {
		turn, _ = strconv.Atoi(m[1])
	}
	switch {
	case strings.Contains(content, "everybody may cross the sum of the white dice"):
		phase = game.PhaseWhite
	case strings.Contains(content, "may add one white die"):
		phase = game.PhaseColor
	case strings.Contains(content, "takes cards from the display"):
		phase = game.PhaseTake
	case strings.Contains(content, "the number for everyone is"):
		phase = game.PhaseNumber
	case strings.Contains(content, "plays 1 to 3 cards"):
		phase = game.PhasePlay
	}
	return turn, phase
}

// waitingIDs are the user IDs on a table message's "Waiting for:" line.
func waitingIDs(content string) []string {
	var ids []string
	for _, line := range strings.Split(content, "\n") {
		if strings.HasPrefix(line, "Waiting for:") {
			for _, m := range mentionRe.FindAllStringSubmatch(line, -1) {
				ids = append(ids, m[1])
			}
		}
	}
	return ids
}

func (d *crashDriver) run() {
	defer func() {
		d.mu.Lock()
		d.done = true
		d.mu.Unlock()
		d.c.wake()
	}()
	for d.does("at the gate"); d.c.gate(d); d.does("at the gate") {
		ep, paused := d.c.epoch()
		if paused {
			continue // to the gate
		}
		tbl := d.view.drain()
		seq := d.view.seq
		if tbl == nil {
			d.does("waiting for a table message")
			d.view.waitChange(ep, seq, 10*time.Second)
			continue
		}
		if players.IDWith(tbl, "again") != "" {
			d.mu.Lock()
			d.results, d.over = tbl, time.Since(d.c.start)
			d.mu.Unlock()
			return
		}
		s := d.act(tbl)
		d.does("after step %d on %s v%d", s, tbl.ID, tbl.Version)
		switch s {
		case stepMoved:
			// Wait for the table to show the move (or the bot to go).
			if d.view.waitChange(ep, seq, 20*time.Second) && d.c.proc.UpThrough(time.Now().Add(-20*time.Second), time.Now()) {
				d.c.count(func(f *crashFigures) { f.stalls++ })
				d.c.fail("%s: the table message did not change within 20 s of an acknowledged move, the bot up all along (last: %q)", d.name, tbl.Content)
			}
		case stepRetry:
			d.c.waitUp() // a person tries again once the bot answers again
		case stepGone:
			d.view.waitChange(ep, seq, 2*time.Second)
		case stepNobody:
			if d.view.waitChange(ep, seq, 20*time.Second) && d.c.proc.UpThrough(time.Now().Add(-20*time.Second), time.Now()) {
				d.c.count(func(f *crashFigures) { f.stalls++ })
				d.c.fail("%s: nobody can act on the newest table message and it has not changed for 20 s, the bot up all along: %q", d.name, tbl.Content)
			}
		}
	}
}

// step is what came of one attempt to act.
type step int

const (
	stepMoved  step = iota // a move was acknowledged
	stepRetry              // no answer or refused: read the table again
	stepGone               // the button was gone
	stepNobody             // nobody can act on this message
)

// act lets one player who can act on tbl do so.
func (d *crashDriver) act(tbl *discordtest.Message) step {
	turn, phase := tableState(tbl.Content)
	if phase == 0 {
		return stepNobody
	}
	where := fmt.Sprintf("turn %d %s (message %s v%d)", turn, phase, tbl.ID, tbl.Version)
	d.remember(turn, phase, tbl)
	var cands []*discordtest.User
	waiting := waitingIDs(tbl.Content)
	for _, id := range waiting {
		if u := d.byID[id]; u != nil {
			cands = append(cands, u)
		}
	}
	d.rnd.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, u := range d.users {
		if !slices.Contains(waiting, u.ID) {
			cands = append(cands, u)
		}
	}
	moved := false
	for _, u := range cands {
		k := fmt.Sprintf("%s/%d/%s", tbl.ID, tbl.Version, u.ID)
		if d.nothing[k] {
			continue
		}
		var s step
		nothing := false
		if phase == game.PhasePlay {
			s, nothing = d.play(u, tbl, turn, where)
		} else {
			s, nothing = d.decide(u, tbl, turn, phase, where)
		}
		switch {
		case nothing:
			d.nothing[k] = true
		case s == stepMoved && phase.Simultaneous():
			// The others decide on the same message meanwhile.
			d.nothing[k], moved = true, true
		default:
			return s
		}
	}
	if moved {
		return stepMoved
	}
	return stepNobody
}

// remember keeps the table message's move buttons for stale clicks later.
func (d *crashDriver) remember(turn int, phase game.Phase, tbl *discordtest.Message) {
	var ids []string
	for _, id := range tbl.CustomIDs() {
		if _, ok := moveKey("x", id); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if n := len(d.old); n > 0 && d.old[n-1].id == tbl.ID {
		return
	}
	d.old = append(d.old, oldTable{turn: turn, phase: phase, id: tbl.ID, ids: ids})
}

// decide makes u's decision in a phase with buttons (all but card action
// 3): straight from the public table (passing, or taking cards), or from
// u's private sheet, which offers exactly u's legal moves. nothing reports
// that u has nothing to decide on this message.
func (d *crashDriver) decide(u *discordtest.User, tbl *discordtest.Message, turn int, phase game.Phase, where string) (s step, nothing bool) {
	direct := ""
	switch {
	case phase == game.PhaseTake && (d.finishing() || d.rnd.IntN(2) == 0):
		if ids := idsWith(tbl, "take"); len(ids) > 0 {
			direct = ids[d.rnd.IntN(len(ids))]
		}
	case d.finishing() || d.rnd.IntN(6) == 0:
		direct = players.IDWith(tbl, "pass")
	}
	if direct != "" {
		return d.move(u, tbl, direct, "", turn, where)
	}
	sheet, out, _ := d.c.send(d.name+" sheet "+u.Name, func() (*discordtest.Interaction, error) { return u.Click(tbl, players.IDWith(tbl, "sheet")) })
	switch {
	case out == outGone:
		return stepGone, false
	case out != outAnswered:
		return stepRetry, false
	case strings.Contains(sheet.Content, "Nothing to decide"):
		return stepRetry, true
	case len(sheet.CustomIDs()) == 0:
		return stepRetry, false // refused (an outdated message?): read the table again
	}
	return d.move(u, sheet, d.choose(u, sheet, turn, phase), "", turn, where)
}

// choose picks one of the sheet's moves as a careful player would: take
// any cards; cross only where few numbers are skipped; avoid a misthrow.
func (d *crashDriver) choose(u *discordtest.User, sheet *discordtest.Message, turn int, phase game.Phase) string {
	var pass, best string
	var takes []string
	bestSkip := 99
	for _, id := range sheet.CustomIDs() {
		key, ok := moveKey(u.Name, id)
		if !ok {
			continue
		}
		f := strings.Split(key, "|")
		switch f[1] {
		case "pass":
			pass = id
		case "take":
			takes = append(takes, id)
		case "white", "number", "color":
			c, _ := sheet.Component(id)
			n, _ := strconv.Atoi(numberRe.FindString(c.Label))
			col, err := game.ParseColor(f[2])
			if err != nil || n == 0 || lastNumber(col, n) {
				continue // no locks: the game ends when the drivers finish it
			}
			if s := d.skip(u.Name, col, n); s < bestSkip {
				best, bestSkip = id, s
			}
		}
	}
	switch {
	case len(takes) > 0:
		return takes[d.rnd.IntN(len(takes))]
	case best == "":
		return pass
	case pass == "":
		return best
	}
	limit := 1
	if phase == game.PhaseColor {
		limit = 2
		d.mu.Lock()
		if d.crossed[u.Name] != turn {
			limit = 12 // the active player crossed nothing yet: no misthrow
		}
		d.mu.Unlock()
	}
	if bestSkip <= limit+d.rnd.IntN(2) {
		return best
	}
	return pass
}

// lastNumber tells the number that locks row c.
func lastNumber(c game.Color, n int) bool {
	return c.Ascending() && n == 12 || !c.Ascending() && n == 2
}

// skip counts the numbers crossing n in row c would skip for player, as
// far as the driver knows the sheet.
func (d *crashDriver) skip(player string, c game.Color, n int) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	last := d.lastCrossed(player)[c]
	if c.Ascending() {
		return n - last - 1
	}
	return last - n - 1
}

func (d *crashDriver) lastCrossed(player string) *[4]int {
	s := d.shadow[player]
	if s == nil {
		s = &[4]int{1, 1, 13, 13}
		d.shadow[player] = s
	}
	return s
}

// cross notes an acknowledged cross in the driver's picture of the sheet.
func (d *crashDriver) cross(player string, c game.Color, n int) {
	s := d.lastCrossed(player)
	if c.Ascending() {
		s[c] = max(s[c], n)
	} else {
		s[c] = min(s[c], n)
	}
}

// move clicks a button that makes a move and records the attempt: key is
// the move (from the button when ""), turn and where what the table showed.
func (d *crashDriver) move(u *discordtest.User, m *discordtest.Message, id, key string, turn int, where string) (s step, nothing bool) {
	if key == "" {
		var ok bool
		if key, ok = moveKey(u.Name, id); !ok {
			d.c.fail("%s: %q is no move button", d.name, id)
			return stepRetry, false
		}
	}
	var label string
	if c, ok := m.Component(id); ok {
		label = c.Label
	}
	a := &crashAttempt{key: key, where: where}
	d.mu.Lock()
	d.attempts = append(d.attempts, a)
	d.mu.Unlock()
	d.does("clicking %s", key)
	r, out, it := d.c.send(d.name+" "+key, func() (*discordtest.Interaction, error) { return u.Click(m, id) })
	d.mu.Lock()
	defer d.mu.Unlock()
	a.it = it
	switch {
	case out == outGone:
		a.state, a.note = attRefused, "not sent"
		return stepGone, false
	case out == outFailed:
		a.state = attFailed
		return stepRetry, false
	case out == outAbandoned:
		return stepRetry, false // pending: resolve() looks at it later
	case !acked(it, r):
		a.state, a.note = attRefused, r.Content
		// Refused: this player cannot do that on this message (they
		// already decided, or it is not their turn).
		return stepRetry, true
	}
	a.state = attAcked
	f := strings.Split(key, "|")
	switch f[1] {
	case "white", "number", "color":
		if col, err := game.ParseColor(f[2]); err == nil {
			if n, _ := strconv.Atoi(numberRe.FindString(label)); n > 0 {
				d.cross(u.Name, col, n)
			}
		}
		if f[1] == "white" {
			d.crossed[u.Name] = turn
		}
	case "play":
		if col, err := game.ParseColor(f[2]); err == nil && f[4] != "" {
			for _, x := range strings.Split(f[4], ",") {
				n, _ := strconv.Atoi(x)
				d.cross(u.Name, col, n)
			}
		}
	}
	return stepMoved, false
}

// play makes u's card play (action 3) in u's private hand view: pick the
// cards, name the colour of jokers alone, choose the numbers to cross,
// confirm. Finishing, one card crossing nothing (a misthrow).
func (d *crashDriver) play(u *discordtest.User, tbl *discordtest.Message, turn int, where string) (s step, nothing bool) {
	v, out, _ := d.c.send(d.name+" hand "+u.Name, func() (*discordtest.Interaction, error) { return u.Click(tbl, players.IDWith(tbl, "hand")) })
	switch {
	case out == outGone:
		return stepGone, false
	case out != outAnswered:
		return stepRetry, false
	case players.IDWith(v, "pick") == "":
		return stepRetry, strings.Contains(v.Content, "Your cards")
	}
	pick, _ := v.Component(players.IDWith(v, "pick"))
	var hand []game.Card
	for _, o := range pick.Options {
		if c, err := game.ParseCard(o.Value); err == nil {
			hand = append(hand, c)
		}
	}
	if len(hand) == 0 {
		return stepRetry, false
	}
	cand := playCandidates(hand)[0]
	if d.finishing() {
		cand = candidate{cards: hand[:1], as: "red"}
	}
	var color game.Color
	named := false
	for _, c := range cand.cards {
		if !c.Joker() {
			color, named = c.Color(), true
			break
		}
	}
	if !named {
		if cand.as == "" {
			cand.as = "red"
		}
		color, _ = game.ParseColor(cand.as)
	}
	do := func(what string, do func(m *discordtest.Message) (*discordtest.Interaction, error)) bool {
		m, out, _ := d.c.send(d.name+" "+what+" "+u.Name, func() (*discordtest.Interaction, error) { return do(v) })
		if out != outAnswered || players.IDWith(m, "play") == "" {
			return false
		}
		v = m
		return true
	}
	if !do("pick", func(m *discordtest.Message) (*discordtest.Interaction, error) {
		return u.Select(m, players.IDWith(m, "pick"), codes(cand.cards)...)
	}) {
		return stepRetry, false
	}
	if as := players.IDWith(v, "as"); as != "" {
		if !do("as", func(m *discordtest.Message) (*discordtest.Interaction, error) { return u.Select(m, as, color.String()) }) {
			return stepRetry, false
		}
	}
	var cross []int
	if !d.finishing() {
		for _, c := range cand.cards {
			if n := c.Number(); !slices.Contains(cross, n) && !lastNumber(color, n) && d.skip(u.Name, color, n) >= 0 && d.skip(u.Name, color, n) <= 2 {
				cross = append(cross, n)
			}
		}
	}
	enabled := func() bool {
		b, ok := v.Component(players.IDWith(v, "play"))
		return ok && !b.Disabled
	}
	if len(cross) > 0 {
		vals := make([]string, len(cross))
		for i, n := range cross {
			vals[i] = strconv.Itoa(n)
		}
		if !do("cross", func(m *discordtest.Message) (*discordtest.Interaction, error) {
			return u.Select(m, players.IDWith(m, "cross"), vals...)
		}) {
			return stepRetry, false
		}
	}
	// Crossing nothing is chosen as such: the builder proposes crosses.
	if len(cross) == 0 || !enabled() {
		cross = nil
		if !do("cross none", func(m *discordtest.Message) (*discordtest.Interaction, error) {
			return u.Select(m, players.IDWith(m, "cross"))
		}) {
			return stepRetry, false
		}
	}
	if !enabled() {
		d.c.fail("%s: %s cannot play %v crossing nothing: %q", d.name, u.Name, cand.cards, v.Content)
		return stepRetry, false
	}
	return d.move(u, v, players.IDWith(v, "play"), playKey(u.Name, color, codes(cand.cards), cross), turn, where)
}

// moveKey writes the move a button makes, in recordKey's form: the verb
// and its argument are found by substring, whatever else the custom_id
// holds.
func moveKey(player, id string) (string, bool) {
	id, _, _ = strings.Cut(id, "#") // the custom_id's check
	for _, verb := range []string{"pass", "white", "color", "take", "number"} {
		i := strings.LastIndex(id, ":"+verb)
		if i < 0 {
			continue
		}
		rest := id[i+1+len(verb):]
		if rest != "" && rest[0] != ':' {
			continue
		}
		arg := strings.TrimPrefix(rest, ":")
		switch verb {
		case "pass":
			return player + "|pass", true
		case "white", "number":
			return player + "|" + verb + "|" + arg, true
		case "color":
			w, row, _ := strings.Cut(arg, ".")
			return player + "|color|" + row + "|" + w, true
		case "take":
			var nums []int
			for _, f := range strings.Split(arg, "-") {
				n, _ := strconv.Atoi(f)
				nums = append(nums, n)
			}
			return takeKey(player, nums), true
		}
	}
	return "", false
}

func takeKey(player string, nums []int) string {
	nums = slices.Clone(nums)
	slices.Sort(nums)
	return player + "|take|" + joinNums(nums)
}

func joinNums(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func playKey(player string, color game.Color, cards []string, cross []int) string {
	cards = slices.Clone(cards)
	slices.Sort(cards)
	cross = slices.Clone(cross)
	slices.Sort(cross)
	return player + "|play|" + color.String() + "|" + strings.Join(cards, ",") + "|" + joinNums(cross)
}

// recordKey writes a record's move as moveKey and playKey do.
func recordKey(m game.RecordMove) string {
	switch m.Action {
	case "pass":
		return m.Player + "|pass"
	case "white", "number":
		return m.Player + "|" + m.Action + "|" + m.Row
	case "color":
		return fmt.Sprintf("%s|color|%s|%d", m.Player, m.Row, m.White)
	case "take":
		return takeKey(m.Player, m.Take)
	case "play":
		c, _ := game.ParseColor(m.Row)
		return playKey(m.Player, c, m.Cards, m.Cross)
	}
	return m.Player + "|" + m.Action + "|?"
}

// TestCrashKillsLoseNoMove runs the real bot binary against the fake
// Discord while six tables (dice, cards, jokers; 2–3 players each) are
// played through the buttons by simulated users, and SIGKILLs it crashKills
// times at random moments (a seeded schedule), restarting it on the same
// database each time. After every kill, with the bot dead, it reads the
// database and checks:
//
//  1. every acknowledged move ("You chose …", "You passed.") is in the
//     stored game's record, and the record holds no move nobody made;
//  2. every stored game replays (game.Replay of its record) to the stored
//     state.
//
// Throughout, and at the end:
//
//  3. after restarts, clicks on outdated table messages are answered
//     politely and change nothing;
//  4. after the last restart, within crashCurrentWithin every table shows
//     its stored state (a table message for the current action whose
//     buttons are accepted, or the results), then every game is played to
//     its end: results posted with the stored scores; no interaction sent
//     while the bot was up went unanswered; no panic (or data race) in the
//     bot's log.
func TestCrashKillsLoseNoMove(t *testing.T) { crashKillsLoseNoMove(t) }

// TestCrashKillsLoseNoMoveHTTP is TestCrashKillsLoseNoMove with every
// interaction POSTed to the bot's interactions endpoint and answered in
// the HTTP response: a kill at any moment loses no acknowledged move there
// either.
func TestCrashKillsLoseNoMoveHTTP(t *testing.T) { crashKillsLoseNoMove(t, httpIngress) }

// crashKillsLoseNoMove runs the crash test with env added to the bot's.
func crashKillsLoseNoMove(t *testing.T, env ...string) {
	if testing.Short() {
		t.Skip("the crash test runs the bot binary for about a minute")
	}
	t.Parallel()
	start := time.Now()
	botBinary(t)
	seed := uint64(1)
	if s := os.Getenv(crashSeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", crashSeedEnv, s, err)
		}
		seed = v
	}
	// Discord's rate limits on, as Discord enforces them.
	srv, err := discordtest.NewServer(discordtest.Options{Token: "crash-token-" + strconv.FormatUint(seed, 10), InteractionDeadline: crashDeadline,
		RateLimits: discordtest.RateLimitOptions{Enabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), crashCap)
	defer cancel()
	c := &crashRun{t: t, srv: srv, db: filepath.Join(t.TempDir(), "crash.db"), ctx: ctx, start: start, seed: seed,
		parked: map[*crashDriver]bool{}}
	c.cond = sync.NewCond(&c.mu)
	c.killed() // not started yet
	// Nobody's timer runs out during the test: every move is a player's.
	c.proc = newBotProc(t, srv, c.db, append(env, "QWIXXBOT_GAME_TURN_TIMEOUT=24h", "QWIXXBOT_GAME_REMINDER_BEFORE=1h")...)
	if err := c.proc.Start(); err != nil {
		t.Fatal(err)
	}
	c.ready()
	t.Logf("seed %d (%s to change it); bot binary built in %v (race detector: %v)", seed, crashSeedEnv, botBin.took.Round(time.Millisecond), botBin.race)

	// Open the tables.
	rnd := rand.New(rand.NewPCG(seed, 0xc4a5))
	names := []string{"Anna", "Ben", "Chloé"}
	for i, tc := range crashTables {
		name := fmt.Sprintf("%s-%d", tc.variant, i+1)
		ch := srv.AddChannel(srv.DefaultGuild(), name)
		d := &crashDriver{c: c, name: name, variant: tc.variant, ch: ch, byID: map[string]*discordtest.User{},
			rnd: rand.New(rand.NewPCG(seed, uint64(i))), view: newChanView(srv, ch), check: newChanView(srv, ch),
			nothing: map[string]bool{}, shadow: map[string]*[4]int{}, crossed: map[string]int{}}
		for _, n := range names[:tc.players] {
			u := srv.AddUser(fmt.Sprintf("%s-%c%d", n, tc.variant[0], i+1), "en-US")
			d.users = append(d.users, u)
			d.byID[u.ID] = u
		}
		c.openTable(d)
		c.drivers = append(c.drivers, d)
	}
	var wg sync.WaitGroup
	for _, d := range c.drivers {
		wg.Add(1)
		go func() { defer wg.Done(); d.run() }()
	}

	// The killer.
	tKills := time.Now()
	var probes sync.WaitGroup
	for k := 1; k <= crashKills && ctx.Err() == nil; k++ {
		up := time.Duration(500+rnd.IntN(1500)) * time.Millisecond
		if rnd.IntN(6) == 0 {
			up = time.Duration(rnd.IntN(150)) * time.Millisecond // while it re-posts tables
		}
		select {
		case <-time.After(up):
		case <-ctx.Done():
		}
		c.proc.Kill()
		c.killed()
		c.count(func(f *crashFigures) { f.kills++ })
		c.verifyStore(fmt.Sprintf("after kill %d", k))
		if k == crashKills {
			break
		}
		if err := c.proc.Start(); err != nil {
			c.fail("restart after kill %d: %v", k, err)
			break
		}
		c.ready()
		for range 2 {
			d, r := c.drivers[rnd.IntN(len(c.drivers))], rnd.Uint64()
			probes.Add(1)
			go func() { defer probes.Done(); c.probeStale(d, r) }()
		}
	}

	tCheck := time.Now()
	// Check 4: the drivers rest, the bot (dead) left a database; once
	// restarted, every table must show what it holds.
	c.pause()
	probes.Wait()
	snap := c.verifyStore("before the last restart")
	for _, d := range c.drivers {
		d.mu.Lock()
		d.finish = true
		d.mu.Unlock()
	}
	if err := c.proc.Start(); err != nil {
		t.Fatalf("the last restart: %v", err)
	}
	c.ready()
	c.checkCurrent(snap)
	// Check 3 once more, for every table, after the last restart: by now
	// each driver has seen several turns, so there is an outdated message
	// to click even where the probes between kills (timed by the kills,
	// on a loaded machine) found none yet.
	for i, d := range c.drivers {
		c.probeStale(d, seed+uint64(i))
	}
	c.resume()
	tFinish := time.Now()

	// The drivers finish every game.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		c.wake()
		c.fail("the games did not end within the test's cap of %v: %s", crashCap, c.where())
		<-done
	}
	if err := c.proc.Stop(); err != nil {
		c.fail("graceful stop: %v", err)
	}
	final := c.verifyStore("at the end")
	c.checkResults(final)
	unanswered := c.checkUnanswered()
	panics, races := c.proc.LogProblems()
	for _, p := range panics {
		c.fail("the bot's log reports a panic: %s", p)
	}
	for _, r := range races {
		c.fail("the bot's log reports a data race: %s", r)
	}
	if len(races) > 0 || len(panics) > 0 {
		t.Logf("bot log (tail):\n%s", c.proc.LogTail(200))
	}
	f := c.figures
	lat := slices.Clone(c.latencies)
	slices.Sort(lat)
	if len(lat) > 0 {
		t.Logf("answers: %d, latency median %v, 95th percentile %v, max %v; phases: setup %v, %d kills %v, last restart and check %v, finishing %v",
			len(lat), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*95/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond),
			tKills.Sub(start).Round(100*time.Millisecond), f.kills, tCheck.Sub(tKills).Round(100*time.Millisecond),
			tFinish.Sub(tCheck).Round(100*time.Millisecond), time.Since(tFinish).Round(100*time.Millisecond))
	}
	var tables []string
	for _, d := range c.drivers {
		acked := 0
		for _, a := range d.attempts {
			if a.state == attAcked {
				acked++
			}
		}
		turn := 0
		if tb := final[d.ch]; tb != nil && tb.Running() != nil {
			turn = tb.Running().Turn()
		}
		tables = append(tables, fmt.Sprintf("%s %d turns, %d moves, over at %.1fs", d.name, turn, acked, d.over.Seconds()))
	}
	t.Logf("tables: %s", strings.Join(tables, "; "))
	var restarts []time.Duration
	for _, r := range c.proc.Runs() {
		if !r.ready.IsZero() {
			restarts = append(restarts, r.ready.Sub(r.started))
		}
	}
	slices.Sort(restarts)
	if len(restarts) > 0 {
		t.Logf("bot start to ready: median %v, max %v", restarts[len(restarts)/2].Round(time.Millisecond), restarts[len(restarts)-1].Round(time.Millisecond))
	}
	t.Logf("crash summary: seed %d, %d kills, %d acknowledged moves (%d move clicks), %d lost, %d phantom, %d corrupt games (%d database checks), "+
		"%d panics, %d data races, %d unanswered while up, %d outdated clicks (%d answered, %d accepted), %d stale waiting lists, %d stalls, "+
		"%d bot processes, wall time %v, binary built in %v (race %v)",
		seed, f.kills, f.acked, f.attempts, f.lost, f.phantom, f.corrupt, f.checks, len(panics), len(races), unanswered,
		f.staleProbes, f.staleAnswered, f.staleAccepted, f.staleWaiting, f.stalls, len(c.proc.Runs()),
		time.Since(start).Round(100*time.Millisecond), botBin.took.Round(100*time.Millisecond), botBin.race)
	// The checks must have had something to check.
	if f.kills < crashKills {
		t.Errorf("only %d kills of %d", f.kills, crashKills)
	}
	if f.acked < 50 {
		t.Errorf("only %d acknowledged moves: the games hardly moved", f.acked)
	}
	switch {
	case f.staleProbes >= 3 && f.staleAnswered == 0:
		t.Errorf("no click on an outdated table message was answered (%d made)", f.staleProbes)
	case f.staleProbes < 3:
		// The drivers remember a table message only when they act on it;
		// on a loaded machine they may have seen too few turns.
		t.Logf("only %d clicks on outdated table messages could be made: check 3 had little to check", f.staleProbes)
	}
}

// openTable opens the driver's table, seats its players and starts the
// game, with the bot up.
func (c *crashRun) openTable(d *crashDriver) {
	t := c.t
	t.Helper()
	must := func(what string, it *discordtest.Interaction, err error) *discordtest.Message {
		t.Helper()
		m, out, _ := c.send(d.name+" "+what, func() (*discordtest.Interaction, error) { return it, err })
		if out != outAnswered {
			t.Fatalf("%s: %s: no answer (%v)", d.name, what, err)
		}
		return m
	}
	host := d.users[0]
	it, err := host.Command(d.ch, "qwixx", "new", map[string]any{"variant": d.variant})
	lobby := must("/qwixx new", it, err)
	for _, u := range d.users[1:] {
		it, err := u.Click(lobby, players.IDWith(lobby, "join"))
		lobby = must("join", it, err)
	}
	it, err = host.Click(lobby, players.IDWith(lobby, "start"))
	must("start", it, err)
}

// verifyStore reads the database of the stopped bot and checks every table
// (checks 1 and 2). It returns the tables by channel.
func (c *crashRun) verifyStore(when string) map[string]*bot.Table {
	c.count(func(f *crashFigures) { f.checks++ })
	st, err := store.Open(c.db, store.WithLockTimeout(5*time.Second))
	if err != nil {
		c.fail("%s: open the database: %v", when, err)
		return nil
	}
	tables := map[string]*bot.Table{}
	err = st.ForEach(func(ch string, blob []byte, err error) error {
		if err != nil {
			c.count(func(f *crashFigures) { f.corrupt++ })
			c.fail("%s: the table of channel %s is damaged: %v", when, ch, err)
			return nil
		}
		tb, err := bot.DecodeTable(blob)
		if err != nil {
			c.count(func(f *crashFigures) { f.corrupt++ })
			c.fail("%s: the table of channel %s does not decode: %v", when, ch, err)
			return nil
		}
		tables[ch] = tb
		return nil
	})
	if err == nil {
		c.checkHistory(st, tables, when)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.fail("%s: read the database: %v", when, err)
	}
	for _, d := range c.drivers {
		var g *game.Game
		if tb := tables[d.ch]; tb != nil {
			g = tb.Running()
		}
		if g == nil {
			c.fail("%s: %s: no game stored", when, d.name)
			continue
		}
		c.checkReplay(d, g, when)
		c.checkAcked(d, g, when)
	}
	return tables
}

// checkReplay is check 2: the stored game's record replays to the stored
// game.
func (c *crashRun) checkReplay(d *crashDriver, g *game.Game, when string) {
	rec := g.Record()
	rep, err := game.Replay(rec)
	bad := func(what string, a, b any) {
		c.count(func(f *crashFigures) { f.corrupt++ })
		c.fail("%s: %s: the stored game does not replay: %s: stored %v, replayed %v", when, d.name, what, a, b)
	}
	if err != nil {
		bad("error", "", err)
		return
	}
	switch {
	case rep.Turn() != g.Turn() || rep.Phase() != g.Phase() || rep.Active() != g.Active():
		bad("turn/phase/active", []any{g.Turn(), g.Phase(), g.Active()}, []any{rep.Turn(), rep.Phase(), rep.Active()})
		return
	case !reflect.DeepEqual(rep.Scores(), g.Scores()):
		bad("scores", g.Scores(), rep.Scores())
		return
	case !reflect.DeepEqual(rep.Public(), g.Public()):
		bad("public view", g.Public(), rep.Public())
		return
	case !reflect.DeepEqual(rep.Waiting(), g.Waiting()):
		bad("waiting", g.Waiting(), rep.Waiting())
		return
	}
	for p := range g.NumPlayers() {
		if !reflect.DeepEqual(rep.Sheet(p), g.Sheet(p)) {
			bad(fmt.Sprintf("sheet of seat %d", p), g.Sheet(p), rep.Sheet(p))
			return
		}
		if g.Variant().CardGame() && !reflect.DeepEqual(rep.Hand(p), g.Hand(p)) {
			bad(fmt.Sprintf("hand of seat %d", p), g.Hand(p), rep.Hand(p))
			return
		}
	}
	a, _ := json.Marshal(rec)
	b, _ := json.Marshal(rep.Record())
	if string(a) != string(b) {
		bad("record", string(a), string(b))
	}
}

// checkAcked is check 1: the stored record is the driver's move clicks
// with those that did not get through left out. It matches the record
// against the clicks in order (a small dynamic programme): an acknowledged
// click may not be left out (lost), a failed or unanswered one may (the
// bot may have saved it and died before answering), a refused one cannot
// be in the record; a record move matching no click is a phantom.
func (c *crashRun) checkAcked(d *crashDriver, g *game.Game, when string) {
	// A copy: the driver goes on clicking (with the bot dead) meanwhile.
	type att struct {
		crashAttempt
		p *crashAttempt
	}
	d.mu.Lock()
	var atts []att
	for _, a := range d.attempts {
		a.resolve()
		if a.state != attRefused {
			atts = append(atts, att{*a, a})
		}
	}
	d.mu.Unlock()
	rec := g.Record()
	keys := make([]string, len(rec.Moves))
	for i, m := range rec.Moves {
		keys[i] = recordKey(m)
	}
	m, n := len(keys), len(atts)
	// cost[i][j]: the fewest lost clicks plus phantom moves matching
	// keys[i:] with atts[j:].
	cost := make([][]int32, m+1)
	for i := range cost {
		cost[i] = make([]int32, n+1)
	}
	for i := m; i >= 0; i-- {
		for j := n; j >= 0; j-- {
			if i == m && j == n {
				continue
			}
			best := int32(1 << 30)
			if j < n {
				skip := cost[i][j+1]
				if atts[j].state == attAcked {
					skip++
				}
				best = min(best, skip)
			}
			if i < m {
				best = min(best, cost[i+1][j]+1)
			}
			if i < m && j < n && keys[i] == atts[j].key {
				best = min(best, cost[i+1][j+1])
			}
			cost[i][j] = best
		}
	}
	if cost[0][0] == 0 {
		return
	}
	// Walk one best matching and report what it leaves out.
	for i, j := 0, 0; i < m || j < n; {
		switch {
		case i < m && j < n && keys[i] == atts[j].key && cost[i][j] == cost[i+1][j+1]:
			i, j = i+1, j+1
		case j < n && atts[j].state != attAcked && cost[i][j] == cost[i][j+1]:
			j++
		case j < n && atts[j].state == attAcked && cost[i][j] == cost[i][j+1]+1:
			d.mu.Lock()
			first := !atts[j].p.lost
			atts[j].p.lost = true
			d.mu.Unlock()
			if first {
				c.count(func(f *crashFigures) { f.lost++ })
				c.fail("LOST MOVE %s: %s: the acknowledged move %s (%s) is not in the stored record (%d moves, turn %d %s)",
					when, d.name, atts[j].key, atts[j].where, m, g.Turn(), g.Phase())
			}
			j++
		default:
			c.count(func(f *crashFigures) { f.phantom++ })
			c.fail("PHANTOM MOVE %s: %s: the stored record's move %d %s matches no click", when, d.name, i+1, keys[i])
			i++
		}
	}
}

// probeStale is check 3: a player clicks a move button of a table message
// for an earlier action than the newest one seen, as a client showing an
// old message would; the bot must answer politely (privately) and change
// nothing.
func (c *crashRun) probeStale(d *crashDriver, r uint64) {
	rnd := rand.New(rand.NewPCG(r, 3))
	d.mu.Lock()
	var cands []oldTable
	if n := len(d.old); n > 0 {
		// Actions only move on: an older turn, or an earlier action of
		// the newest turn, is outdated. (A message for the newest action
		// may be there twice, after a crash between posting it and
		// noting it.)
		newest := d.old[n-1]
		for _, o := range d.old {
			if o.turn < newest.turn || o.turn == newest.turn && o.phase < newest.phase {
				cands = append(cands, o)
			}
		}
	}
	d.mu.Unlock()
	if len(cands) == 0 {
		return
	}
	o := cands[rnd.IntN(len(cands))]
	id := o.ids[rnd.IntN(len(o.ids))]
	u := d.users[rnd.IntN(len(d.users))]
	m, out, _ := c.send(d.name+" outdated "+id, func() (*discordtest.Interaction, error) { return u.ForgeClick(d.ch, o.id, id) })
	c.count(func(f *crashFigures) {
		f.staleProbes++
		if out == outAnswered {
			f.staleAnswered++
		}
	})
	if out == outAnswered && (players.IsAck(m.Content) || !m.Ephemeral()) {
		c.count(func(f *crashFigures) { f.staleAccepted++ })
		c.fail("%s: %s's click on %s of the turn-%d message %s was answered %q (ephemeral %v): outdated buttons must change nothing",
			d.name, u.Name, id, o.turn, o.id, m.Content, m.Ephemeral())
	}
}

// checkCurrent is check 4's first half: within crashCurrentWithin of the
// last restart every table shows its stored state, and the buttons on it
// are accepted.
func (c *crashRun) checkCurrent(snap map[string]*bot.Table) {
	ctx, cancel := context.WithTimeout(c.ctx, crashCurrentWithin)
	defer cancel()
	why := map[string]string{}
	err := c.srv.Wait(ctx, func() bool {
		ok := true
		for _, d := range c.drivers {
			why[d.name] = shows(d, d.check.drain(), snap[d.ch])
			ok = ok && why[d.name] == ""
		}
		return ok
	})
	if err != nil {
		for _, d := range c.drivers {
			switch why := why[d.name]; {
			case why == "":
			case strings.HasPrefix(why, "STALE WAITING LIST"):
				// A player decided, the bot saved it and died before
				// editing the table message; the restarted bot leaves
				// the message as it was (the action did not change).
				c.count(func(f *crashFigures) { f.staleWaiting++ })
				c.fail("check 4 (current table message): %s: %v after the last restart: %s", d.name, crashCurrentWithin, why)
			default:
				c.count(func(f *crashFigures) { f.stalls++ })
				c.fail("STALL (check 4): %s: %v after the last restart: %s", d.name, crashCurrentWithin, why)
			}
		}
	}
	// The buttons of each table message are accepted: the player the game
	// waits for makes a move with them (passes, or takes cards), or opens
	// the hand view with the play builder in a card action 3.
	for _, d := range c.drivers {
		tb, m := snap[d.ch], d.check.cur
		if tb == nil || tb.Running() == nil || tb.Running().Over() || m == nil || players.IDWith(m, "sheet") == "" {
			continue
		}
		g := tb.Running()
		u := d.byID[tb.Seats[g.Waiting()[0]].UserID]
		turn, phase := tableState(m.Content)
		where := fmt.Sprintf("turn %d %s (message %s v%d, after the last restart)", turn, phase, m.ID, m.Version)
		if phase == game.PhasePlay {
			v, out, _ := c.send(d.name+" hand after the last restart", func() (*discordtest.Interaction, error) { return u.Click(m, players.IDWith(m, "hand")) })
			if out != outAnswered || players.IDWith(v, "pick") == "" {
				c.fail("STALL: %s: after the last restart %s's hand view offers no play (outcome %d)", d.name, u.Name, out)
			}
			continue
		}
		id := players.IDWith(m, "pass")
		if phase == game.PhaseTake {
			id = players.IDWith(m, "take")
		}
		if s, _ := d.move(u, m, id, "", turn, where); s != stepMoved {
			d.mu.Lock()
			a := d.attempts[len(d.attempts)-1]
			d.mu.Unlock()
			c.fail("STALL: %s: after the last restart %s's click on %s of the table message was not accepted (%d: %q)", d.name, u.Name, id, a.state, a.note)
		}
	}
}

// shows says how the message m fails to show the stored table tb ("" if
// it shows it).
func shows(d *crashDriver, m *discordtest.Message, tb *bot.Table) string {
	if tb == nil || tb.Running() == nil {
		return "no stored game"
	}
	g := tb.Running()
	if m == nil {
		return "no table message"
	}
	if g.Over() {
		if players.IDWith(m, "again") == "" {
			return fmt.Sprintf("the stored game is over, the channel shows %q", m.Content)
		}
		for p, name := range g.Players() {
			if line := fmt.Sprintf("%s: %d", name, g.Scores()[p]); !strings.Contains(m.Content, line) {
				return fmt.Sprintf("the results %q lack %q", m.Content, line)
			}
		}
		return ""
	}
	turn, phase := tableState(m.Content)
	if players.IDWith(m, "sheet") == "" || turn != g.Turn() || phase != g.Phase() {
		return fmt.Sprintf("the stored game is at turn %d %s, the newest table message shows turn %d %s: %q", g.Turn(), g.Phase(), turn, phase, m.Content)
	}
	var want []string
	for _, p := range g.Waiting() {
		want = append(want, tb.Seats[p].UserID)
	}
	got := waitingIDs(m.Content)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		return fmt.Sprintf("STALE WAITING LIST: the stored game (turn %d %s) waits for %v, the table message for %v: %q", g.Turn(), g.Phase(), want, got, m.Content)
	}
	return ""
}

// checkResults is check 4's second half: every game ended, with its
// results posted, showing the stored scores.
func (c *crashRun) checkResults(tables map[string]*bot.Table) {
	for _, d := range c.drivers {
		tb := tables[d.ch]
		if tb == nil || tb.Running() == nil {
			continue // reported by verifyStore
		}
		g := tb.Running()
		if !g.Over() || tb.Stage != bot.StageOver {
			c.fail("%s: the stored game is not over (turn %d %s, stage %d)", d.name, g.Turn(), g.Phase(), tb.Stage)
			continue
		}
		d.mu.Lock()
		res := d.results
		d.mu.Unlock()
		if res == nil {
			c.fail("%s: no results message was seen", d.name)
			continue
		}
		if why := shows(d, res, tb); why != "" {
			c.fail("%s: %s", d.name, why)
		}
	}
}

// checkUnanswered counts the interactions sent while the bot was up (and
// stayed up for the whole deadline) that failed.
func (c *crashRun) checkUnanswered() int {
	c.itMu.Lock()
	its := slices.Clone(c.its)
	c.itMu.Unlock()
	n := 0
	for _, s := range its {
		if s.it.Failed() && c.proc.UpThrough(s.before, s.after.Add(crashDeadline)) {
			n++
			var lines []string
			for _, l := range strings.Split(c.proc.Log(), "\n") {
				if strings.Contains(l, s.it.ID()) {
					lines = append(lines, l)
				}
			}
			c.fail("UNANSWERED: %s (interaction %s), sent at %.1fs while the bot was up, failed; the bot logged about it: %q",
				s.what, s.it.ID(), s.before.Sub(c.start).Seconds(), lines)
		}
	}
	acked, attempts := 0, 0
	for _, d := range c.drivers {
		d.mu.Lock()
		for _, a := range d.attempts {
			attempts++
			if a.state == attAcked {
				acked++
			}
		}
		d.mu.Unlock()
	}
	c.count(func(f *crashFigures) { f.acked, f.attempts = acked, attempts })
	return n
}

// where describes every table's newest message, for a test out of time.
func (c *crashRun) where() string {
	var sb strings.Builder
	for _, d := range c.drivers {
		m := d.check.drain()
		content := "(none)"
		if m != nil {
			content = strings.ReplaceAll(m.Content, "\n", " / ")
		}
		d.mu.Lock()
		doing := d.doing
		d.mu.Unlock()
		fmt.Fprintf(&sb, "\n  %s (done %v, %s): %s", d.name, d.isDone(), doing, content)
	}
	return sb.String()
}

// checkHistory checks that the kept history holds exactly the games that
// the stored tables show over: one result each, under the table's ID and
// game number, with the game's scores, and a record that replays to them.
// The bot writes a table that shows a game over and the game's result in
// one transaction, so no kill may leave one without the other, or a game
// counted twice.
func (c *crashRun) checkHistory(st *store.Store, tables map[string]*bot.Table, when string) {
	byGuild := map[string][]gamestats.Result{}
	for _, tb := range tables {
		if _, ok := byGuild[tb.GuildID]; ok {
			continue
		}
		rs, err := st.Results(tb.GuildID, 0)
		if err != nil {
			c.fail("%s: results of guild %s: %v", when, tb.GuildID, err)
		}
		byGuild[tb.GuildID] = rs
	}
	for ch, tb := range tables {
		g := tb.Running()
		id := fmt.Sprintf("%s-%d", tb.ID, tb.GameNo)
		var found []gamestats.Result
		for _, r := range byGuild[tb.GuildID] {
			if r.GameID == id {
				found = append(found, r)
			}
		}
		over := g != nil && g.Over() && tb.Stage == bot.StageOver
		switch {
		case !over && len(found) > 0:
			c.fail("%s: channel %s: game %s is kept though its table shows it running", when, ch, id)
		case over && len(found) != 1:
			c.fail("%s: channel %s: game %s is over and kept %d times", when, ch, id, len(found))
		case over:
			for i, s := range found[0].Seats {
				if s.Score != g.Scores()[i] {
					c.fail("%s: channel %s: kept score %d of seat %d, the game's is %d", when, ch, s.Score, i, g.Scores()[i])
				}
			}
			gr, ok, err := st.Record(tb.GuildID, id)
			if err != nil || !ok {
				c.fail("%s: channel %s: no record of game %s (%v)", when, ch, id, err)
				continue
			}
			rec, err := game.ParseRecord(gr.JSON)
			if err == nil {
				var rg *game.Game
				if rg, err = game.Replay(rec); err == nil && !slices.Equal(rg.Scores(), g.Scores()) {
					err = fmt.Errorf("replays to %v, the game ended %v", rg.Scores(), g.Scores())
				}
			}
			if err != nil {
				c.fail("%s: channel %s: the record of game %s: %v", when, ch, id, err)
			}
		}
	}
}

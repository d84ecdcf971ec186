// Package players simulates people playing Qwixx in the fake Discord
// (bot/discordtest): they see only what Discord would show them and act by
// clicking. The sandbox, the load harness and the end-to-end tests use
// them.
package players

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// Names are the simulated people's names, in seat order.
var Names = []string{"Anna", "Ben", "Chloé", "Dörte", "Émile"}

// Result is what one game of the players produced.
type Result struct {
	Results string // the results message
	Moves   int    // clicks that made a move
}

// New returns players for the users in channel ch of srv, choosing by rnd.
func New(srv *discordtest.Server, ch string, users []*discordtest.User, rnd *rand.Rand) *Players {
	return &Players{Srv: srv, Ch: ch, Users: users, Rand: rnd, view: NewChannelView(srv, ch)}
}

// Players are simulated people: they see only what Discord would show them
// and act by clicking.
type Players struct {
	Srv   *discordtest.Server
	Ch    string
	Users []*discordtest.User
	view  *ChannelView // the public messages of ch
	Rand  *rand.Rand
	// Pace, if set, runs before each look at the channel during the game
	// (people take seconds to click; a test can wait for the bot to show
	// each state).
	Pace func()
	// acted holds, by user, the state (stateOf) of the table message they
	// last made a move in: people remember that they have decided, even
	// while the table still lists them as waiting.
	acted map[string]string
	// Look and Wait, if set, replace the channel view and the server-wide
	// wait (the load harness follows many channels through one hook).
	Look func() (table, results *discordtest.Message)
	Wait func(ctx context.Context, seen *discordtest.Message)
	// Answered, if set, sees every interaction the players started once it
	// was answered or failed.
	Answered func(it *discordtest.Interaction)
	// Moved, if set, is told of every move made.
	Moved func()
}

// Answer waits for the response to an interaction the players started
// and tells Answered of it.
func (p *Players) Answer(ctx context.Context) func(*discordtest.Interaction, error) (*discordtest.Message, error) {
	return func(it *discordtest.Interaction, err error) (*discordtest.Message, error) {
		m, err := AwaitAnswer(ctx, it, err)
		if it != nil && p.Answered != nil {
			p.Answered(it)
		}
		return m, err
	}
}

// Answer waits for the response to an interaction: Answer(ctx)(u.Click(…)).
func Answer(ctx context.Context) func(*discordtest.Interaction, error) (*discordtest.Message, error) {
	return func(it *discordtest.Interaction, err error) (*discordtest.Message, error) {
		return AwaitAnswer(ctx, it, err)
	}
}

// ErrGone means the clicked message or button is no longer there (the bot
// moved on to a newer message): a person would look at the channel again.
var ErrGone = errors.New("that button is gone")

// AwaitAnswer waits for the answer to it (started with err) and returns
// the message it shows.
func AwaitAnswer(ctx context.Context, it *discordtest.Interaction, err error) (*discordtest.Message, error) {
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrGone, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// The interaction's own signal first (cheap with many waiting), then
	// the message, which a deferred answer fills in later.
	if err := it.Wait(wctx); err != nil && !errors.Is(err, discordtest.ErrInteractionFailed) {
		return nil, fmt.Errorf("no answer: %w", err)
	}
	if it.CallbackType() == 6 {
		// A deferred update (an answer late for the deadline): the answer
		// follows through the token, as an edit of the clicked message or
		// a follow-up (a private answer).
		if err := it.WaitDeferred(wctx); err != nil {
			return nil, fmt.Errorf("no answer after the deferred update: %w", err)
		}
		if f := it.Followups(); len(f) > 0 && !it.EditedOriginal() {
			return f[len(f)-1], nil
		}
	}
	m, ok := it.Response()
	if !ok || m.Loading() {
		m, err = it.WaitResponse(wctx)
	}
	if err != nil {
		return nil, fmt.Errorf("no answer: %w", err)
	}
	if it.Failed() {
		return nil, errors.New("the interaction failed")
	}
	return m, nil
}

// IDWith finds a component custom_id with the verb.
func IDWith(m *discordtest.Message, verb string) string {
	for _, id := range m.CustomIDs() {
		if strings.Contains(id, ":"+verb) {
			return id
		}
	}
	return ""
}

// IsAck reports whether an answer's text confirms a move ("You chose …",
// "You passed.", in any of the bot's languages: a player answered
// privately is answered in their own).
func IsAck(content string) bool {
	for _, a := range acks() {
		if strings.Contains(content, a) {
			return true
		}
	}
	return false
}

// acks are the texts of the confirmations of a move in every language,
// each up to its first argument.
var acks = sync.OnceValue(func() []string {
	var out []string
	ms := i18n.Messages()
	for _, k := range []msg.Key{msg.OkChose, msg.OkPassed} {
		for _, text := range ms[k] {
			if before, _, _ := strings.Cut(text, "%"); before != "" {
				out = append(out, before)
			}
		}
	}
	return out
})

// WaitsFor reports whether the table message waits for u's decision.
func WaitsFor(table *discordtest.Message, u *discordtest.User) bool {
	for _, line := range strings.Split(table.Content, "\n") {
		if strings.HasPrefix(line, "Waiting for") {
			return strings.Contains(line, "<@"+u.ID+">")
		}
	}
	return false
}

// tableMoves lists the table message's buttons that make a move.
func tableMoves(table *discordtest.Message) []string {
	var ids []string
	for _, id := range table.CustomIDs() {
		if !strings.Contains(id, ":sheet") && !strings.Contains(id, ":hand") {
			ids = append(ids, id)
		}
	}
	return ids
}

// PlayGame opens a table, seats everybody, starts and plays to the end.
func (p *Players) PlayGame(ctx context.Context, variant string) (*Result, error) {
	host := p.Users[0]
	p.acted = nil // what they remember of the last game
	// The last game's results stay the newest message in the channel
	// until this game's table is posted: they are not this game's end.
	var before string
	if _, old := p.current(ctx); old != nil {
		before = old.ID
	}
	lobby, err := p.Answer(ctx)(host.Command(p.Ch, "qwixx", "new", map[string]any{"variant": variant}))
	if err != nil {
		return nil, fmt.Errorf("/qwixx new: %w", err)
	}
	if lobby.Ephemeral() { // refused, with a reason only the host sees
		return nil, fmt.Errorf("/qwixx new refused: %q", lobby.Content)
	}
	for _, u := range p.Users[1:] {
		if lobby, err = p.Answer(ctx)(u.Click(lobby, IDWith(lobby, "join"))); err != nil {
			return nil, fmt.Errorf("join: %w", err)
		}
	}
	if _, err := p.Answer(ctx)(host.Click(lobby, IDWith(lobby, "start"))); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	// An earlier game's results (the bot takes their Play again button off
	// once this table is open; the channel may show them a moment longer,
	// or, where the bot lives on interactions alone, post them twice after
	// a crash) are not this game's end.
	return p.playToEnd(ctx, func(results *discordtest.Message) bool {
		return results.ID != before && newerID(results.ID, lobby.ID) && tableOf(results) == tableOf(lobby)
	})
}

// PlayOn plays the game running in the channel to its end: after a
// restart, or a restore, of the bot.
func (p *Players) PlayOn(ctx context.Context) (*Result, error) {
	p.acted = nil
	// The bot may be a moment from showing the table (after a restart it
	// posts it afresh): look as long as a game may stall.
	table, _ := p.current(ctx)
	for look := 0; table == nil && look < 150 && ctx.Err() == nil; look++ {
		p.awaitChange(ctx, nil)
		table, _ = p.current(ctx)
	}
	if table == nil {
		return nil, errors.New("no table in the channel")
	}
	since, id := table.ID, tableOf(table)
	return p.playToEnd(ctx, func(results *discordtest.Message) bool {
		return (results.ID == since || newerID(results.ID, since)) && tableOf(results) == id
	})
}

// playToEnd plays until the channel shows results that ours accepts as
// this game's.
func (p *Players) playToEnd(ctx context.Context, ours func(results *discordtest.Message) bool) (*Result, error) {
	res := &Result{}
	var lastGone error // why the last look found nothing to click
	// Nothing to do for 15 s (150 looks) is a stall: longer than Discord's
	// per-channel limits ever hold the bot's next message back (5 s).
	for idle := 0; idle < 150; {
		if p.Pace != nil {
			p.Pace()
		}
		table, results := p.current(ctx)
		if results != nil && !ours(results) {
			idle++
			p.awaitChange(ctx, results)
			continue
		}
		if results != nil {
			res.Results = results.Content
			return res, nil
		}
		if table == nil {
			idle++
			p.awaitChange(ctx, table)
			continue
		}
		moved := false
		for _, u := range p.Users {
			ok, err := p.act(ctx, u, table)
			if errors.Is(err, ErrGone) {
				lastGone = fmt.Errorf("%s: %w", u.Name, err)
				break // look at the channel again
			}
			if err != nil {
				return nil, err
			}
			if ok {
				moved = true
				res.Moves++
				if p.Moved != nil {
					p.Moved()
				}
				break
			}
		}
		if !moved {
			idle++
			if idle%20 == 0 {
				// Two seconds and nothing to do: somebody looks at their
				// sheet, as people do when a table seems stuck (where the
				// bot lives on interactions alone, that look is what lets
				// it show the table again).
				u := p.Users[(idle/20)%len(p.Users)]
				_, _ = p.Answer(ctx)(u.Command(p.Ch, "qwixx", "sheet", nil))
			}
			p.awaitChange(ctx, table)
		} else {
			idle = 0
		}
	}
	if lastGone != nil {
		return nil, fmt.Errorf("the game stalled: nobody could act (last: %v)", lastGone)
	}
	return nil, errors.New("the game stalled: nobody could act")
}

// awaitChange waits until the message seen (a table or the last game's
// results) is no longer the current one (a newer one, another version,
// other results) or a short while has passed: a
// person looks again when something happens, without polling.
func (p *Players) awaitChange(ctx context.Context, seen *discordtest.Message) {
	key := func(m *discordtest.Message) string {
		if m == nil {
			return ""
		}
		return fmt.Sprintf("%s/%d", m.ID, m.Version)
	}
	if p.Wait != nil {
		p.Wait(ctx, seen)
		return
	}
	was := key(seen)
	wctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_ = p.Srv.Wait(wctx, func() bool {
		table, results := p.current(ctx)
		if results != nil {
			return key(results) != was
		}
		return key(table) != was
	})
}

// tableOf is the table a message's buttons act on (the custom ID's second
// field), "" without buttons.
func tableOf(m *discordtest.Message) string {
	for _, id := range m.CustomIDs() {
		if f := strings.SplitN(id, ":", 3); len(f) == 3 {
			return f[1]
		}
	}
	return ""
}

// newerID reports whether snowflake a was made after b (snowflakes grow
// with time; as decimal strings, a longer one is larger).
func newerID(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// current returns the newest table message, or the results message.
func (p *Players) current(ctx context.Context) (table, results *discordtest.Message) {
	if p.Look != nil {
		return p.Look()
	}
	ms := p.view.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Ephemeral() || m.AuthorID != p.Srv.BotUserID() {
			continue
		}
		if IDWith(m, "again") != "" {
			return nil, m
		}
		if IDWith(m, "sheet") != "" {
			return m, nil
		}
	}
	return nil, nil
}

// act lets user u do something if they can: choose among the legal
// choices their private sheet offers, or build a card play in their hand.
func (p *Players) act(ctx context.Context, u *discordtest.User, table *discordtest.Message) (bool, error) {
	if !WaitsFor(table, u) || p.acted[u.ID] == stateOf(table) {
		return false, nil
	}
	moved, err := p.move(ctx, u, table)
	if moved {
		if p.acted == nil {
			p.acted = map[string]string{}
		}
		p.acted[u.ID] = stateOf(table)
	}
	return moved, err
}

// stateOf names the state a table message's buttons were made for: the
// message and the stamp in its custom_ids.
func stateOf(table *discordtest.Message) string {
	for _, id := range table.CustomIDs() {
		if f := strings.SplitN(id, ":", 4); len(f) == 4 {
			return table.ID + ":" + f[2]
		}
	}
	return table.ID
}

// move makes one move for u on the table if u can.
func (p *Players) move(ctx context.Context, u *discordtest.User, table *discordtest.Message) (bool, error) {
	// Mostly the table's own buttons, as people use them; one that is not
	// a choice for u is refused privately, and u looks at the sheet.
	if ids := tableMoves(table); len(ids) > 0 && p.Rand.IntN(4) != 0 {
		it, err := u.Click(table, ids[p.Rand.IntN(len(ids))])
		m, err := p.Answer(ctx)(it, err)
		if err != nil {
			return false, err
		}
		// The table message shows the move (an update of it answers the
		// click), or a private confirmation does.
		if it.CallbackType() == 7 || acked(it, m) {
			return true, nil
		}
		// Refused: the answer says why and offers u's own choices.
		if ids := withoutHints(m.CustomIDs()); len(ids) > 0 {
			return p.confirmed(ctx, u, m, ids[p.Rand.IntN(len(ids))])
		}
	}
	sheet, err := p.Answer(ctx)(u.Click(table, IDWith(table, "sheet")))
	if err != nil {
		return false, fmt.Errorf("%s opens the sheet: %w", u.Name, err)
	}
	if ids := withoutHints(sheet.CustomIDs()); len(ids) > 0 {
		return p.confirmed(ctx, u, sheet, ids[p.Rand.IntN(len(ids))])
	}
	hid := IDWith(table, "hand")
	if hid == "" {
		return false, nil
	}
	hand, err := p.Answer(ctx)(u.Click(table, hid))
	if err != nil {
		return false, fmt.Errorf("%s opens the hand: %w", u.Name, err)
	}
	pick := IDWith(hand, "pick")
	if pick == "" {
		return false, nil
	}
	c, _ := hand.Component(pick)
	opt := c.Options[p.Rand.IntN(len(c.Options))]
	m, err := p.Answer(ctx)(u.Select(hand, pick, opt.Value))
	if err != nil {
		return false, err
	}
	if as := IDWith(m, "as"); as != "" {
		if m, err = p.Answer(ctx)(u.Select(m, as, "red")); err != nil {
			return false, err
		}
	}
	if cr := IDWith(m, "cross"); cr != "" && p.Rand.IntN(2) == 0 {
		c, _ := m.Component(cr)
		// The view now shows this choice, allowed or not (then crossing
		// nothing below).
		if m, err = p.Answer(ctx)(u.Select(m, cr, c.Options[0].Value)); err != nil {
			return false, err
		}
	}
	play := IDWith(m, "play")
	if comp, ok := m.Component(play); !ok || comp.Disabled {
		if cr := IDWith(m, "cross"); cr != "" {
			if m, err = p.Answer(ctx)(u.Select(m, cr)); err != nil {
				return false, err
			}
			play = IDWith(m, "play")
		}
	}
	return p.confirmed(ctx, u, m, play)
}

// withoutHints leaves out the hint buttons: the simulated players choose
// for themselves.
func withoutHints(ids []string) []string {
	return slices.DeleteFunc(ids, func(id string) bool { return strings.Contains(id, ":hint") })
}

// confirmed clicks id on m and reports whether the private answer
// confirms a move.
func (p *Players) confirmed(ctx context.Context, u *discordtest.User, m *discordtest.Message, id string) (bool, error) {
	it, err := u.Click(m, id)
	a, err := p.Answer(ctx)(it, err)
	return err == nil && acked(it, a), err
}

// acked reports whether the answer m to it confirms a move: as it reads
// now, or as the player saw it when it came (the bot may have edited that
// view since: a hand view follows the game).
func acked(it *discordtest.Interaction, m *discordtest.Message) bool {
	if IsAck(m.Content) {
		return true
	}
	if t := it.CallbackType(); t == 4 || t == 7 {
		if a, ok := it.Answered(); ok && IsAck(a.Content) {
			return true
		}
	}
	return false
}

// ChannelView follows the public messages of a channel through Discord's
// message events, so looking at the channel costs only what changed since
// the last look (reading the whole channel copies every message each time).
type ChannelView struct {
	w     *discordtest.Watcher
	order []string                        // message IDs, oldest first
	msgs  map[string]*discordtest.Message // newest version, by ID
}

// NewChannelView starts following the channel; it must exist before the
// first message the caller cares about is posted.
func NewChannelView(srv *discordtest.Server, channelID string) *ChannelView {
	return &ChannelView{w: srv.Watch(channelID), msgs: map[string]*discordtest.Message{}}
}

// update takes in the events since the last look, without waiting.
func (v *ChannelView) update() {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for {
		ev, err := v.w.Next(done)
		if err != nil {
			return
		}
		m := ev.Message
		if _, ok := v.msgs[m.ID]; !ok {
			v.order = append(v.order, m.ID)
		}
		v.msgs[m.ID] = m
	}
}

// Messages returns the public messages now in the channel (not deleted),
// oldest first, as every member sees them. The messages are shared: read
// them, do not change them.
func (v *ChannelView) Messages() []*discordtest.Message {
	v.update()
	out := make([]*discordtest.Message, 0, len(v.order))
	for _, id := range v.order {
		if m := v.msgs[id]; !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

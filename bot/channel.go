package bot

import (
	"bytes"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
	"github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot/discordjson"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// The channel is a projection of the stored table. What it should show is
// a function of the table alone: one living message for the current turn
// (text, picture, buttons), edited through the turn's actions; a one-line
// log for each finished turn (its message, shrunk); the results of a
// finished game; a reminder while an action's time runs out. What Discord
// confirmed it shows is stored in Table.Shown. The reconciler (reconcile)
// compares the two and sends one request at a time for what is missing or
// outdated, recording each success, so it converges after a restart, a
// failed request or a crash at any point: after a crash between a request
// and its record, the request is repeated (edits and deletes are
// idempotent; a post whose outcome is unknown is first looked for among the
// channel's recent messages, so it is not posted twice).

// coalesceEdits is how long after a change of the live message an edit
// that only updates who has decided waits for more decisions to join it
// (Options.CoalesceEdits; tests shorten it). A new action or a new picture
// is shown at once.
const coalesceEdits = 2 * time.Second

// liveMaxAge is how old the live message may get before the turn is
// posted afresh (the old message deleted: deletes are not limited like
// edits of old messages). It leaves the turn's last edits, and the shrink
// to its log line when it ends, well inside Discord's hour.
const liveMaxAge = 45 * time.Minute

// settle moves what the channel shows on to the table's state without any
// request: a live message of a finished turn (or game) becomes a past turn
// with its log line; an earlier version's table message is stripped. It
// reports whether it changed t.
func settle(t *Table) bool {
	changed := false
	if t.TableMessage != "" { // stored by an earlier version
		t.Shown.Past = append(t.Shown.Past, PastTurn{Msg: t.TableMessage})
		t.TableMessage, t.Posted = "", 0
		changed = true
	}
	if t.Game == nil {
		return changed
	}
	if t.Shown.Turn != "" && (t.Stage != StagePlaying || t.Shown.Turn != t.TurnKey()) {
		// A turn that ended while it had no message (deleted to be posted
		// afresh, or by a moderator) gets its log line as a post of its own.
		t.Shown.Past = append(t.Shown.Past, PastTurn{Msg: t.Shown.Msg, Line: view.TurnLog(t, t.Shown.Turn)})
		t.Shown.Msg, t.Shown.Turn, t.Shown.Rev, t.Shown.Pic, t.Shown.Att = "", "", "", "", ""
		changed = true
	}
	return changed
}

// opKind is what the reconciler does next.
type opKind int

const (
	opNone          opKind = iota
	opDeleteRemind         // delete the reminder of an action that ended
	opShrink               // edit Past[0] to its log line
	opLookup               // find a post whose outcome is unknown
	opPost                 // post the live message
	opEdit                 // edit the live message (text, buttons, maybe picture)
	opPostResults          // post the results
	opPostReminder         // post a reminder for the current action
	opRepost               // delete a live message about to be an hour old
	opLater                // an edit of who has decided, coalesced (coalesceEdits)
	opRetireResults        // take "Play again" off results the table has moved past
	opLobby                // show a lobby whose answer may have been lost (Shown.LobbyPending)
	numOps                 // the number of operations (not one)
)

// opNames names the operations (opKind.String).
var opNames = [numOps]string{
	opNone: "none", opDeleteRemind: "delete reminder", opShrink: "shrink", opLookup: "lookup",
	opPost: "post turn", opEdit: "edit turn", opPostResults: "post results", opPostReminder: "post reminder",
	opRepost: "repost", opLater: "later", opRetireResults: "retire results", opLobby: "lobby",
}

// String names the operation.
func (k opKind) String() string {
	if k < 0 || k >= numOps {
		return fmt.Sprintf("opKind(%d)", int(k))
	}
	return opNames[k]
}

// nextOp is the next request that brings the channel to t (settled), or
// opNone when it shows t. It is a pure function of the stored table, the
// live message's wanted fingerprints, the time and how long edits of who
// has decided are coalesced.
func nextOp(t *Table, rev, pic string, now time.Time, coalesce time.Duration) opKind {
	s := &t.Shown
	switch {
	case t.Stage == StagePlaying && s.Msg != "" && !s.At.IsZero() && now.Sub(s.At) >= liveMaxAge && !t.Interactions:
		return opRepost
	case s.Reminder != "" && (t.Stage != StagePlaying || s.RemindAt != t.Stamp()):
		return opDeleteRemind
	case len(s.Past) > 0:
		return opShrink
	case s.ResultsLive && s.ResultsMsg != "" && !(t.Stage == StageOver && s.Results == t.GameNo):
		return opRetireResults
	case strings.HasPrefix(s.Posting, "results.") && t.Stage != StageOver && !t.Interactions:
		// Results posted just before the table moved on (Play again came
		// before their post was recorded): found, their Play again goes.
		return opLookup
	case t.Stage == StageLobby && s.LobbyPending:
		return opLobby
	case t.Game == nil:
		return opNone
	case t.Stage == StagePlaying && s.Msg == "":
		// A table on interactions alone cannot read the channel: a post
		// whose outcome is unknown is made again.
		if s.Posting == t.TurnKey() && !t.Interactions {
			return opLookup
		}
		return opPost
	case t.Stage == StagePlaying && (s.Rev != rev || s.Pic != pic):
		if s.Rev != "" && s.Pic == pic && s.Stamp == t.Stamp() && now.Before(s.Edited.Add(coalesce)) {
			return opLater
		}
		return opEdit
	case t.Stage == StageOver && s.Results != t.GameNo:
		if s.Posting == t.ResultsKey() && !t.Interactions {
			return opLookup
		}
		return opPostResults
	case t.Stage == StagePlaying && t.Reminded && s.Reminder == "" && s.RemindAt != t.Stamp() && !t.Interactions:
		return opPostReminder
	}
	return opNone
}

// liveView is the live message of the current turn (view.LiveTurn): its
// text, buttons, the public view its picture shows and their
// fingerprints.
func liveView(t *Table) (content string, comps []discordgo.MessageComponent, pv game.PublicView, rev, pic string) {
	v := view.LiveTurn(t)
	return v.Content, v.Components, v.Picture, controlsFingerprint(v.Content, v.Components), fingerprint(v.Picture)
}

// closed reports whether ch is closed (ch is only ever closed, never
// sent on).
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// liveMemo is the live view (liveView) a reconciler's step computed
// last and what it was computed from: the next step, which mostly finds
// the same game after recording a request, reuses it instead of building
// the buttons and hashing their JSON again. What it was computed from is
// the game's snapshot (the bytes t.Game was read from or saved as) and
// the JSON of the table's other fields the view reads (liveInputs).
type liveMemo struct {
	snapshot []byte
	inputs   []byte
	w        liveWant
}

// liveInputs are the fields of a table besides its game that view.LiveTurn
// reads.
type liveInputs struct {
	ID       string         `json:"id"`
	Seq      int            `json:"seq"`
	Lang     string         `json:"lang"`
	Variant  game.Variant   `json:"variant"`
	Deadline time.Time      `json:"deadline"`
	Seats    []session.Seat `json:"seats"`
	News     []session.News `json:"news"`
	Match    *game.Match    `json:"match"`
}

// verifyLiveMemo makes every reuse of a liveMemo compare it with the view
// computed afresh, panicking when they differ (the package's tests set it).
var verifyLiveMemo bool

// view is t's live view (liveView), reused from the memo when t's game
// snapshot and liveInputs are the ones it was computed from.
func (m *liveMemo) view(t *Table, answered *liveMemo) liveWant {
	if len(t.Snapshot) == 0 {
		*m = liveMemo{}
		var w liveWant
		w.content, w.comps, w.pv, w.rev, w.pic = liveView(t)
		return w
	}
	bp := jsonBufs.Get().(*[]byte)
	defer jsonBufs.Put(bp)
	in, err := appendLiveInputs((*bp)[:0], t)
	*bp = in
	if err == nil {
		if m.shows(t, in) {
			return m.w
		}
		if answered != nil && answered.shows(t, in) {
			*m = *answered
			return m.w
		}
	}
	var w liveWant
	w.content, w.comps, w.pv, w.rev, w.pic = liveView(t)
	*m = liveMemo{}
	if err == nil {
		// The snapshot's bytes are never changed in place (Table.Encode
		// replaces them): kept as they are.
		*m = liveMemo{snapshot: t.Snapshot, inputs: bytes.Clone(in), w: w}
	}
	return w
}

// shows reports whether m is the live view of t, whose liveInputs' JSON
// is in; with verifyLiveMemo, it panics when m is taken for a table whose
// view is another.
func (m *liveMemo) shows(t *Table, in []byte) bool {
	if m.inputs == nil || !bytes.Equal(m.snapshot, t.Snapshot) || !bytes.Equal(m.inputs, in) {
		return false
	}
	if verifyLiveMemo {
		content, comps, pv, rev, pic := liveView(t)
		if content != m.w.content || rev != m.w.rev || pic != m.w.pic || fingerprint(comps) != fingerprint(m.w.comps) || fingerprint(pv) != fingerprint(m.w.pv) {
			panic(fmt.Sprintf("bot: the live view kept (%q, %s, %s) is not the view of the table (%q, %s, %s)", m.w.content, m.w.rev, m.w.pic, content, rev, pic))
		}
	}
	return true
}

// appendLiveInputs appends the JSON of t's liveInputs to b.
func appendLiveInputs(b []byte, t *Table) ([]byte, error) {
	return json.Append(b, liveInputs{ID: t.ID, Seq: t.Seq, Lang: t.Lang, Variant: t.Variant, Deadline: t.Deadline, Seats: t.Seats, News: t.News, Match: t.Match}, 0)
}

// noteAnsweredLive remembers w, the live view a click answered with, as
// the view of t, just saved (its snapshot written): the reconciler, which
// reads the same table next, takes it instead of computing it again.
func (b *Bot) noteAnsweredLive(channelID string, t *Table, w liveWant) {
	if len(t.Snapshot) == 0 {
		return
	}
	in, err := appendLiveInputs(nil, t)
	if err != nil {
		return
	}
	b.answeredLive.Store(channelID, &liveMemo{snapshot: t.Snapshot, inputs: in, w: w})
}

// answeredLiveOf is the live view a click in the channel last answered
// with (noteAnsweredLive), if any.
func (b *Bot) answeredLiveOf(channelID string) *liveMemo {
	if v, ok := b.answeredLive.Load(channelID); ok {
		return v.(*liveMemo)
	}
	return nil
}

// fingerprint hashes values' JSON.
func fingerprint(vs ...any) string {
	h := fnv.New64a()
	hashJSON(h, vs...)
	return hex16(h.Sum64())
}

// controlsFingerprint hashes a message's text and components as they are
// sent.
func controlsFingerprint(content string, comps []discordgo.MessageComponent) string {
	h := fnv.New64a()
	hashJSON(h, content)
	b, _ := discordjson.ComponentsJSON(comps)
	h.Write(b)
	return hex16(h.Sum64())
}

// hashJSON writes values' JSON to h: json.Marshal's bytes (its flags),
// in a pooled buffer rather than a copy each. A value that does not
// encode is left out.
func hashJSON(h hash.Hash, vs ...any) {
	bp := jsonBufs.Get().(*[]byte)
	for _, v := range vs {
		if b, err := json.Append((*bp)[:0], v, json.EscapeHTML|json.SortMapKeys); err == nil {
			h.Write(b)
			*bp = b
		}
	}
	jsonBufs.Put(bp)
}

// jsonBufs are buffers for the JSON the fingerprints hash and forget.
var jsonBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// hex16 is fmt.Sprintf("%016x", v).
func hex16(v uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// reconcile brings the channel to the stored table, one request at a
// time, except that an edit of a message already posted goes on while the
// next requests, which do not touch that message, are sent (editInFlight):
// a slow edit of the old turn's message does not hold up the new turn's.
// A failed request is retried a few times with backoff (discordgo itself
// waits out 429s). When it gives up, the channel is left for the periodic
// sweep (Tick) to try again: it returns either way, so that a newer state
// is never stuck behind an old request. Its messages to log name the
// channel (no sub-logger per pass: most passes log nothing).
func (b *Bot) reconcile(log zerolog.Logger, channelID string) {
	delay := 250 * time.Millisecond
	failures := 0
	s := &step{b: b, log: log, ch: channelID}
	defer func() {
		// Whatever ended the work, the edit in flight is waited for and
		// recorded: nothing else may touch its message meanwhile.
		if s.fl.msg != "" {
			if err := s.joinEdit(<-s.fl.done); err != nil {
				if b.life.Err() == nil {
					log.Warn().Str("channel", channelID).Err(withoutURL(err)).Msg("channel update failed; the sweep will try again")
				}
				b.unsettled.Store(channelID, true)
			}
		}
	}()
	key := channelKey(channelID)
	var kicked <-chan struct{}
	stop := func() {}
	defer func() { stop() }()
	for steps := 0; steps < 64; steps++ {
		// A change of the table from here on kicks the channel: it ends
		// a wait for an edit in flight, whose message it leaves alone.
		// A wait not kicked yet serves the next step as well.
		if kicked == nil || closed(kicked) {
			stop()
			kicked, stop = b.refresh.nextKick(key)
		}
		done, err := s.run()
		if done && s.fl.msg != "" {
			// Nothing left to do beside the edit in flight: wait for it,
			// or for news (the next turn, say) to show meanwhile.
			select {
			case res := <-s.fl.done:
				err = s.joinEdit(res)
			case <-kicked:
				steps-- // not a request
			}
			done = false
		}
		if done {
			b.unsettled.Delete(channelID)
			return
		}
		if err == nil {
			failures, delay = 0, 250*time.Millisecond
			continue
		}
		if errors.Is(err, errNoToken) {
			log.Debug().Str("channel", channelID).Msg("the table waits for a click to show its change")
			b.unsettled.Store(channelID, true)
			return
		}
		failures++
		if b.life.Err() != nil && errors.Is(err, b.life.Err()) {
			// Shutting down: the stored table says what the channel last
			// showed, and the next start brings it up to date.
			log.Debug().Str("channel", channelID).Err(err).Msg("channel update stopped by the shutdown")
			b.unsettled.Store(channelID, true)
			return
		}
		if b.closing.Load() || failures > 4 || permanent(err) {
			log.Error().Str("channel", channelID).Err(withoutURL(err)).Int("failures", failures).Msg("channel update failed; the sweep will try again")
			b.unsettled.Store(channelID, true)
			return
		}
		log.Warn().Str("channel", channelID).Err(withoutURL(err)).Dur("retry_in", delay).Msg("channel update failed")
		select {
		case <-time.After(delay):
		case <-b.life.Done():
			// Shutting down: the next process (or the sweep) goes on.
			b.unsettled.Store(channelID, true)
			return
		}
		delay = min(2*delay, 8*time.Second)
	}
	// A handful of requests brings any table's channel up to date; this
	// many means a step that does not record its progress.
	log.Error().Str("channel", channelID).Msg("channel not converged after 64 requests; the sweep will try again")
	b.unsettled.Store(channelID, true)
}

// permanent reports whether a request's error will not go away by itself
// (Discord refused its form): retrying now would only repeat it.
func permanent(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return false
	}
	c := re.Response.StatusCode
	return c >= 400 && c < 500 && c != 429 && c != 408
}

// sweep kicks the channels whose last reconcile gave up.
func (b *Bot) sweep() {
	b.unsettled.Range(func(k, _ any) bool {
		b.refresh.kick(b, k.(string))
		return true
	})
}

// step is the reconciler's work on one channel (reconcile): the bot whose
// store, locks, Discord session and kept tokens its requests use, the
// channel, and what carries from one step to the next: the table the
// previous step saved (keep) and the edit in flight (fl). Its methods are
// a step (run) and the parts of one: load, the operations
// (reconcile_ops.go) and record.
type step struct {
	b    *Bot
	log  zerolog.Logger
	ch   string
	keep keptTable
	fl   editInFlight
	live liveMemo
}

// editInFlight is an edit of a message already posted (the live message,
// a finished turn's, the results) that the reconciler sent without waiting
// for its answer, so that a slow one holds up only what touches its
// message: while it is in flight the reconciler sends what else is
// missing (the next turn's message above all), leaving that message out;
// then it waits for the edit, or for a change of the table to show, and
// records the edit once answered (joinEdit). One is in flight at a time;
// msg is "" when none is.
type editInFlight struct {
	msg   string     // the message edited (out.edited)
	table string     // the table's ID when it was sent
	out   stepOut    // the edit and the record of its success
	done  chan error // its outcome
}

// start sends out's edit (out.send) of its message on a worker of its own
// (spawn).
func (f *editInFlight) start(table string, out stepOut) {
	done := make(chan error, 1)
	*f = editInFlight{msg: out.edited, table: table, out: out, done: done}
	spawn(func() { done <- out.send() })
}

// joinEdit takes the outcome of the edit in flight (err, received from
// s.fl.done) and records its success, like a step's request; s.fl is
// then empty.
func (s *step) joinEdit(err error) error {
	table, out := s.fl.table, s.fl.out
	s.fl = editInFlight{}
	if err != nil {
		return err
	}
	return s.record(table, out)
}

// run does one request (a step); done is true when there was none to do.
// s.keep carries the table the previous step saved to this one. An edit of
// a posted message is sent on without waiting when s.fl has none in flight
// (editInFlight); while one is, its message is left out of the step.
//
// A step is load (step.load: the table, settled and saved if that changed
// it, and what the channel shows) -> decide (nextOp: the one operation
// due) -> the operation's method (its request) -> save (step.record: the
// record of its success, after Discord answered). See reconcile_ops.go.
func (s *step) run() (done bool, err error) {
	t, err := s.load()
	if _, ok := asUnreadable(err); ok {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if t == nil || t.Private != "" {
		return true, nil // no table, or one no channel shows
	}
	w := wantedLive(t, &s.fl, &s.live, s.b.answeredLiveOf(s.ch))
	var out stepOut
	switch op := nextOp(t, w.rev, w.pic, s.b.opt.Now(), s.b.opt.CoalesceEdits); op {
	case opNone:
		return true, nil
	case opLater:
		s.b.later.Store(s.ch, t.Shown.Edited.Add(s.b.opt.CoalesceEdits))
		return true, nil
	case opRepost:
		return false, s.repostLive(t)
	case opDeleteRemind:
		out, err = s.deleteReminder(t)
	case opShrink:
		out = s.shrinkPast(t)
	case opPost:
		out, err = s.postTurn(t, w)
	case opPostResults:
		out, err = s.postResults(t)
	case opLookup:
		out, err = s.lookupPost(t)
	case opEdit:
		out, err = s.editLive(t, w)
	case opRetireResults:
		out = s.retireResults(t)
	case opLobby:
		out, err = s.showLobby(t)
	case opPostReminder:
		out, err = s.postReminder(t)
	default:
		return false, fmt.Errorf("bot: reconcile: unknown operation %v", op)
	}
	if err == nil && out.send != nil {
		if out.edited != "" && s.fl.msg == "" {
			s.fl.start(t.ID, out)
			return false, nil
		}
		err = out.send()
	}
	if err != nil {
		return false, err
	}
	return false, s.record(t.ID, out)
}

// record records a request's success (out.record) in the stored table,
// if it is still table tableID's, and keeps what it saved for the next
// step (keep); with the next durable write when out.later.
func (s *step) record(tableID string, out stepOut) error {
	unlock := s.b.locks.Lock(s.ch)
	defer unlock()
	cur, err := s.b.loadTableShown(s.b.life, s.ch) // records change only Shown
	if err != nil || cur == nil || cur.ID != tableID {
		return err // the table changed hands: start over
	}
	out.record(cur)
	// Shrinks sent as answers are done. The newest is kept, marked Sent,
	// until a forced pass (Start) makes sure of it: a crash may have lost
	// that answer, and only that one (a failed answer forces at once).
	lastSent := -1
	for i, p := range cur.Shown.Past {
		if p.Sent {
			lastSent = i
		}
	}
	kept := cur.Shown.Past[:0]
	for i, p := range cur.Shown.Past {
		if !p.Sent || i == lastSent {
			kept = append(kept, p)
		}
	}
	cur.Shown.Past = kept
	save := s.b.saveTableShown
	if out.later {
		save = s.b.saveTableShownLater
	}
	blob, err := save(s.b.life, s.ch, cur)
	if err == nil {
		s.keep.t, s.keep.blob = cur, blob
	}
	return err
}

// adoptResults records a posted (or found) results message: its ID, that
// it offers "Play again", and its record and review buttons.
func adoptResults(s *Shown, m *discordgo.Message) {
	if m == nil {
		return
	}
	s.ResultsMsg, s.ResultsLive, s.ResultsRecord, s.ResultsReview = m.ID, false, "", ""
	for _, id := range messageCustomIDs(m) {
		if a, err := customid.Decode(id); err == nil {
			switch a.Verb {
			case "again":
				s.ResultsLive = true
			case "record":
				s.ResultsRecord = id
			case "review":
				s.ResultsReview = id
			}
		}
	}
}

// shrink edits a finished turn's message to its log line, without buttons
// or picture (only strips the buttons when it has no line); a message
// already gone (deleted by a moderator) is no error.
func (b *Bot) shrink(channelID string, p PastTurn, tokensOnly bool) error {
	if p.Msg == "" {
		if p.Line == "" {
			return nil
		}
		_, err := b.post(channelID, &discordgo.MessageSend{
			Content: p.Line, AllowedMentions: &discordgo.MessageAllowedMentions{}}, tokensOnly)
		return err
	}
	edit := view.ShrunkTurn(p.Line)
	edit.ID, edit.Channel = p.Msg, channelID
	if _, err := b.editMessage(edit, tokensOnly); err != nil && !notFound(err) {
		return err
	}
	return nil
}

// liveToken is an interaction kept for its token, which edits a message
// as an interaction request (the global rate limit does not count it) for
// as long as the token lives: a click answered by updating the clicked
// message (type 7: Discord's @original is that message), or the
// interaction whose follow-up the message is (followup). In postTokens it
// is the channel's newest interaction that may make follow-ups.
type liveToken struct {
	msg string
	it  *discordgo.Interaction
	at  time.Time // when the interaction arrived (its token's age)
	// followup is set when msg is a follow-up of it (FollowupPosts), not
	// its original response.
	followup bool
	// budget, if set, is how many more follow-ups the interaction may
	// make (a user's install: userInstallFollowups).
	budget *atomic.Int32
}

// post sends a new message of the channel: with a young token of the
// channel's newest command or click (postTokens), as a follow-up of that
// interaction, whose token then edits it (liveTokens); else, or when
// Discord refuses the follow-up, as the channel's own post. A follow-up
// whose outcome is unknown (a server error, a broken connection) is not
// posted again here: the caller's error leaves the post to be looked up
// (opLookup) before it is made again.
//
// With tokensOnly (a table where the bot is no member, Table.Interactions)
// there is no channel post to fall back to: without a token it returns
// errNoToken, and the next click brings one.
func (b *Bot) post(channelID string, send *discordgo.MessageSend, tokensOnly bool) (*discordgo.Message, error) {
	if v, ok := b.postTokens.Load(channelID); ok {
		lt := v.(liveToken)
		if b.opt.Now().Sub(lt.at) < liveTokenLife && (lt.budget == nil || lt.budget.Add(-1) >= 0) {
			msg, err := b.dc.FollowupMessageCreate(lt.it, true, &discordgo.WebhookParams{
				Content: send.Content, Embeds: send.Embeds, Components: send.Components, Files: send.Files, AllowedMentions: send.AllowedMentions,
			})
			if err == nil && msg != nil {
				b.liveTokens.Store(msg.ID, liveToken{msg: msg.ID, it: lt.it, at: lt.at, followup: true})
				return msg, nil
			}
			if !permanent(err) { // unknown outcome: looked up, not sent again
				return nil, err
			}
			rewind(send.Files)
		}
		b.postTokens.CompareAndDelete(channelID, v)
	}
	if tokensOnly {
		return nil, errNoToken
	}
	return b.dc.ChannelMessageSendComplex(channelID, send)
}

// keepTokenIn keeps the newest post token of a table on interactions
// alone in the table (Shown.Token), so that a restart can go on with it,
// and after a restart takes the kept one back while it is young (also
// for edits of the live message it made, Shown.MsgBy). It reports whether
// t changed.
func (b *Bot) keepTokenIn(t *Table) bool {
	ch := t.ChannelID
	if v, ok := b.postTokens.Load(ch); ok {
		lt := v.(liveToken)
		if t.Shown.Token != nil && t.Shown.Token.ID == lt.it.ID {
			return false
		}
		budget := -1
		if lt.budget != nil {
			budget = int(max(0, lt.budget.Load()))
		}
		t.Shown.Token = &session.Token{ID: lt.it.ID, App: lt.it.AppID, Value: lt.it.Token, At: lt.at, Budget: budget}
		return true
	}
	kt := t.Shown.Token
	if kt == nil || b.opt.Now().Sub(kt.At) >= liveTokenLife {
		return false
	}
	lt := liveToken{it: &discordgo.Interaction{ID: kt.ID, AppID: kt.App, Token: kt.Value, ChannelID: ch}, at: kt.At}
	if kt.Budget >= 0 {
		lt.budget = new(atomic.Int32)
		lt.budget.Store(int32(kt.Budget))
	}
	b.postTokens.LoadOrStore(ch, lt)
	if t.Shown.Msg != "" && t.Shown.MsgBy == kt.ID {
		follow := lt
		follow.msg, follow.followup = t.Shown.Msg, true
		b.liveTokens.LoadOrStore(t.Shown.Msg, follow)
	}
	return false
}

// beyondEdit reports whether err says that a message of a table on
// interactions alone is beyond any edit (no young token may make it: a
// timer decided after the tokens aged out, or a restart) while a new
// message can still be posted: the message then stays as it is, its
// buttons answering that they are outdated, and the reconciler moves on.
func (b *Bot) beyondEdit(err error, channelID string) bool {
	return errors.Is(err, errNoToken) && b.hasPostToken(channelID)
}

// hasPostToken reports whether the channel has a young token for a new
// message (postTokens).
func (b *Bot) hasPostToken(channelID string) bool {
	v, ok := b.postTokens.Load(channelID)
	if !ok {
		return false
	}
	lt := v.(liveToken)
	return b.opt.Now().Sub(lt.at) < liveTokenLife && (lt.budget == nil || lt.budget.Load() > 0)
}

// errNoToken: a table on interactions alone has no young token to show a
// change with; the next click brings one (and kicks the reconciler).
var errNoToken = errors.New("bot: no interaction token to show the change with; waiting for the next click")

// rewind puts files back at their start, to be sent again.
func rewind(files []*discordgo.File) {
	for _, f := range files {
		if sk, ok := f.Reader.(io.Seeker); ok {
			sk.Seek(0, io.SeekStart)
		}
	}
}

// tokenOnly is what a kept interaction needs for its token's requests
// (its ID, application, token and channel), without the rest (its
// message, components, member), which thousands of kept interactions
// would hold in memory for their tokens' life.
func tokenOnly(i *discordgo.Interaction) *discordgo.Interaction {
	return &discordgo.Interaction{ID: i.ID, AppID: i.AppID, Token: i.Token, ChannelID: i.ChannelID, Type: i.Type}
}

// liveTokenLife is how long the bot uses a live message's token: Discord's
// tokens live 15 minutes, and the margin keeps a slow edit inside them.
const liveTokenLife = 14 * time.Minute

// editMessage edits a channel message: through the token of the newest
// click answered on it (liveToken) while that token is young, else (or
// if that fails) with the channel's own request; with tokensOnly
// (Table.Interactions) not at all (errNoToken).
func (b *Bot) editMessage(edit *discordgo.MessageEdit, tokensOnly bool) (*discordgo.Message, error) {
	b.noteEditView(edit)
	if v, ok := b.liveTokens.Load(edit.ID); ok {
		lt := v.(liveToken)
		switch {
		case b.opt.Now().Sub(lt.at) >= liveTokenLife:
			b.liveTokens.CompareAndDelete(edit.ID, v)
		default:
			we := &discordgo.WebhookEdit{
				Content: edit.Content, Components: edit.Components, Embeds: edit.Embeds, Files: edit.Files,
				Attachments: edit.Attachments, AllowedMentions: edit.AllowedMentions,
			}
			var msg *discordgo.Message
			var err error
			if lt.followup {
				msg, err = b.dc.FollowupMessageEdit(lt.it, edit.ID, we)
			} else {
				msg, err = b.dc.InteractionResponseEdit(lt.it, we)
			}
			if err == nil {
				return msg, nil
			}
			b.liveTokens.CompareAndDelete(edit.ID, v) // the channel's request instead
			rewind(edit.Files)
		}
	}
	if tokensOnly {
		return nil, errNoToken
	}
	return b.dc.ChannelMessageEditComplex(edit)
}

// deleteMessage deletes a message; one already gone is no error.
func (b *Bot) deleteMessage(channelID, messageID string) error {
	if err := b.dc.ChannelMessageDelete(channelID, messageID); err != nil && !notFound(err) {
		return err
	}
	return nil
}

// liveUpdate is a click's answer that updates the live message it was
// clicked on (an interaction response of type 7, which Discord does not
// count against the bot's global rate limit): the turn's message as it is
// now, or its log line when the click ended the turn.
type liveUpdate struct {
	w       liveWant // the view shown (not for a shrink)
	content string
	comps   []discordgo.MessageComponent
	png     []byte // a new picture, if it changed
	shrink  bool
}

// liveAnswer makes the update of t's live message after a click on it and
// records it in t.Shown as shown (Unsure until the next reconcile), or
// returns nil when the click is better answered privately (the reconciler
// then updates the message). It runs under the channel's lock, before the
// table is saved.
func (b *Bot) liveAnswer(t *Table) *liveUpdate {
	t.Advance() // the buttons carry the stamp this state is saved with
	if t.Stage == StagePlaying && t.Shown.Turn == t.TurnKey() {
		content, comps, pv, rev, pic := liveView(t)
		u := &liveUpdate{content: content, comps: comps, w: liveWant{content: content, comps: comps, pv: pv, rev: rev, pic: pic}}
		if pic != t.Shown.Pic {
			png, err := b.rd.Table(pv, LangFor(t.Lang))
			if err != nil {
				return nil
			}
			u.png = png
			t.Shown.Att = "" // the new picture's attachment is not known
		}
		t.Shown.Rev, t.Shown.Pic, t.Shown.Unsure = rev, pic, true
		t.Shown.Stamp, t.Shown.Edited = t.Stamp(), b.opt.Now().UTC()
		return u
	}
	msg := t.Shown.Msg
	if !settle(t) || len(t.Shown.Past) == 0 || t.Shown.Past[len(t.Shown.Past)-1].Msg != msg {
		return nil
	}
	p := &t.Shown.Past[len(t.Shown.Past)-1]
	p.Sent, t.Shown.Unsure = true, true
	return &liveUpdate{content: p.Line, shrink: true}
}

// response is the interaction response carrying u.
func (u *liveUpdate) response() *discordgo.InteractionResponse {
	data := &discordgo.InteractionResponseData{Content: u.content, Components: u.comps, AllowedMentions: &discordgo.MessageAllowedMentions{}}
	switch {
	case u.shrink:
		data.Components = []discordgo.MessageComponent{}
		data.Attachments = &[]*discordgo.MessageAttachment{}
	case u.png != nil:
		data.Files, data.Attachments = view.NewPicture("table.png", u.png)
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data}
}

// adopt makes msg, showing the state with the given stamp, the live
// message of turn key.
func (b *Bot) adopt(t *Table, msg *discordgo.Message, key, rev, pic string, stamp int) {
	if msg == nil {
		return
	}
	if t.Game == nil || t.Stage != StagePlaying || t.TurnKey() != key {
		// The turn ended meanwhile: the message is a past turn already.
		t.Shown.Past = append(t.Shown.Past, PastTurn{Msg: msg.ID, Line: view.TurnLog(t, key)})
		return
	}
	t.Shown.Msg, t.Shown.Turn, t.Shown.Rev, t.Shown.Pic, t.Shown.Att = msg.ID, key, rev, pic, attachmentID(msg)
	t.Shown.At = b.opt.Now().UTC()
	t.Shown.Stamp, t.Shown.Edited = stamp, t.Shown.At
	b.reposts.Store(t.ChannelID, t.Shown.At.Add(liveMaxAge))
}

// pruneTokens forgets the interactions kept for their tokens once the bot
// no longer uses them: live messages' tokens after liveTokenLife, hand
// views' after handRefreshWindow. Their use checks the age too; this
// drops those never used again (a channel gone quiet, a game over), so
// that no token stays in memory past its life.
func (b *Bot) pruneTokens(now time.Time) {
	for _, m := range []*sync.Map{&b.liveTokens, &b.postTokens} {
		m.Range(func(k, v any) bool {
			if now.Sub(v.(liveToken).at) >= liveTokenLife {
				m.CompareAndDelete(k, v)
			}
			return true
		})
	}
	b.hands.prune(now)
}

// sweepDue kicks the channels whose live message is due to be posted
// afresh (liveMaxAge) or whose coalesced edit is due (CoalesceEdits).
func (b *Bot) sweepDue(now time.Time) {
	for _, m := range []*sync.Map{&b.reposts, &b.later} {
		m.Range(func(k, v any) bool {
			if !now.Before(v.(time.Time)) {
				m.Delete(k)
				b.refresh.kick(b, k.(string))
			}
			return true
		})
	}
}

// findPost looks among the channel's newest messages for the bot's post
// for key (a turn's message or the results), made before a crash or a
// failed answer: its buttons carry the table's id, and a turn's message
// the table's stamp as it was posted (the state is the one stored: a
// post's intent is recorded with it). An earlier turn's message, whose
// shrink to its log line may still be on its way (an answer Discord
// applies late, or an edit in flight), is never taken for it: its buttons
// carry an earlier stamp.
func (s *step) findPost(t *Table, key string) (*discordgo.Message, error) {
	msgs, err := s.b.dc.ChannelMessages(s.ch, 25, "", "", "")
	if err != nil {
		return nil, err
	}
	results := strings.HasPrefix(key, "results.")
	for _, m := range msgs {
		for _, id := range messageCustomIDs(m) {
			a, err := customid.Decode(id)
			if err != nil || a.Table != t.ID {
				continue
			}
			// A results message is known by its Play again button (an
			// earlier game's keeps only its Record button).
			if results == (a.View == customid.ViewResults && a.Verb == "again") && (results || a.View == customid.ViewTable && a.Stamp == t.Stamp()) {
				return m, nil
			}
		}
	}
	return nil, nil
}

// findLobby looks among the channel's newest messages for the lobby of t
// as it is now: its buttons carry the table's id and its stamp.
func (s *step) findLobby(t *Table) (*discordgo.Message, error) {
	msgs, err := s.b.dc.ChannelMessages(s.ch, 25, "", "", "")
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		for _, id := range messageCustomIDs(m) {
			if a, err := customid.Decode(id); err == nil && a.Table == t.ID && a.View == customid.ViewLobby && a.Stamp == t.Stamp() {
				return m, nil
			}
		}
	}
	return nil, nil
}

// messageCustomIDs lists the custom_ids of a message's buttons and menus.
func messageCustomIDs(m *discordgo.Message) []string {
	var ids []string
	for _, row := range m.Components {
		ar, ok := row.(*discordgo.ActionsRow)
		if !ok {
			if v, ok2 := row.(discordgo.ActionsRow); ok2 {
				ar = &v
			} else {
				continue
			}
		}
		for _, c := range ar.Components {
			switch x := c.(type) {
			case *discordgo.Button:
				ids = append(ids, x.CustomID)
			case discordgo.Button:
				ids = append(ids, x.CustomID)
			case *discordgo.SelectMenu:
				ids = append(ids, x.CustomID)
			case discordgo.SelectMenu:
				ids = append(ids, x.CustomID)
			}
		}
	}
	return ids
}

// attachmentID is the ID of a message's first attachment.
func attachmentID(m *discordgo.Message) string {
	if m == nil || len(m.Attachments) == 0 {
		return ""
	}
	return m.Attachments[0].ID
}

// notFound reports whether err is Discord's answer for a message that no
// longer exists (deleted).
func notFound(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == 404
}

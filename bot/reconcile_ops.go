package bot

// The reconciler's step (step.run) is load -> decide -> one
// operation -> save: step.load reads the stored table and what the
// channel shows; nextOp, a pure function, names the one operation due
// (opKind); the operation's method below sends its request and returns
// the record of its success (stepOut); step.record saves that record in
// the stored table. An operation's record runs on the table as stored
// when the request was answered, which may have moved on meanwhile: it
// changes only what its request changed (the same message, the same
// key), so a newer state is never overwritten by an older answer.
//
// Crash windows: a request whose answer came but whose record did not
// reach the store is repeated by the next start's pass (Start kicks
// every channel that shows a game). So the records of requests whose
// repeat does no harm (stepOut.later) do not wait for a commit of their
// own: they go to disk with the next durable write, a move's most often
// (session.LaterTables), which saves the reconciler about one fsync in
// three.
// Edits and deletes are idempotent (a message already gone is no error);
// a post records its intent first (Shown.Posting), so that after a crash
// it is looked for (opLookup) before it is made again.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// stepOut is what an operation's method leaves to step.run: the
// record of its request's success (record, run by step.record on the
// stored table) and, for an edit of a message already posted, the
// request itself (send), not yet sent, with the message it edits
// (edited; "" when it touches no posted message), so that it may go on
// in flight (editInFlight) while the next steps run.
type stepOut struct {
	record func(cur *Table)
	send   func() error
	edited string
	// later: the record may go to disk with the next durable write
	// (saveTableShownLater), as a crash before it only repeats the
	// request harmlessly: an edit or a delete (idempotent), a look-up, a
	// post whose intent is stored (Shown.Posting, looked for after a
	// crash). A post that nothing would look for records at once.
	later bool
}

// liveWant is the live message of the current turn as the stored table
// wants it shown (liveView): its text, buttons, the public view its
// picture shows and their fingerprints. It is zero unless a game is in
// play.
type liveWant struct {
	content string
	comps   []discordgo.MessageComponent
	pv      game.PublicView
	rev     string
	pic     string
}

// load loads the table for a step (the one the previous step saved,
// keep, while it is what the store holds) and, under the channel's lock,
// settles it (settle), keeps a table on interactions alone's newest token
// in it (keepTokenIn) and, on a forced pass (forced: after a restart or a
// lost click answer), marks what went out as click answers as unsent;
// when any of these changed it, it is saved before any request. The table
// returned is the step's own copy, never saved: the shrinks that went out
// as click answers (Sent) and the message whose edit is in flight (fl)
// are left out of it, so that no operation touches them. It returns a nil
// table when the channel has none.
func (s *step) load() (*Table, error) {
	_, forced := s.b.force.LoadAndDelete(s.ch)
	unlock := s.b.locks.Lock(s.ch)
	t, err := s.b.loadTableKept(s.b.life, s.ch, &s.keep)
	if err == nil && t != nil {
		changed := settle(t)
		if t.Interactions && s.b.keepTokenIn(t) {
			changed = true
		}
		if forced {
			// What went out as click answers may have been lost: send it
			// again, as the channel's own requests.
			t.Shown.Rev, t.Shown.Pic, t.Shown.Unsure = "", "", false
			for i := range t.Shown.Past {
				t.Shown.Past[i].Sent = false
			}
			changed = true
		}
		if changed {
			_, err = s.b.saveTableShown(s.b.life, s.ch, t)
		}
	}
	unlock()
	if t != nil {
		// Shrinks that went out as click answers are shown.
		t.Shown.Past = slices.DeleteFunc(t.Shown.Past, func(p PastTurn) bool { return p.Sent })
		if busy := s.fl.msg; busy != "" {
			// The message whose edit is in flight is left alone until
			// that edit is answered (joinEdit): this step's copy of the
			// table, never saved, has nothing to do with it.
			t.Shown.Past = slices.DeleteFunc(t.Shown.Past, func(p PastTurn) bool { return p.Msg == busy })
			if t.Shown.ResultsMsg == busy {
				t.Shown.ResultsLive = false
			}
		}
	}
	return t, err
}

// wantedLive is the live message t (a step's copy) wants shown while a
// game is in play (zero otherwise). While the live message's own edit is
// in flight (fl), it wants what that message shows, and no repost, so
// that no other operation touches it. memo is the step's last view,
// reused while the table shows the same (liveMemo), and answered the view
// a click last answered with, taken when it is the same table's.
func wantedLive(t *Table, fl *editInFlight, memo, answered *liveMemo) liveWant {
	var w liveWant
	if t.Game != nil && t.Stage == StagePlaying {
		w = memo.view(t, answered)
		if fl.msg != "" && t.Shown.Msg == fl.msg {
			w.rev, w.pic, t.Shown.At = t.Shown.Rev, t.Shown.Pic, time.Time{} // no edit, no repost
		}
	}
	return w
}

// repostLive deletes the live message of a turn in play that is about to
// be an hour old (opRepost: due after liveMaxAge, never on a table on
// interactions alone), so that the next step posts the turn afresh. It is
// the one operation that sends its request under the channel's lock,
// reloading the table first: the turn cannot end between the check and
// the delete, as a finished turn's message must stay to carry its log
// line (rare, once per 45 minutes of a turn, so holding clicks back for
// one request is fine). When the table changed meanwhile it sends
// nothing, and the next step looks again. A crash after the delete and
// before its record leaves Shown.Msg naming a deleted message: its edit
// finds it gone and the turn is posted again.
func (s *step) repostLive(t *Table) error {
	unlock := s.b.locks.Lock(s.ch)
	defer unlock()
	cur, err := s.b.loadTable(s.b.life, s.ch)
	if err != nil || cur == nil || cur.ID != t.ID || cur.Stage != StagePlaying || cur.TurnKey() != t.Shown.Turn || cur.Shown.Msg != t.Shown.Msg {
		return err // changed meanwhile: look again
	}
	if err = s.b.deleteMessage(s.ch, cur.Shown.Msg); err == nil {
		cur.Shown.Msg, cur.Shown.Rev, cur.Shown.Pic, cur.Shown.Att, cur.Shown.At = "", "", "", "", time.Time{}
		err = s.b.saveTable(s.b.life, s.ch, cur)
	}
	return err
}

// deleteReminder deletes the reminder of an action that ended
// (opDeleteRemind: due when the table left play or moved to another
// action). Its record forgets the reminder only if it is still the one
// deleted. A crash before the record repeats the delete, which finds the
// message gone: no error.
func (s *step) deleteReminder(t *Table) (stepOut, error) {
	id := t.Shown.Reminder
	err := s.b.deleteMessage(s.ch, id)
	return stepOut{later: true, record: func(cur *Table) {
		if cur.Shown.Reminder == id {
			cur.Shown.Reminder = ""
		}
	}}, err
}

// shrinkPast edits the oldest finished turn's message (Shown.Past[0]) to
// its log line, or posts the line in its place among the posts when that
// turn had no message (opShrink: due before anything else but a repost
// and a reminder's delete, so that past turns read in order). The edit
// may go on in flight; a message beyond any edit (a table on
// interactions alone without a young token for it) stays as it is. Its
// record drops that past turn, and the message's token once nothing
// edits the message again. A crash before the record repeats the edit
// (the same line: idempotent) or, for a line posted on its own, the post.
func (s *step) shrinkPast(t *Table) stepOut {
	p := t.Shown.Past[0]
	return stepOut{
		edited: p.Msg, // "": the line is posted, in its place among the posts
		later:  p.Msg != "",
		send: func() error {
			err := s.b.shrink(s.ch, p, t.Interactions)
			if s.b.beyondEdit(err, s.ch) {
				err = nil // it stays as it is
			}
			return err
		},
		record: func(cur *Table) {
			cur.Shown.Past = slices.DeleteFunc(cur.Shown.Past, func(q PastTurn) bool { return q.Msg == p.Msg && q.Line == p.Line && !q.Sent })
			if !slices.ContainsFunc(cur.Shown.Past, func(q PastTurn) bool { return q.Msg == p.Msg }) && cur.Shown.Msg != p.Msg {
				s.b.liveTokens.Delete(p.Msg) // a past turn's message: nothing edits it again
			}
		},
	}
}

// markPosting records in the stored table the intent to post key (a
// turn's message or the results), Shown.Posting, before the post is sent:
// a crash after Discord took the post but before its ID is stored must
// not post it twice (opLookup finds it). The intent is recorded only
// while the stored table is still in the state of t (same table, same
// stamp); the post goes out either way.
func (s *step) markPosting(t *Table, key string) error {
	unlock := s.b.locks.Lock(s.ch)
	defer unlock()
	cur, err := s.b.loadTableShown(s.b.life, s.ch)
	if err == nil && cur != nil && cur.ID == t.ID && cur.Stamp() == t.Stamp() {
		cur.Shown.Posting = key
		_, err = s.b.saveTableShown(s.b.life, s.ch, cur)
	}
	return err
}

// postTurn posts the live message of the turn in play, with its picture
// (opPost: due when the turn has no message, and no post of it has an
// unknown outcome). The intent is stored first (markPosting); the post
// mentions the players who must act, once per turn (edits notify nobody;
// reminders do). Its record clears the intent and adopts the message as
// the live one, or as a past turn when the turn ended meanwhile, with
// the interaction whose follow-up it is (Shown.MsgBy).
func (s *step) postTurn(t *Table, w liveWant) (stepOut, error) {
	key := t.TurnKey()
	if err := s.markPosting(t, key); err != nil {
		return stepOut{}, err
	}
	png, err := s.b.rd.Table(w.pv, LangFor(t.Lang))
	if err != nil {
		return stepOut{}, fmt.Errorf("bot: render table: %w", err)
	}
	send := &discordgo.MessageSend{
		Content: w.content, Components: w.comps,
		Files: []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
		// The players who must act are notified, once per turn
		// (edits notify nobody; reminders do).
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: view.Waiting(t)},
	}
	m, err := s.b.post(s.ch, send, t.Interactions)
	return stepOut{later: !t.Interactions, record: func(cur *Table) {
		cur.Shown.Posting = ""
		s.b.adopt(cur, m, key, w.rev, w.pic, t.Stamp())
		if m != nil && cur.Shown.Msg == m.ID {
			cur.Shown.MsgBy = ""
			if v, ok := s.b.liveTokens.Load(m.ID); ok && v.(liveToken).followup {
				cur.Shown.MsgBy = v.(liveToken).it.ID
			}
		}
	}}, err
}

// postResults posts the results of the finished game (opPostResults: due
// when the game is over, its results not shown, and no post of them has
// an unknown outcome). The intent is stored first (markPosting). Its
// record clears the intent, marks the game's results shown and keeps the
// message's ID and buttons (adoptResults).
func (s *step) postResults(t *Table) (stepOut, error) {
	if err := s.markPosting(t, t.ResultsKey()); err != nil {
		return stepOut{}, err
	}
	d := s.b.resultsMessage(s.log.With().Str("channel", s.ch).Logger(), t, "")
	m, err := s.b.post(s.ch, &discordgo.MessageSend{Content: d.Content, Components: d.Components, Files: d.Files, AllowedMentions: d.AllowedMentions}, t.Interactions)
	return stepOut{later: !t.Interactions, record: func(cur *Table) {
		cur.Shown.Posting = ""
		cur.Shown.Results = t.GameNo
		adoptResults(&cur.Shown, m)
	}}, err
}

// lookupPost looks among the channel's recent messages for a post whose
// outcome is unknown (Shown.Posting: a crash or a failed answer came
// after its intent was stored), a turn's message or the results
// (opLookup: never on a table on interactions alone, which cannot read
// the channel). Its record, if the intent is still that post's, clears
// it and adopts what was found; when nothing was found the next step
// posts it again. Results found after the table moved on are adopted so
// that their Play again goes (opRetireResults).
func (s *step) lookupPost(t *Table) (stepOut, error) {
	key := t.Shown.Posting
	found, err := s.findPost(t, key)
	return stepOut{later: true, record: func(cur *Table) {
		if cur.Shown.Posting != key {
			return
		}
		cur.Shown.Posting = "" // not found: post again
		switch {
		case found == nil:
		case strings.HasPrefix(key, "results."):
			cur.Shown.Results = t.GameNo
			adoptResults(&cur.Shown, found)
		default:
			s.b.adopt(cur, found, key, "", "", 0) // edited to the state next
		}
	}}, err
}

// editLive edits the live message to the turn's state: text and buttons,
// and the picture only when it changed (an edit without attachments keeps
// the message's picture). It is due (opEdit) when the text, buttons or
// picture shown are outdated, unless only who has decided changed since
// an edit less than CoalesceEdits ago (opLater). The edit may go on in
// flight. A message gone (deleted by a moderator), or beyond any edit
// while a new message can be posted (a table on interactions alone), is
// forgotten: the next step posts the turn again. Its record, if the
// message is still the live one, keeps what it now shows (fingerprints,
// stamp, picture's attachment). A crash before the record repeats the
// edit: idempotent.
func (s *step) editLive(t *Table, w liveWant) (stepOut, error) {
	edit := &discordgo.MessageEdit{ID: t.Shown.Msg, Channel: s.ch, Content: &w.content, Components: &w.comps,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	// An edit without attachments keeps the message's picture: it is
	// uploaded only when it changed.
	if t.Shown.Pic != w.pic {
		png, err := s.b.rd.Table(w.pv, LangFor(t.Lang))
		if err != nil {
			return stepOut{}, fmt.Errorf("bot: render table: %w", err)
		}
		edit.Files, edit.Attachments = view.NewPicture("table.png", png)
	}
	var m *discordgo.Message
	var gone bool
	id := t.Shown.Msg
	send := func() error {
		var err error
		m, err = s.b.editMessage(edit, t.Interactions)
		gone = notFound(err)
		if gone {
			err = nil // deleted by a moderator: post the turn again
		}
		if s.b.beyondEdit(err, s.ch) {
			// The state goes out as a new message through the newest
			// click instead.
			gone, err = true, nil
		}
		return err
	}
	record := func(cur *Table) {
		if cur.Shown.Msg != id {
			return
		}
		if gone {
			cur.Shown.Msg, cur.Shown.Rev, cur.Shown.Pic, cur.Shown.Att = "", "", "", ""
			s.b.liveTokens.Delete(id)
			return
		}
		cur.Shown.Rev, cur.Shown.Pic = w.rev, w.pic
		cur.Shown.Stamp, cur.Shown.Edited = t.Stamp(), s.b.opt.Now().UTC()
		if att := attachmentID(m); att != "" {
			cur.Shown.Att = att
		}
	}
	return stepOut{edited: id, send: send, record: record, later: true}, nil
}

// retireResults takes "Play again" off results the table has moved past
// (opRetireResults: due when results offering it are shown and the table
// is no longer that game over), keeping 📄 Record and 🔍 Review
// (keptResultsButtons). The edit may go on in flight; results gone or
// beyond any edit stay as they are. Its record, if the results are still
// those, marks them retired. A crash before the record repeats the edit.
func (s *step) retireResults(t *Table) stepOut {
	id := t.Shown.ResultsMsg
	comps := view.KeptResultsButtons(LangFor(t.Lang), t.Shown.ResultsRecord, t.Shown.ResultsReview)
	return stepOut{
		edited: id,
		later:  true,
		send: func() error {
			_, err := s.b.editMessage(&discordgo.MessageEdit{ID: id, Channel: s.ch, Components: &comps}, t.Interactions)
			if s.b.beyondEdit(err, s.ch) {
				err = nil // it stays as it is
			}
			if notFound(err) {
				err = nil // deleted: nothing left to retire
			}
			return err
		},
		record: func(cur *Table) {
			if cur.Shown.ResultsMsg == id {
				cur.Shown.ResultsLive = false
			}
		},
	}
}

// showLobby shows a lobby whose showing is not known (opLobby: due while
// Shown.LobbyPending, set when the lobby went out as a click's answer
// only, which a crash may have lost). It is looked for first among the
// channel's recent messages (the answer may have arrived before the
// crash, or this post before the next one) and posted only when not
// found; a table on interactions alone, which cannot read the channel,
// posts. Its record marks the lobby shown, whatever its stamp.
func (s *step) showLobby(t *Table) (stepOut, error) {
	var found *discordgo.Message
	var err error
	if !t.Interactions {
		found, err = s.findLobby(t)
	}
	if err == nil && found == nil {
		data := view.AgainLobby(t)
		_, err = s.b.post(s.ch, &discordgo.MessageSend{Content: data.Content, Embeds: data.Embeds,
			Components: data.Components, AllowedMentions: data.AllowedMentions}, t.Interactions)
	}
	return stepOut{record: func(cur *Table) { cur.Shown.LobbyPending = false }}, err // shown
}

// postReminder posts a reminder for the current action, mentioning the
// players who still have to decide and when its time runs out
// (opPostReminder: due once Tick marked the table reminded and no
// reminder of this action is shown; never on a table on interactions
// alone). It is the channel's own post, never a follow-up. Its record
// keeps the action it reminds of (RemindAt) and the message. A crash
// after the post and before its record posts the reminder again.
func (s *step) postReminder(t *Table) (stepOut, error) {
	m, err := s.b.dc.ChannelMessageSendComplex(s.ch, view.Reminder(t))
	stamp := t.Stamp()
	return stepOut{record: func(cur *Table) {
		cur.Shown.RemindAt = stamp
		if m != nil {
			cur.Shown.Reminder = m.ID
		}
	}}, err
}

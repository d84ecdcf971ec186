package bot

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// handRefreshWindow is how long after an interaction the bot still edits
// the hand view it answered with. Discord's interaction tokens live 15
// minutes; the margin keeps a slow edit from arriving with an expired token.
// After that the view stays as it is until its owner clicks on it (every
// click brings a fresh token) or opens a new one.
const handRefreshWindow = 14 * time.Minute

// handWatch remembers, per channel and user, the newest private hand view
// and the interaction whose token may edit it, so that the view follows the
// game: new cards after a take, the take buttons and the play builder when
// it is the owner's turn. It lives in memory only: after a restart a hand
// view is refreshed again once its owner clicks on it.
type handWatch struct {
	mu    sync.Mutex
	views map[string]map[string]*handSub // channel → user → view
	// users serialises, per channel and user, the clicks in hand views
	// and the bot's edits of them: an edit made for an older click must
	// not overwrite the answer to a newer one (a play being built).
	users keyedMutex
}

// lockUser locks the hand views of user in the channel.
func (w *handWatch) lockUser(channelID, user string) func() {
	return w.users.Lock(channelID + "/" + user)
}

// current is user's newest hand view in the channel.
func (w *handWatch) current(channelID, user string) (handSub, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.views[channelID][user]
	if s == nil {
		return handSub{}, false
	}
	return *s, true
}

// handSub is one open hand view.
type handSub struct {
	it   *discordgo.Interaction // its token edits @original, the view
	at   time.Time              // when the interaction arrived
	lang Lang
	key  string          // what the view shows (handKey)
	game string          // the game it shows (gameID): it follows that game only
	sel  session.PlaySel // the play being built in it, as its answer showed it
	// clobbered is set when an edit for an older state may have landed
	// on top of the view's answer: it is shown again (refreshHand).
	clobbered bool
}

// watch records that the interaction r answered with the hand view key of
// the game gameID.
func (w *handWatch) watch(r *request, at time.Time, key, gameID string, sel session.PlaySel) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.views == nil {
		w.views = map[string]map[string]*handSub{}
	}
	ch := w.views[r.i.ChannelID]
	if ch == nil {
		ch = map[string]*handSub{}
		w.views[r.i.ChannelID] = ch
	}
	ch[r.userID] = &handSub{it: tokenOnly(r.i), at: at, lang: r.lang, key: key, game: gameID, sel: sel}
}

// open lists the channel's hand views by user.
func (w *handWatch) open(channelID string) map[string]handSub {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]handSub{}
	for u, s := range w.views[channelID] {
		out[u] = *s
	}
	return out
}

// update sets the key of user's view if it is still the view seen (same
// interaction), or forgets the view when key is "".
func (w *handWatch) update(channelID, user string, seen handSub, key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.views[channelID][user]
	if s == nil || s.it.ID != seen.it.ID {
		return // the owner opened or clicked a newer one meanwhile
	}
	if key == "" {
		delete(w.views[channelID], user)
		if len(w.views[channelID]) == 0 {
			delete(w.views, channelID)
		}
		return
	}
	s.key, s.clobbered = key, false
}

// clobber marks user's view seen as possibly overwritten by an older edit.
func (w *handWatch) clobber(channelID, user string, seen handSub) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s := w.views[channelID][user]; s != nil && s.it.ID == seen.it.ID {
		s.clobbered = true
	}
}

// prune forgets the views whose token is older than handRefreshWindow
// (refreshHand would forget them too, but only on the channel's next
// change).
func (w *handWatch) prune(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch, users := range w.views {
		for u, s := range users {
			if now.Sub(s.at) > handRefreshWindow {
				delete(users, u)
			}
		}
		if len(users) == 0 {
			delete(w.views, ch)
		}
	}
}

// handKey sums up what seat's hand view shows: the cards, and while the
// view offers a move (handActs) the action it is for (the table's stamp).
func handKey(t *Table, seat int) string {
	var sb strings.Builder
	sb.WriteString(t.ID)
	for _, c := range t.Game.Hand(seat) {
		sb.WriteString(" " + c.String())
	}
	if view.HandActs(t, seat) {
		sb.WriteString(" @" + strconv.Itoa(t.Stamp()))
	}
	return sb.String()
}

// handCards is the cards part of a handKey (what the hand picture shows).
func handCards(key string) string {
	cards, _, _ := strings.Cut(key, " @")
	return cards
}

// refreshHandOf brings user's open hand view in the channel up to date:
// it runs in that view's own refresher goroutine. The view is looked up
// before the table is read: a view answered by a click after that shows
// that click's state, at least as new as the table read here, and is left
// alone (refreshHand).
func (b *Bot) refreshHandOf(channelID, user string) {
	seen, ok := b.hands.current(channelID, user)
	if !ok {
		return
	}
	unlock := b.locks.Lock(channelID)
	t, err := b.loadTableShared(b.life, channelID) // only read
	unlock()
	if err != nil {
		return // logged by the reconciler's load
	}
	b.refreshHand(b.log, channelID, t, user, seen)
}

// refreshHand edits user's hand view, seen when the table t was read, if
// what it shows has changed. It holds the user's hand lock, which clicks
// in hand views hold while they are answered, only to decide and draw:
// never while the edit travels, so a slow edit never keeps the player's
// own clicks waiting. An edit for t must never leave a newer answer (a
// play being built) overwritten: when a click answered the view while the
// edit travelled, the edit may have landed after that answer, so the view
// is marked unknown and edited again, through the newer click's token,
// with the table as it is then.
func (b *Bot) refreshHand(log zerolog.Logger, channelID string, t *Table, user string, seen handSub) {
	unlock := b.hands.lockUser(channelID, user)
	s, ok := b.hands.current(channelID, user)
	if !ok || s.it.ID != seen.it.ID {
		unlock()
		return
	}
	if b.opt.Now().Sub(s.at) > handRefreshWindow {
		b.hands.update(channelID, user, s, "")
		unlock()
		return
	}
	seat := session.HandSeat(t, user, s.game)
	var edit *discordgo.WebhookEdit
	key := ""
	if seat < 0 {
		// Its game ended (/qwixx end, another game since) or the user is
		// no longer at it: the view says so and loses its buttons, which
		// could only answer that they belong to an earlier state.
		content, none := s.lang.T(msg.HandOver), []discordgo.MessageComponent{}
		edit = &discordgo.WebhookEdit{Content: &content, Components: &none}
	} else {
		key = handKey(t, seat)
		if key == s.key && !s.clobbered {
			unlock()
			return
		}
		// The same cards: the view keeps its picture (unless an older
		// edit may have replaced it).
		keep := handCards(key) == handCards(s.key) && !s.clobbered
		sel := session.PlaySel{}
		if key == s.key {
			sel = s.sel // shown again as its answer showed it
		}
		data, err := handView(b.rd, t, seat, s.lang, sel, keep)
		if err != nil {
			unlock()
			log.Error().Str("channel", channelID).Err(err).Msg("render hand")
			return
		}
		edit = &discordgo.WebhookEdit{Content: &data.Content, Components: &data.Components, Files: data.Files, Attachments: data.Attachments}
		if t.Stage != StagePlaying {
			key = "" // the game is over: nothing more to follow
		}
	}
	// Claim the view for this edit: a second edit for the same view would
	// find the key it shows and stop.
	b.hands.update(channelID, user, s, key)
	unlock()
	_, err := b.dc.InteractionResponseEdit(s.it, edit)
	if err != nil {
		// The view was dismissed or the token refused: stop following it.
		log.Warn().Str("channel", channelID).Err(withoutURL(err)).Str("user", user).Msg("refresh hand view")
		b.hands.update(channelID, user, s, "")
	}
	if now, ok := b.hands.current(channelID, user); ok && now.it.ID != s.it.ID && seat >= 0 {
		// A click answered the view meanwhile: this edit may have landed
		// on top of its answer. Show the table again through its token.
		b.hands.clobber(channelID, user, now)
		b.refresh.run("hand/"+channelID+"/"+user, func() { b.refreshHandOf(channelID, user) })
	}
}

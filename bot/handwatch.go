package bot

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
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
	key  string // what the view shows (handKey)
	game string // the game it shows (gameID): it follows that game only
}

// watch records that the interaction r answered with the hand view key of
// the game gameID.
func (w *handWatch) watch(r *request, at time.Time, key, gameID string) {
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
	ch[r.userID] = &handSub{it: r.i, at: at, lang: r.lang, key: key, game: gameID}
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
	s.key = key
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
	for _, c := range t.g.Hand(seat) {
		sb.WriteString(" " + c.String())
	}
	if handActs(t, seat) {
		sb.WriteString(" @" + strconv.Itoa(t.stamp()))
	}
	return sb.String()
}

// handCards is the cards part of a handKey (what the hand picture shows).
func handCards(key string) string {
	cards, _, _ := strings.Cut(key, " @")
	return cards
}

// refreshHands edits the open hand views of the channel whose content has
// changed, with tokens younger than handRefreshWindow only. The views are
// listed before the table is read, once for all of them: a view answered
// by a click after that listing shows that click's state, at least as new
// as the table read here, and is left alone (refreshHand).
func (b *Bot) refreshHands(log zerolog.Logger, channelID string) {
	views := b.hands.open(channelID)
	if len(views) == 0 {
		return
	}
	unlock := b.locks.Lock(channelID)
	t, err := b.loadTable(channelID)
	unlock()
	if err != nil {
		return // logged by the reconciler's load
	}
	for user, seen := range views {
		b.refreshHand(log, channelID, t, user, seen)
	}
}

// refreshHand edits user's hand view, seen when the table t was read, if
// what it shows has changed. It holds the user's hand lock, which clicks
// in hand views hold while they are answered, and leaves the view alone
// when a click answered it since it was seen: an edit for t must never
// overwrite a newer answer (a play being built).
func (b *Bot) refreshHand(log zerolog.Logger, channelID string, t *Table, user string, seen handSub) {
	unlock := b.hands.lockUser(channelID, user)
	defer unlock()
	s, ok := b.hands.current(channelID, user)
	if !ok || s.it.ID != seen.it.ID {
		return
	}
	if b.opt.Now().Sub(s.at) > handRefreshWindow {
		b.hands.update(channelID, user, s, "")
		return
	}
	seat := -1
	if t != nil && t.g != nil && t.Variant.CardGame() && gameID(t) == s.game && t.Stage == StagePlaying {
		seat = t.seatOf(user)
	}
	if seat < 0 {
		// Its game ended (/qwixx end, another game since) or the user is
		// no longer at it: the view says so and loses its buttons, which
		// could only answer that they belong to an earlier state.
		content, none := s.lang.T("hand.over"), []discordgo.MessageComponent{}
		if _, err := b.dc.InteractionResponseEdit(s.it, &discordgo.WebhookEdit{Content: &content, Components: &none}); err != nil {
			log.Warn().Err(withoutURL(err)).Str("user", user).Msg("close hand view")
		}
		b.hands.update(channelID, user, s, "")
		return
	}
	key := handKey(t, seat)
	if key == s.key {
		return
	}
	// The same cards: the view keeps its picture.
	keep := handCards(key) == handCards(s.key)
	data, err := b.handView(t, seat, s.lang, playSel{}, keep)
	if err != nil {
		log.Error().Err(err).Msg("render hand")
		return
	}
	_, err = b.dc.InteractionResponseEdit(s.it, &discordgo.WebhookEdit{
		Content: &data.Content, Components: &data.Components, Files: data.Files, Attachments: data.Attachments,
	})
	if err != nil {
		// The view was dismissed or the token refused: stop following it.
		log.Warn().Err(withoutURL(err)).Str("user", user).Msg("refresh hand view")
		key = ""
	} else if t.Stage != StagePlaying {
		key = "" // the game is over: nothing more to follow
	}
	b.hands.update(channelID, user, s, key)
}

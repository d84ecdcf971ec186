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
}

// handSub is one open hand view.
type handSub struct {
	it   *discordgo.Interaction // its token edits @original, the view
	at   time.Time              // when the interaction arrived
	lang Lang
	key  string // what the view shows (handKey)
}

// watch records that the interaction r answered with the hand view key.
func (w *handWatch) watch(r *request, at time.Time, key string) {
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
	ch[r.userID] = &handSub{it: r.i, at: at, lang: r.lang, key: key}
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

// refreshHands edits the open hand views of the channel whose content has
// changed in t, with tokens younger than handRefreshWindow only.
func (b *Bot) refreshHands(log zerolog.Logger, channelID string, t *Table) {
	views := b.hands.open(channelID)
	now := b.opt.Now()
	for user, s := range views {
		seat := -1
		if t != nil && t.g != nil && t.Variant.CardGame() {
			seat = t.seatOf(user)
		}
		if seat < 0 || now.Sub(s.at) > handRefreshWindow {
			b.hands.update(channelID, user, s, "")
			continue
		}
		key := handKey(t, seat)
		if key == s.key {
			continue
		}
		data, err := b.handView(t, seat, s.lang, playSel{})
		if err != nil {
			log.Error().Err(err).Msg("render hand")
			continue
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
}

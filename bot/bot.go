// Package bot maps Discord interactions (slash commands, buttons, select
// menus) onto per-channel Qwixx tables: the lobby, the running game and its
// messages. It talks to Discord through discordgo, keeps tables in a Store
// and draws pictures with a Renderer, both small interfaces defined here.
package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// Discord is the part of *discordgo.Session the bot uses.
type Discord interface {
	InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error
	ChannelMessageSendComplex(channelID string, data *discordgo.MessageSend, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageEdit(i *discordgo.Interaction, messageID string, data *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	ApplicationCommandBulkOverwrite(appID, guildID string, cmds []*discordgo.ApplicationCommand, opts ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
	ChannelMessages(channelID string, limit int, beforeID, afterID, aroundID string, opts ...discordgo.RequestOption) ([]*discordgo.Message, error)
	ChannelMessageDelete(channelID, messageID string, opts ...discordgo.RequestOption) error
}

// interactionLife is how long an interaction's token lasts: its store
// calls may run that long.
const interactionLife = 15 * time.Minute

// Options configure the bot.
type Options struct {
	AppID string
	// GuildID registers the commands to one guild (development) instead of
	// globally.
	GuildID string
	// History keeps the finished games (results, records, stats,
	// leaderboards, reviews of table games); nil keeps none, and the
	// commands that read it say so.
	History session.History
	// Secrets keeps the daily challenge's secret (when DailySecret is not
	// set); nil with no DailySecret: no daily challenge.
	Secrets session.Secrets
	// TurnTimeout is how long players have for an action (RULES P1);
	// ReminderBefore how long before its end the undecided are mentioned.
	TurnTimeout    time.Duration
	ReminderBefore time.Duration
	// MaxPlayers is the largest table (2–5; 5 when zero).
	MaxPlayers int
	// Language is the fallback language code (en, de, fr) for locales the
	// bot does not speak; English when empty.
	Language string
	// LiveAnswers answers a move clicked on the live table message by
	// updating that message (an interaction response of type 7, which
	// Discord does not count against the bot's global rate limit) instead
	// of with a private confirmation and a channel edit. The bot serves
	// with it on; unit tests that read the private confirmations leave it
	// off.
	LiveAnswers bool
	// FollowupPosts sends the channel's new messages (a turn's message,
	// the results) as follow-ups of the channel's newest command or click
	// (not on a private view) while its token is young (postTokens):
	// interaction requests, which the global rate limit does not count;
	// and their edits through the same token. Without such a click (a timer, a
	// reminder) they are the channel's own requests. The bot serves with
	// it on; unit tests that count channel posts leave it off.
	FollowupPosts bool
	// CoalesceEdits is how long an edit of the live message that only
	// changes who has decided waits for more decisions to join it, after
	// the message last changed (coalesceEdits when zero, none when
	// negative).
	CoalesceEdits time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// NewGame starts a game; game.New with a seed from crypto/rand when nil.
	// Tests use it to script the dice or the deck (game.Replay of a record).
	NewGame func(v game.Variant, players []string) (*game.Game, error)
	// DailySecret keys the daily challenge's dice (ai.DailySeed); when
	// empty, the store's kept secret "daily" (Secrets) is used.
	DailySecret []byte
	// ReviewDefer is how long after a click on 🔍 Review its answer may
	// take before it is deferred and edited in when ready (1.5 s when
	// zero; negative defers every answer not yet kept).
	ReviewDefer time.Duration
	// Observe, if set, is told of every interaction answer sent or failed:
	// the interaction's kind (InteractionKind), how long after its
	// arrival, and whether Discord took it. It runs in the handler's
	// goroutine and must be quick (metrics).
	Observe func(kind string, took time.Duration, ok bool)
}

// InteractionKind names an interaction type for metrics and logs:
// command, component, autocomplete, modal, ping or other.
func InteractionKind(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionModalSubmit:
		return "modal"
	case discordgo.InteractionPing:
		return "ping"
	}
	return "other"
}

// Bot handles interactions. Create it with New, register its commands with
// RegisterCommands and pass OnInteraction to discordgo's AddHandler.
type Bot struct {
	dc  Discord
	st  session.Tables
	rd  Renderer
	opt Options
	log zerolog.Logger

	locks    keyedMutex
	timers   timerIndex
	refresh  refresher
	hands    handWatch
	inflight sync.WaitGroup
	closing  atomic.Bool
	// life ends with Shutdown: the surfaces' workers, their waits (a
	// reconciler's backoff) and the timers' store calls end with it.
	life context.Context
	stop context.CancelFunc
	// unreadableSeen holds the channels whose unreadable table was logged.
	unreadableSeen sync.Map
	// unsettled holds the channels whose reconcile gave up (sweep).
	unsettled sync.Map
	lastSweep atomic.Int64
	// lastHistorySweep is when the history's retention was last applied
	// (History.Sweep), Unix nanoseconds.
	lastHistorySweep atomic.Int64
	// reposts holds, by channel, when its live message is due to be posted
	// afresh (liveMaxAge).
	reposts sync.Map
	// snapshots holds, by channel, the game last saved or restored there
	// (gameSnapshot), so that reading a table does not restore it again.
	snapshots sync.Map
	// decoded holds, by channel, the table last decoded or saved there
	// (decodedTable), so that reading the same bytes again does not
	// decode them again.
	decoded sync.Map
	// answeredLive holds, by channel, the live view a click last answered
	// with (liveMemo), for the reconciler's next look at the same table.
	answeredLive sync.Map
	// later holds, by channel, when its coalesced edit is due.
	later sync.Map
	// liveTokens holds, by message ID, the liveToken that may edit a
	// channel message through an interaction (the newest click answered on
	// it, or the interaction whose follow-up it is).
	liveTokens sync.Map
	// postTokens holds, by channel, the newest interaction there that may
	// make follow-ups (keepPostToken): the channel's new messages are its
	// follow-ups (Options.FollowupPosts, Table.Interactions).
	postTokens sync.Map
	// answerViews holds, by channel, what the bot last sent to its live
	// message where updates go out as HTTP responses (answerorder.go).
	answerViews sync.Map
	// force holds the channels whose shown state is in doubt (an answer
	// that updated the live message failed, or a crash may have lost it):
	// their reconcile edits the live message and sends shrinks again.
	force sync.Map
	// pars holds the daily challenges' pars by day number.
	pars parCache
	// reviews keeps the game reviews graded and worded.
	reviews *reviewCache
}

// New makes a bot that keeps its tables and settings in st (and its
// finished games in opt.History, if set).
func New(dc Discord, st session.Tables, rd Renderer, opt Options, log zerolog.Logger) *Bot {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.CoalesceEdits == 0 {
		opt.CoalesceEdits = coalesceEdits
	}
	if opt.TurnTimeout <= 0 {
		opt.TurnTimeout = 2 * time.Minute
	}
	if opt.ReminderBefore <= 0 || opt.ReminderBefore >= opt.TurnTimeout {
		opt.ReminderBefore = opt.TurnTimeout / 5
	}
	if opt.MaxPlayers < game.MinPlayers || opt.MaxPlayers > game.MaxPlayers {
		opt.MaxPlayers = game.MaxPlayers
	}
	b := &Bot{dc: dc, st: st, rd: rd, opt: opt, log: log, reviews: newReviewCache()}
	b.life, b.stop = context.WithCancel(context.Background())
	return b
}

// Permissions the bot needs in a channel, and the invite URL's permission
// integer (RequiredPermissions).
const (
	permView    = discordgo.PermissionViewChannel
	permSend    = discordgo.PermissionSendMessages
	permThreads = discordgo.PermissionSendMessagesInThreads
	permAttach  = discordgo.PermissionAttachFiles
	permEmbed   = discordgo.PermissionEmbedLinks
	// RequiredPermissions is what the invite link asks for: view channels,
	// send messages (also in threads), embed links, attach files.
	RequiredPermissions = permView | permSend | permThreads | permAttach | permEmbed
)

// InviteURL is the link that adds the bot to a server with exactly the
// scopes (bot, applications.commands) and permissions it needs.
func InviteURL(appID string) string {
	return fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot+applications.commands&permissions=%d", appID, RequiredPermissions)
}

// Shutdown stops taking interactions and waits for those in flight, or
// until ctx ends.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.closing.Store(true)
	b.stop()
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bot: shutdown: %w", ctx.Err())
	}
}

// OnInteraction is the discordgo handler for INTERACTION_CREATE.
func (b *Bot) OnInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	b.Handle(ic.Interaction)
}

// Handle answers one interaction through Discord's callback route (the
// gateway's way). discordgo calls handlers concurrently; each channel's
// changes are serialised here.
func (b *Bot) Handle(i *discordgo.Interaction) {
	b.HandleVia(i, nil)
}

// Answerer is where an interaction's one answer goes when it does not go
// to Discord's callback route: the HTTP response of Discord's interactions
// endpoint. Answer returns once the answer is sent (or has failed); it may
// turn the answer into a deferred one, and then sets resp.Type to the
// deferred type Discord took (as Discord.InteractionRespond does).
type Answerer interface {
	Answer(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error
}

// HandleVia is Handle answering through to (nil: the callback route, as
// Handle). Everything else (the follow-ups, the channel's messages) goes
// through the bot's Discord as ever.
func (b *Bot) HandleVia(i *discordgo.Interaction, to Answerer) {
	r := b.newRequest(i)
	r.to = to
	defer r.cancel()
	if b.closing.Load() {
		// Shutting down: nothing is changed any more, but the user hears
		// why rather than "interaction failed".
		if i.Type != discordgo.InteractionPing && i.Type != discordgo.InteractionApplicationCommandAutocomplete {
			r.ephemeral(r.lang.T(msg.ErrRestarting))
		}
		return
	}
	b.inflight.Add(1)
	defer b.inflight.Done()
	defer func() {
		if p := recover(); p != nil {
			r.log.Error().Interface("panic", p).Msg("interaction handler panicked")
			r.fail(fmt.Errorf("panic: %v", p))
		}
	}()
	switch i.Type {
	case discordgo.InteractionPing:
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.autocomplete(r)
		return
	}
	here := botHere(i)
	if !here && !worksAnywhere(i) {
		// A DM, a group DM, or a server where only the user installed
		// the app: a server's settings need the bot in the server.
		r.ephemeral(r.lang.T(msg.ErrDm))
		return
	}
	if missing := missingPermissions(i.AppPermissions); len(missing) > 0 && here && !privateOnly(i) {
		names := make([]string, len(missing))
		for k, m := range missing {
			names[k] = r.lang.T(m)
		}
		r.ephemeral(r.lang.T(msg.ErrPerms, strings.Join(names, ", ")))
		return
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		b.command(r)
	case discordgo.InteractionMessageComponent:
		b.component(r)
	default:
		r.log.Warn().Int("type", int(i.Type)).Msg("unsupported interaction type")
		r.ephemeral(r.lang.T(msg.ErrUnsupported))
	}
}

// botHere reports whether the bot is a member where the interaction
// happened: a server channel authorized by the server's install (an
// interaction without authorizing_integration_owners, as before user
// installs, counts as the server's).
func botHere(i *discordgo.Interaction) bool {
	if i.GuildID == "" {
		return false
	}
	if len(i.AuthorizingIntegrationOwners) == 0 {
		return true
	}
	_, ok := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return ok
}

// worksAnywhere reports whether an interaction works where the bot is no
// member (a user's install: DMs, group DMs, other servers): everything
// but a server's settings. Tables opened there live on their players'
// interactions (Table.Interactions).
func worksAnywhere(i *discordgo.Interaction) bool {
	if data, ok := i.Data.(discordgo.ApplicationCommandInteractionData); ok && data.Name == "qwixx" &&
		len(data.Options) == 1 && data.Options[0] != nil && data.Options[0].Name == "settings" {
		return false
	}
	return true
}

// privateOnly reports whether an interaction is answered entirely through
// itself, needing no permission in the channel: the private games (/qwixx
// solo privately, /qwixx daily, their buttons), the statistics of the
// place, the rules and the help.
func privateOnly(i *discordgo.Interaction) bool {
	switch data := i.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		if data.Name != "qwixx" || len(data.Options) != 1 || data.Options[0] == nil {
			return false
		}
		sub := data.Options[0]
		switch sub.Name {
		case "daily", "rules", "help", "stats":
			return true
		case "solo":
			for _, o := range sub.Options {
				if o != nil && o.Name == "where" && o.Value == "channel" {
					return false
				}
			}
			return true
		}
	case discordgo.MessageComponentInteractionData:
		a, err := customid.Decode(data.CustomID)
		return err == nil && (a.View == customid.ViewSolo || a.View == customid.ViewDaily || a.View == customid.ViewPeople)
	}
	return false
}

// missingPermissions lists the message keys of the permissions the bot lacks.
func missingPermissions(have int64) []msg.Key {
	var out []msg.Key
	if have&permView == 0 {
		out = append(out, msg.PermView)
	}
	if have&(permSend|permThreads) == 0 {
		out = append(out, msg.PermSend)
	}
	if have&permAttach == 0 {
		out = append(out, msg.PermAttach)
	}
	if have&permEmbed == 0 {
		out = append(out, msg.PermEmbed)
	}
	return out
}

// request is one interaction being answered.
type request struct {
	b        *Bot
	i        *discordgo.Interaction
	log      reqLog
	lang     Lang // the user's language, for ephemeral answers
	glang    Lang // the guild's language, for public messages
	userID   string
	userName string
	perms    int64 // the member's permissions in the channel
	answered bool
	// to is where the answer goes (HandleVia); nil: the callback route.
	to Answerer
	// key is the stored table the request acts on: the channel's (the
	// interaction's channel ID) unless it is set to a private game's key.
	key string
	at  time.Time // when the interaction arrived (its token's age)
	// ctx is the interaction's life (its token's 15 minutes): store calls
	// run under it. Shutdown does not end it: a click in flight finishes.
	ctx     context.Context
	cancel  context.CancelFunc
	arrived time.Time // the same in real time: the answer's deadline runs from it
}

// answerWithin is how long after its arrival the bot may answer an
// interaction: Discord fails it 3 s after its creation, and it took a
// moment to arrive. The Discord client retries a failed answer until then.
const answerWithin = 2900 * time.Millisecond

func (b *Bot) newRequest(i *discordgo.Interaction) *request {
	r := &request{b: b, i: i, lang: langOr(string(i.Locale), b.opt.Language), glang: langOr("", b.opt.Language), at: b.opt.Now(), arrived: time.Now()}
	if i.GuildLocale != nil {
		r.glang = langOr(string(*i.GuildLocale), b.opt.Language)
	}
	var u *discordgo.User
	if i.Member != nil {
		u = i.Member.User
		r.perms = i.Member.Permissions
		if i.Member.Nick != "" && u != nil {
			r.userName = i.Member.Nick
		}
	} else {
		u = i.User
	}
	if u != nil {
		r.userID = u.ID
		if r.userName == "" {
			r.userName = u.GlobalName
		}
		if r.userName == "" {
			r.userName = u.Username
		}
	}
	r.ctx, r.cancel = context.WithDeadline(context.Background(), r.arrived.Add(interactionLife))
	r.log = reqLog{base: &b.log, interaction: i.ID, channel: i.ChannelID, user: r.userID}
	return r
}

// reqLog is a request's logger, the bot's with the interaction, channel
// and user, made on its first use: most requests log nothing, and a
// zerolog sub-logger costs a buffer of its own.
type reqLog struct {
	base                       *zerolog.Logger
	interaction, channel, user string
	once                       sync.Once
	l                          zerolog.Logger
}

// Logger is the request's logger.
func (r *reqLog) Logger() zerolog.Logger { return *r.get() }

func (r *reqLog) get() *zerolog.Logger {
	r.once.Do(func() {
		r.l = r.base.With().Str("interaction", r.interaction).Str("channel", r.channel).Str("user", r.user).Logger()
	})
	return &r.l
}

// Info, Warn and Error start a message of their level.
func (r *reqLog) Info() *zerolog.Event  { return r.get().Info() }
func (r *reqLog) Warn() *zerolog.Event  { return r.get().Warn() }
func (r *reqLog) Error() *zerolog.Event { return r.get().Error() }

// respond sends the interaction's one response.
func (r *request) respond(resp *discordgo.InteractionResponse) error {
	r.answered = true
	ctx, cancel := context.WithDeadline(context.Background(), r.arrived.Add(answerWithin))
	defer cancel()
	var err error
	if r.to != nil {
		err = r.to.Answer(ctx, r.i, resp)
	} else {
		err = r.b.dc.InteractionRespond(r.i, resp, discordgo.WithContext(ctx))
	}
	if obs := r.b.opt.Observe; obs != nil {
		obs(InteractionKind(r.i.Type), time.Since(r.arrived), err == nil)
	}
	if err != nil {
		err = withoutURL(err)
		r.log.Error().Err(err).Msg("interaction response failed")
		return fmt.Errorf("bot: respond: %w", err)
	}
	r.keepPostToken(resp)
	return nil
}

// keepPostToken keeps the interaction for the channel's follow-ups
// (postTokens): a command or a click answered with a message or an update
// (types 4, 6 and 7: a follow-up of such an interaction is a new message;
// not type 5, after which Discord turns the first follow-up into an edit
// of the loading message; the interaction client reports a deferral in
// resp.Type). A click on an ephemeral message is left out: its follow-ups
// belong to that private view. Where the bot is a member this is
// Options.FollowupPosts; where it is not (a table on interactions alone)
// it is the only way.
func (r *request) keepPostToken(resp *discordgo.InteractionResponse) {
	if r.i.ChannelID == "" {
		return
	}
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseDeferredMessageUpdate:
	default:
		return
	}
	click := r.i.Type == discordgo.InteractionMessageComponent && r.i.Message != nil
	if click && r.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return
	}
	here := botHere(r.i)
	if here && !r.b.opt.FollowupPosts {
		return
	}
	lt := liveToken{it: tokenOnly(r.i), at: r.at}
	if click {
		lt.msg = r.i.Message.ID
	}
	if _, guild := r.i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]; !here && !guild {
		// Discord: an interaction of a user's install alone may make at
		// most 5 follow-ups.
		lt.budget = new(atomic.Int32)
		lt.budget.Store(userInstallFollowups)
	}
	r.b.postTokens.Store(r.i.ChannelID, lt)
	if _, waiting := r.b.unsettled.Load(r.i.ChannelID); waiting && !here {
		// A table on interactions alone waited for a token (errNoToken):
		// this one shows what happened meanwhile (a timer's decision).
		r.b.refresh.kick(r.b, r.i.ChannelID)
	}
}

// userInstallFollowups is how many follow-ups Discord allows an
// interaction authorized by a user's install alone (changelog, 27 June
// 2024).
const userInstallFollowups = 5

// withoutURL drops the address from a transport error: interaction routes
// hold the interaction's token, which must not reach the logs.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s request: %w", ue.Op, ue.Err)
	}
	return err
}

// ephemeral answers with a message only the user sees.
func (r *request) ephemeral(text string) {
	r.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral},
	})
}

// fail answers an internal error politely, if nothing was answered yet.
func (r *request) fail(err error) {
	r.log.Error().Err(err).Msg("interaction failed")
	if !r.answered {
		r.ephemeral(r.lang.T(msg.ErrInternal))
	}
}

// failed reports whether err ends the request: a refusal already answered,
// or an internal error, which it answers politely.
func (r *request) failed(err error) bool {
	if err == nil {
		return false
	}
	if ue, ok := asUnreadable(err); ok {
		r.ephemeral(unreadableText(r.lang, ue))
		return true
	}
	if !errors.Is(err, errRefused) {
		r.fail(err)
	}
	return true
}

// errRefused is returned by table changes that were refused with a message
// already sent to the user; nothing is written.
var errRefused = errors.New("bot: refused")

// withTable runs fn on the channel's table under the channel's lock and
// stores the result before returning, so that a change acknowledged to a
// player is on disk before the answer is sent. fn gets nil when the channel
// has no table; it returns the table to keep (nil deletes it) or an error,
// in which case nothing is written. The channel stays locked until the
// returned unlock is called, so the caller can answer in order.
func (b *Bot) withTable(ctx context.Context, channelID string, fn func(t *Table) (*Table, error)) (unlock func(), err error) {
	return b.withTableKept(ctx, channelID, fn, false)
}

// withTableKept is withTable; with readOnly, the caller promises to only
// read the table fn returned once it is saved, so the table kept for the
// stored bytes shares its game, seats, match and news (keepShown) instead
// of copying them.
func (b *Bot) withTableKept(ctx context.Context, channelID string, fn func(t *Table) (*Table, error), readOnly bool) (unlock func(), err error) {
	unlock = b.locks.Lock(channelID)
	t, err := b.loadTable(ctx, channelID)
	if err != nil {
		return unlock, err
	}
	nt, err := fn(t)
	if err != nil {
		return unlock, err
	}
	if _, err := b.storeTable(ctx, channelID, nt, readOnly, false); err != nil {
		return unlock, err
	}
	return unlock, nil
}

// withTable is Bot.withTable for the request's channel. A table of another
// guild than the interaction's cannot be this channel's (channel IDs are
// unique across Discord): such an interaction is forged, refused, and fn
// is not called.
func (r *request) withTable(fn func(t *Table) (*Table, error)) (unlock func(), err error) {
	return r.withTableKept(fn, false)
}

// withTableRead is withTable for a caller that only reads the table once
// it is saved (Bot.withTableKept).
func (r *request) withTableRead(fn func(t *Table) (*Table, error)) (unlock func(), err error) {
	return r.withTableKept(fn, true)
}

func (r *request) withTableKept(fn func(t *Table) (*Table, error), readOnly bool) (unlock func(), err error) {
	return r.b.withTableKept(r.ctx, r.tableKey(), func(t *Table) (*Table, error) {
		if !r.sameGuild(t) {
			return nil, errRefused
		}
		return fn(t)
	}, readOnly)
}

// tableKey is the key of the table the request acts on (request.key).
func (r *request) tableKey() string {
	if r.key != "" {
		return r.key
	}
	return r.i.ChannelID
}

// sameGuild reports whether t (nil: no table) may be acted on from the
// request's place (its server, or its DM or group DM: session.SamePlace),
// answering the user when not. A private game belongs to its player
// wherever they are (its key names them).
func (r *request) sameGuild(t *Table) bool {
	if t != nil && t.Private == "" && !session.SamePlace(t.GuildID, r.i.GuildID, r.i.ChannelID) {
		r.log.Warn().Str("table_guild", t.GuildID).Str("guild", r.i.GuildID).Msg("interaction from another guild than the table's")
		r.ephemeral(r.lang.T(msg.ErrForged))
		return false
	}
	return true
}

// saveTable writes the table (nil deletes the channel's table) in one
// durable transaction, and keeps the timer index in step.
func (b *Bot) saveTable(ctx context.Context, channelID string, t *Table) error {
	_, err := b.saveTableBlob(ctx, channelID, t)
	return err
}

// saveTableBlob is saveTable that also returns the bytes stored.
func (b *Bot) saveTableBlob(ctx context.Context, channelID string, t *Table) ([]byte, error) {
	return b.storeTable(ctx, channelID, t, false, false)
}

// saveTableShown is saveTableBlob for the reconciler's table
// (loadTableShown), whose game, seats, match and news nobody changes: the
// table kept for the bytes shares them (keepShown).
func (b *Bot) saveTableShown(ctx context.Context, channelID string, t *Table) ([]byte, error) {
	return b.storeTable(ctx, channelID, t, true, false)
}

// saveTableShownLater is saveTableShown for a record that a restart makes
// again anyway: it goes to disk with the next durable write, without
// waiting for it (session.LaterTables), when the store can, and when t
// carries no finished game.
func (b *Bot) saveTableShownLater(ctx context.Context, channelID string, t *Table) ([]byte, error) {
	return b.storeTable(ctx, channelID, t, true, true)
}

// storeTable saves t (saveTableBlob), keeping it as keepShown does when
// shown, as keepSaved does otherwise; later, see saveTableShownLater.
func (b *Bot) storeTable(ctx context.Context, channelID string, t *Table, shown, later bool) ([]byte, error) {
	var stored []byte
	fn := func(_ []byte, exists bool) ([]byte, bool, error) {
		if t == nil {
			return nil, exists, nil
		}
		blob, err := t.Encode()
		stored = blob
		return blob, false, err
	}
	lt, canLater := b.st.(session.LaterTables)
	var err error
	switch h := b.opt.History; {
	case later && canLater && t != nil && len(t.Finished) == 0:
		if stored, err = t.Encode(); err == nil {
			err = lt.PutLater(ctx, channelID, stored)
		}
	case h != nil && t != nil && len(t.Finished) > 0:
		// The game over and its result: on disk together or not at all.
		err = h.UpdateSaving(ctx, channelID, t.Finished, fn)
	default:
		err = b.st.Update(ctx, channelID, fn)
	}
	if err != nil {
		return nil, fmt.Errorf("bot: save table: %w", err)
	}
	if t != nil {
		t.Finished = nil
	}
	b.timers.set(channelID, t)
	if shown && t != nil {
		b.keepShown(channelID, stored, t)
	} else {
		b.keepSaved(channelID, stored, t)
	}
	return stored, nil
}

// keptTable is a table a goroutine saved and still owns, with the bytes
// it saved: while the store holds the same bytes, the table need not be
// decoded again (the reconciler reads the table it just saved).
type keptTable struct {
	blob []byte
	t    *Table
}

// loadTableKept is loadTable that hands out the kept table instead of
// decoding the stored bytes when they are the ones it was saved as. The
// kept table is handed out once.
func (b *Bot) loadTableKept(ctx context.Context, channelID string, keep *keptTable) (*Table, error) {
	if keep == nil || keep.t == nil {
		return b.loadTableShown(ctx, channelID)
	}
	kt, kb := keep.t, keep.blob
	keep.t, keep.blob = nil, nil
	data, ok, same, err := b.st.GetUnless(ctx, channelID, kb)
	if err == nil && ok && same {
		return kt, nil
	}
	return b.decodeStored(ctx, channelID, data, ok, err)
}

// keyedMutex serialises work per key (channel). Its entries are reused
// (free), each with its unlock function made once: a lock costs no
// allocation.
type keyedMutex struct {
	mu   sync.Mutex
	m    map[string]*keyedEntry
	free []*keyedEntry
}

type keyedEntry struct {
	mu   sync.Mutex
	refs int // holders and waiters
	k    *keyedMutex
	key  string
	// unlock is release, as the function Lock returns.
	unlock func()
}

// maxFreeEntries bounds the entries a keyedMutex keeps for reuse.
const maxFreeEntries = 64

// Lock locks key and returns its unlock function, to be called once.
func (k *keyedMutex) Lock(key string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyedEntry{}
	}
	e := k.m[key]
	if e == nil {
		if n := len(k.free); n > 0 {
			e, k.free = k.free[n-1], k.free[:n-1]
		} else {
			e = &keyedEntry{k: k}
			e.unlock = e.release
		}
		e.key = key
		k.m[key] = e
	}
	e.refs++
	k.mu.Unlock()
	e.mu.Lock()
	return e.unlock
}

// release unlocks e's key; the last holder or waiter frees the entry for
// reuse.
func (e *keyedEntry) release() {
	k := e.k
	e.mu.Unlock()
	k.mu.Lock()
	if e.refs--; e.refs == 0 {
		delete(k.m, e.key)
		e.key = ""
		if len(k.free) < maxFreeEntries {
			k.free = append(k.free, e)
		}
	}
	k.mu.Unlock()
}

// loadTable reads the channel's table, or nil when it has none: a deep
// copy, the caller's to change.
func (b *Bot) loadTable(ctx context.Context, channelID string) (*Table, error) {
	return b.loadKept(ctx, channelID, (*Table).CloneStored)
}

// loadTableShared is loadTable for a reader that never changes the table
// (a private view drawn from it, a hand view's refresh): while the store
// holds the bytes last decoded or saved, it hands out the table kept for
// them itself, not a copy (session.Table.CloneStored). That table is
// never changed by anyone (it is only copied from), so readers may share
// it; a reader that changed it would change every later reader's table.
func (b *Bot) loadTableShared(ctx context.Context, channelID string) (*Table, error) {
	return b.loadKept(ctx, channelID, func(t *Table) *Table { return t })
}

// loadTableShown is loadTable for the reconciler's step and its records,
// which change only the table's own fields and what it shows (Shown),
// never its game, seats, match or news: while the store holds the bytes
// last decoded or saved, it is a copy of the kept table's own fields with
// a Shown of its own (its past turns copied), sharing the rest, instead
// of a deep copy. (The package's tests check that the kept table stays
// unchanged: verifyShared.)
func (b *Bot) loadTableShown(ctx context.Context, channelID string) (*Table, error) {
	return b.loadKept(ctx, channelID, func(kept *Table) *Table {
		t := *kept
		t.Shown.Past = slices.Clone(t.Shown.Past)
		t.Finished, t.Problems = nil, nil
		return &t
	})
}

// loadKept reads the channel's table: while the store holds the bytes last
// decoded or saved (the table kept for them, b.decoded), as handOut makes
// it from the kept table, else decoded afresh.
func (b *Bot) loadKept(ctx context.Context, channelID string, handOut func(kept *Table) *Table) (*Table, error) {
	v, ok := b.decoded.Load(channelID)
	if !ok {
		data, ok, err := b.st.Get(ctx, channelID)
		return b.decodeStored(ctx, channelID, data, ok, err)
	}
	have := v.(*decodedTable)
	data, ok, same, err := b.st.GetUnless(ctx, channelID, have.blob)
	if err == nil && ok && same {
		if verifyShared {
			have.check()
		}
		return handOut(have.t), nil
	}
	return b.decodeStored(ctx, channelID, data, ok, err)
}

// decodeStored decodes what the store's Get returned for the channel.
func (b *Bot) decodeStored(ctx context.Context, channelID string, data []byte, ok bool, err error) (*Table, error) {
	if err != nil {
		if isCorrupt(err) {
			raw, _ := session.DamagedBytes(err)
			return nil, b.unreadable(channelID, raw, err)
		}
		return nil, fmt.Errorf("bot: load table: %w", err)
	}
	if !ok {
		return nil, nil
	}
	if v, ok := b.decoded.Load(channelID); ok {
		if d := v.(*decodedTable); bytes.Equal(d.blob, data) {
			return d.t.CloneStored(), nil
		}
	}
	t, err := session.DecodeWith(data, func(raw []byte) (*game.Game, error) { return b.restoreGame(channelID, raw) })
	if err != nil {
		return nil, b.unreadable(channelID, data, err)
	}
	if t.ChannelID == "" || t.ChannelID == channelID {
		b.decoded.Store(channelID, &decodedTable{blob: bytes.Clone(data), t: t.CloneStored()})
	}
	if t.ChannelID != "" && t.ChannelID != channelID {
		// Another channel's table under this channel's key (a damaged or
		// hand-edited database): it is no table of this channel's, which
		// it must not block. Its bytes go to the quarantine for the
		// operator, and the channel is free.
		return nil, b.misfiled(ctx, channelID, t.ChannelID)
	}
	return t, nil
}

// misfiled moves a table stored under another channel's key into the
// quarantine and reports it; the channel then has no table.
func (b *Bot) misfiled(ctx context.Context, channelID, storedFor string) error {
	moved, err := b.st.Quarantine(ctx, channelID, fmt.Sprintf("stored under channel %s, made for channel %s", channelID, storedFor))
	if err != nil {
		return fmt.Errorf("bot: quarantine misfiled table: %w", err)
	}
	b.log.Error().Str("channel", channelID).Str("table_channel", storedFor).Bool("moved", moved).
		Msg("stored table belongs to another channel: put aside (quarantine), not played")
	b.timers.set(channelID, nil)
	b.snapshots.Delete(channelID)
	b.decoded.Delete(channelID)
	return nil
}

// decodedTable is a channel's table as last decoded or saved, with its
// bytes: while the store holds the same bytes, reading the table
// hands out a copy (session.Table.CloneStored) instead of decoding them
// again (a click reads its table several times: the click, the channel's
// update, the private views).
type decodedTable struct {
	blob []byte
	t    *Table
}

// verifyShared makes every read of a kept table check that it is still
// the table of its bytes: that nobody changed the table loadTableShared
// hands out (the package's tests set it).
var verifyShared bool

// check panics when d's table no longer encodes to d's bytes.
func (d *decodedTable) check() {
	c := d.t.CloneStored()
	got, err := c.Encode()
	if err != nil || !bytes.Equal(got, d.blob) {
		panic(fmt.Sprintf("bot: a kept table was changed: it encodes to\n%s\nnot to\n%s", got, d.blob))
	}
}

// gameSnapshot is a channel's game as last saved or restored: its
// snapshot's bytes and the game they restore to, never handed out itself.
type gameSnapshot struct {
	raw  []byte
	live *game.Game
}

// restoreGame restores a channel's game from its snapshot: a clone of the
// game last saved or restored there when the bytes are the same (decoding
// and checking the snapshot is most of the cost of reading a table),
// game.Restore otherwise.
func (b *Bot) restoreGame(channelID string, raw []byte) (*game.Game, error) {
	if v, ok := b.snapshots.Load(channelID); ok {
		if s := v.(*gameSnapshot); bytes.Equal(s.raw, raw) {
			return s.live.Clone(), nil
		}
	}
	g, err := game.RestoreChecked(raw)
	if err != nil {
		return nil, err
	}
	b.snapshots.Store(channelID, &gameSnapshot{raw: bytes.Clone(raw), live: g.Clone()})
	return g, nil
}

// keepShown is keepSaved for a table whose game, seats, match and news
// nobody changes any more (the reconciler's: loadTableShown): the table
// kept has its own fields and Shown (its past turns copied) and shares
// the rest with t instead of copying it.
func (b *Bot) keepShown(channelID string, stored []byte, t *Table) {
	kept := *t
	kept.Shown.Past = slices.Clone(t.Shown.Past)
	kept.Finished, kept.Problems = nil, nil
	b.decoded.Store(channelID, &decodedTable{blob: stored, t: &kept})
	if kept.Game == nil || len(kept.Snapshot) == 0 {
		b.snapshots.Delete(channelID)
		return
	}
	b.snapshots.Store(channelID, &gameSnapshot{raw: kept.Snapshot, live: kept.Game})
}

// keepSaved remembers the table t was just saved as (nil: none): the next
// read of these bytes hands out a copy of it instead of decoding them (the
// reconciler and the private views read the table a click has just
// saved), and a table read with the same game snapshot reuses its game.
// One copy serves both (neither hands out its game, only clones); the
// bytes are Encode's own, which nobody changes, and are shared.
func (b *Bot) keepSaved(channelID string, stored []byte, t *Table) {
	if t == nil {
		b.decoded.Delete(channelID)
		b.snapshots.Delete(channelID)
		b.answeredLive.Delete(channelID)
		return
	}
	kept := t.CloneStored()
	b.decoded.Store(channelID, &decodedTable{blob: stored, t: kept})
	if kept.Game == nil || len(kept.Snapshot) == 0 {
		b.snapshots.Delete(channelID)
		return
	}
	b.snapshots.Store(channelID, &gameSnapshot{raw: kept.Snapshot, live: kept.Game})
}

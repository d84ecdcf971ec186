package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"sync"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// A private game (session.NewPrivate) is played in an ephemeral message:
// /qwixx solo, and the daily challenge /qwixx daily. It has no channel
// messages and no reminders. Its one view is updated only through its
// player's own clicks (Discord changes an ephemeral message only through
// its user's interactions): each click answers with the view's next state
// (callback type 7), and the command shows it again whenever asked.
const (
	privateSolo  = session.PrivateSolo
	privateDaily = session.PrivateDaily
)

// privateKey is the stored key of userID's private game of kind.
func privateKey(kind, userID string) string { return session.PrivateKey(kind, userID) }

// dailySecret is the key of the daily challenge's seeds (ai.DailySeed):
// Options.DailySecret, or the store's kept secret.
func (b *Bot) dailySecret(ctx context.Context) ([]byte, error) {
	if len(b.opt.DailySecret) > 0 {
		return b.opt.DailySecret, nil
	}
	s := b.opt.Secrets
	if s == nil {
		return nil, fmt.Errorf("bot: the store keeps no secrets for the daily challenge")
	}
	secret, err := s.Secret(ctx, "daily")
	if err != nil {
		return nil, fmt.Errorf("bot: daily secret: %w", err)
	}
	return secret, nil
}

// cmdSolo starts a solo dice game for the user: in the channel, a table
// of one seat that everybody sees; otherwise (the default) a private game,
// or the user's unfinished one again.
func (b *Bot) cmdSolo(r *request, where string) {
	if where == "channel" {
		b.cmdSoloChannel(r)
		return
	}
	b.startPrivate(r, privateSolo, false)
}

// startPrivate shows the user's private game of kind, starting a new
// one when there is none running (or, with again, when the last is over).
// update answers a click by replacing its message.
func (b *Bot) startPrivate(r *request, kind string, update bool) {
	r.key = privateKey(kind, r.userID)
	note, ok := b.privateReadable(r)
	if !ok {
		return
	}
	var shown *Table
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if t != nil && t.Stage == StagePlaying {
			shown, note = t, r.lang.T(msg.SoloResumed)
			return nil, errRefused // shown as it is: nothing to save
		}
		nt, err := b.newPrivate(r, kind, nil)
		if err != nil {
			return nil, err
		}
		shown = nt
		return nt, nil
	})
	defer unlock()
	b.showChosen(r, shown, err, note, update)
}

// showChosen answers with the private game a command chose to show, or
// with the error that kept it from choosing one.
func (b *Bot) showChosen(r *request, shown *Table, err error, note string, update bool) {
	if shown == nil {
		r.failed(err)
		return
	}
	r.log.Info().Str("table", shown.ID).Str("kind", shown.Private).Int("daily", shown.Daily).Msg("private game shown")
	b.answerPrivateAs(r, shown, note, "", update)
}

// newPrivate makes a private table of kind for the request's user and
// starts its solo game on seed (nil: a new random one).
func (b *Bot) newPrivate(r *request, kind string, seed *[32]byte) (*Table, error) {
	p := session.Player{UserID: r.userID, Name: r.userName, Lang: r.lang.Code(), GuildID: r.i.GuildID, ChannelID: r.i.ChannelID}
	return session.NewPrivate(kind, p, func(name string) (*game.Game, error) {
		switch {
		case seed != nil: // the daily challenge's dice
			return game.New(game.Config{Variant: game.Dice, Players: []string{name}, Seed: *seed})
		case b.opt.NewGame != nil: // tests script the dice
			return b.opt.NewGame(game.Dice, []string{name})
		}
		return game.New(game.Config{Variant: game.Dice, Players: []string{name}, Seed: session.NewSeed()})
	}, b.opt.Now())
}

// dailyMarkSecret names the secret that keys the daily marks (dailyMark).
const dailyMarkSecret = "daily-players"

// dailyMark is what the store keeps to tell that userID played daily
// challenge n: an HMAC-SHA256 of the user ID and the day's number, keyed
// by a secret kept in the store. It survives forget-me (the user's daily
// table goes, the mark stays until the day is over), so that forgetting
// is not a way to play the day's dice again, knowing them; it holds no
// user ID, so forgetting stays forgetting.
func (b *Bot) dailyMark(r *request, n int) ([]byte, error) {
	s := b.opt.Secrets
	if s == nil {
		return nil, fmt.Errorf("bot: the store keeps no marks of the daily challenge")
	}
	key, err := s.Secret(r.ctx, dailyMarkSecret)
	if err != nil {
		return nil, fmt.Errorf("bot: daily mark secret: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(r.userID))
	m.Write([]byte{0})
	m.Write([]byte(strconv.Itoa(n)))
	return m.Sum(nil), nil
}

// keepDailyPlayed marks today's daily challenge as played by the
// request's user when their stored daily table is today's, before
// forget-me deletes it: a table dealt before the marks were kept, or
// whose mark a stopped process did not write, is not forgotten into a
// second attempt. A table that cannot be read tells nothing, and is left
// to forget-me.
func (b *Bot) keepDailyPlayed(r *request) error {
	key := privateKey(privateDaily, r.userID)
	unlock := b.locks.Lock(key)
	t, err := b.loadTable(r.ctx, key)
	unlock()
	if _, bad := asUnreadable(err); bad || t == nil {
		return nil
	}
	if err != nil {
		return err
	}
	n := ai.DailyNumber(b.opt.Now())
	if t.Daily != n {
		return nil
	}
	mark, err := b.dailyMark(r, n)
	if err != nil {
		return err
	}
	if _, err := b.opt.Secrets.MarkDaily(r.ctx, n, mark); err != nil {
		return fmt.Errorf("bot: mark daily %d: %w", n, err)
	}
	return nil
}

// cmdDaily starts (or shows again) the user's daily challenge: the day's
// dice, the same for everybody (ai.DailySeed), played once a day. The
// user's mark for the day (dailyMark) is on disk before the day's dice
// are shown; a user with a mark and no daily table (they asked to be
// forgotten) gets no new deal.
func (b *Bot) cmdDaily(r *request) {
	secret, err := b.dailySecret(r.ctx)
	if err != nil {
		r.fail(err)
		return
	}
	now := b.opt.Now()
	n := ai.DailyNumber(now)
	seed := ai.DailySeed(secret, now)
	mark, err := b.dailyMark(r, n)
	if err != nil {
		r.fail(err)
		return
	}
	played, err := b.opt.Secrets.DailyMarked(r.ctx, n, mark)
	if err != nil {
		r.fail(fmt.Errorf("bot: daily mark: %w", err))
		return
	}
	r.key = privateKey(privateDaily, r.userID)
	note, ok := b.privateReadable(r)
	if !ok {
		return
	}
	next := strconv.FormatInt(session.NextDaily(now).Unix(), 10)
	var shown *Table
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		choice, streak := session.Daily(t, n)
		switch choice {
		case session.DailyResume:
			shown, note = t, r.lang.T(msg.SoloResumed)
			return nil, errRefused // shown as it is
		case session.DailyDone:
			shown, note = t, r.lang.T(msg.DailyDone, strconv.Itoa(n), next)
			return nil, errRefused
		}
		if played {
			r.ephemeral(r.lang.T(msg.DailyAgain, strconv.Itoa(n), next))
			return nil, errRefused
		}
		par, err := b.pars.par(n, seed)
		if err != nil {
			return nil, err
		}
		// The same dice as ai.DailyGame deals: a solo game on the day's seed.
		nt, err := b.newPrivate(r, privateDaily, &seed)
		if err != nil {
			return nil, err
		}
		nt.Daily, nt.Par, nt.Streak = n, par, streak
		shown = nt
		return nt, nil
	})
	defer unlock()
	if shown != nil && !played {
		// A table of the day shown for the first time, or one written by
		// a process that stopped before its mark: marked first.
		if _, err := b.opt.Secrets.MarkDaily(r.ctx, n, mark); err != nil {
			r.fail(fmt.Errorf("bot: mark daily %d: %w", n, err))
			return
		}
	}
	b.showChosen(r, shown, err, note, false)
}

// privateReadable makes sure the request's private game can be read: a
// stored game that cannot (a damaged database) is its player's alone, so
// it is put aside into the store's quarantine for the operator at once,
// and the note says so. ok is false when the request was answered (the
// store failed).
func (b *Bot) privateReadable(r *request) (note string, ok bool) {
	key := r.tableKey()
	unlock := b.locks.Lock(key)
	defer unlock()
	_, err := b.loadTable(r.ctx, key)
	if _, bad := asUnreadable(err); bad {
		moved, qerr := b.st.Quarantine(r.ctx, key, err.Error())
		if qerr != nil {
			r.fail(fmt.Errorf("bot: quarantine private game: %w", qerr))
			return "", false
		}
		b.unreadableSeen.Delete(key)
		r.log.Warn().Bool("moved", moved).Msg("unreadable private game put aside (quarantine)")
		return r.lang.T(msg.SoloUnreadable), true
	}
	if err != nil {
		r.fail(err)
		return "", false
	}
	return "", true
}

// parCache holds the daily challenges' pars by day number.
type parCache struct{ m sync.Map }

// par is the par of daily challenge n (ai.Par on its seed), played once
// per day and process rather than for every player who starts it.
func (c *parCache) par(n int, seed [32]byte) (int, error) {
	if v, ok := c.m.Load(n); ok {
		return v.(int), nil
	}
	par, _, err := ai.Par(seed)
	if err != nil {
		return 0, err
	}
	c.m.Store(n, par)
	return par, nil
}

// privateHint answers the 💡 Hint of a private game's view in place.
func (b *Bot) privateHint(r *request, a customid.Action) {
	t, _, adv, ok := b.advise(r, a, func(t *Table, seat int) bool { return t.Stage == StagePlaying && t.Game.MayAct(seat) })
	if ok {
		b.answerPrivateAs(r, t, "💡 "+view.HintText(r.lang, adv), view.MoveAction(t, a.View, adv.Move), true)
	}
}

// answerPrivateAs answers with the private game's view: a new ephemeral
// message, or (update) the clicked one replaced. The button whose
// custom_id is mark is shown green (a hint).
func (b *Bot) answerPrivateAs(r *request, t *Table, note, mark string, update bool) {
	data, err := b.privateData(r, t, note)
	if err != nil {
		r.fail(err)
		return
	}
	view.MarkButton(data.Components, mark)
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		typ = discordgo.InteractionResponseUpdateMessage
	}
	r.respond(&discordgo.InteractionResponse{Type: typ, Data: data})
}

// privateData is a private game's view (view.Private) with the picture of
// the sheet drawn, and once a daily challenge is over its summary.
func (b *Bot) privateData(r *request, t *Table, note string) (*discordgo.InteractionResponseData, error) {
	var daily []string
	if t.Stage != StagePlaying && t.Private == privateDaily {
		daily = records{b.opt.History}.dailySummary(r, t)
	}
	png, err := b.rd.Sheet(t.Game.Public(), 0, sheetChoices(t, 0), r.lang)
	if err != nil {
		return nil, err
	}
	return view.Private(t, r.lang, note, daily, png), nil
}

// dailySummary is what a finished daily challenge shows (view.Daily):
// the par, the player's place among the server's players of the day,
// their streak and a text to share that gives away no dice.
func (k records) dailySummary(r *request, t *Table) []string {
	rank, of, top := k.dailyRanking(r, t)
	return view.Daily(r.lang, t, rank, of, top)
}

// dailyRanking is the player's place among the players of the same daily
// challenge in the place the game was played in, how many played it, and
// the first lines of that ranking, worded (session.Table.DailyRanking:
// who may see it, its order); nothing where no place was kept or the
// results cannot be read.
func (k records) dailyRanking(r *request, t *Table) (rank, of int, top []string) {
	h, ok := k.history()
	if !ok || !t.DailyRanked() {
		return 0, 0, nil // played where no place was kept
	}
	results, err := h.Results(r.ctx, t.GuildID, 0)
	if err != nil && len(results) == 0 {
		r.log.Warn().Err(err).Msg("daily ranking: results unreadable")
		return 0, 0, nil
	}
	rank, of, rows := t.DailyRanking(results, r.userID)
	for _, row := range rows {
		top = append(top, r.lang.T(msg.DailyRankrow, row.Place, view.EscapeMarkdown(row.Name), row.Score))
	}
	return rank, of, top
}

// cmdSoloChannel starts a solo dice game in the channel: a table of one
// seat, started at once, that everybody sees and only its player plays,
// with the channel's timer and messages like any table.
func (b *Bot) cmdSoloChannel(r *request) {
	var solo *Table
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if err := session.MayOpen(t); err != nil {
			return nil, r.refuse(t, err)
		}
		solo = &Table{
			ID: session.NewTableID(), GuildID: session.Place(r.i.GuildID, r.i.ChannelID), ChannelID: r.i.ChannelID, Host: r.userID, Variant: game.Dice, Games: 1,
			Stage: StageLobby, Lang: r.glang.Code(), Created: b.opt.Now().UTC(), MaxSeats: b.opt.MaxPlayers,
		}
		solo.Seats = []Seat{{UserID: r.userID, Name: solo.UniqueName(r.userName)}}
		if t != nil {
			// The finished game's results lose their buttons' Play again:
			// this table replaces it (as cmdNew).
			solo.Shown.ResultsMsg, solo.Shown.ResultsLive = t.Shown.ResultsMsg, t.Shown.ResultsLive
			solo.Shown.ResultsRecord, solo.Shown.ResultsReview = t.Shown.ResultsRecord, t.Shown.ResultsReview
		}
		if err := b.startGame(solo); err != nil {
			return nil, err
		}
		return solo, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	r.log.Info().Str("table", solo.ID).Msg("solo game started in the channel")
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content: LangFor(solo.Lang).T(msg.SoloChannel, solo.Seats[0].Mention()), AllowedMentions: &discordgo.MessageAllowedMentions{},
	}})
	b.refresh.kick(b, r.i.ChannelID)
}

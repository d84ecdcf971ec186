package bot

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// history returns the bot's History (Options.History), if it keeps one:
// every game played to its end is then saved with the table that shows it
// over (UpdateSaving); without one the history's commands answer that
// nothing is kept.
func (b *Bot) history() (session.History, bool) {
	return b.opt.History, b.opt.History != nil
}

// records answers the requests that read the kept history (a game's
// record, statistics, the leaderboard, the forget-me question) from h,
// the bot's History (Options.History); with h nil, none kept, they
// answer so.
type records struct{ h session.History }

// history returns h, if one is kept.
func (k records) history() (session.History, bool) { return k.h, k.h != nil }

// Limits of what the history answers show.
const (
	recentGames      = 5  // last games in /qwixx stats
	recordChoices    = 25 // Discord's most autocomplete choices
	historySweepTick = time.Hour
)

// gameID names a table's current game in the history (session.Table.GameID).
func gameID(t *Table) string { return t.GameID() }

// recordClick sends the record of the game whose results carry the
// button, privately. The game ID comes from the button; the place from
// the interaction, so a forged button reaches only the records this
// user may see here (sendRecord).
func (b *Bot) recordClick(r *request, a customid.Action) {
	records{b.opt.History}.sendRecord(r, a.Table+"-"+a.Arg)
}

// The visibility of a kept game follows the game (see session.Place): a
// table game is its players' and its place's, a private game (solo,
// daily challenge) its player's alone. A request reads the history of
// its place (session.Places) and sees there what its user may.

// visibleResults are results the viewer may see ("" nobody's private
// games: what a message in the channel may show).
func visibleResults(results []stats.Result, viewer string) []stats.Result {
	out := results[:0:0]
	for _, res := range results {
		if res.VisibleTo(viewer) {
			out = append(out, res)
		}
	}
	return out
}

// findRecord is the record the request asks for, if the user may see
// it: game id in the request's places, or with id "" the newest record
// the user may see there. A record the user may not see is not found,
// whether it exists or not.
func (k records) findRecord(r *request, id string) (session.KeptRecord, bool, error) {
	var (
		best  session.KeptRecord
		found bool
	)
	for _, place := range session.Places(r.i.GuildID, r.i.ChannelID) {
		gr, ok, err := k.placeRecord(r, place, id)
		if err != nil {
			return session.KeptRecord{}, false, err
		}
		if ok && (!found || gr.Time.After(best.Time)) {
			best, found = gr, true
		}
	}
	return best, found, nil
}

// placeRecord is findRecord in one place.
func (k records) placeRecord(r *request, place, id string) (session.KeptRecord, bool, error) {
	h := k.h
	if id != "" {
		gr, found, err := h.Record(r.ctx, place, id)
		if err != nil || !found {
			return gr, false, err
		}
		return gr, gr.VisibleTo(r.userID), nil
	}
	infos, err := h.Records(r.ctx, place, 0)
	if err != nil && len(infos) == 0 {
		return session.KeptRecord{}, false, err
	}
	results, err := h.Results(r.ctx, place, len(infos)+50)
	if err != nil {
		r.log.Warn().Err(err).Msg("results for the newest record")
	}
	byID := make(map[string]stats.Result, len(results))
	for _, res := range results {
		byID[res.GameID] = res
	}
	for _, in := range infos {
		if res, ok := byID[in.GameID]; ok && !res.VisibleTo(r.userID) {
			continue // not theirs: not even read
		}
		gr, found, err := h.Record(r.ctx, place, in.GameID)
		if err != nil {
			return gr, false, err
		}
		if found && gr.VisibleTo(r.userID) {
			return gr, true, nil
		}
	}
	return session.KeptRecord{}, false, nil
}

// sendRecord answers with the record of game id ("" the newest) that the
// user may see here, as a JSON attachment, privately.
func (k records) sendRecord(r *request, id string) {
	if _, ok := k.history(); !ok {
		r.ephemeral(r.lang.T(msg.HistNone))
		return
	}
	gr, found, err := k.findRecord(r, id)
	if isCorrupt(err) {
		r.log.Error().Err(err).Str("game", id).Msg("kept record damaged")
		r.ephemeral(r.lang.T(msg.RecordDamaged))
		return
	}
	if err != nil {
		r.fail(err)
		return
	}
	if !found {
		if days := k.retentionDays(); days > 0 {
			r.ephemeral(r.lang.T(msg.RecordMissing, days))
		} else {
			r.ephemeral(r.lang.T(msg.RecordGone))
		}
		return
	}
	rec, err := game.ParseRecord(gr.JSON)
	var v game.Variant
	if err == nil {
		v, err = game.ParseVariant(rec.Variant)
	}
	if err != nil {
		r.log.Error().Err(err).Str("game", gr.GameID).Msg("kept record damaged")
		r.ephemeral(r.lang.T(msg.RecordDamaged))
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.Record(r.lang, gr.Time, v, rec.Players, gr.JSON)})
}

// retentionDays is how many days records are kept, for the answer that a
// record is gone; 0 or less when they are kept until the cap pushes them
// out.
func (k records) retentionDays() int {
	if h, ok := k.history(); ok {
		return int(h.Retention().RecordMaxAge / (24 * time.Hour))
	}
	return int(store.DefaultRecordMaxAge / (24 * time.Hour))
}

// autocompleteRecord offers the newest kept records the user may see
// here for the record option: date, players and scores; the value is the
// game ID. A record is offered only with its result (which says whose it
// is).
func (k records) autocompleteRecord(r *request, typed string) []*discordgo.ApplicationCommandOptionChoice {
	h, ok := k.history()
	out := []*discordgo.ApplicationCommandOptionChoice{}
	if !ok {
		return out
	}
	type choice struct {
		in  session.RecordInfo
		res stats.Result
	}
	var all []choice
	for _, place := range session.Places(r.i.GuildID, r.i.ChannelID) {
		infos, err := h.Records(r.ctx, place, 0)
		if err != nil {
			r.log.Warn().Err(err).Msg("records for autocomplete")
		}
		results, err := h.Results(r.ctx, place, len(infos)+50)
		if err != nil {
			r.log.Warn().Err(err).Msg("results for autocomplete")
		}
		byID := make(map[string]stats.Result, len(results))
		for _, res := range results {
			byID[res.GameID] = res
		}
		for _, in := range infos {
			if res, ok := byID[in.GameID]; ok && res.VisibleTo(r.userID) {
				all = append(all, choice{in, res})
			}
		}
	}
	slices.SortStableFunc(all, func(a, c choice) int { return c.in.Time.Compare(a.in.Time) })
	typed = strings.ToLower(strings.TrimSpace(typed))
	for _, c := range all {
		if len(out) == recordChoices {
			break
		}
		in, res := c.in, c.res
		name := in.Time.UTC().Format("2006-01-02 15:04") + " UTC"
		var seats []string
		for _, s := range res.Seats {
			seats = append(seats, fmt.Sprintf("%s %d", s.Name, s.Score))
		}
		name += " · " + view.VariantName(r.lang, res.Variant) + " · " + strings.Join(seats, ", ")
		name = view.Clip(name, 100)
		if typed != "" && !strings.Contains(strings.ToLower(name), typed) && !strings.Contains(in.GameID, typed) {
			continue
		}
		if len(in.GameID) > 100 {
			continue
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: in.GameID})
	}
	return out
}

// cmdStats answers /qwixx stats [player] privately, from the games the
// asking user may see here (their own private games, nobody else's), with
// a button that shows the player's statistics in the channel.
func (k records) cmdStats(r *request, userID string) {
	embed, ok := k.statsEmbed(r, r.lang, userID, r.userID)
	if !ok {
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.StatsPrivate(r.lang, embed, userID)})
}

// statsShow posts the statistics of the button's user in the channel, in
// the guild's language, computed afresh (the button outlives restarts)
// from what the channel may see: no private game's, not even the
// clicker's own.
func (b *Bot) statsShow(r *request, a customid.Action) {
	embed, ok := records{b.opt.History}.statsEmbed(r, r.glang, a.Table, "")
	if !ok {
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.StatsShown(r.glang, embed, r.userID)})
}

// statsEmbed is userID's statistics in this place, in l, from the
// results viewer may see ("" no private game's); false when the request
// was answered instead (no history, no games, an error).
func (k records) statsEmbed(r *request, l Lang, userID, viewer string) (*discordgo.MessageEmbed, bool) {
	if _, ok := k.history(); !ok {
		r.ephemeral(r.lang.T(msg.HistNone))
		return nil, false
	}
	results, damaged, ok := k.readResults(r)
	if !ok {
		return nil, false
	}
	results = visibleResults(results, viewer)
	us := stats.ForUser(results, userID, recentGames)
	if us.All.Games == 0 && us.Solo.Games == 0 {
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
			Content: r.lang.T(msg.StatsNogames, "<@"+userID+">"), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
		}})
		return nil, false
	}
	return view.Stats(l, us, damaged), true
}

// readResults reads the kept results of the request's places, whoever
// may see them (the caller filters: visibleResults), and how many of them
// are damaged (left out, and to be said so); ok is false when it
// answered the request instead: no result readable at all, or an error.
func (k records) readResults(r *request) (results []stats.Result, damaged int, ok bool) {
	h, _ := k.history()
	var err error
	places := session.Places(r.i.GuildID, r.i.ChannelID)
	for _, place := range places {
		rs, perr := h.Results(r.ctx, place, 0)
		results = append(results, rs...)
		damaged += session.Skipped(perr)
		if perr != nil && err == nil {
			err = perr
		}
	}
	if len(places) > 1 { // newest first, as each place's
		slices.SortStableFunc(results, func(a, c stats.Result) int { return c.Time.Compare(a.Time) })
	}
	if err != nil {
		r.log.Error().Err(err).Int("damaged", damaged).Msg("some results unreadable")
		if len(results) == 0 {
			if damaged > 0 || isCorrupt(err) {
				r.ephemeral(r.lang.T(msg.HistAlldamaged))
			} else {
				r.fail(err)
			}
			return nil, damaged, false
		}
	}
	return results, damaged, true
}

// cmdLeaderboard posts the guild's leaderboard in the channel: the ranked
// players by rating, those with fewer games after them, and under it one
// line saying what the rating is.
func (k records) cmdLeaderboard(r *request, v game.Variant, computers bool) {
	if _, ok := k.history(); !ok {
		r.ephemeral(r.lang.T(msg.HistNone))
		return
	}
	results, damaged, ok := k.readResults(r)
	if !ok {
		return
	}
	// The board is posted in the channel: no private game counts.
	board := stats.Leaders(visibleResults(results, ""), stats.LeaderboardOptions{Variant: v, Computers: computers})
	if len(board.Entries) == 0 {
		r.ephemeral(r.lang.T(msg.BoardEmpty))
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.BoardMessage(r.glang, board, v, damaged)})
}

// cmdForget asks the user to confirm that their data is to be forgotten.
func (k records) cmdForget(r *request) {
	if _, ok := k.history(); !ok {
		r.ephemeral(r.lang.T(msg.HistNone))
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.ForgetAsk(r.lang, r.userID)})
}

// peopleClick handles the buttons of the forget-me confirmation.
func (b *Bot) peopleClick(r *request, a customid.Action) {
	// Only the user who asked confirms: the button names them.
	if err := r.click(a).Confirm(); err != nil {
		r.refuse(nil, err)
		return
	}
	update := func(text string) {
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: text, Components: []discordgo.MessageComponent{},
		}})
	}
	if a.Verb == "keep" {
		update(r.lang.T(msg.ForgetKept))
		return
	}
	h, ok := b.history()
	if !ok {
		update(r.lang.T(msg.HistNone))
		return
	}
	if err := b.keepDailyPlayed(r); err != nil {
		r.fail(err)
		return
	}
	f, err := h.DeleteUser(r.ctx, "", r.userID)
	if err != nil {
		r.fail(err)
		return
	}
	// Their private games (solo, daily challenge) go too: they hold the
	// user's ID and name. That they played today's daily challenge stays
	// known, as a keyed hash (dailyMark): not played again, knowing its
	// dice.
	for _, kind := range []string{privateSolo, privateDaily} {
		unlock, err := b.withTable(r.ctx, privateKey(kind, r.userID), func(*Table) (*Table, error) { return nil, nil })
		unlock()
		if err != nil {
			r.fail(err)
			return
		}
	}
	r.log.Info().Int("results", f.Results).Int("records", f.Records).Msg("user forgotten")
	update(r.lang.T(msg.ForgetDone, f.Results, f.Records))
}

// GuildDeleted handles GUILD_DELETE: the bot left the guild (was removed,
// or the guild was deleted), and its data is deleted after the grace
// period unless it comes back. An unavailable guild (an outage) is not
// left.
func (b *Bot) GuildDeleted(guildID string, unavailable bool) {
	h, ok := b.history()
	if !ok || unavailable || guildID == "" {
		return
	}
	if err := h.GuildLeft(b.life, guildID, b.opt.Now().UTC()); err != nil {
		b.log.Error().Err(err).Str("guild", guildID).Msg("mark a left guild")
		return
	}
	b.log.Info().Str("guild", guildID).Msg("left a guild: its data goes after the grace period")
}

// GuildCreated handles GUILD_CREATE: the bot is in the guild (again), so
// its data stays.
func (b *Bot) GuildCreated(guildID string) {
	h, ok := b.history()
	if !ok || guildID == "" {
		return
	}
	back, err := h.GuildBack(b.life, guildID)
	if err != nil {
		b.log.Error().Err(err).Str("guild", guildID).Msg("clear a left guild")
		return
	}
	if back {
		b.log.Info().Str("guild", guildID).Msg("back in a guild: its data stays")
	} else {
		b.log.Debug().Str("guild", guildID).Msg("in a guild")
	}
}

// sweepHistory applies the history's retention and deletes the data of
// guilds left longer ago than the grace period, hourly.
func (b *Bot) sweepHistory(now time.Time) {
	h, ok := b.history()
	if !ok {
		return
	}
	last := b.lastHistorySweep.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < historySweepTick {
		return
	}
	b.lastHistorySweep.Store(now.UnixNano())
	rep, err := h.Sweep(b.life, now)
	if err != nil {
		b.log.Error().Err(err).Msg("sweep the history")
		return
	}
	if len(rep.Purged) > 0 || rep.Results > 0 || rep.Records > 0 {
		b.log.Info().Strs("purged_guilds", rep.Purged).Int("results", rep.Results).Int("records", rep.Records).Msg("history swept")
	}
}

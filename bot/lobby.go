package bot

import (
	"errors"
	"fmt"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// cmdNew opens a table in the channel, with the host seated (one running
// table per channel; a thread is a channel of its own). When the channel
// has an open lobby already, it is shown again: the answer that showed it
// may have been lost, and nobody could join a lobby nobody can see.
func (b *Bot) cmdNew(r *request, v game.Variant, games int) {
	var lobby, open *Table
	var dropped *game.Match // an unfinished match the new table ends
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if err := session.MayOpen(t); errors.Is(err, session.ErrLobbyOpen) {
			open = t
			return nil, errRefused
		} else if err != nil {
			return nil, r.refuse(t, err)
		}
		lobby = &Table{
			// Outside servers (a DM, a group DM) the channel is the
			// place (session.Place): its history is its own.
			ID: session.NewTableID(), GuildID: session.Place(r.i.GuildID, r.i.ChannelID), ChannelID: r.i.ChannelID,
			Host: r.userID, Variant: v, Games: max(1, min(games, game.MaxMatchGames)),
			Stage: StageLobby, Lang: r.glang.Code(), Created: b.opt.Now().UTC(),
		}
		lobby.Seats = []Seat{{UserID: r.userID, Name: lobby.UniqueName(r.userName)}}
		lobby.MaxSeats = b.opt.MaxPlayers
		lobby.Interactions = !botHere(r.i)
		if t != nil {
			// The finished game's results lose their Play again (or Next
			// game) button: this table replaces it.
			lobby.Shown.ResultsMsg, lobby.Shown.ResultsLive = t.Shown.ResultsMsg, t.Shown.ResultsLive
			lobby.Shown.ResultsRecord, lobby.Shown.ResultsReview = t.Shown.ResultsRecord, t.Shown.ResultsReview
			if t.Match != nil && !t.Match.Done() && t.Match.Games > 1 {
				dropped = t.Match
			}
		}
		return lobby, nil
	})
	if ue, ok := asUnreadable(err); ok {
		unlock()
		if b.clearUnreadable(r, ue) {
			b.cmdNew(r, v, games) // the channel is free now
		}
		return
	}
	defer unlock()
	if open != nil {
		l := LangFor(open.Lang)
		data := view.Lobby(open, l)
		data.Content = l.T(msg.LobbyAgain)
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
		return
	}
	if r.failed(err) {
		if errors.Is(err, errRefused) {
			b.refresh.kick(b, r.i.ChannelID) // a running game: make sure it is shown
		}
		return
	}
	r.log.Info().Str("table", lobby.ID).Str("variant", v.String()).Msg("table opened")
	data := view.Lobby(lobby, LangFor(lobby.Lang))
	if dropped != nil {
		data.Content = LangFor(lobby.Lang).T(msg.LobbyMatchdropped, dropped.Played(), dropped.Games)
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
	if lobby.Shown.ResultsLive {
		b.refresh.kick(b, r.i.ChannelID)
	}
}

// component dispatches button and select clicks. Only what the bot made
// gets through: a custom_id of its own format, clicked on the kind of
// message it was made for (public or private, decided by the message's
// flags), with the component type and values it was made with.
func (b *Bot) component(r *request) {
	data, ok := r.i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		r.ephemeral(r.lang.T(msg.ErrForged))
		return
	}
	a, err := customid.Decode(data.CustomID)
	switch {
	case errors.Is(err, customid.ErrOldButton):
		r.ephemeral(r.lang.T(msg.ErrStale))
		return
	case err != nil:
		r.log.Warn().Str("custom_id", data.CustomID).Msg("forged custom_id")
		r.ephemeral(r.lang.T(msg.ErrForged))
		return
	}
	if reason := componentMismatch(r.i, a, data); reason != "" {
		r.log.Warn().Str("custom_id", data.CustomID).Str("reason", reason).Msg("forged component interaction")
		r.ephemeral(r.lang.T(msg.ErrForged))
		return
	}
	if h := handlerOf(a.View, a.Verb); h != nil {
		h(b, r, a)
		return
	}
	// DecodeAction accepts only the routing table's pairs.
	r.log.Error().Str("custom_id", data.CustomID).Msg("decoded click without a route")
	r.ephemeral(r.lang.T(msg.ErrForged))
}

// componentMismatch says why a component interaction cannot come from a
// component the bot made for action a, or "" when it can: private views
// live in ephemeral messages and public ones never do; selects are the
// builder's menus and carry values, buttons carry none.
func componentMismatch(i *discordgo.Interaction, a customid.Action, data discordgo.MessageComponentInteractionData) string {
	if i.Message == nil {
		return "no message"
	}
	if private := i.Message.Flags&discordgo.MessageFlagsEphemeral != 0; private != a.View.Private() {
		return "view on the wrong kind of message"
	}
	isSelect := a.IsSelect()
	switch {
	case isSelect && data.ComponentType != discordgo.SelectMenuComponent:
		return "select verb on another component"
	case !isSelect && data.ComponentType != discordgo.ButtonComponent:
		return "button verb on another component"
	case !isSelect && len(data.Values) > 0:
		return "values on a button"
	case len(data.Values) > 25:
		return "too many values"
	}
	return ""
}

// lobbyClick handles Join, Leave, Start and Cancel on a lobby message.
func (b *Bot) lobbyClick(r *request, a customid.Action) {
	var after *Table
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if err := r.click(a).Lobby(t); err != nil {
			return nil, r.refuse(t, err)
		}
		var err error
		switch a.Verb {
		case "join":
			err = t.Join(r.userID, r.userName)
		case "leave":
			err = t.LeaveLobby(r.userID)
		case "leavers":
			err = t.ToggleLeavers(r.userID)
		case "hints":
			err = t.ToggleHints(r.userID)
		case "bot":
			err = t.AddComputer(r.userID, a.Arg)
		case "unbot":
			err = t.RemoveComputer(r.userID)
		case "cancel":
			if err = t.MayCancel(r.userID); err == nil {
				after = nil
				return nil, nil // delete the table
			}
		case "start":
			if err = t.MayStart(r.userID); err == nil {
				if err := b.startGame(t); err != nil {
					return nil, err
				}
			}
		}
		if err != nil {
			return nil, r.refuse(t, err)
		}
		after = t
		return t, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	l := LangFor("en")
	if after != nil {
		l = LangFor(after.Lang)
	}
	switch {
	case a.Verb == "cancel":
		r.log.Info().Str("table", a.Table).Msg("table cancelled")
		b.updateLobby(r, view.LobbyCancelled(r.glang, r.userID))
	case after.Stage == StagePlaying:
		r.log.Info().Str("table", after.ID).Int("players", len(after.Seats)).Msg("game started")
		b.updateLobby(r, view.LobbyStarted(after, l))
		b.refresh.kick(b, r.i.ChannelID)
	default:
		b.updateLobby(r, view.Lobby(after, l))
	}
}

// updateLobby answers a click on the lobby message by updating it to data,
// under the table's lock. Through the interactions endpoint an earlier
// update of the lobby may still be on its way (answerorder.go: Discord
// applies two responses in no promised order); then the click is
// acknowledged without a change and the lobby is edited through the token
// of the click whose answer was that earlier update (Discord applies an
// edit through a token after its response), so the lobby ends at the
// newest state. Otherwise the answer is the update, and the click's token
// is kept for such a later edit.
func (b *Bot) updateLobby(r *request, data *discordgo.InteractionResponseData) {
	if b.updateMayOvertake(r) {
		if r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}) != nil {
			return
		}
		edit := &discordgo.MessageEdit{ID: r.i.Message.ID, Channel: r.i.ChannelID, Content: &data.Content,
			Components: &data.Components, Embeds: &data.Embeds, AllowedMentions: data.AllowedMentions}
		if _, err := b.editMessage(edit, false); err != nil {
			r.log.Warn().Err(err).Msg("lobby not brought up to date")
		}
		return
	}
	if r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data}) != nil || r.to == nil || r.i.Message == nil {
		return
	}
	b.noteAnswerView(r, data.Content, data.Embeds, data.Components)
	b.liveTokens.Store(r.i.Message.ID, liveToken{msg: r.i.Message.ID, it: tokenOnly(r.i), at: r.at})
}

// startGame deals the table's next game (session.Table.Begin).
func (b *Bot) startGame(t *Table) error {
	players := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		players[i] = s.Name
	}
	newGame := b.opt.NewGame
	if newGame == nil {
		newGame = func(v game.Variant, players []string) (*game.Game, error) {
			return game.New(game.Config{Variant: v, Players: players, Seed: session.NewSeed()})
		}
	}
	g, err := newGame(t.Variant, players)
	if err != nil {
		return fmt.Errorf("bot: start game: %w", err)
	}
	return t.Begin(g, b.timing(t))
}

// cmdEnd ends the channel's game (host, or members who may manage
// messages), showing the standings.
func (b *Bot) cmdEnd(r *request) {
	var ended *Table
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if t == nil {
			return nil, r.refuse(t, session.ErrNoGame)
		}
		if err := t.MayEnd(r.userID, r.perms&discordgo.PermissionManageMessages != 0); err != nil {
			return nil, r.refuse(t, err)
		}
		ended = t
		return nil, nil // the table is deleted; the channel is free again
	})
	if ue, ok := asUnreadable(err); ok {
		unlock()
		if b.clearUnreadable(r, ue) {
			r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: r.glang.T(msg.EndUnreadable, "<@"+r.userID+">"), AllowedMentions: &discordgo.MessageAllowedMentions{}}})
		}
		return
	}
	defer unlock()
	if r.failed(err) {
		return
	}
	l := LangFor(ended.Lang)
	r.log.Info().Str("table", ended.ID).Msg("game ended by command")
	if ended.Game == nil {
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: l.T(msg.EndLobby, "<@"+r.userID+">"), AllowedMentions: &discordgo.MessageAllowedMentions{}}})
		return
	}
	data := b.resultsMessage(r.log.Logger(), ended, l.T(msg.EndDone, "<@"+r.userID+">"))
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
	// The table is gone, and the reconciler with it: shrink its messages
	// and delete its reminder here, as the reconciler would have.
	ended.Stage = StageOver // the live message becomes a past turn
	settle(ended)
	for _, p := range ended.Shown.Past {
		if !p.Sent {
			if err := b.shrink(ended.ChannelID, p, ended.Interactions); err != nil {
				r.log.Warn().Err(err).Msg("shrink an ended table's message")
			}
		}
	}
	if ended.Shown.Reminder != "" {
		if err := b.deleteMessage(ended.ChannelID, ended.Shown.Reminder); err != nil {
			r.log.Warn().Err(err).Msg("delete an ended table's reminder")
		}
	}
	b.refresh.kick(b, r.i.ChannelID) // the players' hand views say it ended
}

// cmdLeave marks a seated player as gone: the player themself, or anybody
// when the host asks. Their turns are passed from now on and their sheet
// still scores (RULES P2). In the lobby, leaving frees the seat.
func (b *Bot) cmdLeave(r *request, userID string) {
	var name string
	leftMsg := msg.EventLeft
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		if t == nil {
			return nil, r.refuse(t, session.ErrNoGame)
		}
		if seat := t.SeatOf(userID); seat >= 0 {
			name = t.Seats[seat].Name
		}
		n, err := t.Leave(userID, r.userID, b.timing(t))
		logProblems(b.log, t)
		if err != nil {
			return nil, r.refuse(t, err)
		}
		if n.Event == newsLeftBot {
			leftMsg = msg.EventLeftComputer
		}
		return t, nil
	})
	defer unlock()
	if r.failed(err) {
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content: r.glang.T(leftMsg, name), AllowedMentions: &discordgo.MessageAllowedMentions{},
	}})
	b.refresh.kick(b, r.i.ChannelID)
}

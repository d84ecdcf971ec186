package view

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// VariantName is the localised name of a variant.
func VariantName(l i18n.Lang, v game.Variant) string { return l.T(i18n.Variant(v)) }

// Lobby shows the lobby: variant, host, seats and the buttons.
func Lobby(t *session.Table, l i18n.Lang) *discordgo.InteractionResponseData {
	var seats strings.Builder
	computers := 0
	for i, s := range t.Seats {
		if s.Computer != "" {
			computers++
			fmt.Fprintf(&seats, "%d. %s (%s)\n", i+1, s.Mention(), l.T(i18n.Level(s.Computer)))
			continue
		}
		fmt.Fprintf(&seats, "%d. %s\n", i+1, s.Mention())
	}
	desc := l.T(msg.LobbyHost, "<@"+t.Host+">")
	if t.Games > 1 {
		desc += "\n" + l.T(msg.LobbyGames, t.Games)
	}
	if t.Interactions {
		desc += "\n" + l.T(msg.LobbyInteractions)
	}
	embed := &discordgo.MessageEmbed{
		Title:       l.T(msg.LobbyTitle, VariantName(l, t.Variant)),
		Description: desc,
		Color:       0x2b7a3d,
		Fields: []*discordgo.MessageEmbedField{{
			Name: l.T(msg.LobbySeats, len(t.Seats), t.SeatLimit()), Value: seats.String(),
		}},
		Footer: &discordgo.MessageEmbedFooter{Text: l.T(msg.LobbyHint, t.SeatLimit())},
	}
	full := len(t.Seats) >= t.SeatLimit()
	leavers := l.T(msg.BtnLeaversComputer)
	if t.LeaverPass {
		leavers = l.T(msg.BtnLeaversPass)
	}
	hints := l.T(msg.BtnHintsOn)
	if t.NoHints {
		hints = l.T(msg.BtnHintsOff)
	}
	bots := []discordgo.MessageComponent{}
	for _, lv := range ai.Levels {
		bots = append(bots, discordgo.Button{Label: l.T(msg.BtnAddbot, l.T(i18n.Level(lv.String()))), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewLobby, "bot", lv.String()), Disabled: full})
	}
	bots = append(bots, discordgo.Button{Label: l.T(msg.BtnUnbot), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewLobby, "unbot", ""), Disabled: computers == 0})
	settings := []discordgo.MessageComponent{
		discordgo.Button{Label: leavers, Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewLobby, "leavers", "")},
		discordgo.Button{Label: hints, Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewLobby, "hints", "")},
	}
	return &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T(msg.BtnJoin), Style: discordgo.PrimaryButton, CustomID: ActionID(t, customid.ViewLobby, "join", ""), Disabled: full},
			discordgo.Button{Label: l.T(msg.BtnLeave), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewLobby, "leave", "")},
			discordgo.Button{Label: l.T(msg.BtnStart), Style: discordgo.SuccessButton, CustomID: ActionID(t, customid.ViewLobby, "start", ""), Disabled: len(t.Seats) < game.MinPlayers},
			discordgo.Button{Label: l.T(msg.BtnCancel), Style: discordgo.DangerButton, CustomID: ActionID(t, customid.ViewLobby, "cancel", "")},
		}}, discordgo.ActionsRow{Components: bots}, discordgo.ActionsRow{Components: settings}},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
}

// Refusal says why an intent was refused (the session's errors: the
// lobby's, the game's, the click intents' and the settings'), in the
// user's words. t is the table the intent was refused at (nil where there
// is none: no refusal that names the table's seats or host comes without
// one).
func Refusal(l i18n.Lang, t *session.Table, err error) string {
	switch {
	case errors.Is(err, session.ErrStale):
		return l.T(msg.ErrStale)
	case errors.Is(err, session.ErrGameOver):
		return l.T(msg.ErrOvergame)
	case errors.Is(err, session.ErrPrivateGone):
		return l.T(msg.SoloGone)
	case errors.Is(err, session.ErrPrivateStale):
		return l.T(msg.SoloStale)
	case errors.Is(err, session.ErrBadChoice):
		return l.T(msg.ErrForged)
	case errors.Is(err, session.ErrNotNow):
		return l.T(msg.ErrNotnow)
	case errors.Is(err, session.ErrHintsOff):
		return l.T(msg.HintOff)
	case errors.Is(err, session.ErrNothingToHint):
		return l.T(msg.HintNothing)
	case errors.Is(err, session.ErrReviewNotOver):
		return l.T(msg.ReviewNotover)
	case errors.Is(err, session.ErrNotInGame):
		return l.T(msg.ReviewNotplayer)
	case errors.Is(err, session.ErrNoHand):
		return l.T(msg.HandNone)
	case errors.Is(err, session.ErrHandOver):
		return l.T(msg.HandOver)
	case errors.Is(err, session.ErrNotAsker):
		return l.T(msg.ErrForged)
	case errors.Is(err, session.ErrBusy), errors.Is(err, session.ErrLobbyOpen):
		return l.T(msg.ErrBusy, VariantName(l, t.Variant))
	case errors.Is(err, session.ErrNoGame):
		return l.T(msg.ErrNogame)
	case errors.Is(err, session.ErrRemoveHost):
		return l.T(msg.ErrRemovehost)
	case errors.Is(err, session.ErrEndPerm):
		return l.T(msg.ErrEndperm)
	case errors.Is(err, session.ErrNotPlaying):
		return l.T(msg.ErrNotplaying)
	case errors.Is(err, session.ErrLeftMatch):
		return l.T(msg.ErrLeft)
	case errors.Is(err, session.ErrSeated):
		return l.T(msg.ErrJoined)
	case errors.Is(err, session.ErrFull):
		return l.T(msg.ErrFull, t.SeatLimit())
	case errors.Is(err, session.ErrNotSeated):
		return l.T(msg.ErrNotseated)
	case errors.Is(err, session.ErrHostLeaves):
		return l.T(msg.ErrHostleave)
	case errors.Is(err, session.ErrHostOnly):
		return l.T(msg.ErrHostonly, "<@"+t.Host+">")
	case errors.Is(err, session.ErrFewPlayers):
		return l.T(msg.ErrFewplayers)
	case errors.Is(err, session.ErrManageServer):
		return l.T(msg.SettingsPerm)
	case errors.Is(err, session.ErrTimeoutRange):
		return l.T(msg.SettingsRange, FormatDuration(l, session.MinTurnTimeout), FormatDuration(l, session.MaxTurnTimeout))
	}
	return l.T(msg.ErrInternal)
}

// AgainLobby is the lobby that Play again opened (its host asked): it
// says so and pings the others seated.
func AgainLobby(lobby *session.Table) *discordgo.InteractionResponseData {
	l := i18n.For(lobby.Lang)
	data := Lobby(lobby, l)
	data.Content = l.T(msg.LobbyAgainby, "<@"+lobby.Host+">")
	var ping []string
	for _, s := range lobby.Seats {
		if s.Computer == "" && s.UserID != lobby.Host {
			ping = append(ping, s.UserID)
		}
	}
	if len(ping) > 0 {
		data.Content += " " + l.T(msg.LobbySeated, Mentions(ping))
	}
	data.AllowedMentions = &discordgo.MessageAllowedMentions{Users: ping}
	return data
}

// Mentions is the users' Mentions, separated by spaces.
func Mentions(users []string) string {
	out := make([]string, len(users))
	for i, u := range users {
		out[i] = "<@" + u + ">"
	}
	return strings.Join(out, " ")
}

// LobbyCancelled is the lobby once its host (by) cancelled the table: it
// says so, without its embed and buttons.
func LobbyCancelled(l i18n.Lang, by string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content: l.T(msg.LobbyCancelled, "<@"+by+">"), Embeds: []*discordgo.MessageEmbed{}, Components: []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
}

// LobbyStarted is the lobby once its game started: who plays, without
// its embed and buttons (the table message follows).
func LobbyStarted(t *session.Table, l i18n.Lang) *discordgo.InteractionResponseData {
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = s.Mention()
	}
	return &discordgo.InteractionResponseData{
		Content: l.T(msg.LobbyStarted, strings.Join(names, ", ")), Embeds: []*discordgo.MessageEmbed{}, Components: []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
}

package view

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// Live is the live message of a table's current turn: its text and
// buttons, and the public view its picture shows.
type Live struct {
	Content    string
	Components []discordgo.MessageComponent
	// Picture is what the table picture shows: who has decided is text,
	// not picture (Decided and Phase are cleared), so that the picture
	// changes only when the sheets or the dice do.
	Picture game.PublicView
}

// LiveTurn is the live message of the turn in play at t (a game in
// play), in the table's language.
func LiveTurn(t *session.Table) Live {
	l := i18n.For(t.Lang)
	pv := t.Game.Public()
	for i := range pv.Players {
		pv.Players[i].Decided = false
	}
	pv.Phase = 0
	return Live{Content: TableContent(t, l), Components: TableControls(t, l), Picture: pv}
}

// TurnLog is the one-line log of turn key ("g<game>.t<turn>") of t's
// current game (TurnLogLine of its game.TurnSummary), in the table's
// language; the news of that turn (timeouts) follow it. A turn of an
// earlier game, whose moves are gone, is named only.
func TurnLog(t *session.Table, key string) string {
	var gameNo, turn int
	fmt.Sscanf(key, "g%d.t%d", &gameNo, &turn)
	l := i18n.For(t.Lang)
	if t.Game == nil || gameNo != t.GameNo {
		return l.T(msg.LogTurn, turn)
	}
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = s.Name
	}
	line := l.T(msg.LogTurn, turn)
	for _, ts := range t.Game.Turns() {
		if ts.Turn == turn {
			line = TurnLogLine(l, ts, names)
		}
	}
	for _, n := range t.News {
		if n.Turn == turn && n.IsTimeout() {
			line += " · " + NewsWords(n, l, t.Seats)
		}
	}
	return line
}

// ShrunkTurn is the edit of a finished turn's message to its log line
// (line): the line, no buttons, no picture, nobody notified; with line ""
// only the buttons go. The caller names the message (ID, Channel).
func ShrunkTurn(line string) *discordgo.MessageEdit {
	edit := &discordgo.MessageEdit{Components: &[]discordgo.MessageComponent{}}
	if line != "" {
		edit.Content = &line
		edit.Attachments = &[]*discordgo.MessageAttachment{}
		edit.AllowedMentions = &discordgo.MessageAllowedMentions{}
	}
	return edit
}

// Waiting are the user IDs of the players of t who must act now
// (computers left out).
func Waiting(t *session.Table) []string {
	var ids []string
	for _, p := range t.Game.Waiting() {
		if t.Seats[p].Computer == "" {
			ids = append(ids, t.Seats[p].UserID)
		}
	}
	return ids
}

// Reminder is the reminder of t's current action: it mentions the
// players who still have to decide (and notifies them) and says when the
// action's time runs out (t.Deadline, a Discord timestamp).
func Reminder(t *session.Table) *discordgo.MessageSend {
	l := i18n.For(t.Lang)
	users := Waiting(t)
	mentions := make([]string, len(users))
	for i, u := range users {
		mentions[i] = "<@" + u + ">"
	}
	return &discordgo.MessageSend{
		Content:         l.T(msg.TurnReminder, strings.Join(mentions, " "), fmt.Sprintf("<t:%d:R>", t.Deadline.Unix())),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: users},
	}
}

// MoveRefused is the private answer to a move the rules refused (err,
// game.MoveError worded by Explain) clicked by seat: the reason and, when
// it was clicked on the table's message (onTable), the player's own
// choices to click right there (no picture: the table shows their
// sheet).
func MoveRefused(t *session.Table, seat int, l i18n.Lang, err error, onTable bool) *discordgo.InteractionResponseData {
	text, choices := Explain(l, err), []discordgo.MessageComponent(nil)
	if onTable {
		choices = PersonalControls(t, seat, l, customid.ViewSheet)
	}
	if len(choices) > 0 {
		text += "\n" + l.T(msg.MoveChoices)
	}
	return &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: choices}
}

// MoveDone is the confirmation of a move: chosen is its label ("" a
// pass), was the label of the choice it replaced ("" none, RULES P4), and
// canChange says that the action is still open and simultaneous, so that
// the choice may still change.
func MoveDone(l i18n.Lang, chosen, was string, canChange bool) string {
	text := l.T(msg.OkChose, chosen)
	if chosen == "" {
		text = l.T(msg.OkPassed)
	}
	if was != "" {
		text = l.T(msg.OkChanged, was) + " " + text
	}
	if canChange {
		text += " " + l.T(msg.OkCanchange)
	}
	return text
}

// SheetAfterMove is a sheet view updated after its player's move (text,
// MoveDone): while the action is open (open) it keeps its buttons, the
// choice made in green, to change it (RULES P4); its picture goes.
func SheetAfterMove(t *session.Table, seat int, l i18n.Lang, text string, open bool) *discordgo.InteractionResponseData {
	comps := []discordgo.MessageComponent{}
	if open {
		comps = append(comps, PersonalControls(t, seat, l, customid.ViewSheet)...)
	}
	return &discordgo.InteractionResponseData{Content: text, Components: comps, Attachments: &[]*discordgo.MessageAttachment{}}
}

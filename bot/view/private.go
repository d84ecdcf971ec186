package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// Private is a private game's view (a solo game or the daily challenge,
// played in one ephemeral message): note first, what to do now, the
// picture of the sheet (png, drawn by the bot, as sheet.png, showing the
// dice and the cells the choices would cross), the choices as buttons;
// once it is over, the score, daily (the daily challenge's summary,
// Daily) and the review.
func Private(t *session.Table, l i18n.Lang, note string, daily []string, png []byte) *discordgo.InteractionResponseData {
	g := t.Game
	v := PrivateView(t.Private)
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	score := g.Sheet(0).Score()
	title := l.T(msg.SoloTitle)
	if t.Private == session.PrivateDaily {
		title = l.T(msg.DailyTitle, strconv.Itoa(t.Daily))
	}
	var comps []discordgo.MessageComponent
	if t.Stage == session.StagePlaying {
		lines = append(lines, l.T(msg.SoloHeader, title, g.Turn(), score))
		switch g.Phase() {
		case game.PhaseWhite:
			lines = append(lines, l.T(msg.SoloWhite, g.WhiteSum()))
		case game.PhaseColor:
			lines = append(lines, l.T(msg.SoloColor))
		}
		comps = PersonalControls(t, 0, l, v)
	} else {
		lines = append(lines, l.T(msg.SoloOver, title, score))
		lines = append(lines, daily...)
		btns := []discordgo.MessageComponent{ReviewButton(l, ActionID(t, v, "review", strconv.Itoa(t.GameNo)))}
		if t.Private == session.PrivateSolo {
			btns = append(btns, discordgo.Button{Label: l.T(msg.BtnSoloAgain), Style: discordgo.SuccessButton, CustomID: ActionID(t, v, "again", "")})
		}
		comps = []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
	}
	data := &discordgo.InteractionResponseData{
		Content: strings.Join(lines, "\n"), Flags: discordgo.MessageFlagsEphemeral, Components: comps,
	}
	data.Files, data.Attachments = NewPicture("sheet.png", png)
	return data
}

// Daily is what a finished daily challenge shows: the par, the player's
// place (rank) among the of players of the day here and the first lines
// of that ranking (top), their streak and a text to share that gives
// away no dice (DailyShare).
func Daily(l i18n.Lang, t *session.Table, rank, of int, top []string) []string {
	score := t.Game.Sheet(0).Score()
	lines := []string{l.T(msg.DailyPar, t.Par, score-t.Par)}
	if of > 0 {
		lines = append(lines, l.T(msg.DailyRank, rank, of))
		lines = append(lines, top...)
	}
	lines = append(lines, l.T(msg.DailyStreak, t.Streak))
	lines = append(lines, l.T(msg.DailyShare), "```\n"+DailyShare(l, t)+"\n```")
	return lines
}

// DailyShare is the spoiler-free text of a finished daily challenge:
// number, score, par, the crosses per row, locks, misthrows and streak,
// nothing of the dice.
func DailyShare(l i18n.Lang, t *session.Table) string {
	sh := t.Game.Sheet(0)
	var rows []string
	squares := map[game.Color]string{game.Red: "🟥", game.Yellow: "🟨", game.Green: "🟩", game.Blue: "🟦"}
	for _, c := range game.Colors {
		n := sh.Rows[c].Count()
		if sh.Rows[c].Locked() {
			rows = append(rows, fmt.Sprintf("%s%d🔒", squares[c], n))
		} else {
			rows = append(rows, fmt.Sprintf("%s%d", squares[c], n))
		}
	}
	line := l.T(msg.DailySharehead, strconv.Itoa(t.Daily), sh.Score(), t.Par)
	return line + "\n" + strings.Join(rows, " ") + " " + strings.Repeat("✖", sh.Misthrows) + "\n🔥 " + strconv.Itoa(t.Streak)
}

// PrivateView is the view of a private game of kind.
func PrivateView(kind string) customid.View {
	if kind == session.PrivateDaily {
		return customid.ViewDaily
	}
	return customid.ViewSolo
}

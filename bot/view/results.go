package view

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// EndHeadline says what ended a finished game (D9, C9), naming the players:
// "Ben took a fourth misthrow: the game is over.", "Red (Anna) and blue
// (Ben) locked: the game is over." (the rows locked for everybody, each with
// the players who crossed its lock), "Anna locked red and blue: the game is
// over." (card game: the player's own two locked rows).
func EndHeadline(l i18n.Lang, t *session.Table) string {
	g := t.Game
	var lines []string
	switch g.EndReason() {
	case game.EndLocks:
		if t.Variant.CardGame() {
			for p := range t.Seats {
				if g.Sheet(p).Locks() < 2 {
					continue
				}
				var rows []string
				for _, c := range game.Colors {
					if g.Sheet(p).Rows[c].Locked() {
						rows = append(rows, l.T(i18n.RowColor[c]))
					}
				}
				lines = append(lines, l.T(msg.OverLockscard, t.Seats[p].Name, ListAnd(l, rows)))
			}
			break
		}
		var rows []string
		for _, c := range game.Colors {
			if !g.Closed(c) {
				continue
			}
			var who []string
			for p := range t.Seats {
				if g.Sheet(p).Rows[c].Locked() {
					who = append(who, t.Seats[p].Name)
				}
			}
			row := l.T(i18n.RowColor[c])
			if len(who) > 0 {
				row += " (" + strings.Join(who, ", ") + ")"
			}
			rows = append(rows, row)
		}
		lines = append(lines, UpperFirst(l.T(msg.OverLocks, ListAnd(l, rows))))
	case game.EndMisthrows:
		for p := range t.Seats {
			if g.Sheet(p).Misthrows >= game.MaxMisthrows {
				lines = append(lines, l.T(msg.OverMisthrows, t.Seats[p].Name))
			}
		}
	}
	return strings.Join(lines, "\n")
}

// MatchStandings words a match of several games: the totals of the games
// finished so far and who leads or has won, or that no game was finished
// (a match ended with /qwixx end during its first game).
func MatchStandings(l i18n.Lang, t *session.Table, m *game.Match) string {
	if m.Played() == 0 {
		return l.T(msg.OverNomatch, m.Games) + "\n"
	}
	var sb strings.Builder
	fmt.Fprintln(&sb, l.T(msg.OverMatch, m.Played(), m.Games))
	tot := m.Totals()
	for p, s := range t.Seats {
		if p < len(tot) {
			fmt.Fprintln(&sb, l.T(msg.OverMatchrow, s.ShownName(), tot[p]))
		}
	}
	var lead []string
	for _, p := range m.Leaders() {
		if p < len(t.Seats) {
			lead = append(lead, t.Seats[p].Mention())
		}
	}
	if m.Done() {
		fmt.Fprintln(&sb, l.T(msg.OverMatchwin, ListAnd(l, lead)))
	} else {
		fmt.Fprintln(&sb, l.T(msg.OverMatchlead, ListAnd(l, lead)))
	}
	return sb.String()
}

// KeptResultsButtons are the buttons results keep once the table moved
// on (Play again, Next game or a new table took their place): 📄 Record
// and 🔍 Review, which read the kept record (custom_ids record and
// review, "" for none), as a message's components (none: empty).
func KeptResultsButtons(l i18n.Lang, record, review string) []discordgo.MessageComponent {
	var btns []discordgo.MessageComponent
	if record != "" {
		btns = append(btns, RecordButton(l, record))
	}
	if review != "" {
		btns = append(btns, ReviewButton(l, review))
	}
	if len(btns) == 0 {
		return []discordgo.MessageComponent{}
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
}

func RecordButton(l i18n.Lang, customID string) discordgo.Button {
	return discordgo.Button{Label: l.T(msg.BtnRecord), Style: discordgo.SecondaryButton, CustomID: customID, Emoji: &discordgo.ComponentEmoji{Name: "📄"}}
}

// ReviewButton is the 🔍 Review button.
func ReviewButton(l i18n.Lang, customID string) discordgo.Button {
	return discordgo.Button{Label: l.T(msg.BtnReview), Style: discordgo.SecondaryButton, CustomID: customID, Emoji: &discordgo.ComponentEmoji{Name: "🔍"}}
}

// Results is the results message of t's finished (or stopped) game, in l,
// headed by headline if any: the ranking (ties share, RULES P3), the match
// totals, and once the table is over the buttons Play again (or Next
// game), and with a history (kept) the game's 📄 Record and 🔍 Review.
// The bot adds the pictures (results.png, chart.png).
func Results(t *session.Table, l i18n.Lang, headline string, kept bool) *discordgo.InteractionResponseData {
	g := t.Game
	var sb strings.Builder
	if headline != "" {
		fmt.Fprintln(&sb, headline)
	}
	stopped := g.EndReason() == game.NotOver
	if stopped {
		fmt.Fprintln(&sb, l.T(msg.OverStopped))
	} else {
		fmt.Fprintln(&sb, l.T(msg.OverTitle))
		fmt.Fprintln(&sb, EndHeadline(l, t))
	}
	scores := g.Scores()
	win := game.Winners(scores)
	var wn []string
	for _, w := range win {
		wn = append(wn, t.Seats[w].Mention())
	}
	switch {
	case stopped:
		// Nobody wins a game that was not played to its end.
		fmt.Fprintln(&sb, l.T(msg.OverStanding))
	case len(scores) == 1:
		fmt.Fprintln(&sb, l.T(msg.OverSolo, wn[0], scores[0])) // nobody to beat
	case len(win) == 1:
		fmt.Fprintln(&sb, l.T(msg.OverWinner, wn[0], scores[win[0]]))
	default:
		fmt.Fprintln(&sb, l.T(msg.OverWinners, ListAnd(l, wn), scores[win[0]]))
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, c int) int { return scores[c] - scores[a] })
	rank := 0
	for i, p := range order {
		if i == 0 || scores[p] != scores[order[i-1]] {
			rank = i + 1 // equal totals share a rank (RULES P3)
		}
		fmt.Fprintln(&sb, l.T(msg.OverRank, rank, t.Seats[p].ShownName(), scores[p]))
	}
	if m := t.Match; m != nil && m.Games > 1 {
		fmt.Fprintln(&sb)
		fmt.Fprint(&sb, MatchStandings(l, t, m))
	}
	data := &discordgo.InteractionResponseData{Content: strings.TrimSpace(sb.String()), AllowedMentions: &discordgo.MessageAllowedMentions{}}
	label := l.T(msg.BtnAgain)
	if t.Match != nil && !t.Match.Done() {
		label = l.T(msg.BtnNext)
	}
	if t.Stage == session.StageOver {
		btns := []discordgo.MessageComponent{
			discordgo.Button{Label: label, Style: discordgo.SuccessButton, CustomID: ActionID(t, customid.ViewResults, "again", "")},
		}
		if kept && t.Game.Over() {
			btns = append(btns, RecordButton(l, ActionID(t, customid.ViewResults, "record", strconv.Itoa(t.GameNo))))
			// The review reads the kept record once the table moved on.
			btns = append(btns, ReviewButton(l, ActionID(t, customid.ViewResults, "review", strconv.Itoa(t.GameNo))))
		}
		data.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
	}
	return data
}

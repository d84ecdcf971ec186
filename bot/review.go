package bot

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/render"
)

// The game review (🔍 Review) tells a player, privately, which of their
// choices in a finished dice game cost expected points, graded by the
// hint's evaluator (ai.Review): in a solo game exactly, from the solo
// table; at a table of 2–5 as an estimate, which the answer says. A card
// game has no review (ai.ErrReviewDiceOnly explains why); its results
// carry no Review button.

// reviewLines is how many mistakes the review lists beyond the three
// costliest (Discord's 2,000 characters bound the rest).
const reviewLines = 12

// reviewClick answers the Review button of a table's results: the review
// of the clicker's own seat in that game, from the table while it still
// holds the game, else from the game's kept record.
func (b *Bot) reviewClick(r *request, a Action) {
	n, _ := strconv.Atoi(a.Arg)
	unlock := b.locks.Lock(r.tableKey())
	t, err := b.loadTable(r.ctx, r.tableKey())
	unlock()
	if err == nil && t != nil && t.ID == a.Table && t.GameNo == n && t.Game != nil && t.Game.Over() && session.SamePlace(t.GuildID, r.i.GuildID, r.i.ChannelID) {
		seat := t.SeatOf(r.userID)
		if seat < 0 {
			r.ephemeral(r.lang.T(msg.ReviewNotplayer))
			return
		}
		b.sendReview(r, t.Game, seat)
		return
	}
	h, ok := b.history()
	if !ok {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	gr, found, err := b.findRecord(r, h, a.Table+"-"+a.Arg)
	if err != nil && !found {
		r.fail(err)
		return
	}
	if !found || err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	seat := -1
	for i, u := range gr.Users {
		if u != "" && u == r.userID {
			seat = i
		}
	}
	if seat < 0 {
		r.ephemeral(r.lang.T(msg.ReviewNotplayer))
		return
	}
	rec, err := game.ParseRecord(gr.JSON)
	if err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	g, err := game.Replay(rec)
	if err != nil {
		r.ephemeral(r.lang.T(msg.ReviewGone))
		return
	}
	b.sendReview(r, g, seat)
}

// reviewPrivate answers the Review button of a finished private game.
func (b *Bot) reviewPrivate(r *request, a Action) {
	t, seat, ok := b.seatedTable(r, a.Table)
	if !ok {
		return
	}
	if t.Stage != StageOver || strconv.Itoa(t.GameNo) != a.Arg {
		r.ephemeral(r.lang.T(msg.ReviewNotover))
		return
	}
	b.sendReview(r, t.Game, seat)
}

// sendReview answers privately with the review of seat in the finished
// game g: the summary, the costliest choices and the other mistakes, and
// the score chart with the costliest marked.
func (b *Bot) sendReview(r *request, g *game.Game, seat int) {
	rv, err := ai.Review(g.Record(), seat)
	if errors.Is(err, ai.ErrReviewDiceOnly) {
		r.ephemeral(r.lang.T(msg.ReviewDice))
		return
	}
	if err != nil {
		r.fail(err)
		return
	}
	text := reviewText(r.lang, rv)
	data := &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral}
	moments := make([]render.Moment, len(rv.Costliest))
	for i, d := range rv.Costliest {
		moments[i] = render.Moment{Turn: d.Turn, Player: seat, N: i + 1}
	}
	if png, err := b.rd.ReviewChart(g.Public(), g.ScoreSeries(), moments, r.lang); err != nil {
		r.log.Error().Err(err).Msg("render review chart")
	} else {
		data.Files = []*discordgo.File{{Name: "review.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
	}
	r.log.Info().Int("seat", seat).Float64("lost", rv.Lost).Int("mistakes", len(rv.Mistakes)).Msg("game reviewed")
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
}

// reviewText words a review: the summary, the three costliest choices
// (numbered as on the chart), then the other mistakes in game order.
func reviewText(l Lang, rv ai.GameReview) string {
	lines := []string{l.T(msg.ReviewTitle)}
	lines = append(lines, l.T(msg.ReviewSummary, percent(rv.Accuracy/100), rv.Decisions, decimal(l, rv.Lost)))
	if rv.Estimate {
		lines = append(lines, l.T(msg.ReviewEstimate))
	} else {
		lines = append(lines, l.T(msg.ReviewExact))
	}
	if len(rv.Mistakes) == 0 {
		lines = append(lines, l.T(msg.ReviewPerfect))
		return strings.Join(lines, "\n")
	}
	lines = append(lines, "", l.T(msg.ReviewCostliest))
	top := map[[2]int]bool{}
	for i, d := range rv.Costliest {
		lines = append(lines, fmt.Sprintf("**%d.** %s", i+1, decisionLine(l, d)))
		top[[2]int{d.Turn, d.Action}] = true
	}
	var rest []string
	for _, d := range rv.Mistakes {
		if !top[[2]int{d.Turn, d.Action}] {
			rest = append(rest, "• "+decisionLine(l, d))
		}
	}
	if len(rest) > 0 {
		lines = append(lines, "", l.T(msg.ReviewOthers, len(rest)))
		if len(rest) > reviewLines {
			rest = append(rest[:reviewLines], l.T(msg.ReviewMore, len(rest)-reviewLines))
		}
		lines = append(lines, rest...)
	}
	return joinWithin(lines, 2000)
}

// decisionLine is one graded decision: the turn and action, the dice,
// the choice, the best choice and the expected points it cost.
func decisionLine(l Lang, d ai.Decision) string {
	return l.T(msg.ReviewLine, d.Turn, d.Action, diceWords(d.Dice), reviewMove(l, d.Dice, d.Chosen), reviewMove(l, d.Dice, d.Best), decimal(l, d.Lost))
}

// diceWords shows a turn's dice: the two white, then the coloured dice
// still in the game behind their row's square.
func diceWords(d [6]int) string {
	s := fmt.Sprintf("⚪%d ⚪%d", d[0], d[1])
	squares := [...]string{"🟥", "🟨", "🟩", "🟦"}
	for i, sq := range squares {
		if d[2+i] > 0 {
			s += fmt.Sprintf(" %s%d", sq, d[2+i])
		}
	}
	return s
}

// reviewMove names a dice move with the number it crosses: "red 7", or
// "pass".
func reviewMove(l Lang, d [6]int, m game.Move) string {
	switch m.Kind {
	case game.White:
		return l.T(msg.BtnRow, colorName(l, m.Color), d[0]+d[1])
	case game.Colored:
		if m.White >= 1 && m.White <= 2 {
			return l.T(msg.BtnRow, colorName(l, m.Color), d[m.White-1]+d[game.DieOf(m.Color)])
		}
	}
	return l.T(msg.BtnPass)
}

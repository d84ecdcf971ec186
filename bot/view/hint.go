package view

import (
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// HintText says the advice in l: "Cross red 5: keeps the red row open for
// 6 and 7 · about +2 points over passing".
func HintText(l i18n.Lang, a ai.Advice) string {
	var gain string
	if g := int(math.Round(a.Gain)); g >= 1 {
		gain = l.T(msg.HintGain, g)
	} else {
		gain = l.T(msg.HintClose)
	}
	m := a.Move
	switch {
	case m.Kind == game.Take:
		why := []string{l.T(msg.HintTakewhy)}
		if len(a.Fits) > 0 {
			why = FitWords(l, a.Fits)
		}
		return l.T(msg.HintTake, customid.JoinInts(m.TakeNumbers(), " + ")) + l.T(msg.WordColon) + strings.Join(append(why, GainOverWeakest(l, a.Gain)), " · ") + ChanceWords(l, a)
	case m.Kind == game.Play && len(a.Crosses) == 0:
		return l.T(msg.HintPlaynone, PlayedList(l, m.Cards[:m.N], m.Color, true)) + ChanceWords(l, a)
	}
	if len(a.Crosses) == 0 {
		why := l.T(msg.HintCostly)
		if a.Misthrow {
			why += " " + l.T(msg.HintMisthrow)
		}
		return l.T(msg.HintPass) + l.T(msg.WordColon) + why + ChanceWords(l, a)
	}
	head := l.T(msg.HintCross, CellName(l, a.Color, a.Crosses[len(a.Crosses)-1]))
	if m.Kind == game.Play {
		head = l.T(msg.HintPlay, PlayedList(l, m.Cards[:m.N], m.Color, true), customid.JoinInts(a.Crosses, ", "))
	}
	var why []string
	if a.Locks {
		why = append(why, l.T(msg.HintLocks, RowName(l, a.Color)))
	}
	if len(a.Skipped) > 0 {
		why = append(why, l.T(msg.HintSkips, customid.JoinInts(a.Skipped, ", ")))
	}
	if len(a.Open) > 0 {
		why = append(why, l.T(msg.HintOpen, RowName(l, a.Color), customid.JoinInts(a.Open, " "+l.T(msg.WordAnd)+" ")))
	}
	if m.Kind == game.Play {
		gain = GainOverWeakest(l, a.Gain)
	}
	why = append(why, gain)
	return head + l.T(msg.WordColon) + strings.Join(why, " · ") + ChanceWords(l, a)
}

// FitWords says where each taken number fits (Advice.Fits; a card's
// number is a label, not a count): "5 fits the red row", "9 fits the blue row, giving up 2 cells", "12 fits no open
// row".
func FitWords(l i18n.Lang, fits []ai.Fit) []string {
	out := make([]string, 0, len(fits))
	for _, f := range fits {
		switch {
		case f.Skips < 0:
			out = append(out, l.T(msg.HintFitsnone, strconv.Itoa(f.Number)))
		case f.Skips == 0:
			out = append(out, l.T(msg.HintFits, strconv.Itoa(f.Number), RowName(l, f.Color)))
		default:
			out = append(out, l.T(msg.HintFitskips, strconv.Itoa(f.Number), RowName(l, f.Color), f.Skips))
		}
	}
	return out
}

// ChanceWords adds, near the end of the game, what the choice does to the
// chance to win (" · win chance about 62 %"), and for a choice that ends
// the game its result when it is sure (a tie, or one the others' choices
// at the same moment decide, is a chance); nothing earlier, where the
// points say more.
func ChanceWords(l i18n.Lang, a ai.Advice) string {
	switch {
	case a.EndsGame && a.WinChance >= 0.99:
		return " · " + l.T(msg.HintEndswin)
	case a.EndsGame && a.WinChance <= 0.01:
		return " · " + l.T(msg.HintEndsloss)
	case a.NearEnd || a.EndsGame:
		return " · " + l.T(msg.HintWin, int(math.Round(100*a.WinChance)))
	}
	return ""
}

// GainOverWeakest words a card choice's advantage: "about +3 points over
// the weakest choice", or that the choices are about equal (never "+0").
func GainOverWeakest(l i18n.Lang, gain float64) string {
	if g := int(math.Round(gain)); g >= 1 {
		return l.T(msg.HintGainother, g)
	}
	return l.T(msg.HintEven)
}

// SheetHint is the private sheet view answering 💡 Hint: the advice at its
// head, the advised move's button green (its picture stays: an update
// without files keeps it).
func SheetHint(t *session.Table, seat int, l i18n.Lang, adv ai.Advice) *discordgo.InteractionResponseData {
	comps := PersonalControls(t, seat, l, customid.ViewSheet)
	MarkButton(comps, MoveAction(t, customid.ViewSheet, adv.Move))
	text := "💡 " + HintText(l, adv) + "\n" + l.T(msg.SheetMine, t.Game.Sheet(seat).Score())
	return &discordgo.InteractionResponseData{Content: text, Components: comps}
}

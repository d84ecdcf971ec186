package bot

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// hint answers a 💡 Hint click in a private sheet view: what the hard
// player would do in the clicker's seat and why, seeing only what the
// seat may know (RULES C10).
func (b *Bot) hint(r *request, a Action) {
	t, seat, adv, ok := b.advise(r, a, func(t *Table, seat int) bool { return t.Stage == StagePlaying && t.Game.MayAct(seat) })
	if !ok {
		return
	}
	// The sheet view clicked in is updated in place: the advice heads it
	// and the advised move's button turns green. Its picture stays.
	comps := personalControls(t, seat, r.lang, ViewSheet)
	markButton(comps, moveAction(t, ViewSheet, adv.Move))
	text := "💡 " + hintText(r.lang, adv) + "\n" + r.lang.T(msg.SheetMine, t.Game.Sheet(seat).Score())
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Content: text, Components: comps,
	}})
}

// hintText says the advice in l: "Cross red 5: keeps the red row open for
// 6 and 7 · about +2 points over passing".
func hintText(l Lang, a ai.Advice) string {
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
			why = fitWords(l, a.Fits)
		}
		return l.T(msg.HintTake, joinInts(m.TakeNumbers(), " + ")) + l.T(msg.WordColon) + strings.Join(append(why, gainOverWeakest(l, a.Gain)), " · ") + chanceWords(l, a)
	case m.Kind == game.Play && len(a.Crosses) == 0:
		return l.T(msg.HintPlaynone, playedList(l, m.Cards[:m.N], m.Color, true)) + chanceWords(l, a)
	}
	if len(a.Crosses) == 0 {
		why := l.T(msg.HintCostly)
		if a.Misthrow {
			why += " " + l.T(msg.HintMisthrow)
		}
		return l.T(msg.HintPass) + l.T(msg.WordColon) + why + chanceWords(l, a)
	}
	head := l.T(msg.HintCross, cellName(l, a.Color, a.Crosses[len(a.Crosses)-1]))
	if m.Kind == game.Play {
		head = l.T(msg.HintPlay, playedList(l, m.Cards[:m.N], m.Color, true), joinInts(a.Crosses, ", "))
	}
	var why []string
	if a.Locks {
		why = append(why, l.T(msg.HintLocks, rowName(l, a.Color)))
	}
	if len(a.Skipped) > 0 {
		why = append(why, l.T(msg.HintSkips, joinInts(a.Skipped, ", ")))
	}
	if len(a.Open) > 0 {
		why = append(why, l.T(msg.HintOpen, rowName(l, a.Color), joinInts(a.Open, " "+l.T(msg.WordAnd)+" ")))
	}
	if m.Kind == game.Play {
		gain = gainOverWeakest(l, a.Gain)
	}
	why = append(why, gain)
	return head + l.T(msg.WordColon) + strings.Join(why, " · ") + chanceWords(l, a)
}

// fitWords says where each taken number fits (Advice.Fits; a card's
// number is a label, not a count): "5 fits the red row", "9 fits the blue row, giving up 2 cells", "12 fits no open
// row".
func fitWords(l Lang, fits []ai.Fit) []string {
	out := make([]string, 0, len(fits))
	for _, f := range fits {
		switch {
		case f.Skips < 0:
			out = append(out, l.T(msg.HintFitsnone, strconv.Itoa(f.Number)))
		case f.Skips == 0:
			out = append(out, l.T(msg.HintFits, strconv.Itoa(f.Number), rowName(l, f.Color)))
		default:
			out = append(out, l.T(msg.HintFitskips, strconv.Itoa(f.Number), rowName(l, f.Color), f.Skips))
		}
	}
	return out
}

// chanceWords adds, near the end of the game, what the choice does to the
// chance to win (" · win chance about 62 %"), and for a choice that ends
// the game its result when it is sure (a tie, or one the others' choices
// at the same moment decide, is a chance); nothing earlier, where the
// points say more.
func chanceWords(l Lang, a ai.Advice) string {
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

// gainOverWeakest words a card choice's advantage: "about +3 points over
// the weakest choice", or that the choices are about equal (never "+0").
func gainOverWeakest(l Lang, gain float64) string {
	if g := int(math.Round(gain)); g >= 1 {
		return l.T(msg.HintGainother, g)
	}
	return l.T(msg.HintEven)
}

// hintHand answers a 💡 Hint click in a private hand view (card games) by
// updating that view, the advice at its head, connected to its controls:
// a hinted take's button turns green, a hinted play is preselected in the
// builder (cards, colour, crosses), ready to confirm.
func (b *Bot) hintHand(r *request, a Action) {
	t, seat, adv, ok := b.advise(r, a, handActs)
	if !ok {
		return
	}
	m, sel := adv.Move, playSel{}
	if m.Kind == game.Play {
		sel = playSel{cards: slices.Clone(m.Cards[:m.N]), color: m.Color, hasColor: true, cross: m.CrossNumbers()}
	}
	b.answerHandMarked(r, t, seat, sel, "💡 "+hintText(r.lang, adv), true, moveAction(t, ViewHand, m))
}

// advise finds the advice for a hint click, answering the clicker when
// there is none to give: hints off, an old button, or nothing to decide
// in the view (acts).
func (b *Bot) advise(r *request, a Action, acts func(*Table, int) bool) (*Table, int, ai.Advice, bool) {
	t, seat, ok := b.seatedTable(r, a.Table)
	switch {
	case !ok:
		return nil, 0, ai.Advice{}, false
	case !hintsOn(t):
		r.ephemeral(r.lang.T(msg.HintOff))
	case a.Stamp != t.Stamp():
		r.ephemeral(r.lang.T(msg.ErrStale))
	case !acts(t, seat):
		r.ephemeral(r.lang.T(msg.HintNothing))
	default:
		return t, seat, ai.Hint(t.Game.Private(seat), t.Game.LegalMoves(seat)), true
	}
	return nil, 0, ai.Advice{}, false
}

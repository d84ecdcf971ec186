package view

import (
	"fmt"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// reviewLines is how many mistakes the review lists beyond the three
// costliest (Discord's 2,000 characters bound the rest).
const reviewLines = 12

// reviewClass names a decision's class.
var reviewClass = [...]msg.Key{
	ai.ClassBest: msg.ReviewClassBest, ai.ClassGood: msg.ReviewClassGood, ai.ClassInaccuracy: msg.ReviewClassInaccuracy,
	ai.ClassMistake: msg.ReviewClassMistake, ai.ClassBlunder: msg.ReviewClassBlunder,
}

// ReviewText words a review: the summary with the count per class, how
// it was graded, the three costliest choices (numbered as on the chart),
// then the other mistakes in game order.
func ReviewText(l i18n.Lang, rv ai.GameReview) string {
	cards := rv.Variant.CardGame()
	lines := []string{l.T(msg.ReviewTitle)}
	lost := Decimal(l, rv.Lost)
	if cards {
		lost += " ± " + Decimal(l, rv.LostSE)
	}
	lines = append(lines, l.T(msg.ReviewSummary, Percent(rv.Accuracy/100), rv.Decisions, lost))
	lines = append(lines, l.T(msg.ReviewClasses, rv.Classes[ai.ClassBest], rv.Classes[ai.ClassGood], rv.Classes[ai.ClassInaccuracy], rv.Classes[ai.ClassMistake], rv.Classes[ai.ClassBlunder]))
	switch {
	case cards:
		lines = append(lines, l.T(msg.ReviewCards, rv.Deals))
	case rv.Estimate:
		lines = append(lines, l.T(msg.ReviewEstimate))
	default:
		lines = append(lines, l.T(msg.ReviewExact))
	}
	lines = append(lines, l.T(msg.ReviewScale))
	if len(rv.Mistakes) == 0 {
		if cards {
			lines = append(lines, l.T(msg.ReviewNomistake))
		} else {
			lines = append(lines, l.T(msg.ReviewPerfect))
		}
		return JoinWithin(lines, 2000)
	}
	lines = append(lines, "", l.T(msg.ReviewCostliest))
	top := map[[2]int]bool{}
	for i, d := range rv.Costliest {
		lines = append(lines, fmt.Sprintf("**%d.** %s", i+1, DecisionLine(l, d, cards)))
		top[[2]int{d.Turn, d.Action}] = true
	}
	var rest []string
	for _, d := range rv.Mistakes {
		if !top[[2]int{d.Turn, d.Action}] {
			rest = append(rest, "• "+DecisionLine(l, d, cards))
		}
	}
	if len(rest) > 0 {
		lines = append(lines, "", l.T(msg.ReviewOthers, len(rest)))
		if len(rest) > reviewLines {
			rest = append(rest[:reviewLines], l.T(msg.ReviewMore, len(rest)-reviewLines))
		}
		lines = append(lines, rest...)
	}
	return JoinWithin(lines, 2000)
}

// DecisionLine is one graded decision: the turn and action, the dice or
// the number for everyone, the choice, the best choice, the expected
// points it cost (in a card game with its standard error) and its class.
func DecisionLine(l i18n.Lang, d ai.Decision, cards bool) string {
	class := l.T(reviewClass[d.Class])
	if cards {
		at := l.T(msg.ReviewAt, d.Turn, d.Action)
		if d.Number > 0 {
			at += " · " + l.T(msg.ReviewNumber, d.Number)
		}
		return l.T(msg.ReviewCardline, at, CardMoveWords(l, d.Number, d.Chosen), CardMoveWords(l, d.Number, d.Best), Decimal(l, d.Lost), Decimal(l, d.SE), class)
	}
	return l.T(msg.ReviewLine, d.Turn, d.Action, DiceWords(d.Dice), ReviewMove(l, d.Dice, d.Chosen), ReviewMove(l, d.Dice, d.Best), Decimal(l, d.Lost)) + " · " + class
}

// CardMoveWords names a card game's move (number is the number for
// everyone of action 2): "take 5 + 9", "Red 7", "play Red 4, Red 6,
// cross 4, 6", "pass".
func CardMoveWords(l i18n.Lang, number int, m game.Move) string {
	switch m.Kind {
	case game.Take:
		return l.T(msg.ReviewTake, customid.JoinInts(m.TakeNumbers(), " + "))
	case game.Number:
		return l.T(msg.BtnRow, ColorName(l, m.Color), number)
	case game.Play:
		var crossed []int
		for n := 2; n <= 12; n++ {
			if m.Cross&(1<<n) != 0 {
				crossed = append(crossed, n)
			}
		}
		played := PlayedList(l, m.Cards[:m.N], m.Color, true)
		if len(crossed) == 0 {
			return l.T(msg.ReviewPlaynone, played)
		}
		return l.T(msg.ReviewPlay, played, customid.JoinInts(crossed, ", "))
	}
	return l.T(msg.BtnPass)
}

// DiceWords shows a turn's dice: the two white, then the coloured dice
// still in the game behind their row's square.
func DiceWords(d [6]int) string {
	s := fmt.Sprintf("⚪%d ⚪%d", d[0], d[1])
	squares := [...]string{"🟥", "🟨", "🟩", "🟦"}
	for i, sq := range squares {
		if d[2+i] > 0 {
			s += fmt.Sprintf(" %s%d", sq, d[2+i])
		}
	}
	return s
}

// ReviewMove names a dice move with the number it crosses: "red 7", or
// "pass".
func ReviewMove(l i18n.Lang, d [6]int, m game.Move) string {
	switch m.Kind {
	case game.White:
		return l.T(msg.BtnRow, ColorName(l, m.Color), d[0]+d[1])
	case game.Colored:
		if m.White >= 1 && m.White <= 2 {
			return l.T(msg.BtnRow, ColorName(l, m.Color), d[m.White-1]+d[game.DieOf(m.Color)])
		}
	}
	return l.T(msg.BtnPass)
}

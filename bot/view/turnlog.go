package view

import (
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/game"
)

// TurnLogLine words one turn as a single line for the channel's log, in the
// table's language: "Turn 7 · Ben rolled 3+3 · Ben – · Chloé ✕ blue 6 ·
// Anna ✕ red 6 · Ben ✕ yellow 9 (3+6)", or for the card game "Turn 4 · Ben
// took 5 + 9 · number 7: Ben – · Anna ✕ green 7 · Ben played Red 4, Red 5 ✕
// 4, 5". The decisions come in the summary's order (each action by seat from
// the active player); each action's locks follow it, then the active
// player's misthrow and the end of the game. It reads only the summary and
// the seat names, so the line is a pure function of the stored game and
// holds nothing hidden (RULES C10). An unfinished turn ends with "…".
func TurnLogLine(l i18n.Lang, t game.TurnSummary, names []string) string {
	name := func(p int) string {
		if p >= 0 && p < len(names) {
			return names[p]
		}
		return "#" + strconv.Itoa(p+1)
	}
	parts := []string{l.T(msg.LogTurn, t.Turn)}
	if t.Variant == game.Dice {
		parts = append(parts, l.T(msg.LogRolled, name(t.Active), t.Dice[game.White1], t.Dice[game.White2]))
	}
	numbered := false
	for i, d := range t.Decisions {
		var s string
		who := name(d.Player)
		switch d.Kind {
		case game.Pass:
			s = l.T(msg.LogPass, who)
		case game.White:
			s = l.T(msg.LogCross, who, logColor(l, d.Color), first(d.Crossed))
		case game.Colored:
			s = l.T(msg.LogColored, who, logColor(l, d.Color), first(d.Crossed), d.Sum[0], d.Sum[1])
		case game.Number:
			s = l.T(msg.LogCross, who, logColor(l, d.Color), first(d.Crossed))
		case game.Take:
			s = l.T(msg.LogTook, who, customid.JoinInts(d.Took, " + "))
		case game.Play:
			cards := playedCards(l, d.Cards)
			if len(d.Crossed) == 0 {
				s = l.T(msg.LogPlayednone, who, cards)
			} else {
				s = l.T(msg.LogPlayed, who, cards, customid.JoinInts(d.Crossed, ", "))
			}
		default:
			continue
		}
		if t.Number > 0 && d.Action == 2 && !numbered && (d.Kind == game.Pass || d.Kind == game.Number) {
			s = l.T(msg.LogNumber, t.Number, s)
			numbered = true
		}
		parts = append(parts, s)
		if i+1 == len(t.Decisions) || t.Decisions[i+1].Action != d.Action {
			for _, lk := range t.Locks {
				if lk.Action == d.Action {
					parts = append(parts, l.T(msg.LogLock, name(lk.Player), RowName(l, lk.Color)))
				}
			}
		}
	}
	if t.Misthrow > 0 {
		parts = append(parts, l.T(msg.LogMisthrow, name(t.Active), t.Misthrow))
	}
	who := make([]string, len(t.EndedBy))
	for i, p := range t.EndedBy {
		who[i] = name(p)
	}
	switch {
	case t.End == game.EndMisthrows:
		parts = append(parts, l.T(msg.LogEndMisthrows, strings.Join(who, ", ")))
	case t.End == game.EndLocks && t.Variant == game.Dice:
		parts = append(parts, l.T(msg.LogEndLocks))
	case t.End == game.EndLocks:
		parts = append(parts, l.T(msg.LogEndLockscard, strings.Join(who, ", ")))
	}
	if !t.Finished {
		parts = append(parts, l.T(msg.LogRunning))
	}
	return strings.Join(parts, " · ")
}

// logColor is a colour as the log names a crossed number's row.
func logColor(l i18n.Lang, c game.Color) string { return l.T(i18n.ColorWord[c]) }

// playedCards names the cards of a play, public once played (RULES C10):
// "Red 4, Red 5", "Joker 7 → Red".
func playedCards(l i18n.Lang, cs []game.PlayedCard) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		if c.Joker {
			out[i] = l.T(msg.CardJoker, c.Number) + " → " + l.T(i18n.CardColor[c.Color])
		} else {
			out[i] = l.T(msg.Card, l.T(i18n.CardColor[c.Color]), c.Number)
		}
	}
	return strings.Join(out, ", ")
}

func first(ns []int) int {
	if len(ns) == 0 {
		return 0
	}
	return ns[0]
}

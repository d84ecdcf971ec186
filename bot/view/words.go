package view

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// ColorWord is a colour as a word in a sentence: "red", "Rot", "rouge".
func ColorWord(l i18n.Lang, c game.Color) string { return l.T(i18n.ColorWord[c]) }

// RowName is a row as subject or object: "the red row", "die rote Reihe".
func RowName(l i18n.Lang, c game.Color) string { return l.T(i18n.Row[c]) }

// RowIn is a row after "in": "in the red row", "in der roten Reihe".
func RowIn(l i18n.Lang, c game.Color) string { return l.T(i18n.RowIn[c]) }

// CellName is a number of a row: "red 5", "die rote 5", "le 5 rouge".
func CellName(l i18n.Lang, c game.Color, n int) string {
	return l.T(msg.Cell, l.T(i18n.Adj[c]), n)
}

// ListAnd joins words as a list: "a", "a and b", "a, b and c".
func ListAnd(l i18n.Lang, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + l.T(msg.WordAnd) + " " + words[len(words)-1]
}

// UpperFirst writes a text's first letter in upper case, for a phrase that
// starts a sentence.
func UpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// FormatDuration words a duration as people write it, rounded to the
// second: one unit in words ("10 minutes", "10 Minuten", "1 heure"),
// several with symbols ("1 h 30 min", "1 Std. 30 Min.").
func FormatDuration(l i18n.Lang, d time.Duration) string {
	secs := int((d + time.Second/2) / time.Second)
	if secs < 0 {
		secs = 0
	}
	h, m, s := secs/3600, secs/60%60, secs%60
	var parts []string
	if h > 0 {
		parts = append(parts, l.T(msg.DurH, h))
	}
	if m > 0 {
		parts = append(parts, l.T(msg.DurMin, m))
	}
	if s > 0 {
		parts = append(parts, l.T(msg.DurS, s))
	}
	switch {
	case len(parts) > 1:
		return strings.Join(parts, " ")
	case h > 0:
		return l.T(msg.DurHours, h)
	case m > 0:
		return l.T(msg.DurMinutes, m)
	}
	return l.T(msg.DurSeconds, s)
}

// CardName names a card for its owner: "Red 5", "Joker 9" ("5 rouge" in
// French).
func CardName(l i18n.Lang, c game.Card) string {
	if c.Joker() {
		return l.T(msg.CardJoker, c.Number())
	}
	return l.T(msg.Card, l.T(i18n.CardColor[c.Color()]), c.Number())
}

// CardList names a hand's cards: "Red 5, Joker 9".
func CardList(l i18n.Lang, cs []game.Card) string { return PlayedList(l, cs, 0, false) }

// PlayedList names the cards of a play; jokers show the colour they count
// as when it is named: "Red 4, Joker 7 → Red".
func PlayedList(l i18n.Lang, cards []game.Card, as game.Color, named bool) string {
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = CardName(l, c)
		if c.Joker() && named {
			names[i] += " → " + l.T(i18n.CardColor[as])
		}
	}
	return strings.Join(names, ", ")
}

// NewsWords puts the news into words in l, naming the seats' players.
func NewsWords(n session.News, l i18n.Lang, seats []session.Seat) string {
	name := "#" + strconv.Itoa(n.Seat+1)
	if n.Seat >= 0 && n.Seat < len(seats) {
		name = seats[n.Seat].Name
	}
	switch n.Event {
	case session.NewsLock:
		return l.T(msg.EventLock, name, RowName(l, n.Color))
	case session.NewsMisthrow:
		return l.T(msg.EventMisthrow, name, n.N)
	case session.NewsReshuffle:
		return l.T(msg.EventReshuffle, n.N)
	case session.NewsPlayed:
		cards := make([]game.Card, 0, len(n.Cards))
		for _, s := range n.Cards {
			if c, err := game.ParseCard(s); err == nil {
				cards = append(cards, c)
			}
		}
		return l.T(msg.TurnPlayed, name, PlayedList(l, cards, n.Color, true))
	case session.NewsLeft:
		return l.T(msg.EventLeft, name)
	case session.NewsLeftBot:
		return l.T(msg.EventLeftComputer, name)
	case session.NewsTimeout:
		return l.T(msg.TurnTimeout, name)
	case session.NewsTimeoutTake:
		return l.T(msg.TurnTimeoutTake, name, customid.JoinInts(n.Nums, " + "))
	case session.NewsTimeoutPlay:
		return l.T(msg.TurnTimeoutPlay, name)
	}
	return n.Text
}

func TakeLabel(l i18n.Lang, nums []int) string {
	return l.T(msg.BtnTake, customid.JoinInts(nums, " + "))
}

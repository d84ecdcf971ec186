package view

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/qwixxbot/qwixxbot/game"
)

// ColorName is a row's colour in the language.
func ColorName(l i18n.Lang, c game.Color) string { return l.T(i18n.Color[c]) }

// Explain says in the user's language why a move was refused.
func Explain(l i18n.Lang, err error) string {
	var e *game.MoveError
	if !errors.As(err, &e) {
		return l.T(msg.ErrInternal)
	}
	switch e.Reason {
	case game.ReasonGameOver:
		return l.T(msg.WhyOver)
	case game.ReasonNoSuchPlayer:
		return l.T(msg.WhyPlayer)
	case game.ReasonNotYourTurn:
		return l.T(msg.WhyTurn)
	case game.ReasonAlreadyDecided:
		return l.T(msg.WhyDecided)
	case game.ReasonNoSuchNumber:
		return l.T(msg.WhyNumber, RowIn(l, e.Color), e.Number)
	case game.ReasonRowClosed:
		return UpperFirst(l.T(msg.WhyClosed, RowName(l, e.Color)))
	case game.ReasonDieGone:
		return l.T(msg.WhyDiegone, l.T(i18n.Adj[e.Color]))
	case game.ReasonRowLockedOwn:
		return l.T(msg.WhyOwnlock, RowName(l, e.Color))
	case game.ReasonAlreadyCrossed:
		return UpperFirst(l.T(msg.WhyCrossed, CellName(l, e.Color, e.Number)))
	case game.ReasonLeftOfLast:
		return UpperFirst(l.T(msg.WhyLeft, CellName(l, e.Color, e.Number), RowIn(l, e.Color), e.Last))
	case game.ReasonNeedFive:
		return l.T(msg.WhyFive, CellName(l, e.Color, e.Number), RowIn(l, e.Color), e.Count)
	case game.ReasonBadWhiteDie:
		return l.T(msg.WhyWhite)
	case game.ReasonTakeCount:
		return l.T(msg.WhyTake, e.Count, e.Got)
	case game.ReasonNotInDisplay:
		return l.T(msg.WhyDisplay, e.Number)
	case game.ReasonPlayCount:
		return l.T(msg.WhyCount, e.Got)
	case game.ReasonNotInHand:
		return l.T(msg.WhyHand)
	case game.ReasonDuplicateCard:
		return l.T(msg.WhyTwice)
	case game.ReasonMixedColors:
		return l.T(msg.WhyMixed)
	case game.ReasonJokerColor:
		return l.T(msg.WhyJokercol, ColorWord(l, e.Color))
	case game.ReasonCrossNotPlayed:
		return l.T(msg.WhyNotplayed, e.Number)
	case game.ReasonGap:
		left := make([]string, len(e.Left))
		for i, n := range e.Left {
			left[i] = fmt.Sprint(n)
		}
		return l.T(msg.WhyGap, strings.Join(left, " "+l.T(msg.WordAnd)+" "))
	case game.ReasonBadColor:
		return l.T(msg.WhyColor)
	}
	return l.T(msg.WhyAction)
}

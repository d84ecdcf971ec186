package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qwixxbot/qwixxbot/game"
)

// colorName is a row's colour in the language.
func colorName(l Lang, c game.Color) string { return l.T("color." + c.String()) }

// explain says in the user's language why a move was refused.
func explain(l Lang, err error) string {
	var e *game.MoveError
	if !errors.As(err, &e) {
		return l.T("err.internal")
	}
	switch e.Reason {
	case game.ReasonGameOver:
		return l.T("why.over")
	case game.ReasonNoSuchPlayer:
		return l.T("why.player")
	case game.ReasonNotYourTurn:
		return l.T("why.turn")
	case game.ReasonAlreadyDecided:
		return l.T("why.decided")
	case game.ReasonNoSuchNumber:
		return l.T("why.number", rowIn(l, e.Color), e.Number)
	case game.ReasonRowClosed:
		return upperFirst(l.T("why.closed", rowName(l, e.Color)))
	case game.ReasonDieGone:
		return l.T("why.diegone", l.T("adj."+e.Color.String()))
	case game.ReasonRowLockedOwn:
		return l.T("why.ownlock", rowName(l, e.Color))
	case game.ReasonAlreadyCrossed:
		return upperFirst(l.T("why.crossed", cellName(l, e.Color, e.Number)))
	case game.ReasonLeftOfLast:
		return upperFirst(l.T("why.left", cellName(l, e.Color, e.Number), rowIn(l, e.Color), e.Last))
	case game.ReasonNeedFive:
		return l.T("why.five", cellName(l, e.Color, e.Number), rowIn(l, e.Color), e.Count)
	case game.ReasonBadWhiteDie:
		return l.T("why.white")
	case game.ReasonTakeCount:
		return l.T("why.take", e.Count, e.Got)
	case game.ReasonNotInDisplay:
		return l.T("why.display", e.Number)
	case game.ReasonPlayCount:
		return l.T("why.count", e.Got)
	case game.ReasonNotInHand:
		return l.T("why.hand")
	case game.ReasonDuplicateCard:
		return l.T("why.twice")
	case game.ReasonMixedColors:
		return l.T("why.mixed")
	case game.ReasonJokerColor:
		return l.T("why.jokercol", colorWord(l, e.Color))
	case game.ReasonCrossNotPlayed:
		return l.T("why.notplayed", e.Number)
	case game.ReasonGap:
		left := make([]string, len(e.Left))
		for i, n := range e.Left {
			left[i] = fmt.Sprint(n)
		}
		return l.T("why.gap", strings.Join(left, " "+l.T("word.and")+" "))
	case game.ReasonBadColor:
		return l.T("why.color")
	}
	return l.T("why.action")
}

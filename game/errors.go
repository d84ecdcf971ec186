package game

import (
	"fmt"
	"strconv"
	"strings"
)

// Reason says why a move was refused. The bot translates reasons into the
// player's language from the fields of MoveError; Error gives English.
type Reason uint8

// Reasons a move can be refused.
const (
	ReasonGameOver       Reason = iota + 1 // the game has ended
	ReasonNoSuchPlayer                     // the player is not at the table
	ReasonNotYourTurn                      // only the active player may act now
	ReasonAlreadyDecided                   // the player already chose in this action
	ReasonWrongAction                      // that kind of move does not belong in this action
	ReasonBadColor                         // not one of the four colours
	ReasonNoSuchNumber                     // the number is not on the row
	ReasonRowClosed                        // dice game: the row is locked for everybody (D7)
	ReasonDieGone                          // dice game: the die left the game (D7, D8)
	ReasonRowLockedOwn                     // the player locked this row already (C8)
	ReasonAlreadyCrossed                   // the number is crossed already
	ReasonLeftOfLast                       // left of the last cross in the row (S2)
	ReasonNeedFive                         // rightmost number with fewer than 5 crosses (S3)
	ReasonBadWhiteDie                      // dice game: white die must be 1 or 2
	ReasonTakeCount                        // card game: wrong number of cards taken (C4)
	ReasonNotInDisplay                     // card game: no display card with that number
	ReasonPlayCount                        // card game: play 1 to 3 cards (C6)
	ReasonNotInHand                        // card game: the card is not in the hand
	ReasonDuplicateCard                    // card game: the same card twice
	ReasonMixedColors                      // card game: cards of different colours (C6)
	ReasonJokerColor                       // card game: named colour does not match
	ReasonCrossNotPlayed                   // card game: crossing a number not played
	ReasonGap                              // card game: more than one number left out (C6)
)

// MoveError is the typed error for a refused move. Applying a move that
// fails leaves the game unchanged.
type MoveError struct {
	Reason Reason
	Player int   // seat of the player who tried, when known
	Color  Color // the row concerned, when relevant
	Number int   // the number concerned, when relevant
	Last   int   // ReasonLeftOfLast: the last crossed number of the row
	Count  int   // ReasonNeedFive: crosses in the row; ReasonTakeCount/ReasonPlayCount: cards wanted
	Got    int   // ReasonTakeCount/ReasonPlayCount: cards given
	Card   Card  // ReasonNotInHand, ReasonDuplicateCard: the card (private: never shown publicly)
	Left   []int // ReasonGap: the numbers that would be left out
}

// Error says in plain English why the move was refused.
func (e *MoveError) Error() string {
	c := e.Color.String()
	switch e.Reason {
	case ReasonGameOver:
		return "the game is over"
	case ReasonNoSuchPlayer:
		return "you are not playing in this game"
	case ReasonNotYourTurn:
		return "it is not your turn: only the active player may do that now"
	case ReasonAlreadyDecided:
		return "you have already decided in this action"
	case ReasonWrongAction:
		return "that move does not belong to the current action"
	case ReasonBadColor:
		return "there is no such colour"
	case ReasonNoSuchNumber:
		return fmt.Sprintf("%d is not on the %s row", e.Number, c)
	case ReasonRowClosed:
		return fmt.Sprintf("the %s row is locked for everybody", c)
	case ReasonDieGone:
		return fmt.Sprintf("the %s die has left the game", c)
	case ReasonRowLockedOwn:
		return fmt.Sprintf("you have locked your %s row", c)
	case ReasonAlreadyCrossed:
		return fmt.Sprintf("%s %d is already crossed", c, e.Number)
	case ReasonLeftOfLast:
		return fmt.Sprintf("%s %d is left of your last %s cross (%d)", c, e.Number, c, e.Last)
	case ReasonNeedFive:
		return fmt.Sprintf("%s %d needs at least 5 crosses in the %s row first (you have %d)", c, e.Number, c, e.Count)
	case ReasonBadWhiteDie:
		return "choose white die 1 or 2"
	case ReasonTakeCount:
		return fmt.Sprintf("take %d card(s) so that you hold 5 (you chose %d)", e.Count, e.Got)
	case ReasonNotInDisplay:
		return fmt.Sprintf("there is no %d in the display", e.Number)
	case ReasonPlayCount:
		return fmt.Sprintf("play 1 to 3 cards (you chose %d)", e.Got)
	case ReasonNotInHand:
		return fmt.Sprintf("%s is not in your hand", e.Card)
	case ReasonDuplicateCard:
		return fmt.Sprintf("%s is chosen twice", e.Card)
	case ReasonMixedColors:
		return "cards played together must be of one colour"
	case ReasonJokerColor:
		return fmt.Sprintf("these cards cannot all count as %s", c)
	case ReasonCrossNotPlayed:
		return fmt.Sprintf("%d is not among the cards you played", e.Number)
	case ReasonGap:
		left := make([]string, len(e.Left))
		for i, n := range e.Left {
			left[i] = strconv.Itoa(n)
		}
		return fmt.Sprintf("between your first and last cross you may leave out at most one number (%s would leave out %s)", c, strings.Join(left, " and "))
	}
	return "illegal move"
}

// err returns the error, or nil when Reason is zero (allowed). Only an
// error is copied to the heap: a legal move (the play-outs' case) costs no
// allocation.
func (e MoveError) err() error {
	if e.Reason == 0 {
		return nil
	}
	out := e
	return &out
}

// Is lets errors.Is match a MoveError by reason:
// errors.Is(err, &MoveError{Reason: ReasonNeedFive}).
func (e *MoveError) Is(target error) bool {
	t, ok := target.(*MoveError)
	return ok && t.Reason == e.Reason
}

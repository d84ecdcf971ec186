package session

import (
	"errors"
	"strconv"

	"github.com/qwixxbot/qwixxbot/game"
)

// The click intents: what every button of a table checks before it does
// anything, apart from Discord. Each takes the table as loaded (nil: the
// channel has none), the click (what the custom_id names, and who
// clicked) and answers with the seat it acts for or why the click is
// refused. The refusals are sentinel errors (errors.Is); the adapter says
// each in the clicker's words, and a refused click changes nothing.

// Click is a click on a component of a table: the table and the state
// (stamp) its custom_id names, and the user who clicked.
type Click struct {
	Table string // the table ID in the custom_id
	Stamp int    // the table's stamp when the component was made
	User  string // the clicker's user ID
}

// What a click intent can be refused for, besides the lobby's and the
// game's refusals above (ErrNoGame, ErrNotPlaying, ...).
var (
	// ErrStale: the component belongs to another table, or to a state of
	// this one that has passed (the table moved on since it was shown).
	ErrStale = errors.New("session: outdated component")
	// ErrGameOver: a move clicked after the game ended.
	ErrGameOver = errors.New("session: the game is over")
	// ErrPrivateGone: a private game's view whose game is no more (a new
	// one replaced it, or the player was forgotten).
	ErrPrivateGone = errors.New("session: the private game is gone")
	// ErrPrivateStale: an outdated view of the player's own private game
	// (a second click before the first one's answer came); the adapter
	// shows the game as it is now.
	ErrPrivateStale = errors.New("session: an outdated view of the private game")
	// ErrNotNow: the clicker is seated but has nothing of this kind to
	// decide now (the play builder outside the clicker's action 3, C6).
	ErrNotNow = errors.New("session: not the clicker's action now")
	// ErrHintsOff: a 💡 Hint click at a table whose host turned hints off.
	ErrHintsOff = errors.New("session: hints are off at this table")
	// ErrNothingToHint: a 💡 Hint click with nothing to decide in the view.
	ErrNothingToHint = errors.New("session: nothing to decide")
	// ErrReviewNotOver: a private game's Review before that game is over
	// (or of another game of the table).
	ErrReviewNotOver = errors.New("session: the game to review is not over")
	// ErrNotInGame: a Review of a finished game by somebody who did not
	// play in it.
	ErrNotInGame = errors.New("session: not a player of that game")
)

// current checks that the click names t, its current state.
func (c Click) current(t *Table) bool { return t != nil && t.ID == c.Table && c.Stamp == t.Stamp() }

// Move is the intent of a move clicked in a running game (on the table, a
// sheet or hand view, or a private game's view: private): it answers with
// the clicker's seat, or why the click cannot be a move now. For a
// private game a missing game is ErrPrivateGone and an outdated view
// ErrPrivateStale; elsewhere both are ErrStale. A move at a game that
// ended is ErrGameOver (RULES D9), one by somebody not seated
// ErrNotPlaying. Whether the move itself is legal is the game's to say
// (Table.Apply).
func (c Click) Move(t *Table, private bool) (int, error) {
	if t == nil || t.ID != c.Table || t.Game == nil {
		if private {
			return -1, ErrPrivateGone
		}
		return -1, ErrStale
	}
	if private && c.Stamp != t.Stamp() {
		return -1, ErrPrivateStale
	}
	if t.Stage == StageOver {
		return -1, ErrGameOver
	}
	if c.Stamp != t.Stamp() {
		return -1, ErrStale
	}
	seat := t.SeatOf(c.User)
	if seat < 0 {
		return -1, ErrNotPlaying
	}
	return seat, nil
}

// Lobby is the intent of a click on a lobby's buttons: the lobby must be
// open and shown as it is (ErrStale). What the click does is the lobby's
// own check (Join, MayStart, ...).
func (c Click) Lobby(t *Table) error {
	if !c.current(t) || t.Stage != StageLobby {
		return ErrStale
	}
	return nil
}

// Again is the intent of a click on Play again (or Next game) under a
// finished game's results: the results must be of the table's last game,
// as it is (ErrStale). Who may play again is PlayAgain's to say.
func (c Click) Again(t *Table) error {
	if !c.current(t) || t.Stage != StageOver {
		return ErrStale
	}
	return nil
}

// Seated is the intent of opening a private view of a table's game (the
// sheet, the hand, a hint, a private game's review): the clicker's seat.
// A component (c.Table not empty) must belong to the table (ErrStale);
// a command names none. No game is ErrNoGame; somebody not seated
// ErrNotPlaying. The stamp is not checked: a view shows the game as it is.
func (c Click) Seated(t *Table) (int, error) {
	if c.Table != "" && (t == nil || t.ID != c.Table) {
		return -1, ErrStale
	}
	if t == nil || t.Game == nil {
		return -1, ErrNoGame
	}
	seat := t.SeatOf(c.User)
	if seat < 0 {
		return -1, ErrNotPlaying
	}
	return seat, nil
}

// Build is the intent of a choice in the play builder (the hand view's
// menus) of seat: the menus must show the table's current state of a
// running game (ErrStale), and the seat must be the active player in
// action 3, playing cards (RULES C6; else ErrNotNow).
func (c Click) Build(t *Table, seat int) error {
	if c.Stamp != t.Stamp() || t.Stage != StagePlaying {
		return ErrStale
	}
	if !t.Game.MayAct(seat) || t.Game.Phase() != game.PhasePlay {
		return ErrNotNow
	}
	return nil
}

// Hint is the intent of a 💡 Hint click of seat: hints must be on at the
// table (ErrHintsOff), the view current (ErrStale), and acts tells
// whether the view has anything for the seat to decide now
// (ErrNothingToHint).
func (c Click) Hint(t *Table, acts bool) error {
	switch {
	case t.NoHints:
		return ErrHintsOff
	case c.Stamp != t.Stamp():
		return ErrStale
	case !acts:
		return ErrNothingToHint
	}
	return nil
}

// ReviewPrivate is the intent of a finished private game's Review: gameNo
// (the custom_id's argument) must name the table's last game, over
// (ErrReviewNotOver).
func ReviewPrivate(t *Table, gameNo string) error {
	if t.Stage != StageOver || strconv.Itoa(t.GameNo) != gameNo {
		return ErrReviewNotOver
	}
	return nil
}

// ReviewSeat is the seat of user among a finished game's players (users:
// their user IDs, "" for computer seats), or ErrNotInGame: only a player
// of a game may see its review.
func ReviewSeat(users []string, user string) (int, error) {
	seat := -1
	for i, u := range users {
		if u != "" && u == user {
			seat = i
		}
	}
	if seat < 0 {
		return -1, ErrNotInGame
	}
	return seat, nil
}

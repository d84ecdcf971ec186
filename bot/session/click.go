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
	// ErrNoHand: a hand asked for in a game without cards (the dice game).
	ErrNoHand = errors.New("session: the game has no hands")
	// ErrHandOver: a hand view of an earlier game of the table: it no
	// longer follows anything (the adapter says so in the view itself).
	ErrHandOver = errors.New("session: the hand view's game is over")
	// ErrNotAsker: a user's own confirmation (forget-me) clicked by
	// another user.
	ErrNotAsker = errors.New("session: not the user who asked")
	// ErrBusy: a new table asked for where a game is running.
	ErrBusy = errors.New("session: a game is running in the channel")
	// ErrLobbyOpen: a new table asked for where a lobby is open (the
	// adapter shows that lobby again).
	ErrLobbyOpen = errors.New("session: a lobby is open in the channel")
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

// Hand is the intent of opening seat's hand view of t's game (the table's
// My cards, the view's Refresh: gameNo is the game it was made for, ""
// for any): a view of an earlier game is ErrHandOver, a game without
// cards ErrNoHand (C3: hands are the card game's).
func Hand(t *Table, gameNo string) error {
	if gameNo != "" && gameNo != strconv.Itoa(t.GameNo) {
		return ErrHandOver
	}
	if !t.Variant.CardGame() {
		return ErrNoHand
	}
	return nil
}

// HandSeat is the seat whose hand a followed hand view of game gameID
// shows user now, or -1 when the view has nothing more to show: its game
// ended or another replaced it, or user is no longer seated (RULES P2).
func HandSeat(t *Table, user, gameID string) int {
	if t == nil || t.Game == nil || !t.Variant.CardGame() || t.GameID() != gameID || t.Stage != StagePlaying {
		return -1
	}
	return t.SeatOf(user)
}

// Confirm is the intent of a click on a user's own confirmation (the
// forget-me question): its custom_id names the user who asked (the table
// segment), and only they confirm (ErrNotAsker).
func (c Click) Confirm() error {
	if c.Table != c.User {
		return ErrNotAsker
	}
	return nil
}

// MayOpen checks that a new table (a lobby, a solo game in the channel)
// may open where t is the channel's table (nil: none): not while a lobby
// is open (ErrLobbyOpen) or a game runs (ErrBusy); a finished game's
// table is replaced.
func MayOpen(t *Table) error {
	switch {
	case t == nil || t.Stage == StageOver:
		return nil
	case t.Stage == StageLobby:
		return ErrLobbyOpen
	}
	return ErrBusy
}

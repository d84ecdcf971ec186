package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/stats"
)

// What a lobby intent can be refused for. The adapter says it in the
// user's words.
var (
	ErrSeated     = errors.New("session: already seated")
	ErrFull       = errors.New("session: the table is full")
	ErrNotSeated  = errors.New("session: not seated at the table")
	ErrHostLeaves = errors.New("session: the host cannot leave the lobby")
	ErrHostOnly   = errors.New("session: only the host may do that")
	ErrFewPlayers = errors.New("session: too few players to start")
)

// Join seats the user under a name unique at the table.
func (t *Table) Join(userID, name string) error {
	switch {
	case t.SeatOf(userID) >= 0:
		return ErrSeated
	case len(t.Seats) >= t.SeatLimit():
		return ErrFull
	}
	t.Seats = append(t.Seats, Seat{UserID: userID, Name: t.UniqueName(name)})
	return nil
}

// LeaveLobby frees the user's seat in the lobby; the host stays.
func (t *Table) LeaveLobby(userID string) error {
	seat := t.SeatOf(userID)
	switch {
	case seat < 0:
		return ErrNotSeated
	case userID == t.Host:
		return ErrHostLeaves
	}
	t.Seats = slices.Delete(t.Seats, seat, seat+1)
	return nil
}

// host checks that by is the table's host.
func (t *Table) host(by string) error {
	if by != t.Host {
		return ErrHostOnly
	}
	return nil
}

// AddComputer seats a computer player of level (the host's choice).
func (t *Table) AddComputer(by, level string) error {
	if err := t.host(by); err != nil {
		return err
	}
	if len(t.Seats) >= t.SeatLimit() {
		return ErrFull
	}
	t.Seats = append(t.Seats, Seat{Name: t.ComputerName(), Computer: level})
	return nil
}

// RemoveComputer frees the last computer player's seat (none: nothing).
func (t *Table) RemoveComputer(by string) error {
	if err := t.host(by); err != nil {
		return err
	}
	for i := len(t.Seats) - 1; i >= 0; i-- {
		if t.Seats[i].Computer != "" {
			t.Seats = slices.Delete(t.Seats, i, i+1)
			break
		}
	}
	return nil
}

// ToggleLeavers switches what happens to players who leave mid-game: a
// computer takes their seat (the default), or their turns are passed
// (RULES P2).
func (t *Table) ToggleLeavers(by string) error {
	if err := t.host(by); err != nil {
		return err
	}
	t.LeaverPass = !t.LeaverPass
	return nil
}

// ToggleHints switches the 💡 Hint button off and on.
func (t *Table) ToggleHints(by string) error {
	if err := t.host(by); err != nil {
		return err
	}
	t.NoHints = !t.NoHints
	return nil
}

// MayCancel checks that by may cancel the lobby: the host.
func (t *Table) MayCancel(by string) error { return t.host(by) }

// MayStart checks that by may start the lobby's game: the host, with at
// least game.MinPlayers seated.
func (t *Table) MayStart(by string) error {
	if err := t.host(by); err != nil {
		return err
	}
	if len(t.Seats) < game.MinPlayers {
		return ErrFewPlayers
	}
	return nil
}

// Timing is what the turn flow needs from the clock and the settings:
// now, the time per action (RULES P1) and how long before its end the
// undecided are reminded (at most a third of it).
type Timing struct {
	Now time.Time
	// Timeout is read only when a timer starts (a server's setting may
	// need a store read).
	Timeout      func() time.Duration
	ReminderLead time.Duration
}

// ResetTimer starts the timer of the current action, and sets when its
// reminder is due: the configured lead before the end, but at most a third
// of the timer, so that a server's short timer (say 15 s against the
// default 20 s lead) never has the reminder go off as the action starts.
// A private game has none: nobody else waits.
func (t *Table) ResetTimer(tm Timing) {
	if t.Private != "" {
		t.Deadline, t.RemindAt, t.Reminded = time.Time{}, time.Time{}, false
		return
	}
	timeout := tm.Timeout()
	t.Deadline = tm.Now.Add(timeout).UTC()
	t.RemindAt = t.Deadline.Add(-min(tm.ReminderLead, timeout/3))
	t.Reminded = false
}

// Begin deals g as the table's next game: a match starts with the first
// game of a table of two or more (a solo game is no match), the timer
// runs, and computer players who act first do so at once.
func (t *Table) Begin(g *game.Game, tm Timing) error {
	if t.Match == nil && len(t.Seats) >= game.MinPlayers {
		players := make([]string, len(t.Seats))
		for i, s := range t.Seats {
			players[i] = s.Name
		}
		m, err := game.NewMatch(players, t.Games)
		if err != nil {
			return fmt.Errorf("session: start match: %w", err)
		}
		t.Match = m
	}
	t.Game = g
	t.GameNo++
	t.Stage = StagePlaying
	for p, s := range t.Seats {
		if s.Left && p < g.NumPlayers() {
			// The next game of a match: nobody plays the seat (P2).
			if err := g.Leave(p); err != nil {
				return fmt.Errorf("session: seat %d left: %w", p, err)
			}
		}
	}
	t.ResetTimer(tm)
	t.AutoMoves()
	return nil
}

// Apply plays move m, then plays for the seats nobody decides for (players
// who left: RULES P2; computers: game/ai), records the turn's news, and
// restarts the timer when the action changed or finishes the game.
func (t *Table) Apply(m game.Move, tm Timing) error {
	g := t.Game
	before := t.Position()
	sheets := make([]game.Sheet, g.NumPlayers())
	for p := range sheets {
		sheets[p] = g.Sheet(p)
	}
	shuffles := g.Reshuffles()
	turn := g.Turn() // the events below happened in it, though it may end
	if err := g.Apply(m); err != nil {
		return err
	}
	if g.Reshuffles() > shuffles {
		t.AddNews(News{Event: NewsReshuffle, N: g.DrawSize()})
	}
	if m.Kind == game.Play {
		// Played cards are public once shown (RULES C10).
		var cards []string
		for _, c := range m.CardList() {
			cards = append(cards, c.String())
		}
		t.AddNewsAt(turn, News{Event: NewsPlayed, Seat: m.Player, Cards: cards, Color: m.Color})
	}
	t.AutoMoves()
	for p := range sheets {
		now := g.Sheet(p)
		for _, c := range game.Colors {
			if now.Rows[c].Locked() && !sheets[p].Rows[c].Locked() {
				t.AddNewsAt(turn, News{Event: NewsLock, Seat: p, Color: c})
			}
		}
		if now.Misthrows > sheets[p].Misthrows {
			t.AddNewsAt(turn, News{Event: NewsMisthrow, Seat: p, N: now.Misthrows})
		}
	}
	if g.Over() {
		t.Finish(tm.Now)
	} else if t.Position() != before {
		t.ResetTimer(tm)
	}
	return nil
}

// AutoMoves passes for seats whose players left (RULES P2) and lets
// computer players choose (game/ai), from what their seat may see (RULES
// C10), until only people are waited for.
func (t *Table) AutoMoves() {
	for changed := true; changed && !t.Game.Over(); {
		changed = false
		for _, p := range t.Game.Waiting() {
			s := t.Seats[p]
			var m game.Move
			var err error
			switch {
			case s.Left:
				m, err = t.Game.TimeoutMove(p)
			case s.Computer != "":
				level, lerr := ai.ParseLevel(s.Computer)
				if lerr != nil {
					level = ai.Medium // a level of a later version
				}
				m = ai.Choose(level, t.Game.Private(p), t.Game.LegalMoves(p))
			default:
				continue
			}
			if err == nil && t.Game.Apply(m) == nil {
				changed = true
			}
		}
	}
}

// Finish records the game's result in the match and closes the game; its
// result and record (Finished) go to the history with the table's next
// write. A daily challenge's streak counts the day. What could not be
// recorded is added to Problems; the game is closed all the same.
func (t *Table) Finish(at time.Time) {
	if t.Match != nil && !t.Match.Done() {
		if err := t.Match.AddGame(t.Game); err != nil {
			t.Problems = append(t.Problems, fmt.Errorf("session: match result not recorded: %w", err))
		}
	}
	if f, err := t.Result(at); err != nil {
		t.Problems = append(t.Problems, fmt.Errorf("session: game result not kept: %w", err))
	} else {
		t.Finished = append(t.Finished, f)
	}
	if t.Private == PrivateDaily {
		t.Streak++
	}
	t.Stage = StageOver
	t.Deadline = time.Time{}
	t.Reminded = false
}

// Expire passes for every player still undecided when the action's timer
// has run out at tm.Now (RULES P1); where the rules force an action (C4
// take, C6 play), the least helpful legal one is taken and nothing is
// crossed (game.TimeoutMove). It reports whether the timer was due.
func (t *Table) Expire(tm Timing) (bool, error) {
	if t.Game == nil || t.Stage != StagePlaying || tm.Now.Before(t.Deadline) {
		return false, nil
	}
	pos := t.Position()
	for _, p := range t.Game.Waiting() {
		if t.Position() != pos {
			break // the action resolved; the next one gets its own timer
		}
		m, err := t.Game.TimeoutMove(p)
		if err != nil {
			continue
		}
		switch m.Kind {
		case game.Take: // the rules force a take (C4)
			t.AddNews(News{Event: NewsTimeoutTake, Seat: p, Nums: m.TakeNumbers()})
		case game.Play: // and a play (C6)
			t.AddNews(News{Event: NewsTimeoutPlay, Seat: p})
		default:
			t.AddNews(News{Event: NewsTimeout, Seat: p})
		}
		if err := t.Apply(m, tm); err != nil {
			return true, fmt.Errorf("session: timeout move %v: %w", m, err)
		}
	}
	if t.Position() == pos && t.Stage == StagePlaying {
		t.ResetTimer(tm) // nothing could be done: avoid spinning
	}
	return true, nil
}

// The kinds of private game (Table.Private).
const (
	PrivateSolo  = "solo"
	PrivateDaily = "daily"
)

// GameID names the table's current game in the history: the table's
// random ID and the game's number at the table, so that the same game
// always gets the same ID; a daily challenge's starts with its day
// (DailyGameID).
func (t *Table) GameID() string {
	if t.Daily > 0 {
		return DailyGameID(t.Daily, t.ID)
	}
	return t.ID + "-" + strconv.Itoa(t.GameNo)
}

// DailyGameID is the history's game ID of a daily challenge's result: the
// day's number first, so a guild's results of one day share a prefix.
func DailyGameID(n int, tableID string) string {
	return "daily-" + strconv.Itoa(n) + "-" + tableID
}

// Result is the result and record of the table's game, just over at time
// at. A seat with a user ID is that person's, also when a computer took it
// over after they left (a game is not escaped by leaving it); computer
// seats have none, and a computer is its level on the leaderboard. The
// result is kept in the table's place (a table opened in a DM before
// places existed, in its channel's); a private game's result is marked
// private, its player's alone.
func (t *Table) Result(at time.Time) (Finished, error) {
	users := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		users[i] = s.UserID
	}
	place := t.GuildID
	if place == LegacyDMPlace && t.Private == "" {
		place = PlacePrefix + t.ChannelID
	}
	r, err := stats.FromGame(place, t.GameID(), at.UTC().Truncate(time.Millisecond), t.Game, users)
	if err != nil {
		return Finished{}, fmt.Errorf("session: result of %s: %w", t.GameID(), err)
	}
	r.Private = t.Private != ""
	for i, s := range t.Seats {
		if s.UserID == "" && slices.Contains(stats.Levels, s.Computer) {
			r.Seats[i].Level = s.Computer
		}
	}
	rec, err := json.Marshal(t.Game.Record())
	if err != nil {
		return Finished{}, fmt.Errorf("session: record of %s: %w", t.GameID(), err)
	}
	return Finished{Result: r, Record: rec}, nil
}

// What a game intent can be refused for.
var (
	ErrNoGame     = errors.New("session: no game at the table")
	ErrRemoveHost = errors.New("session: only the host removes another player")
	ErrEndPerm    = errors.New("session: only the host or a moderator ends the game")
	ErrNotPlaying = errors.New("session: not a player of this game")
	ErrLeftMatch  = errors.New("session: the player left this match")
)

// Leave takes user out of the table, asked by by (the user, or the host
// for another player). In the lobby it frees the seat; in a game a
// computer plays the seat from now on, or, when the host chose so, the
// player's turns are passed, costing no misthrow, so that the departure
// never ends the game for those who stay (RULES P2); their sheet still
// scores. It returns the news it made (none in the lobby).
func (t *Table) Leave(userID, by string, tm Timing) (News, error) {
	if t.Stage == StageOver {
		return News{}, ErrNoGame
	}
	if userID != by && by != t.Host {
		return News{}, ErrRemoveHost
	}
	if t.Stage == StageLobby {
		return News{}, t.LeaveLobby(userID)
	}
	seat := t.SeatOf(userID)
	if seat < 0 || t.Seats[seat].Left { // a computer's seat, or already left
		return News{}, ErrNotSeated
	}
	n := News{Event: NewsLeft, Seat: seat}
	if !t.LeaverPass {
		t.Seats[seat].Computer = ai.Medium.String() // plays from the seat's own view (C10)
		n.Event = NewsLeftBot
	} else {
		if err := t.Game.Leave(seat); err != nil {
			return News{}, fmt.Errorf("session: leave: %w", err)
		}
		t.Seats[seat].Left = true
	}
	t.AddNews(n)
	before := t.Position()
	t.AutoMoves()
	if t.Game.Over() {
		t.Finish(tm.Now)
	} else if t.Position() != before {
		t.ResetTimer(tm)
	}
	return n, nil
}

// MayEnd checks that by may end the table's game or lobby: its host, or
// a moderator (who may manage the channel's messages).
func (t *Table) MayEnd(by string, moderator bool) error {
	if t.Stage == StageOver {
		return ErrNoGame
	}
	if by != t.Host && !moderator {
		return ErrEndPerm
	}
	return nil
}

// PlayAgain answers by's "Play again" (or "Next game") under a finished
// game. In an unfinished match the same seats play its next game: match
// is true and the caller deals it (Begin); a player who left the match
// cannot start it. Otherwise the table becomes a lobby with the players
// still at it and the computers, hosted by by; players who left are not
// seated again, nor the computers that played their seats (by is back,
// in person, if they had left).
func (t *Table) PlayAgain(by string) (match bool, err error) {
	if t.Stage != StageOver || t.Game == nil {
		return false, ErrNoGame
	}
	seat := t.SeatOf(by)
	if seat < 0 {
		seat = slices.IndexFunc(t.Seats, func(s Seat) bool { return s.TakenOver() && s.UserID == by })
	}
	if seat < 0 {
		return false, ErrNotPlaying
	}
	t.News = nil
	if t.Match != nil && !t.Match.Done() {
		if t.Seats[seat].Left || t.Seats[seat].TakenOver() {
			return false, ErrLeftMatch
		}
		return true, nil
	}
	t.Seats = slices.DeleteFunc(t.Seats, func(s Seat) bool { return (s.Left || s.TakenOver()) && s.UserID != by })
	for i := range t.Seats {
		t.Seats[i].Left = false
		if t.Seats[i].TakenOver() {
			t.Seats[i].Computer = "" // by, back in person
		}
	}
	t.Host, t.Stage, t.Match, t.Game, t.Snapshot = by, StageLobby, nil, nil, nil
	t.Deadline, t.Reminded = time.Time{}, false
	return false, nil
}

package bot

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/store"
)

// TableVersion is the version of a stored table; decodeTable refuses others.
const TableVersion = 1

// Stage is where a table is in its life.
type Stage uint8

// The stages of a table.
const (
	StageLobby   Stage = iota + 1 // players join; the host starts
	StagePlaying                  // a game is running
	StageOver                     // the last game ended; results shown
)

// Seat is a player at a table.
type Seat struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"` // unique at the table; used as the game's player name
	// Left is set when the player left or was removed mid-game: their turns
	// are passed for them (RULES P2).
	Left bool `json:"left,omitempty"`
	// Computer is the level of a computer player (game/ai: "easy",
	// "medium"), "" for a person. A computer seat has no user ID.
	Computer string `json:"computer,omitempty"`
}

// shownName is the seat's name, a computer's marked with a robot.
func (s Seat) shownName() string {
	if s.Computer != "" {
		return "🤖 " + s.Name
	}
	return s.Name
}

// Mention names the seat in public text: a person's mention, or the
// computer's name behind a robot.
func (s Seat) Mention() string {
	if s.Computer != "" {
		return s.shownName()
	}
	return "<@" + s.UserID + ">"
}

// Table is everything the bot keeps about one channel's table: the lobby,
// the running game and the messages that show it. It is stored as JSON under
// the channel's ID and changed only under that channel's lock.
type Table struct {
	Version   int          `json:"version"`
	ID        string       `json:"id"` // random; in every custom_id of this table
	GuildID   string       `json:"guild_id"`
	ChannelID string       `json:"channel_id"`
	Host      string       `json:"host"` // user ID
	Variant   game.Variant `json:"variant"`
	Games     int          `json:"games"` // match length, 1–5 (RULES D11)
	Seats     []Seat       `json:"seats"`
	MaxSeats  int          `json:"max_seats,omitempty"` // 2–5, from the configuration
	// LeaverComputer is the host's choice for players who leave mid-game:
	// a computer player (medium) takes their seat instead of passes
	// (RULES P2).
	LeaverComputer bool `json:"leaver_computer,omitempty"`
	// NoHints is the host's choice to turn the 💡 Hint button off.
	NoHints bool      `json:"no_hints,omitempty"`
	Stage   Stage     `json:"stage"`
	Lang    string    `json:"lang"` // language of public messages (guild locale)
	Created time.Time `json:"created"`
	// LobbyMessage is the lobby's message (an interaction response, changed
	// only through clicks on it). TableMessage and Posted are an earlier
	// version's record of its table message, taken over by Shown.
	LobbyMessage string `json:"lobby_message,omitempty"`
	TableMessage string `json:"table_message,omitempty"`
	// Game is the running game's snapshot (game.Game.MarshalBinary).
	Game  json.RawMessage `json:"game,omitempty"`
	Match *game.Match     `json:"match,omitempty"`
	// Deadline is when the current action's timer runs out (RULES P1).
	Deadline time.Time `json:"deadline,omitzero"`
	// Reminded is set once the reminder for the current action was sent;
	// RemindAt is when it is due (zero: ReminderBefore the deadline, as
	// tables stored before it was kept).
	Reminded bool      `json:"reminded,omitempty"`
	RemindAt time.Time `json:"remind_at,omitzero"`
	// Posted is the stamp the table message was made for; a new action gets
	// a new message so the table stays at the bottom of the channel.
	Posted int `json:"posted,omitempty"`
	// Seq is the state stamp in every custom_id (Table.stamp): it grows by
	// one whenever the table moves on to a new state that buttons are made
	// for (a new game, action, turn or stage) and never goes back, across
	// games, matches and restarts, so a button is accepted for exactly the
	// state it was made for. At names that state (Table.position).
	Seq int    `json:"seq,omitempty"`
	At  string `json:"at,omitempty"`
	// GameNo counts the games started at this table, over all its matches.
	GameNo int `json:"game_no,omitempty"`
	// Shown is what the channel shows of the table (channel.go).
	Shown Shown `json:"shown,omitzero"`
	// News are recent public events (locks, misthrows, timeouts), already in
	// the table's language.
	News []News `json:"news,omitempty"`

	// Private is set on a private game, played by one person in ephemeral
	// messages only: "solo" or "daily" (solo.go). Such a table is stored
	// under privateKey, which is also its ChannelID; it has no channel
	// messages, no timer and no reminders.
	Private string `json:"private,omitempty"`
	// Daily is the daily challenge's number (ai.DailyNumber) of a daily
	// table; Par its par, and Streak the player's daily challenges in a
	// row, this one included once it is over.
	Daily  int `json:"daily,omitempty"`
	Par    int `json:"par,omitempty"`
	Streak int `json:"streak,omitempty"`

	g *game.Game // decoded Game, loaded on demand
	// finished are the games that ended since the table was loaded, to be
	// saved with it (saveTable) in one transaction.
	finished []store.Finished
}

// News is one public event of a turn (a lock, a misthrow, a reshuffle, a
// play, a player leaving, a timer running out), kept as data and put into
// words when shown (News.words), in the language of whoever shows it: a
// record, a review or a language switch can read it.
type News struct {
	Turn int `json:"turn"`
	// Event is what happened (the news* constants); "" in news stored by
	// an earlier version, whose Text is already in words.
	Event string `json:"event,omitempty"`
	// Seat is the player it happened to; Color the row locked, or the
	// colour jokers counted as; N the misthrow's number or the new draw
	// pile's size; Nums the numbers a timer took; Cards the cards played.
	Seat  int        `json:"seat,omitempty"`
	Color game.Color `json:"color,omitempty"`
	N     int        `json:"n,omitempty"`
	Nums  []int      `json:"nums,omitempty"`
	Cards []string   `json:"cards,omitempty"`
	Text  string     `json:"text,omitempty"`
}

// The events of News.
const (
	newsLock        = "lock"
	newsMisthrow    = "misthrow"
	newsReshuffle   = "reshuffle"
	newsPlayed      = "played"
	newsLeft        = "left"
	newsLeftBot     = "left.computer"
	newsTimeout     = "timeout"
	newsTimeoutTake = "timeout.take"
	newsTimeoutPlay = "timeout.play"
)

// words puts the news into words in l, naming the seats' players.
func (n News) words(l Lang, seats []Seat) string {
	name := "#" + strconv.Itoa(n.Seat+1)
	if n.Seat >= 0 && n.Seat < len(seats) {
		name = seats[n.Seat].Name
	}
	switch n.Event {
	case newsLock:
		return l.T("event.lock", name, rowName(l, n.Color))
	case newsMisthrow:
		return l.T("event.misthrow", name, n.N)
	case newsReshuffle:
		return l.T("event.reshuffle", n.N)
	case newsPlayed:
		cards := make([]game.Card, 0, len(n.Cards))
		for _, s := range n.Cards {
			if c, err := game.ParseCard(s); err == nil {
				cards = append(cards, c)
			}
		}
		return l.T("turn.played", name, playedList(l, cards, n.Color, true))
	case newsLeft:
		return l.T("event.left", name)
	case newsLeftBot:
		return l.T("event.left.computer", name)
	case newsTimeout:
		return l.T("turn.timeout", name)
	case newsTimeoutTake:
		return l.T("turn.timeout.take", name, joinInts(n.Nums, " + "))
	case newsTimeoutPlay:
		return l.T("turn.timeout.play", name)
	}
	return n.Text
}

// timeout reports whether the news is a timer running out (the turn's
// log line repeats those).
func (n News) timeout() bool {
	if n.Event == "" {
		return strings.HasPrefix(n.Text, "⌛")
	}
	return strings.HasPrefix(n.Event, newsTimeout)
}

// addNews remembers an event of the current turn, keeping the last few.
func (t *Table) addNews(n News) {
	turn := 0
	if t.g != nil {
		turn = t.g.Turn()
	}
	t.addNewsAt(turn, n)
}

// addNewsAt remembers an event of the given turn, keeping the last few.
func (t *Table) addNewsAt(turn int, n News) {
	n.Turn = turn
	t.News = append(t.News, n)
	if len(t.News) > 8 {
		t.News = t.News[len(t.News)-8:]
	}
}

// newTableID makes a short random id for custom_ids.
func newTableID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("bot: crypto/rand: %v", err))
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// newSeed draws a game seed from crypto/rand, so that nobody can predict a
// game's dice or deal; tests seed their games through Options.NewGame.
func newSeed() [32]byte {
	var s [32]byte
	if _, err := rand.Read(s[:]); err != nil {
		panic(fmt.Sprintf("bot: crypto/rand: %v", err))
	}
	return s
}

// decodeTable reads a stored table, refusing unknown versions and broken
// games (a corrupt database must not crash or mislead the bot).
func decodeTable(data []byte) (*Table, error) { return decodeTableWith(data, game.RestoreChecked) }

// decodeTableWith is decodeTable with the game's snapshot restored by
// restore (the bot reuses games it restored before; see Bot.restoreGame).
func decodeTableWith(data []byte, restore func([]byte) (*game.Game, error)) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("bot: decode table: %w", err)
	}
	if t.Version != TableVersion {
		return nil, fmt.Errorf("bot: table version %d, this program reads version %d", t.Version, TableVersion)
	}
	if t.Stage < StageLobby || t.Stage > StageOver || t.ID == "" {
		return nil, fmt.Errorf("bot: table has no valid stage or id")
	}
	if len(t.Game) > 0 {
		g, err := restore(t.Game)
		if err != nil {
			return nil, fmt.Errorf("bot: table %s: %w", t.ID, err)
		}
		t.g = g
	}
	if t.At == "" {
		t.advance() // stored by a bot before stamps were kept
	}
	return &t, nil
}

// encode writes the table, with its game's current state.
func (t *Table) encode() ([]byte, error) {
	t.Version = TableVersion
	t.advance()
	if t.g != nil {
		data, err := t.g.MarshalBinary()
		if err != nil {
			return nil, err
		}
		t.Game = data
	}
	return json.Marshal(t)
}

// maxSeats is the table's size limit.
func (t *Table) maxSeats() int {
	if t.MaxSeats >= game.MinPlayers && t.MaxSeats <= game.MaxPlayers {
		return t.MaxSeats
	}
	return game.MaxPlayers
}

// seatOf returns the seat index of a user, or -1.
func (t *Table) seatOf(userID string) int {
	for i, s := range t.Seats {
		if s.UserID == userID && s.Computer == "" && userID != "" {
			return i
		}
	}
	return -1
}

// computerNames are the names computer players get, in turn.
var computerNames = []string{"Bot Emma", "Bot Felix", "Bot Greta", "Bot Hugo", "Bot Ida"}

// computerName is a computer player's name not taken at the table.
func (t *Table) computerName() string {
	for _, n := range computerNames {
		if !slices.ContainsFunc(t.Seats, func(s Seat) bool { return s.Name == n }) {
			return n
		}
	}
	return t.uniqueName("Bot")
}

// uniqueName makes a display name unique among the seats.
func (t *Table) uniqueName(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		name = "Player"
	}
	if len([]rune(name)) > 32 {
		name = string([]rune(name)[:32])
	}
	taken := func(n string) bool {
		for _, s := range t.Seats {
			if s.Name == n {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s (%d)", name, i); !taken(n) {
			return n
		}
	}
}

// position names the state buttons are made for: lobby buttons stay valid
// through the lobby; game buttons are valid for one action of one turn of
// one game.
func (t *Table) position() string {
	if t.g == nil || t.Stage == StageLobby {
		return fmt.Sprintf("lobby.%d", t.GameNo)
	}
	return fmt.Sprintf("game.%d.%d.%d.%d", t.GameNo, t.Stage, t.g.Turn(), t.g.Phase())
}

// advance moves Seq on when the table's position changed since Seq was
// assigned. Every write of the table calls it (saveTable), so the stamp of
// any stored state is current.
func (t *Table) advance() {
	if p := t.position(); p != t.At {
		t.Seq++
		t.At = p
	}
}

// stamp identifies the state buttons are made for (Seq).
func (t *Table) stamp() int { return t.Seq }

// action makes the custom_id of a component in view for the current state.
func (t *Table) action(view View, verb, arg string) string {
	return Action{Table: t.ID, Stamp: t.stamp(), View: view, Verb: verb, Arg: arg}.Encode()
}

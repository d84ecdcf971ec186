package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

var t0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func timing(now time.Time) Timing {
	return Timing{Now: now, Timeout: func() time.Duration { return time.Minute }, ReminderLead: 20 * time.Second}
}

func lobby(host string) *Table {
	t := &Table{ID: "t1", GuildID: "g", ChannelID: "c", Host: host, Variant: game.Dice, Games: 1, Stage: StageLobby, Lang: "en", Created: t0}
	t.Seats = []Seat{{UserID: host, Name: t.UniqueName(host)}}
	return t
}

// The lobby's intents, table-driven: who may do what, and what each does
// to the seats and settings.
func TestLobbyIntents(t *testing.T) {
	type step struct {
		do    func(t *Table) error
		want  error
		seats int
	}
	cases := []struct {
		name  string
		max   int
		steps []step
	}{
		{"join, twice, leave", 5, []step{
			{func(t *Table) error { return t.Join("ben", "Ben") }, nil, 2},
			{func(t *Table) error { return t.Join("ben", "Ben") }, ErrSeated, 2},
			{func(t *Table) error { return t.LeaveLobby("ben") }, nil, 1},
			{func(t *Table) error { return t.LeaveLobby("ben") }, ErrNotSeated, 1},
		}},
		{"the host stays", 5, []step{
			{func(t *Table) error { return t.LeaveLobby("anna") }, ErrHostLeaves, 1},
		}},
		{"full at the configured size", 2, []step{
			{func(t *Table) error { return t.Join("ben", "Ben") }, nil, 2},
			{func(t *Table) error { return t.Join("cleo", "Cleo") }, ErrFull, 2},
			{func(t *Table) error { return t.AddComputer("anna", "easy") }, ErrFull, 2},
		}},
		{"computers: host only", 5, []step{
			{func(t *Table) error { return t.Join("ben", "Ben") }, nil, 2},
			{func(t *Table) error { return t.AddComputer("ben", "hard") }, ErrHostOnly, 2},
			{func(t *Table) error { return t.AddComputer("anna", "hard") }, nil, 3},
			{func(t *Table) error { return t.AddComputer("anna", "easy") }, nil, 4},
			{func(t *Table) error { return t.RemoveComputer("ben") }, ErrHostOnly, 4},
			{func(t *Table) error { return t.RemoveComputer("anna") }, nil, 3},
		}},
		{"settings: host only", 5, []step{
			{func(t *Table) error { return t.ToggleHints("ben") }, ErrHostOnly, 1},
			{func(t *Table) error { return t.ToggleLeavers("ben") }, ErrHostOnly, 1},
			{func(t *Table) error { return t.ToggleHints("anna") }, nil, 1},
			{func(t *Table) error { return t.ToggleLeavers("anna") }, nil, 1},
		}},
		{"start needs two seats and the host (D1)", 5, []step{
			{func(t *Table) error { return t.MayStart("anna") }, ErrFewPlayers, 1},
			{func(t *Table) error { return t.AddComputer("anna", "medium") }, nil, 2},
			{func(t *Table) error { return t.MayStart("ben") }, ErrHostOnly, 2},
			{func(t *Table) error { return t.MayCancel("ben") }, ErrHostOnly, 2},
			{func(t *Table) error { return t.MayStart("anna") }, nil, 2},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := lobby("anna")
			tb.MaxSeats = c.max
			for i, s := range c.steps {
				if err := s.do(tb); !errors.Is(err, s.want) || (s.want == nil && err != nil) {
					t.Fatalf("step %d: %v, want %v", i, err, s.want)
				}
				if len(tb.Seats) != s.seats {
					t.Fatalf("step %d: %d seats, want %d", i, len(tb.Seats), s.seats)
				}
			}
			names := map[string]bool{}
			for _, s := range tb.Seats {
				if names[s.Name] {
					t.Fatalf("two seats named %q", s.Name)
				}
				names[s.Name] = true
			}
		})
	}
	tb := lobby("anna")
	tb.ToggleHints("anna")
	tb.ToggleLeavers("anna")
	if !tb.NoHints || !tb.LeaverPass {
		t.Fatal("the host's toggles did not change the settings")
	}
}

// Seats: names unique and cut to 32 characters; a computer's name is
// never taken twice; SeatOf finds people only.
func TestSeats(t *testing.T) {
	tb := lobby("anna")
	tb.Join("ben", "anna")
	tb.Join("cleo", "  ")
	tb.Join("dan", strings.Repeat("é", 40))
	if got := []string{tb.Seats[1].Name, tb.Seats[2].Name}; got[0] != "anna (2)" || got[1] != "Player" {
		t.Fatalf("names %v", got)
	}
	if n := []rune(tb.Seats[3].Name); len(n) != 32 {
		t.Fatalf("a long name kept %d characters", len(n))
	}
	tb.MaxSeats = 0 // unset: the game's limit
	if tb.SeatLimit() != game.MaxPlayers {
		t.Fatalf("limit %d", tb.SeatLimit())
	}
	tb2 := lobby("anna")
	tb2.AddComputer("anna", "easy")
	tb2.AddComputer("anna", "easy")
	if tb2.Seats[1].Name == tb2.Seats[2].Name || tb2.SeatOf("") != -1 || tb2.SeatOf("anna") != 0 {
		t.Fatalf("computer seats %+v", tb2.Seats)
	}
	if tb2.Seats[1].ShownName() != "🤖 "+tb2.Seats[1].Name || tb2.Seats[1].Mention() != tb2.Seats[1].ShownName() || tb2.Seats[0].Mention() != "<@anna>" {
		t.Fatal("shown names and mentions")
	}
}

// A game from the lobby to its end, with the timer (RULES P1): Begin
// starts the match and the timer, computers play at once, Expire passes
// for the undecided only when due, the stamp grows with every new action
// and never goes back, and Finish records the result (a match, the
// history's Finished) and stops the timer. Encode and Decode keep it all.
func TestTurnFlowTimerAndMatch(t *testing.T) {
	tb := lobby("anna")
	tb.AddComputer("anna", "medium")
	tb.Games = 2
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{tb.Seats[0].Name, tb.Seats[1].Name}, Seed: [32]byte{7}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Begin(g, timing(t0)); err != nil {
		t.Fatal(err)
	}
	if tb.Match == nil || tb.Match.Games != 2 || tb.Stage != StagePlaying || tb.GameNo != 1 {
		t.Fatalf("after Begin: %+v", tb)
	}
	if !tb.Deadline.Equal(t0.Add(time.Minute)) || !tb.RemindAt.Equal(t0.Add(40*time.Second)) {
		t.Fatalf("timer %v, reminder %v", tb.Deadline, tb.RemindAt)
	}
	last := tb.Stamp()
	tb.Advance()
	for steps := 0; tb.Stage == StagePlaying; steps++ {
		if steps > 500 {
			t.Fatal("the game did not end")
		}
		// Not yet due: nothing happens.
		if due, _ := tb.Expire(timing(tb.Deadline.Add(-time.Second))); due {
			t.Fatal("a timer expired before its deadline")
		}
		waiting := tb.Game.Waiting()
		if len(waiting) == 0 || tb.Seats[waiting[0]].Computer != "" {
			t.Fatalf("waiting for %v: only the person is waited for", waiting)
		}
		due, err := tb.Expire(timing(tb.Deadline))
		if err != nil || !due {
			t.Fatalf("expire at the deadline: %v, %v", due, err)
		}
		tb.Advance()
		if tb.Stamp() <= last && tb.Stage == StagePlaying {
			t.Fatalf("stamp %d after %d", tb.Stamp(), last)
		}
		last = tb.Stamp()
	}
	if !tb.Game.Over() || tb.Stage != StageOver || !tb.Deadline.IsZero() || tb.Match.Played() != 1 {
		t.Fatalf("after the end: %+v", tb)
	}
	if len(tb.Finished) != 1 || tb.Finished[0].Result.GameID != "t1-1" || len(tb.Problems) != 0 {
		t.Fatalf("finished %+v, problems %v", tb.Finished, tb.Problems)
	}
	timeouts := 0
	for _, n := range tb.News {
		if n.IsTimeout() {
			timeouts++
		}
	}
	if timeouts == 0 {
		t.Fatal("no timeout news")
	}
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(blob)
	if err != nil {
		t.Fatal(err)
	}
	if back.Stamp() != tb.Stamp() || back.Game.Scores()[0] != tb.Game.Scores()[0] || back.Match.Played() != 1 || len(back.News) != len(tb.News) {
		t.Fatal("Decode did not give back what Encode stored")
	}
	// Stored: the table's JSON without the game, a newline, the game's
	// snapshot; and what an earlier version stored (the snapshot inside
	// the JSON under "game") reads the same.
	head, snap, ok := bytes.Cut(blob, []byte("\n"))
	if !ok || bytes.Contains(head, []byte(`"game"`)) || !bytes.Equal(snap, tb.Snapshot) {
		t.Fatalf("stored %q: want the table's JSON, a newline and the snapshot", blob[:min(len(blob), 200)])
	}
	old := append(append(bytes.TrimSuffix(bytes.Clone(head), []byte("}")), `,"game":`...), snap...)
	old = append(old, '}')
	if !json.Valid(old) {
		t.Fatalf("not JSON: %s", old)
	}
	back, err = Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	if back.Stamp() != tb.Stamp() || !bytes.Equal(back.Snapshot, tb.Snapshot) || back.Game.Turn() != tb.Game.Turn() {
		t.Fatal("a table stored the earlier way did not decode to the same")
	}
	again, err := back.Encode()
	if err != nil || !bytes.Equal(again, blob) {
		t.Fatalf("encoded again: %v, same bytes %v", err, bytes.Equal(again, blob))
	}
}

// A solo game: no match, and a private one has no timer.
func TestSoloAndPrivateTables(t *testing.T) {
	for _, private := range []string{"", PrivateSolo} {
		tb := lobby("anna")
		tb.Private = private
		g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"anna"}, Seed: [32]byte{1}})
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Begin(g, timing(t0)); err != nil {
			t.Fatal(err)
		}
		if tb.Match != nil || (private != "") != tb.Deadline.IsZero() {
			t.Fatalf("private %q: match %v, deadline %v", private, tb.Match, tb.Deadline)
		}
	}
	tb := lobby("anna")
	tb.Private, tb.Daily, tb.Streak = PrivateDaily, 12, 3
	if tb.GameID() != "daily-12-t1" {
		t.Fatalf("daily game id %q", tb.GameID())
	}
}

// Decode refuses what it cannot trust: another version, no stage, a broken
// game snapshot.
func TestDecodeRefuses(t *testing.T) {
	for name, blob := range map[string]string{
		"version":        `{"version":2,"id":"x","stage":1}`,
		"stage":          `{"version":1,"id":"x","stage":9}`,
		"no id":          `{"version":1,"stage":1}`,
		"snapshot":       `{"version":1,"id":"x","stage":2,"game":"AAAA"}`,
		"json":           `{"version":`,
		"game twice":     `{"version":1,"id":"x","stage":2,"game":{"version":1}}` + "\n" + `{"version":1}`,
		"empty game":     `{"version":1,"id":"x","stage":2}` + "\n",
		"bad game after": `{"version":1,"id":"x","stage":2}` + "\n" + `{"version":`,
	} {
		if _, err := Decode([]byte(blob)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// playing is a started dice game of anna (host), ben and a computer.
func playing(t *testing.T, leaverComputer bool, games int) *Table {
	t.Helper()
	tb := lobby("anna")
	tb.Games = games
	tb.LeaverPass = !leaverComputer
	if err := tb.Join("ben", "Ben"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range tb.Seats {
		names = append(names, s.Name)
	}
	g, err := game.New(game.Config{Variant: game.Dice, Players: names, Seed: [32]byte{3}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Begin(g, timing(t0)); err != nil {
		t.Fatal(err)
	}
	return tb
}

// Leaving (RULES P2), ending and playing again, table-driven: who may,
// and what each does to the seats.
func TestLeaveEndAndPlayAgain(t *testing.T) {
	cases := []struct {
		name       string
		computer   bool
		user, by   string
		want       error
		wantEvent  string
		left, comp bool
	}{
		{"leaves: turns passed", false, "ben", "ben", nil, NewsLeft, true, false},
		{"leaves: a computer plays on", true, "ben", "ben", nil, NewsLeftBot, false, true},
		{"removed by the host", false, "ben", "anna", nil, NewsLeft, true, false},
		{"removed by another player", false, "anna", "ben", ErrRemoveHost, "", false, false},
		{"not at the table", false, "zoe", "zoe", ErrNotSeated, "", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := playing(t, c.computer, 1)
			n, err := tb.Leave(c.user, c.by, timing(t0))
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("Leave: %v, want %v", err, c.want)
			}
			if err != nil {
				return
			}
			s := tb.Seats[1] // ben's (a computer's once it plays on)
			if n.Event != c.wantEvent || s.Left != c.left || (s.Computer != "") != c.comp {
				t.Fatalf("news %+v, seat %+v", n, s)
			}
			if got := tb.News[len(tb.News)-1]; got.Event != c.wantEvent {
				t.Fatalf("last news %+v", got)
			}
			// Nobody waits for the seat that left.
			for _, p := range tb.Game.Waiting() {
				if p == 1 {
					t.Fatal("the game waits for a player who left")
				}
			}
		})
	}
	tb := playing(t, false, 1)
	if err := tb.MayEnd("ben", false); !errors.Is(err, ErrEndPerm) {
		t.Fatalf("a player ends: %v", err)
	}
	if tb.MayEnd("ben", true) != nil || tb.MayEnd("anna", false) != nil {
		t.Fatal("a moderator or the host may end")
	}
	// Play again after a game: ben had left; anna opens a lobby without him.
	if _, err := tb.PlayAgain("anna"); !errors.Is(err, ErrNoGame) {
		t.Fatalf("play again during a game: %v", err)
	}
	tb.Leave("ben", "ben", timing(t0))
	for tb.Stage == StagePlaying {
		tb.Expire(timing(tb.Deadline))
	}
	if _, err := tb.PlayAgain("zoe"); !errors.Is(err, ErrNotPlaying) {
		t.Fatalf("a stranger plays again: %v", err)
	}
	match, err := tb.PlayAgain("anna")
	if err != nil || match || tb.Stage != StageLobby || len(tb.Seats) != 1 || tb.Host != "anna" || tb.Game != nil {
		t.Fatalf("play again: %v %v %+v", match, err, tb.Seats)
	}
	// In a match the next game has the same seats; who left cannot start it.
	m := playing(t, false, 2)
	m.Leave("ben", "ben", timing(t0))
	for m.Stage == StagePlaying {
		m.Expire(timing(m.Deadline))
	}
	if _, err := m.PlayAgain("ben"); !errors.Is(err, ErrLeftMatch) {
		t.Fatalf("who left starts the match's next game: %v", err)
	}
	if match, err := m.PlayAgain("anna"); err != nil || !match || len(m.Seats) != 2 {
		t.Fatalf("the match's next game: %v %v", match, err)
	}
}

// TestRestoredTableOutrunsLostButtons: a table read from a restored backup
// takes stamps that no button made after the backup (the lost states,
// which the channel may still show) can carry, keeps its game and timers,
// and has its live message and results shown afresh.
func TestRestoredTableOutrunsLostButtons(t *testing.T) {
	tb := lobby("anna")
	tb.AddComputer("anna", "medium")
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{tb.Seats[0].Name, tb.Seats[1].Name}, Seed: [32]byte{9}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Begin(g, timing(t0)); err != nil {
		t.Fatal(err)
	}
	tb.Advance()
	tb.Shown = Shown{Msg: "m1", Turn: tb.TurnKey(), Rev: "r", Pic: "p", Stamp: tb.Stamp(), Reminder: "rem", RemindAt: tb.Stamp(), Results: 1}
	backup, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// The lost timeline: the game went on for many states after the backup.
	lost := tb.Stamp()
	for range 1000 {
		tb.Seq++
		lost = tb.Stamp()
	}
	restored, err := Decode(backup)
	if err != nil {
		t.Fatal(err)
	}
	before, turn, deadline := restored.Stamp(), restored.Game.Turn(), restored.Deadline
	restored.Restored()
	if restored.Stamp() <= lost {
		t.Errorf("restored stamp %d does not pass the lost timeline's %d", restored.Stamp(), lost)
	}
	if restored.Stamp() != before+restoreSeqJump {
		t.Errorf("stamp %d, want %d", restored.Stamp(), before+restoreSeqJump)
	}
	if restored.Game.Turn() != turn || !restored.Deadline.Equal(deadline) {
		t.Errorf("the game or its timer changed: turn %d→%d, deadline %v→%v", turn, restored.Game.Turn(), deadline, restored.Deadline)
	}
	s := restored.Shown
	if s.Msg != "" || s.Rev != "" || s.Results != 0 {
		t.Errorf("the live message or results are still taken as shown: %+v", s)
	}
	if s.Reminder != "rem" {
		t.Errorf("the reminder to delete was dropped: %+v", s)
	}
	// Advance after Restored keeps the jump (the position is unchanged).
	restored.Advance()
	if restored.Stamp() != before+restoreSeqJump {
		t.Errorf("Advance moved the stamp to %d", restored.Stamp())
	}
}

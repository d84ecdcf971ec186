package session

import (
	"errors"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// The click intents' refusals, table-driven: every check a button makes
// before it acts, on a table in each stage, and the seat it acts for when
// nothing refuses.
func TestClickIntentRefusals(t *testing.T) {
	open := func() *Table { return lobby("anna") }
	running := func() *Table { return playing(t, true, 1) }
	over := func() *Table {
		tb := playing(t, true, 1)
		tb.Finish(t0)
		return tb
	}
	none := func() *Table { return nil }
	private := func() *Table {
		tb, err := NewPrivate(PrivateSolo, Player{UserID: "anna", Name: "Anna", Lang: "en", GuildID: "g", ChannelID: "c"},
			func(name string) (*game.Game, error) {
				return game.New(game.Config{Variant: game.Dice, Players: []string{name}, Seed: [32]byte{5}})
			}, t0)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	// here is a click on tb's current state by user; other variants are
	// built from it.
	here := func(tb *Table, user string) Click {
		if tb == nil {
			return Click{Table: "t1", Stamp: 1, User: user}
		}
		return Click{Table: tb.ID, Stamp: tb.Stamp(), User: user}
	}
	older := func(c Click) Click { c.Stamp--; return c }
	other := func(c Click) Click { c.Table = "another"; return c }
	same := func(c Click) Click { return c }

	type intent func(c Click, tb *Table) (int, error)
	move := func(private bool) intent {
		return func(c Click, tb *Table) (int, error) { return c.Move(tb, private) }
	}
	lobbyI := func(c Click, tb *Table) (int, error) { return 0, c.Lobby(tb) }
	again := func(c Click, tb *Table) (int, error) { return 0, c.Again(tb) }
	seated := func(c Click, tb *Table) (int, error) { return c.Seated(tb) }

	cases := []struct {
		name   string
		table  func() *Table
		user   string
		click  func(Click) Click
		intent intent
		want   error
		seat   int
	}{
		{"move: no table", none, "anna", same, move(false), ErrStale, 0},
		{"move: another table", running, "anna", other, move(false), ErrStale, 0},
		{"move: a lobby has no game", open, "anna", same, move(false), ErrStale, 0},
		{"move: an older state", running, "anna", older, move(false), ErrStale, 0},
		{"move: after the game ended (D9)", over, "anna", same, move(false), ErrGameOver, 0},
		{"move: an old button after the end is the end, first", over, "anna", older, move(false), ErrGameOver, 0},
		{"move: not seated", running, "carl", same, move(false), ErrNotPlaying, 0},
		{"move: seated, current", running, "ben", same, move(false), nil, 1},
		{"private move: the game is gone", none, "anna", same, move(true), ErrPrivateGone, 0},
		{"private move: another game", private, "anna", other, move(true), ErrPrivateGone, 0},
		{"private move: an outdated view", private, "anna", older, move(true), ErrPrivateStale, 0},
		{"private move: current", private, "anna", same, move(true), nil, 0},
		{"lobby: no table", none, "anna", same, lobbyI, ErrStale, 0},
		{"lobby: another table", open, "ben", other, lobbyI, ErrStale, 0},
		{"lobby: an older state", open, "ben", older, lobbyI, ErrStale, 0},
		{"lobby: the game started", running, "ben", same, lobbyI, ErrStale, 0},
		{"lobby: open and current", open, "ben", same, lobbyI, nil, 0},
		{"again: no table", none, "anna", same, again, ErrStale, 0},
		{"again: the game still runs", running, "anna", same, again, ErrStale, 0},
		{"again: an older state", over, "anna", older, again, ErrStale, 0},
		{"again: another table", over, "anna", other, again, ErrStale, 0},
		{"again: the results as they are", over, "carl", same, again, nil, 0},
		{"view: a button of another table", running, "anna", other, seated, ErrStale, 0},
		{"view: a button and no table", none, "anna", same, seated, ErrStale, 0},
		{"view: a command and no table", none, "anna", func(c Click) Click { c.Table = ""; return c }, seated, ErrNoGame, 0},
		{"view: a lobby has no game", open, "anna", same, seated, ErrNoGame, 0},
		{"view: not seated", running, "carl", same, seated, ErrNotPlaying, 0},
		{"view: an older state still shows the game", running, "ben", older, seated, nil, 1},
		{"view: a finished game", over, "anna", same, seated, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := c.table()
			var before []byte
			if tb != nil {
				var err error
				if before, err = tb.Encode(); err != nil {
					t.Fatal(err)
				}
			}
			seat, err := c.intent(c.click(here(tb, c.user)), tb)
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if c.want == nil && seat != c.seat {
				t.Errorf("seat %d, want %d", seat, c.seat)
			}
			if tb != nil {
				after, err := tb.Encode()
				if err != nil {
					t.Fatal(err)
				}
				if string(after) != string(before) {
					t.Error("an intent changed the table")
				}
			}
		})
	}
}

// The hint's and the play builder's intents, and a private game's review
// (C6: the builder is the active player's action 3 only).
func TestHintBuildAndReviewRefusals(t *testing.T) {
	tb := playing(t, true, 1)
	c := Click{Table: tb.ID, Stamp: tb.Stamp(), User: "anna"}
	old := c
	old.Stamp--
	if err := c.Hint(tb, true); err != nil {
		t.Errorf("hint: %v", err)
	}
	if err := old.Hint(tb, true); !errors.Is(err, ErrStale) {
		t.Errorf("hint of an older state: %v", err)
	}
	if err := c.Hint(tb, false); !errors.Is(err, ErrNothingToHint) {
		t.Errorf("hint with nothing to decide: %v", err)
	}
	tb.NoHints = true
	if err := old.Hint(tb, true); !errors.Is(err, ErrHintsOff) {
		t.Errorf("hint at a table without hints (first of all): %v", err)
	}

	// A dice game never has an action 3 to build.
	if err := c.Build(tb, 0); !errors.Is(err, ErrNotNow) {
		t.Errorf("builder in a dice game: %v", err)
	}
	if err := old.Build(tb, 0); !errors.Is(err, ErrStale) {
		t.Errorf("builder of an older state: %v", err)
	}
	ct := cardsAt(t, game.PhasePlay)
	cc := Click{Table: ct.ID, Stamp: ct.Stamp(), User: "anna"}
	active := ct.Game.Active()
	if err := cc.Build(ct, active); err != nil {
		t.Errorf("builder of the active player in action 3 (C6): %v", err)
	}
	if err := cc.Build(ct, 1-active); !errors.Is(err, ErrNotNow) {
		t.Errorf("builder of the other player in action 3 (C6): %v", err)
	}
	take := cardsAt(t, game.PhaseTake)
	if err := (Click{Table: take.ID, Stamp: take.Stamp()}).Build(take, take.Game.Active()); !errors.Is(err, ErrNotNow) {
		t.Errorf("builder in action 1 (C4): %v", err)
	}
	ct.Finish(t0)
	if err := (Click{Table: ct.ID, Stamp: ct.Stamp()}).Build(ct, active); !errors.Is(err, ErrStale) {
		t.Errorf("builder after the end: %v", err)
	}

	// Review of a private game: only its last game, over.
	pt := playing(t, true, 1)
	if err := ReviewPrivate(pt, "1"); !errors.Is(err, ErrReviewNotOver) {
		t.Errorf("review of a running game: %v", err)
	}
	pt.Finish(t0)
	if err := ReviewPrivate(pt, "2"); !errors.Is(err, ErrReviewNotOver) {
		t.Errorf("review of another game: %v", err)
	}
	if err := ReviewPrivate(pt, "1"); err != nil {
		t.Errorf("review of the finished game: %v", err)
	}
	for _, rc := range []struct {
		users []string
		user  string
		seat  int
		err   error
	}{
		{[]string{"anna", "", "ben"}, "ben", 2, nil},
		{[]string{"anna", "", "ben"}, "carl", -1, ErrNotInGame},
		{[]string{"anna", "", "ben"}, "", -1, ErrNotInGame}, // a computer's seat is nobody's
	} {
		seat, err := ReviewSeat(rc.users, rc.user)
		if seat != rc.seat || !errors.Is(err, rc.err) || (rc.err == nil && err != nil) {
			t.Errorf("ReviewSeat(%v, %q) = %d, %v; want %d, %v", rc.users, rc.user, seat, err, rc.seat, rc.err)
		}
	}
}

// cardsAt is a running card game with jokers of anna and ben, played on
// (the first legal move of whoever is waited for) until the action is
// phase, with at least one joker in the active player's hand when phase
// is PhasePlay.
func cardsAt(t *testing.T, phase game.Phase) *Table {
	t.Helper()
	for seed := byte(1); seed < 60; seed++ {
		tb := lobby("anna")
		tb.Variant = game.Jokers
		if err := tb.Join("ben", "Ben"); err != nil {
			t.Fatal(err)
		}
		g, err := game.New(game.Config{Variant: game.Jokers, Players: []string{"anna", "Ben"}, Seed: [32]byte{seed}})
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Begin(g, timing(t0)); err != nil {
			t.Fatal(err)
		}
		for steps := 0; steps < 200 && !g.Over(); steps++ {
			if g.Phase() == phase && (phase != game.PhasePlay || hasJoker(g.Hand(g.Active()))) {
				return tb
			}
			p := g.Waiting()[0]
			if err := tb.Apply(g.LegalMoves(p)[0], timing(t0)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatalf("no card game reached %v", phase)
	return nil
}

func hasJoker(hand []game.Card) bool {
	for _, c := range hand {
		if c.Joker() {
			return true
		}
	}
	return false
}

// Opening a table, a hand view, following one, a user's own confirmation
// and a kept record's visibility, table-driven (C3: hands are the card
// game's; P2: a player who left is followed no more).
func TestOpenHandConfirmAndRecordRefusals(t *testing.T) {
	over := playing(t, true, 1)
	over.Finish(t0)
	for _, c := range []struct {
		name string
		t    *Table
		want error
	}{
		{"no table", nil, nil},
		{"a finished game's table is replaced", over, nil},
		{"a lobby is open", lobby("anna"), ErrLobbyOpen},
		{"a game runs", playing(t, true, 1), ErrBusy},
	} {
		if err := MayOpen(c.t); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("MayOpen, %s: %v, want %v", c.name, err, c.want)
		}
	}

	dice := playing(t, true, 1)
	cards := cardsAt(t, game.PhaseTake)
	for _, c := range []struct {
		name   string
		t      *Table
		gameNo string
		want   error
	}{
		{"the dice game has no hands", dice, "", ErrNoHand},
		{"a card game, from the table", cards, "", nil},
		{"a card game, its own view", cards, "1", nil},
		{"a view of an earlier game", cards, "2", ErrHandOver},
		{"a view of an earlier dice game", dice, "7", ErrHandOver},
	} {
		if err := Hand(c.t, c.gameNo); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("Hand, %s: %v, want %v", c.name, err, c.want)
		}
	}

	id := cards.GameID()
	if s := HandSeat(cards, "Ben", id); s != -1 {
		t.Errorf("HandSeat by name, not user ID: %d", s)
	}
	if s := HandSeat(cards, "ben", id); s != 1 {
		t.Errorf("HandSeat of ben: %d, want 1", s)
	}
	for name, s := range map[string]int{
		"no table":       HandSeat(nil, "ben", id),
		"another game":   HandSeat(cards, "ben", id+"x"),
		"not seated":     HandSeat(cards, "carl", id),
		"the dice game":  HandSeat(dice, "ben", dice.GameID()),
		"a lobby":        HandSeat(lobby("ben"), "ben", id),
		"after it ended": func() int { cards.Finish(t0); return HandSeat(cards, "ben", id) }(),
	} {
		if s != -1 {
			t.Errorf("HandSeat, %s: %d, want -1", name, s)
		}
	}
	gone := cardsAt(t, game.PhaseTake)
	if _, err := gone.Leave("ben", "ben", timing(t0)); err != nil {
		t.Fatal(err)
	}
	if s := HandSeat(gone, "ben", gone.GameID()); s != -1 {
		t.Errorf("HandSeat of a player who left (P2): %d", s)
	}

	if err := (Click{Table: "anna", User: "anna"}).Confirm(); err != nil {
		t.Errorf("Confirm by the asker: %v", err)
	}
	if err := (Click{Table: "anna", User: "ben"}).Confirm(); !errors.Is(err, ErrNotAsker) {
		t.Errorf("Confirm by another user: %v", err)
	}

	table := KeptRecord{Users: []string{"anna", ""}}
	private := KeptRecord{Users: []string{"anna"}, Private: true}
	for _, c := range []struct {
		name   string
		rec    KeptRecord
		viewer string
		want   bool
	}{
		{"a table game, a player", table, "anna", true},
		{"a table game, anybody of its place", table, "ben", true},
		{"a table game, the channel", table, "", true},
		{"a private game, its player", private, "anna", true},
		{"a private game, another user", private, "ben", false},
		{"a private game, the channel", private, "", false},
		{"a private game of a forgotten player, the channel", KeptRecord{Users: []string{""}, Private: true}, "", false},
	} {
		if got := c.rec.VisibleTo(c.viewer); got != c.want {
			t.Errorf("VisibleTo, %s: %v", c.name, got)
		}
	}
}

package session

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

var day = time.Date(2026, 11, 27, 23, 30, 0, 0, time.UTC)

func soloGame(name string) (*game.Game, error) {
	return game.New(game.Config{Variant: game.Dice, Players: []string{name}, Seed: [32]byte{7}})
}

// RULES D1 (SoloPlayers, the one-sheet setting): a private game is one seat, the solo
// dice game, running at once with no timer; its key and its results'
// place names the server, or outside servers the DM's channel.
func TestNewPrivate(t *testing.T) {
	for _, tc := range []struct {
		kind, guild, wantGuild string
		noHints                bool
	}{
		{PrivateSolo, "g1", "g1", false},
		{PrivateSolo, "", PlacePrefix + "dm1", false},
		{PrivateDaily, "g2", "g2", true},
	} {
		tb, err := NewPrivate(tc.kind, Player{UserID: "u1", Name: "Anna", Lang: "de", GuildID: tc.guild, ChannelID: "dm1"}, soloGame, day)
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		if tb.Stage != StagePlaying || tb.Private != tc.kind || tb.ChannelID != PrivateKey(tc.kind, "u1") || tb.GuildID != tc.wantGuild ||
			tb.NoHints != tc.noHints || !tb.Deadline.IsZero() || tb.Match != nil || len(tb.Seats) != 1 || tb.Seats[0].UserID != "u1" || tb.Lang != "de" {
			t.Errorf("%s in %q: %+v", tc.kind, tc.guild, tb)
		}
		if got := tb.Game.Waiting(); !slices.Equal(got, []int{0}) {
			t.Errorf("%s: waiting %v", tc.kind, got)
		}
	}
	if _, err := NewPrivate("duel", Player{UserID: "u1"}, soloGame, day); err == nil {
		t.Error("a private game of an unknown kind was dealt")
	}
	two := func(name string) (*game.Game, error) {
		return game.New(game.Config{Variant: game.Dice, Players: []string{name, "Ben"}})
	}
	if _, err := NewPrivate(PrivateSolo, Player{UserID: "u1"}, two, day); err == nil {
		t.Error("a private game of two seats was dealt")
	}
}

// The daily challenge: once a day, resumed while being played, a streak
// carried from the day before only if that day's was played to its end.
func TestDailyChoice(t *testing.T) {
	tbl := func(daily int, stage Stage, streak int) *Table {
		return &Table{Private: PrivateDaily, Daily: daily, Stage: stage, Streak: streak}
	}
	for _, tc := range []struct {
		name       string
		old        *Table
		want       DailyChoice
		wantStreak int
	}{
		{"none stored", nil, DailyDeal, 0},
		{"today's being played", tbl(300, StagePlaying, 4), DailyResume, 0},
		{"today's played", tbl(300, StageOver, 5), DailyDone, 0},
		{"yesterday's played", tbl(299, StageOver, 5), DailyDeal, 5},
		{"yesterday's unfinished", tbl(299, StagePlaying, 5), DailyDeal, 0},
		{"a missed day", tbl(298, StageOver, 5), DailyDeal, 0},
	} {
		c, s := Daily(tc.old, 300)
		if c != tc.want || s != tc.wantStreak {
			t.Errorf("%s: choice %d streak %d, want %d and %d", tc.name, c, s, tc.want, tc.wantStreak)
		}
	}
	if got := NextDaily(day); !got.Equal(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("next daily after %v: %v", day, got)
	}
}

// mapTables keeps guild settings in a map (the settings' part of Tables).
type mapTables struct {
	Tables
	mu sync.Mutex
	m  map[string][]byte
}

func (s *mapTables) GuildSettings(_ context.Context, g string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[g]
	return b, ok, nil
}

func (s *mapTables) PutGuildSettings(_ context.Context, g string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[g] = b
	return nil
}

// A server's turn timer: changed only by who may manage the server, only
// within its range; unreadable settings are the defaults.
func TestSettingsTurnTimeout(t *testing.T) {
	st := &mapTables{m: map[string][]byte{}}
	ctx := context.Background()
	def := 2 * time.Minute
	if got := LoadSettings(ctx, st, "g1").TurnTimeoutOr(def); got != def {
		t.Errorf("no settings: %v", got)
	}
	for _, tc := range []struct {
		d      time.Duration
		manage bool
		err    error
		after  time.Duration
	}{
		{time.Minute, false, ErrManageServer, def},
		{time.Second, true, ErrTimeoutRange, def},
		{25 * time.Hour, true, ErrTimeoutRange, def},
		{MinTurnTimeout, true, nil, MinTurnTimeout},
		{MaxTurnTimeout, true, nil, MaxTurnTimeout},
		{5 * time.Minute, false, ErrManageServer, MaxTurnTimeout},
	} {
		_, err := SetTurnTimeout(ctx, st, "g1", tc.d, tc.manage)
		if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
			t.Errorf("set %v (manage %v): %v, want %v", tc.d, tc.manage, err, tc.err)
		}
		if got := LoadSettings(ctx, st, "g1").TurnTimeoutOr(def); got != tc.after {
			t.Errorf("after setting %v: %v, want %v", tc.d, got, tc.after)
		}
	}
	if got := LoadSettings(ctx, st, "g2").TurnTimeoutOr(def); got != def {
		t.Errorf("another server: %v", got)
	}
	st.m["g3"] = []byte("{not json")
	if got := LoadSettings(ctx, st, "g3"); got != (Settings{}) {
		t.Errorf("unreadable settings: %+v", got)
	}
}

// A game's result is kept in its place and marked private when the game
// was: a DM's or group DM's table under the channel's place, a private
// game under the place it was started in, marked private; a table opened
// in a DM before places existed (LegacyDMPlace) is kept under its
// channel's place, and a private game of then stays with the legacy
// place, private.
func TestResultPlaceAndPrivacy(t *testing.T) {
	play := func(tb *Table) Finished {
		t.Helper()
		g, err := soloGame("Anna")
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			if err := g.Apply(game.Move{Kind: game.Pass}); err != nil {
				t.Fatal(err)
			}
		}
		tb.Game, tb.GameNo = g, 1
		tb.Seats = []Seat{{UserID: "u1", Name: "Anna"}}
		f, err := tb.Result(day)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, tc := range []struct {
		name      string
		tb        *Table
		place     string
		isPrivate bool
	}{
		{"server table", &Table{ID: "t1", GuildID: "g1", ChannelID: "c1"}, "g1", false},
		{"group DM table", &Table{ID: "t2", GuildID: Place("", "gdm1"), ChannelID: "gdm1"}, PlacePrefix + "gdm1", false},
		{"legacy DM table", &Table{ID: "t3", GuildID: LegacyDMPlace, ChannelID: "gdm2"}, PlacePrefix + "gdm2", false},
		{"private in a server", &Table{ID: "t4", GuildID: "g1", ChannelID: PrivateKey(PrivateSolo, "u1"), Private: PrivateSolo}, "g1", true},
		{"daily in a DM", &Table{ID: "t5", GuildID: Place("", "dm1"), ChannelID: PrivateKey(PrivateDaily, "u1"), Private: PrivateDaily, Daily: 3}, PlacePrefix + "dm1", true},
		{"legacy private", &Table{ID: "t6", GuildID: LegacyDMPlace, ChannelID: PrivateKey(PrivateSolo, "u1"), Private: PrivateSolo}, LegacyDMPlace, true},
	} {
		f := play(tc.tb)
		if f.Result.Guild != tc.place || f.Result.Private != tc.isPrivate {
			t.Errorf("%s: kept in %q, private %v; want %q, %v", tc.name, f.Result.Guild, f.Result.Private, tc.place, tc.isPrivate)
		}
	}
	if !SamePlace(LegacyDMPlace, "", "any") || SamePlace(LegacyDMPlace, "g1", "c1") || !SamePlace(PlacePrefix+"x", "", "x") || SamePlace(PlacePrefix+"x", "", "y") || SamePlace("g1", "g2", "c1") {
		t.Error("SamePlace")
	}
}

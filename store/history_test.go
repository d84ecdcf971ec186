package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
)

var histT0 = time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)

// playedGame plays a whole game with random legal moves and returns it
// with its record as the bot exports it (Game.Record, JSON).
func playedGame(t testing.TB, v game.Variant, names []string, seed byte) (*game.Game, []byte) {
	t.Helper()
	g, err := game.New(game.Config{Variant: v, Players: names, Seed: [32]byte{seed}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	for step := 0; !g.Over(); step++ {
		if step > 100000 {
			t.Fatal("game does not end")
		}
		for p := range names {
			if legal := g.LegalMoves(p); len(legal) > 0 {
				if err := g.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	rec, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	return g, rec
}

// resultOf makes the result of g as the bot would: seat i is users[i]
// ("" for a computer).
func resultOf(guild, id string, at time.Time, v game.Variant, g *game.Game, users []string) gamestats.Result {
	r := must(gamestats.FromGame(guild, id, at, g, users))
	if r.Variant != v {
		panic("variant")
	}
	return r
}

func simpleResult(guild string, min int, scores ...int) gamestats.Result {
	r := gamestats.Result{Guild: guild, GameID: fmt.Sprintf("game-%d", min), Time: histT0.Add(time.Duration(min) * time.Minute), Variant: game.Dice}
	for i, s := range scores {
		r.Seats = append(r.Seats, gamestats.Seat{UserID: fmt.Sprintf("u%d", i+1), Name: fmt.Sprintf("User %d", i+1), Score: s})
	}
	return r
}

func openWith(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "q.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSaveGameResultsAndRecords(t *testing.T) {
	s := openWith(t)
	s.now = func() time.Time { return histT0.Add(time.Hour) }
	g, rec := playedGame(t, game.Dice, []string{"Anna", "Ben", "🤖 Bot Emma (hard)"}, 1)
	r := resultOf("g1", "c1/1", histT0, game.Dice, g, []string{"1001", "1002", ""})
	if err := s.SaveGame(r, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendResult(simpleResult("g1", 5, 10, 20)); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Results("g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].GameID != "game-5" || !reflect.DeepEqual(rs[1], r) {
		t.Fatalf("Results = %+v, want game-5 then %+v", rs, r)
	}
	if rs, _ := s.Results("g2", 0); len(rs) != 0 {
		t.Errorf("another guild sees %d results", len(rs))
	}
	got, ok, err := s.Record("g1", "c1/1")
	if err != nil || !ok {
		t.Fatalf("Record = %v, %v", ok, err)
	}
	if got.GameID != "c1/1" || !got.Time.Equal(histT0) || !slices.Equal(got.Users, []string{"1001", "1002", ""}) {
		t.Errorf("record info %+v", got)
	}
	// The record replays as it is, to the same scores.
	parsed, err := game.ParseRecord(got.JSON)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := game.Replay(parsed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(replayed.Scores(), g.Scores()) || !replayed.Over() {
		t.Errorf("replayed scores %v (over %v), played %v", replayed.Scores(), replayed.Over(), g.Scores())
	}
	if newest, ok, err := s.Record("g1", ""); err != nil || !ok || newest.GameID != "c1/1" {
		t.Errorf("newest record = %q, %v, %v", newest.GameID, ok, err)
	}
	if _, ok, err := s.Record("g1", "nope"); ok || err != nil {
		t.Errorf("missing record: %v, %v", ok, err)
	}
	if _, ok, err := s.Record("g2", ""); ok || err != nil {
		t.Errorf("guild without records: %v, %v", ok, err)
	}

	// Refused: an invalid result, a record that does not match it.
	bad := r
	bad.Guild = ""
	if err := s.SaveGame(bad, nil); !errors.Is(err, gamestats.ErrInvalid) {
		t.Errorf("invalid result: %v", err)
	}
	other := r
	other.Seats = slices.Clone(r.Seats)
	other.Seats[1].Name = "Bert"
	if err := s.SaveGame(other, rec); err == nil || !strings.Contains(err.Error(), "Bert") {
		t.Errorf("record with other names: %v", err)
	}
	noID := r
	noID.GameID = ""
	if err := s.SaveGame(noID, rec); err == nil {
		t.Error("record without a game ID accepted")
	}
	if err := s.SaveGame(r, []byte(`{"format":"qwixx-record"}`)); err == nil {
		t.Error("broken record accepted")
	}
	if rs, _ := s.Results("g1", 0); len(rs) != 2 {
		t.Errorf("refused saves left %d results, want 2", len(rs))
	}
}

func TestRetentionCapsAndAges(t *testing.T) {
	s := openWith(t, WithRetention(Retention{ResultsPerGuild: 5, RecordsPerGuild: 3, ResultMaxAge: 48 * time.Hour, RecordMaxAge: 24 * time.Hour}))
	now := histT0
	s.now = func() time.Time { return now }
	_, rec := playedGame(t, game.Cards, []string{"User 1", "User 2"}, 2)
	for i := range 8 {
		r := simpleResult("g1", i, 10+i, 5)
		if err := s.SaveGame(r, recordFor(t, rec, r)); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := s.Results("g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if ids := gameIDs(rs); !slices.Equal(ids, []string{"game-7", "game-6", "game-5", "game-4", "game-3"}) {
		t.Errorf("capped results %v", ids)
	}
	infos, err := s.Records("g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 3 || infos[0].GameID != "game-7" || infos[2].GameID != "game-5" || !infos[0].Time.Equal(histT0.Add(7*time.Minute)) {
		t.Errorf("capped records %+v", infos)
	}
	if _, ok, _ := s.Record("g1", "game-4"); ok {
		t.Error("a record beyond the cap is still there")
	}
	// 30 hours on, a save drops the records older than a day; results
	// live two days.
	now = histT0.Add(30 * time.Hour)
	r := simpleResult("g1", 30*60, 1, 2)
	if err := s.SaveGame(r, nil); err != nil {
		t.Fatal(err)
	}
	if infos, _ := s.Records("g1", 0); len(infos) != 3 {
		t.Errorf("a save without a record pruned records: %+v", infos)
	}
	rep, err := s.Sweep(now)
	if err != nil {
		t.Fatal(err)
	}
	if infos, _ := s.Records("g1", 0); len(infos) != 0 || rep.Records != 3 || rep.Results != 0 {
		t.Errorf("after a day: records %+v, sweep %+v", infos, rep)
	}
	now = histT0.Add(49 * time.Hour)
	if err := s.SaveGame(simpleResult("g1", 49*60, 1, 2), nil); err != nil {
		t.Fatal(err)
	}
	if ids := gameIDs(must(s.Results("g1", 0))); !slices.Equal(ids, []string{"game-2940", "game-1800"}) {
		t.Errorf("after two days: %v", ids)
	}
	// Nothing to drop: Sweep writes nothing.
	before := s.Stats().Commits
	if rep, err := s.Sweep(now); err != nil || !reflect.DeepEqual(rep, SweepReport{}) {
		t.Errorf("idle sweep %+v, %v", rep, err)
	}
	if s.Stats().Commits != before {
		t.Error("an idle sweep committed")
	}
	if d := DefaultRetention(); d.ResultsPerGuild != DefaultResultsPerGuild || d.GuildGrace != DefaultGuildGrace || openWith(t).Retention() != d {
		t.Errorf("defaults %+v", d)
	}
}

// recordFor renames rec's players to r's seat names (the bot's record and
// result name the same players).
func recordFor(t *testing.T, rec []byte, r gamestats.Result) []byte {
	t.Helper()
	p, err := game.ParseRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range r.Seats {
		renamePlayer(p, i, st.Name)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gameIDs(rs []gamestats.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.GameID)
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestDeleteUserForgetsAndKeepsRecordsReplayable(t *testing.T) {
	s := openWith(t)
	s.now = func() time.Time { return histT0 }
	type saved struct {
		guild, id string
		g         *game.Game
		users     []string
	}
	var games []saved
	for i, v := range gamestats.Variants {
		// Ben is in every game; in g1 a seat is already called "Player 2".
		names := []string{"Anna", "Ben", "Player 2"}
		users := []string{"1", "2", "3"}
		if v == game.Jokers {
			names, users = []string{"Ben", "🤖 Bot Emma (hard)"}, []string{"2", ""}
		}
		for _, guild := range []string{"g1", "g2"} {
			g, rec := playedGame(t, v, names, byte(10+i))
			id := fmt.Sprintf("%s-%d", guild, i)
			if err := s.SaveGame(resultOf(guild, id, histT0.Add(time.Duration(i)*time.Minute), v, g, users), rec); err != nil {
				t.Fatal(err)
			}
			games = append(games, saved{guild, id, g, users})
		}
	}
	annaBefore := gamestats.ForUser(must(s.Results("g1", 0)), "1", 10)

	f, err := s.DeleteUser("g1", "2")
	if err != nil {
		t.Fatal(err)
	}
	if f != (Forgotten{Results: 3, Records: 3}) {
		t.Errorf("forgotten %+v, want 3 results and 3 records", f)
	}
	rs := must(s.Results("g1", 0))
	if st := gamestats.ForUser(rs, "2", 10); st.All.Games != 0 {
		t.Errorf("Ben still has stats in g1: %+v", st.All)
	}
	annaAfter := gamestats.ForUser(rs, "1", 10)
	if annaAfter.All != annaBefore.All || annaAfter.ByVariant != annaBefore.ByVariant {
		t.Errorf("Anna's stats changed: %+v, was %+v", annaAfter.All, annaBefore.All)
	}
	for _, r := range rs {
		for _, st := range r.Seats {
			if st.Name == "Ben" || st.UserID == "2" {
				t.Errorf("result %s still names Ben: %+v", r.GameID, r.Seats)
			}
		}
	}
	if st := gamestats.ForUser(must(s.Results("g2", 0)), "2", 10); st.All.Games != 3 {
		t.Errorf("Ben lost %d games in g2, which was not asked", 3-st.All.Games)
	}
	for _, sg := range games {
		gr, ok, err := s.Record(sg.guild, sg.id)
		if err != nil || !ok {
			t.Fatalf("record %s: %v, %v", sg.id, ok, err)
		}
		hasBen := bytes.Contains(gr.JSON, []byte(`"Ben"`))
		if hasBen != (sg.guild == "g2") {
			t.Errorf("record %s names Ben: %v", sg.id, hasBen)
		}
		parsed, err := game.ParseRecord(gr.JSON)
		if err != nil {
			t.Fatalf("record %s no longer parses: %v", sg.id, err)
		}
		replayed, err := game.Replay(parsed)
		if err != nil {
			t.Fatalf("record %s no longer replays: %v", sg.id, err)
		}
		if !slices.Equal(replayed.Scores(), sg.g.Scores()) {
			t.Errorf("record %s replays to %v, played %v", sg.id, replayed.Scores(), sg.g.Scores())
		}
		if sg.guild == "g1" {
			seat := slices.Index(sg.users, "2")
			want := "Player 2 (2)"
			if len(sg.users) == 2 {
				want = "Player 1"
			}
			if got := replayed.Players()[seat]; got != want || gr.Users[seat] != "" {
				t.Errorf("record %s: seat %d is %q (user %q), want %q", sg.id, seat, got, gr.Users[seat], want)
			}
			// The result names the seat the same way.
			r := rs[slices.IndexFunc(rs, func(r gamestats.Result) bool { return r.GameID == sg.id })]
			if r.Seats[seat].Name != want || r.Seats[seat].Computer {
				t.Errorf("result %s: seat %+v, want %q", sg.id, r.Seats[seat], want)
			}
		}
	}
	// Again: nothing left to forget, nothing written.
	before := s.Stats().Commits
	if f, err := s.DeleteUser("g1", "2"); err != nil || f != (Forgotten{}) || s.Stats().Commits != before {
		t.Errorf("second DeleteUser: %+v, %v", f, err)
	}
	// Every guild at once.
	if f, err := s.DeleteUser("", "2"); err != nil || f != (Forgotten{Results: 3, Records: 3}) {
		t.Errorf("DeleteUser in every guild: %+v, %v", f, err)
	}
	if st := gamestats.ForUser(must(s.Results("g2", 0)), "2", 10); st.All.Games != 0 {
		t.Error("Ben still has stats in g2")
	}
}

func TestGuildLeftGraceAndSweep(t *testing.T) {
	s := openWith(t, WithRetention(Retention{GuildGrace: 7 * 24 * time.Hour}))
	s.now = func() time.Time { return histT0 }
	_, rec := playedGame(t, game.Dice, []string{"User 1", "User 2"}, 3)
	for _, g := range []string{"gone", "stays"} {
		r := simpleResult(g, 0, 3, 4)
		if err := s.SaveGame(r, rec); err != nil {
			t.Fatal(err)
		}
		if err := s.PutGuildSettings(g, []byte("settings")); err != nil {
			t.Fatal(err)
		}
	}
	left := histT0.Add(time.Hour)
	if err := s.GuildLeft("gone", left); err != nil {
		t.Fatal(err)
	}
	if err := s.GuildLeft("gone", left.Add(time.Hour)); err != nil { // keeps the first time
		t.Fatal(err)
	}
	if m, err := s.LeftGuilds(); err != nil || len(m) != 1 || !m["gone"].Equal(left) {
		t.Errorf("LeftGuilds = %v, %v", m, err)
	}
	// Within the grace nothing goes.
	if rep, err := s.Sweep(left.Add(6 * 24 * time.Hour)); err != nil || len(rep.Purged) != 0 {
		t.Errorf("sweep within the grace: %+v, %v", rep, err)
	}
	// Back, then gone again: the grace starts anew.
	if was, err := s.GuildBack("gone"); err != nil || !was {
		t.Errorf("GuildBack = %v, %v", was, err)
	}
	if was, err := s.GuildBack("gone"); err != nil || was {
		t.Errorf("second GuildBack = %v, %v", was, err)
	}
	if rep, _ := s.Sweep(left.Add(8 * 24 * time.Hour)); len(rep.Purged) != 0 {
		t.Errorf("a guild that came back was purged: %+v", rep)
	}
	// A saved game clears a mark too.
	if err := s.GuildLeft("stays", left); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendResult(simpleResult("stays", 1, 5, 6)); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.LeftGuilds(); len(m) != 0 {
		t.Errorf("marks after a saved game: %v", m)
	}
	left2 := left.Add(10 * 24 * time.Hour)
	if err := s.GuildLeft("gone", left2); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Sweep(left2.Add(7 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Purged, []string{"gone"}) {
		t.Errorf("purged %v, want [gone]", rep.Purged)
	}
	if rs, err := s.Results("gone", 0); err != nil || len(rs) != 0 {
		t.Errorf("results of a purged guild: %d, %v", len(rs), err)
	}
	if _, ok, _ := s.Record("gone", ""); ok {
		t.Error("a purged guild's record is still there")
	}
	if _, ok, _ := s.GuildSettings("gone"); ok {
		t.Error("a purged guild's settings are still there")
	}
	if rs, _ := s.Results("stays", 0); len(rs) != 2 {
		t.Errorf("the other guild has %d results, want 2", len(rs))
	}
	if _, ok, _ := s.Record("stays", ""); !ok {
		t.Error("the other guild lost its record")
	}
	if m, _ := s.LeftGuilds(); len(m) != 0 {
		t.Errorf("marks after the purge: %v", m)
	}
}

// TestSaveGameReplacesARecord: a record saved again under its game ID
// replaces the first, even with another end time.
func TestSaveGameReplacesARecord(t *testing.T) {
	s := openWith(t)
	s.now = func() time.Time { return histT0 }
	g1, rec1 := playedGame(t, game.Dice, []string{"User 1", "User 2"}, 4)
	_, rec2 := playedGame(t, game.Dice, []string{"User 1", "User 2"}, 5)
	r := resultOf("g", "same", histT0, game.Dice, g1, []string{"u1", "u2"})
	if err := s.SaveGame(r, rec1); err != nil {
		t.Fatal(err)
	}
	r.Time = histT0.Add(time.Minute)
	if err := s.SaveGame(r, rec2); err != nil {
		t.Fatal(err)
	}
	infos, err := s.Records("g", 0)
	if err != nil || len(infos) != 1 || !infos[0].Time.Equal(r.Time) {
		t.Fatalf("Records = %+v, %v; want the second save alone", infos, err)
	}
	got, _, _ := s.Record("g", "same")
	if !bytes.Equal(got.JSON, compactJSON(t, rec2)) {
		t.Error("the record kept is not the second one")
	}
}

func compactJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDeleteUserDeletesUnreadable: a value DeleteUser cannot read might
// hold the user: it goes.
func TestDeleteUserDeletesUnreadable(t *testing.T) {
	s := openWith(t)
	s.now = func() time.Time { return histT0 }
	for i := range 3 {
		if err := s.AppendResult(simpleResult("g", i, 1, 2)); err != nil {
			t.Fatal(err)
		}
	}
	raw := getRaw(t, s, "results/g", seqKey(2))
	raw[len(raw)-1] ^= 1
	putRaw(t, s, "results/g", seqKey(2), raw)
	if _, err := s.Results("g", 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damage not seen: %v", err)
	}
	f, err := s.DeleteUser("g", "u1")
	if err != nil || f != (Forgotten{Results: 2, Unreadable: 1}) {
		t.Errorf("DeleteUser = %+v, %v; want 2 results and 1 unreadable", f, err)
	}
	rs, err := s.Results("g", 0)
	if err != nil || len(rs) != 2 {
		t.Errorf("after: %d results, %v", len(rs), err)
	}
}

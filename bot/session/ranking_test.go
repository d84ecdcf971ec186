package session

import (
	"slices"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game/stats"
)

// The daily challenge's ranking: only who finished that day's challenge
// among the place's results sees it; best score first, the earlier
// finish first among equal scores, which share a place (as RULES P3's
// ties); other days, table games of several seats and other games are
// not in it; at most DailyTop rows.
func TestDailyRankingWhoAndOrder(t *testing.T) {
	day := 7
	res := func(id string, user string, score int, minute int) stats.Result {
		return stats.Result{Guild: "g", GameID: id, Time: t0.Add(time.Duration(minute) * time.Minute),
			Seats: []stats.Seat{{UserID: user, Name: "N" + user, Score: score}}, Private: true}
	}
	results := []stats.Result{
		res(DailyGameID(day, "a"), "anna", 30, 5),
		res(DailyGameID(day, "b"), "ben", 42, 9),
		res(DailyGameID(day, "c"), "cleo", 30, 1), // ties anna, earlier
		res(DailyGameID(day-1, "d"), "dora", 99, 0),
		res("tbl-1", "emil", 80, 0),
		res(DailyGameID(day, "f"), "fred", 10, 2),
		res(DailyGameID(day, "g"), "gus", 5, 3),
		res(DailyGameID(day, "h"), "hal", 1, 4),
	}
	table := stats.Result{Guild: "g", GameID: DailyGameID(day, "x"), Time: t0,
		Seats: []stats.Seat{{UserID: "ivy", Name: "Ivy", Score: 70}, {UserID: "jon", Name: "Jon", Score: 60}}}
	results = append(results, table)
	tb := &Table{GuildID: "g", Daily: day}

	cases := []struct {
		user       string
		rank, of   int
		firstNames []string
	}{
		{"ben", 1, 6, []string{"Nben", "Ncleo", "Nanna", "Nfred", "Ngus"}},
		{"anna", 2, 6, nil},
		{"cleo", 2, 6, nil},
		{"hal", 6, 6, nil},
		{"dora", 0, 0, nil}, // played another day: sees nothing
		{"emil", 0, 0, nil}, // played a table game: sees nothing
		{"ivy", 0, 0, nil},  // a result of several seats is not a daily's
		{"zed", 0, 0, nil},  // did not play
		{"", 0, 0, nil},     // a forgotten player is nobody
	}
	for _, c := range cases {
		rank, of, top := tb.DailyRanking(results, c.user)
		if rank != c.rank || of != c.of {
			t.Errorf("%s: %d of %d, want %d of %d", c.user, rank, of, c.rank, c.of)
		}
		if c.rank == 0 {
			if top != nil {
				t.Errorf("%s, who did not finish the day here, sees %v", c.user, top)
			}
			continue
		}
		if len(top) != DailyTop {
			t.Errorf("%s sees %d rows, want %d", c.user, len(top), DailyTop)
		}
		if c.firstNames != nil {
			var names []string
			for _, r := range top {
				names = append(names, r.Name)
			}
			if !slices.Equal(names, c.firstNames) {
				t.Errorf("order %v, want %v", names, c.firstNames)
			}
			places := []int{top[0].Place, top[1].Place, top[2].Place, top[3].Place}
			if !slices.Equal(places, []int{1, 2, 2, 4}) || top[1].Score != 30 {
				t.Errorf("places %v (equal scores share one), rows %v", places, top)
			}
		}
	}
	if !tb.DailyRanked() || (&Table{GuildID: LegacyDMPlace}).DailyRanked() {
		t.Error("DailyRanked: a place is ranked, the legacy DM place is not")
	}
}

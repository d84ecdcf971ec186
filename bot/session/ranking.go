package session

import (
	"slices"
	"strings"

	"github.com/qwixxbot/qwixxbot/game/stats"
)

// DailyTop is how many players a daily challenge's ranking lists.
const DailyTop = 5

// RankRow is a line of a daily challenge's ranking: the place (equal
// scores share one), the player's name as the result keeps it, and the
// score.
type RankRow struct {
	Place int
	Name  string
	Score int
}

// DailyRanked reports whether t's daily challenge can be ranked: it was
// played where a place is kept (not under an earlier version's one DM
// place, which mixes everybody's DMs).
func (t *Table) DailyRanked() bool { return t.GuildID != LegacyDMPlace }

// DailyRanking is user's place among the players of t's daily challenge
// in the results of t's place (its server, DM or group DM): the day's
// one-seat results, best score first, the earlier finish first among
// equal scores, which share a place; how many played it; and the first
// DailyTop rows.
//
// A daily challenge is private, its record its player's alone; its score
// and name (nothing of its dice) are shown in this ranking, and only to
// who has finished the same challenge in the same place: the ranking is
// empty (0, 0, nil) for a user without their own result of the day
// among results. So the ranking gives away nothing of the day's dice,
// and nothing to who has not played them (as a Wordle-like game's
// friends' scores).
func (t *Table) DailyRanking(results []stats.Result, user string) (rank, of int, top []RankRow) {
	prefix := DailyGameID(t.Daily, "")
	var day []stats.Result
	for _, res := range results {
		if strings.HasPrefix(res.GameID, prefix) && len(res.Seats) == 1 {
			day = append(day, res)
		}
	}
	slices.SortStableFunc(day, func(a, c stats.Result) int {
		if a.Seats[0].Score != c.Seats[0].Score {
			return c.Seats[0].Score - a.Seats[0].Score
		}
		return a.Time.Compare(c.Time)
	})
	place := 0
	for i, res := range day {
		if i == 0 || res.Seats[0].Score != day[i-1].Seats[0].Score {
			place = i + 1
		}
		if res.Seats[0].UserID == user && rank == 0 {
			rank = place
		}
		if i < DailyTop {
			top = append(top, RankRow{Place: place, Name: res.Seats[0].Name, Score: res.Seats[0].Score})
		}
	}
	if rank == 0 {
		return 0, 0, nil // not finished here by this user: nothing to see
	}
	return rank, len(day), top
}

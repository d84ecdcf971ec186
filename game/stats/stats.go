package stats

import (
	"cmp"
	"slices"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// Summary sums up a player's games.
type Summary struct {
	// Games is the number of games played.
	Games int
	// Wins counts the games the player won, shared wins included.
	Wins int
	// SharedWins is how many of Wins were shared with others.
	SharedWins int
	// WinShare is the share of games won, a win shared among k players
	// counting 1/k (as the arena counts them): 0 to 1.
	WinShare float64
	// MeanScore is the mean final score; BestScore the highest.
	MeanScore float64
	BestScore int

	shares float64 // Σ 1/k over the wins
	total  int     // Σ score
}

func (s *Summary) add(score, rank, winners int) {
	if s.Games == 0 || score > s.BestScore {
		s.BestScore = score
	}
	s.Games++
	s.total += score
	if rank == 1 {
		s.Wins++
		if winners > 1 {
			s.SharedWins++
		}
		s.shares += 1 / float64(winners)
	}
	s.MeanScore = float64(s.total) / float64(s.Games)
	s.WinShare = s.shares / float64(s.Games)
}

// Variants is every variant, in the order statistics list them.
var Variants = []game.Variant{game.Dice, game.Cards, game.Jokers}

// PlayedGame is one game in a player's recent games.
type PlayedGame struct {
	Result
	// Seat is the player's seat in Result.Seats.
	Seat int
	// Rank is the player's place (1 = won; shared places are equal).
	Rank int
}

// UserStats are one player's statistics in one guild.
type UserStats struct {
	UserID string
	// Name is the name the player had in their latest game.
	Name string
	// All sums up every game; ByVariant each variant with games (indexed
	// by game.Variant; the zero entry is unused).
	All       Summary
	ByVariant [game.Jokers + 1]Summary
	// Solo sums up the player's solo games (one seat: /qwixx solo and the
	// daily challenge). They are in no other summary, in no recent games
	// and on no leaderboard: a game without opponents is always won.
	Solo Summary
	// Recent are the player's latest games, newest first.
	Recent []PlayedGame
}

// ForUser computes userID's statistics from a guild's results, with the
// last recent games (none when recent <= 0). The results may come in any
// order; ties in time keep their order.
func ForUser(results []Result, userID string, recent int) UserStats {
	st := UserStats{UserID: userID}
	var latest PlayedGame
	var (
		soloName string
		soloAt   time.Time
	)
	for _, r := range results {
		i := r.Seat(userID)
		if i < 0 {
			continue
		}
		if r.Solo() {
			if st.Solo.Games == 0 || !r.Time.Before(soloAt) {
				soloName, soloAt = r.Seats[i].Name, r.Time
			}
			st.Solo.add(r.Seats[i].Score, 1, 1)
			continue
		}
		rank, winners := r.Rank(i), r.Winners()
		st.All.add(r.Seats[i].Score, rank, winners)
		if r.Variant >= game.Dice && r.Variant <= game.Jokers {
			st.ByVariant[r.Variant].add(r.Seats[i].Score, rank, winners)
		}
		pg := PlayedGame{Result: r, Seat: i, Rank: rank}
		if st.All.Games == 1 || !r.Time.Before(latest.Time) {
			latest = pg
		}
		if recent > 0 {
			st.Recent = append(st.Recent, pg)
		}
	}
	if st.All.Games > 0 {
		st.Name = latest.Seats[latest.Seat].Name
	}
	if st.Solo.Games > 0 && (st.All.Games == 0 || soloAt.After(latest.Time)) {
		st.Name = soloName
	}
	slices.SortStableFunc(st.Recent, func(a, b PlayedGame) int { return b.Time.Compare(a.Time) })
	if len(st.Recent) > recent {
		st.Recent = slices.Clip(st.Recent[:recent])
	}
	return st
}

// Chronological returns results sorted oldest first (a copy if they are
// not already in that order). Ratings depend on the order of games.
// Results newest first, as the store gives them, are reversed.
func Chronological(results []Result) []Result {
	if slices.IsSortedFunc(results, byTime) {
		return results
	}
	out := slices.Clone(results)
	if slices.IsSortedFunc(results, func(a, b Result) int { return byTime(b, a) }) {
		slices.Reverse(out)
		// Equal times keep their given order, as a stable sort would.
		for i := 0; i < len(out); {
			j := i + 1
			for j < len(out) && out[j].Time.Equal(out[i].Time) {
				j++
			}
			slices.Reverse(out[i:j])
			i = j
		}
		return out
	}
	slices.SortStableFunc(out, byTime)
	return out
}

func byTime(a, b Result) int { return a.Time.Compare(b.Time) }

// hasEqualTimes reports whether two neighbours of sorted results have the
// same time (whose order a reversal would change).
func hasEqualTimes(rs []Result) bool {
	for i := 1; i < len(rs); i++ {
		if rs[i].Time.Equal(rs[i-1].Time) {
			return true
		}
	}
	return false
}

// DefaultMinGames is the MinGames of a zero LeaderboardOptions.
const DefaultMinGames = 3

// LeaderboardOptions choose what Leaders ranks.
type LeaderboardOptions struct {
	// Variant limits the board to one variant; 0 means every game, with
	// one rating across variants.
	Variant game.Variant
	// Computers lists computer players among the ranked players. They
	// always count as opponents in the ratings.
	Computers bool
	// MinGames is how many games a player needs to be ranked; players with
	// fewer are listed after the ranked ones, unranked. 0 means
	// DefaultMinGames; a negative value ranks everybody.
	MinGames int
}

// Entry is one player on a leaderboard.
type Entry struct {
	// Rank is the place on the board (1 = top; equal ordinals share a
	// place); 0 for a player below MinGames.
	Rank int
	// UserID is the Discord user; empty for computer players.
	UserID string
	// Name is the latest name; Computer marks a computer player, which is
	// its Level: one entry per level, whatever names it played under (a
	// computer of a result kept before levels were, Level "", is keyed by
	// its name and rated, but not listed: its level is unknown).
	Name     string
	Computer bool
	Level    string
	// Rating is the skill estimate after the player's last game; the
	// board is sorted by Rating.Ordinal().
	Rating Rating
	Summary
}

// Board is a guild's leaderboard.
type Board struct {
	// Entries are the ranked players by ordinal, highest first, then the
	// unranked ones (fewer than MinGames games) by ordinal.
	Entries []Entry
	// MinGames is the minimum number of games that was applied (0 when
	// everybody is ranked).
	MinGames int
	// Games is the number of games the board was computed from.
	Games int
}

// Leaders ranks a guild's players by the conservative estimate of their
// Plackett-Luce rating (Rating.Ordinal, μ − 3σ) after every game of the
// chosen variant in time order. Every seat of a game counts in the rating,
// computer players and forgotten players (each a new, unknown player)
// included; the board lists the humans, and the computers when asked.
func Leaders(results []Result, opt LeaderboardOptions) Board {
	minGames := opt.MinGames
	switch {
	case minGames == 0:
		minGames = DefaultMinGames
	case minGames < 0:
		minGames = 0
	}
	rt := rater{humans: map[string]*player{}, computers: map[string]*player{}, unleveled: map[string]*player{}}
	// Oldest first: the store's newest-first order is walked backwards
	// rather than copied.
	ordered, step := results, 1
	if len(results) > 1 && results[0].Time.After(results[len(results)-1].Time) &&
		slices.IsSortedFunc(results, func(a, b Result) int { return byTime(b, a) }) &&
		!hasEqualTimes(results) {
		step = -1
	} else {
		ordered = Chronological(results)
	}
	for j := range ordered {
		r := &ordered[j]
		if step < 0 {
			r = &ordered[len(ordered)-1-j]
		}
		if opt.Variant != 0 && r.Variant != opt.Variant {
			continue
		}
		if len(r.Seats) > MaxSeats || r.Solo() {
			continue // not a valid result, or a solo game (no opponents to rate against)
		}
		rt.rate(r)
	}
	b := Board{MinGames: minGames, Games: rt.games}
	listed := []map[string]*player{rt.humans}
	if opt.Computers {
		listed = append(listed, rt.computers)
	}
	for _, m := range listed {
		for _, p := range m {
			e := p.entry
			e.Rating = p.rating
			b.Entries = append(b.Entries, e)
		}
	}
	rankEntries(b.Entries, minGames)
	return b
}

// rater is the players and their ratings while Leaders goes through the
// games, oldest first, and its memory for one game's seats.
type rater struct {
	humans    map[string]*player // by user ID
	computers map[string]*player // by level
	unleveled map[string]*player // computers of old results, by name
	games     int                // games rated

	before, after [MaxSeats]Rating
	scores        [MaxSeats]int
	ranks         [MaxSeats]int
	seated        [MaxSeats]*player
}

// rate counts one game (of at most MaxSeats seats) in its players'
// entries and ratings.
func (rt *rater) rate(r *Result) {
	n := len(r.Seats)
	rt.games++
	winners := 0
	for i, s := range r.Seats {
		rt.scores[i] = s.Score
		rt.ranks[i] = 1
		for _, o := range r.Seats {
			if o.Score > s.Score {
				rt.ranks[i]++
			}
		}
		if rt.ranks[i] == 1 {
			winners++
		}
	}
	for i, s := range r.Seats {
		p := rt.player(s)
		if p == nil { // a forgotten player is nobody
			rt.seated[i], rt.before[i] = nil, NewRating()
			continue
		}
		p.entry.Name = s.Name
		p.entry.add(s.Score, rt.ranks[i], winners)
		rt.seated[i], rt.before[i] = p, p.rating
	}
	rateInto(rt.after[:n], rt.before[:n], rt.scores[:n])
	for i, p := range rt.seated[:n] {
		if p != nil {
			p.rating = rt.after[i]
		}
	}
}

// player returns the player of a seat, new if not met before, or nil for a
// forgotten player.
func (rt *rater) player(s Seat) *player {
	var m map[string]*player
	var k string
	switch {
	case s.UserID != "":
		m, k = rt.humans, s.UserID
	case s.Computer && s.Level != "":
		m, k = rt.computers, "level:"+s.Level
	case s.Computer:
		m, k = rt.unleveled, s.Name
	default:
		return nil
	}
	p := m[k]
	if p == nil {
		p = &player{entry: Entry{UserID: s.UserID, Computer: s.Computer, Level: s.Level}, rating: NewRating()}
		m[k] = p
	}
	return p
}

// rankEntries sorts a board's entries (the ranked ones by ordinal, highest
// first, then the unranked ones) and gives them their places.
func rankEntries(entries []Entry, minGames int) {
	slices.SortFunc(entries, func(x, y Entry) int {
		xq, yq := x.Games >= minGames, y.Games >= minGames
		if xq != yq {
			if xq {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(y.Rating.Ordinal(), x.Rating.Ordinal()); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Games, x.Games); c != 0 {
			return c
		}
		return cmp.Compare(x.Name+x.UserID, y.Name+y.UserID)
	})
	for i := range entries {
		e := &entries[i]
		switch {
		case e.Games < minGames:
			e.Rank = 0
		case i > 0 && entries[i-1].Rank > 0 && entries[i-1].Rating.Ordinal() == e.Rating.Ordinal():
			e.Rank = entries[i-1].Rank
		default:
			e.Rank = i + 1
		}
	}
}

// player is a player's entry and rating while Leaders goes through the
// games.
type player struct {
	entry  Entry
	rating Rating
}

package game

import (
	"errors"
	"fmt"
	"slices"
)

// MaxMatchGames is the number of results a score sheet has room for (D11).
const MaxMatchGames = 5

// Match is a series of 1 to 5 games played by the same players, with each
// game's scores and the running totals (D11).
type Match struct {
	Players []string `json:"players"`
	Games   int      `json:"games"`   // games planned, 1…5
	Results [][]int  `json:"results"` // Results[i][p]: player p's total in game i+1
}

// NewMatch plans a series of games for these players.
func NewMatch(players []string, games int) (*Match, error) {
	if err := checkPlayers(Cards, players); err != nil { // matches are for tables of 2–5
		return nil, err
	}
	if games < 1 || games > MaxMatchGames {
		return nil, fmt.Errorf("game: a match has 1 to %d games, not %d", MaxMatchGames, games)
	}
	return &Match{Players: slices.Clone(players), Games: games}, nil
}

// Add records the totals of the next game, in the match's seat order.
func (m *Match) Add(scores []int) error {
	if m.Done() {
		return errors.New("game: the match is complete")
	}
	if len(scores) != len(m.Players) {
		return fmt.Errorf("game: %d scores for %d players", len(scores), len(m.Players))
	}
	m.Results = append(m.Results, slices.Clone(scores))
	return nil
}

// AddGame records the totals of a finished game played by the same players.
func (m *Match) AddGame(g *Game) error {
	if !g.Over() {
		return errors.New("game: the game is not over")
	}
	if !slices.Equal(g.st.Players, m.Players) {
		return errors.New("game: the game was played by other players")
	}
	return m.Add(g.Scores())
}

// Played is the number of games recorded.
func (m *Match) Played() int { return len(m.Results) }

// Done reports whether every planned game has been recorded.
func (m *Match) Done() bool { return len(m.Results) >= m.Games }

// Totals are the running totals after the games recorded so far.
func (m *Match) Totals() []int {
	t := make([]int, len(m.Players))
	for _, r := range m.Results {
		for p, s := range r {
			t[p] += s
		}
	}
	return t
}

// Leaders lists the seats with the highest running total (ties share).
func (m *Match) Leaders() []int { return Winners(m.Totals()) }

package game

// Summary is a game's state as plain data for people and tools: every
// sheet with its crossed numbers and scores, whose turn it is, and the
// winners once the game is over. `qwixxbot replay` prints it as JSON.
type Summary struct {
	Variant string          `json:"variant"`
	Turn    int             `json:"turn"`
	Phase   string          `json:"phase"`
	Active  string          `json:"active"`
	Over    bool            `json:"over"`
	End     string          `json:"end,omitempty"` // "locks" or "misthrows"
	Closed  []string        `json:"closed,omitempty"`
	Players []PlayerSummary `json:"players"`
	// Winners are the players with the highest total (ties share, D10);
	// while the game runs, the current leaders.
	Winners []string `json:"winners"`
}

// PlayerSummary is one player's sheet.
type PlayerSummary struct {
	Name      string                `json:"name"`
	Rows      map[string]RowSummary `json:"rows"`
	Misthrows int                   `json:"misthrows"`
	Score     int                   `json:"score"`
}

// RowSummary is one row: the numbers crossed left to right, whether the lock
// is crossed, the number of crosses (the lock included) and the row's score.
type RowSummary struct {
	Crossed []int `json:"crossed"`
	Locked  bool  `json:"locked"`
	Crosses int   `json:"crosses"`
	Score   int   `json:"score"`
}

// Summarize describes the game as plain data.
func (g *Game) Summarize() Summary {
	s := &g.st
	out := Summary{
		Variant: s.Variant.String(),
		Turn:    s.Turn,
		Phase:   s.Phase.String(),
		Active:  s.Players[s.Active],
		Over:    s.Phase == PhaseOver,
		Players: make([]PlayerSummary, len(s.Players)),
	}
	switch s.End {
	case EndLocks:
		out.End = "locks"
	case EndMisthrows:
		out.End = "misthrows"
	}
	for _, c := range Colors {
		if s.Closed[c] {
			out.Closed = append(out.Closed, c.String())
		}
	}
	for p, sh := range s.Sheets {
		ps := PlayerSummary{Name: s.Players[p], Rows: map[string]RowSummary{}, Misthrows: sh.Misthrows, Score: sh.Score()}
		for _, c := range Colors {
			r := sh.Rows[c]
			rs := RowSummary{Crossed: []int{}, Locked: r.Locked(), Crosses: r.Count(), Score: r.Score()}
			for pos := 0; pos <= LastPos; pos++ {
				if r.Crossed(pos) {
					rs.Crossed = append(rs.Crossed, NumberAt(c, pos))
				}
			}
			ps.Rows[c.String()] = rs
		}
		out.Players[p] = ps
	}
	for _, w := range g.Winners() {
		out.Winners = append(out.Winners, s.Players[w])
	}
	return out
}

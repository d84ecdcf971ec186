package game

// ScoreSeries is every player's total turn by turn, with the turns in which
// a player locked a row or took a misthrow: the data of a score chart. It is
// public information only (it is derived from TurnSummary, see Game.Turns).
type ScoreSeries struct {
	// Totals[p][t] is player p's total (S4) after turn t; Totals[p][0] is 0,
	// before the first turn. Every player has the same number of points.
	Totals [][]int `json:"totals"`
	// Events are the locks (S3, D7, C8) and misthrows (D6, C7), turn by
	// turn; within a turn in the order the table reads them (Turns), a
	// misthrow last.
	Events []ScoreEvent `json:"events,omitempty"`
	// Partial is set when the last point is a turn that was not finished (a
	// game stopped in the middle of a turn whose first action had already
	// crossed numbers): the totals are then as the sheets stand.
	Partial bool `json:"partial,omitempty"`
}

// ScoreEventKind tells a lock from a misthrow.
type ScoreEventKind uint8

// The events of a score chart.
const (
	// EventLock: the player crossed a row's rightmost number and its lock
	// (S3, D7, C8).
	EventLock ScoreEventKind = iota + 1
	// EventMisthrow: the active player crossed nothing and took a misthrow
	// (D6, C7).
	EventMisthrow
)

// ScoreEvent is a lock or a misthrow in a turn.
type ScoreEvent struct {
	Turn   int            `json:"turn"`
	Player int            `json:"player"`
	Kind   ScoreEventKind `json:"kind"`
	// Color is the row locked (EventLock).
	Color Color `json:"color,omitempty"`
	// Misthrow is the number of the misthrow on the player's sheet, 1 to 4
	// (EventMisthrow).
	Misthrow int `json:"misthrow,omitempty"`
}

// Turns is the number of turns in the series (the points after turn 0).
func (s ScoreSeries) Turns() int {
	if len(s.Totals) == 0 {
		return 0
	}
	return len(s.Totals[0]) - 1
}

// Final is every player's total at the last point.
func (s ScoreSeries) Final() []int {
	out := make([]int, len(s.Totals))
	for p, t := range s.Totals {
		out[p] = t[len(t)-1]
	}
	return out
}

// ScoreSeries is the game's score series so far (see SeriesOf).
func (g *Game) ScoreSeries() ScoreSeries { return SeriesOf(g.Turns(), len(g.st.Players)) }

// SeriesOf builds the score series of a game of n players from its turns,
// as Game.Turns describes them: each finished turn is a point; the
// unfinished turn (the last, if any) is a point only when what it has
// already made public changed a total, so that the last point always equals
// the sheets. Turns must start at turn 1 and follow each other.
func SeriesOf(turns []TurnSummary, n int) ScoreSeries {
	s := ScoreSeries{Totals: make([][]int, n)}
	for p := range s.Totals {
		s.Totals[p] = make([]int, 1, len(turns)+1)
	}
	sheets := make([]Sheet, n)
	for _, t := range turns {
		changed := false
		for _, d := range t.Decisions {
			if d.Player < 0 || d.Player >= n || !d.Color.Valid() {
				continue
			}
			add := len(d.Crossed)
			if d.Locked {
				add++
			}
			if add == 0 {
				continue
			}
			changed = true
			// Crosses only add up: the bit layout does not matter for the
			// score, so fill the row's count from the left.
			r := &sheets[d.Player].Rows[d.Color]
			*r = Row(1<<(r.Count()+add) - 1)
			if d.Locked {
				s.Events = append(s.Events, ScoreEvent{Turn: t.Turn, Player: d.Player, Kind: EventLock, Color: d.Color})
			}
		}
		if t.Misthrow > 0 && t.Active >= 0 && t.Active < n {
			sheets[t.Active].Misthrows = t.Misthrow
			s.Events = append(s.Events, ScoreEvent{Turn: t.Turn, Player: t.Active, Kind: EventMisthrow, Misthrow: t.Misthrow})
			changed = true
		}
		if !t.Finished {
			if !changed {
				break
			}
			s.Partial = true
		}
		for p := range s.Totals {
			s.Totals[p] = append(s.Totals[p], sheets[p].Score())
		}
	}
	return s
}

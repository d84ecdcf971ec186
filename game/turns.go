package game

import "slices"

// TurnSummary is one turn as the game's log tells it: who was active, what
// chance brought (the dice) or what was taken and turned up (the card game),
// every decision in the order the table reads them, the misthrow, the locks
// and whether the game ended. It is derived from the stored game alone
// (Game.Turns) and holds only public information (C10): no hand, no
// face-down card, no choice of a simultaneous action that has not been
// revealed yet (D4, C5). Played cards are public once played; display cards
// appear by number only.
type TurnSummary struct {
	// Variant is the game's variant.
	Variant Variant
	// Turn is the turn's number, from 1; Active the seat of its active player.
	Turn   int
	Active int
	// Finished is false for the turn still being played: it then lists only
	// what is already public.
	Finished bool
	// Dice are the dice rolled at the start of a dice-game turn (D3): white 1,
	// white 2, red, yellow, green, blue; a die that had left the game is 0.
	Dice [6]int
	// Took are the display numbers the active player took in card action 1
	// (C4), ascending; nil before the take.
	Took []int
	// Number is the number for everyone of card action 2 (C5); 0 before
	// action 2 began.
	Number int
	// Decisions are the turn's decisions: action by action, and within a
	// simultaneous action (D4, C5) by seat starting from the active player,
	// whatever order they were made in. A simultaneous action appears only
	// once everybody has decided.
	Decisions []Decision
	// Misthrow is the active player's misthrow crossed at the end of this turn
	// (D6, C7) counted on their sheet: 1 to 4; 0 when there was none.
	Misthrow int
	// Locks are the rows locked in this turn, in the order of Decisions (D7,
	// C8). Each lock crosses its row's lock field too, which counts as a cross
	// (S3).
	Locks []Lock
	// End says why the game ended in this turn (D9, C9); NotOver otherwise.
	End End
	// EndedBy are the seats that ended the game: the active player for a
	// 4th misthrow; in the dice game the players who locked a row in the turn
	// that locked the second; in the card game the players who now have two
	// locked rows. Ascending; nil when the game did not end in this turn.
	EndedBy []int
}

// Decision is one player's decision in one action of a turn.
type Decision struct {
	// Action is 1 or 2 in the dice game (D4, D5), 1, 2 or 3 in the card game
	// (C4, C5, C6).
	Action int
	Player int
	// Kind is Pass, White, Colored, Take, Number or Play.
	Kind Kind
	// Color is the row crossed (White, Colored, Number) or the colour the
	// cards of a Play counted as.
	Color Color
	// Crossed are the numbers crossed in Color's row, left to right: one for
	// White, Colored and Number, none to three for Play, none otherwise.
	Crossed []int
	// WhiteDie (1 or 2) names the white die of a Colored decision, and Sum
	// the values added: that white die's, then the coloured die's (D5).
	WhiteDie int
	Sum      [2]int
	// Took are the display numbers taken by a Take decision (C4), ascending.
	Took []int
	// Cards are the cards shown by a Play decision (public once played, C10),
	// in row order; a joker's Color is the colour it was played as.
	Cards []PlayedCard
	// Locked reports that the decision crossed Color's rightmost number and
	// with it the lock (S3, D7, C8).
	Locked bool
}

// Lock is a row locked by a player in a turn.
type Lock struct {
	Player int
	Color  Color
	// Action is the action in which the row was locked.
	Action int
}

// Turns describes every turn played so far, the current one included
// (marked unfinished), oldest first. It replays the game's log (its moves and
// its chance outcomes), so it is a pure function of the stored game: the
// summary of a finished turn never changes afterwards, and two games that
// differ only in hidden information (hand colours, face-down cards, choices
// not yet revealed) have equal summaries.
// lastIndexFunc is the index of the last element of s satisfying f, or -1.
func lastIndexFunc[T any](s []T, f func(T) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

func (g *Game) Turns() []TurnSummary {
	s := &g.st
	r := newGame(s.Variant, s.Players, [32]byte{})
	sc := &script{Rolls: s.Log.Rolls}
	for _, pile := range s.Log.Reshuffles {
		sc.Shuffles = append(sc.Shuffles, slices.Clone(pile))
	}
	r.st.Script = sc
	r.setup(s.First, s.Log.Deck)

	var out []TurnSummary
	cur := r.turnStart()
	var pending []Move // the moves of the simultaneous action under way
	for i, m := range s.Log.Moves {
		for _, d := range s.Log.Left {
			if d.Moves == i { // P2: from here on nobody plays the seat
				r.st.Log.Left = append(r.st.Log.Left, d)
			}
		}
		phase, turn := r.st.Phase, r.st.Turn
		before := slices.Clone(r.st.Sheets)
		misthrows := r.st.Sheets[r.st.Active].Misthrows
		var d Decision
		switch m.Kind {
		case Colored:
			w := int(m.White)
			d.WhiteDie = w
			d.Sum = [2]int{r.st.Dice[w-1], r.st.Dice[DieOf(m.Color)]}
		case Take:
			d.Took = m.TakeNumbers()
		case Play:
			for _, c := range m.CardList() {
				pc := PlayedCard{Number: c.Number(), Joker: c.Joker(), Color: c.Color()}
				if c.Joker() {
					pc.Color = m.Color
				}
				d.Cards = append(d.Cards, pc)
			}
			// In row order, as they would be crossed.
			slices.SortStableFunc(d.Cards, func(a, b PlayedCard) int {
				return Position(m.Color, a.Number) - Position(m.Color, b.Number)
			})
		}
		if r.Apply(m) != nil {
			break // a log that does not replay: summarise what did
		}
		after := r.st.Sheets
		switch {
		case phase.Simultaneous():
			pending = append(pending, m)
			if r.st.Phase == phase && r.st.Turn == turn {
				continue // the action's choices stay hidden until it resolves
			}
			action := 1
			if phase == PhaseNumber {
				action = 2
			}
			n := len(s.Players)
			for i := range n {
				p := (cur.Active + i) % n
				k := lastIndexFunc(pending, func(pm Move) bool { return pm.Player == p }) // the last choice counts (P4)
				if k >= 0 {
					cur.add(decisionOf(pending[k], Decision{}, action, before[p], after[p]))
				}
			}
			pending = pending[:0]
		default:
			action := 1
			switch phase {
			case PhaseColor, PhaseNumber:
				action = 2
			case PhasePlay:
				action = 3
			}
			cur.add(decisionOf(m, d, action, before[m.Player], after[m.Player]))
		}
		if phase == PhaseTake {
			cur.Took = d.Took
			cur.Number = r.TopNumber()
		}
		if r.st.Turn == turn && r.st.Phase != PhaseOver {
			continue
		}
		// The turn is over.
		cur.Finished = true
		if now := after[cur.Active].Misthrows; now > misthrows {
			cur.Misthrow = now
		}
		if r.st.End != NotOver {
			cur.End = r.st.End
			cur.EndedBy = r.endedBy(&cur, after)
		}
		out = append(out, cur)
		if r.st.Phase == PhaseOver {
			return out
		}
		cur = r.turnStart()
	}
	return append(out, cur)
}

// turnStart begins the summary of the replayed game's current turn.
func (g *Game) turnStart() TurnSummary {
	t := TurnSummary{Variant: g.st.Variant, Turn: g.st.Turn, Active: g.st.Active}
	if g.st.Variant == Dice {
		t.Dice = g.st.Dice
	}
	return t
}

// add appends a decision and the lock it made.
func (t *TurnSummary) add(d Decision) {
	t.Decisions = append(t.Decisions, d)
	if d.Locked {
		t.Locks = append(t.Locks, Lock{Player: d.Player, Color: d.Color, Action: d.Action})
	}
}

// decisionOf completes d for move m made in action, from the player's sheet
// before and after it.
func decisionOf(m Move, d Decision, action int, before, after Sheet) Decision {
	d.Action, d.Player, d.Kind = action, m.Player, m.Kind
	if m.Kind != Pass && m.Kind != Take {
		d.Color = m.Color
		added := after.Rows[m.Color] &^ before.Rows[m.Color]
		for pos := 0; pos <= LastPos; pos++ {
			if added.Crossed(pos) {
				d.Crossed = append(d.Crossed, NumberAt(m.Color, pos))
			}
		}
		d.Locked = added.Crossed(LockPos)
	}
	return d
}

// endedBy names the seats that ended the replayed game in turn t.
func (g *Game) endedBy(t *TurnSummary, sheets []Sheet) []int {
	var out []int
	switch {
	case g.st.End == EndMisthrows:
		out = append(out, t.Active)
	case g.st.Variant == Dice:
		for _, l := range t.Locks {
			out = append(out, l.Player)
		}
	default:
		for p, sh := range sheets {
			if sh.Locks() >= 2 {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

package game

import (
	"math/bits"
	"slices"
)

// sortCards orders a hand by colour, then number, jokers last.
func sortCards(h []Card) []Card {
	slices.Sort(h)
	return h
}

// takeSlots checks a Take move and returns the display slots it takes: for
// each number, the leftmost display card with that number not taken yet (the
// cards show only their numbers, so that is the player's whole choice, C4).
// The slots are written to buf, which the caller keeps (no allocation).
func (g *Game) takeSlots(m Move, buf *[HandSize]int) ([]int, MoveError) {
	s := &g.st
	want := HandSize - len(s.Hands[m.Player])
	if int(m.N) != want {
		return nil, MoveError{Reason: ReasonTakeCount, Count: want, Got: int(m.N)}
	}
	var used [DisplaySize]bool
	slots := buf[:0]
	for _, n := range m.Take[:m.N] {
		found := -1
		for i, c := range s.Display {
			if !used[i] && c.Number() == int(n) {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, MoveError{Reason: ReasonNotInDisplay, Number: int(n)}
		}
		used[found] = true
		slots = append(slots, found)
	}
	return slots, MoveError{}
}

// applyTake moves the chosen display cards to the hand, refills the display
// from the draw pile at once (C4), and opens action 2.
func (g *Game) applyTake(m Move) {
	s := &g.st
	var buf [HandSize]int
	slots, _ := g.takeSlots(m, &buf)
	p := m.Player
	for _, i := range slots {
		s.Hands[p] = append(s.Hands[p], s.Display[i])
		s.Known[p][s.Display[i].Number()]++
	}
	sortCards(s.Hands[p])
	for _, i := range slots {
		s.Display[i] = g.drawCard()
	}
	if len(s.Draw) == 0 {
		g.reshuffle()
	}
	s.Phase = PhaseNumber
}

// drawCard takes the top card of the draw pile, first turning the shuffled
// discard pile into the draw pile if it is used up (C4).
func (g *Game) drawCard() Card {
	s := &g.st
	if len(s.Draw) == 0 {
		g.reshuffle()
	}
	c := s.Draw[0]
	s.Draw = s.Draw[1:]
	return c
}

// reshuffle shuffles the discard pile and makes it the new draw pile (C4).
func (g *Game) reshuffle() {
	s := &g.st
	pile := append([]Card(nil), s.Discard...)
	if g.st.Script != nil && g.st.Script.NextShuffle < len(g.st.Script.Shuffles) {
		want := g.st.Script.Shuffles[g.st.Script.NextShuffle]
		g.st.Script.NextShuffle++
		if samePile(pile, want) {
			pile = append(pile[:0], want...)
		} else {
			g.st.Script.err = errBadReshuffle
			g.rnd.Shuffle(len(pile), func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
		}
	} else {
		g.rnd.Shuffle(len(pile), func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
	}
	s.Draw = append(s.Draw, pile...)
	s.Discard = s.Discard[:0]
	s.Log.Reshuffles = append(s.Log.Reshuffles, append([]Card(nil), pile...))
}

// samePile reports whether b is a permutation of a.
func samePile(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	var count [maxCard]int
	for _, c := range a {
		count[c]++
	}
	for _, c := range b {
		if !c.Valid() || count[c] == 0 {
			return false
		}
		count[c]--
	}
	return true
}

// checkPlay checks a Play move (C6) and returns the numbers it crosses, in
// row order (k of them). A zero Reason means legal.
func (g *Game) checkPlay(m Move) (nums [3]int, k int, e MoveError) {
	s := &g.st
	p := m.Player
	if m.N < 1 || int(m.N) > len(m.Cards) {
		return nums, 0, MoveError{Reason: ReasonPlayCount, Got: int(m.N)}
	}
	cards := m.Cards[:m.N]
	var played uint16
	for i, c := range cards {
		if slices.Contains(cards[:i], c) {
			return nums, 0, MoveError{Reason: ReasonDuplicateCard, Card: c}
		}
		if !slices.Contains(s.Hands[p], c) {
			return nums, 0, MoveError{Reason: ReasonNotInHand, Card: c}
		}
		played |= 1 << c.Number()
	}
	if !m.Color.Valid() {
		return nums, 0, MoveError{Reason: ReasonBadColor, Color: m.Color}
	}
	// Mixed colours first: that is the mistake, whatever colour was named.
	for _, c := range cards {
		if !c.Joker() && c.Color() != cards[firstColored(cards)].Color() {
			return nums, 0, MoveError{Reason: ReasonMixedColors}
		}
	}
	for _, c := range cards {
		if !c.Joker() && c.Color() != m.Color {
			return nums, 0, MoveError{Reason: ReasonJokerColor, Color: m.Color}
		}
	}
	c := m.Color
	if extra := m.Cross &^ played; extra != 0 {
		return nums, 0, MoveError{Reason: ReasonCrossNotPlayed, Color: c, Number: bits.TrailingZeros16(extra)}
	}
	// Crosses in row order; earlier crosses of this play count for S3.
	for pos := 0; pos <= LastPos; pos++ {
		if n := NumberAt(c, pos); m.Cross&(1<<n) != 0 {
			nums[k] = n
			k++
		}
	}
	if k == 0 {
		return nums, 0, MoveError{}
	}
	sheet := s.Sheets[p]
	for _, n := range nums[:k] {
		if e := sheet.problem(c, n); e.Reason != 0 {
			return nums, 0, e
		}
		sheet.cross(c, n)
	}
	first, last := Position(c, nums[0]), Position(c, nums[k-1])
	if last-first+1-k > 1 {
		return nums, 0, MoveError{Reason: ReasonGap, Color: c}
	}
	return nums, k, MoveError{}
}

// leftOut lists the numbers a Play move's crosses leave out between its
// first and last cross, for the ReasonGap message.
func leftOut(m Move) []int {
	var left []int
	first, last := -1, -1
	for pos := 0; pos <= LastPos; pos++ {
		if m.Cross&(1<<NumberAt(m.Color, pos)) != 0 {
			if first < 0 {
				first = pos
			}
			last = pos
		}
	}
	for pos := first + 1; pos < last; pos++ {
		if n := NumberAt(m.Color, pos); m.Cross&(1<<n) == 0 {
			left = append(left, n)
		}
	}
	return left
}

func firstColored(cards []Card) int {
	for i, c := range cards {
		if !c.Joker() {
			return i
		}
	}
	return 0
}

// applyPlay plays action 3: crosses, discards the played cards face down and
// ends the turn (C6, C7).
func (g *Game) applyPlay(m Move) {
	s := &g.st
	nums, k, _ := g.checkPlay(m)
	p := m.Player
	for _, n := range nums[:k] {
		g.crossFor(p, m.Color, n)
	}
	if k > 0 {
		s.Crossed = true
	}
	cards := m.Cards[:m.N]
	for _, c := range cards {
		if k := &s.Known[p][c.Number()]; *k > 0 {
			*k--
		}
	}
	s.Hands[p] = slices.DeleteFunc(s.Hands[p], func(c Card) bool { return slices.Contains(cards, c) })
	s.Discard = append(s.Discard, cards...)
	s.Played = append(s.Played[:0], cards...)
	s.PlayedAs = m.Color
	s.PlayedBy = p
	g.endTurn()
}

func (g *Game) appendCardMoves(dst []Move, p int) []Move {
	s := &g.st
	switch s.Phase {
	case PhaseTake:
		return g.appendTakes(dst, p)
	case PhaseNumber:
		dst = append(dst, PassMove(p))
		n := g.TopNumber()
		for _, c := range Colors {
			if g.canCross(p, c, n) {
				dst = append(dst, NumberMove(p, c))
			}
		}
	case PhasePlay:
		return g.appendPlays(dst, p)
	}
	return dst
}

// appendTakes lists every distinct choice of display numbers.
func (g *Game) appendTakes(dst []Move, p int) []Move {
	s := &g.st
	k := HandSize - len(s.Hands[p])
	start := len(dst)
	var idx [3]int
	var rec func(from, depth int)
	rec = func(from, depth int) {
		if depth == k {
			var nums [3]int
			for i := 0; i < k; i++ {
				nums[i] = s.Display[idx[i]].Number()
			}
			slices.Sort(nums[:k])
			m := TakeMove(p, nums[:k]...)
			if !slices.Contains(dst[start:], m) {
				dst = append(dst, m)
			}
			return
		}
		for i := from; i < len(s.Display); i++ {
			idx[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	return dst
}

// appendPlays lists every legal play: each set of 1–3 hand cards that can
// share a colour, each colour they can count as, and each legal set of
// numbers to cross (including none). The order is fixed (sets by the
// hand's bit mask, colours in sheet order, crossings from the most numbers'
// bit pattern down to none) and computer players rely on it (ties go to
// the first). playLegal stands in for checkPlay: the cards come from the
// hand, are distinct and can count as the colour, so only the crossing
// is left to check.
func (g *Game) appendPlays(dst []Move, p int) []Move {
	hand := g.st.Hands[p]
	sheet := &g.st.Sheets[p]
	n := len(hand)
	var as [HandSize]uint8 // bit c: the card can count as colour c (a hand holds at most HandSize, C4)
	for i := 0; i < n && i < len(as); i++ {
		as[i] = 0xf
		if !hand[i].Joker() {
			as[i] = 1 << hand[i].Color()
		}
	}
	var set [3]Card
	for mask := 1; mask < 1<<n; mask++ {
		if bits.OnesCount(uint(mask)) > 3 {
			continue
		}
		colors := uint8(0xf) // the colours the cards can count as together (canCountAs)
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				colors &= as[i]
			}
		}
		if colors == 0 {
			continue
		}
		k := 0
		var numbers uint16
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				set[k] = hand[i]
				numbers |= 1 << hand[i].Number()
				k++
			}
		}
		cards := set[:k]
		for _, c := range Colors {
			if colors&(1<<c) == 0 {
				continue
			}
			m := PlayMove(p, c, cards)
			r := sheet.Rows[c]
			// every subset of the distinct numbers, the empty one included
			for sub := numbers; ; sub = (sub - 1) & numbers {
				if playLegal(r, c, sub) {
					m.Cross = sub
					dst = append(dst, m)
				}
				if sub == 0 {
					break
				}
			}
		}
	}
	return dst
}

// playLegal reports whether a play of cards that may count as colour c
// may cross the numbers in cross (bit n for number n) on row r: what
// checkPlay checks of the crossing (S2, S3, C6's one left-out number).
func playLegal(r Row, c Color, cross uint16) bool {
	if cross == 0 {
		return true
	}
	if r.Locked() {
		return false
	}
	var pos uint16 // the crossing by position
	if c.Ascending() {
		pos = cross >> 2
	} else {
		for m := cross; m != 0; m &= m - 1 {
			pos |= 1 << (12 - bits.TrailingZeros16(m))
		}
	}
	first, last, k := bits.TrailingZeros16(pos), bits.Len16(pos)-1, bits.OnesCount16(pos)
	if first <= r.Last() {
		return false
	}
	if last == LastPos && r.Count()+k-1 < 5 {
		return false
	}
	return last-first+1-k <= 1
}

// knownFromLog recomputes state.Known from the moves in the log.
func (g *Game) knownFromLog() {
	s := &g.st
	if !s.Variant.CardGame() {
		return
	}
	s.Known = make([][13]uint8, len(s.Players))
	for _, m := range s.Log.Moves {
		if m.Player < 0 || m.Player >= len(s.Players) {
			continue
		}
		k := &s.Known[m.Player]
		switch m.Kind {
		case Take:
			for i := 0; i < int(m.N) && i < len(m.Take); i++ {
				if n := int(m.Take[i]); n >= 2 && n <= 12 {
					k[n]++
				}
			}
		case Play:
			for i := 0; i < int(m.N) && i < len(m.Cards); i++ {
				if n := m.Cards[i].Number(); k[n] > 0 {
					k[n]--
				}
			}
		}
	}
}

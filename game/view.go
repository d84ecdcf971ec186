package game

// PublicView is what everybody at the table may see (C10). It is a distinct
// type from PrivateView and holds no face-down card: hands are counts, the
// display and the draw pile are numbers only. Renderers and public messages
// take a PublicView, so they cannot leak a hidden colour by mistake.
type PublicView struct {
	Variant Variant
	Turn    int
	Active  int
	Phase   Phase
	End     End
	Players []PlayerView
	// Dice game: the dice (white 1, white 2, red, yellow, green, blue; 0 when
	// a die left the game) and the rows locked for everybody.
	Dice   [6]int
	Closed [NumColors]bool
	// Card game.
	Table *CardTable
}

// PlayerView is one player's public state.
type PlayerView struct {
	Name  string
	Sheet Sheet
	Score int
	// Fresh marks the crosses made in the current turn, so they can stand out.
	Fresh [NumColors]Row
	// Decided is set when the player has chosen in the current simultaneous
	// action; the choice itself stays hidden until the action resolves.
	Decided bool
	// HandSize is the number of cards in hand (card game).
	HandSize int
	// Known counts, by number (index 2–12), the cards the player surely
	// holds: numbers taken from the display (C4) less one for each card of
	// that number played since (C6). Public to anybody who remembers the
	// game; computer players read it (C10).
	Known [13]uint8
	// Left is set when the player left and nobody plays the seat (P2,
	// Game.Leave): its passes cost no misthrow while others play.
	Left bool
}

// CardTable is the public part of the card game's table.
type CardTable struct {
	Display     []int // numbers of the display cards, by slot (C3)
	DrawTop     int   // number on top of the draw pile (C5)
	DrawSize    int
	DiscardSize int
	// Played are the cards of the last play, shown face up (public, C10),
	// and the colour they counted as; PlayedBy is the seat that played them.
	Played   []PlayedCard
	PlayedAs Color
	PlayedBy int
	// Discarded are the cards of the discard pile, oldest first. Every one
	// was shown face up when it was played since the last reshuffle (C6,
	// C4), so they are public to anybody who remembers (C10). A joker's
	// Color is not kept here (zero).
	Discarded []PlayedCard
}

// PlayedCard is a card that was shown face up when it was played.
type PlayedCard struct {
	Number int
	Joker  bool
	Color  Color // the card's colour, or the colour a joker was played as
}

// PrivateView is what player Seat may see: the public view and their hand.
type PrivateView struct {
	PublicView
	Seat int
	Hand []Card
}

// Public returns the public view of the game.
func (g *Game) Public() PublicView {
	s := &g.st
	v := PublicView{
		Variant: s.Variant,
		Turn:    s.Turn,
		Active:  s.Active,
		Phase:   s.Phase,
		End:     s.End,
		Players: make([]PlayerView, len(s.Players)),
		Dice:    s.Dice,
		Closed:  s.Closed,
	}
	for p, name := range s.Players {
		pv := PlayerView{
			Name:    name,
			Sheet:   s.Sheets[p],
			Score:   s.Sheets[p].Score(),
			Fresh:   s.Fresh[p],
			Decided: s.Phase.Simultaneous() && g.Decided(p),
			Left:    g.HasLeft(p),
		}
		if s.Variant.CardGame() {
			pv.HandSize = len(s.Hands[p])
			pv.Known = s.Known[p]
		}
		v.Players[p] = pv
	}
	if s.Variant.CardGame() {
		t := &CardTable{
			Display:     make([]int, len(s.Display)),
			DrawTop:     g.TopNumber(),
			DrawSize:    len(s.Draw),
			DiscardSize: len(s.Discard),
			PlayedAs:    s.PlayedAs,
			PlayedBy:    s.PlayedBy,
		}
		if len(s.Discard) > 0 {
			t.Discarded = appendDiscarded(make([]PlayedCard, 0, len(s.Discard)), s.Discard)
		}
		for i, c := range s.Display {
			t.Display[i] = c.Number()
		}
		for _, c := range s.Played {
			pc := PlayedCard{Number: c.Number(), Joker: c.Joker(), Color: c.Color()}
			if c.Joker() {
				pc.Color = s.PlayedAs
			}
			t.Played = append(t.Played, pc)
		}
		v.Table = t
	}
	return v
}

// Private returns player p's private view: the public view and their hand.
func (g *Game) Private(p int) PrivateView {
	v := PrivateView{PublicView: g.Public(), Seat: p}
	if g.st.Variant.CardGame() && p >= 0 && p < len(g.st.Hands) {
		v.Hand = g.Hand(p)
	}
	return v
}

// PrivateInto fills v with player p's private view, as Private returns it,
// reusing v's slices where they are large enough, so that a computer
// player that reads many views (play-outs) does not allocate for each.
// The view shares no memory with the game.
func (g *Game) PrivateInto(v *PrivateView, p int) {
	s := &g.st
	players, table, hand := v.Players[:0], v.Table, v.Hand[:0]
	*v = PrivateView{Seat: p}
	v.Variant, v.Turn, v.Active, v.Phase, v.End = s.Variant, s.Turn, s.Active, s.Phase, s.End
	v.Dice, v.Closed = s.Dice, s.Closed
	for q, name := range s.Players {
		pv := PlayerView{
			Name:    name,
			Sheet:   s.Sheets[q],
			Score:   s.Sheets[q].Score(),
			Fresh:   s.Fresh[q],
			Decided: s.Phase.Simultaneous() && g.Decided(q),
		}
		if s.Variant.CardGame() {
			pv.HandSize = len(s.Hands[q])
			pv.Known = s.Known[q]
		}
		players = append(players, pv)
	}
	v.Players = players
	if !s.Variant.CardGame() {
		return
	}
	if table == nil {
		table = &CardTable{}
	}
	*table = CardTable{
		Display:     table.Display[:0],
		DrawTop:     g.TopNumber(),
		DrawSize:    len(s.Draw),
		DiscardSize: len(s.Discard),
		Played:      table.Played[:0],
		PlayedAs:    s.PlayedAs,
		PlayedBy:    s.PlayedBy,
		Discarded:   appendDiscarded(table.Discarded[:0], s.Discard),
	}
	for _, c := range s.Display {
		table.Display = append(table.Display, c.Number())
	}
	for _, c := range s.Played {
		pc := PlayedCard{Number: c.Number(), Joker: c.Joker(), Color: c.Color()}
		if c.Joker() {
			pc.Color = s.PlayedAs
		}
		table.Played = append(table.Played, pc)
	}
	if len(table.Played) == 0 {
		table.Played = nil
	}
	if len(table.Discarded) == 0 {
		table.Discarded = nil
	}
	v.Table = table
	if p >= 0 && p < len(s.Hands) {
		v.Hand = append(hand, s.Hands[p]...)
	}
}

// appendDiscarded appends the discard pile's cards as public cards.
func appendDiscarded(dst []PlayedCard, pile []Card) []PlayedCard {
	for _, c := range pile {
		dst = append(dst, discardedCard[c])
	}
	return dst
}

// discardedCard is each card as the discard pile shows it to those who
// remember (a joker without colour).
var discardedCard = func() (t [maxCard]PlayedCard) {
	for c := range Card(maxCard) {
		t[c] = PlayedCard{Number: c.Number(), Joker: c.Joker()}
		if !c.Joker() {
			t[c].Color = c.Color()
		}
	}
	return t
}()

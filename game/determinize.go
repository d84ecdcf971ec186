package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Determinize returns a game that seat v.Seat cannot tell apart from the real one:
// everything public and its own hand as in v; the cards it cannot see
// (other hands, the display's and draw pile's colours, the face-down
// discard pile) dealt at random from r among the cards not known to be
// elsewhere, consistently with the public numbers (display numbers,
// draw pile top number, hand sizes, pile sizes). The returned game's
// own random source (for future reshuffles) is also seeded from r.
//
// It is meant for computer players that simulate the card game (C1–C10)
// from what they may know (C10): it reads only v, never the real game. The
// hidden cards are dealt uniformly among the deals consistent with v: each
// display slot and the top of the draw pile get a card of their shown
// number, chosen at random among the unknown cards of that number, and the
// other unknown cards are shuffled into the other hands, the rest of the
// draw pile and the discard pile. The cards of the last play (v.Table.Played)
// are public and lie at the top of the discard pile, unless the discard pile
// is empty: then it has been reshuffled into the draw pile since that play,
// and those cards are unknown like the others. A view that remembers the
// whole discard pile (Table.Discarded, every card played since the last
// reshuffle) places all of it, and the numbers each other player is known
// to hold (PlayerView.Known) are dealt to that player first.
//
// Choices made but not yet revealed in a simultaneous action (C5) are not
// in the view, the seat's own included: the players marked Decided stay
// decided, and their choice is a pass. The active player's crossing this
// turn (C7) follows from its fresh crosses, the first player (D2) from the
// turn number and the active seat.
//
// The returned game has no history: Moves is empty, Reshuffles counts from
// zero, and Record and Turns describe a made-up deal rather than the real
// game. The Dice variant has no hidden cards and returns an error, as does a
// view that no deal can match.
func Determinize(v PrivateView, r *rand.Rand) (*Game, error) {
	d, err := NewDealer(v)
	if err != nil {
		return nil, err
	}
	return d.Deal(r, nil)
}

// A Dealer deals many games from one view, as Determinize deals one: it
// checks the view once, and Deal can reuse the memory of a game dealt
// before. The same random source gives the same deal as Determinize.
type Dealer struct {
	v             PrivateView
	names         []string
	unknown       []Card // the cards the seat cannot place, in card order
	played        []Card // the last play's cards
	discarded     []Card // the remembered discard pile (recalled)
	inDiscard     bool   // the last play lies on the discard pile
	recalled      bool   // the view lists the whole discard pile
	hiddenDiscard int    // face-down cards of the discard pile to deal
	total         int    // cards in the deck

	// scratch, reused by every deal
	pool    []Card
	display []Card
	held    [][]Card
	checked bool // a deal passed Validate: the others are made alike
}

// NewDealer checks v (see Determinize for what it must hold) and returns
// a Dealer of the games seat v.Seat cannot tell apart from the real one.
func NewDealer(v PrivateView) (*Dealer, error) {
	if !v.Variant.CardGame() {
		return nil, fmt.Errorf("game: determinize: the %s variant has no hidden cards", v.Variant)
	}
	t := v.Table
	if t == nil {
		return nil, errors.New("game: determinize: the view has no card table")
	}
	n := len(v.Players)
	names := make([]string, n)
	for p, pv := range v.Players {
		names[p] = pv.Name
	}
	if err := checkPlayers(v.Variant, names); err != nil {
		return nil, fmt.Errorf("game: determinize: %w", err)
	}
	if v.Seat < 0 || v.Seat >= n {
		return nil, fmt.Errorf("game: determinize: seat %d of %d", v.Seat, n)
	}
	if v.Turn < 1 {
		return nil, fmt.Errorf("game: determinize: turn %d", v.Turn)
	}
	if v.Active < 0 || v.Active >= n {
		return nil, fmt.Errorf("game: determinize: active seat %d of %d", v.Active, n)
	}
	if len(v.Hand) != v.Players[v.Seat].HandSize {
		return nil, fmt.Errorf("game: determinize: hand of %d cards, the table shows %d", len(v.Hand), v.Players[v.Seat].HandSize)
	}

	jokers := v.Variant == Jokers
	var known [maxCard]bool // cards whose place the seat knows
	mark := func(c Card) error {
		if !c.Valid() || (c.Joker() && !jokers) {
			return fmt.Errorf("game: determinize: card %s does not belong to a %s game", c, v.Variant)
		}
		if known[c] {
			return fmt.Errorf("game: determinize: card %s is in two places", c)
		}
		known[c] = true
		return nil
	}
	for _, c := range v.Hand {
		if err := mark(c); err != nil {
			return nil, err
		}
	}
	played := make([]Card, 0, len(t.Played))
	for _, pc := range t.Played {
		if pc.Number < 2 || pc.Number > 12 || (!pc.Joker && !pc.Color.Valid()) {
			return nil, fmt.Errorf("game: determinize: bad played card %+v", pc)
		}
		c := ColorCard(pc.Color, pc.Number)
		if pc.Joker {
			c = JokerCard(pc.Number)
		}
		played = append(played, c)
	}
	// The last play lies on the discard pile until the pile is reshuffled,
	// which empties it; it grows again only by a new play. A view that
	// lists the whole pile (Discarded, remembered plays) places it all.
	inDiscard := t.DiscardSize > 0
	recalled := inDiscard && len(t.Discarded) == t.DiscardSize
	var discarded []Card
	if recalled {
		discarded = make([]Card, 0, len(t.Discarded))
		for _, pc := range t.Discarded {
			if pc.Number < 2 || pc.Number > 12 || (!pc.Joker && !pc.Color.Valid()) {
				return nil, fmt.Errorf("game: determinize: bad discarded card %+v", pc)
			}
			c := ColorCard(pc.Color, pc.Number)
			if pc.Joker {
				c = JokerCard(pc.Number)
			}
			if err := mark(c); err != nil {
				return nil, err
			}
			discarded = append(discarded, c)
		}
	} else if inDiscard {
		if t.DiscardSize < len(played) {
			return nil, fmt.Errorf("game: determinize: %d cards played, %d in the discard pile", len(played), t.DiscardSize)
		}
		for _, c := range played {
			if err := mark(c); err != nil {
				return nil, err
			}
		}
	}
	total := deckSize(jokers)
	unknown := make([]Card, 0, total) // the cards the seat cannot place
	for c := range Card(total) {
		if !known[c] {
			unknown = append(unknown, c)
		}
	}

	// The places to fill, and the numbers they must show.
	others, decided := 0, 0
	for p, pv := range v.Players {
		if pv.HandSize < 0 || pv.HandSize > HandSize {
			return nil, fmt.Errorf("game: determinize: player %d holds %d cards", p, pv.HandSize)
		}
		if p != v.Seat {
			others += pv.HandSize
		}
		if pv.Decided {
			decided++
		}
	}
	if decided == n && v.Phase.Simultaneous() {
		return nil, errors.New("game: determinize: everybody has decided, yet the action is open")
	}
	if len(t.Display) != DisplaySize {
		return nil, fmt.Errorf("game: determinize: display of %d cards", len(t.Display))
	}
	if t.DrawSize < 0 || (t.DrawSize == 0) != (t.DrawTop == 0) {
		return nil, fmt.Errorf("game: determinize: draw pile of %d cards with %d on top", t.DrawSize, t.DrawTop)
	}
	hiddenDiscard := t.DiscardSize
	switch {
	case recalled:
		hiddenDiscard = 0
	case inDiscard:
		hiddenDiscard -= len(played)
	}
	if want := others + DisplaySize + t.DrawSize + hiddenDiscard; want != len(unknown) {
		return nil, fmt.Errorf("game: determinize: %d unknown cards for %d hidden places", len(unknown), want)
	}
	return &Dealer{v: v, names: names, unknown: unknown, played: played, discarded: discarded,
		inDiscard: inDiscard, recalled: recalled, hiddenDiscard: hiddenDiscard, total: total,
		pool: make([]Card, 0, len(unknown)), display: make([]Card, DisplaySize), held: make([][]Card, n)}, nil
}

// Deal deals one game from the dealer's view with r (see Determinize),
// into dst's memory when dst is not nil (dst then holds the new game, and
// whatever it held before is gone), and returns it.
func (d *Dealer) Deal(r *rand.Rand, dst *Game) (*Game, error) {
	v, t := &d.v, d.v.Table
	n := len(v.Players)
	pool := append(d.pool[:0], d.unknown...)
	// A card of the shown number for each display slot and the draw pile's
	// top, uniformly among the unknown ones; then the rest in random order.
	pick := func(num int) (Card, error) {
		k := 0
		for _, c := range pool {
			if c.Number() == num {
				k++
			}
		}
		if k == 0 {
			return 0, fmt.Errorf("game: determinize: no unknown card left with number %d", num)
		}
		k = r.IntN(k)
		for i, c := range pool {
			if c.Number() == num {
				if k == 0 {
					pool[i] = pool[len(pool)-1]
					pool = pool[:len(pool)-1]
					return c, nil
				}
				k--
			}
		}
		panic("unreachable")
	}
	display := d.display
	for i, num := range t.Display {
		c, err := pick(num)
		if err != nil {
			return nil, err
		}
		display[i] = c
	}
	var top Card
	if t.DrawSize > 0 {
		c, err := pick(t.DrawTop)
		if err != nil {
			return nil, err
		}
		top = c
	}
	// The numbers each other player is known to hold (taken from the
	// display and not played since) are dealt to them first.
	held := d.held
	for p, pv := range v.Players {
		held[p] = held[p][:0]
		if p == v.Seat {
			continue
		}
		for num, k := range pv.Known {
			for range k {
				c, err := pick(num)
				if err != nil {
					return nil, err
				}
				held[p] = append(held[p], c)
			}
		}
		if len(held[p]) > pv.HandSize {
			return nil, fmt.Errorf("game: determinize: player %d holds %d cards, %d of them known", p, pv.HandSize, len(held[p]))
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	deal := func(k int) []Card {
		out := pool[:k:k]
		pool = pool[k:]
		return out
	}

	var sd [32]byte
	for i := 0; i < len(sd); i += 8 {
		u := r.Uint64()
		for j := range 8 {
			sd[i+j] = byte(u >> (8 * j))
		}
	}
	g := renewGame(dst, v.Variant, d.names, sd)
	s := &g.st
	s.Hands = slices.Grow(s.Hands[:0], n)[:n]
	for p, pv := range v.Players {
		h := s.Hands[p][:0]
		if p == v.Seat {
			h = append(h, v.Hand...)
		} else {
			h = append(append(h, held[p]...), deal(pv.HandSize-len(held[p]))...)
		}
		s.Hands[p] = sortCards(slices.Grow(h, HandSize-len(h)))
		s.Sheets[p] = pv.Sheet
		s.Known[p] = pv.Known
		s.Fresh[p] = pv.Fresh
		s.Pending[p] = PassMove(p)
		if v.Phase.Simultaneous() && pv.Decided {
			s.Decided |= 1 << p
		}
		if pv.Left { // its passes cost no misthrow in the play-outs either (P2)
			s.Log.Left = append(s.Log.Left, Departure{Player: p})
		}
	}
	s.Display = append(s.Display[:0], display...)
	if t.DrawSize > 0 {
		s.Draw = append(append(slices.Grow(s.Draw[:0], t.DrawSize), top), deal(t.DrawSize-1)...)
	} else {
		s.Draw = nil
	}
	if s.Discard == nil {
		s.Discard = make([]Card, 0, t.DiscardSize)
	}
	s.Discard = append(s.Discard[:0], deal(d.hiddenDiscard)...)
	switch {
	case d.recalled:
		s.Discard = append(s.Discard, d.discarded...)
	case d.inDiscard:
		s.Discard = append(s.Discard, d.played...)
	}
	if len(d.played) > 0 {
		s.Played = append(s.Played[:0], d.played...)
	} else {
		s.Played = nil
	}
	s.PlayedAs = t.PlayedAs
	s.PlayedBy = t.PlayedBy
	s.Turn = v.Turn
	s.Active = v.Active
	s.First = ((v.Active-(v.Turn-1))%n + n) % n
	s.Phase = v.Phase
	s.End = v.End
	s.Dice = v.Dice
	s.Closed = v.Closed
	// Action 2's crosses are made when it resolves, so the active player
	// has crossed this turn exactly when they have fresh crosses (C7).
	s.Crossed = v.Players[v.Active].Fresh != [NumColors]Row{}
	// A stand-in for the deal, so that Record and Turns work (on a made-up
	// history): the cards in seat, display and pile order.
	if s.Log.Deck == nil {
		s.Log.Deck = make([]Card, 0, d.total)
	}
	s.Log.Deck = s.Log.Deck[:0]
	for _, h := range s.Hands {
		s.Log.Deck = append(s.Log.Deck, h...)
	}
	s.Log.Deck = append(s.Log.Deck, s.Display...)
	s.Log.Deck = append(s.Log.Deck, s.Draw...)
	s.Log.Deck = append(s.Log.Deck, s.Discard...)
	// Every deal of a view is made alike, so one passing Validate vouches
	// for the others.
	if !d.checked {
		if err := g.Validate(); err != nil {
			return nil, fmt.Errorf("game: determinize: %w", err)
		}
		d.checked = true
	}
	return g, nil
}

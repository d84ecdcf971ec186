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
	names, err := checkDealView(v)
	if err != nil {
		return nil, err
	}
	d := &Dealer{v: v, names: names, total: deckSize(v.Variant == Jokers)}
	known, err := d.placeKnown()
	if err != nil {
		return nil, err
	}
	d.unknown = make([]Card, 0, d.total) // the cards the seat cannot place
	for c := range Card(d.total) {
		if !known[c] {
			d.unknown = append(d.unknown, c)
		}
	}
	if err := d.checkPlaces(); err != nil {
		return nil, err
	}
	d.pool, d.display, d.held = make([]Card, 0, len(d.unknown)), make([]Card, DisplaySize), make([][]Card, len(v.Players))
	return d, nil
}

// checkDealView checks what a view must hold before its cards are
// placed: a card game's table, valid players, seat, turn and active seat,
// and the seat's own hand of the size the table shows. It returns the
// players' names.
func checkDealView(v PrivateView) ([]string, error) {
	if !v.Variant.CardGame() {
		return nil, fmt.Errorf("game: determinize: the %s variant has no hidden cards", v.Variant)
	}
	if v.Table == nil {
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
	return names, nil
}

// tableCard is the card a played or discarded card of the view shows, if
// it is one.
func tableCard(pc PlayedCard) (Card, bool) {
	if pc.Number < 2 || pc.Number > 12 || (!pc.Joker && !pc.Color.Valid()) {
		return 0, false
	}
	if pc.Joker {
		return JokerCard(pc.Number), true
	}
	return ColorCard(pc.Color, pc.Number), true
}

// placeKnown sets the dealer's last play and, from the view, where the
// last play lies and the remembered discard pile; it returns the cards
// whose place the seat knows (its hand and the discard pile's known cards),
// each checked to be of the variant and in one place only.
func (d *Dealer) placeKnown() ([maxCard]bool, error) {
	v, t := &d.v, d.v.Table
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
			return known, err
		}
	}
	d.played = make([]Card, 0, len(t.Played))
	for _, pc := range t.Played {
		c, ok := tableCard(pc)
		if !ok {
			return known, fmt.Errorf("game: determinize: bad played card %+v", pc)
		}
		d.played = append(d.played, c)
	}
	// The last play lies on the discard pile until the pile is reshuffled,
	// which empties it; it grows again only by a new play. A view that
	// lists the whole pile (Discarded, remembered plays) places it all.
	d.inDiscard = t.DiscardSize > 0
	d.recalled = d.inDiscard && len(t.Discarded) == t.DiscardSize
	if d.recalled {
		d.discarded = make([]Card, 0, len(t.Discarded))
		for _, pc := range t.Discarded {
			c, ok := tableCard(pc)
			if !ok {
				return known, fmt.Errorf("game: determinize: bad discarded card %+v", pc)
			}
			if err := mark(c); err != nil {
				return known, err
			}
			d.discarded = append(d.discarded, c)
		}
	} else if d.inDiscard {
		if t.DiscardSize < len(d.played) {
			return known, fmt.Errorf("game: determinize: %d cards played, %d in the discard pile", len(d.played), t.DiscardSize)
		}
		for _, c := range d.played {
			if err := mark(c); err != nil {
				return known, err
			}
		}
	}
	return known, nil
}

// checkPlaces checks the places to fill and the numbers they must show
// (hand sizes, who has decided, the display, the draw pile) against the
// unknown cards, and sets how many face-down cards of the discard pile
// the deals fill.
func (d *Dealer) checkPlaces() error {
	v, t := &d.v, d.v.Table
	others, decided := 0, 0
	for p, pv := range v.Players {
		if pv.HandSize < 0 || pv.HandSize > HandSize {
			return fmt.Errorf("game: determinize: player %d holds %d cards", p, pv.HandSize)
		}
		if p != v.Seat {
			others += pv.HandSize
		}
		if pv.Decided {
			decided++
		}
	}
	if decided == len(v.Players) && v.Phase.Simultaneous() {
		return errors.New("game: determinize: everybody has decided, yet the action is open")
	}
	if len(t.Display) != DisplaySize {
		return fmt.Errorf("game: determinize: display of %d cards", len(t.Display))
	}
	if t.DrawSize < 0 || (t.DrawSize == 0) != (t.DrawTop == 0) {
		return fmt.Errorf("game: determinize: draw pile of %d cards with %d on top", t.DrawSize, t.DrawTop)
	}
	d.hiddenDiscard = t.DiscardSize
	switch {
	case d.recalled:
		d.hiddenDiscard = 0
	case d.inDiscard:
		d.hiddenDiscard -= len(d.played)
	}
	if want := others + DisplaySize + t.DrawSize + d.hiddenDiscard; want != len(d.unknown) {
		return fmt.Errorf("game: determinize: %d unknown cards for %d hidden places", len(d.unknown), want)
	}
	return nil
}

// Deal deals one game from the dealer's view with r (see Determinize),
// into dst's memory when dst is not nil (dst then holds the new game, and
// whatever it held before is gone), and returns it.
func (d *Dealer) Deal(r *rand.Rand, dst *Game) (*Game, error) {
	v := &d.v
	dl := dealing{r: r, pool: append(d.pool[:0], d.unknown...)}
	// A card of the shown number for each display slot and the draw pile's
	// top, uniformly among the unknown ones; then the known numbers of the
	// other hands; then the rest in random order.
	top, err := d.dealShown(&dl)
	if err != nil {
		return nil, err
	}
	if err := d.dealKnown(&dl); err != nil {
		return nil, err
	}
	r.Shuffle(len(dl.pool), func(i, j int) { dl.pool[i], dl.pool[j] = dl.pool[j], dl.pool[i] })

	g := renewGame(dst, v.Variant, d.names, dealSeed(r))
	d.seat(&g.st, &dl)
	d.lay(&g.st, &dl, top)
	d.copyPublic(&g.st)
	d.recordDeck(&g.st)
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

// dealing is one deal's pool of unknown cards and its random source.
type dealing struct {
	r    *rand.Rand
	pool []Card
}

// pick takes a card of number num from the pool, uniformly among those
// of that number.
func (dl *dealing) pick(num int) (Card, error) {
	k := 0
	for _, c := range dl.pool {
		if c.Number() == num {
			k++
		}
	}
	if k == 0 {
		return 0, fmt.Errorf("game: determinize: no unknown card left with number %d", num)
	}
	k = dl.r.IntN(k)
	for i, c := range dl.pool {
		if c.Number() == num {
			if k == 0 {
				dl.pool[i] = dl.pool[len(dl.pool)-1]
				dl.pool = dl.pool[:len(dl.pool)-1]
				return c, nil
			}
			k--
		}
	}
	panic("unreachable")
}

// take takes the next k cards of the (shuffled) pool.
func (dl *dealing) take(k int) []Card {
	out := dl.pool[:k:k]
	dl.pool = dl.pool[k:]
	return out
}

// dealShown picks the display's cards (into d.display) and the draw
// pile's top card, which it returns (0 if the pile is empty).
func (d *Dealer) dealShown(dl *dealing) (Card, error) {
	t := d.v.Table
	for i, num := range t.Display {
		c, err := dl.pick(num)
		if err != nil {
			return 0, err
		}
		d.display[i] = c
	}
	if t.DrawSize == 0 {
		return 0, nil
	}
	return dl.pick(t.DrawTop)
}

// dealKnown deals each other player the numbers they are known to hold
// (taken from the display and not played since), into d.held.
func (d *Dealer) dealKnown(dl *dealing) error {
	v := &d.v
	for p, pv := range v.Players {
		d.held[p] = d.held[p][:0]
		if p == v.Seat {
			continue
		}
		for num, k := range pv.Known {
			for range k {
				c, err := dl.pick(num)
				if err != nil {
					return err
				}
				d.held[p] = append(d.held[p], c)
			}
		}
		if len(d.held[p]) > pv.HandSize {
			return fmt.Errorf("game: determinize: player %d holds %d cards, %d of them known", p, pv.HandSize, len(d.held[p]))
		}
	}
	return nil
}

// dealSeed draws the seed of a dealt game's own random source from r.
func dealSeed(r *rand.Rand) [32]byte {
	var sd [32]byte
	for i := 0; i < len(sd); i += 8 {
		u := r.Uint64()
		for j := range 8 {
			sd[i+j] = byte(u >> (8 * j))
		}
	}
	return sd
}

// seat fills every player's hand (the seat's own from the view, the
// others' known cards and then the pool's next ones) and copies their
// public state.
func (d *Dealer) seat(s *state, dl *dealing) {
	v := &d.v
	n := len(v.Players)
	s.Hands = slices.Grow(s.Hands[:0], n)[:n]
	for p, pv := range v.Players {
		h := s.Hands[p][:0]
		if p == v.Seat {
			h = append(h, v.Hand...)
		} else {
			h = append(append(h, d.held[p]...), dl.take(pv.HandSize-len(d.held[p]))...)
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
}

// lay lays the display, the draw pile (top first, then the pool's next
// cards), the discard pile (its face-down cards from the pool under the
// known ones) and the last play.
func (d *Dealer) lay(s *state, dl *dealing, top Card) {
	t := d.v.Table
	s.Display = append(s.Display[:0], d.display...)
	if t.DrawSize > 0 {
		s.Draw = append(append(slices.Grow(s.Draw[:0], t.DrawSize), top), dl.take(t.DrawSize-1)...)
	} else {
		s.Draw = nil
	}
	if s.Discard == nil {
		s.Discard = make([]Card, 0, t.DiscardSize)
	}
	s.Discard = append(s.Discard[:0], dl.take(d.hiddenDiscard)...)
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
}

// copyPublic copies the turn's public state from the view.
func (d *Dealer) copyPublic(s *state) {
	v, t := &d.v, d.v.Table
	n := len(v.Players)
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
}

// recordDeck writes a stand-in for the deal, so that Record and Turns
// work (on a made-up history): the cards in seat, display and pile order.
func (d *Dealer) recordDeck(s *state) {
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
}

package game

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/segmentio/encoding/json"
)

// StateVersion is the version of the serialised game state. Restore refuses
// other versions rather than guessing.
const StateVersion = 1

type snapshot struct {
	Version int    `json:"version"`
	State   state  `json:"state"`
	Rand    []byte `json:"rand"`
}

// MarshalBinary serialises the whole game, the generator's state included,
// so that a restored game continues exactly (same dice, same shuffles).
func (g *Game) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(nil)
}

// AppendBinary appends what MarshalBinary returns to b (the
// encoding.BinaryAppender interface): a caller that writes the snapshot
// into a buffer of its own (the stored table) saves a copy.
func (g *Game) AppendBinary(b []byte) ([]byte, error) {
	r, err := g.src.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("game: save generator: %w", err)
	}
	body, ok := g.movesJSON()
	st := stateWire{state: g.st, Log: logWire{history: g.st.Log, Moves: json.RawMessage("null")}}
	if ok {
		st.Log.Moves = json.RawMessage("[]")
	}
	cards := st.cards(&g.st)
	// Room for all of it, the moves and the cards most of it, at once.
	b = slices.Grow(b, len(body)+cards+1024)
	at := len(b)
	b, err = json.Append(b, snapshotWire{Version: StateVersion, Rand: r, State: st}, json.TrustRawMessage|json.SortMapKeys)
	if err != nil {
		return nil, fmt.Errorf("game: save: %w", err)
	}
	if ok {
		// The moves, last of all, go between the brackets.
		const tail = "]}}}"
		if !bytes.HasSuffix(b[at:], []byte("[]}}}")) {
			return nil, fmt.Errorf("game: save: the moves are not where they go") // not reached
		}
		b = append(append(b[:len(b)-len(tail)], body...), tail...)
	}
	return b, nil
}

// A snapshot is written at every move, and the move log is most of it
// late in a game. The log is only ever appended to, so the JSON of the
// moves written last time is kept (movesJSON) and only the moves made
// since are encoded. The snapshot is written as snapshot reads (Restore),
// with the log's moves, which come last (an outer field comes after the
// embedded struct's, and hides the embedded one of the same name),
// written in after the encoder's work.
type (
	snapshotWire struct {
		Version int       `json:"version"`
		Rand    []byte    `json:"rand"`
		State   stateWire `json:"state"`
	}
	stateWire struct {
		state
		Hands   json.RawMessage `json:"hands,omitempty"`
		Display json.RawMessage `json:"display,omitempty"`
		Draw    json.RawMessage `json:"draw,omitempty"`
		Discard json.RawMessage `json:"discard,omitempty"`
		Played  json.RawMessage `json:"played,omitempty"`
		Log     logWire         `json:"log"`
	}
	logWire struct {
		history
		Deck       json.RawMessage `json:"deck,omitempty"`
		Reshuffles json.RawMessage `json:"reshuffles,omitempty"`
		Moves      json.RawMessage `json:"moves"`
	}
)

// The lists of cards are written by hand too (cards): the encoder would
// box every card to call its MarshalText, an allocation a card. They say
// what the plain encoding says: the cards' names, null for a nil list
// inside a list, and an empty list left out where the state's field says
// omitempty (as a nil RawMessage is).

// cards fills w's lists of cards from st, written into one buffer, and
// returns their length.
func (w *stateWire) cards(st *state) int {
	n := 64
	for _, l := range [][]Card{st.Display, st.Draw, st.Discard, st.Played, st.Log.Deck} {
		n += 4*len(l) + 2
	}
	for _, ls := range [][][]Card{st.Hands, st.Log.Reshuffles} {
		for _, l := range ls {
			n += 4*len(l) + 5
		}
	}
	buf := make([]byte, 0, n)
	w.Display, buf = appendCardField(buf, st.Display)
	w.Draw, buf = appendCardField(buf, st.Draw)
	w.Discard, buf = appendCardField(buf, st.Discard)
	w.Played, buf = appendCardField(buf, st.Played)
	w.Log.Deck, buf = appendCardField(buf, st.Log.Deck)
	w.Hands, buf = appendCardListsField(buf, st.Hands)
	w.Log.Reshuffles, buf = appendCardListsField(buf, st.Log.Reshuffles)
	return len(buf)
}

// appendCardField appends the JSON of cards to buf and returns it (nil
// for no cards, which omitempty leaves out) and buf.
func appendCardField(buf []byte, cards []Card) (json.RawMessage, []byte) {
	if len(cards) == 0 {
		return nil, buf
	}
	at := len(buf)
	buf = appendCards(buf, cards)
	return buf[at:len(buf):len(buf)], buf
}

// appendCardListsField is appendCardField for a list of lists of cards.
func appendCardListsField(buf []byte, lists [][]Card) (json.RawMessage, []byte) {
	if len(lists) == 0 {
		return nil, buf
	}
	at := len(buf)
	buf = append(buf, '[')
	for i, l := range lists {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendCards(buf, l)
	}
	buf = append(buf, ']')
	return buf[at:len(buf):len(buf)], buf
}

// appendCards appends the JSON array of the cards' names (null for nil).
func appendCards(b []byte, cards []Card) []byte {
	if cards == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, k := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		switch {
		case !k.Valid():
			b = append(b, k.String()...) // card(n): no quote or backslash to escape
		case k.Joker():
			b = strconv.AppendInt(append(b, 'J'), int64(k.Number()), 10)
		default:
			b = strconv.AppendInt(append(b, k.Color().Letter()), int64(k.Number()), 10)
		}
		b = append(b, '"')
	}
	return append(b, ']')
}

// encodedMoves is the JSON of moves (the array's elements, without its
// brackets) and the moves (the game's log's as they were then, sharing
// its array: see logShared). Neither changes once made, and a game and its
// clones share them; the first game to write more moves (extended) writes
// them after the JSON in its array's spare room, which nobody else reads.
type encodedMoves struct {
	moves    []Move
	json     []byte
	extended atomic.Bool
}

// movesJSON is the JSON of the game's moves, without the brackets (ok
// false for a nil log, written as null), from the moves encoded last time
// (when they are the first of today's, as they are unless the game was
// changed by other means than its moves) and the moves since.
func (g *Game) movesJSON() (body []byte, ok bool) {
	moves := g.st.Log.Moves
	if moves == nil {
		return nil, false
	}
	prev := g.encMoves.Load()
	from := 0
	switch {
	case prev != nil && len(prev.moves) <= len(moves) && slices.Equal(prev.moves, moves[:len(prev.moves)]):
		if len(prev.moves) == len(moves) {
			return prev.json, true
		}
		from = len(prev.moves)
		if prev.extended.CompareAndSwap(false, true) {
			body = prev.json // grown in place, after what prev holds
		} else {
			body = append(make([]byte, 0, len(prev.json)*(len(moves)+8)/max(from, 1)), prev.json...)
		}
	default:
		body = make([]byte, 0, 64*len(moves))
	}
	for i, m := range moves[from:] {
		if from+i > 0 {
			body = append(body, ',')
		}
		var err error
		if body, err = json.Append(body, m, 0); err != nil {
			return nil, false // not reached: a Move always encodes
		}
	}
	// The moves are the log's, shared as a clone shares them (logShared):
	// only ever appended to, never changed in place.
	g.encMoves.Store(&encodedMoves{moves: moves[:len(moves):len(moves)], json: body})
	if !g.logShared.Load() {
		g.logShared.Store(true)
	}
	return body, true
}

// Restore rebuilds a game saved by MarshalBinary. A snapshot of another
// version, or one whose state breaks the game's invariants (a corrupt
// database), is refused with an error. RestoreChecked also checks the
// state against the game's own move log.
func Restore(data []byte) (*Game, error) {
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, fmt.Errorf("game: restore: %w", err)
	}
	if snap.Version != StateVersion {
		return nil, fmt.Errorf("game: restore: state version %d, this program reads version %d", snap.Version, StateVersion)
	}
	g := &Game{st: snap.State, src: &rand.ChaCha8{}}
	if err := g.src.UnmarshalBinary(snap.Rand); err != nil {
		return nil, fmt.Errorf("game: restore generator: %w", err)
	}
	g.rnd = rand.New(g.src)
	if g.st.Log.Moves == nil {
		g.st.Log.Moves = []Move{}
	}
	g.knownFromLog()
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("game: restore: %w", err)
	}
	return g, nil
}

// RestoreChecked is Restore for a stored game that must be where its own
// moves lead (CheckLog): a snapshot whose state was changed behind its
// log (a corrupt or tampered database whose checksum still holds) is
// refused. A game made up for a computer player's search (Determinize)
// is no such game.
func RestoreChecked(data []byte) (*Game, error) {
	g, err := Restore(data)
	if err != nil {
		return nil, err
	}
	if err := g.CheckLog(); err != nil {
		return nil, fmt.Errorf("game: restore: %w", err)
	}
	return g, nil
}

// CheckLog replays the game's own record (its moves, with the dice as
// rolled or the deck as dealt) and reports an error when that does not
// lead to the game's state: every field the rules keep must agree (the
// chance outcomes a scripted game has still to come are not part of it).
func (g *Game) CheckLog() error {
	h, err := Replay(g.Record())
	if err != nil {
		return fmt.Errorf("the move log does not replay: %w", err)
	}
	a, b := g.st, h.st
	a.Script, b.Script = nil, nil
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the state does not encode: %v %v", err1, err2)
	}
	if string(ja) != string(jb) {
		return errors.New("the state is not where its move log leads")
	}
	return nil
}

// Validate checks the game's structural invariants: seats, phase, sheets,
// dice, and for cards that every card is in exactly one place. Restore runs
// it; tests run it after every move.
func (g *Game) Validate() error {
	s := &g.st
	n := len(s.Players)
	if err := checkPlayers(s.Variant, s.Players); err != nil {
		return err
	}
	if len(s.Sheets) != n || len(s.Pending) != n || len(s.Fresh) != n {
		return errors.New("per-player lists do not match the players")
	}
	if s.Variant < Dice || s.Variant > Jokers {
		return fmt.Errorf("unknown variant %d", s.Variant)
	}
	if s.Active < 0 || s.Active >= n || s.First < 0 || s.First >= n {
		return errors.New("active player out of range")
	}
	if s.Decided>>n != 0 {
		return errors.New("decisions recorded for missing players")
	}
	okPhase := s.Phase == PhaseOver
	if s.Variant == Dice {
		okPhase = okPhase || s.Phase == PhaseWhite || s.Phase == PhaseColor
	} else {
		okPhase = okPhase || s.Phase == PhaseTake || s.Phase == PhaseNumber || s.Phase == PhasePlay
	}
	if !okPhase {
		return fmt.Errorf("phase %s in a %s game", s.Phase, s.Variant)
	}
	if (s.Phase == PhaseOver) != (s.End != NotOver) {
		return errors.New("end reason does not match the phase")
	}
	for p, sh := range s.Sheets {
		if sh.Misthrows < 0 || sh.Misthrows > MaxMisthrows {
			return fmt.Errorf("player %d has %d misthrows", p, sh.Misthrows)
		}
		for c, r := range sh.Rows {
			if r>>12 != 0 || r.Crossed(LastPos) != r.Locked() {
				return fmt.Errorf("player %d: bad %s row %#x", p, Color(c), uint16(r))
			}
			if r.Crossed(LastPos) && r.Count() < 7 {
				// the lock needs 5 crosses before the last number, plus it and the lock
				return fmt.Errorf("player %d: %s row locked with %d crosses", p, Color(c), r.Count())
			}
		}
	}
	if err := g.validateLeft(); err != nil {
		return err
	}
	if s.Variant == Dice {
		return g.validateDice()
	}
	return g.validateCards()
}

func (g *Game) validateDice() error {
	s := &g.st
	for i, d := range s.Dice {
		closed := i >= 2 && s.Closed[i-2]
		if (closed && d != 0) || (!closed && (d < 1 || d > 6)) {
			return fmt.Errorf("die %d shows %d", i, d)
		}
	}
	if s.Hands != nil || s.Display != nil || s.Draw != nil || s.Discard != nil {
		return errors.New("cards in a dice game")
	}
	return nil
}

func (g *Game) validateCards() error {
	s := &g.st
	if len(s.Hands) != len(s.Players) {
		return errors.New("hands do not match the players")
	}
	if len(s.Display) != DisplaySize {
		return fmt.Errorf("display has %d cards", len(s.Display))
	}
	if s.Phase != PhaseOver && len(s.Draw) == 0 {
		return errors.New("draw pile is empty")
	}
	var seen [maxCard]bool
	count := 0
	mark := func(cs []Card) error {
		for _, c := range cs {
			if !c.Valid() || (c.Joker() && s.Variant != Jokers) {
				return fmt.Errorf("card %s does not belong to a %s game", c, s.Variant)
			}
			if seen[c] {
				return fmt.Errorf("card %s is in two places", c)
			}
			seen[c] = true
			count++
		}
		return nil
	}
	for p, h := range s.Hands {
		if len(h) > HandSize {
			return fmt.Errorf("player %d holds %d cards", p, len(h))
		}
		if err := mark(h); err != nil {
			return err
		}
	}
	for _, pile := range [][]Card{s.Display, s.Draw, s.Discard} {
		if err := mark(pile); err != nil {
			return err
		}
	}
	if want := deckSize(s.Variant == Jokers); count != want {
		return fmt.Errorf("%d cards in the game, want %d", count, want)
	}
	return nil
}

// Clone returns an independent copy of the game: the same state and the
// generator at the same position, so that both go on alike and a change
// to one never shows in the other. It is much cheaper than a round trip
// through MarshalBinary and Restore: the game, its generator and every
// list of cards share a few allocations (each list capped at its own
// length, so that growing one moves it out rather than into its
// neighbour's room), and the log is not copied at all but shared (see
// logShared).
func (g *Game) Clone() *Game {
	st := g.st
	st.Players = slices.Clone(st.Players)
	st.Sheets = slices.Clone(st.Sheets)
	st.Fresh = slices.Clone(st.Fresh)
	st.Known = slices.Clone(st.Known)
	st.Pending = slices.Clone(st.Pending)
	st.Log = st.Log.shared()

	n, lists := 0, len(st.Hands)
	for _, l := range [][]Card{st.Display, st.Draw, st.Discard, st.Played} {
		n += len(l)
	}
	for _, l := range st.Hands {
		n += len(l)
	}
	cards := make([]Card, 0, n)
	st.Display, cards = carve(cards, st.Display)
	st.Draw, cards = carve(cards, st.Draw)
	st.Discard, cards = carve(cards, st.Discard)
	st.Played, cards = carve(cards, st.Played)
	var outer [][]Card
	if lists > 0 {
		outer = make([][]Card, 0, lists)
	}
	st.Hands, _, _ = carveLists(outer, cards, st.Hands)

	if st.Script != nil {
		sc := *st.Script
		sc.Rolls = slices.Clone(sc.Rolls)
		sc.Shuffles = cloneCardLists(sc.Shuffles)
		st.Script = &sc
	}
	box := &struct {
		g   Game
		src rand.ChaCha8
		rnd rand.Rand
	}{src: *g.src}
	box.rnd = *rand.New(&box.src)
	c := &box.g
	c.st, c.src, c.rnd = st, &box.src, &box.rnd
	c.encMoves.Store(g.encMoves.Load())
	c.logShared.Store(true)
	if !g.logShared.Load() {
		g.logShared.Store(true)
	}
	return c
}

// shared is the log's lists, each capped at its length: a copy that
// shares their arrays and grows into arrays of its own (see logShared).
func (h history) shared() history {
	h.Deck = h.Deck[:len(h.Deck):len(h.Deck)]
	h.Rolls = h.Rolls[:len(h.Rolls):len(h.Rolls)]
	h.Reshuffles = h.Reshuffles[:len(h.Reshuffles):len(h.Reshuffles)]
	h.Moves = h.Moves[:len(h.Moves):len(h.Moves)]
	h.Left = h.Left[:len(h.Left):len(h.Left)]
	return h
}

// logMemory is the log whose arrays g may reuse to become another game
// (CloneInto, renewGame): its own, or none while they may be shared with
// another game's (logShared), which then no longer holds once g's log is
// in new arrays.
func (g *Game) logMemory() history {
	if g.logShared.Load() {
		g.logShared.Store(false)
		return history{}
	}
	return g.st.Log
}

// carve copies src into the room after free's length, which has room for
// it, and returns the copy, capped at its length, and free with the copy
// taken. nil stays nil and empty stays empty, as slices.Clone keeps them.
func carve[T any](free, src []T) (dst, rest []T) {
	if src == nil {
		return nil, free
	}
	if len(src) == 0 {
		return []T{}, free
	}
	at := len(free)
	free = append(free, src...)
	return free[at:len(free):len(free)], free
}

// carveLists is carve for a list of lists: the list in outer's room, the
// lists in cards'.
func carveLists[T any](outer [][]T, cards []T, src [][]T) (dst, restOuter [][]T, rest []T) {
	if src == nil {
		return nil, outer, cards
	}
	if len(src) == 0 {
		return [][]T{}, outer, cards
	}
	at := len(outer)
	for _, l := range src {
		var c []T
		c, cards = carve(cards, l)
		outer = append(outer, c)
	}
	return outer[at:len(outer):len(outer)], outer, cards
}

func cloneCardLists(ls [][]Card) [][]Card {
	if ls == nil {
		return nil
	}
	out := make([][]Card, len(ls))
	for i, l := range ls {
		out[i] = slices.Clone(l)
	}
	return out
}

// CloneInto makes dst an independent copy of g, as Clone does, reusing
// dst's memory (its slices and generator); with dst nil it allocates a
// new game. Computer players that play out many games from one position
// use it so that a play-out does not allocate. It returns dst.
func (g *Game) CloneInto(dst *Game) *Game {
	if dst == nil || dst == g {
		return g.Clone()
	}
	d := &dst.st
	st := g.st
	st.Players = copyInto(d.Players, st.Players)
	st.Sheets = copyInto(d.Sheets, st.Sheets)
	st.Pending = copyInto(d.Pending, st.Pending)
	st.Fresh = copyInto(d.Fresh, st.Fresh)
	st.Hands = copyCardLists(d.Hands, st.Hands)
	st.Display = copyInto(d.Display, st.Display)
	st.Draw = copyInto(d.Draw, st.Draw)
	st.Discard = copyInto(d.Discard, st.Discard)
	st.Played = copyInto(d.Played, st.Played)
	dl := dst.logMemory()
	st.Log.Deck = copyInto(dl.Deck, st.Log.Deck)
	st.Log.Rolls = copyInto(dl.Rolls, st.Log.Rolls)
	st.Log.Reshuffles = copyCardLists(dl.Reshuffles, st.Log.Reshuffles)
	st.Log.Moves = copyInto(dl.Moves, st.Log.Moves)
	st.Log.Left = copyInto(dl.Left, st.Log.Left)
	st.Known = copyInto(d.Known, st.Known)
	if st.Script != nil {
		sc := *st.Script
		sc.Rolls = slices.Clone(sc.Rolls)
		sc.Shuffles = cloneCardLists(sc.Shuffles)
		st.Script = &sc
	}
	dst.st = st
	if dst.src == nil {
		dst.src = &rand.ChaCha8{}
		dst.rnd = rand.New(dst.src)
	}
	*dst.src = *g.src
	dst.encMoves.Store(g.encMoves.Load())
	return dst
}

// copyInto copies src into dst's memory; nil stays nil and empty stays
// empty, as slices.Clone keeps them.
func copyInto[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	out := append(dst[:0], src...)
	if out == nil {
		out = []T{}
	}
	return out
}

// copyCardLists copies ls into dst's lists, reusing their memory.
func copyCardLists(dst, ls [][]Card) [][]Card {
	if ls == nil {
		return nil
	}
	dst = slices.Grow(dst[:0], len(ls))[:len(ls)]
	for i, l := range ls {
		dst[i] = copyInto(dst[i], l)
	}
	return dst
}

package game

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// RecordFormat and RecordVersion identify the game record format, which
// RECORD.md documents.
const (
	RecordFormat  = "qwixx-record"
	RecordVersion = 1
)

// Record is a whole game as JSON: the setup, every chance outcome and every
// decision. Replaying it reproduces every state. Records may be written by
// hand with explicit dice and deck order, which turns a rule scenario into a
// test file. See RECORD.md.
type Record struct {
	Format  string   `json:"format"`
	Version int      `json:"version"`
	Variant string   `json:"variant"`
	Players []string `json:"players"`
	// First names the first active player (D2).
	First string `json:"first"`
	// Seed, when set, generates whatever the record does not list
	// (further rolls, the rest of the deck, reshuffles).
	Seed uint64 `json:"seed,omitempty"`
	// Rolls are the dice of each turn in order: white 1, white 2, red,
	// yellow, green, blue; a die that left the game is 0.
	Rolls [][6]int `json:"rolls,omitempty"`
	// Deck is the deck's order, top first: 4 cards to each player in seat
	// order, 4 to the display, the rest is the draw pile. It may list only the
	// top cards; the others follow in an order drawn from the seed.
	Deck []string `json:"deck,omitempty"`
	// Reshuffles are the new draw piles made from the discard pile (C4), in
	// order, top first.
	Reshuffles [][]string   `json:"reshuffles,omitempty"`
	Moves      []RecordMove `json:"moves"`
	// Left are the players who left the game with nobody playing their
	// seat from then on (RULES P2), in the order they left.
	Left []RecordLeft `json:"left,omitempty"`
}

// RecordLeft is a player who left: after the record's first After moves.
type RecordLeft struct {
	Player string `json:"player"`
	After  int    `json:"after"`
}

// RecordMove is one decision in a record.
type RecordMove struct {
	Player string `json:"player"`
	// Action is pass, white, color, take, number or play.
	Action string `json:"action"`
	// Row is the row crossed (white, color, number), or the colour the cards
	// of a play count as (may be left out when a colour card is played).
	Row string `json:"row,omitempty"`
	// White is the white die (1 or 2) of a color move; Sum may be given
	// instead (or as well, as a check).
	White int `json:"white,omitempty"`
	Sum   int `json:"sum,omitempty"`
	// Take lists the display numbers taken.
	Take []int `json:"take,omitempty"`
	// Cards are the cards played; Cross the numbers crossed with them.
	Cards []string `json:"cards,omitempty"`
	Cross []int    `json:"cross,omitempty"`
}

// String is the move as compact JSON.
func (m RecordMove) String() string {
	b, _ := json.Marshal(m)
	return string(b)
}

// StepError reports the first illegal step of a record.
type StepError struct {
	Step   int // 1-based index into the record's moves
	Turn   int
	Player string
	Move   RecordMove
	Err    error
}

// Error names the step, turn, player, move and reason.
func (e *StepError) Error() string {
	return fmt.Sprintf("step %d (turn %d, %s): %s: %v", e.Step, e.Turn, e.Player, e.Move, e.Err)
}

// Unwrap returns the reason, usually a *MoveError.
func (e *StepError) Unwrap() error { return e.Err }

var errBadReshuffle = errors.New("the record's reshuffle is not a shuffle of the discard pile")

// script holds a record's chance outcomes while it is replayed. It is saved
// with the game, so a game started from a record keeps following it after a
// restore; once used up it is dropped and the generator takes over.
type script struct {
	Rolls       [][6]int `json:"rolls,omitempty"`
	NextRoll    int      `json:"next_roll,omitempty"`
	Shuffles    [][]Card `json:"shuffles,omitempty"`
	NextShuffle int      `json:"next_shuffle,omitempty"`
	err         error
}

// usedUp reports whether every scripted outcome has been used.
func (s *script) usedUp() bool { return s.NextRoll >= len(s.Rolls) && s.NextShuffle >= len(s.Shuffles) }

// ParseRecord reads a record strictly: unknown fields, another format or
// version are errors.
func ParseRecord(data []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("record: format %q, want %q", r.Format, RecordFormat)
	}
	if r.Version != RecordVersion {
		return nil, fmt.Errorf("record: version %d, this program reads version %d", r.Version, RecordVersion)
	}
	return &r, nil
}

// Record returns the game so far as a record.
func (g *Game) Record() *Record {
	s := &g.st
	r := &Record{
		Format:  RecordFormat,
		Version: RecordVersion,
		Variant: s.Variant.String(),
		Players: append([]string(nil), s.Players...),
		First:   s.Players[s.First],
		Moves:   make([]RecordMove, 0, len(s.Log.Moves)),
	}
	if s.Variant == Dice {
		r.Rolls = append([][6]int(nil), s.Log.Rolls...)
	} else {
		r.Deck = cardNames(s.Log.Deck)
		for _, pile := range s.Log.Reshuffles {
			r.Reshuffles = append(r.Reshuffles, cardNames(pile))
		}
	}
	// A dice turn is action 1, which every player decides at least once
	// (more often for a changed choice, P4) and which resolves once all
	// have, then one action-2 move: write each colour move's sum, from its
	// turn's roll, for readers.
	turn, decided, all := 0, 0, 1<<len(s.Players)-1
	for _, m := range s.Log.Moves {
		rm := RecordMove{Player: s.Players[m.Player], Action: m.Kind.String()}
		switch m.Kind {
		case White, Number:
			rm.Row = m.Color.String()
		case Colored:
			rm.Row = m.Color.String()
			rm.White = int(m.White)
			if turn < len(s.Log.Rolls) {
				d := s.Log.Rolls[turn]
				rm.Sum = d[m.White-1] + d[DieOf(m.Color)]
			}
		case Take:
			rm.Take = m.TakeNumbers()
		case Play:
			rm.Row = m.Color.String()
			rm.Cards = cardNames(m.CardList())
			rm.Cross = m.CrossNumbers()
		}
		if s.Variant == Dice {
			if decided == all { // the action-2 move ends the turn
				turn, decided = turn+1, 0
			} else {
				decided |= 1 << m.Player
			}
		}
		r.Moves = append(r.Moves, rm)
	}
	for _, d := range s.Log.Left {
		r.Left = append(r.Left, RecordLeft{Player: s.Players[d.Player], After: d.Moves})
	}
	return r
}

func cardNames(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func parseCards(names []string, v Variant) ([]Card, error) {
	out := make([]Card, 0, len(names))
	var seen [maxCard]bool
	for _, n := range names {
		c, err := ParseCard(n)
		if err != nil {
			return nil, err
		}
		if c.Joker() && v != Jokers {
			return nil, fmt.Errorf("card %s: jokers belong to the jokers variant only", c)
		}
		if seen[c] {
			return nil, fmt.Errorf("card %s is listed twice", c)
		}
		seen[c] = true
		out = append(out, c)
	}
	return out, nil
}

// Replayer plays a record step by step.
type Replayer struct {
	rec  *Record
	g    *Game
	next int
}

// NewReplayer sets up the record's game, before its first move.
func NewReplayer(rec *Record) (*Replayer, error) {
	v, err := ParseVariant(rec.Variant)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if err := checkPlayers(v, rec.Players); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	first := slices.Index(rec.Players, rec.First)
	if first < 0 {
		return nil, fmt.Errorf("record: first player %q is not among the players", rec.First)
	}
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[:], rec.Seed)
	g := newGame(v, rec.Players, seed)
	sc := &script{}
	for i, roll := range rec.Rolls {
		for d, x := range roll {
			if x < 0 || x > 6 || (d < 2 && x == 0) {
				return nil, fmt.Errorf("record: roll %d: die %d shows %d", i+1, d+1, x)
			}
		}
		sc.Rolls = append(sc.Rolls, roll)
	}
	var deck []Card
	if v.CardGame() {
		if deck, err = parseCards(rec.Deck, v); err != nil {
			return nil, fmt.Errorf("record: deck: %w", err)
		}
		var rest []Card
		for _, c := range FullDeck(v == Jokers) {
			if !slices.Contains(deck, c) {
				rest = append(rest, c)
			}
		}
		g.rnd.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		deck = append(deck, rest...)
		for i, pile := range rec.Reshuffles {
			cs, err := parseCards(pile, v)
			if err != nil {
				return nil, fmt.Errorf("record: reshuffle %d: %w", i+1, err)
			}
			sc.Shuffles = append(sc.Shuffles, cs)
		}
	} else if len(rec.Deck) > 0 || len(rec.Reshuffles) > 0 {
		return nil, errors.New("record: a dice game has no deck")
	}
	if v.CardGame() && len(rec.Rolls) > 0 {
		return nil, errors.New("record: a card game has no dice rolls")
	}
	after := 0
	for i, l := range rec.Left {
		if !slices.Contains(rec.Players, l.Player) {
			return nil, fmt.Errorf("record: left %d: %q is not among the players", i+1, l.Player)
		}
		if l.After < after || l.After > len(rec.Moves) {
			return nil, fmt.Errorf("record: left %d: after %d moves: out of order or past the last move", i+1, l.After)
		}
		after = l.After
	}
	g.st.Script = sc
	g.setup(first, deck)
	if sc.err != nil {
		return nil, fmt.Errorf("record: first roll: %w", sc.err)
	}
	g.dropUsedScript()
	r := &Replayer{rec: rec, g: g}
	if err := r.leave(); err != nil {
		return nil, err
	}
	return r, nil
}

// leave applies the departures that come after the moves replayed so far.
func (r *Replayer) leave() error {
	for _, l := range r.rec.Left {
		if l.After != r.next {
			continue
		}
		if err := r.g.Leave(slices.Index(r.g.st.Players, l.Player)); err != nil {
			return fmt.Errorf("record: %s leaves after %d moves: %w", l.Player, l.After, err)
		}
	}
	return nil
}

// Game is the game as far as it has been replayed. It keeps following the
// record's chance outcomes while moves are applied to it.
func (r *Replayer) Game() *Game { return r.g }

// Done reports whether every move has been replayed.
func (r *Replayer) Done() bool { return r.next >= len(r.rec.Moves) }

// Step replays the next move. An illegal move returns a *StepError and
// leaves the game as it was before that move.
func (r *Replayer) Step() error {
	if r.Done() {
		return errors.New("record: no more moves")
	}
	rm := r.rec.Moves[r.next]
	r.next++
	g := r.g
	fail := func(err error) error {
		return &StepError{Step: r.next, Turn: g.Turn(), Player: rm.Player, Move: rm, Err: err}
	}
	m, err := g.moveFromRecord(rm)
	if err != nil {
		return fail(err)
	}
	sc := g.st.Script
	if err := g.Apply(m); err != nil {
		return fail(err)
	}
	if sc != nil && sc.err != nil {
		return fail(sc.err)
	}
	g.dropUsedScript()
	if err := r.leave(); err != nil {
		return fail(err)
	}
	return nil
}

// dropUsedScript forgets a script whose outcomes are all used.
func (g *Game) dropUsedScript() {
	if g.st.Script != nil && g.st.Script.usedUp() && g.st.Script.err == nil {
		g.st.Script = nil
	}
}

// Replay plays a whole record and returns the final game, or the first
// illegal step as a *StepError.
func Replay(rec *Record) (*Game, error) {
	r, err := NewReplayer(rec)
	if err != nil {
		return nil, err
	}
	for !r.Done() {
		if err := r.Step(); err != nil {
			return r.Game(), err
		}
	}
	return r.Game(), nil
}

// moveFromRecord turns a record's move into a Move for this game's state.
func (g *Game) moveFromRecord(rm RecordMove) (Move, error) {
	p := slices.Index(g.st.Players, rm.Player)
	if p < 0 {
		return Move{}, fmt.Errorf("unknown player %q", rm.Player)
	}
	row := func() (Color, error) {
		if rm.Row == "" {
			return 0, errors.New(`the move needs a "row"`)
		}
		return ParseColor(rm.Row)
	}
	switch rm.Action {
	case "pass":
		return PassMove(p), nil
	case "white", "number":
		c, err := row()
		if err != nil {
			return Move{}, err
		}
		if rm.Action == "white" {
			return WhiteMove(p, c), nil
		}
		return NumberMove(p, c), nil
	case "color":
		c, err := row()
		if err != nil {
			return Move{}, err
		}
		w := rm.White
		d := g.st.Dice
		if w == 0 && rm.Sum != 0 {
			for _, cand := range []int{1, 2} {
				if d[cand-1]+d[DieOf(c)] == rm.Sum {
					w = cand
					break
				}
			}
			if w == 0 {
				return Move{}, fmt.Errorf("no white die makes %d with the %s die (dice %v)", rm.Sum, c, d)
			}
		}
		if w != 1 && w != 2 {
			return Move{}, errors.New(`a color move needs "white": 1 or 2 (or "sum")`)
		}
		if rm.Sum != 0 && d[w-1]+d[DieOf(c)] != rm.Sum {
			return Move{}, fmt.Errorf("white die %d and the %s die make %d, not %d", w, c, d[w-1]+d[DieOf(c)], rm.Sum)
		}
		return ColoredMove(p, w, c), nil
	case "take":
		if len(rm.Take) > 3 {
			return Move{}, fmt.Errorf("take at most 3 cards, not %d", len(rm.Take))
		}
		return TakeMove(p, rm.Take...), nil
	case "play":
		if len(rm.Cards) == 0 || len(rm.Cards) > 3 {
			return Move{}, fmt.Errorf("play 1 to 3 cards, not %d", len(rm.Cards))
		}
		cards, err := parseCards(rm.Cards, g.st.Variant)
		if err != nil {
			return Move{}, err
		}
		var c Color
		if rm.Row != "" {
			if c, err = ParseColor(rm.Row); err != nil {
				return Move{}, err
			}
		} else if i := firstColored(cards); !cards[i].Joker() {
			c = cards[i].Color()
		} else {
			return Move{}, errors.New(`jokers played alone need a "row" naming their colour`)
		}
		for i, n := range rm.Cross {
			if n < 2 || n > 12 {
				return Move{}, fmt.Errorf("cannot cross %d", n)
			}
			if slices.Contains(rm.Cross[:i], n) {
				return Move{}, fmt.Errorf("cross lists %d twice: a row has each number once", n)
			}
		}
		return PlayMove(p, c, cards, rm.Cross...), nil
	}
	return Move{}, fmt.Errorf("unknown action %q (want pass, white, color, take, number or play)", rm.Action)
}

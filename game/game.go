package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
)

// Variant is the kind of game.
type Variant uint8

// The variants: the dice game, the card game, and the card game with jokers.
const (
	Dice Variant = iota + 1
	Cards
	Jokers
)

var variantNames = [...]string{"", "dice", "cards", "jokers"}

// String names the variant as records write it.
func (v Variant) String() string {
	if v >= Dice && v <= Jokers {
		return variantNames[v]
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// ParseVariant reads "dice", "cards" or "jokers".
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if i > 0 && strings.EqualFold(strings.TrimSpace(s), n) {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q (want dice, cards or jokers)", s)
}

// CardGame reports whether v is played with cards.
func (v Variant) CardGame() bool { return v == Cards || v == Jokers }

// Phase is the action the game waits for.
type Phase uint8

// The phases. The dice game alternates PhaseWhite and PhaseColor; the card
// game cycles PhaseTake, PhaseNumber, PhasePlay.
const (
	PhaseWhite  Phase = iota + 1 // dice action 1: everybody, white sum (D4)
	PhaseColor                   // dice action 2: active player, white + colour (D5)
	PhaseTake                    // card action 1: active player takes cards (C4)
	PhaseNumber                  // card action 2: everybody, number for everyone (C5)
	PhasePlay                    // card action 3: active player plays cards (C6)
	PhaseOver                    // the game has ended
)

var phaseNames = [...]string{"", "white", "color", "take", "number", "play", "over"}

// String names the phase.
func (p Phase) String() string {
	if p >= PhaseWhite && p <= PhaseOver {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// Simultaneous reports whether every player decides in this phase (D4, C5).
func (p Phase) Simultaneous() bool { return p == PhaseWhite || p == PhaseNumber }

// End says why a game ended.
type End uint8

// Why a game ended.
const (
	NotOver      End = iota
	EndLocks         // dice: two rows locked (D9); cards: a player locked two own rows (C9)
	EndMisthrows     // a player crossed a 4th misthrow (D9, C9)
)

// Player limits (D1, C2). SoloPlayers is the one sheet of the solo dice
// game (not in the rulebooks): the published optimum's setting, where one
// player is always active and the game ends as D9 says.
const (
	MinPlayers  = 2
	MaxPlayers  = 5
	SoloPlayers = 1
)

// HandSize is the number of cards a card-game player holds after taking (C4);
// StartHand the number dealt (C3); DisplaySize the display's size.
const (
	HandSize    = 5
	StartHand   = 4
	DisplaySize = 4
)

// Die indices into the dice array: two white dice, then one per colour.
const (
	White1 = 0
	White2 = 1
)

// DieOf is the index of the die of colour c.
func DieOf(c Color) int { return 2 + int(c) }

// Config starts a new game.
type Config struct {
	Variant Variant
	Players []string // seat order; names must be distinct and non-empty
	// Seed seeds the ChaCha8 generator for the first player, dice and
	// shuffles. Production fills it from crypto/rand; tests fix it.
	Seed [32]byte
}

// Game is a game of Qwixx in progress. Its methods are not safe for
// concurrent use: the caller serialises access to one game.
type Game struct {
	st  state
	src *rand.ChaCha8
	rnd *rand.Rand
	// encMoves is the JSON of the moves written in the last snapshot
	// (MarshalBinary), kept to write the next one.
	encMoves atomic.Pointer[encodedMoves]
	// logShared is set when the arrays of the log's lists may be shared
	// with another game's: Clone shares them rather than copying them.
	// The log is only ever appended to and a clone's lists are capped at
	// their length, so neither game sees the other's appends; but while
	// it is set, nothing may write into those arrays in place, as
	// CloneInto and renewGame would reuse them (logMemory).
	logShared atomic.Bool
}

// state is everything that persists, apart from the generator.
type state struct {
	Variant  Variant          `json:"variant"`
	Players  []string         `json:"players"`
	Sheets   []Sheet          `json:"sheets"`
	First    int              `json:"first"`
	Turn     int              `json:"turn"`
	Active   int              `json:"active"`
	Phase    Phase            `json:"phase"`
	End      End              `json:"end,omitempty"`
	Decided  uint8            `json:"decided"`
	Pending  []Move           `json:"pending"`
	Crossed  bool             `json:"crossed"` // active player crossed this turn (D6, C7)
	Fresh    [][NumColors]Row `json:"fresh"`   // crosses made in the current turn
	Dice     [6]int           `json:"dice,omitempty"`
	Closed   [NumColors]bool  `json:"closed,omitempty"`
	Hands    [][]Card         `json:"hands,omitempty"`
	Display  []Card           `json:"display,omitempty"`
	Draw     []Card           `json:"draw,omitempty"` // Draw[0] is the top
	Discard  []Card           `json:"discard,omitempty"`
	Played   []Card           `json:"played,omitempty"`
	PlayedAs Color            `json:"played_as,omitempty"`
	PlayedBy int              `json:"played_by,omitempty"`
	Log      history          `json:"log"`
	Script   *script          `json:"script,omitempty"` // a record's chance outcomes still to come
	// Known counts, per player and number, the cards they surely hold:
	// numbers taken from the display (C4), less one for each card of that
	// number they played since (C6). Public; derived from Log (not saved).
	Known [][13]uint8 `json:"-"`
}

// history is what a record needs besides the setup: chance outcomes and moves.
type history struct {
	Deck       []Card   `json:"deck,omitempty"`
	Rolls      [][6]int `json:"rolls,omitempty"`
	Reshuffles [][]Card `json:"reshuffles,omitempty"`
	Moves      []Move   `json:"moves"`
	// Left are the seats whose players left, nobody playing them (P2).
	Left []Departure `json:"left,omitempty"`
}

// New starts a game: seats the players, draws the first player (D2), and
// rolls the dice (D3) or shuffles and deals (C3).
func New(cfg Config) (*Game, error) {
	if cfg.Variant < Dice || cfg.Variant > Jokers {
		return nil, fmt.Errorf("game: unknown variant %d", cfg.Variant)
	}
	if err := checkPlayers(cfg.Variant, cfg.Players); err != nil {
		return nil, err
	}
	g := newGame(cfg.Variant, cfg.Players, cfg.Seed)
	first := g.rnd.IntN(len(cfg.Players))
	var deck []Card
	if cfg.Variant.CardGame() {
		deck = FullDeck(cfg.Variant == Jokers)
		g.rnd.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
	g.setup(first, deck)
	return g, nil
}

// checkPlayers checks the seats: 2–5 distinct names, or one for the solo
// dice game.
func checkPlayers(v Variant, names []string) error {
	solo := v == Dice && len(names) == SoloPlayers
	if !solo && (len(names) < MinPlayers || len(names) > MaxPlayers) {
		return fmt.Errorf("game: %d players: a game needs %d to %d", len(names), MinPlayers, MaxPlayers)
	}
	seen := make(map[string]bool, len(names))
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return fmt.Errorf("game: player %d has no name", i+1)
		}
		if seen[n] {
			return fmt.Errorf("game: two players are named %q", n)
		}
		seen[n] = true
	}
	return nil
}

// renewGame is newGame in dst's memory (its slices reused, its generator
// seeded again), or in new memory when dst is nil.
func renewGame(dst *Game, v Variant, players []string, seed [32]byte) *Game {
	if dst == nil {
		dst = &Game{}
	}
	if dst.src == nil {
		dst.src = rand.NewChaCha8(seed)
		dst.rnd = rand.New(dst.src)
	} else {
		dst.src.Seed(seed)
	}
	dst.encMoves.Store(nil)
	d := &dst.st
	dl := dst.logMemory()
	n := len(players)
	moves := dl.Moves[:0]
	if moves == nil {
		moves = []Move{}
	}
	st := state{
		Variant: v,
		Players: append(d.Players[:0], players...),
		Sheets:  zeroed(d.Sheets, n),
		Pending: zeroed(d.Pending, n),
		Fresh:   zeroed(d.Fresh, n),
		Hands:   d.Hands[:0],
		Display: d.Display[:0],
		Draw:    d.Draw[:0],
		Discard: d.Discard[:0],
		Played:  d.Played[:0],
		Log:     history{Deck: dl.Deck[:0], Moves: moves},
	}
	if v.CardGame() {
		st.Known = zeroed(d.Known, n)
	}
	dst.st = st
	return dst
}

// zeroed is s resized to n zero values, in s's memory when it has room.
func zeroed[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}

// newGame is a game of variant v with the given players before its setup,
// its generator seeded with seed.
func newGame(v Variant, players []string, seed [32]byte) *Game {
	return renewGame(nil, v, players, seed)
}

// setup places the first player and, for cards, deals from deck (top first:
// four cards to each player in seat order, four to the display, the rest is
// the draw pile), then starts the first turn.
func (g *Game) setup(first int, deck []Card) {
	s := &g.st
	s.First = first
	s.Active = first
	if s.Variant.CardGame() {
		s.Log.Deck = append([]Card(nil), deck...)
		s.Hands = make([][]Card, len(s.Players))
		for p := range s.Hands {
			s.Hands[p] = sortCards(append(make([]Card, 0, HandSize), deck[:StartHand]...))
			deck = deck[StartHand:]
		}
		s.Display = append([]Card(nil), deck[:DisplaySize]...)
		s.Draw = append([]Card(nil), deck[DisplaySize:]...)
		s.Discard = []Card{}
	}
	g.startTurn()
}

func (g *Game) startTurn() {
	s := &g.st
	s.Turn++
	s.Crossed = false
	s.Decided = 0
	clear(s.Fresh)
	if s.Variant == Dice {
		g.roll()
		s.Phase = PhaseWhite
	} else {
		s.Phase = PhaseTake
	}
}

// Variant is the game's variant.
func (g *Game) Variant() Variant { return g.st.Variant }

// Players lists the players' names in seat order.
func (g *Game) Players() []string { return append([]string(nil), g.st.Players...) }

// NumPlayers is the number of seats.
func (g *Game) NumPlayers() int { return len(g.st.Players) }

// Phase is the action the game waits for.
func (g *Game) Phase() Phase { return g.st.Phase }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.st.Phase == PhaseOver }

// EndReason says why the game ended (NotOver while it runs).
func (g *Game) EndReason() End { return g.st.End }

// Turn is the number of the current turn, from 1.
func (g *Game) Turn() int { return g.st.Turn }

// Active is the seat of the active player.
func (g *Game) Active() int { return g.st.Active }

// Sheet returns a copy of player p's sheet.
func (g *Game) Sheet(p int) Sheet { return g.st.Sheets[p] }

// Dice returns the current dice: white 1, white 2, red, yellow, green, blue.
// A die that left the game shows 0.
func (g *Game) Dice() [6]int { return g.st.Dice }

// Closed reports whether row c is locked for everybody (dice game, D7).
func (g *Game) Closed(c Color) bool { return g.st.Closed[c] }

// Decided reports whether player p has decided in the current simultaneous
// action.
func (g *Game) Decided(p int) bool { return g.st.Decided&(1<<p) != 0 }

// Waiting lists the seats that may act now: in a simultaneous action every
// player who has not decided yet, otherwise the active player; none once the
// game is over.
func (g *Game) Waiting() []int { return g.AppendWaiting(nil) }

// AppendWaiting appends the seats that may act now to dst (see Waiting).
func (g *Game) AppendWaiting(dst []int) []int {
	s := &g.st
	switch {
	case s.Phase == PhaseOver:
		return dst
	case s.Phase.Simultaneous():
		for p := range s.Players {
			if !g.Decided(p) {
				dst = append(dst, p)
			}
		}
		return dst
	default:
		return append(dst, s.Active)
	}
}

// Decision is player p's choice in the current action that everybody
// decides, while it is not resolved yet (ok false when p has not decided,
// or the action is not such an action). Only p may be shown it: the others
// see that p has decided, not what (D4).
func (g *Game) Decision(p int) (Move, bool) {
	s := &g.st
	if p < 0 || p >= len(s.Players) || !s.Phase.Simultaneous() || !g.Decided(p) {
		return Move{}, false
	}
	return s.Pending[p], true
}

// Choices lists what player p may choose now: LegalMoves, and for a player
// who has decided an action that everybody decides, the choices they may
// change to (P4), their current one included.
func (g *Game) Choices(p int) []Move {
	s := &g.st
	if p < 0 || p >= len(s.Players) || s.Phase == PhaseOver {
		return nil
	}
	if s.Phase.Simultaneous() && g.Decided(p) {
		if s.Variant == Dice {
			return g.appendDiceMoves(nil, p)
		}
		return g.appendCardMoves(nil, p)
	}
	return g.LegalMoves(p)
}

// MayAct reports whether player p may make a move now (a decided player's
// change of mind, P4, is not counted: see Choices).
func (g *Game) MayAct(p int) bool {
	s := &g.st
	if p < 0 || p >= len(s.Players) || s.Phase == PhaseOver {
		return false
	}
	if s.Phase.Simultaneous() {
		return !g.Decided(p)
	}
	return p == s.Active
}

// WhiteSum is the sum of the two white dice (dice game).
func (g *Game) WhiteSum() int { return g.st.Dice[White1] + g.st.Dice[White2] }

// TopNumber is the number on top of the draw pile, which in action 2 is the
// number for everyone (card game, C5).
func (g *Game) TopNumber() int {
	if len(g.st.Draw) == 0 {
		return 0
	}
	return g.st.Draw[0].Number()
}

// Reshuffles counts the times the discard pile became the new draw pile
// (C4). The count is public.
func (g *Game) Reshuffles() int { return len(g.st.Log.Reshuffles) }

// DrawSize is the number of cards in the draw pile (public).
func (g *Game) DrawSize() int { return len(g.st.Draw) }

// Hand returns a copy of player p's hand (private information, C10).
func (g *Game) Hand(p int) []Card { return append([]Card(nil), g.st.Hands[p]...) }

// Scores lists every player's total (S4).
func (g *Game) Scores() []int {
	out := make([]int, len(g.st.Sheets))
	for i := range g.st.Sheets {
		out[i] = g.st.Sheets[i].Score()
	}
	return out
}

// Winners lists the seats with the highest total; equal totals share the win
// (D10, P3).
func (g *Game) Winners() []int { return Winners(g.Scores()) }

// Winners lists the indices of the highest scores.
func Winners(scores []int) []int {
	var out []int
	for i, s := range scores {
		switch {
		case len(out) == 0 || s > scores[out[0]]:
			out = append(out[:0], i)
		case s == scores[out[0]]:
			out = append(out, i)
		}
	}
	return out
}

// Moves returns the moves applied so far, in order.
func (g *Game) Moves() []Move { return append([]Move(nil), g.st.Log.Moves...) }

// Apply checks move m and, if it is legal, plays it. An illegal move returns
// a *MoveError and changes nothing.
func (g *Game) Apply(m Move) error {
	if err := g.Check(m); err != nil {
		return err
	}
	m = m.Canonical()
	g.st.Log.Moves = append(g.st.Log.Moves, m)
	switch g.st.Phase {
	case PhaseWhite, PhaseNumber:
		g.decide(m)
	case PhaseColor:
		g.applyColored(m)
	case PhaseTake:
		g.applyTake(m)
	case PhasePlay:
		g.applyPlay(m)
	}
	g.dropUsedScript()
	return nil
}

// Check reports whether move m is legal now, without playing it.
func (g *Game) Check(m Move) error {
	s := &g.st
	p := m.Player
	if p < 0 || p >= len(s.Players) {
		return &MoveError{Reason: ReasonNoSuchPlayer, Player: p}
	}
	if s.Phase == PhaseOver {
		return &MoveError{Reason: ReasonGameOver, Player: p}
	}
	if s.Phase.Simultaneous() {
		// A decided player may change their choice until the action
		// resolves (P4); the same choice again changes nothing.
		if g.Decided(p) && s.Pending[p] == m.Canonical() {
			return &MoveError{Reason: ReasonAlreadyDecided, Player: p}
		}
	} else if p != s.Active {
		return &MoveError{Reason: ReasonNotYourTurn, Player: p}
	}
	var e MoveError
	switch {
	case m.Kind == Pass && (s.Phase == PhaseWhite || s.Phase == PhaseColor || s.Phase == PhaseNumber):
		return nil
	case m.Kind == White && s.Phase == PhaseWhite:
		e = g.checkRow(p, m.Color, g.WhiteSum())
	case m.Kind == Colored && s.Phase == PhaseColor:
		e = g.checkColored(m)
	case m.Kind == Number && s.Phase == PhaseNumber:
		e = g.checkRow(p, m.Color, g.TopNumber())
	case m.Kind == Take && s.Phase == PhaseTake:
		var buf [HandSize]int
		_, e = g.takeSlots(m, &buf)
	case m.Kind == Play && s.Phase == PhasePlay:
		_, _, e = g.checkPlay(m)
		if e.Reason == ReasonGap {
			e.Left = leftOut(m)
		}
	default:
		e = MoveError{Reason: ReasonWrongAction}
	}
	e.Player = p
	return e.err()
}

// checkRow checks crossing n in row c of p's sheet, including rows closed
// for everybody in the dice game (D7). A zero Reason means allowed.
func (g *Game) checkRow(p int, c Color, n int) MoveError {
	if !c.Valid() {
		return MoveError{Reason: ReasonBadColor, Color: c}
	}
	if g.st.Closed[c] {
		return MoveError{Reason: ReasonRowClosed, Color: c, Number: n}
	}
	return g.st.Sheets[p].problem(c, n)
}

// canCross is checkRow's fast path for listing legal moves.
func (g *Game) canCross(p int, c Color, n int) bool {
	return !g.st.Closed[c] && g.st.Sheets[p].CanCross(c, n)
}

// decide records a choice in a simultaneous action and resolves the action
// once everybody has chosen.
func (g *Game) decide(m Move) {
	s := &g.st
	s.Pending[m.Player] = m
	s.Decided |= 1 << m.Player
	if int(s.Decided) != 1<<len(s.Players)-1 {
		return
	}
	n := g.WhiteSum()
	if s.Phase == PhaseNumber {
		n = g.TopNumber()
	}
	// All choices were checked against the sheets and open rows as they were
	// before the action; apply them together (D4, D7, C5).
	var locked [NumColors]bool
	for p, pm := range s.Pending {
		if pm.Kind == Pass {
			continue
		}
		if g.crossFor(p, pm.Color, n) {
			locked[pm.Color] = true
		}
		if p == s.Active {
			s.Crossed = true
		}
	}
	if s.Variant == Dice {
		for c, l := range locked {
			if l {
				g.closeRow(Color(c))
			}
		}
	}
	if g.checkEnd() {
		return
	}
	if s.Phase == PhaseWhite {
		s.Phase = PhaseColor
	} else {
		s.Phase = PhasePlay
	}
}

// crossFor crosses n in row c for player p and remembers it as fresh.
func (g *Game) crossFor(p int, c Color, n int) (locked bool) {
	s := &g.st
	locked = s.Sheets[p].cross(c, n)
	pos := Position(c, n)
	s.Fresh[p][c] |= 1 << pos
	if locked {
		s.Fresh[p][c] |= 1 << LockPos
	}
	return locked
}

// closeRow locks row c for everybody and removes its die (D7).
func (g *Game) closeRow(c Color) {
	g.st.Closed[c] = true
	g.st.Dice[DieOf(c)] = 0
}

// checkEnd ends the game if D9 or C9 says so, and reports whether it did.
func (g *Game) checkEnd() bool {
	s := &g.st
	for _, sh := range s.Sheets {
		if sh.Misthrows >= MaxMisthrows {
			s.End = EndMisthrows
		}
	}
	if s.End == NotOver {
		if s.Variant == Dice {
			closed := 0
			for _, c := range s.Closed {
				if c {
					closed++
				}
			}
			if closed >= 2 {
				s.End = EndLocks
			}
		} else {
			for _, sh := range s.Sheets {
				if sh.Locks() >= 2 {
					s.End = EndLocks
				}
			}
		}
	}
	if s.End != NotOver {
		s.Phase = PhaseOver
		return true
	}
	return false
}

// ActiveHasCrossed reports whether the active player has crossed a number
// in the current turn; a turn that ends without one costs them a misthrow
// (D6, C7). Public once action 1 has resolved.
func (g *Game) ActiveHasCrossed() bool { return g.st.Crossed }

// endTurn gives the active player a misthrow if they crossed nothing (D6,
// C7) unless nobody plays their seat (P2), checks the end, and passes the
// turn clockwise (D2).
func (g *Game) endTurn() {
	s := &g.st
	if !s.Crossed && !g.unplayed(s.Active) {
		s.Sheets[s.Active].Misthrows++
	}
	if g.checkEnd() {
		return
	}
	s.Active = (s.Active + 1) % len(s.Players)
	g.startTurn()
}

// ErrNoMove is returned by TimeoutMove when the player has nothing to do.
var ErrNoMove = errors.New("game: the player has no move to make now")

// TimeoutMove is the move made for player p when their time runs out, or
// when they left the game (P1, P2): a pass where passing is allowed; where the
// rules force an action, the least helpful legal one, crossing nothing (take
// the leftmost display cards; play one card, crossing nothing).
func (g *Game) TimeoutMove(p int) (Move, error) {
	if !g.MayAct(p) {
		return Move{}, ErrNoMove
	}
	s := &g.st
	switch s.Phase {
	case PhaseTake:
		k := HandSize - len(s.Hands[p])
		nums := make([]int, 0, k)
		for _, c := range s.Display[:k] {
			nums = append(nums, c.Number())
		}
		return TakeMove(p, nums...), nil
	case PhasePlay:
		c := s.Hands[p][0]
		as := c.Color()
		return PlayMove(p, as, []Card{c}), nil
	}
	return PassMove(p), nil
}

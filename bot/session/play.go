package session

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/game"
)

// The play builder: how a player of the card game puts together the play
// of their action 3 (RULES C6) in the private hand view, one menu at a
// time: pick one to three cards of the hand, name the colour they count
// as when all are jokers, choose the numbers to cross, then confirm. Each
// step is a click whose custom_id carries the selection so far (no state
// is kept between clicks), so every step reads it back strictly and
// accepts only what the menu offered.

// ErrBadChoice reports a builder step the menus never offered: a value
// not in the menu, a selection the bot could not have written. A client
// that sends one is not the bot's (the adapter treats it as forged).
var ErrBadChoice = errors.New("session: not a choice the play builder offered")

// ErrNoColor reports a selection of jokers only whose colour is not
// chosen yet (C6: a joker counts as the colour its player names).
var ErrNoColor = errors.New("session: the play has no colour yet")

// PlaySel is a card play being put together in the play builder: the
// cards, the colour they count as, the numbers to cross. It travels in
// the custom_ids of the (ephemeral, private) builder message as
// "R4-R5-J7.r.4-5-7" (Encode).
type PlaySel struct {
	Cards    []game.Card
	Color    game.Color
	HasColor bool
	Cross    []int
}

// Encode writes the selection as it travels in a custom_id.
func (p PlaySel) Encode() string {
	cs := make([]string, len(p.Cards))
	for i, c := range p.Cards {
		cs[i] = c.String()
	}
	col := ""
	if p.HasColor {
		col = string(p.Color.Letter() + 'a' - 'A')
	}
	ns := make([]string, len(p.Cross))
	for i, n := range p.Cross {
		ns[i] = strconv.Itoa(n)
	}
	return strings.Join(cs, "-") + "." + col + "." + strings.Join(ns, "-")
}

// DecodePlay reads a selection written by Encode: at most three cards, a
// colour or none, at most three numbers 2–12; anything else is
// ErrBadChoice.
func DecodePlay(s string) (PlaySel, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return PlaySel{}, ErrBadChoice
	}
	var p PlaySel
	if parts[0] != "" {
		for _, f := range strings.Split(parts[0], "-") {
			c, err := game.ParseCard(f)
			if err != nil {
				return PlaySel{}, ErrBadChoice
			}
			p.Cards = append(p.Cards, c)
		}
	}
	if len(p.Cards) > 3 {
		return PlaySel{}, ErrBadChoice
	}
	if parts[1] != "" {
		c, err := game.ParseColor(parts[1])
		if err != nil {
			return PlaySel{}, ErrBadChoice
		}
		p.Color, p.HasColor = c, true
	}
	if parts[2] != "" {
		for _, f := range strings.Split(parts[2], "-") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 2 || n > 12 {
				return PlaySel{}, ErrBadChoice
			}
			p.Cross = append(p.Cross, n)
		}
	}
	if len(p.Cross) > 3 {
		return PlaySel{}, ErrBadChoice
	}
	return p, nil
}

// inferColor sets the colour from the colour cards when there is one: a
// play's cards count as one colour (C6), a colour card's.
func (p *PlaySel) inferColor() {
	for _, c := range p.Cards {
		if !c.Joker() {
			p.Color, p.HasColor = c.Color(), true
			return
		}
	}
}

// NeedsColor reports whether the builder offers the colour menu: cards
// are chosen and all are jokers (C6: the player names the colour they
// count as), also once it is named, to change it.
func (p PlaySel) NeedsColor() bool {
	return len(p.Cards) > 0 && !slices.ContainsFunc(p.Cards, func(c game.Card) bool { return !c.Joker() })
}

// Numbers are the numbers the selection may cross, ascending: its cards'
// numbers, each once.
func (p PlaySel) Numbers() []int {
	var nums []int
	for _, c := range p.Cards {
		if !slices.Contains(nums, c.Number()) {
			nums = append(nums, c.Number())
		}
	}
	slices.Sort(nums)
	return nums
}

// Check says whether seat may play the selection now: nil when the
// play is complete and legal, ErrNoColor while its colour is not known,
// else the game's reason (game.Game.Check).
func (p PlaySel) Check(g *game.Game, seat int) error {
	if !p.HasColor {
		return ErrNoColor
	}
	return g.Check(p.move(seat))
}

// Move is the play the confirmed selection makes for seat; a selection
// without a colour cannot have been confirmed (ErrBadChoice).
func (p PlaySel) Move(seat int) (game.Move, error) {
	if !p.HasColor {
		return game.Move{}, ErrBadChoice
	}
	return p.move(seat), nil
}

func (p PlaySel) move(seat int) game.Move {
	return game.PlayMove(seat, p.Color, p.Cards, p.Cross...)
}

// MostCrosses is what the builder proposes to cross once the cards and
// their colour are chosen: as many of their numbers as the rules allow
// (the menu shows them chosen; the player may change it), the lowest
// numbers first among equally many; nothing when no set is allowed.
func MostCrosses(g *game.Game, seat int, sel PlaySel) []int {
	if !sel.HasColor {
		return nil
	}
	nums := sel.Numbers()
	var best []int
	for mask := 1; mask < 1<<len(nums); mask++ {
		var cross []int
		for i, n := range nums {
			if mask&(1<<i) != 0 {
				cross = append(cross, n)
			}
		}
		if len(cross) > len(best) && g.Check(game.PlayMove(seat, sel.Color, sel.Cards, cross...)) == nil {
			best = cross
		}
	}
	return best
}

// Choose applies the values picked in one of the builder's menus (verb:
// "pick" the cards, "as" the jokers' colour, "cross" the numbers) to the
// selection. Only values the menu offered are accepted, written as the
// bot writes them: cards of the hand (1–3, distinct), one colour's name,
// numbers of the selected cards (distinct); anything else is
// ErrBadChoice. Picking cards starts a new selection.
func (p PlaySel) Choose(hand []game.Card, verb string, values []string) (PlaySel, error) {
	switch verb {
	case "pick":
		if len(values) < 1 || len(values) > 3 {
			return p, ErrBadChoice
		}
		p = PlaySel{}
		for _, v := range values {
			c, err := game.ParseCard(v)
			if err != nil || c.String() != v || !slices.Contains(hand, c) || slices.Contains(p.Cards, c) {
				return p, ErrBadChoice
			}
			p.Cards = append(p.Cards, c)
		}
		p.inferColor()
	case "as":
		if len(values) != 1 || len(p.Cards) == 0 {
			return p, ErrBadChoice
		}
		col, err := game.ParseColor(values[0])
		if err != nil || col.String() != values[0] {
			return p, ErrBadChoice
		}
		p.Color, p.HasColor = col, true
	case "cross":
		if len(p.Cards) == 0 {
			return p, ErrBadChoice
		}
		p.Cross = nil
		for _, v := range values {
			n, err := strconv.Atoi(v)
			if err != nil || strconv.Itoa(n) != v || slices.Contains(p.Cross, n) ||
				!slices.ContainsFunc(p.Cards, func(c game.Card) bool { return c.Number() == n }) {
				return p, ErrBadChoice
			}
			p.Cross = append(p.Cross, n)
		}
	default:
		return p, ErrBadChoice
	}
	return p, nil
}

// Step is one click in the play builder of seat: the selection the
// clicked menu carried (arg; a "pick" starts afresh and carries none),
// the values chosen in it, and the selection that follows. Once cards and
// colour are known the crosses are proposed (MostCrosses), unless the
// click chose them.
func Step(g *game.Game, seat int, verb, arg string, values []string) (PlaySel, error) {
	var sel PlaySel
	if verb != "pick" {
		var err error
		if sel, err = DecodePlay(arg); err != nil {
			return PlaySel{}, err
		}
	}
	sel, err := sel.Choose(g.Hand(seat), verb, values)
	if err != nil {
		return PlaySel{}, err
	}
	if verb != "cross" {
		sel.Cross = MostCrosses(g, seat, sel)
	}
	return sel, nil
}

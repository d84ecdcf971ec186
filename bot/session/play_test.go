package session

import (
	"errors"
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// The play builder's selection travels in custom_ids: Encode and
// DecodePlay keep it, and DecodePlay refuses what Encode never writes
// (more than 3 cards or crosses, C6; numbers off the rows, S1).
func TestPlaySelCodecC6(t *testing.T) {
	full := PlaySel{Cards: []game.Card{game.ColorCard(game.Red, 4), game.ColorCard(game.Red, 5), game.JokerCard(7)}, Color: game.Red, HasColor: true, Cross: []int{4, 5, 7}}
	for _, p := range []PlaySel{{}, {Cards: []game.Card{game.JokerCard(9)}}, full} {
		back, err := DecodePlay(p.Encode())
		if err != nil || back.Encode() != p.Encode() || back.HasColor != p.HasColor || len(back.Cards) != len(p.Cards) {
			t.Errorf("%q came back as %+v, %v", p.Encode(), back, err)
		}
	}
	if s := full.Encode(); s != "R4-R5-J7.r.4-5-7" {
		t.Errorf("Encode = %q", s)
	}
	for _, bad := range []string{"", "R4", "R4.r", "R4.r.4.5", "X4..", "R4-R5-R6-R7..", "R4.x.", "R4.r.13", "R4.r.1", "R4.r.a", "R4-R5-R6.r.4-5-6-7"} {
		if _, err := DecodePlay(bad); !errors.Is(err, ErrBadChoice) {
			t.Errorf("DecodePlay(%q): %v, want ErrBadChoice", bad, err)
		}
	}
}

// Each menu accepts only what it offered (C6: 1–3 cards of the hand, the
// colour named for jokers, numbers of the chosen cards), table-driven from
// a hand of red 4, red 5, blue 9 and joker 7.
func TestPlaySelChooseC6(t *testing.T) {
	r4, r5, b9, j7 := game.ColorCard(game.Red, 4), game.ColorCard(game.Red, 5), game.ColorCard(game.Blue, 9), game.JokerCard(7)
	hand := []game.Card{r4, r5, b9, j7}
	jokers := PlaySel{Cards: []game.Card{j7}}
	reds := PlaySel{Cards: []game.Card{r4, r5}, Color: game.Red, HasColor: true, Cross: []int{4}}
	cases := []struct {
		name   string
		from   PlaySel
		verb   string
		values []string
		want   string // the selection after (Encode), "" for a refusal
		needs  bool   // the colour menu is shown
	}{
		{"pick colour cards: their colour", PlaySel{}, "pick", []string{"R4", "R5"}, "R4-R5.r.", false},
		{"pick a joker with a colour card: that colour", PlaySel{}, "pick", []string{"J7", "B9"}, "J7-B9.b.", false},
		{"pick jokers only: the colour is asked", PlaySel{}, "pick", []string{"J7"}, "J7..", true},
		{"pick starts afresh", reds, "pick", []string{"B9"}, "B9.b.", false},
		{"pick a card not in the hand", PlaySel{}, "pick", []string{"G3"}, "", false},
		{"pick a card twice", PlaySel{}, "pick", []string{"R4", "R4"}, "", false},
		{"pick a card as the bot never writes it", PlaySel{}, "pick", []string{"r4"}, "", false},
		{"pick no card", PlaySel{}, "pick", nil, "", false},
		{"pick four cards (C6: at most 3)", PlaySel{}, "pick", []string{"R4", "R5", "B9", "J7"}, "", false},
		{"as: the jokers' colour, which may still change", jokers, "as", []string{"green"}, "J7.g.", true},
		{"as: a colour as the bot never writes it", jokers, "as", []string{"Green"}, "", false},
		{"as: two colours", jokers, "as", []string{"green", "red"}, "", false},
		{"as: no cards yet", PlaySel{}, "as", []string{"green"}, "", false},
		{"cross: numbers of the cards", reds, "cross", []string{"5", "4"}, "R4-R5.r.5-4", false},
		{"cross: none", reds, "cross", nil, "R4-R5.r.", false},
		{"cross: a number of no chosen card", reds, "cross", []string{"9"}, "", false},
		{"cross: a number twice", reds, "cross", []string{"4", "4"}, "", false},
		{"cross: a number as the bot never writes it", reds, "cross", []string{"04"}, "", false},
		{"cross: no cards yet", PlaySel{}, "cross", []string{"4"}, "", false},
		{"a verb of no menu", reds, "play", nil, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.from.Choose(hand, c.verb, c.values)
			if c.want == "" {
				if !errors.Is(err, ErrBadChoice) {
					t.Fatalf("%+v: %v, want ErrBadChoice", got, err)
				}
				return
			}
			if err != nil || got.Encode() != c.want {
				t.Fatalf("got %q, %v; want %q", got.Encode(), err, c.want)
			}
			if got.NeedsColor() != c.needs {
				t.Errorf("NeedsColor %v, want %v", got.NeedsColor(), c.needs)
			}
		})
	}
	if n := (PlaySel{Cards: []game.Card{r5, j7, r4, game.ColorCard(game.Blue, 5)}}).Numbers(); !slices.Equal(n, []int{4, 5, 7}) {
		t.Errorf("Numbers = %v, want each number once, ascending", n)
	}
}

// The builder's steps in a running card game with jokers, from the
// active player's hand in action 3 (C6): a joker alone asks for its
// colour and cannot be played yet; once named, the crosses proposed are
// the most the rules allow (C6, S2, S3), lowest first, and the play
// they make is legal; every play of 1–3 cards of one colour proposes a
// legal set that no further number of the cards could join.
func TestPlayBuilderStepsC6(t *testing.T) {
	tb := cardsAt(t, game.PhasePlay)
	g, seat := tb.Game, tb.Game.Active()
	hand := g.Hand(seat)
	joker := hand[slices.IndexFunc(hand, func(c game.Card) bool { return c.Joker() })]

	sel, err := Step(g, seat, "pick", "", []string{joker.String()})
	if err != nil || !sel.NeedsColor() || sel.HasColor || len(sel.Cross) != 0 {
		t.Fatalf("a joker alone: %+v, %v", sel, err)
	}
	if err := sel.Check(g, seat); !errors.Is(err, ErrNoColor) {
		t.Errorf("Check of a joker without colour: %v", err)
	}
	if _, err := sel.Move(seat); !errors.Is(err, ErrBadChoice) {
		t.Errorf("Move of a joker without colour: %v", err)
	}
	if _, err := Step(g, seat, "as", "garbled", []string{"red"}); !errors.Is(err, ErrBadChoice) {
		t.Errorf("a step on a selection the bot never wrote: %v", err)
	}
	for _, col := range game.Colors {
		named, err := Step(g, seat, "as", sel.Encode(), []string{col.String()})
		if err != nil || !named.HasColor || named.Color != col {
			t.Fatalf("joker as %v: %+v, %v", col, named, err)
		}
		if len(named.Cross) > 0 {
			if err := named.Check(g, seat); err != nil {
				t.Errorf("joker as %v: proposed %v, which the game refuses: %v", col, named.Cross, err)
			}
			m, err := named.Move(seat)
			if err != nil || g.Check(m) != nil || m.Kind != game.Play {
				t.Errorf("joker as %v: Move %v, %v", col, m, err)
			}
		}
		// Choosing the crosses keeps them as chosen, proposing nothing.
		none, err := Step(g, seat, "cross", named.Encode(), nil)
		if err != nil || len(none.Cross) != 0 {
			t.Errorf("crossing nothing: %+v, %v", none, err)
		}
	}

	// Every selection of 1–3 cards of the hand that share a colour (or
	// jokers named as one): the proposal is legal and maximal.
	n := len(hand)
	for mask := 1; mask < 1<<n; mask++ {
		var cards []game.Card
		for i := range n {
			if mask&(1<<i) != 0 {
				cards = append(cards, hand[i])
			}
		}
		if len(cards) > 3 {
			continue
		}
		for _, col := range game.Colors {
			if slices.ContainsFunc(cards, func(c game.Card) bool { return !c.Joker() && c.Color() != col }) {
				continue
			}
			p := PlaySel{Cards: cards, Color: col, HasColor: true}
			best := MostCrosses(g, seat, p)
			if g.Check(game.PlayMove(seat, col, cards, best...)) != nil {
				t.Errorf("%v as %v: proposal %v is not legal", cards, col, best)
			}
			for _, extra := range p.Numbers() {
				if slices.Contains(best, extra) {
					continue
				}
				more := append(slices.Clone(best), extra)
				if g.Check(game.PlayMove(seat, col, cards, more...)) == nil {
					t.Errorf("%v as %v: proposal %v, but %v is legal too", cards, col, best, more)
				}
			}
		}
	}
}

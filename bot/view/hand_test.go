package view

import (
	"io"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// withFiles is message data as golden files show it: the attachments by
// name, type and size (discordgo's File holds a reader).
func withFiles(t *testing.T, d *discordgo.InteractionResponseData) any {
	t.Helper()
	c := *d
	var files []string
	for _, f := range d.Files {
		b, err := io.ReadAll(f.Reader)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f.Name+" ("+f.ContentType+", "+strconv.Itoa(len(b))+" bytes)")
	}
	c.Files = nil
	return struct {
		Message *discordgo.InteractionResponseData `json:"message"`
		Files   []string                           `json:"files"`
	}{&c, files}
}

var picture = []byte("png")

// The private sheet view: the score, the picture and the seat's legal
// moves (RULES D3: everybody may cross the white sum).
func TestSheetGolden(t *testing.T) {
	tb := started(t, game.Dice, "Anna", "Ben")
	for _, code := range []string{"en", "fr"} {
		golden(t, "sheet_"+code, withFiles(t, Sheet(tb, 1, i18n.For(code), picture)))
	}
}

// The hand view in the active player's take (RULES C4): the take buttons,
// Refresh and Hint, the picture replaced; and for the other player, who
// has nothing to do with the cards now, only Refresh, the picture kept
// (nil).
func TestHandTakeGolden(t *testing.T) {
	tb := started(t, game.Cards, "Anna", "Ben")
	for _, code := range langs {
		golden(t, "hand_take_"+code, withFiles(t, Hand(tb, tb.Game.Active(), i18n.For(code), session.PlaySel{}, picture)))
	}
	golden(t, "hand_wait_en", withFiles(t, Hand(tb, 1-tb.Game.Active(), i18n.For("en"), session.PlaySel{}, nil)))
}

// The play builder (RULES C6) in the hand view: nothing chosen (the
// menu's placeholder asks), a colour card chosen (its colour inferred,
// ready to play), a selection the rules refuse (why, and Play disabled),
// and a joker alone (the colour menu).
func TestHandPlayBuilderGolden(t *testing.T) {
	tb := started(t, game.Jokers, "Anna", "Ben")
	move(t, tb, tb.Game.Active(), game.Take)
	for tb.Game.Phase() == game.PhaseNumber {
		move(t, tb, tb.Game.Waiting()[0], game.Pass)
	}
	if tb.Game.Phase() != game.PhasePlay {
		t.Fatalf("phase %v, want the play", tb.Game.Phase())
	}
	seat := tb.Game.Active()
	hand := tb.Game.Hand(seat)
	l := i18n.For("en")
	golden(t, "builder_empty_en", withFiles(t, Hand(tb, seat, l, session.PlaySel{}, nil)))
	var colour, joker game.Card
	for _, c := range hand {
		if c.Joker() && joker == 0 {
			joker = c
		}
		if !c.Joker() && colour == 0 {
			colour = c
		}
	}
	if colour == 0 {
		t.Fatalf("no colour card in %v", hand)
	}
	ready := session.PlaySel{Cards: []game.Card{colour}, Color: colour.Color(), HasColor: true, Cross: []int{colour.Number()}}
	golden(t, "builder_ready_en", withFiles(t, Hand(tb, seat, l, ready, nil)))
	golden(t, "builder_ready_de", withFiles(t, Hand(tb, seat, i18n.For("de"), ready, nil)))
	wrong := ready
	wrong.Cross = []int{colour.Number() + 1}
	golden(t, "builder_refused_en", withFiles(t, Hand(tb, seat, l, wrong, nil)))
	if joker != 0 {
		golden(t, "builder_joker_en", withFiles(t, Hand(tb, seat, l, session.PlaySel{Cards: []game.Card{joker}}, nil)))
	} else {
		t.Logf("no joker in %v", hand)
	}
	if got := PlayLabel(l, ready, true); got == PlayLabel(l, ready, false) {
		t.Errorf("a play done and a play to confirm read alike: %q", got)
	}
}

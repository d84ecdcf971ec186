package view

import (
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// timing is the fixtures' timing: moves at clock, 10-minute timers.
var timing = session.Timing{Now: clock, Timeout: func() time.Duration { return 10 * time.Minute }, ReminderLead: 2 * time.Minute}

// move applies seat's first legal move of the kind wanted (any when none
// is), failing the test when it cannot.
func move(t *testing.T, tb *session.Table, seat int, kinds ...game.Kind) game.Move {
	t.Helper()
	legal := tb.Game.LegalMoves(seat)
	m := legal[0]
	for _, k := range kinds {
		for _, x := range legal {
			if x.Kind == k {
				m = x
				goto found
			}
		}
	}
found:
	if err := tb.Apply(m, timing); err != nil {
		t.Fatalf("apply %v: %v", m, err)
	}
	return m
}

// playOut plays tb's game to its end, every seat passing where it may (a
// misthrow for the active player, RULES D6) and else making its first
// legal move.
func playOut(t *testing.T, tb *session.Table) {
	t.Helper()
	for i := 0; !tb.Game.Over(); i++ {
		if i > 2000 {
			t.Fatal("the game did not end")
		}
		move(t, tb, tb.Game.Waiting()[0], game.Pass)
	}
}

// The lobby in each language: a computer player seated, a match of three
// games; and full at a table of three seats (Join and Add disabled, the
// seat limit named, RULES D1).
func TestLobbyGolden(t *testing.T) {
	for _, code := range langs {
		tb := newTable(t, game.Dice, "Anna", "Ben")
		tb.Seats = append(tb.Seats, session.Seat{UserID: "", Name: "Computer", Computer: "hard"})
		tb.Games = 3
		golden(t, "lobby_"+code, Lobby(tb, i18n.For(code)))
	}
	tb := newTable(t, game.Cards, "Anna", "Ben", "Chloé")
	tb.MaxSeats = 3
	tb.NoHints, tb.LeaverPass = true, true
	golden(t, "lobby_full_en", Lobby(tb, i18n.For("en")))
}

// The lobby Play again opened pings the other players seated, and only
// them.
func TestAgainLobbyGolden(t *testing.T) {
	tb := newTable(t, game.Jokers, "Anna", "Ben", "Chloé")
	golden(t, "lobby_again_en", AgainLobby(tb))
}

// The table message of a dice game through its actions: the white sum for
// everybody (RULES D3), the active player's colour (D4) with the Pass
// that costs a misthrow (D6); in each language for the first.
func TestTableDiceGolden(t *testing.T) {
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben", "Chloé")
		tb.Lang = code
		l := i18n.For(code)
		golden(t, "table_dice_white_"+code, tableData(tb, l))
	}
	tb := started(t, game.Dice, "Anna", "Ben", "Chloé")
	for tb.Game.Phase() == game.PhaseWhite {
		move(t, tb, tb.Game.Waiting()[0], game.Pass)
	}
	golden(t, "table_dice_color_en", tableData(tb, i18n.For("en")))
}

// The table message of a card game: the take (RULES C4), the number for
// everyone (C5) and the play (C6), with My cards beside My sheet.
func TestTableCardsGolden(t *testing.T) {
	tb := started(t, game.Cards, "Anna", "Ben")
	l := i18n.For("en")
	golden(t, "table_cards_take_en", tableData(tb, l))
	move(t, tb, tb.Game.Active(), game.Take)
	golden(t, "table_cards_number_en", tableData(tb, l))
	for tb.Game.Phase() == game.PhaseNumber {
		move(t, tb, tb.Game.Waiting()[0], game.Pass)
	}
	golden(t, "table_cards_play_en", tableData(tb, l))
	golden(t, "table_cards_play_fr", tableData(tb, i18n.For("fr")))
}

// tableData is the table message's data: its text and buttons.
type tableMessage struct {
	Content    string
	Components any
}

func tableData(tb *session.Table, l i18n.Lang) tableMessage {
	return tableMessage{TableContent(tb, l), TableControls(tb, l)}
}

// The private sheet view's buttons are exactly the seat's legal moves,
// with 💡 Hint unless the host turned hints off.
func TestPersonalControlsGolden(t *testing.T) {
	tb := started(t, game.Dice, "Anna", "Ben")
	for _, code := range []string{"en", "de"} {
		golden(t, "sheet_controls_"+code, PersonalControls(tb, 0, i18n.For(code), customid.ViewSheet))
	}
	tb.NoHints = true
	comps := PersonalControls(tb, 0, i18n.For("en"), customid.ViewSheet)
	golden(t, "sheet_controls_nohints_en", comps)
}

// The results of a game played to its end, in each language; of a match
// whose next game is due (Next game, the totals); and without a history
// (no Record or Review).
func TestResultsGolden(t *testing.T) {
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben")
		tb.Lang = code
		playOut(t, tb)
		golden(t, "results_dice_"+code, Results(tb, i18n.For(code), "", true))
	}
	tb := started(t, game.Jokers, "Anna", "Ben", "Chloé")
	tb.Games = 2
	tb.Match, _ = game.NewMatch([]string{"Anna", "Ben", "Chloé"}, 2)
	playOut(t, tb)
	golden(t, "results_jokers_match_en", Results(tb, i18n.For("en"), "", true))
	golden(t, "results_jokers_match_nohistory_en", Results(tb, i18n.For("en"), "Headline", false))
}

// The lobby once cancelled and once started: the words only, the embed
// and buttons gone (empty lists, which remove them in an update).
func TestLobbyEndsGolden(t *testing.T) {
	golden(t, "lobby_cancelled_de", LobbyCancelled(i18n.For("de"), "u1"))
	tb := newTable(t, game.Dice, "Anna", "Ben")
	tb.Seats = append(tb.Seats, session.Seat{Name: "Computer", Computer: "easy"})
	golden(t, "lobby_started_en", LobbyStarted(tb, i18n.For("en")))
}

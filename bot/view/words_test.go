package view

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/stats"
)

// The advice of 💡 Hint for the first decision of a seeded dice game and
// of a card game's take (where each taken number fits), in each language.
func TestHintTextGolden(t *testing.T) {
	dice := started(t, game.Dice, "Anna", "Ben")
	cards := started(t, game.Cards, "Anna", "Ben")
	seat := cards.Game.Active()
	for _, code := range langs {
		l := i18n.For(code)
		golden(t, "hint_"+code, []string{
			HintText(l, ai.Hint(dice.Game.Private(0), dice.Game.LegalMoves(0))),
			HintText(l, ai.Hint(cards.Game.Private(seat), cards.Game.LegalMoves(seat))),
		})
	}
}

// The review of a seeded dice game played to its end, in each language.
func TestReviewTextGolden(t *testing.T) {
	tb := started(t, game.Dice, "Anna", "Ben")
	playOut(t, tb)
	rv, err := ai.Review(tb.Game.Record(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range langs {
		golden(t, "review_"+code, ReviewText(i18n.For(code), rv))
	}
}

// results are kept results of a guild: Anna and Ben over three variants,
// a computer, a shared win, and a name that would format text.
func results() []stats.Result {
	at := clock.Add(-72 * time.Hour)
	var out []stats.Result
	add := func(v game.Variant, seats ...stats.Seat) {
		at = at.Add(time.Hour)
		out = append([]stats.Result{{Guild: "g1", GameID: "c1/k3x9a/" + itoa(len(out)+1), Time: at, Variant: v, Seats: seats}}, out...)
	}
	anna := func(score int) stats.Seat { return stats.Seat{UserID: "u1", Name: "Anna", Score: score} }
	ben := func(score int) stats.Seat {
		return stats.Seat{UserID: "u2", Name: "*Ben*_the_long_named", Score: score}
	}
	hard := func(score int) stats.Seat {
		return stats.Seat{Name: "Computer", Computer: true, Level: "hard", Score: score}
	}
	add(game.Dice, anna(34), ben(21))
	add(game.Dice, anna(40), ben(40), hard(12))
	add(game.Cards, anna(18), ben(25))
	add(game.Jokers, anna(52), hard(60))
	add(game.Dice, ben(30), anna(29))
	return out
}

// A player's statistics (the embed of /qwixx stats) in each language: by
// variant, the shared win, the last games with the computer marked and
// the name escaped; and one unreadable result said in the footer.
func TestStatsGolden(t *testing.T) {
	us := stats.ForUser(results(), "u1", 5)
	for _, code := range langs {
		golden(t, "stats_"+code, Stats(i18n.For(code), us, 0))
	}
	golden(t, "stats_damaged_en", Stats(i18n.For("en"), stats.ForUser(results(), "u2", 5), 1))
}

// The leaderboard: everybody ranked, computers by level; and a variant's
// board where some have too few games.
func TestBoardGolden(t *testing.T) {
	all := stats.Leaders(results(), stats.LeaderboardOptions{Computers: true})
	for _, code := range langs {
		golden(t, "board_"+code, Board(i18n.For(code), all, 0))
	}
	dice := stats.Leaders(results(), stats.LeaderboardOptions{Variant: game.Dice, MinGames: 3})
	golden(t, "board_dice_en", Board(i18n.For("en"), dice, game.Dice))
}

// Finishing places in words (English ordinals, French 1ʳᵉ).
func TestPlaceWordGolden(t *testing.T) {
	for _, code := range langs {
		var out []string
		for _, n := range []int{1, 2, 3, 4, 11, 12, 13, 21, 22} {
			out = append(out, PlaceWord(i18n.For(code), n))
		}
		golden(t, "places_"+code, out)
	}
}

// /qwixx stats answers privately with a button that shows the statistics
// in the channel; shown, they name who showed them and ping nobody.
func TestStatsAnswersGolden(t *testing.T) {
	e := Stats(i18n.For("de"), stats.ForUser(results(), "u1", 5), 0)
	golden(t, "stats_private_de", StatsPrivate(i18n.For("de"), e, "u1"))
	golden(t, "stats_shown_en", StatsShown(i18n.For("en"), e, "u2"))
}

// 💡 Hint in the private sheet view: the advice heads the view, and the
// advised move's button is the green one.
func TestSheetHintGolden(t *testing.T) {
	tb := started(t, game.Dice, "Anna", "Ben")
	adv := ai.Hint(tb.Game.Private(1), tb.Game.LegalMoves(1))
	d := SheetHint(tb, 1, i18n.For("en"), adv)
	golden(t, "sheet_hint_en", d)
	green := 0
	for _, row := range d.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.SuccessButton {
				green++
				if b.CustomID != MoveAction(tb, customid.ViewSheet, adv.Move) {
					t.Errorf("green button %q, advice %v", b.CustomID, adv.Move)
				}
			}
		}
	}
	if green != 1 {
		t.Errorf("%d green buttons, want the advised move's", green)
	}
}

// The leaderboard as posted, its footer saying how many results were
// unreadable; a game's record as a file; the forget-me question.
func TestHistoryAnswersGolden(t *testing.T) {
	board := stats.Leaders(results(), stats.LeaderboardOptions{})
	golden(t, "board_message_fr", BoardMessage(i18n.For("fr"), board, 0, 2))
	rec := Record(i18n.For("en"), clock, game.Cards, []string{"Anna", "Ben"}, []byte(`{"variant":"cards","players":["Anna","Ben"]}`))
	golden(t, "record_en", withFiles(t, rec))
	for _, code := range []string{"en", "de"} {
		golden(t, "forget_"+code, ForgetAsk(i18n.For(code), "u1"))
	}
}

package view

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/game"
)

// The live message of a dice turn in each language: the table's text and
// buttons (the white sum for everybody, RULES D3) and the picture's
// public view, in which who has decided is not shown (it is text).
func TestLiveTurnGolden(t *testing.T) {
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben", "Chloé")
		tb.Lang = code
		move(t, tb, 1, game.Pass) // Ben decided: text only
		v := LiveTurn(tb)
		for i, p := range v.Picture.Players {
			if p.Decided {
				t.Fatalf("%s: the picture shows player %d as decided", code, i)
			}
		}
		golden(t, "live_dice_"+code, v)
	}
}

// A finished turn's log line (what the white sum and the colour were
// used for, RULES D3, D4, D6), in each language; a turn of an earlier
// game is named only; the edit to it drops buttons and picture and
// notifies nobody, and without a line only the buttons go.
func TestTurnLogGolden(t *testing.T) {
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben")
		tb.Lang = code
		key := tb.TurnKey()
		for tb.TurnKey() == key {
			move(t, tb, tb.Game.Waiting()[0], game.Pass)
		}
		golden(t, "turnlog_"+code, []string{TurnLog(tb, key), TurnLog(tb, "g0.t3")})
	}
	golden(t, "shrunk_turn", ShrunkTurn("Turn 1: Anna passes."))
	if e := ShrunkTurn(""); e.Content != nil || e.Attachments != nil || e.Components == nil || len(*e.Components) != 0 {
		t.Errorf("ShrunkTurn(\"\") = %+v, want only the buttons taken off", e)
	}
}

// The reminder of an action whose time runs out mentions and notifies
// the humans who still have to decide (a computer seat is left out) and
// names the deadline as a Discord timestamp, in each language.
func TestReminderGolden(t *testing.T) {
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben", "Robo")
		tb.Lang = code
		tb.Seats[2].Computer = "hard"
		move(t, tb, 0, game.Pass) // Anna decided
		m := Reminder(tb)
		if len(m.AllowedMentions.Users) != 1 || m.AllowedMentions.Users[0] != "u2" {
			t.Fatalf("%s: reminder notifies %v, want only u2 (Ben)", code, m.AllowedMentions.Users)
		}
		golden(t, "reminder_"+code, m)
	}
}

// A move the rules refuse (RULES S3: left of the last cross) is answered
// privately with the reason; clicked on the table's message it also
// offers the player's own choices, in a sheet view not.
func TestMoveRefusedGolden(t *testing.T) {
	err := &game.MoveError{Reason: game.ReasonLeftOfLast, Color: game.Red, Number: 4, Last: 6}
	for _, code := range langs {
		tb := started(t, game.Dice, "Anna", "Ben")
		golden(t, "move_refused_table_"+code, MoveRefused(tb, 1, i18n.For(code), err, true))
	}
	tb := started(t, game.Dice, "Anna", "Ben")
	d := MoveRefused(tb, 1, i18n.For("en"), err, false)
	if len(d.Components) != 0 {
		t.Fatalf("refused in a sheet view: %d component rows, want none", len(d.Components))
	}
	golden(t, "move_refused_sheet_en", d)
}

// The confirmation of a move: a choice, a pass, a changed choice that may
// still change while the action is open (RULES P4), in each language;
// and the sheet view after the move, its buttons kept while the action is
// open and gone after.
func TestMoveDoneGolden(t *testing.T) {
	for _, code := range langs {
		l := i18n.For(code)
		golden(t, "move_done_"+code, []string{
			MoveDone(l, "Red 7", "", false),
			MoveDone(l, "", "", false),
			MoveDone(l, "Blue 5", "Red 7", true),
		})
	}
	tb := started(t, game.Dice, "Anna", "Ben")
	l := i18n.For("en")
	move(t, tb, 1, game.Pass)
	open := SheetAfterMove(tb, 1, l, MoveDone(l, "", "", true), true)
	if len(open.Components) == 0 {
		t.Fatal("the sheet view lost its buttons while the action is open")
	}
	golden(t, "sheet_after_move_open_en", open)
	closed := SheetAfterMove(tb, 1, l, MoveDone(l, "", "", false), false)
	if len(closed.Components) != 0 || closed.Attachments == nil {
		t.Fatalf("after the action: %d component rows, attachments %v; want none and the picture gone", len(closed.Components), closed.Attachments)
	}
	golden(t, "sheet_after_move_closed_en", closed)
}

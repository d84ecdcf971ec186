package render

import (
	"errors"
	"fmt"
	"strings"
)

// Labels are all the words the images contain, in one language. The renderer
// writes no word of its own: the bot fills Labels from its translations.
// Fields ending in a format take the documented fmt verbs.
type Labels struct {
	Total     string // "Total": a sheet's total, the match total
	Misthrows string // "Misthrows": the misthrow boxes
	Crosses   string // "Crosses": first line of the scoring strip
	Points    string // "Points": second line of the scoring strip, ranking column
	Turn      string // format with one %d (the turn): "Turn %d"
	Active    string // "Active": badge of the player whose turn it is
	Decided   string // "Decided": badge of a player who chose in a simultaneous action
	Display   string // "Display": the four face-down cards (card game)
	DrawPile  string // "Draw pile"
	Discard   string // "Discard": the discard pile
	Hand      string // "Hand": hand size on the table, title of the private hand
	PlayedBy  string // format with one %s (a name): "Last play: %s", over the cards just played
	Joker     string // "JOKER": printed on joker cards in a hand
	JokerMark string // "J": before the number of a played joker
	GameOver  string // "Game over": title of the results
	EndLocks  string // "Two rows locked": why the game ended
	EndMisses string // "Fourth misthrow": why the game ended
	Winner    string // "Winner" (one winner)
	Winners   string // "Winners" (tied winners)
	Player    string // "Player": ranking and match table column
	Game      string // format with one %d: "Game %d", a match table column
	GameNofM  string // format with two %d (played, planned): "Game %d of %d"

	// The end of the game in the results' title, naming who or what ended
	// it. Each may be empty: the results then fall back to GameOver,
	// EndLocks and EndMisses.
	Stopped       string    // "Game stopped": title of a game ended before it was over
	EndLocksRows  string    // format with one %s (the locked rows' colours, a list): "%s locked"
	EndLocksBy    string    // format with one %s (a name): card game, "%s locked two rows"
	EndMisthrowBy string    // format with one %s (a name): "Fourth misthrow: %s"
	RowColors     [4]string // the rows' colours in a list of locked rows, in row order: "red", …
	And           string    // "and": the last joint of a list ("red, yellow and blue")
	Colon         string    // ": " between a label and its value ("Winner: Anna"); French " : "; empty means ": "

	// The score chart (Chart). The vertical axis is labelled Points.
	ChartTitle string // "Total after each turn": title of the chart, which plots running totals
	TurnAxis   string // "Turn": the horizontal axis
}

// DefaultLabels returns English labels, a convenience for tests and tools;
// the bot passes its own translations.
func DefaultLabels() Labels {
	return Labels{
		Total:     "Total",
		Misthrows: "Misthrows",
		Crosses:   "Crosses",
		Points:    "Points",
		Turn:      "Turn %d",
		Active:    "Active",
		Decided:   "Decided",
		Display:   "Display",
		DrawPile:  "Draw pile",
		Discard:   "Discard",
		Hand:      "Hand",
		PlayedBy:  "Last play: %s",
		Joker:     "JOKER",
		JokerMark: "J",
		GameOver:  "Game over",
		EndLocks:  "Two rows locked",
		EndMisses: "Fourth misthrow",
		Winner:    "Winner",
		Winners:   "Winners",
		Player:    "Player",
		Game:      "Game %d",
		GameNofM:  "Game %d of %d",

		Stopped:       "Game stopped",
		EndLocksRows:  "%s locked",
		EndLocksBy:    "%s locked two rows",
		EndMisthrowBy: "Fourth misthrow: %s",
		RowColors:     [4]string{"red", "yellow", "green", "blue"},
		And:           "and",
		Colon:         ": ",

		ChartTitle: "Total after each turn",
		TurnAxis:   "Turn",
	}
}

// ErrLabels reports labels whose formats do not take the right arguments.
var ErrLabels = errors.New("render: bad labels")

// Validate checks that the format fields take exactly their documented
// verbs, so no image shows "%!d(MISSING)".
func (l Labels) Validate() error {
	var errs []error
	check := func(name, s string, verbs ...string) {
		if got := formatVerbs(s); strings.Join(got, " ") != strings.Join(verbs, " ") {
			errs = append(errs, fmt.Errorf("%w: %s %q has verbs %v, want %v", ErrLabels, name, s, got, verbs))
		}
	}
	check("Turn", l.Turn, "d")
	check("PlayedBy", l.PlayedBy, "s")
	check("Game", l.Game, "d")
	check("GameNofM", l.GameNofM, "d", "d")
	optional := func(name, s string, verbs ...string) {
		if s != "" {
			check(name, s, verbs...)
		}
	}
	optional("EndLocksRows", l.EndLocksRows, "s")
	optional("EndLocksBy", l.EndLocksBy, "s")
	optional("EndMisthrowBy", l.EndMisthrowBy, "s")
	return errors.Join(errs...)
}

// formatVerbs lists the verbs of a fmt format (flags and widths ignored;
// explicit argument indexes such as %[2]d count as verbs too).
func formatVerbs(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		for i < len(s) && strings.IndexByte("+-# 0123456789.[]", s[i]) >= 0 {
			i++
		}
		if i < len(s) && s[i] != '%' {
			out = append(out, string(s[i]))
		}
	}
	return out
}

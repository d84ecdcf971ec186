package bot

import "github.com/qwixxbot/qwixxbot/bot/view"

// The views and words of the messages are bot/view's; these are the
// names the adapter's code calls them by.
var (
	colorWord      = view.ColorWord
	rowName        = view.RowName
	rowIn          = view.RowIn
	cellName       = view.CellName
	listAnd        = view.ListAnd
	upperFirst     = view.UpperFirst
	formatDuration = view.FormatDuration
	colorName      = view.ColorName
	explain        = view.Explain
	rulesEmbed     = view.Rules
	turnLogLine    = view.TurnLogLine
	cardName       = view.CardName
	cardList       = view.CardList
	playedList     = view.PlayedList
	newsWords      = view.NewsWords
	takeLabel      = view.TakeLabel
)

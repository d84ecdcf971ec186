package bot

import (
	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// The views and words of the messages are bot/view's; these are the
// names the adapter's code calls them by.
var (
	joinInts           = customid.JoinInts
	colorWord          = view.ColorWord
	rowName            = view.RowName
	rowIn              = view.RowIn
	cellName           = view.CellName
	listAnd            = view.ListAnd
	upperFirst         = view.UpperFirst
	formatDuration     = view.FormatDuration
	colorName          = view.ColorName
	explain            = view.Explain
	rulesEmbed         = view.Rules
	turnLogLine        = view.TurnLogLine
	cardName           = view.CardName
	cardList           = view.CardList
	playedList         = view.PlayedList
	newsWords          = view.NewsWords
	takeLabel          = view.TakeLabel
	actionID           = view.ActionID
	hintsOn            = view.HintsOn
	markButton         = view.MarkButton
	moveAction         = view.MoveAction
	moveLabel          = view.MoveLabel
	tableContent       = view.TableContent
	tableControls      = view.TableControls
	byColorPassLast    = view.ByColorPassLast
	passButton         = view.PassButton
	chunkButtons       = view.ChunkButtons
	personalControls   = view.PersonalControls
	handLine           = view.HandLine
	handActs           = view.HandActs
	variantName        = view.VariantName
	lobbyMessage       = view.Lobby
	refusal            = view.Refusal
	againLobby         = view.AgainLobby
	mentions           = view.Mentions
	endHeadline        = view.EndHeadline
	matchStandings     = view.MatchStandings
	keptResultsButtons = view.KeptResultsButtons
	recordButtonFor    = view.RecordButton
	reviewButton       = view.ReviewButton
	hintText           = view.HintText
	fitWords           = view.FitWords
	chanceWords        = view.ChanceWords
	gainOverWeakest    = view.GainOverWeakest
	reviewText         = view.ReviewText
	decisionLine       = view.DecisionLine
	cardMoveWords      = view.CardMoveWords
	diceWords          = view.DiceWords
	reviewMove         = view.ReviewMove
	playedVariants     = view.PlayedVariants
	summaryLine        = view.SummaryLine
	percent            = view.Percent
	decimal            = view.Decimal
	recentLine         = view.RecentLine
	placeWord          = view.PlaceWord
	escapeMarkdown     = view.EscapeMarkdown
	joinWithin         = view.JoinWithin
	clip               = view.Clip
	boardEmbed         = view.Board
	dailyShare         = view.DailyShare
	privateViewOf      = view.PrivateView
)

// handFile names the hand picture.
const handFile = view.HandFile

// playLabel words a play: the question before it is confirmed, or what
// was done (done).
func playLabel(l Lang, p playSel, done bool) string { return view.PlayLabel(l, p.shown(), done) }

package bot

import (
	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// The views and words of the messages are bot/view's; these are the
// names the adapter's code calls them by.
var (
	joinInts           = customid.JoinInts
	upperFirst         = view.UpperFirst
	formatDuration     = view.FormatDuration
	colorName          = view.ColorName
	explain            = view.Explain
	rulesEmbed         = view.Rules
	turnLogLine        = view.TurnLogLine
	cardName           = view.CardName
	newsWords          = view.NewsWords
	takeLabel          = view.TakeLabel
	actionID           = view.ActionID
	hintsOn            = view.HintsOn
	markButton         = view.MarkButton
	moveAction         = view.MoveAction
	moveLabel          = view.MoveLabel
	tableContent       = view.TableContent
	tableControls      = view.TableControls
	personalControls   = view.PersonalControls
	handLine           = view.HandLine
	handActs           = view.HandActs
	variantName        = view.VariantName
	lobbyMessage       = view.Lobby
	refusal            = view.Refusal
	againLobby         = view.AgainLobby
	keptResultsButtons = view.KeptResultsButtons
	hintText           = view.HintText
	reviewText         = view.ReviewText
	percent            = view.Percent
	decimal            = view.Decimal
	placeWord          = view.PlaceWord
	escapeMarkdown     = view.EscapeMarkdown
	clip               = view.Clip
	dailyShare         = view.DailyShare
	privateViewOf      = view.PrivateView
)

// handFile names the hand picture.
const handFile = view.HandFile

// playLabel words a play: the question before it is confirmed, or what
// was done (done).
func playLabel(l Lang, p session.PlaySel, done bool) string { return view.PlayLabel(l, p, done) }

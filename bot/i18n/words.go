package i18n

import (
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/game"
)

// The messages that name one of a kind of thing, by that thing: a key is
// never made from a string at run time, so that every key is a constant
// (and a message nobody names is found unused).
var (
	// ColorWord is a colour in a log line ("red"), Row a row ("the red
	// row"), RowIn "in the red row", Adj the colour as an adjective before
	// a cell, Color a colour's name in a refusal, RowColor a row's colour
	// in a list, CardColor a card's colour.
	ColorWord = [game.NumColors]msg.Key{msg.LogColorRed, msg.LogColorYellow, msg.LogColorGreen, msg.LogColorBlue}
	Row       = [game.NumColors]msg.Key{msg.RowRed, msg.RowYellow, msg.RowGreen, msg.RowBlue}
	RowIn     = [game.NumColors]msg.Key{msg.RowinRed, msg.RowinYellow, msg.RowinGreen, msg.RowinBlue}
	Adj       = [game.NumColors]msg.Key{msg.AdjRed, msg.AdjYellow, msg.AdjGreen, msg.AdjBlue}
	Color     = [game.NumColors]msg.Key{msg.ColorRed, msg.ColorYellow, msg.ColorGreen, msg.ColorBlue}
	RowColor  = [game.NumColors]msg.Key{msg.RowcolorRed, msg.RowcolorYellow, msg.RowcolorGreen, msg.RowcolorBlue}
	CardColor = [game.NumColors]msg.Key{msg.CardcolorRed, msg.CardcolorYellow, msg.CardcolorGreen, msg.CardcolorBlue}
)

// Variant is a variant's name, VariantShort its short name.
func Variant(v game.Variant) msg.Key {
	switch v {
	case game.Cards:
		return msg.VariantCards
	case game.Jokers:
		return msg.VariantJokers
	}
	return msg.VariantDice
}

// VariantShort is a variant's short name (a game's line in a list).
func VariantShort(v game.Variant) msg.Key {
	switch v {
	case game.Cards:
		return msg.VariantShortCards
	case game.Jokers:
		return msg.VariantShortJokers
	}
	return msg.VariantShortDice
}

// Level is a computer player's level by its name (easy, medium, hard);
// a level of another version reads as medium.
func Level(name string) msg.Key {
	switch name {
	case "easy":
		return msg.LevelEasy
	case "hard":
		return msg.LevelHard
	}
	return msg.LevelMedium
}

// Where is the choice of /qwixx solo's where option: private or channel.
func Where(w string) msg.Key {
	if w == "channel" {
		return msg.WhereChannel
	}
	return msg.WherePrivate
}

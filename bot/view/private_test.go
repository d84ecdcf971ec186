package view

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// private is a private game of kind for Anna, from a fixed seed.
func private(t *testing.T, kind string) *session.Table {
	t.Helper()
	p := session.Player{UserID: "u1", Name: "Anna", Lang: "en", GuildID: "g1", ChannelID: "c1"}
	tb, err := session.NewPrivate(kind, p, func(name string) (*game.Game, error) {
		return game.New(game.Config{Variant: game.Dice, Players: []string{name}, Seed: [32]byte{9}})
	}, clock)
	if err != nil {
		t.Fatal(err)
	}
	tb.ID = "p7q2w" // random: fixed for the golden files
	return tb
}

// A solo game's view while it runs (the white sum, the choices, 💡 Hint:
// the README's promise) and once over (the score, Review, Another game),
// in each language.
func TestPrivateSoloGolden(t *testing.T) {
	for _, code := range langs {
		tb := private(t, session.PrivateSolo)
		l := i18n.For(code)
		golden(t, "solo_playing_"+code, withFiles(t, Private(tb, l, "", nil, picture)))
		playOut(t, tb)
		golden(t, "solo_over_"+code, withFiles(t, Private(tb, l, "✅ note", nil, picture)))
	}
}

// The daily challenge once over: the par, the day's ranking here, the
// streak and the text to share, which holds nothing of the dice.
func TestPrivateDailyGolden(t *testing.T) {
	tb := private(t, session.PrivateDaily)
	tb.Daily, tb.Par = 412, 30
	playOut(t, tb)
	for _, code := range langs {
		l := i18n.For(code)
		daily := Daily(l, tb, 2, 3, []string{"1. Ben: 40", "2. Anna: 12", "3. Chloé: 5"})
		golden(t, "daily_over_"+code, withFiles(t, Private(tb, l, "", daily, picture)))
	}
	golden(t, "daily_unranked_en", Daily(i18n.For("en"), tb, 0, 0, nil))
}

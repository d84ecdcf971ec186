package players

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// A confirmation of a move is recognised in every language the bot
// answers in (a player answered privately reads their own), and a
// refusal or another private answer is not.
func TestIsAckInEveryLanguage(t *testing.T) {
	for _, locale := range []string{"en-US", "de", "fr"} {
		l := i18n.For(locale)
		for _, text := range []string{l.T(msg.OkChose, "12 red"), l.T(msg.OkPassed)} {
			if !IsAck(text) {
				t.Errorf("%s: %q not taken for a confirmation", locale, text)
			}
		}
		if text := l.T(msg.OkPassed); locale != "en-US" && text == i18n.For("en-US").T(msg.OkPassed) {
			t.Errorf("%s: the confirmation is the English one (%q): the test proves nothing", locale, text)
		}
	}
	for _, text := range []string{"", "That button is gone.", "Waiting for: <@1>"} {
		if IsAck(text) {
			t.Errorf("%q taken for a confirmation", text)
		}
	}
}

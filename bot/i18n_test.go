package bot

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

func TestTranslate(t *testing.T) {
	if got := LangFor("de").T(msg.LobbySeats, 2, 5); got != "Spieler (2/5)" {
		t.Errorf("German: %q", got)
	}
	if got := LangFor("fr").T(msg.LobbyTitle, "Qwixx"); got != "Nouvelle table : Qwixx" {
		t.Errorf("French: %q", got)
	}
	if got := LangFor("ko").T(msg.BtnJoin); got != "Join" {
		t.Errorf("fallback: %q", got)
	}
}

func TestImageLabelsValid(t *testing.T) {
	for _, tag := range Languages() {
		l := LangFor(tag.String())
		if err := l.Labels().Validate(); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
		if l.Labels().Misthrows == "" {
			t.Errorf("%s: no misthrow label", tag)
		}
	}
	if LangFor("de").Labels().Misthrows != "Fehlwürfe" || LangFor("fr").Labels().Misthrows != "Coups manqués" {
		t.Error("rulebook terms missing")
	}
}

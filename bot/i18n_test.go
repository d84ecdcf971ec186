package bot

import (
	"regexp"
	"slices"
	"testing"
)

func TestLangFor(t *testing.T) {
	tests := map[string]string{
		"de": "de", "fr": "fr", "en-US": "en", "en-GB": "en", "": "en", "ja": "en", "pt-BR": "en", "xx-nonsense": "en",
	}
	for locale, want := range tests {
		if got := LangFor(locale).Code(); got != want {
			t.Errorf("LangFor(%q) = %s, want %s", locale, got, want)
		}
	}
}

var verb = regexp.MustCompile(`%(\[\d+\])?[a-z]`)

// Every message exists in all three languages with the same arguments.
func TestMessagesCompleteAndConsistent(t *testing.T) {
	for key, m := range messages() {
		want := verb.FindAllString(m[0], -1)
		slices.Sort(want)
		for i := 1; i < 3; i++ {
			got := verb.FindAllString(m[i], -1)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s has verbs %v, English %v", key, Languages()[i], got, want)
			}
		}
	}
}

func TestTranslate(t *testing.T) {
	if got := LangFor("de").T("lobby.seats", 2, 5); got != "Spieler (2/5)" {
		t.Errorf("German: %q", got)
	}
	if got := LangFor("fr").T("lobby.title", "Qwixx"); got != "Nouvelle table : Qwixx" {
		t.Errorf("French: %q", got)
	}
	if got := LangFor("ko").T("btn.join"); got != "Join" {
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

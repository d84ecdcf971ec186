package bot

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
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

// TestLangForRemembersBoundedly: a locale's language is the same asked
// once or again, and what is remembered stays bounded however many
// different locales arrive (they come from interactions).
func TestLangForRemembersBoundedly(t *testing.T) {
	for _, c := range []struct{ locale, want string }{
		{"de", "de"}, {"fr", "fr"}, {"en-US", "en"}, {"en-GB", "en"}, {"pt-BR", "en"}, {"", "en"}, {"not a locale", "en"},
	} {
		for range 2 {
			if got := LangFor(c.locale).Code(); got != c.want {
				t.Errorf("LangFor(%q) = %s, want %s", c.locale, got, c.want)
			}
		}
	}
	if got := langOr("pt-BR", "de").Code(); got != "de" {
		t.Errorf("langOr(pt-BR, de) = %s, want the fallback de", got)
	}
	for i := range 3 * int(maxMatched) {
		LangFor(fmt.Sprintf("x-%d", i))
	}
	n := 0
	matched.Range(func(any, any) bool { n++; return true })
	if n > int(maxMatched) {
		t.Errorf("%d locales remembered, want at most %d", n, maxMatched)
	}
	if got := LangFor("fr-CA").Code(); got != "fr" {
		t.Errorf("LangFor(fr-CA) once the memory is full = %s, want fr", got)
	}
}

// TestPlainMessagesFormattedOnce: a message asked for without arguments
// reads the same from memory as formatted afresh, every message in every
// language.
func TestPlainMessagesFormattedOnce(t *testing.T) {
	n := 0
	for _, tag := range Languages() {
		l := LangFor(tag.String())
		for key, text := range languages()[0].Messages {
			if strings.Contains(text, "%") || strings.Contains(text, "{") {
				continue // takes arguments
			}
			first, again := l.T(key), l.T(key)
			if fresh := l.p.Sprintf(key); first != fresh || again != fresh {
				t.Errorf("%s %q: %q, then %q; formatted afresh %q", tag, key, first, again, fresh)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d messages without arguments checked", n)
	}
}

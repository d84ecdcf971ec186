package bot

import (
	"maps"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// A language is one file: the registered ones pass the checks, and a
// language missing a message, having an unknown one or lacking a command
// name is refused.
func TestLanguagesAreComplete(t *testing.T) {
	ls := languages()
	if len(ls) != 3 || ls[0].Tag != language.English || len(Languages()) != 3 {
		t.Fatalf("languages %v", Languages())
	}
	if err := checkLanguages(ls); err != nil {
		t.Fatal(err)
	}
	de := *ls[1]
	broken := []struct {
		name string
		edit func(l *Language)
		want string
	}{
		{"missing message", func(l *Language) { delete(l.Messages, "btn.join") }, "btn.join"},
		{"unknown message", func(l *Language) { l.Messages["no.such"] = "x" }, "no.such"},
		{"missing command name", func(l *Language) { delete(l.Names, "solo") }, `"solo"`},
	}
	for _, b := range broken {
		l := de
		l.Messages, l.Names = maps.Clone(de.Messages), maps.Clone(de.Names)
		b.edit(&l)
		err := checkLanguages([]*Language{ls[0], &l})
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v", b.name, err)
		}
	}
	if got := languageOf(language.French).commandName("daily"); got != "défi-du-jour" {
		t.Fatalf("French daily: %q", got)
	}
	if LangFor("de").Labels().Points != "Punkte" || LangFor("en-GB").Labels().Points != "Points" {
		t.Fatal("picture labels per language")
	}
}

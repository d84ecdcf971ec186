package bot

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/text/language"

	"github.com/qwixxbot/qwixxbot/render"
)

// Language is everything the bot says in one language: its messages, the
// words in its pictures and the names of its commands. Each language is
// one file (lang_en.go, lang_de.go, lang_fr.go) that registers its
// Language in an init function: adding a language is adding one file.
//
// Messages are in the rulebooks' own terms (misthrow / Fehlwurf / coup
// manqué, row / Reihe / rangée, lock / abschließen / verrouiller, active
// player / aktiver Spieler / joueur actif, draw pile / Zugstapel /
// pioche). The player is addressed informally (du, tu); messages for the
// whole table speak of "everybody" (alle, chacun). Arguments use fmt verbs
// with explicit indexes where word order differs. Two notations are
// resolved by Lang.T: {N:one|other} is a word counted by argument N, in the
// language's plural rules (x/text's plural.Selectf: "1 point", "2 points";
// French "0 point"), and {/sub} is the command "/qwixx sub" as a client in
// the language shows it ("/qwixx ende", "/qwixx règles"). Every language
// has every key of English's, with the same verbs (checked by tests).
//
// The catalogue is x/text's (plural rules from CLDR); go-i18n would add a
// second message format and loader for what x/text already does here.
type Language struct {
	Tag language.Tag
	// Locale is the Discord locale whose clients show the localised
	// command names and descriptions (unused for English, the registered
	// names).
	Locale discordgo.Locale
	// Labels are the words in the pictures (render.Labels; the zero value
	// means render's defaults, English).
	Labels render.Labels
	// Names are the subcommands' and options' names as the language's
	// clients show them (Discord allows ^[-_\p{L}\p{N}]{1,32}$, lowercase);
	// English has none: the registered names are English.
	Names map[string]string
	// Messages are the texts by key.
	Messages map[string]string
}

var (
	registryMu sync.Mutex
	registry   []*Language
)

// register adds a language (from its file's init).
func register(l *Language) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry = append(registry, l)
}

// languages are the registered languages, English first, the others in
// the order of their tags. Read after init (on first use), it checks them:
// each has every English key and a name for every command.
var languages = sync.OnceValue(func() []*Language {
	registryMu.Lock()
	out := slices.Clone(registry)
	registryMu.Unlock()
	slices.SortFunc(out, func(a, b *Language) int {
		switch {
		case a.Tag == language.English:
			return -1
		case b.Tag == language.English:
			return 1
		}
		return cmp.Compare(a.Tag.String(), b.Tag.String())
	})
	if err := checkLanguages(out); err != nil {
		panic("bot: " + err.Error())
	}
	return out
})

// checkLanguages checks a list of languages, English first: every other
// has a text for every English key and no other key, and a name for every
// command.
func checkLanguages(ls []*Language) error {
	if len(ls) == 0 || ls[0].Tag != language.English {
		return fmt.Errorf("no English language first")
	}
	for _, l := range ls[1:] {
		for key := range ls[0].Messages {
			if l.Messages[key] == "" {
				return fmt.Errorf("message %q has no %s text", key, l.Tag)
			}
		}
		for key := range l.Messages {
			if _, ok := ls[0].Messages[key]; !ok {
				return fmt.Errorf("%s message %q is not an English one", l.Tag, key)
			}
		}
		for _, n := range commandNames {
			if l.Names[n] == "" {
				return fmt.Errorf("command %q has no %s name", n, l.Tag)
			}
		}
	}
	return nil
}

// languageOf is the registered language of tag, nil when there is none.
func languageOf(tag language.Tag) *Language {
	base, _ := tag.Base()
	for _, l := range languages() {
		if b, _ := l.Tag.Base(); b == base {
			return l
		}
	}
	return nil
}

// Code is the language's short code (en, de, fr).
func (l *Language) Code() string {
	b, _ := l.Tag.Base()
	return b.String()
}

// commandName is a subcommand's or option's name as the language's
// clients show it.
func (l *Language) commandName(name string) string {
	if l == nil || l.Tag == language.English {
		return name
	}
	if n := l.Names[name]; n != "" {
		return n
	}
	panic("bot: no localised name for " + name)
}

// messages are every message by key, one text per language in the order
// of Languages (tests and checks read them so).
func messages() map[string][]string {
	out := map[string][]string{}
	for i, l := range languages() {
		for key, text := range l.Messages {
			if out[key] == nil {
				out[key] = make([]string, len(languages()))
			}
			out[key][i] = text
		}
	}
	return out
}

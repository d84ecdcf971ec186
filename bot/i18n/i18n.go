package i18n

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pelletier/go-toml/v2"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/render"
)

//go:embed locales/*.toml
var files embed.FS

// CommandNames are the subcommands and options the bot registers: every
// language names each ([names]).
var CommandNames = []string{
	"new", "sheet", "hand", "leave", "remove", "end", "settings", "rules", "help", "stats", "leaderboard", "record", "forget-me", "solo", "daily",
	"variant", "games", "player", "timeout", "computers", "game", "where",
}

// Language is everything the bot says in one language: one message file.
type Language struct {
	Tag language.Tag
	// Locale is the Discord locale ("de", "fr", "en-US") whose clients
	// show the localised command names and descriptions (unused for
	// English, the registered names).
	Locale string
	// Labels are the words in its pictures.
	Labels render.Labels
	// Names are the subcommands' and options' names as the language's
	// clients show them (Discord allows ^[-_\p{L}\p{N}]{1,32}$,
	// lowercase); English has none: the registered names are English.
	Names map[string]string
	// Messages are the texts by key, Plurals the counted words of each
	// (by variable name).
	Messages map[msg.Key]string
	Plurals  map[msg.Key]map[string]Plural
}

// Plural is a word counted by the argument Arg (1-based): One and Other
// are its forms, chosen by the language's CLDR plural rules.
type Plural struct {
	Arg   int    `toml:"arg"`
	One   string `toml:"one"`
	Other string `toml:"other"`
}

// file is a message file as written.
type file struct {
	Tag      string                       `toml:"tag"`
	Locale   string                       `toml:"locale"`
	Names    map[string]string            `toml:"names"`
	Labels   render.Labels                `toml:"labels"`
	Messages map[string]string            `toml:"messages"`
	Plurals  map[string]map[string]Plural `toml:"plurals"`
}

// Parse reads one message file.
func Parse(data []byte) (*Language, error) {
	var f file
	dec := toml.NewDecoder(strings.NewReader(string(data))).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	tag, err := language.Parse(f.Tag)
	if err != nil {
		return nil, fmt.Errorf("tag %q: %w", f.Tag, err)
	}
	l := &Language{Tag: tag, Locale: f.Locale, Labels: f.Labels, Names: f.Names,
		Messages: map[msg.Key]string{}, Plurals: map[msg.Key]map[string]Plural{}}
	for k, v := range f.Messages {
		l.Messages[msg.Key(k)] = v
	}
	for k, v := range f.Plurals {
		l.Plurals[msg.Key(k)] = v
	}
	return l, nil
}

// Load reads the message files of fsys (every *.toml at its top) and
// checks them (Check): English first, the others in the order of their
// tags.
func Load(fsys fs.FS) ([]*Language, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, err
	}
	var out []*Language
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		l, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b *Language) int {
		switch {
		case a.Tag == language.English:
			return -1
		case b.Tag == language.English:
			return 1
		}
		return cmp.Compare(a.Tag.String(), b.Tag.String())
	})
	if err := Check(out); err != nil {
		return nil, err
	}
	return out, nil
}

// All are the bot's languages, from its embedded message files, English
// first.
// A broken message file is a programming error caught by the package's
// tests (through loadEmbedded), so All panics on one.
var All = sync.OnceValue(func() []*Language {
	ls, err := loadEmbedded()
	if err != nil {
		panic("i18n: " + err.Error())
	}
	return ls
})

// loadEmbedded loads and checks the embedded message files.
func loadEmbedded() ([]*Language, error) {
	sub, err := fs.Sub(files, "locales")
	if err != nil {
		return nil, fmt.Errorf("embedded message files: %w", err)
	}
	return Load(sub)
}

// placeholderRE finds the ${name} variables of a message.
var placeholderRE = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// Check checks a list of languages, English first: every other has a text
// for every English key and no other key, every ${name} of a message is
// one of its plurals and every plural is used, and every language but
// English names every command.
func Check(ls []*Language) error {
	if len(ls) == 0 || ls[0].Tag != language.English {
		return fmt.Errorf("no English language first")
	}
	for _, l := range ls {
		if l != ls[0] {
			for key := range ls[0].Messages {
				if l.Messages[key] == "" {
					return fmt.Errorf("message %q has no %s text", key, l.Tag)
				}
			}
			for _, n := range CommandNames {
				if l.Names[n] == "" {
					return fmt.Errorf("command %q has no %s name", n, l.Tag)
				}
			}
		}
		for key, text := range l.Messages {
			if _, ok := ls[0].Messages[key]; !ok {
				return fmt.Errorf("%s message %q is not an English one", l.Tag, key)
			}
			used := map[string]bool{}
			for _, m := range placeholderRE.FindAllStringSubmatch(text, -1) {
				p, ok := l.Plurals[key][m[1]]
				if !ok {
					return fmt.Errorf("%s message %q: ${%s} is not under [plurals.%q]", l.Tag, key, m[1], key)
				}
				if p.Arg < 1 || p.One == "" || p.Other == "" {
					return fmt.Errorf("%s message %q: plural %s needs arg (from 1), one and other", l.Tag, key, m[1])
				}
				used[m[1]] = true
			}
			for name := range l.Plurals[key] {
				if !used[name] {
					return fmt.Errorf("%s message %q: plural %s is not used", l.Tag, key, name)
				}
			}
		}
		for key := range l.Plurals {
			if _, ok := l.Messages[key]; !ok {
				return fmt.Errorf("%s: plurals of %q, which is no message", l.Tag, key)
			}
		}
	}
	return nil
}

// Languages are the tags of the languages the bot speaks, English first:
// it is the fallback for every other locale.
func Languages() []language.Tag {
	var tags []language.Tag
	for _, l := range All() {
		tags = append(tags, l.Tag)
	}
	return tags
}

// Of is the language of tag's base language, nil when there is none.
func Of(tag language.Tag) *Language {
	base, _ := tag.Base()
	for _, l := range All() {
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

// CommandName is a subcommand's or option's name as the language's clients
// show it.
func (l *Language) CommandName(name string) string {
	if l == nil || l.Tag == language.English {
		return name
	}
	if n := l.Names[name]; n != "" {
		return n
	}
	panic("i18n: no localised name for " + name)
}

// commandRE finds a command in a message: {/sub} is "/qwixx sub" as a
// client in the language shows it.
var commandRE = regexp.MustCompile(`\{/[a-z-]+\}`)

// compile turns a message of language l into x/text catalogue messages:
// each plural a variable selected with plural.Selectf, each {/sub} the
// command as the language's clients show it.
func compile(l *Language, key msg.Key) ([]catalog.Message, error) {
	text, err := commandText(l, key)
	if err != nil {
		return nil, err
	}
	var out []catalog.Message
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range l.Plurals[key] {
			if !yield(n) {
				return
			}
		}
	}) {
		p := l.Plurals[key][name]
		out = append(out, catalog.Var(name, plural.Selectf(p.Arg, "%d", plural.One, p.One, plural.Other, p.Other)))
	}
	return append(out, catalog.String(text)), nil
}

// commandText is message key of language l with each {/sub} written as
// the command its clients show.
func commandText(l *Language, key msg.Key) (string, error) {
	var err error
	text := commandRE.ReplaceAllStringFunc(l.Messages[key], func(m string) string {
		sub := m[2 : len(m)-1]
		if !slices.Contains(CommandNames, sub) {
			err = fmt.Errorf("unknown command %q", m)
			return m
		}
		return "`/qwixx " + l.CommandName(sub) + "`"
	})
	return text, err
}

// catalogue holds every message in every language, built once, on first
// use.
var catalogue = sync.OnceValue(func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, l := range All() {
		for key := range l.Messages {
			msgs, err := compile(l, key)
			if err == nil {
				err = b.Set(l.Tag, string(key), msgs...)
			}
			if err != nil {
				panic(fmt.Sprintf("i18n: message %q (%s): %v", key, l.Tag, err))
			}
		}
	}
	return b
})

// Lang is one of Languages, chosen for a Discord locale.
type Lang struct {
	Tag language.Tag
	c   *compiled
}

// compiled is a language's messages ready to format: its x/text printer
// and every message parsed (fastMsg).
type compiled struct {
	p    *message.Printer
	msgs map[msg.Key]*fastMsg
	// one tells, for 0 ≤ n < maxFast, whether n's plural form is "one"
	// in the language (CLDR's rules, as x/text applies them).
	one [maxFast]bool
}

// languages are the compiled languages, built once, on first use.
var languages = sync.OnceValue(func() map[language.Tag]*compiled {
	m := map[language.Tag]*compiled{}
	for _, l := range All() {
		c := &compiled{p: message.NewPrinter(l.Tag, message.Catalog(catalogue())), msgs: map[msg.Key]*fastMsg{}}
		for n := range maxFast {
			c.one[n] = plural.Cardinal.MatchPlural(l.Tag, n, 0, 0, 0, 0) == plural.One
		}
		for key := range l.Messages {
			c.msgs[key] = parseFast(l, key)
		}
		m[l.Tag] = c
	}
	return m
})

// english is the compiled English, for a zero Lang.
func english() *compiled { return languages()[language.English] }

// For picks the language for a Discord locale ("de", "fr", "en-US", …),
// English when none matches.
func For(locale string) Lang {
	if l, ok := match(locale); ok {
		return l
	}
	return Lang{Tag: language.English, c: english()}
}

// Or picks the language for a Discord locale, or the fallback language
// code when the bot does not speak that locale.
func Or(locale, fallback string) Lang {
	if l, ok := match(locale); ok {
		return l
	}
	if fallback == "" {
		fallback = "en"
	}
	return For(fallback)
}

// matcher matches a locale to Languages.
var matcher = sync.OnceValue(func() language.Matcher { return language.NewMatcher(Languages()) })

// matched remembers match's answers (a locale is parsed and matched once,
// not at every message: that was 3 % of a click's time) for up to
// maxMatched locales: Discord's are a few dozen, the rest are what
// somebody typed.
var (
	matched    sync.Map // locale → langMatch
	nMatched   atomic.Int32
	maxMatched = int32(256)
)

type langMatch struct {
	l  Lang
	ok bool
}

// match is the language of Languages for locale, if one matches it with
// high confidence.
func match(locale string) (Lang, bool) {
	if v, ok := matched.Load(locale); ok {
		m := v.(langMatch)
		return m.l, m.ok
	}
	var m langMatch
	if t, err := language.Parse(locale); err == nil {
		if _, i, conf := matcher().Match(t); conf >= language.High {
			tag := Languages()[i]
			m = langMatch{Lang{Tag: tag, c: languages()[tag]}, true}
		}
	}
	if nMatched.Load() < maxMatched {
		if _, loaded := matched.LoadOrStore(locale, m); !loaded {
			nMatched.Add(1)
		}
	}
	return m.l, m.ok
}

// T formats message key with args in this language.
//
// It formats as x/text's printer over the catalogue does, without the
// printer's garbage (a catalogue context, a decoder and a buffer per
// message: a fifth of a click's allocations) where it can: a message's
// text, strings for %s and numbers below a thousand for %d and the
// counted words, written straight into one string (fastMsg). Any other
// argument (a number that x/text would group, another type) goes to the
// printer.
func (l Lang) T(key msg.Key, args ...any) string {
	c := l.c
	if c == nil {
		c = english()
	}
	m := c.msgs[key]
	if m == nil {
		panic(fmt.Sprintf("i18n: unknown message %q", key))
	}
	if !m.slow {
		if out, ok := m.format(c, args); ok {
			return out
		}
	}
	// A copy for the printer, which keeps its arguments: args stay on
	// the caller's stack.
	return c.p.Sprintf(string(key), append([]any(nil), args...)...)
}

// Code is the language's short code: en, de or fr.
func (l Lang) Code() string {
	b, _ := l.Tag.Base()
	return b.String()
}

// Labels are the words in the language's pictures.
func (l Lang) Labels() render.Labels {
	if lang := Of(l.Tag); lang != nil && lang.Labels != (render.Labels{}) {
		return lang.Labels
	}
	return render.DefaultLabels()
}

// Language is the message file of l's language.
func (l Lang) Language() *Language { return Of(l.Tag) }

// Messages are every message by key, one text per language in the order
// of Languages (checks and tests read them so).
func Messages() map[msg.Key][]string {
	out := map[msg.Key][]string{}
	ls := All()
	for i, l := range ls {
		for key, text := range l.Messages {
			if out[key] == nil {
				out[key] = make([]string, len(ls))
			}
			out[key][i] = text
		}
	}
	return out
}

// Path is where the message file of code is in the repository, for error
// messages and tests.
func Path(code string) string { return path.Join("bot/i18n/locales", code+".toml") }

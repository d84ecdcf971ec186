package bot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Languages are the languages the bot speaks (lang.go), English first:
// it is the fallback for every other locale.
func Languages() []language.Tag {
	var tags []language.Tag
	for _, l := range languages() {
		tags = append(tags, l.Tag)
	}
	return tags
}

// matcher matches a locale to Languages.
var matcher = sync.OnceValue(func() language.Matcher { return language.NewMatcher(Languages()) })

// pluralRE finds a counted word in a message: {N:one|other} is the word
// for argument N (1-based, an integer) in the language's singular or plural,
// chosen by x/text's CLDR plural rules ("1 point", "2 points"; in French 0
// and 1 are singular: "0 point").
var pluralRE = regexp.MustCompile(`\{(\d+):([^{}|]*)\|([^{}|]*)\}`)

// commandRE finds a command in a message: {/sub} is "/qwixx sub" as a
// client in the language shows it.
var commandRE = regexp.MustCompile(`\{/[a-z-]+\}`)

// compile turns a message of the table in language code into x/text
// catalogue messages: each {N:one|other} becomes a variable selected with
// plural.Selectf, each {/sub} the command as the language's clients show
// it.
func compile(code, s string) ([]catalog.Message, error) {
	var vars []catalog.Message
	var err error
	s = commandRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := m[2 : len(m)-1]
		if !slices.Contains(commandNames, sub) {
			err = fmt.Errorf("unknown command %q", m)
			return m
		}
		return "`/qwixx " + languageOf(language.Make(code)).commandName(sub) + "`"
	})
	text := pluralRE.ReplaceAllStringFunc(s, func(m string) string {
		g := pluralRE.FindStringSubmatch(m)
		arg, aerr := strconv.Atoi(g[1])
		if aerr != nil || arg < 1 {
			err = fmt.Errorf("bad plural argument in %q", m)
			return m
		}
		name := "p" + strconv.Itoa(len(vars))
		vars = append(vars, catalog.Var(name, plural.Selectf(arg, "%d", plural.One, g[2], plural.Other, g[3])))
		return "${" + name + "}"
	})
	if err != nil {
		return nil, err
	}
	return append(vars, catalog.String(text)), nil
}

// catalogue holds every user-facing string in every language, built once,
// on first use, from the registered languages (init registers them, so
// they are all there by then).
var catalogue = sync.OnceValue(func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, lang := range languages() {
		for key, text := range lang.Messages {
			msgs, err := compile(lang.Code(), text)
			if err == nil {
				err = b.Set(lang.Tag, key, msgs...)
			}
			if err != nil {
				panic(fmt.Sprintf("bot: message %q (%s): %v", key, lang.Tag, err))
			}
		}
	}
	return b
})

// Lang is one of Languages, chosen for a Discord locale.
type Lang struct {
	Tag language.Tag
	p   *message.Printer
}

var printers = sync.OnceValue(func() map[language.Tag]*message.Printer {
	m := map[language.Tag]*message.Printer{}
	for _, t := range Languages() {
		m[t] = message.NewPrinter(t, message.Catalog(catalogue()))
	}
	return m
})

// LangFor picks the language for a Discord locale ("de", "fr", "en-US", …),
// English when none matches.
func LangFor(locale string) Lang {
	if l, ok := matchLang(locale); ok {
		return l
	}
	return Lang{Tag: language.English, p: printers()[language.English]}
}

// langOr picks the language for a Discord locale, or the fallback language
// code when the bot does not speak that locale.
func langOr(locale, fallback string) Lang {
	if l, ok := matchLang(locale); ok {
		return l
	}
	if fallback == "" {
		fallback = "en"
	}
	return LangFor(fallback)
}

// matched remembers matchLang's answers (a locale is parsed and matched
// once, not at every message: that was 3 % of a click's time) for up to
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

// matchLang is the language of Languages for locale, if one matches it
// with high confidence.
func matchLang(locale string) (Lang, bool) {
	if v, ok := matched.Load(locale); ok {
		m := v.(langMatch)
		return m.l, m.ok
	}
	var m langMatch
	if t, err := language.Parse(locale); err == nil {
		if _, i, conf := matcher().Match(t); conf >= language.High {
			tag := Languages()[i]
			m = langMatch{Lang{Tag: tag, p: printers()[tag]}, true}
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
func (l Lang) T(key string, args ...any) string {
	if _, ok := languages()[0].Messages[key]; !ok {
		panic(fmt.Sprintf("bot: unknown message %q", key))
	}
	p := l.p
	if p == nil {
		p = printers()[language.English]
	}
	if len(args) > 0 {
		return p.Sprintf(key, args...)
	}
	// A message without arguments is the same every time: formatted once
	// per language (x/text makes a new printer context per message).
	k := plainKey{p, key}
	if v, ok := plain.Load(k); ok {
		return v.(string)
	}
	out := p.Sprintf(key)
	plain.Store(k, out)
	return out
}

// plain holds the messages without arguments, formatted, per printer (a
// language) and key: at most the languages times the messages.
var plain sync.Map // plainKey → string

type plainKey struct {
	p   *message.Printer
	key string
}

// Code is the language's short code: en, de or fr.
func (l Lang) Code() string {
	b, _ := l.Tag.Base()
	return b.String()
}

package bot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

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
	tag := language.English
	if t, err := language.Parse(locale); err == nil {
		_, i, conf := matcher().Match(t)
		if conf >= language.High {
			tag = Languages()[i]
		}
	}
	return Lang{Tag: tag, p: printers()[tag]}
}

// langOr picks the language for a Discord locale, or the fallback language
// code when the bot does not speak that locale.
func langOr(locale, fallback string) Lang {
	if t, err := language.Parse(locale); err == nil {
		if _, _, conf := matcher().Match(t); conf >= language.High {
			return LangFor(locale)
		}
	}
	if fallback == "" {
		fallback = "en"
	}
	return LangFor(fallback)
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
	return p.Sprintf(key, args...)
}

// Code is the language's short code: en, de or fr.
func (l Lang) Code() string {
	b, _ := l.Tag.Base()
	return b.String()
}

package bot

import (
	"fmt"
	"regexp"
	"strconv"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Languages are the languages of the rulebooks, English first: it is the
// fallback for every other locale.
var Languages = []language.Tag{language.English, language.German, language.French}

var matcher = language.NewMatcher(Languages)

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
		if _, ok := subcommandNames[sub]; !ok {
			err = fmt.Errorf("unknown command %q", m)
			return m
		}
		return "`/qwixx " + localName(code, subcommandNames, sub) + "`"
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

// catalogue holds every user-facing string in every language, built once
// from the messages table.
var catalogue = func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for key, m := range messages {
		for i, tag := range Languages {
			if m[i] == "" {
				panic(fmt.Sprintf("bot: message %q has no %s text", key, tag))
			}
			base, _ := tag.Base()
			msgs, err := compile(base.String(), m[i])
			if err == nil {
				err = b.Set(tag, key, msgs...)
			}
			if err != nil {
				panic(fmt.Sprintf("bot: message %q (%s): %v", key, tag, err))
			}
		}
	}
	return b
}()

// Lang is one of Languages, chosen for a Discord locale.
type Lang struct {
	Tag language.Tag
	p   *message.Printer
}

var printers = func() map[language.Tag]*message.Printer {
	m := map[language.Tag]*message.Printer{}
	for _, t := range Languages {
		m[t] = message.NewPrinter(t, message.Catalog(catalogue))
	}
	return m
}()

// LangFor picks the language for a Discord locale ("de", "fr", "en-US", …),
// English when none matches.
func LangFor(locale string) Lang {
	tag := language.English
	if t, err := language.Parse(locale); err == nil {
		_, i, conf := matcher.Match(t)
		if conf >= language.High {
			tag = Languages[i]
		}
	}
	return Lang{Tag: tag, p: printers[tag]}
}

// langOr picks the language for a Discord locale, or the fallback language
// code when the bot does not speak that locale.
func langOr(locale, fallback string) Lang {
	if t, err := language.Parse(locale); err == nil {
		if _, _, conf := matcher.Match(t); conf >= language.High {
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
	if _, ok := messages[key]; !ok {
		panic(fmt.Sprintf("bot: unknown message %q", key))
	}
	p := l.p
	if p == nil {
		p = printers[language.English]
	}
	return p.Sprintf(key, args...)
}

// Code is the language's short code: en, de or fr.
func (l Lang) Code() string {
	b, _ := l.Tag.Base()
	return b.String()
}

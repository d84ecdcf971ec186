package bot

import (
	"fmt"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Languages are the languages of the rulebooks, English first: it is the
// fallback for every other locale.
var Languages = []language.Tag{language.English, language.German, language.French}

var matcher = language.NewMatcher(Languages)

// catalogue holds every user-facing string in every language, built once
// from the messages table.
var catalogue = func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for key, m := range messages {
		for i, tag := range Languages {
			if m[i] == "" {
				panic(fmt.Sprintf("bot: message %q has no %s text", key, tag))
			}
			if err := b.SetString(tag, key, m[i]); err != nil {
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

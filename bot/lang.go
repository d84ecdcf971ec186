package bot

import (
	"golang.org/x/text/language"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
)

// Lang is a language the bot speaks, chosen for a Discord locale: its T
// formats a message (bot/i18n, whose message files hold every word).
type Lang = i18n.Lang

// LangFor picks the language for a Discord locale ("de", "fr", "en-US", …),
// English when none matches.
func LangFor(locale string) Lang { return i18n.For(locale) }

// langOr picks the language for a Discord locale, or the fallback language
// code when the bot does not speak that locale.
func langOr(locale, fallback string) Lang { return i18n.Or(locale, fallback) }

// Languages are the languages the bot speaks, English first.
func Languages() []language.Tag { return i18n.Languages() }

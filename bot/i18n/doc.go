// Package i18n is everything the bot says, in every language it speaks:
// the message files (locales/*.toml, embedded), the catalogue built from
// them, and Lang, a language chosen for a Discord locale, whose T formats
// a message.
//
// # A language is a file
//
// Each language is one TOML file in locales/ (en.toml, de.toml, fr.toml):
// its tag and Discord locale, the names of the bot's subcommands and
// options as its clients show them ([names]), the words in the pictures
// ([labels], render.Labels) and its messages by key ([messages]). Adding a
// language is adding such a file; the bot refuses to start with a language
// that lacks a message, a plural form or a command name (Load).
//
// Messages are in the rulebooks' own terms (misthrow / Fehlwurf / coup
// manqué, row / Reihe / rangée, lock / abschließen / verrouiller, active
// player / aktiver Spieler / joueur actif, draw pile / Zugstapel /
// pioche). The player is addressed informally (du, tu); messages for the
// whole table speak of "everybody" (alle, chacun).
//
// # Arguments, plurals and commands
//
// Arguments are fmt verbs with explicit indexes (%[1]s, %[2]d), so that
// each language may order them as it needs. A word counted by an argument
// is a variable of x/text's catalogue: the message says ${name}, and the
// table [plurals."key"] gives name's argument and forms,
//
//	[messages]
//	"board.unranked" = "Not ranked yet (fewer than %[1]d ${games}):"
//	[plurals."board.unranked"]
//	games = { arg = 1, one = "game", other = "games" }
//
// which x/text selects by the language's CLDR plural rules (plural.Selectf:
// "1 game", "2 games"; French "0 partie"). {/sub} is the command
// "/qwixx sub" as a client in the language shows it ("/qwixx ende",
// "/qwixx règles").
//
// # Keys are constants
//
// Every message key is a constant of package msg, generated from
// locales/en.toml (go generate ./bot/i18n): a mistyped key does not
// compile. The tests check that every language has every key with the
// same verbs and plural arguments, that every call of T passes as many
// arguments as its message has, and that every key is used.
//
// The catalogue is x/text's: its plural rules come from CLDR, and its
// printers format the verbs; go-i18n would add a second message format
// (templates with named fields, one plural count per message) where every
// message here is a positional fmt format, several with two counted
// words.
//
// # Formatting without a printer
//
// A printer builds a catalogue context, a message decoder and a buffer
// for every message it formats, and a click formats a few dozen. So T
// parses every message once (fast.go) and writes the common case itself:
// text, strings for %s, numbers below a thousand for %d and %+d (no
// language groups their digits) and counted words by the language's
// plural rules. Anything else (another argument type, a larger number)
// goes to the printer. TestFastFormattingMatchesPrinter compares the two
// for every message in every language.
package i18n

//go:generate go run ./internal/keygen -in locales/en.toml -out msg/keys.go

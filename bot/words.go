package bot

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/game"
)

// wordMessages name colours, rows and cells in the forms sentences need:
// English "the red row", German "die rote Reihe" (and "in der roten
// Reihe"), French "la rangée rouge", and durations as people write them.
var wordMessages = map[string][3]string{
	// A colour as a word in a sentence (lower case where the language
	// writes it so): "count as red", "als Rot zählen", "comme rouge".
	"log.color.red":    {"red", "Rot", "rouge"},
	"log.color.yellow": {"yellow", "Gelb", "jaune"},
	"log.color.green":  {"green", "Grün", "vert"},
	"log.color.blue":   {"blue", "Blau", "bleu"},
	// A colour as an adjective before a noun with the definite article:
	// "the red die", "der rote Würfel", "le dé rouge" (masculine).
	"adj.red":    {"red", "rote", "rouge"},
	"adj.yellow": {"yellow", "gelbe", "jaune"},
	"adj.green":  {"green", "grüne", "vert"},
	"adj.blue":   {"blue", "blaue", "bleu"},
	// A row's colour in a list of rows: "red and blue locked", "Rot und Blau
	// abgeschlossen", "rangées rouge et bleue verrouillées" (feminine).
	"rowcolor.red":    {"red", "Rot", "rouge"},
	"rowcolor.yellow": {"yellow", "Gelb", "jaune"},
	"rowcolor.green":  {"green", "Grün", "verte"},
	"rowcolor.blue":   {"blue", "Blau", "bleue"},
	// A row (subject or object) and a row after "in".
	"row.red":      {"the red row", "die rote Reihe", "la rangée rouge"},
	"row.yellow":   {"the yellow row", "die gelbe Reihe", "la rangée jaune"},
	"row.green":    {"the green row", "die grüne Reihe", "la rangée verte"},
	"row.blue":     {"the blue row", "die blaue Reihe", "la rangée bleue"},
	"rowin.red":    {"in the red row", "in der roten Reihe", "dans la rangée rouge"},
	"rowin.yellow": {"in the yellow row", "in der gelben Reihe", "dans la rangée jaune"},
	"rowin.green":  {"in the green row", "in der grünen Reihe", "dans la rangée verte"},
	"rowin.blue":   {"in the blue row", "in der blauen Reihe", "dans la rangée bleue"},
	// A number of a row, %[1]s the colour adjective: "red 5", "die rote 5",
	// "le 5 rouge".
	"cell": {"%[1]s %[2]d", "die %[1]s %[2]d", "le %[2]d %[1]s"},
	// A card by colour and number, as its owner and the log name it: "Red
	// 5", "Rot 5", "5 rouge"; a joker by its number.
	"cardcolor.red":    {"Red", "Rot", "rouge"},
	"cardcolor.yellow": {"Yellow", "Gelb", "jaune"},
	"cardcolor.green":  {"Green", "Grün", "vert"},
	"cardcolor.blue":   {"Blue", "Blau", "bleu"},
	"card":             {"%[1]s %[2]d", "%[1]s %[2]d", "%[2]d %[1]s"},
	"card.joker":       {"Joker %[1]d", "Joker %[1]d", "joker %[1]d"},
	// A list's last joint: "red, yellow and blue".
	"word.and": {"and", "und", "et"},
	// Between a label and what it says: "Pass: …", French "Passe : …".
	"word.colon": {": ", ": ", " : "},

	// Durations: one unit in words, several as symbols ("1 h 30 min").
	"dur.hours":   {"%[1]d {1:hour|hours}", "%[1]d {1:Stunde|Stunden}", "%[1]d {1:heure|heures}"},
	"dur.minutes": {"%[1]d {1:minute|minutes}", "%[1]d {1:Minute|Minuten}", "%[1]d {1:minute|minutes}"},
	"dur.seconds": {"%[1]d {1:second|seconds}", "%[1]d {1:Sekunde|Sekunden}", "%[1]d {1:seconde|secondes}"},
	"dur.h":       {"%[1]d h", "%[1]d Std.", "%[1]d h"},
	"dur.min":     {"%[1]d min", "%[1]d Min.", "%[1]d min"},
	"dur.s":       {"%[1]d s", "%[1]d Sek.", "%[1]d s"},
}

// colorWord is a colour as a word in a sentence: "red", "Rot", "rouge".
func colorWord(l Lang, c game.Color) string { return l.T("log.color." + c.String()) }

// rowName is a row as subject or object: "the red row", "die rote Reihe".
func rowName(l Lang, c game.Color) string { return l.T("row." + c.String()) }

// rowIn is a row after "in": "in the red row", "in der roten Reihe".
func rowIn(l Lang, c game.Color) string { return l.T("rowin." + c.String()) }

// cellName is a number of a row: "red 5", "die rote 5", "le 5 rouge".
func cellName(l Lang, c game.Color, n int) string {
	return l.T("cell", l.T("adj."+c.String()), n)
}

// listAnd joins words as a list: "a", "a and b", "a, b and c".
func listAnd(l Lang, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + l.T("word.and") + " " + words[len(words)-1]
}

// upperFirst writes a text's first letter in upper case, for a phrase that
// starts a sentence.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// formatDuration words a duration as people write it, rounded to the
// second: one unit in words ("10 minutes", "10 Minuten", "1 heure"),
// several with symbols ("1 h 30 min", "1 Std. 30 Min.").
func formatDuration(l Lang, d time.Duration) string {
	secs := int((d + time.Second/2) / time.Second)
	if secs < 0 {
		secs = 0
	}
	h, m, s := secs/3600, secs/60%60, secs%60
	var parts []string
	if h > 0 {
		parts = append(parts, l.T("dur.h", h))
	}
	if m > 0 {
		parts = append(parts, l.T("dur.min", m))
	}
	if s > 0 {
		parts = append(parts, l.T("dur.s", s))
	}
	switch {
	case len(parts) > 1:
		return strings.Join(parts, " ")
	case h > 0:
		return l.T("dur.hours", h)
	case m > 0:
		return l.T("dur.minutes", m)
	}
	return l.T("dur.seconds", s)
}

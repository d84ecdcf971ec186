package bot

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// Every counted word reads right for 0, 1, 2 and 5 in every language, by
// the language's plural rules (French: 0 and 1 are singular).
func TestPluralForms(t *testing.T) {
	tests := []struct {
		key  msg.Key
		args func(n int) []any
		want map[string][4]string // language → for 0, 1, 2, 5
	}{
		{msg.SheetWait, func(n int) []any { return []any{n} }, map[string][4]string{
			"en": {"Your sheet (0 points).", "Your sheet (1 point).", "Your sheet (2 points).", "Your sheet (5 points)."},
			"de": {"Dein Zettel (0 Punkte).", "Dein Zettel (1 Punkt).", "Dein Zettel (2 Punkte).", "Dein Zettel (5 Punkte)."},
			"fr": {"Ta fiche (0 point).", "Ta fiche (1 point).", "Ta fiche (2 points).", "Ta fiche (5 points)."},
		}},
		{msg.OverWinner, func(n int) []any { return []any{"Anna", n} }, map[string][4]string{
			"en": {"Anna wins with 0 points!", "Anna wins with 1 point!", "Anna wins with 2 points!", "Anna wins with 5 points!"},
			"de": {"Anna gewinnt mit 0 Punkten!", "Anna gewinnt mit 1 Punkt!", "Anna gewinnt mit 2 Punkten!", "Anna gewinnt mit 5 Punkten!"},
			"fr": {"Anna gagne avec 0 point !", "Anna gagne avec 1 point !", "Anna gagne avec 2 points !", "Anna gagne avec 5 points !"},
		}},
		{msg.EventReshuffle, func(n int) []any { return []any{n} }, map[string][4]string{
			"en": {"new draw pile of 0 cards.", "new draw pile of 1 card.", "new draw pile of 2 cards.", "new draw pile of 5 cards."},
			"de": {"Zugstapel (0 Karten).", "Zugstapel (1 Karte).", "Zugstapel (2 Karten).", "Zugstapel (5 Karten)."},
			"fr": {"pioche (0 carte).", "pioche (1 carte).", "pioche (2 cartes).", "pioche (5 cartes)."},
		}},
		{msg.WhyTake, func(n int) []any { return []any{n, 4} }, map[string][4]string{
			"en": {"Take 0 cards so", "Take 1 card so", "Take 2 cards so", "Take 5 cards so"},
			"de": {"Nimm 0 Karten,", "Nimm 1 Karte,", "Nimm 2 Karten,", "Nimm 5 Karten,"},
			"fr": {"Prends 0 carte pour", "Prends 1 carte pour", "Prends 2 cartes pour", "Prends 5 cartes pour"},
		}},
		{msg.LobbyGames, func(n int) []any { return []any{n} }, map[string][4]string{
			"en": {"Match of 0 games", "Match of 1 game", "Match of 2 games", "Match of 5 games"},
			"de": {"Serie mit 0 Partien", "Serie mit 1 Partie", "Serie mit 2 Partien", "Serie mit 5 Partien"},
			"fr": {"Série de 0 partie", "Série de 1 partie", "Série de 2 parties", "Série de 5 parties"},
		}},
		{msg.HintGain, func(n int) []any { return []any{n} }, map[string][4]string{
			"en": {"about +0 points", "about +1 point ", "about +2 points", "about +5 points"},
			"de": {"etwa +0 Punkte", "etwa +1 Punkt ", "etwa +2 Punkte", "etwa +5 Punkte"},
			"fr": {"environ +0 point ", "environ +1 point ", "environ +2 points", "environ +5 points"},
		}},
		{msg.OverMatch, func(n int) []any { return []any{n, 5} }, map[string][4]string{
			"en": {"after 0 of 5 games", "after 1 of 5 games", "after 2 of 5 games", "after 5 of 5 games"},
			"de": {"nach 0 von 5 Partien", "nach 1 von 5 Partien", "nach 2 von 5 Partien", "nach 5 von 5 Partien"},
			"fr": {"après 0 partie sur 5", "après 1 partie sur 5", "après 2 parties sur 5", "après 5 parties sur 5"},
		}},
	}
	for _, tt := range tests {
		for code, want := range tt.want {
			l := LangFor(code)
			for i, n := range []int{0, 1, 2, 5} {
				if got := l.T(tt.key, tt.args(n)...); !strings.Contains(got, want[i]) {
					t.Errorf("%s %s n=%d: %q, want it to contain %q", code, tt.key, n, got, want[i])
				}
			}
		}
	}
}

// countedRE finds a number directly followed by a word: "%[1]d cards".
var countedRE = regexp.MustCompile(`%(?:\[\d+\])?d\s+(\p{L}[\p{L}']*)`)

// notCounted are words that may follow a number without being what it
// counts: verbs and particles ("5 is not", "Kreuze die rote 5 an").
var notCounted = map[string]bool{"in": true, "dans": true, "of": true, "von": true, "sur": true, "gewählt": true, "is": true, "ist": true, "an": true, "ne": true, "n'est": true, "est": true, "gibt": true, "liegt": true, "h": true, "min": true, "s": true, "Std": true, "Min": true, "Sek": true}

// No message counts something with a bare "%d noun" or a "noun(s)": every
// counted noun goes through a plural variable (${name}).
func TestCountedWordsHavePluralForms(t *testing.T) {
	for key, m := range i18n.Messages() {
		for i, s := range m {
			for _, g := range countedRE.FindAllStringSubmatch(s, -1) {
				if !notCounted[g[1]] {
					t.Errorf("%s (%s): %q counts %q without a ${plural}", key, Languages()[i], s, g[1])
				}
			}
			for _, bad := range []string{"(s)", "(n)", "(e)", "(en)", "den/die", "sie/ihn"} {
				if strings.Contains(s, bad) {
					t.Errorf("%s (%s): %q has %q: use a ${plural}", key, Languages()[i], s, bad)
				}
			}
		}
	}
	// The scanner finds what it is meant to find.
	if !countedRE.MatchString("Take %[1]d cards") || countedRE.MatchString("Take %[1]d {1:card|cards}") {
		t.Fatal("countedRE does not tell counted words")
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d          time.Duration
		en, de, fr string
	}{
		{10 * time.Minute, "10 minutes", "10 Minuten", "10 minutes"},
		{time.Minute, "1 minute", "1 Minute", "1 minute"},
		{15 * time.Second, "15 seconds", "15 Sekunden", "15 secondes"},
		{time.Second, "1 second", "1 Sekunde", "1 seconde"},
		{time.Hour, "1 hour", "1 Stunde", "1 heure"},
		{24 * time.Hour, "24 hours", "24 Stunden", "24 heures"},
		{90 * time.Minute, "1 h 30 min", "1 Std. 30 Min.", "1 h 30 min"},
		{90 * time.Second, "1 min 30 s", "1 Min. 30 Sek.", "1 min 30 s"},
		{time.Hour + 5*time.Second, "1 h 5 s", "1 Std. 5 Sek.", "1 h 5 s"},
		{0, "0 seconds", "0 Sekunden", "0 seconde"},
		{1400 * time.Millisecond, "1 second", "1 Sekunde", "1 seconde"},
	}
	for _, tt := range tests {
		for code, want := range map[string]string{"en": tt.en, "de": tt.de, "fr": tt.fr} {
			if got := view.FormatDuration(LangFor(code), tt.d); got != want {
				t.Errorf("%s %v: %q, want %q", code, tt.d, got, want)
			}
		}
	}
}

// discordNameRE is Discord's rule for application command names
// (CHAT_INPUT): ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lower case
// where a letter has a lower case.
var discordNameRE = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// The commands have German and French names, with the languages' accents,
// that Discord accepts; every message names a command as a client in its
// language shows it.
func TestLocalisedCommandNames(t *testing.T) {
	cmds := Commands()
	check := func(where, name string) {
		if !discordNameRE.MatchString(name) || strings.ToLower(name) != name {
			t.Errorf("%s: %q is not a valid command name", where, name)
		}
	}
	for _, sub := range cmds[0].Options {
		check(sub.Name, sub.Name)
		for loc, n := range sub.NameLocalizations {
			check(sub.Name+" "+string(loc), n)
		}
		if len(sub.NameLocalizations) != 2 {
			t.Errorf("%s: localised in %d languages", sub.Name, len(sub.NameLocalizations))
		}
		for _, o := range sub.Options {
			for loc, n := range o.NameLocalizations {
				check(sub.Name+" "+o.Name+" "+string(loc), n)
			}
		}
	}
	fr := map[string]string{}
	for _, sub := range cmds[0].Options {
		fr[sub.Name] = sub.NameLocalizations[discordgo.French]
	}
	if fr["rules"] != "règles" || fr["settings"] != "réglages" {
		t.Errorf("French names without accents: %v", fr)
	}
	for code, want := range map[string]string{"en": "`/qwixx end`", "de": "`/qwixx ende`", "fr": "`/qwixx fin`"} {
		if got := LangFor(code).T(msg.ErrBusy, "x"); !strings.Contains(got, want) {
			t.Errorf("%s: %q does not name %s", code, got, want)
		}
	}
	if got := LangFor("fr").T(msg.HelpText); !strings.Contains(got, "`/qwixx règles`") || !strings.Contains(got, "`/qwixx réglages`") {
		t.Errorf("French help: %q", got)
	}
	// Commands are named only through {/sub}, so none escapes translation.
	for key, m := range i18n.Messages() {
		for i, s := range m {
			if strings.Contains(s, "/qwixx") {
				t.Errorf("%s (%s) names a command literally: %q", key, Languages()[i], s)
			}
		}
	}
}

// /qwixx rules covers the dice game, the card game and jokers in every
// language, within an embed's limits.
func TestRulesTextFits(t *testing.T) {
	words := map[string][]string{
		"en": {"Dice game", "Card game", "Jokers", "misthrow", "display", "draw pile", "lock"},
		"de": {"Würfelspiel", "Kartenspiel", "Joker", "Fehlwurf", "Auslage", "Zugstapel", "Schloss", "aktive Spieler", "Farbreihen"},
		"fr": {"Jeu de dés", "Jeu de cartes", "Jokers", "coup manqué", "étalage", "pioche", "cadenas", "joueur actif", "rangée"},
	}
	for code, ws := range words {
		e := view.Rules(LangFor(code))
		if n := utf8.RuneCountInString(e.Description); n > 4096 || n < 1000 {
			t.Errorf("%s: the rules have %d characters (an embed's description takes 4096)", code, n)
		}
		if n := utf8.RuneCountInString(e.Title); n == 0 || n > 256 {
			t.Errorf("%s: title %q", code, e.Title)
		}
		for _, w := range ws {
			if !strings.Contains(e.Description, w) {
				t.Errorf("%s: the rules do not mention %q", code, w)
			}
		}
	}
}

// finishedGame plays seeded random games until one ends as want says.
func finishedGame(t *testing.T, v game.Variant, players []string, want func(g *game.Game) bool) *game.Game {
	t.Helper()
	for s := uint64(1); s < 400; s++ {
		if g := randomGame(t, v, players, s, nil); want(g) {
			return g
		}
	}
	t.Fatal("no seeded game ends so")
	return nil
}

func resultsTable(g *game.Game, v game.Variant, lang string, m *game.Match) *Table {
	t := &Table{Variant: v, Lang: lang, Stage: StageOver, Match: m, Game: g}
	for i, name := range g.Players() {
		t.Seats = append(t.Seats, Seat{UserID: fmt.Sprint("u", i), Name: name})
	}
	return t
}

// The results name whose fourth misthrow ended the game (D9, C9).
func TestResultsHeadlineMisthrowD9(t *testing.T) {
	g := finishedGame(t, game.Dice, []string{"Anna", "Ben"}, func(g *game.Game) bool { return g.EndReason() == game.EndMisthrows })
	who := ""
	for p := range g.Players() {
		if g.Sheet(p).Misthrows == game.MaxMisthrows {
			who = g.Players()[p]
		}
	}
	h := newHarness(t)
	for code, want := range map[string]string{
		"en": who + " took a fourth misthrow: the game is over.",
		"de": who + " hat den vierten Fehlwurf angekreuzt: Das Spiel ist vorbei.",
		"fr": who + " a coché son quatrième coup manqué : la partie est terminée.",
	} {
		got := h.bot.resultsMessage(zerolog.Nop(), resultsTable(g, game.Dice, code, nil), "").Content
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
		if strings.Contains(got, "Game 1 of 1") || strings.Contains(got, "Partie 1") {
			t.Errorf("%s: a single game shows a match: %q", code, got)
		}
	}
}

// The results name the rows locked for everybody and who locked them (D9).
func TestResultsHeadlineLocksD9(t *testing.T) {
	data, err := os.ReadFile("../game/testdata/records/turns-dice-locks.json")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Replay(rec)
	if err != nil || g.EndReason() != game.EndLocks {
		t.Fatalf("record: %v, end %v", err, g.EndReason())
	}
	var rows, rowsDE []string
	for _, c := range game.Colors {
		if !g.Closed(c) {
			continue
		}
		var who []string
		for p, name := range g.Players() {
			if g.Sheet(p).Rows[c].Locked() {
				who = append(who, name)
			}
		}
		if len(who) == 0 {
			t.Fatalf("row %v locked by nobody", c)
		}
		rows = append(rows, c.String()+" ("+strings.Join(who, ", ")+")")
		rowsDE = append(rowsDE, LangFor("de").T(i18n.RowColor[c])+" ("+strings.Join(who, ", ")+")")
	}
	if len(rows) < 2 {
		t.Fatalf("%d rows locked", len(rows))
	}
	h := newHarness(t)
	en := h.bot.resultsMessage(zerolog.Nop(), resultsTable(g, game.Dice, "en", nil), "").Content
	want := view.UpperFirst(strings.Join(rows, " and ")) + " locked: the game is over."
	if len(rows) > 2 {
		want = view.UpperFirst(strings.Join(rows[:len(rows)-1], ", ") + " and " + rows[len(rows)-1] + " locked: the game is over.")
	}
	if !strings.Contains(en, want) {
		t.Errorf("English: %q, want %q", en, want)
	}
	de := h.bot.resultsMessage(zerolog.Nop(), resultsTable(g, game.Dice, "de", nil), "").Content
	if !strings.Contains(de, rowsDE[0]) || !strings.Contains(de, "abgeschlossen: Das Spiel ist vorbei.") {
		t.Errorf("German: %q", de)
	}
}

// A game stopped with /qwixx end has no winner, and a match stopped in its
// first game says that no game was finished, never "Game 0 of 2".
func TestResultsStoppedMatch(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := game.NewMatch(g.Players(), 2)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	for code, want := range map[string]string{
		"en": "None of the match's 2 games was finished.",
		"de": "Keine der 2 Partien der Serie wurde zu Ende gespielt.",
		"fr": "Aucune des 2 parties de la série n'a été terminée.",
	} {
		got := h.bot.resultsMessage(zerolog.Nop(), resultsTable(g, game.Dice, code, m), "").Content
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
		if strings.Contains(got, "🏆") || strings.Contains(got, " 0 of ") || strings.Contains(got, " 0 von ") {
			t.Errorf("%s: a winner or game 0 for a stopped game: %q", code, got)
		}
	}
	// After one finished game: that game's totals and who leads.
	if err := m.Add([]int{12, 30}); err != nil {
		t.Fatal(err)
	}
	got := h.bot.resultsMessage(zerolog.Nop(), resultsTable(g, game.Dice, "en", m), "").Content
	for _, want := range []string{"**Game stopped** before it was over", "Scores when it was stopped:", "Match after 1 of 2 games:", "Anna: 12", "Ben: 30", "🏆 Leading the match: <@u1>"} {
		if !strings.Contains(got, want) {
			t.Errorf("stopped in game 2: %q, want %q", got, want)
		}
	}
	if strings.Contains(got, "wins with") {
		t.Errorf("a stopped game has a winner: %q", got)
	}
}

// /qwixx help answers in the client's language and names the commands as
// that client shows them; /qwixx rules answers with the rules as an embed.
func TestHelpAndRulesSpeakTheClientsLanguage(t *testing.T) {
	h := newHarness(t)
	run := func(locale, sub string) *discordgo.InteractionResponse {
		i := h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
			Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}},
		}, nil)
		i.Locale = discordgo.Locale(locale)
		h.bot.Handle(i)
		h.bot.Idle()
		return h.response(i)
	}
	for locale, want := range map[string][]string{
		"de":    {"`/qwixx regeln`", "`/qwixx einstellungen`", "`/qwixx ende`"},
		"fr":    {"`/qwixx règles`", "`/qwixx réglages`", "`/qwixx fin`"},
		"en-GB": {"`/qwixx rules`", "`/qwixx settings`", "`/qwixx end`"},
	} {
		r := run(locale, "help")
		if r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Errorf("%s: help is public", locale)
		}
		for _, w := range want {
			if !strings.Contains(r.Data.Content, w) {
				t.Errorf("%s: help %q lacks %s", locale, r.Data.Content, w)
			}
		}
		rules := run(locale, "rules")
		if len(rules.Data.Embeds) != 1 || rules.Data.Embeds[0].Description != LangFor(locale).T(msg.RulesText) || rules.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Errorf("%s: rules answer %+v", locale, rules.Data)
		}
	}
}

// A hint names the cell and the row as sentences do, and counts its points.
func TestHintWords(t *testing.T) {
	a := ai.Advice{Move: game.WhiteMove(0, game.Red), Gain: 1.2, Color: game.Red, Crosses: []int{5}, Skipped: []int{4}, Open: []int{6, 7}}
	for code, want := range map[string]string{
		"en": "Cross red 5: gives up 4 · keeps the red row open for 6 and 7 · about +1 point over passing",
		"de": "Kreuze die rote 5 an: gibt 4 auf · hält die rote Reihe offen für 6 und 7 · etwa +1 Punkt gegenüber Passen",
		"fr": "Coche le 5 rouge : abandonne 4 · garde la rangée rouge ouverte pour 6 et 7 · environ +1 point de plus qu'en passant",
	} {
		if got := view.HintText(LangFor(code), a); got != want {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
}

// Issue 28: a card hint's take says where each number fits, and near the
// end of the game a hint speaks of the chance to win; a choice that ends
// the game with a sure result says so.
func TestHintWordsFitsAndWinChance(t *testing.T) {
	take := ai.Advice{Move: game.TakeMove(0, 5, 9), Gain: 2.4, Fits: []ai.Fit{{Number: 5, Color: game.Red}, {Number: 9, Color: game.Blue, Skips: 2}, {Number: 12, Skips: -1}}}
	pass := ai.Advice{Move: game.PassMove(0), NearEnd: true, WinChance: 0.623}
	lock := ai.Advice{Move: game.WhiteMove(0, game.Green), Gain: 1, Color: game.Green, Crosses: []int{2}, Locks: true, EndsGame: true, WinChance: 0}
	for code, want := range map[string][3]string{
		"en": {"Take 5 + 9: 5 fits the red row · 9 fits the blue row, giving up 2 cells · 12 fits no open row · about +2 points over the weakest choice",
			"Pass: every cross would give up more than it brings · win chance about 62 %",
			"Cross green 2: locks the green row · about +1 point over passing · ends the game with a loss"},
		"de": {"Nimm 5 + 9: 5 passt in die rote Reihe · 9 passt in die blaue Reihe und lässt 2 Felder aus · 12 passt in keine offene Reihe · etwa +2 Punkte gegenüber der schwächsten Wahl",
			"Passe: jedes Kreuz gäbe mehr auf, als es bringt · Siegchance etwa 62 %",
			"Kreuze die grüne 2 an: schließt die grüne Reihe ab · etwa +1 Punkt gegenüber Passen · beendet das Spiel mit einer Niederlage"},
		"fr": {"Prends 5 + 9 : 5 va dans la rangée rouge · 9 va dans la rangée bleue en sautant 2 cases · 12 ne va dans aucune rangée ouverte · environ +2 points de plus que le choix le plus faible",
			"Passe : chaque croix coûterait plus qu'elle ne rapporte · chance de gagner environ 62 %",
			"Coche le 2 vert : verrouille la rangée verte · environ +1 point de plus qu'en passant · termine la partie sur une défaite"},
	} {
		for i, a := range []ai.Advice{take, pass, lock} {
			if got := view.HintText(LangFor(code), a); got != want[i] {
				t.Errorf("%s:\n got %q\nwant %q", code, got, want[i])
			}
		}
	}
	if got := view.HintText(LangFor("en"), ai.Advice{Move: game.PassMove(0), WinChance: 0.9}); strings.Contains(got, "win chance") {
		t.Errorf("a hint far from the end speaks of the chance: %q", got)
	}
}

// The pictures and the messages use one term per concept: the draw pile,
// the display, the turn, misthrows.
func TestPicturesAndMessagesShareTerms(t *testing.T) {
	for _, code := range []string{"en", "de", "fr"} {
		l := LangFor(code)
		lb := l.Labels()
		if got, want := fmt.Sprintf(lb.Turn, 7), l.T(msg.LogTurn, 7); got != want {
			t.Errorf("%s: the picture says %q, the log %q", code, got, want)
		}
		if !strings.Contains(strings.ToLower(l.T(msg.EventReshuffle, 30)), strings.ToLower(lb.DrawPile)) {
			t.Errorf("%s: the picture's draw pile %q is not the messages' (%q)", code, lb.DrawPile, l.T(msg.EventReshuffle, 30))
		}
		if !strings.Contains(strings.ToLower(l.T(msg.TurnTake, "Anna")), strings.ToLower(lb.Display)) {
			t.Errorf("%s: the picture's display %q is not the messages' (%q)", code, lb.Display, l.T(msg.TurnTake, "Anna"))
		}
		// The rulebooks' term, singular in the log, plural in the picture.
		stem := map[string]string{"en": "misthrow", "de": "fehlw", "fr": "coup"}[code]
		if !strings.Contains(strings.ToLower(lb.Misthrows), stem) || !strings.Contains(strings.ToLower(l.T(msg.LogMisthrow, "A", 1)), stem) {
			t.Errorf("%s: the picture's misthrows %q, the log's %q", code, lb.Misthrows, l.T(msg.LogMisthrow, "A", 1))
		}
	}
}

// Issue: English stats said "place 4:", French "2e place:". Ordinals are
// words of each language, and French puts a space before its colon.
func TestPlaceWords(t *testing.T) {
	for _, tc := range []struct {
		lang string
		rank int
		want string
	}{
		{"en", 1, "1st place"}, {"en", 2, "2nd place"}, {"en", 3, "3rd place"}, {"en", 4, "4th place"},
		{"en", 11, "11th place"}, {"en", 12, "12th place"}, {"en", 13, "13th place"}, {"en", 21, "21st place"}, {"en", 22, "22nd place"},
		{"de", 4, "Platz 4"}, {"fr", 1, "1ʳᵉ place"}, {"fr", 2, "2ᵉ place"},
	} {
		if got := view.PlaceWord(LangFor(tc.lang), tc.rank); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.rank, got, tc.want)
		}
	}
	if got := LangFor("fr").T(msg.StatsPlaced, "2ᵉ place", "Anna 40"); got != "2ᵉ place : Anna 40" {
		t.Errorf("French colon: %q", got)
	}
}

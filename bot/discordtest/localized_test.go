package discordtest

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

var localizedCommands = []*discordgo.ApplicationCommand{{
	Name: "game", Description: "Play",
	Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "rules", Description: "The rules",
			NameLocalizations: map[discordgo.Locale]string{discordgo.German: "regeln", discordgo.French: "règles"}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "settings", Description: "Settings",
			NameLocalizations: map[discordgo.Locale]string{discordgo.German: "einstellungen", discordgo.French: "réglages"},
			Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionInteger, Name: "timeout", Description: "Seconds",
				NameLocalizations: map[discordgo.Locale]string{discordgo.French: "délai"}}}},
	},
}}

// Localised names with accents are valid command names; a client shows
// them, and the interaction carries the registered name, as Discord's.
func TestLocalizedCommandNames(t *testing.T) {
	h := newHarness(t, Options{})
	app, g := h.srv.ApplicationID(), h.srv.DefaultGuild()
	if _, err := h.sess.ApplicationCommandBulkOverwrite(app, g, localizedCommands); err != nil {
		t.Fatalf("localised names with accents refused: %v", err)
	}
	got := make(chan *discordgo.Interaction, 2)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "ok"}}); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	claire := h.srv.AddUser("claire", "fr")
	if _, err := claire.Command(h.ch, "game", "réglages", map[string]any{"délai": 30}); err != nil {
		t.Fatal(err)
	}
	data := recv(t, got).ApplicationCommandData()
	if data.Options[0].Name != "settings" || data.Options[0].Options[0].Name != "timeout" || data.Options[0].Options[0].IntValue() != 30 {
		t.Errorf("interaction %+v, want the registered names settings and timeout", data.Options[0])
	}
	// A German client shows the German name, not the French one.
	if _, err := h.bob.Command(h.ch, "game", "règles", nil); err == nil {
		t.Error("a German client ran the French name")
	}
	if _, err := h.bob.Command(h.ch, "game", "regeln", nil); err != nil {
		t.Fatal(err)
	}
	if data := recv(t, got).ApplicationCommandData(); data.Options[0].Name != "rules" {
		t.Errorf("interaction %+v, want rules", data.Options[0])
	}

	h.allowSchemaV = true
	for _, tc := range []struct{ name, local, path string }{
		{"upper case", "Règles", "0.options.0.name_localizations.fr"},
		{"space", "règ les", "0.options.0.name_localizations.fr"},
		{"33 letters", "ééééééééééééééééééééééééééééééééé", "0.options.0.name_localizations.fr"},
		{"same as a sibling's", "réglages", "0.options.1.name_localizations.fr"},
	} {
		cmd := *localizedCommands[0]
		rules := *cmd.Options[0]
		rules.NameLocalizations = map[discordgo.Locale]string{discordgo.French: tc.local}
		cmd.Options = []*discordgo.ApplicationCommandOption{&rules, cmd.Options[1]}
		_, err := h.sess.ApplicationCommandBulkOverwrite(app, g, []*discordgo.ApplicationCommand{&cmd})
		if err == nil {
			t.Errorf("%s: %q accepted", tc.name, tc.local)
			continue
		}
		if st, code := restErr(t, err); st != 400 || code != 50035 || !containsStr(errorPaths(t, err), tc.path) {
			t.Errorf("%s: %d %d %v, want 400 50035 at %s", tc.name, st, code, errorPaths(t, err), tc.path)
		}
	}
}

// Autocomplete sends what the client sends while the user types into an
// option registered with autocomplete: the typed text as a string with
// "focused", the other options as filled in, the registered names, and
// required options may still be missing. Options without autocomplete
// cannot be autocompleted.
func TestAutocompleteAsTheClientSendsIt(t *testing.T) {
	h := newHarness(t, Options{})
	app, g := h.srv.ApplicationID(), h.srv.DefaultGuild()
	cmds := []*discordgo.ApplicationCommand{{
		Name: "game", Description: "Play",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "record", Description: "A record",
				NameLocalizations: map[discordgo.Locale]string{discordgo.French: "partie"},
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", Description: "Which", Required: true, Autocomplete: true,
						NameLocalizations: map[discordgo.Locale]string{discordgo.French: "jeu"}},
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: "public", Description: "Show it"},
				}},
		},
	}}
	if _, err := h.sess.ApplicationCommandBulkOverwrite(app, g, cmds); err != nil {
		t.Fatal(err)
	}
	got := make(chan *discordgo.Interaction, 2)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		// Nothing typed: no choices, which discordgo sends as "data": {}
		// (choices is omitempty), and Discord takes.
		choices := []*discordgo.ApplicationCommandOptionChoice{}
		if i.ApplicationCommandData().Options[0].Options[0].Value != "" {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: "Game 12", Value: 12})
		}
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices}}); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	claire := h.srv.AddUser("claire", "fr")
	it, err := claire.Autocomplete(h.ch, "game", "partie", map[string]any{"jeu": "1", "public": true}, "jeu")
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, got)
	if i.Type != discordgo.InteractionApplicationCommandAutocomplete {
		t.Fatalf("type %v, want autocomplete", i.Type)
	}
	d := i.ApplicationCommandData()
	if d.Options[0].Name != "record" || len(d.Options[0].Options) != 2 {
		t.Fatalf("options %+v", d.Options[0])
	}
	focus, pub := d.Options[0].Options[0], d.Options[0].Options[1]
	if focus.Name != "game" || !focus.Focused || focus.Value != "1" || pub.Focused || pub.Value != true {
		t.Errorf("focused option %+v, other %+v: want game=\"1\" focused (a string, though an integer option) and public=true", focus, pub)
	}
	if err := it.Wait(ctx(t)); err != nil || it.CallbackType() != 8 {
		t.Fatalf("wait %v, callback %d", err, it.CallbackType())
	}
	if ch := it.AutocompleteChoices(); len(ch) != 1 || ch[0]["name"] != "Game 12" {
		t.Errorf("choices %v", ch)
	}
	// Nothing typed yet, and another option invalid: sent without it.
	empty, err := h.bob.Autocomplete(h.ch, "game", "record", map[string]any{"public": "yes"}, "game")
	if err != nil {
		t.Fatalf("empty autocompletion: %v", err)
	}
	if d := recv(t, got).ApplicationCommandData(); len(d.Options[0].Options) != 1 || d.Options[0].Options[0].Value != "" || !d.Options[0].Options[0].Focused {
		t.Errorf("empty autocompletion with an invalid other option sent %+v, want only the focused option", d.Options[0].Options)
	}
	if err := empty.Wait(ctx(t)); err != nil || empty.CallbackType() != 8 {
		t.Fatalf("an answer without choices: %v, callback %d", err, empty.CallbackType())
	}
	if ch := empty.AutocompleteChoices(); ch == nil || len(ch) != 0 {
		t.Errorf("choices %v, want none", ch)
	}
	for _, tc := range []struct{ what, focused string }{{"an option without autocomplete", "public"}, {"an unknown option", "nope"}, {"no option", ""}} {
		if _, err := h.bob.Autocomplete(h.ch, "game", "record", map[string]any{"public": true}, tc.focused); err == nil {
			t.Errorf("autocompleting %s was sent", tc.what)
		}
	}
}

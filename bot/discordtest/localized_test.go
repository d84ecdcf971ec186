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

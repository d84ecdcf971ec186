package bot

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
)

// Renderer draws the pictures the bot sends. Labels come from the language.
type Renderer interface {
	Table(v game.PublicView, l Lang) ([]byte, error)
	Sheet(v game.PublicView, seat int, l Lang) ([]byte, error)
	Hand(v game.PrivateView, l Lang) ([]byte, error)
	Results(v game.PublicView, m *game.Match, l Lang) ([]byte, error)
}

// localized returns a command text in German and French for Discord's
// localisation maps.
func localized(key string) *map[discordgo.Locale]string {
	m := map[discordgo.Locale]string{
		discordgo.German: LangFor("de").T(key),
		discordgo.French: LangFor("fr").T(key),
	}
	return &m
}

func names(de, fr string) *map[discordgo.Locale]string {
	return &map[discordgo.Locale]string{discordgo.German: de, discordgo.French: fr}
}

// Commands are the slash commands the bot registers: /qwixx with its
// subcommands.
func Commands() []*discordgo.ApplicationCommand {
	en := LangFor("en")
	sub := func(name, key string, de, fr string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, NameLocalizations: *names(de, fr),
			Description: en.T(key), DescriptionLocalizations: *localized(key), Options: opts,
		}
	}
	choice := func(v game.Variant) *discordgo.ApplicationCommandOptionChoice {
		key := "variant." + v.String()
		return &discordgo.ApplicationCommandOptionChoice{Name: en.T(key), NameLocalizations: *localized(key), Value: v.String()}
	}
	minGames, maxGames := 1.0, float64(game.MaxMatchGames)
	minTimeout, maxTimeout := float64(MinTurnTimeout/time.Second), float64(MaxTurnTimeout/time.Second)
	dm := false
	return []*discordgo.ApplicationCommand{{
		Name:                     "qwixx",
		Description:              en.T("cmd.qwixx"),
		DescriptionLocalizations: localized("cmd.qwixx"),
		DMPermission:             &dm,
		Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		Options: []*discordgo.ApplicationCommandOption{
			sub("new", "cmd.new", "neu", "nouvelle",
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionString, Name: "variant", NameLocalizations: *names("spiel", "jeu"),
					Description: en.T("cmd.new.variant"), DescriptionLocalizations: *localized("cmd.new.variant"),
					Choices: []*discordgo.ApplicationCommandOptionChoice{choice(game.Dice), choice(game.Cards), choice(game.Jokers)},
				},
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionInteger, Name: "games", NameLocalizations: *names("partien", "parties"),
					Description: en.T("cmd.new.games"), DescriptionLocalizations: *localized("cmd.new.games"),
					MinValue: &minGames, MaxValue: maxGames,
				}),
			sub("sheet", "cmd.sheet", "zettel", "feuille"),
			sub("hand", "cmd.hand", "hand", "main"),
			sub("leave", "cmd.leave", "verlassen", "quitter"),
			sub("remove", "cmd.remove", "entfernen", "retirer",
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionUser, Name: "player", NameLocalizations: *names("spieler", "joueur"),
					Description: en.T("cmd.remove.player"), DescriptionLocalizations: *localized("cmd.remove.player"), Required: true,
				}),
			sub("end", "cmd.end", "ende", "fin"),
			sub("settings", "cmd.settings", "einstellungen", "reglages",
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionInteger, Name: "timeout", NameLocalizations: *names("zeitlimit", "delai"),
					Description: en.T("cmd.settings.timeout"), DescriptionLocalizations: *localized("cmd.settings.timeout"),
					MinValue: &minTimeout, MaxValue: maxTimeout,
				}),
			sub("rules", "cmd.rules", "regeln", "regles"),
			sub("help", "cmd.help", "hilfe", "aide"),
		},
	}}
}

// RegisterCommands overwrites the application's commands, globally or in
// Options.GuildID. appID, when not empty, replaces Options.AppID (the
// application ID is known for sure once the gateway is READY).
func (b *Bot) RegisterCommands(appID string) error {
	if appID != "" {
		b.opt.AppID = appID
	}
	if _, err := b.dc.ApplicationCommandBulkOverwrite(b.opt.AppID, b.opt.GuildID, Commands()); err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// command dispatches /qwixx subcommands.
func (b *Bot) command(r *request) {
	data := r.i.ApplicationCommandData()
	if data.Name != "qwixx" || len(data.Options) == 0 {
		r.ephemeral(r.lang.T("help.text"))
		return
	}
	sub := data.Options[0]
	opts := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	switch sub.Name {
	case "new":
		v, games := game.Dice, 1
		if o := opts["variant"]; o != nil {
			if pv, err := game.ParseVariant(o.StringValue()); err == nil {
				v = pv
			}
		}
		if o := opts["games"]; o != nil {
			games = int(o.IntValue())
		}
		b.cmdNew(r, v, games)
	case "sheet":
		b.cmdSheet(r)
	case "hand":
		b.cmdHand(r)
	case "end":
		b.cmdEnd(r)
	case "leave":
		b.cmdLeave(r, r.userID)
	case "remove":
		if o := opts["player"]; o != nil {
			b.cmdLeave(r, o.UserValue(nil).ID)
		}
	case "settings":
		secs := int64(0)
		if o := opts["timeout"]; o != nil {
			secs = o.IntValue()
		}
		b.cmdSettings(r, secs)
	case "rules":
		r.ephemeral(r.lang.T("rules.text"))
	default:
		r.ephemeral(r.lang.T("help.text"))
	}
}

package bot

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// Renderer draws the pictures the bot sends. Labels come from the language.
// Sheet is a player's private sheet: choices are the cells their current
// choices would cross, marked on the picture (never on the public table).
type Renderer interface {
	Table(v game.PublicView, l Lang) ([]byte, error)
	Sheet(v game.PublicView, seat int, choices []render.Cell, l Lang) ([]byte, error)
	Hand(v game.PrivateView, l Lang) ([]byte, error)
	Results(v game.PublicView, m *game.Match, l Lang) ([]byte, error)
	// Chart draws the score chart: each player's total turn by turn (s is
	// the series of v's game).
	Chart(v game.PublicView, s game.ScoreSeries, l Lang) ([]byte, error)
	// ReviewChart is the score chart with a game review's moments marked.
	ReviewChart(v game.PublicView, s game.ScoreSeries, moments []render.Moment, l Lang) ([]byte, error)
}

// localized returns a command text in every language but English (the
// registered text) for Discord's localisation maps.
func localized(key msg.Key) *map[discordgo.Locale]string {
	m := map[discordgo.Locale]string{}
	for _, lang := range i18n.All()[1:] {
		m[discordgo.Locale(lang.Locale)] = LangFor(lang.Code()).T(key)
	}
	return &m
}

// localNames are a subcommand's or option's names in every language but
// English, for Discord's localisation maps.
func localNames(name string) *map[discordgo.Locale]string {
	m := map[discordgo.Locale]string{}
	for _, lang := range i18n.All()[1:] {
		m[discordgo.Locale(lang.Locale)] = lang.CommandName(name)
	}
	return &m
}

// Commands are the slash commands the bot registers: /qwixx with its
// subcommands.
func Commands() []*discordgo.ApplicationCommand {
	en := LangFor("en")
	sub := func(name string, key msg.Key, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, NameLocalizations: *localNames(name),
			Description: en.T(key), DescriptionLocalizations: *localized(key), Options: opts,
		}
	}
	opt := func(typ discordgo.ApplicationCommandOptionType, name string, key msg.Key) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{
			Type: typ, Name: name, NameLocalizations: *localNames(name),
			Description: en.T(key), DescriptionLocalizations: *localized(key),
		}
	}
	choice := func(v game.Variant) *discordgo.ApplicationCommandOptionChoice {
		key := i18n.Variant(v)
		return &discordgo.ApplicationCommandOptionChoice{Name: en.T(key), NameLocalizations: *localized(key), Value: v.String()}
	}
	minGames, maxGames := 1.0, float64(game.MaxMatchGames)
	minTimeout, maxTimeout := float64(MinTurnTimeout/time.Second), float64(MaxTurnTimeout/time.Second)
	variant := opt(discordgo.ApplicationCommandOptionString, "variant", msg.CmdNewVariant)
	variant.Choices = []*discordgo.ApplicationCommandOptionChoice{choice(game.Dice), choice(game.Cards), choice(game.Jokers)}
	games := opt(discordgo.ApplicationCommandOptionInteger, "games", msg.CmdNewGames)
	games.MinValue, games.MaxValue = &minGames, maxGames
	player := opt(discordgo.ApplicationCommandOptionUser, "player", msg.CmdRemovePlayer)
	player.Required = true
	timeout := opt(discordgo.ApplicationCommandOptionInteger, "timeout", msg.CmdSettingsTimeout)
	timeout.MinValue, timeout.MaxValue = &minTimeout, maxTimeout
	statsPlayer := opt(discordgo.ApplicationCommandOptionUser, "player", msg.CmdStatsPlayer)
	boardVariant := opt(discordgo.ApplicationCommandOptionString, "variant", msg.CmdLeaderboardVariant)
	boardVariant.Choices = variant.Choices
	computers := opt(discordgo.ApplicationCommandOptionBoolean, "computers", msg.CmdLeaderboardComputers)
	recordGame := opt(discordgo.ApplicationCommandOptionString, "game", msg.CmdRecordGame)
	recordGame.Autocomplete = true
	where := opt(discordgo.ApplicationCommandOptionString, "where", msg.CmdSoloWhere)
	for _, w := range []string{"private", "channel"} {
		where.Choices = append(where.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en.T(i18n.Where(w)), NameLocalizations: *localized(i18n.Where(w)), Value: w})
	}
	return []*discordgo.ApplicationCommand{{
		Name:                     "qwixx",
		Description:              en.T(msg.CmdQwixx),
		DescriptionLocalizations: localized(msg.CmdQwixx),
		// Installed to a server (tables) or by a user (the private games
		// anywhere: DMs, group DMs, servers without the bot); the
		// subcommands that need the bot in the channel say so there.
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall},
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel},
		Options: []*discordgo.ApplicationCommandOption{
			sub("new", msg.CmdNew, variant, games),
			sub("sheet", msg.CmdSheet),
			sub("hand", msg.CmdHand),
			sub("leave", msg.CmdLeave),
			sub("remove", msg.CmdRemove, player),
			sub("end", msg.CmdEnd),
			sub("settings", msg.CmdSettings, timeout),
			sub("rules", msg.CmdRules),
			sub("help", msg.CmdHelp),
			sub("stats", msg.CmdStats, statsPlayer),
			sub("leaderboard", msg.CmdLeaderboard, boardVariant, computers),
			sub("record", msg.CmdRecord, recordGame),
			sub("forget-me", msg.CmdForget),
			sub("solo", msg.CmdSolo, where),
			sub("daily", msg.CmdDaily),
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
	cmds := Commands()
	if b.opt.GuildID != "" {
		// A server's own commands are of its install only.
		for _, c := range cmds {
			c.IntegrationTypes, c.Contexts = nil, nil
		}
	}
	if _, err := b.dc.ApplicationCommandBulkOverwrite(b.opt.AppID, b.opt.GuildID, cmds); err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// command dispatches /qwixx subcommands. Options are read strictly: a
// missing required option, an option of another type than registered, an
// unknown option or subcommand gets a polite private answer, never a guess.
func (b *Bot) command(r *request) {
	data, ok := r.i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok || data.Name != "qwixx" || len(data.Options) != 1 || data.Options[0] == nil ||
		data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		r.log.Warn().Str("command", data.Name).Msg("unknown command shape")
		r.ephemeral(r.lang.T(msg.ErrBadcommand))
		return
	}
	sub := data.Options[0]
	opts, ok := commandOptions(sub)
	if !ok {
		r.log.Warn().Str("sub", sub.Name).Msg("malformed command options")
		r.ephemeral(r.lang.T(msg.ErrBadcommand))
		return
	}
	switch sub.Name {
	case "new":
		v, ok := opts.variant("variant", game.Dice)
		if !ok {
			r.ephemeral(r.lang.T(msg.ErrBadcommand))
			return
		}
		games := int64(1)
		if n, ok := opts.integer("games"); ok {
			if n < 1 || n > game.MaxMatchGames {
				r.ephemeral(r.lang.T(msg.ErrBadcommand))
				return
			}
			games = n
		}
		b.cmdNew(r, v, int(games))
	case "sheet":
		b.showSheet(r, "")
	case "hand":
		b.showHand(r, "", false, "")
	case "end":
		b.cmdEnd(r)
	case "leave":
		b.cmdLeave(r, r.userID)
	case "remove":
		u, ok := opts.user("player")
		if !ok {
			r.ephemeral(r.lang.T(msg.ErrBadcommand))
			return
		}
		b.cmdLeave(r, u)
	case "settings":
		secs := int64(0)
		if n, ok := opts.integer("timeout"); ok {
			secs = n
			if secs == 0 {
				secs = -1 // out of range: refused with the range
			}
		}
		b.cmdSettings(r, secs)
	case "rules":
		r.respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{view.Rules(r.lang)}, Flags: discordgo.MessageFlagsEphemeral},
		})
	case "help":
		r.ephemeral(r.lang.T(msg.HelpText))
	case "stats":
		u, ok := opts.user("player")
		if !ok {
			u = r.userID
		}
		records{b.opt.History}.cmdStats(r, u)
	case "leaderboard":
		// No variant: every variant (the zero Variant).
		v, ok := opts.variant("variant", 0)
		if !ok {
			r.ephemeral(r.lang.T(msg.ErrBadcommand))
			return
		}
		computers, _ := opts.boolean("computers")
		records{b.opt.History}.cmdLeaderboard(r, v, computers)
	case "record":
		id, _ := opts.str("game")
		records{b.opt.History}.sendRecord(r, id)
	case "forget-me":
		records{b.opt.History}.cmdForget(r)
	case "solo":
		where, _ := opts.str("where")
		if where != "" && where != "private" && where != "channel" {
			r.ephemeral(r.lang.T(msg.ErrBadcommand))
			return
		}
		b.cmdSolo(r, where)
	case "daily":
		b.cmdDaily(r)
	default:
		r.log.Warn().Str("sub", sub.Name).Msg("unknown subcommand")
		r.ephemeral(r.lang.T(msg.ErrBadcommand))
	}
}

// optionTypes are the options the bot registers (Commands), by
// subcommand: the only ones it accepts, each of exactly its registered
// type.
var optionTypes = sync.OnceValue(func() map[string]map[string]discordgo.ApplicationCommandOptionType {
	out := map[string]map[string]discordgo.ApplicationCommandOptionType{}
	for _, sub := range Commands()[0].Options {
		types := map[string]discordgo.ApplicationCommandOptionType{}
		for _, o := range sub.Options {
			types[o.Name] = o.Type
		}
		out[sub.Name] = types
	}
	return out
})

// cmdOptions are a subcommand's options, checked against optionTypes.
type cmdOptions map[string]any

// commandOptions checks sub's options: each known to the subcommand, of its
// registered type, given once, with a value of the JSON type that type has
// (discordgo's accessors panic otherwise). Unknown subcommands have none.
func commandOptions(sub *discordgo.ApplicationCommandInteractionDataOption) (cmdOptions, bool) {
	types := optionTypes()[sub.Name]
	out := cmdOptions{}
	for _, o := range sub.Options {
		if o == nil || len(o.Options) > 0 {
			return nil, false
		}
		want, known := types[o.Name]
		if !known || o.Type != want {
			return nil, false
		}
		if _, dup := out[o.Name]; dup {
			return nil, false
		}
		switch want {
		case discordgo.ApplicationCommandOptionString:
			v, ok := o.Value.(string)
			if !ok || len(v) > 100 {
				return nil, false
			}
			out[o.Name] = v
		case discordgo.ApplicationCommandOptionInteger:
			f, ok := o.Value.(float64)
			if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return nil, false
			}
			out[o.Name] = int64(f)
		case discordgo.ApplicationCommandOptionBoolean:
			v, ok := o.Value.(bool)
			if !ok {
				return nil, false
			}
			out[o.Name] = v
		case discordgo.ApplicationCommandOptionUser:
			v, ok := o.Value.(string)
			if !ok || !userID(v) {
				return nil, false
			}
			out[o.Name] = userRef(v)
		}
	}
	return out, true
}

// userRef is a user option's value, a user ID.
type userRef string

func (o cmdOptions) str(name string) (string, bool) {
	v, ok := o[name].(string)
	return v, ok
}

func (o cmdOptions) integer(name string) (int64, bool) {
	v, ok := o[name].(int64)
	return v, ok
}

func (o cmdOptions) boolean(name string) (bool, bool) {
	v, ok := o[name].(bool)
	return v, ok
}

// variant reads a variant option, def when it is absent; false when it is
// not one of the registered choices.
func (o cmdOptions) variant(name string, def game.Variant) (game.Variant, bool) {
	s, ok := o.str(name)
	if !ok {
		return def, true
	}
	v, err := game.ParseVariant(s)
	return v, err == nil && v.String() == s
}

func (o cmdOptions) user(name string) (string, bool) {
	v, ok := o[name].(userRef)
	return string(v), ok
}

// userID reports whether s can be a user ID: Discord's are snowflakes (up
// to 20 digits); letters are allowed for the tests' doubles.
func userID(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// autocomplete answers the autocompletion of an option: the game of
// /qwixx record; nothing for anything else.
func (b *Bot) autocomplete(r *request) {
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	data, ok := r.i.Data.(discordgo.ApplicationCommandInteractionData)
	if ok && data.Name == "qwixx" && len(data.Options) == 1 && data.Options[0] != nil && data.Options[0].Name == "record" {
		for _, o := range data.Options[0].Options {
			if o != nil && o.Name == "game" && o.Focused {
				typed, _ := o.Value.(string)
				choices = records{b.opt.History}.autocompleteRecord(r, typed)
			}
		}
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}})
}

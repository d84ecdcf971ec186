package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// rulesEmbed is the answer to /qwixx rules, in language l.
func rulesEmbed(l Lang) *discordgo.MessageEmbed {
	return &discordgo.MessageEmbed{Title: l.T(msg.RulesTitle), Description: l.T(msg.RulesText)}
}

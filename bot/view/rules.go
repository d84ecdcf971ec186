package view

import (
	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// Rules is the answer to /qwixx rules, in language l.
func Rules(l i18n.Lang) *discordgo.MessageEmbed {
	return &discordgo.MessageEmbed{Title: l.T(msg.RulesTitle), Description: l.T(msg.RulesText)}
}

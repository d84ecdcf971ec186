package bot

import "github.com/bwmarrin/discordgo"

// rulesEmbed is the answer to /qwixx rules, in language l.
func rulesEmbed(l Lang) *discordgo.MessageEmbed {
	return &discordgo.MessageEmbed{Title: l.T("rules.title"), Description: l.T("rules.text")}
}

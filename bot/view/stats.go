package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/stats"
)

// Limits of what the history answers show.
const (
	boardLines    = 15 // ranked players on a leaderboard
	recentNameLen = 12 // characters of a name in the last games
)

// Stats is the embed of a player's statistics (us) in l: every variant's
// games, wins and scores, solo games, the last games; damaged counts the
// results left out as unreadable (said in the footer).
func Stats(l i18n.Lang, us stats.UserStats, damaged int) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{
		Title:       Clip(l.T(msg.StatsTitle, EscapeMarkdown(us.Name)), 256),
		Description: SummaryLine(l, us.All),
		Color:       0x2f6fd6,
	}
	if played := PlayedVariants(us); played > 1 {
		for _, v := range stats.Variants {
			if s := us.ByVariant[v]; s.Games > 0 {
				e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: VariantName(l, v), Value: SummaryLine(l, s)})
			}
		}
	} else {
		for _, v := range stats.Variants {
			if us.ByVariant[v].Games > 0 {
				e.Description = VariantName(l, v) + "\n" + e.Description
			}
		}
	}
	if us.All.Games == 0 {
		e.Description = ""
	}
	if s := us.Solo; s.Games > 0 {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T(msg.VariantSolo), Value: l.T(msg.StatsSolo, s.Games, Decimal(l, s.MeanScore), s.BestScore)})
	}
	var lines []string
	for _, pg := range us.Recent {
		lines = append(lines, RecentLine(l, pg, PlayedVariants(us) > 1))
	}
	if len(lines) > 0 {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T(msg.StatsRecent), Value: JoinWithin(lines, 1024)})
	}
	if damaged > 0 {
		e.Footer = &discordgo.MessageEmbedFooter{Text: l.T(msg.HistDamaged, damaged)}
	}
	return e
}

// PlayedVariants counts the variants userStats has games of.
func PlayedVariants(us stats.UserStats) int {
	n := 0
	for _, v := range stats.Variants {
		if us.ByVariant[v].Games > 0 {
			n++
		}
	}
	return n
}

// SummaryLine words a Summary: games, wins (shared ones counted and
// said), win share, mean and best score.
func SummaryLine(l i18n.Lang, s stats.Summary) string {
	line := l.T(msg.StatsGames, s.Games, s.Wins)
	if s.SharedWins > 0 {
		line += " " + l.T(msg.StatsSharedwins, s.SharedWins)
	}
	return line + " · " + l.T(msg.StatsScores, Percent(s.WinShare), Decimal(l, s.MeanScore), s.BestScore)
}

// Percent writes a share of 0–1 as a whole percentage.
func Percent(x float64) string { return strconv.Itoa(int(x*100+0.5)) + " %" }

// Decimal writes x with one Decimal in l's notation (a comma in German and
// French).
func Decimal(l i18n.Lang, x float64) string {
	s := strconv.FormatFloat(x, 'f', 1, 64)
	if l.Code() != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// RecentLine is one of a player's last games: the date (each client shows
// it in its own time zone), the variant (when the player played several),
// the place and every seat's score, the player's in bold, computers
// marked.
func RecentLine(l i18n.Lang, pg stats.PlayedGame, variant bool) string {
	var seats []string
	for i, s := range pg.Seats {
		name := Clip(s.Name, recentNameLen)
		if s.Computer {
			name = "🤖 " + name
		}
		entry := fmt.Sprintf("%s %d", EscapeMarkdown(name), s.Score)
		if i == pg.Seat {
			entry = "**" + entry + "**"
		}
		seats = append(seats, entry)
	}
	place := PlaceWord(l, pg.Rank)
	if pg.Rank == 1 && pg.Winners() > 1 {
		place = l.T(msg.StatsSharedfirst)
	}
	head := fmt.Sprintf("<t:%d:d>", pg.Time.Unix())
	if variant {
		head += " " + l.T(i18n.VariantShort(pg.Variant)) + ","
	}
	return head + " " + l.T(msg.StatsPlaced, place, strings.Join(seats, ", "))
}

// PlaceWord is a finishing place in words: "4th place", "Platz 4",
// "4ᵉ place" (French: 1ʳᵉ, then ᵉ).
func PlaceWord(l i18n.Lang, rank int) string {
	switch l.Code() {
	case "en":
		suffix := "th"
		if rank%100 < 11 || rank%100 > 13 {
			switch rank % 10 {
			case 1:
				suffix = "st"
			case 2:
				suffix = "nd"
			case 3:
				suffix = "rd"
			}
		}
		return l.T(msg.StatsPlace, strconv.Itoa(rank)+suffix)
	case "fr":
		if rank == 1 {
			return l.T(msg.StatsPlace, "1ʳᵉ")
		}
		return l.T(msg.StatsPlace, strconv.Itoa(rank)+"ᵉ")
	}
	return l.T(msg.StatsPlace, strconv.Itoa(rank))
}

// EscapeMarkdown keeps a name from formatting the text around it.
func EscapeMarkdown(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`)
	return r.Replace(s)
}

// JoinWithin joins lines with newlines, leaving out the last ones that
// would make it longer than max characters.
func JoinWithin(lines []string, max int) string {
	out := ""
	for _, ln := range lines {
		next := ln
		if out != "" {
			next = out + "\n" + ln
		}
		if utf8.RuneCountInString(next) > max {
			break
		}
		out = next
	}
	return out
}

// Clip cuts s to at most n characters, with an ellipsis when cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

// Board words a leaderboard in l.
func Board(l i18n.Lang, board stats.Board, v game.Variant) *discordgo.MessageEmbed {
	what := l.T(msg.BoardAll)
	if v != 0 {
		what = VariantName(l, v)
	}
	var lines, unranked []string
	for _, e := range board.Entries {
		name := EscapeMarkdown(e.Name)
		if e.Computer {
			name = "🤖 " + l.T(msg.BoardComputer, l.T(i18n.Level(e.Level)))
		}
		if e.Rank == 0 {
			unranked = append(unranked, fmt.Sprintf("%s (%d)", name, e.Games))
			continue
		}
		if len(lines) < boardLines {
			lines = append(lines, l.T(msg.BoardLine, e.Rank, name, Decimal(l, e.Rating.Ordinal()), e.Games, Percent(e.WinShare)))
		}
	}
	desc := JoinWithin(lines, 3000)
	if len(unranked) > 0 {
		more := l.T(msg.BoardUnranked, board.MinGames) + " " + strings.Join(unranked, ", ")
		if desc != "" {
			desc += "\n\n"
		}
		desc += Clip(more, 1000)
	}
	return &discordgo.MessageEmbed{
		Title:       Clip(l.T(msg.BoardTitle, what), 256),
		Description: desc,
		Color:       0xd6a02f,
		Footer:      &discordgo.MessageEmbedFooter{Text: l.T(msg.BoardMeasure, board.MinGames, board.Games)},
	}
}

// StatsPrivate is the private answer of /qwixx stats: the statistics of
// userID (embed) with a button that shows them in the channel.
func StatsPrivate(l i18n.Lang, embed *discordgo.MessageEmbed, userID string) *discordgo.InteractionResponseData {
	show := customid.Action{Table: userID, View: customid.ViewPeople, Verb: "show"}.Encode()
	return &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Flags: discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T(msg.BtnShowstats), Style: discordgo.SecondaryButton, CustomID: show},
		}}},
	}
}

// StatsShown is the statistics (embed) shown in the channel by the user
// who clicked, in the channel's language l, pinging nobody.
func StatsShown(l i18n.Lang, embed *discordgo.MessageEmbed, by string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content: l.T(msg.StatsShared, "<@"+by+">"), Embeds: []*discordgo.MessageEmbed{embed},
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
}

// BoardMessage is the leaderboard posted in the channel (Board), pinging
// nobody; damaged counts the results left out as unreadable.
func BoardMessage(l i18n.Lang, board stats.Board, v game.Variant, damaged int) *discordgo.InteractionResponseData {
	e := Board(l, board, v)
	if damaged > 0 {
		e.Footer.Text += "\n" + l.T(msg.HistDamaged, damaged)
	}
	return &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{e}, AllowedMentions: &discordgo.MessageAllowedMentions{},
	}
}

// Record is the private answer with a game's record: when it was played
// (at), its variant and players, and the record (its JSON, indented when
// it parses) as a file named by the time.
func Record(l i18n.Lang, at time.Time, v game.Variant, players []string, record []byte) *discordgo.InteractionResponseData {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, record, "", "  "); err != nil {
		pretty.Reset()
		pretty.Write(record)
	}
	pretty.WriteByte('\n')
	name := "qwixx-" + at.UTC().Format("2006-01-02-1504") + ".json"
	text := l.T(msg.RecordSent, fmt.Sprintf("<t:%d:f>", at.Unix()), VariantName(l, v), strings.Join(players, ", "))
	return &discordgo.InteractionResponseData{
		Content: text, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{},
		Files: []*discordgo.File{{Name: name, ContentType: "application/json", Reader: bytes.NewReader(pretty.Bytes())}},
	}
}

// ForgetAsk asks userID privately to confirm that their data is to be
// forgotten (/qwixx forget-me), with the buttons Forget and Keep.
func ForgetAsk(l i18n.Lang, userID string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content: l.T(msg.ForgetAsk), Flags: discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T(msg.BtnForget), Style: discordgo.DangerButton, CustomID: customid.Action{Table: userID, View: customid.ViewPeople, Verb: "forget"}.Encode()},
			discordgo.Button{Label: l.T(msg.BtnKeep), Style: discordgo.SecondaryButton, CustomID: customid.Action{Table: userID, View: customid.ViewPeople, Verb: "keep"}.Encode()},
		}}},
	}
}

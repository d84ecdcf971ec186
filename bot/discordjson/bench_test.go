package discordjson

import (
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// BenchmarkRequestTable is the JSON of a table's update: four rows of
// five buttons and a line of text.
func BenchmarkRequestTable(b *testing.B) {
	var rows []discordgo.MessageComponent
	for r := range 4 {
		var row discordgo.ActionsRow
		for c := range 5 {
			row.Components = append(row.Components, discordgo.Button{Label: "Red " + strconv.Itoa(c+2), Style: discordgo.SecondaryButton,
				CustomID: "q2:k3x9a:" + strconv.Itoa(r) + ":t:number:red#wqfi" + strconv.Itoa(c)})
		}
		rows = append(rows, row)
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Content: "**Turn 3** · active player: <@u1>\nAction 2: <@u1> may cross a white die plus a colored die.", Components: rows,
		Attachments: &[]*discordgo.MessageAttachment{{ID: "0", Filename: "table.png"}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Request(resp); err != nil {
			b.Fatal(err)
		}
	}
}

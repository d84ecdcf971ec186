package bot

import (
	"bytes"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// Images is the Renderer that draws with the render package.
type Images struct{}

// Table draws every sheet and the dice or card display.
func (Images) Table(v game.PublicView, l Lang) ([]byte, error) { return render.Table(v, l.Labels()) }

// Sheet draws one player's sheet with their choices marked.
func (Images) Sheet(v game.PublicView, seat int, choices []render.Cell, l Lang) ([]byte, error) {
	return render.Sheet(v, seat, l.Labels(), choices...)
}

// Hand draws a player's private hand.
func (Images) Hand(v game.PrivateView, l Lang) ([]byte, error) { return render.Hand(v, l.Labels()) }

// Results draws the final sheets, ranking and match table.
func (Images) Results(v game.PublicView, m *game.Match, l Lang) ([]byte, error) {
	return render.Results(v, m, l.Labels())
}

// Chart draws the score chart, each player's total turn by turn.
func (Images) Chart(v game.PublicView, s game.ScoreSeries, l Lang) ([]byte, error) {
	return render.Chart(v, s, l.Labels())
}

// ReviewChart draws the score chart with a review's moments marked.
func (Images) ReviewChart(v game.PublicView, s game.ScoreSeries, moments []render.Moment, l Lang) ([]byte, error) {
	return render.ReviewChart(v, s, l.Labels(), moments)
}

// newPicture is how a message gets a new picture png named name, in place
// of what it showed: the file to upload and the "attachments" field of the
// edit, which lists it by its upload index. On an edit that lists
// attachments Discord appends only the files listed (its reference,
// "Editing Message Attachments") and removes the attachments not listed:
// the old picture goes. An edit with neither keeps the picture the
// message has, which costs no drawing and no upload.
func newPicture(name string, png []byte) ([]*discordgo.File, *[]*discordgo.MessageAttachment) {
	return []*discordgo.File{{Name: name, ContentType: "image/png", Reader: bytes.NewReader(png)}},
		&[]*discordgo.MessageAttachment{{ID: "0", Filename: name}}
}

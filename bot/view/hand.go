package view

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
)

// HandFile names the hand picture.
const HandFile = "hand.png"

// Hand is the private hand message of seat: the cards (their picture png,
// drawn by the bot, as HandFile; nil keeps the picture the message
// shows), the take buttons in the player's action 1 (RULES C4), and in
// action 3 (C6) the play builder for the selection sel, then Refresh and
// 💡 Hint.
func Hand(t *session.Table, seat int, l i18n.Lang, sel session.PlaySel, png []byte) *discordgo.InteractionResponseData {
	g := t.Game
	lines := []string{HandLine(l, t, seat)}
	var comps []discordgo.MessageComponent
	if HandActs(t, seat) {
		switch g.Phase() {
		case game.PhasePlay:
			var status string
			comps, status = PlayBuilder(t, seat, l, sel)
			if status != "" {
				lines = append(lines, status)
			}
		default:
			comps = PersonalControls(t, seat, l, customid.ViewHand)
		}
	}
	// Every click brings a fresh interaction token: the view keeps working
	// however long the game lasts (tokens live 15 minutes).
	last := []discordgo.MessageComponent{
		discordgo.Button{Label: l.T(msg.BtnRefresh), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewHand, "hand", strconv.Itoa(t.GameNo))},
	}
	if HandActs(t, seat) && HintsOn(t) {
		last = append(last, discordgo.Button{Label: l.T(msg.BtnHint), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewHand, "hint", "")})
	}
	comps = append(comps, discordgo.ActionsRow{Components: last})
	data := &discordgo.InteractionResponseData{Content: strings.Join(lines, "\n"), Flags: discordgo.MessageFlagsEphemeral, Components: comps}
	if png != nil {
		// Replacing the picture: the old attachment goes, the new one
		// comes. Without files and attachments an update keeps it.
		data.Files, data.Attachments = NewPicture(HandFile, png)
	}
	return data
}

// PlayLabel words a play: the question before it is confirmed, or what was
// done (done).
func PlayLabel(l i18n.Lang, p session.PlaySel, done bool) string {
	key, none := msg.PlayReady, msg.PlayReadynone
	if done {
		key, none = msg.PlayDone, msg.PlayDonenone
	}
	cards := PlayedList(l, p.Cards, p.Color, p.HasColor)
	if len(p.Cross) == 0 {
		return l.T(none, cards)
	}
	return l.T(key, cards, customid.JoinInts(p.Cross, ", "))
}

// PlayBuilder makes the components of the play builder and a status line
// saying whether the current selection may be played, and if not why. What
// a menu's placeholder already asks (pick the cards, the jokers' colour)
// is not asked again in the status: it is "" then.
func PlayBuilder(t *session.Table, seat int, l i18n.Lang, sel session.PlaySel) ([]discordgo.MessageComponent, string) {
	g := t.Game
	hand := g.Hand(seat)
	one := 1
	var opts []discordgo.SelectMenuOption
	for _, c := range hand {
		opts = append(opts, discordgo.SelectMenuOption{Label: CardName(l, c), Value: c.String(), Default: slices.Contains(sel.Cards, c)})
	}
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: ActionID(t, customid.ViewHand, "pick", ""), Placeholder: l.T(msg.PlayPick),
		MinValues: &one, MaxValues: min(3, len(hand)), Options: opts,
	}}}}
	if len(sel.Cards) == 0 {
		return comps, "" // the menu's placeholder asks for the cards
	}
	if sel.NeedsColor() {
		var copts []discordgo.SelectMenuOption
		for _, c := range game.Colors {
			copts = append(copts, discordgo.SelectMenuOption{Label: ColorName(l, c), Value: c.String(), Default: sel.HasColor && sel.Color == c})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: ActionID(t, customid.ViewHand, "as", sel.Encode()), Placeholder: l.T(msg.PlayAs), Options: copts,
		}}})
	}
	nums := sel.Numbers()
	var nopts []discordgo.SelectMenuOption
	for _, n := range nums {
		nopts = append(nopts, discordgo.SelectMenuOption{Label: strconv.Itoa(n), Value: strconv.Itoa(n), Default: slices.Contains(sel.Cross, n)})
	}
	zero := 0
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: ActionID(t, customid.ViewHand, "cross", sel.Encode()), Placeholder: l.T(msg.PlayCross),
		MinValues: &zero, MaxValues: len(nums), Options: nopts,
	}}})
	status := ""
	err := sel.Check(g, seat)
	ok := err == nil
	switch {
	case errors.Is(err, session.ErrNoColor):
		status = "" // the colour menu's placeholder asks for it
	case err != nil:
		status = "⚠️ " + Explain(l, err)
	default:
		status = PlayLabel(l, sel, false)
	}
	confirm := ActionID(t, customid.ViewHand, "play", sel.Encode())
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: l.T(msg.BtnPlay), Style: discordgo.SuccessButton, CustomID: confirm, Disabled: !ok},
	}})
	return comps, status
}

// NewPicture is how a message gets a new picture png named name, in place
// of what it showed: the file to upload and the "attachments" field of the
// edit, which lists it by its upload index. On an edit that lists
// attachments Discord appends only the files listed (its reference,
// "Editing Message Attachments") and removes the attachments not listed:
// the old picture goes. An edit with neither keeps the picture the
// message has, which costs no drawing and no upload.
func NewPicture(name string, png []byte) ([]*discordgo.File, *[]*discordgo.MessageAttachment) {
	return []*discordgo.File{{Name: name, ContentType: "image/png", Reader: bytes.NewReader(png)}},
		&[]*discordgo.MessageAttachment{{ID: "0", Filename: name}}
}

package bot

import (
	"slices"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// seatedTable loads the channel's table for a private view, answering the
// user when there is none or they are not seated. A button (tableID not
// empty) must belong to the channel's current table. The table is shared
// with other readers (loadTableShared): the views only read it.
func (b *Bot) seatedTable(r *request, tableID string) (*Table, int, bool) {
	unlock := b.locks.Lock(r.tableKey())
	t, err := b.loadTableShared(r.ctx, r.tableKey())
	unlock()
	if r.failed(err) {
		return nil, 0, false
	}
	if !r.sameGuild(t) {
		return nil, 0, false
	}
	if tableID != "" && (t == nil || t.ID != tableID) {
		r.ephemeral(r.lang.T(msg.ErrStale))
		return nil, 0, false
	}
	if t == nil || t.Game == nil {
		r.ephemeral(r.lang.T(msg.ErrNogame))
		return nil, 0, false
	}
	seat := t.SeatOf(r.userID)
	if seat < 0 {
		r.ephemeral(r.lang.T(msg.ErrNotplaying))
		return nil, 0, false
	}
	return t, seat, true
}

// showSheet answers with the user's own sheet, only for them, and the
// choices legal for them right now (RULES: only their legal ones).
// tableID is the clicked button's table, "" for the command.
func (b *Bot) showSheet(r *request, tableID string) {
	t, seat, ok := b.seatedTable(r, tableID)
	if !ok {
		return
	}
	png, err := b.rd.Sheet(t.Game.Public(), seat, sheetChoices(t, seat), r.lang)
	if err != nil {
		r.fail(err)
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: view.Sheet(t, seat, r.lang, png)})
}

// sheetChoices are the cells of seat's sheet that one of their legal moves
// now would cross (a white sum, a white and a coloured die, the number for
// everyone), each once, for the marks on their private sheet. Takes and
// plays cross nothing here (plays are built in the hand view), and a player
// who may not act has none.
func sheetChoices(t *Table, seat int) []render.Cell {
	g := t.Game
	if t.Stage != StagePlaying || !g.MayAct(seat) {
		return nil
	}
	var cells []render.Cell
	d := g.Dice()
	for _, m := range g.LegalMoves(seat) {
		var n int
		switch m.Kind {
		case game.White:
			n = g.WhiteSum()
		case game.Number:
			n = g.TopNumber()
		case game.Colored:
			n = d[m.White-1] + d[game.DieOf(m.Color)]
		default:
			continue
		}
		if c := (render.Cell{Color: m.Color, Number: n}); !slices.Contains(cells, c) {
			cells = append(cells, c)
		}
	}
	return cells
}

// showHand answers with the user's cards, only for them; in their action 3
// it starts the play builder. tableID is the clicked button's table ("" for
// the command); update answers by updating the hand view clicked in.
func (b *Bot) showHand(r *request, tableID string, update bool, gameNo string) {
	t, seat, ok := b.seatedTable(r, tableID)
	if !ok {
		return
	}
	if gameNo != "" && gameNo != strconv.Itoa(t.GameNo) {
		// A hand view of an earlier game: it does not start following
		// this one; it says its game is over (the table's My cards opens
		// this game's).
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: r.lang.T(msg.HandOver), Components: []discordgo.MessageComponent{},
		}})
		return
	}
	if !t.Variant.CardGame() {
		r.ephemeral(r.lang.T(msg.HandNone))
		return
	}
	b.answerHand(r, t, seat, session.PlaySel{}, "", update)
}

// answerHand answers r with seat's hand view for the selection sel, headed
// by note if any: an update of the view clicked in (update), else a new
// private message (opened from the table or a command). The view is then
// followed (handWatch) while the interaction's token is young.
func (b *Bot) answerHand(r *request, t *Table, seat int, sel session.PlaySel, note string, update bool) {
	b.answerHandMarked(r, t, seat, sel, note, update, "")
}

// answerHandMarked is answerHand with the button whose custom_id is mark
// (a hinted take) shown green.
func (b *Bot) answerHandMarked(r *request, t *Table, seat int, sel session.PlaySel, note string, update bool, mark string) {
	// A click in the view that shows these very cards (its first line,
	// and its picture there) keeps its picture: not drawn, not sent again.
	keep := update && r.i.Message != nil && hasFile(r.i.Message, view.HandFile) &&
		strings.Contains(r.i.Message.Content, view.HandLine(r.lang, t, seat))
	data, err := handView(b.rd, t, seat, r.lang, sel, keep)
	if err != nil {
		r.fail(err)
		return
	}
	if note != "" {
		data.Content = note + "\n" + data.Content
	}
	view.MarkButton(data.Components, mark)
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		typ = discordgo.InteractionResponseUpdateMessage
	}
	at := b.opt.Now() // about when the token was made
	if r.respond(&discordgo.InteractionResponse{Type: typ, Data: data}) == nil {
		b.hands.watch(r, at, handKey(t, seat), gameID(t), sel)
	}
}

// hasFile reports whether m carries an attachment named name.
func hasFile(m *discordgo.Message, name string) bool {
	for _, a := range m.Attachments {
		if a != nil && a.Filename == name {
			return true
		}
	}
	return false
}

// handView is the private hand message (view.Hand) with the hand picture
// drawn. With keepPicture the message keeps the picture it shows (the
// same cards): none is drawn or sent.
func handView(rd Renderer, t *Table, seat int, l Lang, sel session.PlaySel, keepPicture bool) (*discordgo.InteractionResponseData, error) {
	var png []byte
	if !keepPicture {
		var err error
		if png, err = rd.Hand(t.Game.Private(seat), l); err != nil {
			return nil, err
		}
	}
	return view.Hand(t, seat, l, sel, png), nil
}

// playBuilderClick handles the selects of the play builder: each choice
// updates the private message with the new selection and whether it may be
// played.
func (b *Bot) playBuilderClick(r *request, a customid.Action) {
	t, seat, ok := b.seatedTable(r, a.Table)
	if !ok {
		return
	}
	if err := r.click(a).Build(t, seat); err != nil {
		r.refuse(t, err)
		return
	}
	sel, err := session.Step(t.Game, seat, a.Verb, a.Arg, r.i.MessageComponentData().Values)
	if err != nil {
		r.log.Warn().Str("verb", a.Verb).Msg("forged play builder values")
		r.refuse(t, err)
		return
	}
	b.answerHand(r, t, seat, sel, "", true)
}

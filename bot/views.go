package bot

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

func (b *Bot) cmdSheet(r *request) { b.showSheet(r, "") }
func (b *Bot) cmdHand(r *request)  { b.showHand(r, "", false, "") }

// seatedTable loads the channel's table for a private view, answering the
// user when there is none or they are not seated. A button (tableID not
// empty) must belong to the channel's current table.
func (b *Bot) seatedTable(r *request, tableID string) (*Table, int, bool) {
	unlock := b.locks.Lock(r.tableKey())
	t, err := b.loadTable(r.ctx, r.tableKey())
	unlock()
	if r.failed(err) {
		return nil, 0, false
	}
	if !r.sameGuild(t) {
		return nil, 0, false
	}
	seat, err := session.Click{Table: tableID, User: r.userID}.Seated(t)
	if err != nil {
		r.refuse(t, err)
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
	score := t.Game.Sheet(seat).Score()
	text := r.lang.T(msg.SheetWait, score)
	comps := personalControls(t, seat, r.lang, ViewSheet)
	if len(comps) > 0 {
		text = r.lang.T(msg.SheetMine, score)
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: comps,
		Files: []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
	}})
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

// personalControls are buttons for exactly the user's legal moves now, in
// the private view (ViewSheet or ViewHand).
func personalControls(t *Table, seat int, l Lang, view View) []discordgo.MessageComponent {
	g := t.Game
	current, changing := g.Decision(seat) // a choice that may still change (P4)
	if t.Stage != StagePlaying || !(g.MayAct(seat) || changing) {
		return nil
	}
	var btns []discordgo.MessageComponent
	d := g.Dice()
	for _, m := range byColorPassLast(g.Choices(seat)) {
		var label, verb, arg string
		style := discordgo.PrimaryButton
		switch m.Kind {
		case game.Pass:
			label, style = passButton(t, seat, l)
			verb = "pass"
		case game.White:
			label, verb, arg = l.T(msg.BtnRow, colorName(l, m.Color), g.WhiteSum()), "white", m.Color.String()
		case game.Number:
			label, verb, arg = l.T(msg.BtnRow, colorName(l, m.Color), g.TopNumber()), "number", m.Color.String()
		case game.Colored:
			w := d[m.White-1]
			label = l.T(msg.BtnColor, colorName(l, m.Color), w+d[game.DieOf(m.Color)], w, d[game.DieOf(m.Color)])
			verb, arg = "color", fmt.Sprintf("%d.%s", m.White, m.Color)
		case game.Take:
			label, verb, arg = takeLabel(l, m.TakeNumbers()), "take", joinInts(m.TakeNumbers(), "-")
		default:
			continue // plays are built in the hand view
		}
		if changing && m == current {
			style = discordgo.SuccessButton // the choice that stands
		}
		btns = append(btns, discordgo.Button{Label: label, Style: style, CustomID: actionID(t, view, verb, arg)})
	}
	if (view == ViewSheet || view == ViewSolo || view == ViewDaily) && len(btns) > 0 && hintsOn(t) && g.MayAct(seat) {
		btns = append(btns, discordgo.Button{Label: l.T(msg.BtnHint), Style: discordgo.SecondaryButton, CustomID: actionID(t, view, "hint", "")})
	}
	return chunkButtons(btns)
}

// showHand answers with the user's cards, only for them; in their action 3
// it starts the play builder. tableID is the clicked button's table ("" for
// the command); update answers by updating the hand view clicked in.
func (b *Bot) showHand(r *request, tableID string, update bool, gameNo string) {
	t, seat, ok := b.seatedTable(r, tableID)
	if !ok {
		return
	}
	if err := session.Hand(t, gameNo); errors.Is(err, session.ErrHandOver) {
		// A hand view of an earlier game: it does not start following
		// this one; it says its game is over (the table's My cards opens
		// this game's).
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: refusal(r.lang, t, err), Components: []discordgo.MessageComponent{},
		}})
		return
	} else if err != nil {
		r.refuse(t, err)
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
	keep := update && r.i.Message != nil && hasFile(r.i.Message, handFile) &&
		strings.Contains(r.i.Message.Content, handLine(r.lang, t, seat))
	data, err := b.handView(t, seat, r.lang, sel, keep)
	if err != nil {
		r.fail(err)
		return
	}
	if note != "" {
		data.Content = note + "\n" + data.Content
	}
	markButton(data.Components, mark)
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		typ = discordgo.InteractionResponseUpdateMessage
	}
	at := b.opt.Now() // about when the token was made
	if r.respond(&discordgo.InteractionResponse{Type: typ, Data: data}) == nil {
		b.hands.watch(r, at, handKey(t, seat), gameID(t), sel)
	}
}

// handFile names the hand picture.
const handFile = "hand.png"

// handLine is the first line of seat's hand view: the cards, in words.
// The hand picture shows the same cards: a view whose line is the same
// shows the same picture.
func handLine(l Lang, t *Table, seat int) string {
	return l.T(msg.HandMine, cardList(l, t.Game.Hand(seat)))
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

// handView is the private hand message: the hand picture and its cards,
// the take buttons in the user's action 1, and in action 3 the play builder
// for the selection sel. With keepPicture the message keeps the picture it
// shows (the same cards): none is drawn or sent.
func (b *Bot) handView(t *Table, seat int, l Lang, sel session.PlaySel, keepPicture bool) (*discordgo.InteractionResponseData, error) {
	g := t.Game
	var png []byte
	if !keepPicture {
		var err error
		if png, err = b.rd.Hand(g.Private(seat), l); err != nil {
			return nil, err
		}
	}
	lines := []string{handLine(l, t, seat)}
	var comps []discordgo.MessageComponent
	if handActs(t, seat) {
		switch g.Phase() {
		case game.PhasePlay:
			var status string
			comps, status = playBuilder(t, seat, l, sel)
			if status != "" {
				lines = append(lines, status)
			}
		default:
			comps = personalControls(t, seat, l, ViewHand)
		}
	}
	// Every click brings a fresh interaction token: the view keeps working
	// however long the game lasts (tokens live 15 minutes).
	last := []discordgo.MessageComponent{
		discordgo.Button{Label: l.T(msg.BtnRefresh), Style: discordgo.SecondaryButton, CustomID: actionID(t, ViewHand, "hand", strconv.Itoa(t.GameNo))},
	}
	if handActs(t, seat) && hintsOn(t) {
		last = append(last, discordgo.Button{Label: l.T(msg.BtnHint), Style: discordgo.SecondaryButton, CustomID: actionID(t, ViewHand, "hint", "")})
	}
	comps = append(comps, discordgo.ActionsRow{Components: last})
	data := &discordgo.InteractionResponseData{Content: strings.Join(lines, "\n"), Flags: discordgo.MessageFlagsEphemeral, Components: comps}
	if !keepPicture {
		// Replacing the picture: the old attachment goes, the new one
		// comes. Without files and attachments an update keeps it.
		data.Files = []*discordgo.File{{Name: handFile, ContentType: "image/png", Reader: bytes.NewReader(png)}}
		data.Attachments = &[]*discordgo.MessageAttachment{}
	}
	return data, nil
}

// handActs reports whether seat's hand view offers a move now: taking
// cards (C4) or playing them (C6), the actions of the active player that
// are about the cards. The number for everyone (C5) is decided on the
// table message, where everybody decides it: the hand views of the
// players need no edit for it, twice a turn.
func handActs(t *Table, seat int) bool {
	return t.Stage == StagePlaying && t.Game.MayAct(seat) && t.Game.Phase() != game.PhaseNumber
}

// cardName names a card for its owner: "Red 5", "Joker 9" ("5 rouge" in
// French).
func cardName(l Lang, c game.Card) string {
	if c.Joker() {
		return l.T(msg.CardJoker, c.Number())
	}
	return l.T(msg.Card, l.T(i18n.CardColor[c.Color()]), c.Number())
}

func cardList(l Lang, cs []game.Card) string { return playedList(l, cs, 0, false) }

// playedList names the cards of a play; jokers show the colour they count
// as when it is named: "Red 4, Joker 7 → Red".
func playedList(l Lang, cards []game.Card, as game.Color, named bool) string {
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = cardName(l, c)
		if c.Joker() && named {
			names[i] += " → " + l.T(i18n.CardColor[as])
		}
	}
	return strings.Join(names, ", ")
}

// playLabel words a play: the question before it is confirmed, or what was
// done (done).
func playLabel(l Lang, p session.PlaySel, done bool) string {
	key, none := msg.PlayReady, msg.PlayReadynone
	if done {
		key, none = msg.PlayDone, msg.PlayDonenone
	}
	cards := playedList(l, p.Cards, p.Color, p.HasColor)
	if len(p.Cross) == 0 {
		return l.T(none, cards)
	}
	return l.T(key, cards, joinInts(p.Cross, ", "))
}

// playBuilder makes the components of the play builder and a status line
// saying whether the current selection may be played, and if not why. What
// a menu's placeholder already asks (pick the cards, the jokers' colour)
// is not asked again in the status: it is "" then.
func playBuilder(t *Table, seat int, l Lang, sel session.PlaySel) ([]discordgo.MessageComponent, string) {
	g := t.Game
	hand := g.Hand(seat)
	one := 1
	var opts []discordgo.SelectMenuOption
	for _, c := range hand {
		opts = append(opts, discordgo.SelectMenuOption{Label: cardName(l, c), Value: c.String(), Default: slices.Contains(sel.Cards, c)})
	}
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "pick", ""), Placeholder: l.T(msg.PlayPick),
		MinValues: &one, MaxValues: min(3, len(hand)), Options: opts,
	}}}}
	if len(sel.Cards) == 0 {
		return comps, "" // the menu's placeholder asks for the cards
	}
	if sel.NeedsColor() {
		var copts []discordgo.SelectMenuOption
		for _, c := range game.Colors {
			copts = append(copts, discordgo.SelectMenuOption{Label: colorName(l, c), Value: c.String(), Default: sel.HasColor && sel.Color == c})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "as", sel.Encode()), Placeholder: l.T(msg.PlayAs), Options: copts,
		}}})
	}
	nums := sel.Numbers()
	var nopts []discordgo.SelectMenuOption
	for _, n := range nums {
		nopts = append(nopts, discordgo.SelectMenuOption{Label: strconv.Itoa(n), Value: strconv.Itoa(n), Default: slices.Contains(sel.Cross, n)})
	}
	zero := 0
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "cross", sel.Encode()), Placeholder: l.T(msg.PlayCross),
		MinValues: &zero, MaxValues: len(nums), Options: nopts,
	}}})
	status := ""
	err := sel.Check(g, seat)
	ok := err == nil
	switch {
	case errors.Is(err, session.ErrNoColor):
		status = "" // the colour menu's placeholder asks for it
	case err != nil:
		status = "⚠️ " + explain(l, err)
	default:
		status = playLabel(l, sel, false)
	}
	confirm := actionID(t, ViewHand, "play", sel.Encode())
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: l.T(msg.BtnPlay), Style: discordgo.SuccessButton, CustomID: confirm, Disabled: !ok},
	}})
	return comps, status
}

// playBuilderClick handles the selects of the play builder: each choice
// updates the private message with the new selection and whether it may be
// played.
func (b *Bot) playBuilderClick(r *request, a Action) {
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

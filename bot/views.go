package bot

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

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
	b.answerHand(r, t, seat, playSel{}, "", update)
}

// answerHand answers r with seat's hand view for the selection sel, headed
// by note if any: an update of the view clicked in (update), else a new
// private message (opened from the table or a command). The view is then
// followed (handWatch) while the interaction's token is young.
func (b *Bot) answerHand(r *request, t *Table, seat int, sel playSel, note string, update bool) {
	b.answerHandMarked(r, t, seat, sel, note, update, "")
}

// answerHandMarked is answerHand with the button whose custom_id is mark
// (a hinted take) shown green.
func (b *Bot) answerHandMarked(r *request, t *Table, seat int, sel playSel, note string, update bool, mark string) {
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
func (b *Bot) handView(t *Table, seat int, l Lang, sel playSel, keepPicture bool) (*discordgo.InteractionResponseData, error) {
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
		data.Files, data.Attachments = newPicture(handFile, png)
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

// playSel is a card play being put together in the hand view: the cards,
// the colour they count as, the numbers to cross. It travels in the
// custom_ids of the (ephemeral, private) builder message as
// "R4-R5-J7.r.4-5-7".
type playSel struct {
	cards    []game.Card
	color    game.Color
	hasColor bool
	cross    []int
}

func (p playSel) encode() string {
	cs := make([]string, len(p.cards))
	for i, c := range p.cards {
		cs[i] = c.String()
	}
	col := ""
	if p.hasColor {
		col = string(p.color.Letter() + 'a' - 'A')
	}
	return strings.Join(cs, "-") + "." + col + "." + joinInts(p.cross, "-")
}

func decodePlay(s string) (playSel, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return playSel{}, errForged
	}
	var p playSel
	if parts[0] != "" {
		for _, f := range strings.Split(parts[0], "-") {
			c, err := game.ParseCard(f)
			if err != nil {
				return playSel{}, errForged
			}
			p.cards = append(p.cards, c)
		}
	}
	if len(p.cards) > 3 {
		return playSel{}, errForged
	}
	if parts[1] != "" {
		c, err := game.ParseColor(parts[1])
		if err != nil {
			return playSel{}, errForged
		}
		p.color, p.hasColor = c, true
	}
	if parts[2] != "" {
		for _, f := range strings.Split(parts[2], "-") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 2 || n > 12 {
				return playSel{}, errForged
			}
			p.cross = append(p.cross, n)
		}
	}
	if len(p.cross) > 3 {
		return playSel{}, errForged
	}
	return p, nil
}

// inferColor sets the colour from the colour cards when there is one.
func (p *playSel) inferColor() {
	for _, c := range p.cards {
		if !c.Joker() {
			p.color, p.hasColor = c.Color(), true
			return
		}
	}
}

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
func playLabel(l Lang, p playSel, done bool) string {
	key, none := msg.PlayReady, msg.PlayReadynone
	if done {
		key, none = msg.PlayDone, msg.PlayDonenone
	}
	cards := playedList(l, p.cards, p.color, p.hasColor)
	if len(p.cross) == 0 {
		return l.T(none, cards)
	}
	return l.T(key, cards, joinInts(p.cross, ", "))
}

// playBuilder makes the components of the play builder and a status line
// saying whether the current selection may be played, and if not why. What
// a menu's placeholder already asks (pick the cards, the jokers' colour)
// is not asked again in the status: it is "" then.
func playBuilder(t *Table, seat int, l Lang, sel playSel) ([]discordgo.MessageComponent, string) {
	g := t.Game
	hand := g.Hand(seat)
	one := 1
	var opts []discordgo.SelectMenuOption
	for _, c := range hand {
		opts = append(opts, discordgo.SelectMenuOption{Label: cardName(l, c), Value: c.String(), Default: slices.Contains(sel.cards, c)})
	}
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "pick", ""), Placeholder: l.T(msg.PlayPick),
		MinValues: &one, MaxValues: min(3, len(hand)), Options: opts,
	}}}}
	if len(sel.cards) == 0 {
		return comps, "" // the menu's placeholder asks for the cards
	}
	allJokers := !slices.ContainsFunc(sel.cards, func(c game.Card) bool { return !c.Joker() })
	if allJokers {
		var copts []discordgo.SelectMenuOption
		for _, c := range game.Colors {
			copts = append(copts, discordgo.SelectMenuOption{Label: colorName(l, c), Value: c.String(), Default: sel.hasColor && sel.color == c})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "as", sel.encode()), Placeholder: l.T(msg.PlayAs), Options: copts,
		}}})
	}
	var nums []int
	for _, c := range sel.cards {
		if !slices.Contains(nums, c.Number()) {
			nums = append(nums, c.Number())
		}
	}
	slices.Sort(nums)
	var nopts []discordgo.SelectMenuOption
	for _, n := range nums {
		nopts = append(nopts, discordgo.SelectMenuOption{Label: strconv.Itoa(n), Value: strconv.Itoa(n), Default: slices.Contains(sel.cross, n)})
	}
	zero := 0
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: actionID(t, ViewHand, "cross", sel.encode()), Placeholder: l.T(msg.PlayCross),
		MinValues: &zero, MaxValues: len(nums), Options: nopts,
	}}})
	status := ""
	ok := sel.hasColor
	if !sel.hasColor {
		status = "" // the colour menu's placeholder asks for it
	} else if err := g.Check(game.PlayMove(seat, sel.color, sel.cards, sel.cross...)); err != nil {
		status, ok = "⚠️ "+explain(l, err), false
	} else {
		status = playLabel(l, sel, false)
	}
	confirm := actionID(t, ViewHand, "play", sel.encode())
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
	if a.Stamp != t.Stamp() || t.Stage != StagePlaying {
		r.ephemeral(r.lang.T(msg.ErrStale))
		return
	}
	if !t.Game.MayAct(seat) || t.Game.Phase() != game.PhasePlay {
		r.ephemeral(r.lang.T(msg.ErrNotnow))
		return
	}
	values := r.i.MessageComponentData().Values
	var sel playSel
	var err error
	if a.Verb != "pick" {
		if sel, err = decodePlay(a.Arg); err != nil {
			r.ephemeral(r.lang.T(msg.ErrForged))
			return
		}
	}
	if sel, ok = builderChoice(t.Game.Hand(seat), a.Verb, sel, values); !ok {
		r.log.Warn().Str("verb", a.Verb).Msg("forged play builder values")
		r.ephemeral(r.lang.T(msg.ErrForged))
		return
	}
	if a.Verb != "cross" {
		sel.cross = mostCrosses(t.Game, seat, sel)
	}
	b.answerHand(r, t, seat, sel, "", true)
}

// mostCrosses is what the builder proposes to cross once the cards and
// their colour are chosen: as many of their numbers as the rules allow
// (the menu shows them chosen; the player may change it), the lowest
// numbers first among equally many; nothing when no set is allowed.
func mostCrosses(g *game.Game, seat int, sel playSel) []int {
	if !sel.hasColor {
		return nil
	}
	var nums []int
	for _, c := range sel.cards {
		if !slices.Contains(nums, c.Number()) {
			nums = append(nums, c.Number())
		}
	}
	slices.Sort(nums)
	var best []int
	for mask := 1; mask < 1<<len(nums); mask++ {
		var cross []int
		for i, n := range nums {
			if mask&(1<<i) != 0 {
				cross = append(cross, n)
			}
		}
		if len(cross) > len(best) && g.Check(game.PlayMove(seat, sel.color, sel.cards, cross...)) == nil {
			best = cross
		}
	}
	return best
}

// builderChoice applies the values picked in one of the play builder's
// menus to the selection sel. Only values the menu offered are accepted,
// written as the bot writes them: cards of the hand (1–3, distinct), one
// colour, numbers of the selected cards (distinct).
func builderChoice(hand []game.Card, verb string, sel playSel, values []string) (playSel, bool) {
	switch verb {
	case "pick":
		if len(values) < 1 || len(values) > 3 {
			return sel, false
		}
		sel = playSel{}
		for _, v := range values {
			c, err := game.ParseCard(v)
			if err != nil || c.String() != v || !slices.Contains(hand, c) || slices.Contains(sel.cards, c) {
				return sel, false
			}
			sel.cards = append(sel.cards, c)
		}
		sel.inferColor()
	case "as":
		if len(values) != 1 || len(sel.cards) == 0 {
			return sel, false
		}
		c, ok := colorArg(values[0])
		if !ok {
			return sel, false
		}
		col, _ := game.ParseColor(c)
		sel.color, sel.hasColor = col, true
	case "cross":
		if len(sel.cards) == 0 {
			return sel, false
		}
		sel.cross = nil
		for _, v := range values {
			n, err := strconv.Atoi(v)
			if err != nil || strconv.Itoa(n) != v || slices.Contains(sel.cross, n) ||
				!slices.ContainsFunc(sel.cards, func(c game.Card) bool { return c.Number() == n }) {
				return sel, false
			}
			sel.cross = append(sel.cross, n)
		}
	default:
		return sel, false
	}
	return sel, true
}

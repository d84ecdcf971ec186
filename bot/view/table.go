package view

import (
	"bytes"
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

// ActionID makes the custom_id of a component in t's view for its current
// state.
func ActionID(t *session.Table, view customid.View, verb, arg string) string {
	return customid.Action{Table: t.ID, Stamp: t.Stamp(), View: view, Verb: verb, Arg: arg}.Encode()
}

// HintsOn reports whether the table offers the 💡 Hint button: the host
// has not turned it off.
func HintsOn(t *session.Table) bool { return !t.NoHints }

// MarkButton turns the button whose custom_id is id green ("" none).
func MarkButton(comps []discordgo.MessageComponent, id string) {
	if id == "" {
		return
	}
	for _, row := range comps {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for i, c := range ar.Components {
			if btn, ok := c.(discordgo.Button); ok && btn.CustomID == id {
				btn.Style = discordgo.SuccessButton
				ar.Components[i] = btn
			}
		}
	}
}

// MoveAction is the custom_id of view's button for m.
func MoveAction(t *session.Table, view customid.View, m game.Move) string {
	switch m.Kind {
	case game.Pass:
		return ActionID(t, view, "pass", "")
	case game.White:
		return ActionID(t, view, "white", m.Color.String())
	case game.Number:
		return ActionID(t, view, "number", m.Color.String())
	case game.Colored:
		return ActionID(t, view, "color", strconv.Itoa(int(m.White))+"."+m.Color.String())
	case game.Take:
		return ActionID(t, view, "take", customid.JoinInts(m.TakeNumbers(), "-"))
	}
	return ""
}

// MoveLabel names a choice of an action everybody decides as its button
// does: "Red 5", or "Pass".
func MoveLabel(g *game.Game, m game.Move, l i18n.Lang) string {
	switch m.Kind {
	case game.White:
		return l.T(msg.BtnRow, ColorName(l, m.Color), g.WhiteSum())
	case game.Number:
		return l.T(msg.BtnRow, ColorName(l, m.Color), g.TopNumber())
	}
	return l.T(msg.BtnPass)
}

// TableContent is the text of the table message.
func TableContent(t *session.Table, l i18n.Lang) string {
	g := t.Game
	act := t.Seats[g.Active()]
	if g.Over() {
		return ""
	}
	var sb strings.Builder
	sb.Grow(256)
	line := func(s string) {
		sb.WriteString(s)
		sb.WriteByte('\n')
	}
	header := l.T(msg.TurnHeader, g.Turn(), act.Mention())
	if m := t.Match; m != nil && m.Games > 1 {
		header = l.T(msg.TurnMatchgame, m.Played()+1, m.Games) + " · " + header
	}
	line(header)
	switch g.Phase() {
	case game.PhaseWhite:
		line(l.T(msg.TurnWhite, g.WhiteSum()))
	case game.PhaseColor:
		line(l.T(msg.TurnColor, act.Mention()))
	case game.PhaseTake:
		line(l.T(msg.TurnTake, act.Mention()))
	case game.PhaseNumber:
		line(l.T(msg.TurnNumber, g.TopNumber()))
	case game.PhasePlay:
		line(l.T(msg.TurnPlay, act.Mention()))
	}
	var waiting strings.Builder
	for i, p := range g.Waiting() {
		if i > 0 {
			waiting.WriteByte(' ')
		}
		waiting.WriteString(t.Seats[p].Mention())
	}
	line(l.T(msg.TurnWaiting, waiting.String()))
	if !t.Deadline.IsZero() {
		line(l.T(msg.TurnDeadline, "<t:"+strconv.FormatInt(t.Deadline.Unix(), 10)+":R>"))
	}
	// Events of this turn so far; earlier turns' are in their log lines.
	for _, n := range t.News {
		if n.Turn == g.Turn() {
			sb.WriteString("> ")
			line(NewsWords(n, l, t.Seats))
		}
	}
	return strings.TrimSpace(sb.String())
}

// TableControls are the public buttons of the current action. They carry
// nothing private (RULES C10): rows, dice, display numbers.
func TableControls(t *session.Table, l i18n.Lang) []discordgo.MessageComponent {
	g := t.Game
	var btns []discordgo.MessageComponent
	add := func(label, verb, arg string, style discordgo.ButtonStyle, disabled bool) {
		btns = append(btns, discordgo.Button{Label: label, Style: style, CustomID: ActionID(t, customid.ViewTable, verb, arg), Disabled: disabled})
	}
	switch g.Phase() {
	case game.PhaseWhite, game.PhaseNumber:
		n, verb := g.WhiteSum(), "white"
		if g.Phase() == game.PhaseNumber {
			n, verb = g.TopNumber(), "number"
		}
		// Only the rows somebody still deciding can cross the number in:
		// a button nobody can take would only earn a private Refusal.
		var open [game.NumColors]bool
		for p := range t.Seats {
			for _, m := range g.Choices(p) { // who decided may still change (P4)
				if m.Kind != game.Pass {
					open[m.Color] = true
				}
			}
		}
		for _, c := range game.Colors {
			if open[c] {
				add(l.T(msg.BtnRow, ColorName(l, c), n), verb, c.String(), discordgo.PrimaryButton, false)
			}
		}
		add(l.T(msg.BtnPass), "pass", "", discordgo.SecondaryButton, false)
	case game.PhaseColor:
		d := g.Dice()
		for _, m := range ByColorPassLast(g.LegalMoves(g.Active())) {
			if m.Kind == game.Colored {
				w := d[m.White-1]
				add(l.T(msg.BtnColor, ColorName(l, m.Color), w+d[game.DieOf(m.Color)], w, d[game.DieOf(m.Color)]),
					"color", strconv.Itoa(int(m.White))+"."+m.Color.String(), discordgo.PrimaryButton, false)
			}
		}
		label, style := PassButton(t, g.Active(), l)
		add(label, "pass", "", style, false)
	case game.PhaseTake:
		for _, m := range g.LegalMoves(g.Active()) {
			nums := m.TakeNumbers()
			add(TakeLabel(l, nums), "take", customid.JoinInts(nums, "-"), discordgo.PrimaryButton, false)
		}
	}
	rows := ChunkButtons(btns)
	personal := []discordgo.MessageComponent{discordgo.Button{Label: l.T(msg.BtnSheet), Style: discordgo.SecondaryButton, CustomID: ActionID(t, customid.ViewTable, "sheet", "")}}
	if t.Variant.CardGame() {
		personal = append(personal, discordgo.Button{Label: l.T(msg.BtnHand), Style: discordgo.SuccessButton, CustomID: ActionID(t, customid.ViewTable, "hand", "")})
	}
	return append(rows, discordgo.ActionsRow{Components: personal})
}

// ByColorPassLast orders moves as their buttons are shown: grouped by
// colour, Pass last.
func ByColorPassLast(moves []game.Move) []game.Move {
	slices.SortStableFunc(moves, func(a, b game.Move) int {
		if (a.Kind == game.Pass) != (b.Kind == game.Pass) {
			if a.Kind == game.Pass {
				return 1
			}
			return -1
		}
		return int(a.Color) - int(b.Color)
	})
	return moves
}

// PassButton words the Pass button for seat: where passing ends the turn
// without a cross, it costs the active player a misthrow (D6), and a 4th
// ends the game (D9); the button says so, in red.
func PassButton(t *session.Table, seat int, l i18n.Lang) (string, discordgo.ButtonStyle) {
	g := t.Game
	if g.Phase() != game.PhaseColor || seat != g.Active() || g.ActiveHasCrossed() {
		return l.T(msg.BtnPass), discordgo.SecondaryButton
	}
	if g.Sheet(seat).Misthrows+1 >= game.MaxMisthrows {
		return l.T(msg.BtnPassEnd), discordgo.DangerButton
	}
	return l.T(msg.BtnPassMisthrow, game.MisthrowPenalty), discordgo.DangerButton
}

// ChunkButtons lays buttons out in rows of at most five, with room for
// one row more (a view's own buttons).
func ChunkButtons(btns []discordgo.MessageComponent) []discordgo.MessageComponent {
	if len(btns) == 0 {
		return nil
	}
	rows := make([]discordgo.MessageComponent, 0, (len(btns)+4)/5+1)
	for len(btns) > 0 {
		n := min(5, len(btns))
		rows = append(rows, discordgo.ActionsRow{Components: btns[:n]})
		btns = btns[n:]
	}
	return rows
}

// PersonalControls are buttons for exactly the user's legal moves now, in
// the private view (customid.ViewSheet or customid.ViewHand).
func PersonalControls(t *session.Table, seat int, l i18n.Lang, view customid.View) []discordgo.MessageComponent {
	g := t.Game
	current, changing := g.Decision(seat) // a choice that may still change (P4)
	if t.Stage != session.StagePlaying || !(g.MayAct(seat) || changing) {
		return nil
	}
	choices := ByColorPassLast(g.Choices(seat))
	btns := make([]discordgo.MessageComponent, 0, len(choices)+1) // and Hint
	d := g.Dice()
	for _, m := range choices {
		var label, verb, arg string
		style := discordgo.PrimaryButton
		switch m.Kind {
		case game.Pass:
			label, style = PassButton(t, seat, l)
			verb = "pass"
		case game.White:
			label, verb, arg = l.T(msg.BtnRow, ColorName(l, m.Color), g.WhiteSum()), "white", m.Color.String()
		case game.Number:
			label, verb, arg = l.T(msg.BtnRow, ColorName(l, m.Color), g.TopNumber()), "number", m.Color.String()
		case game.Colored:
			w := d[m.White-1]
			label = l.T(msg.BtnColor, ColorName(l, m.Color), w+d[game.DieOf(m.Color)], w, d[game.DieOf(m.Color)])
			verb, arg = "color", strconv.Itoa(int(m.White))+"."+m.Color.String()
		case game.Take:
			label, verb, arg = TakeLabel(l, m.TakeNumbers()), "take", customid.JoinInts(m.TakeNumbers(), "-")
		default:
			continue // plays are built in the hand view
		}
		if changing && m == current {
			style = discordgo.SuccessButton // the choice that stands
		}
		btns = append(btns, discordgo.Button{Label: label, Style: style, CustomID: ActionID(t, view, verb, arg)})
	}
	if (view == customid.ViewSheet || view == customid.ViewSolo || view == customid.ViewDaily) && len(btns) > 0 && HintsOn(t) && g.MayAct(seat) {
		btns = append(btns, discordgo.Button{Label: l.T(msg.BtnHint), Style: discordgo.SecondaryButton, CustomID: ActionID(t, view, "hint", "")})
	}
	return ChunkButtons(btns)
}

// HandLine is the first line of seat's hand view: the cards, in words.
// The hand picture shows the same cards: a view whose line is the same
// shows the same picture.
func HandLine(l i18n.Lang, t *session.Table, seat int) string {
	return l.T(msg.HandMine, CardList(l, t.Game.Hand(seat)))
}

// HandActs reports whether seat's hand view offers a move now: taking
// cards (C4) or playing them (C6), the actions of the active player that
// are about the cards. The number for everyone (C5) is decided on the
// table message, where everybody decides it: the hand views of the
// players need no edit for it, twice a turn.
func HandActs(t *session.Table, seat int) bool {
	return t.Stage == session.StagePlaying && t.Game.MayAct(seat) && t.Game.Phase() != game.PhaseNumber
}

// Sheet is the private sheet view of seat: the score, the picture of the
// sheet (png, drawn by the bot, as sheet.png) and buttons for exactly the
// seat's legal moves now (PersonalControls).
func Sheet(t *session.Table, seat int, l i18n.Lang, png []byte) *discordgo.InteractionResponseData {
	score := t.Game.Sheet(seat).Score()
	text := l.T(msg.SheetWait, score)
	comps := PersonalControls(t, seat, l, customid.ViewSheet)
	if len(comps) > 0 {
		text = l.T(msg.SheetMine, score)
	}
	return &discordgo.InteractionResponseData{
		Content: text, Flags: discordgo.MessageFlagsEphemeral, Components: comps,
		Files: []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
	}
}

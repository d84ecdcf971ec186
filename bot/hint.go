package bot

import (
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// hint answers a 💡 Hint click in a private sheet view: what the hard
// player would do in the clicker's seat and why, seeing only what the
// seat may know (RULES C10).
func (b *Bot) hint(r *request, a customid.Action) {
	t, seat, adv, ok := b.advise(r, a, func(t *Table, seat int) bool { return t.Stage == StagePlaying && t.Game.MayAct(seat) })
	if !ok {
		return
	}
	// The sheet view clicked in is updated in place: the advice heads it
	// and the advised move's button turns green. Its picture stays.
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: view.SheetHint(t, seat, r.lang, adv)})
}

// hintHand answers a 💡 Hint click in a private hand view (card games) by
// updating that view, the advice at its head, connected to its controls:
// a hinted take's button turns green, a hinted play is preselected in the
// builder (cards, colour, crosses), ready to confirm.
func (b *Bot) hintHand(r *request, a customid.Action) {
	t, seat, adv, ok := b.advise(r, a, view.HandActs)
	if !ok {
		return
	}
	m, sel := adv.Move, session.PlaySel{}
	if m.Kind == game.Play {
		sel = session.PlaySel{Cards: slices.Clone(m.Cards[:m.N]), Color: m.Color, HasColor: true, Cross: m.CrossNumbers()}
	}
	b.answerHandMarked(r, t, seat, sel, "💡 "+view.HintText(r.lang, adv), true, view.MoveAction(t, customid.ViewHand, m))
}

// advise finds the advice for a hint click, answering the clicker when
// there is none to give: hints off, an old button, or nothing to decide
// in the view (acts).
func (b *Bot) advise(r *request, a customid.Action, acts func(*Table, int) bool) (*Table, int, ai.Advice, bool) {
	t, seat, ok := b.seatedTable(r, a.Table)
	if !ok {
		return nil, 0, ai.Advice{}, false
	}
	if err := r.click(a).Hint(t, acts(t, seat)); err != nil {
		r.refuse(t, err)
		return nil, 0, ai.Advice{}, false
	}
	return t, seat, ai.Hint(t.Game.Private(seat), t.Game.LegalMoves(seat)), true
}

package bot

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// selectMenu finds the select menu whose custom_id has the verb.
func selectMenu(comps []discordgo.MessageComponent, verb string) *discordgo.SelectMenu {
	for _, row := range comps {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			if s, ok := c.(discordgo.SelectMenu); ok && strings.Contains(s.CustomID, ":"+verb) {
				return &s
			}
		}
	}
	return nil
}

var cardCode = regexp.MustCompile(`\b[RYGBJ](1[0-2]|[2-9])\b`)

// publicText is everything public about a channel message: content, button
// labels and custom_ids, attachment names.
func publicText(m *discordgo.Message) string {
	var sb strings.Builder
	sb.WriteString(m.Content)
	for _, a := range m.Attachments {
		sb.WriteString(" " + a.Filename)
	}
	for _, row := range m.Components {
		if ar, ok := row.(discordgo.ActionsRow); ok {
			for _, c := range ar.Components {
				if b, ok := c.(discordgo.Button); ok {
					sb.WriteString(" " + b.Label + " " + b.CustomID)
				}
			}
		}
	}
	return sb.String()
}

// A whole card game with jokers through the bot: takes from the public
// buttons, the number for everyone from the private sheet, plays built in
// the private hand view. Nothing public names a card.
func TestWholeJokerGameThroughHandView(t *testing.T) {
	h := newHarness(t)
	eph := &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}
	plays, refusals := 0, 0
	playCardGameThroughBot(t, h, "jokers", func(steps int, tb *Table, p int, user string, msg *discordgo.Message) {
		switch tb.Game.Phase() {
		case game.PhaseTake:
			takes := buttons(msg.Components, "Take")
			if len(takes) == 0 {
				t.Fatal("no take buttons on the table")
			}
			h.click(user, takes[steps%len(takes)], msg)
		case game.PhaseNumber:
			sheet := h.click(user, buttons(msg.Components, "My sheet")[0], msg)
			ids := buttons(sheet.Data.Components, "")
			h.click(user, ids[steps%len(ids)], eph)
		case game.PhasePlay:
			hand := h.click(user, buttons(msg.Components, "My cards")[0], msg)
			if hand.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
				t.Fatal("the hand view must be ephemeral")
			}
			pick := selectMenu(hand.Data.Components, "pick")
			if pick == nil || len(pick.Options) != len(tb.Game.Hand(p)) {
				t.Fatalf("hand view has no pick menu for %d cards", len(tb.Game.Hand(p)))
			}
			// Try the first three cards together (often illegal), then one.
			var vals []string
			for i := 0; i < len(pick.Options) && i < 3; i++ {
				vals = append(vals, pick.Options[i].Value)
			}
			up := h.click(user, pick.CustomID, eph, vals...)
			play := buttons(up.Data.Components, "Play")
			if len(play) == 0 {
				refusals++
				if !strings.Contains(up.Data.Content, "⚠️") && selectMenu(up.Data.Components, "as") == nil {
					t.Fatalf("a play that cannot be confirmed must say why: %q", up.Data.Content)
				}
				up = h.click(user, pick.CustomID, eph, pick.Options[0].Value)
			}
			if as := selectMenu(up.Data.Components, "as"); as != nil {
				up = h.click(user, as.CustomID, eph, "blue")
			}
			checkProposedCrosses(t, h.table(), p, up)
			if cross := selectMenu(up.Data.Components, "cross"); cross != nil && steps%2 == 0 {
				up = h.click(user, cross.CustomID, eph, cross.Options[0].Value)
			}
			play = buttons(up.Data.Components, "Play")
			if len(play) == 0 {
				// crossing that number is not allowed: cross nothing instead
				cross := selectMenu(up.Data.Components, "cross")
				up = h.click(user, cross.CustomID, eph)
				play = buttons(up.Data.Components, "Play")
			}
			if len(play) != 1 {
				t.Fatalf("no Play button: %q", up.Data.Content)
			}
			r := h.click(user, play[0], eph)
			if r.Type != discordgo.InteractionResponseUpdateMessage {
				t.Fatalf("play refused: %+v", r.Data)
			}
			plays++
		default:
			t.Fatalf("phase %s", tb.Game.Phase())
		}
	})
	if plays == 0 {
		t.Fatal("no card was played")
	}
	t.Logf("%d plays, %d multi-card picks refused", plays, refusals)
	for _, m := range h.dc.channel[testChannel] {
		if code := cardCode.FindString(publicText(m)); code != "" {
			t.Fatalf("public message names card %s: %q", code, publicText(m))
		}
	}
	// The hand renderer only ever got the hand of the user who asked.
	for _, v := range h.rd.hands {
		if len(v.Hand) > game.HandSize {
			t.Fatalf("hand view with %d cards", len(v.Hand))
		}
	}
}

// playCardGameThroughBot opens a table of variant for anna and ben,
// starts it and, until the game ends, lets act make the move of the seat
// p waited for (its user, and msg the table message), step by step.
func playCardGameThroughBot(t *testing.T, h *harness, variant string, act func(step int, tb *Table, p int, user string, msg *discordgo.Message)) {
	t.Helper()
	resp := h.openTable(variant, "anna", "ben")
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	for step := 0; h.table().Stage == StagePlaying; step++ {
		if step > 3000 {
			t.Fatal("game did not end")
		}
		tb := h.table()
		p := tb.Game.Waiting()[0]
		act(step, tb, p, tb.Seats[p].UserID, h.dc.lastTable(testChannel))
	}
}

// checkProposedCrosses checks what the builder proposes to cross once the
// cards and their colour are chosen (RULES C6): an allowed set (Play is
// on), to which no other offered number can be added.
func checkProposedCrosses(t *testing.T, tb *Table, seat int, up *discordgo.InteractionResponse) {
	t.Helper()
	cross := selectMenu(up.Data.Components, "cross")
	play := buttons(up.Data.Components, "Play")
	if cross == nil || len(play) == 0 {
		return // cards not chosen yet, or none allowed together
	}
	a, err := customid.Decode(play[0])
	if err != nil {
		t.Fatal(err)
	}
	sel, err := session.DecodePlay(a.Arg)
	if err != nil {
		t.Fatal(err)
	}
	var chosen []int
	for _, o := range cross.Options {
		if o.Default {
			n, _ := strconv.Atoi(o.Value)
			chosen = append(chosen, n)
		}
	}
	if !slices.Equal(chosen, sel.Cross) {
		t.Fatalf("the menu shows %v chosen, Play would cross %v", chosen, sel.Cross)
	}
	if err := tb.Game.Check(game.PlayMove(seat, sel.Color, sel.Cards, sel.Cross...)); err != nil {
		t.Fatalf("proposed crosses %v of %v not allowed: %v", sel.Cross, sel.Cards, err)
	}
	for _, o := range cross.Options {
		n, _ := strconv.Atoi(o.Value)
		if slices.Contains(sel.Cross, n) {
			continue
		}
		more := append(slices.Clone(sel.Cross), n)
		slices.Sort(more)
		if tb.Game.Check(game.PlayMove(seat, sel.Color, sel.Cards, more...)) == nil {
			t.Fatalf("proposed crosses %v of %v: %d could be crossed too", sel.Cross, sel.Cards, n)
		}
	}
}

// Computer players: the host adds them in the lobby (a table may be one
// person and computers); they move at once, from what their seat may see,
// so the game only ever waits for people; the channel names them with a
// robot, never as a mention.
func TestComputerSeatsPlayAtOnce(t *testing.T) {
	for _, variant := range []string{"dice", "cards"} {
		t.Run(variant, func(t *testing.T) {
			h := newHarness(t)
			h.bot.opt.LiveAnswers = true
			lobby := h.command("anna", "new", strOpt("variant", variant))
			if r := h.click("ben", buttons(lobby.Data.Components, "🤖 Add computer (medium)")[0], nil); r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
				t.Fatalf("a guest added a computer: %+v", r.Data)
			}
			lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Add computer (medium)")[0], nil)
			lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Add computer (easy)")[0], nil)
			if seats := lobby.Data.Embeds[0].Fields[0].Value; !strings.Contains(seats, "🤖 Bot Emma (medium)") || !strings.Contains(seats, "🤖 Bot Felix (easy)") {
				t.Fatalf("lobby seats: %q", seats)
			}
			lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Remove a computer")[0], nil)
			if seats := lobby.Data.Embeds[0].Fields[0].Value; strings.Contains(seats, "Bot Felix") || !strings.Contains(seats, "Bot Emma") {
				t.Fatalf("after removing a computer: %q", seats)
			}
			h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
			h.playAnnaAlone()
			g := h.table().Game
			computerMoves := 0
			for _, m := range g.Moves() {
				if m.Player == 1 {
					computerMoves++
				}
			}
			if computerMoves < g.Turn() {
				t.Fatalf("the computer made %d moves in %d turns", computerMoves, g.Turn())
			}
			for _, m := range h.dc.channel[testChannel] {
				if strings.Contains(m.Content, "<@>") {
					t.Fatalf("a computer mentioned as a user: %q", m.Content)
				}
			}
			res := h.dc.channel[testChannel][len(h.dc.channel[testChannel])-1]
			if !strings.Contains(res.Content, "🤖 Bot Emma: ") {
				t.Fatalf("results without the computer: %q", res.Content)
			}
		})
	}
}

// RULES P2: unless the host chose otherwise in the lobby, a computer
// player takes the seat of a player who leaves mid-game (instead of
// passes); the game then waits only for the people left, and the sheet
// goes on. The lobby shows the choice; the host may switch it to passes
// and back.
func TestP2ComputerTakesTheLeaversSeat(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	lobby := h.openTable("dice", "anna", "ben")
	if len(buttons(lobby.Data.Components, "If someone leaves: a computer plays for them")) != 1 {
		t.Fatal("the lobby does not show the default: a computer plays for leavers")
	}
	lobby = h.click("anna", buttons(lobby.Data.Components, "If someone leaves: a computer plays for them")[0], nil)
	if len(buttons(lobby.Data.Components, "If someone leaves: they pass from then on")) != 1 || !h.table().LeaverPass {
		t.Fatal("the host's switch to passes is not shown in the lobby")
	}
	lobby = h.click("anna", buttons(lobby.Data.Components, "If someone leaves: they pass from then on")[0], nil)
	if len(buttons(lobby.Data.Components, "If someone leaves: a computer plays for them")) != 1 || h.table().LeaverPass {
		t.Fatal("the host's switch back is not shown in the lobby")
	}
	h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
	if r := h.command("ben", "leave"); !strings.Contains(r.Data.Content, "a computer player plays for them") {
		t.Fatalf("leaving: %q", r.Data.Content)
	}
	if s := h.table().Seats[1]; s.Computer == "" || s.Left || !s.TakenOver() {
		t.Fatalf("Ben's seat after leaving: %+v", s)
	}
	crossesBefore := h.table().Game.Sheet(1).Crosses()
	h.playAnnaAlone()
	if h.table().Game.Sheet(1).Crosses() == crossesBefore {
		t.Fatal("the computer in Ben's seat crossed nothing all game")
	}
}

// playAnnaAlone plays the game to its end as Anna, the only person at the
// table, failing if it ever waits for anybody else.
func (h *harness) playAnnaAlone() {
	h.t.Helper()
	for step := 0; h.table().Stage == StagePlaying; step++ {
		if step > 500 {
			h.t.Fatal("the game did not end")
		}
		tb := h.table()
		if w := tb.Game.Waiting(); len(w) != 1 || w[0] != 0 {
			h.t.Fatalf("the game waits for %v, want only Anna", w)
		}
		h.clickMove(tb, "anna", goldenMove(tb.Game, 0))
	}
}

// lastHookEdit is the newest edit made through interaction id's token.
func (h *harness) lastHookEdit(id string) *discordgo.WebhookEdit {
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	for i := len(h.dc.edits) - 1; i >= 0; i-- {
		if h.dc.edits[i].interaction == id {
			return h.dc.edits[i].edit
		}
	}
	return nil
}

// Issue: after /qwixx end the hand view still showed a live builder and
// Hint that answered "belongs to an earlier state"; an old hand view
// started following the next card game. A hand view follows the game it
// was opened in: when that game is gone it says so and loses its buttons.
func TestC10HandViewFollowsOnlyItsGame(t *testing.T) {
	for _, how := range []string{"end", "next game"} {
		t.Run(how, func(t *testing.T) {
			h := newHarness(t)
			h.startTwo("cards")
			opened := h.command("ben", "hand")
			view := h.lastID()
			refresh := buttons(opened.Data.Components, "🔄 Refresh")
			if how == "end" {
				h.command("anna", "end")
			} else {
				h.command("anna", "leave")
				h.command("ben", "leave")
				res := h.dc.lastTable(testChannel)
				lobby := h.click("ben", buttons(res.Components, "Play again")[0], res)
				lobby = h.click("anna", buttons(lobby.Data.Components, "Join")[0], nil)
				h.click("ben", buttons(lobby.Data.Components, "Start")[0], nil)
				if h.table().Stage != StagePlaying {
					t.Fatal("no second game")
				}
			}
			e := h.lastHookEdit(view)
			if e == nil || e.Content == nil || !strings.Contains(*e.Content, "is over") || e.Components == nil || len(*e.Components) != 0 {
				t.Fatalf("the hand view after %s: %+v", how, e)
			}
			if how == "next game" {
				// Its Refresh, clicked in the next game, does not follow it.
				if len(refresh) != 1 {
					t.Fatalf("no Refresh in the hand view: %+v", opened.Data.Components)
				}
				r := h.click("ben", refresh[0], ephemeralMsg)
				if r.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(r.Data.Content, "is over") || len(r.Data.Files) != 0 {
					t.Fatalf("old Refresh in the next game: %+v", r.Data)
				}
			}
		})
	}
}

// viewMessage is the message a private view answer shows, as a click on it
// carries it: its content and its picture.
func viewMessage(r *discordgo.InteractionResponse) *discordgo.Message {
	m := &discordgo.Message{ID: "view", Flags: discordgo.MessageFlagsEphemeral, Content: r.Data.Content}
	for _, f := range r.Data.Files {
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: "a1", Filename: f.Name})
	}
	return m
}

// Issue: the hand picture was uploaded again at every step of the play
// builder and at every hint although the hand had not changed. A click in
// a view that shows the same cards keeps its picture: nothing is drawn or
// sent; a new hand (after a take) brings a new picture.
func TestHandPictureSentOnlyWhenTheCardsChange(t *testing.T) {
	h := newHarness(t)
	h.startTable("cards", "anna", "ben")
	for steps := 0; h.table().Game.Phase() != game.PhasePlay; steps++ {
		if steps > 20 {
			t.Fatal("no play phase")
		}
		tb, msg := h.table(), h.dc.lastTable(testChannel)
		for _, p := range tb.Game.Waiting() {
			if takes := buttons(msg.Components, "Take"); len(takes) > 0 {
				h.click(tb.Seats[p].UserID, takes[0], msg)
			} else {
				h.click(tb.Seats[p].UserID, buttons(msg.Components, "Pass")[0], msg)
			}
		}
	}
	tb := h.table()
	user := tb.Seats[tb.Game.Active()].UserID
	hand := h.click(user, buttons(h.dc.lastTable(testChannel).Components, "My cards")[0], h.dc.lastTable(testChannel))
	if len(hand.Data.Files) != 1 {
		t.Fatalf("the hand view has %d pictures", len(hand.Data.Files))
	}
	shown := viewMessage(hand)
	pick := selectMenu(hand.Data.Components, "pick")
	up := h.click(user, pick.CustomID, shown, pick.Options[0].Value)
	if len(up.Data.Files) != 0 || up.Data.Attachments != nil || !strings.Contains(up.Data.Content, view.HandLine(LangFor("en"), tb, tb.Game.Active())) {
		t.Fatalf("a builder step sent %d pictures (attachments %v)", len(up.Data.Files), up.Data.Attachments)
	}
	if hint := buttons(up.Data.Components, "💡 Hint"); len(hint) == 1 {
		if r := h.click(user, hint[0], shown); len(r.Data.Files) != 0 {
			t.Fatalf("the hint sent %d pictures", len(r.Data.Files))
		}
	}
	// A view of other cards (here: without its picture) gets one.
	if r := h.click(user, pick.CustomID, &discordgo.Message{ID: "view", Flags: discordgo.MessageFlagsEphemeral, Content: "Your cards: none"}, pick.Options[0].Value); len(r.Data.Files) != 1 {
		t.Fatalf("a view of other cards got %d pictures", len(r.Data.Files))
	}
}

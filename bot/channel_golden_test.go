package bot

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// The channel as the players read it, golden: a whole seeded game per
// variant is played through the bot (clicks on the live message where the
// game is decided in public, the play builder's button for card plays),
// and after every click the channel's new and changed messages are written
// as text: content, buttons by row (disabled in parentheses, red ones
// marked !), pictures by file name. The file shows the one living message
// per turn, its log line when the turn ends, the results, and that no
// "waiting" or "time runs out" text is left behind.
//
//	go test ./bot -run TestChannelTranscriptGolden -update
func TestChannelTranscriptGolden(t *testing.T) {
	for _, variant := range []string{"dice", "cards", "jokers"} {
		t.Run(variant, func(t *testing.T) {
			got := channelTranscript(t, variant)
			path := "testdata/channel_" + variant + ".golden"
			if *updateGolden {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./bot -run TestChannelTranscriptGolden -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("the channel differs from %s (-update rewrites it); first difference:\n%s", path, firstDiff(string(want), got))
			}
		})
	}
}

// channelTranscript plays a seeded two-player game of the variant and
// returns the channel's transcript.
func channelTranscript(t *testing.T, variant string) string {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTwo(variant)
	var sb strings.Builder
	seen := map[string]string{}
	h.transcribe(&sb, seen, "start")
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatal("the game did not end")
		}
		tb := h.table()
		if tb.Stage != StagePlaying {
			break
		}
		g := tb.Game
		seat := g.Waiting()[0]
		m := goldenMove(g, seat)
		user := tb.Seats[seat].UserID
		label := h.clickMove(tb, user, m)
		// Past the coalescing of edits: what the channel shows settles.
		h.clock.Advance(coalesceEdits)
		h.bot.Tick()
		h.bot.Idle()
		h.transcribe(&sb, seen, user+": "+label)
	}
	final := h.dc.channel[testChannel]
	for _, m := range final {
		for _, stale := range []string{"Waiting for", "Time runs out"} {
			if strings.Contains(m.Content, stale) {
				t.Errorf("after the game message %s still says %q: %q", m.ID, stale, m.Content)
			}
		}
	}
	return sb.String()
}

// goldenMove is the move the transcript's players make: the legal move
// that crosses the leftmost free cell (fewest skipped), passing when every
// cross would skip three or more, and the first legal play or take.
func goldenMove(g *game.Game, seat int) game.Move {
	legal := g.LegalMoves(seat)
	best, bestSkip := game.PassMove(seat), 3
	for _, m := range legal {
		switch m.Kind {
		case game.Take, game.Play:
			if best.Kind == game.Pass {
				best, bestSkip = m, -1
			}
		case game.White, game.Number, game.Colored:
			n := crossNumber(g, m)
			row := g.Sheet(seat).Rows[m.Color]
			pos := game.Position(m.Color, n)
			if skip := pos - row.Last() - 1; skip < bestSkip {
				best, bestSkip = m, skip
			}
		}
	}
	if !slices.ContainsFunc(legal, func(m game.Move) bool { return m == best }) {
		return legal[0]
	}
	return best
}

// crossNumber is the number a crossing move crosses.
func crossNumber(g *game.Game, m game.Move) int {
	switch m.Kind {
	case game.White:
		return g.WhiteSum()
	case game.Number:
		return g.TopNumber()
	}
	d := g.Dice()
	return d[m.White-1] + d[game.DieOf(m.Color)]
}

// clickMove makes move m as user: on the live table message, or for a
// card play with the builder's Play button in the user's hand view.
func (h *harness) clickMove(tb *Table, user string, m game.Move) string {
	h.t.Helper()
	var verb, arg string
	switch m.Kind {
	case game.Pass:
		verb = "pass"
	case game.White:
		verb, arg = "white", m.Color.String()
	case game.Number:
		verb, arg = "number", m.Color.String()
	case game.Colored:
		verb, arg = "color", fmt.Sprintf("%d.%s", m.White, m.Color)
	case game.Take:
		verb, arg = "take", customid.JoinInts(m.TakeNumbers(), "-")
	case game.Play:
		var cross []int
		for n := 2; n <= 12; n++ {
			if m.Cross&(1<<n) != 0 {
				cross = append(cross, n)
			}
		}
		sel := session.PlaySel{Cards: m.CardList(), Color: m.Color, HasColor: true, Cross: cross}
		r := h.click(user, view.ActionID(tb, customid.ViewHand, "play", sel.Encode()), &discordgo.Message{ID: "hand-" + user, Flags: discordgo.MessageFlagsEphemeral})
		if !strings.Contains(r.Data.Content, "You chose") {
			h.t.Fatalf("play %v refused: %q", m, r.Data.Content)
		}
		return "plays " + sel.Encode() + " in the hand view"
	}
	live := h.dc.byID[tb.Shown.Msg]
	id := view.ActionID(tb, customid.ViewTable, verb, arg)
	b, ok := buttonLabel(live.Components, id)
	if live == nil || !ok {
		h.t.Fatalf("the live message offers no %s %s", verb, arg)
	}
	r := h.click(user, id, live)
	if r.Type != discordgo.InteractionResponseUpdateMessage {
		h.t.Fatalf("%s %s on the live message: answered %q", verb, arg, r.Data.Content)
	}
	return "clicks [" + b.Label + "]"
}

// transcribe writes the channel's messages that are new or changed since
// the last call.
func (h *harness) transcribe(sb *strings.Builder, seen map[string]string, what string) {
	fmt.Fprintf(sb, "» %s\n", what)
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	for _, m := range h.dc.channel[testChannel] {
		text := showMessage(m)
		if seen[m.ID] == text {
			continue
		}
		verb := "posted"
		if _, ok := seen[m.ID]; ok {
			verb = "edited"
		}
		seen[m.ID] = text
		fmt.Fprintf(sb, "  %s %s:\n", verb, m.ID)
		for _, line := range strings.Split(text, "\n") {
			fmt.Fprintf(sb, "    %s\n", line)
		}
	}
}

// showMessage is a message as text: content, button rows, pictures.
func showMessage(m *discordgo.Message) string {
	var sb strings.Builder
	sb.WriteString(m.Content)
	for _, row := range m.Components {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		sb.WriteString("\n")
		for _, c := range ar.Components {
			switch b := c.(type) {
			case discordgo.Button:
				label := b.Label
				if b.Style == discordgo.DangerButton {
					label += "!"
				}
				if b.Disabled {
					label = "(" + label + ")"
				}
				sb.WriteString("[" + label + "]")
			case discordgo.SelectMenu:
				sb.WriteString("<" + b.Placeholder + ">")
			}
		}
	}
	for _, a := range m.Attachments {
		sb.WriteString("\n📎 " + a.Filename)
	}
	return sb.String()
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(none)"
}

package bot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

// interactionFuzzer drives a bot with a mix of real and malformed
// interactions drawn from a byte stream, and checks after each one:
//   - it got exactly one answer, and nothing panicked;
//   - one that is not exactly what the bot made (a custom_id it never
//     issued to that user, a mutated one, a component on the wrong kind of
//     message, another guild's or channel's, a DM, a malformed command)
//     changed nothing stored;
//   - nothing private (a hand picture, a hand's cards) reached anything
//     public: a public answer, an update of a public message, a channel
//     message.
type interactionFuzzer struct {
	t   *testing.T
	h   *harness
	src []byte
	pos int
	rng *rand.Rand
	// issued are the custom_ids the bot made, by who may click them ("" =
	// everybody: public messages).
	issued map[string]map[string]bool
	// views are the newest private views, by user: their components.
	views map[string][]discordgo.MessageComponent
	// seen is the content of each channel message when last checked.
	seen map[string]string
	// counts
	n, accepted, forgedCurrent, finished int
	lastStamp                            int
}

var fuzzUsers = []string{"anna", "ben", "cleo", "mallory"}

func newInteractionFuzzer(t *testing.T, variant string, src []byte) *interactionFuzzer {
	h := newHarness(t)
	seed := uint64(len(src))
	if len(src) >= 8 {
		seed = binary.LittleEndian.Uint64(src)
	}
	z := &interactionFuzzer{t: t, h: h, src: src, rng: rand.New(rand.NewPCG(seed, 7)),
		issued: map[string]map[string]bool{}, seen: map[string]string{}, views: map[string][]discordgo.MessageComponent{}}
	resp := h.openTable(variant, "anna", "ben", "cleo")
	z.record("", resp.Data.Components)
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	return z
}

// byte returns the next input byte, or a random one once the input ends.
func (z *interactionFuzzer) byte() byte {
	if z.pos < len(z.src) {
		z.pos++
		return z.src[z.pos-1]
	}
	return byte(z.rng.UintN(256))
}

func (z *interactionFuzzer) pick(n int) int { return int(z.byte()) % n }

// record remembers the custom_ids of components made for who.
func (z *interactionFuzzer) record(who string, comps []discordgo.MessageComponent) {
	for _, id := range buttons(comps, "") {
		if z.issued[id] == nil {
			z.issued[id] = map[string]bool{}
		}
		z.issued[id][who] = true
	}
}

func (z *interactionFuzzer) mayClick(user, id string) bool {
	return z.issued[id][""] || z.issued[id][user]
}

// mutate alters a custom_id the way a forger or a broken client would.
func (z *interactionFuzzer) mutate(id string) string {
	if id == "" {
		return "x"
	}
	switch z.pick(7) {
	case 0: // truncate
		return id[:z.pick(len(id))]
	case 1: // change one character
		b := []byte(id)
		b[z.pick(len(b))] = "abc019:.-#RJrx"[z.pick(14)]
		return string(b)
	case 2: // another view letter
		return strings.Replace(id, ":t:", ":h:", 1)
	case 3: // another stamp, check recomputed
		if a, err := customid.Decode(id); err == nil {
			a.Stamp += 1 + z.pick(3)
			return a.Encode()
		}
		return id + "0"
	case 4: // another verb or argument, check recomputed
		if a, err := customid.Decode(id); err == nil {
			a.Arg = []string{"", "red", "1.blue", "5-9", "R4.r.4", "J7..", "2-2-2"}[z.pick(7)]
			if v := customid.Verbs(a.View); len(v) > 0 {
				a.Verb = v[z.pick(len(v))]
			}
			if _, ok := customid.CanonicalArg(a.Verb, a.Arg); ok {
				return a.Encode()
			}
		}
		return id + ":"
	case 5: // an old version's id
		return "q1:" + strings.TrimPrefix(id, "q2:")
	default:
		return id + string("x:#"[z.pick(3)])
	}
}

// values picks select values: mostly real ones, sometimes junk.
func (z *interactionFuzzer) values(user string) []string {
	pool := []string{"red", "Red", "r", "5", "05", "12", "13", "", "R4", "J7", "B12", "x"}
	if t := z.h.table(); t != nil && t.Game != nil {
		if s := t.SeatOf(user); s >= 0 && t.Variant.CardGame() {
			for _, c := range t.Game.Hand(s) {
				pool = append(pool, c.String(), c.String(), strings.TrimPrefix(fmt.Sprint(c.Number()), ""))
			}
		}
	}
	var out []string
	for range z.pick(4) {
		out = append(out, pool[z.pick(len(pool))])
	}
	return out
}

// step sends one interaction and checks the invariants.
func (z *interactionFuzzer) step() {
	h := z.h
	user := fuzzUsers[z.pick(len(fuzzUsers))]
	if z.pick(10) < 4 {
		z.drive()
		return
	}
	before := h.storedBlob()
	tbl := h.dc.lastTable(testChannel)
	var i *discordgo.Interaction
	legit := false
	publicMsg := true
	switch kind := z.pick(10); {
	case kind < 7: // a component
		var comps []discordgo.MessageComponent
		private := len(z.views[user]) > 0 && z.pick(2) == 0
		if private {
			comps = z.views[user]
		} else if tbl != nil {
			comps = tbl.Components
		}
		ids := buttons(comps, "")
		id := "q2:nothing"
		if len(ids) > 0 {
			id = ids[z.pick(len(ids))]
		}
		var values []string
		a, derr := customid.Decode(id)
		isSelect := derr == nil && a.IsSelect()
		if isSelect {
			values = z.values(user)
		}
		mutated := z.pick(4) == 0
		if mutated {
			id = z.mutate(id)
		}
		msg := &discordgo.Message{ID: "pub"}
		if tbl != nil {
			msg = tbl
		}
		wrongKind := z.pick(8) == 0
		if private != wrongKind {
			msg = &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}
			publicMsg = false
		}
		ctype := discordgo.ButtonComponent
		if isSelect != (z.pick(10) == 0) {
			ctype = discordgo.SelectMenuComponent
		}
		if z.pick(12) == 0 {
			msg = nil
		}
		i = h.interaction(user, discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: ctype, Values: values}, msg)
		// What the bot made for the state now, or exactly like it: its
		// table, its stamp, the kind of message and component of its view.
		cur := h.table()
		if cur != nil {
			z.lastStamp = cur.Stamp()
		}
		a2, err := customid.Decode(id)
		isSelect2 := err == nil && a2.IsSelect()
		legit = err == nil && msg != nil && cur != nil && a2.Table == cur.ID && a2.Stamp == cur.Stamp() &&
			(msg.Flags&discordgo.MessageFlagsEphemeral != 0) == a2.View.Private() &&
			(ctype == discordgo.SelectMenuComponent) == isSelect2
		if legit && !z.mayClick(user, id) {
			z.forgedCurrent++ // well-formed for the state now, though never shown to this user
		}
	case kind < 9: // a command
		subs := []string{"new", "sheet", "hand", "settings", "rules", "help", "fly", ""}
		if z.pick(6) == 0 { // now and then, what ends seats or tables
			subs = []string{"leave", "remove", "end"}
		}
		sub := subs[z.pick(len(subs))]
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		for range z.pick(3) {
			names := []string{"variant", "games", "player", "timeout", "x"}
			types := []discordgo.ApplicationCommandOptionType{discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionBoolean}
			vals := []any{"dice", "cards", 2.0, 2.5, -1.0, "ben", "cleo", nil, true, 1e300}
			opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: names[z.pick(len(names))], Type: types[z.pick(len(types))], Value: vals[z.pick(len(vals))]})
		}
		data := discordgo.ApplicationCommandInteractionData{Name: "qwixx"}
		if sub != "" {
			data.Options = []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}
		}
		i = h.interaction(user, discordgo.InteractionApplicationCommand, data, nil)
		legit = true // commands may change the table by design (new, leave, end)
	default: // other interaction types
		types := []discordgo.InteractionType{discordgo.InteractionPing, discordgo.InteractionApplicationCommandAutocomplete, discordgo.InteractionModalSubmit, 9}
		typ := types[z.pick(len(types))]
		var data discordgo.InteractionData
		switch typ {
		case discordgo.InteractionModalSubmit:
			data = discordgo.ModalSubmitInteractionData{CustomID: "q2:x"}
		case discordgo.InteractionApplicationCommandAutocomplete:
			data = discordgo.ApplicationCommandInteractionData{Name: "qwixx"}
		}
		i = h.interaction(user, typ, data, nil)
	}
	// Somewhere else: another guild, another channel, a DM.
	switch z.pick(16) {
	case 0: // another guild may open a table where there is none
		i.GuildID, legit = "g2", legit && before == nil
	case 1:
		i.ChannelID, legit = "c2", false
	case 2:
		i.GuildID, i.Member, i.User, legit = "", nil, &discordgo.User{ID: user, Username: user}, false
	}
	h.bot.Handle(i)
	h.bot.Idle()
	z.n++
	h.dc.mu.Lock()
	resp := h.dc.responses[i.ID]
	h.dc.mu.Unlock()
	if resp == nil {
		z.t.Fatalf("interaction %d (%+v) got no answer", z.n, i.Data)
	}
	if strings.Contains(h.logs.String(), "panicked") {
		z.t.Fatalf("interaction %d (%+v) panicked:\n%s", z.n, i.Data, h.logs.String())
	}
	after := h.storedBlob()
	changed := !bytes.Equal(before, after)
	if changed && !legit {
		z.t.Fatalf("interaction %d by %s in %s/%s (%+v, message %v) was not one the bot made, yet changed the table (stamp before %d); answer %+v", z.n, user, i.GuildID, i.ChannelID, i.Data, i.Message != nil && i.Message.Flags != 0, z.lastStamp, resp.Data)
	}
	if changed {
		z.accepted++
	}
	// Nothing private in anything public.
	if resp.Data != nil {
		ephemeralAnswer := resp.Type == discordgo.InteractionResponseChannelMessageWithSource && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
		updatesPublic := resp.Type == discordgo.InteractionResponseUpdateMessage && publicMsg
		public := (resp.Type == discordgo.InteractionResponseChannelMessageWithSource && !ephemeralAnswer) || updatesPublic
		if public {
			z.checkPublic(fmt.Sprintf("answer %d", z.n), resp.Data.Content, resp.Data.Files)
			z.record("", resp.Data.Components)
		} else if resp.Data.Components != nil {
			z.views[user] = resp.Data.Components
			z.record(user, resp.Data.Components)
		}
	}
	z.checkChannel()
}

// drive moves the game on as players would: a waiting player clicks one of
// the public buttons, a turn timer runs out, a finished game is played
// again, a deleted table is opened anew.
func (z *interactionFuzzer) drive() {
	h := z.h
	t := h.table()
	switch {
	case t == nil:
		resp := h.command("anna", "new", strOpt("variant", []string{"dice", "cards", "jokers"}[z.pick(3)]))
		for _, u := range []string{"ben", "cleo"} {
			if j := buttons(resp.Data.Components, "Join"); len(j) == 1 {
				resp = h.click(u, j[0], nil)
			}
		}
		if st := buttons(resp.Data.Components, "Start"); len(st) == 1 {
			h.click("anna", st[0], nil)
		}
	case t.Stage == StageLobby:
		h.command("anna", "end")
	case t.Stage == StageOver:
		z.finished++
		if m := h.dc.lastTable(testChannel); m != nil {
			if again := buttons(m.Components, "Play again"); len(again) == 1 {
				h.click(t.Seats[0].UserID, again[0], m)
			}
		}
	case t.Game.Phase() == game.PhasePlay || z.pick(12) == 0:
		h.clock.Advance(t.Deadline.Add(time.Second).Sub(h.clock.Now()))
		h.bot.Tick()
		h.bot.Idle()
	default:
		waiting := t.Game.Waiting()
		if len(waiting) == 0 {
			return
		}
		u := t.Seats[waiting[z.pick(len(waiting))]].UserID
		m := h.dc.lastTable(testChannel)
		if m == nil {
			z.t.Fatalf("no table message with buttons while the game runs (stalled): shown %+v, log:\n%s", t.Shown, h.logs.String())
		}
		var ids []string
		for _, id := range buttons(m.Components, "") {
			if a, err := customid.Decode(id); err == nil && a.Verb != "sheet" && a.Verb != "hand" {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			h.click(u, ids[z.pick(len(ids))], m)
		}
	}
	z.checkChannel()
}

// checkChannel checks every channel message for private content.
func (z *interactionFuzzer) checkChannel() {
	z.h.dc.mu.Lock()
	var msgs []discordgo.Message
	for _, m := range z.h.dc.channel[testChannel] {
		if z.seen[m.ID] != m.Content {
			msgs = append(msgs, *m)
			z.seen[m.ID] = m.Content
		}
	}
	z.h.dc.mu.Unlock()
	for _, m := range msgs {
		var files []*discordgo.File
		for _, a := range m.Attachments {
			files = append(files, &discordgo.File{Name: a.Filename})
		}
		z.checkPublic("channel message "+m.ID, m.Content, files)
		z.record("", m.Components)
	}
}

// checkPublic fails when public text or files show a hand.
func (z *interactionFuzzer) checkPublic(what, content string, files []*discordgo.File) {
	for _, f := range files {
		if f.Name == view.HandFile {
			z.t.Fatalf("%s carries the hand picture", what)
		}
	}
	if strings.Contains(content, "Your cards") {
		z.t.Fatalf("%s shows a hand: %q", what, content)
	}
	// Played cards are public (RULES C10), and may be in a hand again
	// after a reshuffle: only the rest must name no card in a hand.
	var rest []string
	for _, line := range strings.Split(content, "\n") {
		if !strings.Contains(line, " played ") {
			rest = append(rest, line)
		}
	}
	content = strings.Join(rest, "\n")
	t := z.h.table()
	if t == nil || t.Game == nil || !t.Variant.CardGame() {
		return
	}
	for p := range t.Seats {
		for _, c := range t.Game.Hand(p) {
			if strings.Contains(content, view.CardName(LangFor("en"), c)) {
				z.t.Fatalf("%s names %s's card %s: %q", what, t.Seats[p].Name, view.CardName(LangFor("en"), c), content)
			}
		}
	}
}

func runInteractionFuzz(t *testing.T, variant string, src []byte, steps int) *interactionFuzzer {
	z := newInteractionFuzzer(t, variant, src)
	for range steps {
		z.step()
	}
	return z
}

// A deterministic run of the interaction fuzzer for CI: thousands of
// interactions over dice, card and joker tables.
func TestInteractionFuzzWalk(t *testing.T) {
	total, accepted, finished := 0, 0, 0
	for k, variant := range []string{"dice", "cards", "jokers", "cards"} {
		src := binary.LittleEndian.AppendUint64(nil, uint64(k*7919+1))
		z := runInteractionFuzz(t, variant, src, 1000)
		total += z.n
		accepted += z.accepted
		finished += z.finished
	}
	if accepted < 30 || finished < 3 {
		t.Fatalf("%d of %d fuzzed interactions changed a table, %d games finished: the walk does not reach the game", accepted, total, finished)
	}
	t.Logf("%d fuzzed interactions (%d changed a table), %d finished games: every one answered, no refused one changed anything, nothing private in public", total, accepted, finished)
}

func FuzzInteractions(f *testing.F) {
	f.Add([]byte("dice-seed-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 9, 9, 200, 201, 202})
	f.Add(bytes.Repeat([]byte{0x5a}, 64))
	f.Fuzz(func(t *testing.T, src []byte) {
		variant := []string{"dice", "cards", "jokers"}[len(src)%3]
		runInteractionFuzz(t, variant, src, 60)
	})
}

package bot

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/qwixxbot/qwixxbot/bot/workers"
	"github.com/qwixxbot/qwixxbot/game"
)

// BenchmarkGameThroughClicks plays whole two-player dice and card games
// through the players' clicks (a dice move: open the sheet, click a
// choice; a card game's: a take button, the sheet for the number for
// everyone, the hand view's pick and Play for a play), the bot
// drawing its real pictures (PictureCache over Images) and keeping its
// tables in the test store: time per click, the bot's own work without
// Discord or a disk, and its garbage per click (B/click, allocs/click; the
// B/op and allocs/op are per game). "tiny" draws stand-in pictures of a
// few bytes: the click path's garbage without the pictures'. "dice/live"
// plays on the live message's own buttons, each click answered by an
// update of it (Options.LiveAnswers). Compare two
// versions in one session:
//
//	go test ./bot -run '^$' -bench GameThroughClicks -cpu 1 -count 5
func BenchmarkGameThroughClicks(b *testing.B) {
	// The bot's own work: no checks of the kept live views and tables.
	defer func(v, s bool) { verifyLiveMemo, verifyShared = v, s }(verifyLiveMemo, verifyShared)
	verifyLiveMemo, verifyShared = false, false
	for _, variant := range []string{"dice", "cards", "dice/live"} {
		for _, pictures := range []string{"real", "tiny"} {
			name := variant
			if pictures == "tiny" {
				name += "/tiny"
			} else if variant == "dice/live" {
				continue
			}
			b.Run(name, func(b *testing.B) {
				h := newHarness(b)
				if pictures == "real" {
					h.pictures = NewPictureCache(Images{}, 16<<20)
				}
				h.bot = h.newBot()
				h.bot.opt.LiveAnswers = variant == "dice/live"
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				clicks := 0
				for b.Loop() {
					switch variant {
					case "dice":
						h.startTwo(variant)
						clicks += 2 + h.playToEnd()
					case "cards":
						h.startTwo(variant)
						clicks += 2 + h.playCardsByHand()
					default:
						h.startTwo("dice")
						clicks += 2 + h.playOnTheLiveMessage()
					}
					h.clock.Advance(time.Minute)
					h.dc.forgetFiles()
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(clicks), "ns/click")
				b.ReportMetric(float64(clicks)/float64(b.N), "clicks/game")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(clicks), "B/click")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(clicks), "allocs/click")
			})
		}
	}
}

// playOnTheLiveMessage plays the running game to its end through the
// buttons of the table's live message (each click answered by an
// update of it: Options.LiveAnswers), as most players play, and counts
// the clicks.
func (h *harness) playOnTheLiveMessage() (clicks int) {
	h.t.Helper()
	h.untilOver(func(tb *Table, p, _ int) {
		h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
		clicks++
	})
	return clicks
}

// playCardsByHand plays the running card game to its end through the
// players' clicks, one card a play, and counts them.
func (h *harness) playCardsByHand() (clicks int) {
	h.t.Helper()
	eph := &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}
	click := func(user, id string, msg *discordgo.Message, values ...string) *discordgo.InteractionResponse {
		clicks++
		return h.click(user, id, msg, values...)
	}
	for steps := 0; h.table().Stage == StagePlaying; steps++ {
		if steps > 3000 {
			h.t.Fatal("game did not end")
		}
		tb := h.table()
		p := tb.Game.Waiting()[0]
		user := tb.Seats[p].UserID
		msg := h.dc.lastTable(testChannel)
		switch tb.Game.Phase() {
		case game.PhaseTake:
			takes := buttons(msg.Components, "Take")
			if len(takes) == 0 {
				h.t.Fatal("no take buttons on the table")
			}
			click(user, takes[steps%len(takes)], msg)
		case game.PhaseNumber:
			sheet := click(user, buttons(msg.Components, "My sheet")[0], msg)
			// A hint is the computer players' search, not the click
			// path: not clicked here.
			hints := buttons(sheet.Data.Components, "💡")
			ids := slices.DeleteFunc(buttons(sheet.Data.Components, ""), func(id string) bool { return slices.Contains(hints, id) })
			if len(ids) == 0 {
				h.t.Fatalf("player %s may act but the sheet offers nothing", user)
			}
			click(user, ids[steps%len(ids)], eph)
		case game.PhasePlay:
			hand := click(user, buttons(msg.Components, "My cards")[0], msg)
			pick := selectMenu(hand.Data.Components, "pick")
			if pick == nil {
				h.t.Fatal("the hand view has no pick menu")
			}
			up := click(user, pick.CustomID, eph, pick.Options[steps%len(pick.Options)].Value)
			if as := selectMenu(up.Data.Components, "as"); as != nil {
				up = click(user, as.CustomID, eph, as.Options[0].Value)
			}
			play := buttons(up.Data.Components, "Play")
			if len(play) == 0 {
				if cross := selectMenu(up.Data.Components, "cross"); cross != nil {
					up = click(user, cross.CustomID, eph)
					play = buttons(up.Data.Components, "Play")
				}
			}
			if len(play) != 1 {
				h.t.Fatalf("no Play button: %q", up.Data.Content)
			}
			if r := click(user, play[0], eph); r.Type != discordgo.InteractionResponseUpdateMessage {
				h.t.Fatalf("play refused: %+v", r.Data)
			}
		default:
			h.t.Fatalf("phase %s", tb.Game.Phase())
		}
	}
	return clicks
}

// BenchmarkClickOnGoroutine plays whole two-player dice games through the
// players' clicks as BenchmarkGameThroughClicks/dice does (real
// pictures), each click handled as in production on a goroutine other
// than the benchmark's: "go" on a new goroutine each, the reconciler's
// work and edits in flight too (spawn, as before the workers pool);
// "pool" on the workers pool's reused goroutines, everything as the bot
// runs now. The difference is mostly the stack growth of fresh goroutines
// (runtime.newstack in a -cpuprofile). Compare the two in one session:
//
//	go test ./bot -run '^$' -bench ClickOnGoroutine -cpu 1 -count 6
func BenchmarkClickOnGoroutine(b *testing.B) {
	defer func(v, s bool) { verifyLiveMemo, verifyShared = v, s }(verifyLiveMemo, verifyShared)
	verifyLiveMemo, verifyShared = false, false
	defer func(f func(func())) { spawn = f }(spawn)
	for _, how := range []string{"go", "pool"} {
		b.Run(how, func(b *testing.B) {
			run := workers.Go
			if how == "go" {
				run = func(f func()) { go f() }
			}
			spawn = run
			h := newHarness(b)
			h.pictures = NewPictureCache(Images{}, 16<<20)
			h.bot = h.newBot()
			done := make(chan struct{}, 1)
			h.deliver = func(i *discordgo.Interaction) {
				run(func() { h.bot.Handle(i); done <- struct{}{} })
				<-done
			}
			b.ReportAllocs()
			clicks := 0
			for b.Loop() {
				h.startTwo("dice")
				clicks += 2 + h.playToEnd()
				h.clock.Advance(time.Minute)
				h.dc.forgetFiles()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(clicks), "ns/click")
			b.ReportMetric(float64(clicks)/float64(b.N), "clicks/game")
		})
	}
}

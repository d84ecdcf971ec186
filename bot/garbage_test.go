package bot

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot/discordjson"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// fingerprintAsBefore is fingerprint as the bot always computed it: the
// live messages' stored revisions (Shown.Rev, Shown.Pic) stay valid.
func fingerprintAsBefore(vs ...any) string {
	h := fnv.New64a()
	for _, v := range vs {
		b, _ := json.Marshal(v)
		h.Write(b)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func controlsFingerprintAsBefore(content string, comps []discordgo.MessageComponent) string {
	h := fnv.New64a()
	b, _ := json.Marshal(content)
	h.Write(b)
	b, _ = discordjson.ComponentsJSON(comps)
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestFingerprintsAsBefore: the fingerprints, hashed from pooled buffers,
// are the ones hashed from json.Marshal's copies and printed with
// fmt.Sprintf, for live views through whole dice and card games and for
// texts JSON escapes.
func TestFingerprintsAsBefore(t *testing.T) {
	check := func(content string, comps []discordgo.MessageComponent, vs ...any) {
		t.Helper()
		if got, want := controlsFingerprint(content, comps), controlsFingerprintAsBefore(content, comps); got != want {
			t.Errorf("controlsFingerprint(%q) = %s, want %s", content, got, want)
		}
		if got, want := fingerprint(vs...), fingerprintAsBefore(vs...); got != want {
			t.Errorf("fingerprint(%v) = %s, want %s", vs, got, want)
		}
	}
	check("<@1> & \"Ben\" > 5 €\n\t\\", nil, "<&>", 0, nil, map[string]int{"b": 1, "a": 2})
	check("", []discordgo.MessageComponent{}, func() {}) // not JSON: nothing hashed, either way
	for _, variant := range []string{"dice", "cards"} {
		h := newHarness(t)
		h.bot.opt.LiveAnswers = true // moves answered on the live message (clickMove)
		h.startTwo(variant)
		views := 0
		for step := 0; h.table().Stage == StagePlaying && step < 40; step++ {
			tb := h.table()
			v := view.LiveTurn(tb)
			check(v.Content, v.Components, v.Picture)
			check(v.Content, v.Components, v.Picture, v.Content)
			views++
			p := tb.Game.Waiting()[0]
			h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
		}
		if views < 20 {
			t.Errorf("%s: only %d views compared", variant, views)
		}
	}
}

// TestLiveViewReusedOnlyForTheSameTable: a reconciler's step reuses the
// live view it computed for another copy of the same stored table (the
// same buttons, not built again), and computes it afresh when the game or
// a field the view reads differs (a move, the deadline, a player's name,
// the news, the language); the reused view is the fresh one (the
// package's tests verify every reuse: verifyLiveMemo).
func TestLiveViewReusedOnlyForTheSameTable(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	var memo liveMemo
	first := memo.view(h.table(), nil)
	again := memo.view(h.table(), nil)
	if len(first.comps) == 0 || &again.comps[0] != &first.comps[0] || again.rev != first.rev || again.content != first.content {
		t.Fatalf("the same table's view was built again (or differs): %q / %q", first.content, again.content)
	}
	changes := map[string]func(tb *Table){
		"deadline": func(tb *Table) { tb.Deadline = tb.Deadline.Add(time.Minute) },
		"name":     func(tb *Table) { tb.Seats[0].Name = "Zoe" },
		"news": func(tb *Table) {
			tb.News = append(tb.News, session.News{Turn: tb.Game.Turn(), Event: session.NewsTimeout, Seat: 1})
		},
		"language": func(tb *Table) { tb.Lang = "de" },
		"stamp":    func(tb *Table) { tb.Seq++ },
	}
	for what, change := range changes {
		tb := h.table()
		change(tb)
		w := memo.view(tb, nil)
		if &w.comps[0] == &first.comps[0] {
			t.Errorf("%s changed: the old view was reused", what)
		}
		fresh, comps, _, rev, _ := liveView(tb)
		if w.content != fresh || w.rev != rev || fingerprint(w.comps) != fingerprint(comps) {
			t.Errorf("%s changed: view %q, afresh %q", what, w.content, fresh)
		}
		memo.view(h.table(), nil) // back to the stored table
	}
	tb := h.table()
	p := tb.Game.Waiting()[0]
	h.bot.opt.LiveAnswers = true
	h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
	moved := h.table()
	if bytes.Equal(moved.Snapshot, tb.Snapshot) {
		t.Fatal("the move did not change the game's snapshot")
	}
	w := memo.view(moved, nil)
	if fresh, _, _, rev, _ := liveView(moved); w.content != fresh || w.rev != rev {
		t.Errorf("after a move: view %q, afresh %q", w.content, fresh)
	}
}

// TestSharedTableIsTheKeptOne: readers of the table that never change it
// (the private views) share the table kept for the stored bytes instead
// of a copy each, while loadTable still hands out copies; and the check
// the package's tests run on every read of a kept table (verifyShared)
// catches a reader that changed the shared table.
func TestSharedTableIsTheKeptOne(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	ctx := context.Background()
	a, err := h.bot.loadTableShared(ctx, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.bot.loadTableShared(ctx, testChannel)
	c, _ := h.bot.loadTable(ctx, testChannel)
	if a != b || c == a || c.Game == a.Game {
		t.Fatalf("shared %p, %p; copy %p (its game %p, the shared one's %p)", a, b, c, c.Game, a.Game)
	}
	// A sheet drawn from the shared table leaves it as stored.
	msg := h.dc.lastTable(testChannel)
	h.click("anna", buttons(msg.Components, "My sheet")[0], msg)
	if d, _ := h.bot.loadTableShared(ctx, testChannel); d != a {
		t.Fatal("the sheet view changed what is kept")
	}
	name := a.Seats[0].Name
	a.Seats[0].Name = "Mallory"
	defer func() {
		if recover() == nil {
			t.Error("a changed kept table went unnoticed")
		}
		a.Seats[0].Name = name
	}()
	h.bot.loadTable(ctx, testChannel)
}

// TestKeyedMutexExcludesAndReuses: work under one key is serialised
// (counted without atomics, under the race detector too) while other keys
// go on; once all is unlocked no key is left behind, and a lock reuses a
// freed entry: it allocates nothing.
func TestKeyedMutexExcludesAndReuses(t *testing.T) {
	var k keyedMutex
	keys := []string{"c1", "c2", "c3"}
	counts := make([]int, len(keys))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				j := (g + i) % len(keys)
				unlock := k.Lock(keys[j])
				counts[j]++
				unlock()
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	if total != 8*200 {
		t.Fatalf("counted %d of %d", total, 8*200)
	}
	if len(k.m) != 0 {
		t.Fatalf("%d keys left locked", len(k.m))
	}
	if n := testing.AllocsPerRun(100, func() { k.Lock("c1")() }); n != 0 {
		t.Errorf("a lock allocates %.1f", n)
	}
	// Held, its key is locked: a second locker waits for the unlock.
	unlock := k.Lock("c1")
	got := make(chan struct{})
	go func() { k.Lock("c1")(); close(got) }()
	select {
	case <-got:
		t.Fatal("a second holder of c1")
	case <-time.After(20 * time.Millisecond):
	}
	unlock()
	<-got
}

// TestRequestLogNamesItsInteraction: a request's logger, made only when
// the request logs, names the interaction, the channel and the user; the
// reconciler's messages name the channel.
func TestRequestLogNamesItsInteraction(t *testing.T) {
	h := newHarness(t)
	i := h.interaction("anna", discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: "x"}, nil)
	r := h.bot.newRequest(i)
	if n := testing.AllocsPerRun(10, func() { h.bot.newRequest(i).cancel() }); n > 5 {
		t.Errorf("a request costs %.0f allocations", n) // 6 with a sub-logger made at once
	}
	r.log.Warn().Msg("hello")
	r.cancel()
	logged := h.logs.String()
	for _, want := range []string{`"interaction":"` + i.ID + `"`, `"channel":"c1"`, `"user":"anna"`, `"message":"hello"`} {
		if !strings.Contains(logged, want) {
			t.Errorf("the request's log %s lacks %s", logged, want)
		}
	}
}

// TestReconcileWaitsOnceUntilKicked: the reconciler's wait for a kick is
// made again only after a kick (a step not kicked keeps it), and when it
// is done none is left behind.
func TestReconcileWaitsOnceUntilKicked(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	h.bot.Idle()
	h.bot.refresh.mu.Lock()
	defer h.bot.refresh.mu.Unlock()
	if n := len(h.bot.refresh.waiters); n != 0 {
		t.Errorf("%d keys still waited on: %v", n, h.bot.refresh.waiters)
	}
	open := make(chan struct{})
	if closed(open) {
		t.Error("an open channel reads as closed")
	}
	close(open)
	if !closed(open) {
		t.Error("a closed channel reads as open")
	}
}

// TestStepTableSharesOnlyWhatStepsLeave: the reconciler's step gets a
// table of its own fields and Shown (its past turns too) over the kept
// table's game, seats and news; what a step changes there leaves the kept
// table as stored.
func TestStepTableSharesOnlyWhatStepsLeave(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	h.playToEnd() // past turns to show
	h.bot.Idle()
	ctx := context.Background()
	kept, _ := h.bot.loadTableShared(ctx, testChannel)
	st, err := h.bot.loadTableShown(ctx, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	if st == kept || st.Game != kept.Game {
		t.Fatalf("step table %p (game %p), kept %p (game %p)", st, st.Game, kept, kept.Game)
	}
	st.Shown.Msg, st.Shown.At, st.Seq = "other", time.Now(), st.Seq+5
	st.Shown.Past = append(st.Shown.Past[:0], PastTurn{Msg: "m", Line: "l"})
	v, _ := h.bot.decoded.Load(testChannel)
	d := v.(*decodedTable)
	if d.t != kept {
		t.Fatal("the kept table was replaced")
	}
	d.check() // panics when the step's changes reached the kept table
	if len(kept.Shown.Past) > 0 && kept.Shown.Past[0].Msg == "m" {
		t.Error("the step's past turns are the kept table's")
	}
}

// TestKeepShownSharesTheGame: a table the reconciler saves is kept with
// its game shared, not copied, and with its own Shown: what the step
// changes in its table after the save leaves the kept one as stored.
func TestKeepShownSharesTheGame(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	h.playToEnd()
	h.bot.Idle()
	ctx := context.Background()
	st, err := h.bot.loadTableShown(ctx, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	st.Shown.Past = append(st.Shown.Past, PastTurn{Msg: "m1", Line: "a line"})
	if _, err := h.bot.saveTableShown(ctx, testChannel, st); err != nil {
		t.Fatal(err)
	}
	v, _ := h.bot.decoded.Load(testChannel)
	d := v.(*decodedTable)
	if d.t == st || d.t.Game != st.Game {
		t.Fatalf("kept %p (game %p), saved %p (game %p)", d.t, d.t.Game, st, st.Game)
	}
	st.Shown.Past[len(st.Shown.Past)-1].Line = "changed after the save"
	st.Shown.Msg = "changed"
	d.check()
	if got := d.t.Shown.Past[len(d.t.Shown.Past)-1].Line; got != "a line" {
		t.Errorf("the kept past turn reads %q", got)
	}
}

// TestReconcilerTakesTheAnsweredView: a move clicked on the live message
// is answered with the message's new view, which the reconciler then
// takes for the same table instead of computing it again (checked against
// the view afresh: verifyLiveMemo); another table's view is not taken.
func TestReconcilerTakesTheAnsweredView(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTwo("dice")
	h.bot.Idle()
	tb := h.table()
	p := tb.Game.Waiting()[0]
	h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
	answered := h.bot.answeredLiveOf(testChannel)
	if answered == nil || len(answered.w.comps) == 0 {
		t.Fatal("the click's live answer was not noted")
	}
	var memo liveMemo
	after := h.table()
	w := memo.view(after, answered)
	if &w.comps[0] != &answered.w.comps[0] {
		t.Error("the reconciler computed the answered view again")
	}
	if fresh, _, _, rev, _ := liveView(after); w.content != fresh || w.rev != rev {
		t.Errorf("answered view %q, afresh %q", w.content, fresh)
	}
	other := h.table()
	other.Deadline = other.Deadline.Add(time.Minute)
	var memo2 liveMemo
	if w := memo2.view(other, answered); &w.comps[0] == &answered.w.comps[0] {
		t.Error("another table's view was taken")
	}
}

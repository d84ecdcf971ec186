package discordtest

import (
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/clock"
)

// Lean mode keeps no history for long load runs: no request log, no
// message events for watchers (OnMessage gets them), and interactions and
// ephemeral messages are forgotten once their tokens have expired, so the
// server's memory does not grow with the number of interactions. What
// load runs measure stays: RouteStats and each interaction's latency.
func TestLeanKeepsNoHistory(t *testing.T) {
	clock := clock.NewFake(time.Time{})
	var mu sync.Mutex
	events := 0
	h := newHarness(t, Options{Clock: clock, Lean: true, DisableSchema: true, OnMessage: func(MessageEvent) {
		mu.Lock()
		events++
		mu.Unlock()
	}})
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "only for you", Flags: discordgo.MessageFlagsEphemeral}})
	})
	w := h.srv.Watch(h.ch)
	const n = 150
	var first *Interaction
	for k := range n {
		it, err := h.alice.Command(h.ch, "qwixx", "hand", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := it.WaitResponse(ctx(t)); err != nil {
			t.Fatal(err)
		}
		if d, ok := it.Latency(); !ok || d <= 0 || it.Failed() { // answered, within the deadline
			t.Fatalf("interaction %d: latency %v, answered %v", k, d, ok)
		}
		if it.Payload() != nil {
			t.Fatal("the payload of an interaction was kept")
		}
		if k == 0 {
			first = it
		}
		if k%50 == 0 {
			clock.Advance(TokenLifetime + 2*time.Minute) // the tokens so far expire
		}
	}
	if got := len(h.srv.Requests()); got != 0 {
		t.Errorf("%d requests logged", got)
	}
	if _, err := w.NextTimeout(50 * time.Millisecond); err == nil {
		t.Error("a watcher saw a message event")
	}
	mu.Lock()
	if events != n {
		t.Errorf("OnMessage got %d events, want %d", events, n)
	}
	mu.Unlock()
	h.srv.mu.Lock()
	_, kept := h.srv.interactions[first.ID()]
	its, msgs := len(h.srv.interactions), len(h.srv.messages)
	h.srv.mu.Unlock()
	if kept || its > n/2 {
		t.Errorf("the expired interaction kept: %v; %d of %d interactions held", kept, its, n)
	}
	if msgs > n/2 {
		t.Errorf("%d of %d ephemeral answers held", msgs, n)
	}
	var callbacks int64
	for _, r := range h.srv.RouteStats() {
		if r.Route == "POST /interactions/{iid}/{token}/callback" {
			callbacks = r.Requests
			if !r.Exempt || r.Bytes == 0 || r.Failed != 0 {
				t.Errorf("callback stats %+v", r)
			}
		}
	}
	if callbacks != n {
		t.Errorf("RouteStats counted %d callbacks, want %d", callbacks, n)
	}
}

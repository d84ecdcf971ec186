package discordtest

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestNewestHonoursVisibility(t *testing.T) {
	h := newHarness(t, Options{})
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4,
			Data: &discordgo.InteractionResponseData{Content: "secret", Flags: discordgo.MessageFlagsEphemeral}})
	})
	if _, ok := h.srv.Newest(h.ch); ok {
		t.Error("Newest of an empty channel")
	}
	m1, _ := h.sess.ChannelMessageSend(h.ch, "one")
	m2, _ := h.sess.ChannelMessageSend(h.ch, "two")
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	eph, err := it.WaitResponse(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		for _, c := range []struct {
			who  string
			get  func(string) (*Message, bool)
			list func(string) []*Message
		}{{"server", h.srv.Newest, h.srv.Messages}, {"alice", h.alice.Newest, h.alice.Messages},
			{"alice (LastMessage)", h.alice.LastMessage, h.alice.Messages}, {"bob", h.bob.Newest, h.bob.Messages}} {
			ms := c.list(h.ch)
			m, ok := c.get(h.ch)
			if ok != (len(ms) > 0) || (ok && (m.ID != ms[len(ms)-1].ID || m.Content != ms[len(ms)-1].Content)) {
				t.Errorf("%s: %s Newest = %+v %v, want the last of %d visible messages", when, c.who, m, ok, len(ms))
			}
		}
	}
	check("start")
	if m, _ := h.alice.Newest(h.ch); m.ID != eph.ID {
		t.Errorf("alice's newest %s, want her ephemeral %s", m.ID, eph.ID)
	}
	if m, _ := h.bob.Newest(h.ch); m.ID != m2.ID {
		t.Errorf("bob's newest %s, want %s", m.ID, m2.ID)
	}
	// An edit shows; the newest is a copy, not the stored message.
	if _, err := h.sess.ChannelMessageEdit(h.ch, m2.ID, "two'"); err != nil {
		t.Fatal(err)
	}
	m, _ := h.srv.Newest(h.ch)
	m.Content = "scribbled"
	check("after edit")
	if err := h.sess.InteractionResponseDelete(&discordgo.Interaction{AppID: h.srv.ApplicationID(), Token: it.Token()}); err != nil {
		t.Fatal(err)
	}
	check("ephemeral deleted")
	_ = h.sess.ChannelMessageDelete(h.ch, m2.ID)
	check("m2 deleted")
	if m, _ := h.bob.Newest(h.ch); m.ID != m1.ID {
		t.Errorf("after deletes: %s, want %s", m.ID, m1.ID)
	}
	m3, _ := h.sess.ChannelMessageSend(h.ch, "three")
	check("m3 posted")
	_ = h.sess.ChannelMessageDelete(h.ch, m1.ID)
	_ = h.sess.ChannelMessageDelete(h.ch, m3.ID)
	check("all deleted")
	if _, ok := h.bob.Newest(h.alice.DMChannel()); ok {
		t.Error("bob sees the newest message of alice's DM channel")
	}
	if _, ok := h.srv.Newest("404"); ok {
		t.Error("Newest of an unknown channel")
	}
}

// postDirect stores n public bot messages in channel ch without REST.
func postDirect(s *Server, ch string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[ch]
	for range n {
		s.insertLocked(&Message{ChannelID: ch, GuildID: c.guildID, Content: "x"})
	}
}

// Not parallel: AllocsPerRun counts every allocation of the process.
func TestNewestDoesNotCopyTheChannel(t *testing.T) {
	srv := NewTestServer(t, Options{DisableSchema: true})
	small, big := srv.AddChannel(srv.DefaultGuild(), "small"), srv.AddChannel(srv.DefaultGuild(), "big")
	u := srv.AddUser("alice", "")
	postDirect(srv, small, 3)
	postDirect(srv, big, 3000)
	allocs := func(f func()) float64 { return testing.AllocsPerRun(20, f) }
	for _, c := range []struct {
		name string
		f    func(string)
	}{
		{"Server.Newest", func(ch string) { srv.Newest(ch) }},
		{"User.Newest", func(ch string) { u.Newest(ch) }},
		{"User.LastMessage", func(ch string) { u.LastMessage(ch) }},
	} {
		// One message copied, whatever the channel's size (a little
		// slack for the runtime's own background allocations).
		a, b := allocs(func() { c.f(small) }), allocs(func() { c.f(big) })
		if a > 20 || b > a+3 {
			t.Errorf("%s allocates %v for 3 messages and %v for 3000: it copies the channel", c.name, a, b)
		}
	}
	// Messages, for contrast, copies every message.
	if b := allocs(func() { srv.Messages(big) }); b < 3000 {
		t.Errorf("Messages allocates %v for 3000 messages: the contrast is gone", b)
	}

	// Deleted messages at the tail are cut off the index once.
	srv.mu.Lock()
	c := srv.channels[big]
	for _, id := range c.messages[1000:] {
		srv.messages[id].Deleted = true
	}
	want := c.messages[999]
	srv.mu.Unlock()
	if m, ok := srv.Newest(big); !ok || m.ID != want {
		t.Fatalf("newest after deleting the tail: %v, want %s", m, want)
	}
	srv.mu.Lock()
	n := len(c.public)
	srv.mu.Unlock()
	if n != 1000 {
		t.Errorf("index holds %d messages after pruning, want 1000", n)
	}
}

package main

import (
	"context"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
)

// channelView follows the public messages of a channel through Discord's
// message events, so looking at the channel costs only what changed since
// the last look (reading the whole channel copies every message each time).
type channelView struct {
	w     *discordtest.Watcher
	order []string                        // message IDs, oldest first
	msgs  map[string]*discordtest.Message // newest version, by ID
}

// newChannelView starts following the channel; it must exist before the
// first message the caller cares about is posted.
func newChannelView(srv *discordtest.Server, channelID string) *channelView {
	return &channelView{w: srv.Watch(channelID), msgs: map[string]*discordtest.Message{}}
}

// update takes in the events since the last look, without waiting.
func (v *channelView) update() {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for {
		ev, err := v.w.Next(done)
		if err != nil {
			return
		}
		m := ev.Message
		if _, ok := v.msgs[m.ID]; !ok {
			v.order = append(v.order, m.ID)
		}
		v.msgs[m.ID] = m
	}
}

// messages returns the public messages now in the channel (not deleted),
// oldest first, as every member sees them. The messages are shared: read
// them, do not change them.
func (v *channelView) messages() []*discordtest.Message {
	v.update()
	out := make([]*discordtest.Message, 0, len(v.order))
	for _, id := range v.order {
		if m := v.msgs[id]; !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

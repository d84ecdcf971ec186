package discordgw

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// onEventDecode decodes a gateway message as discordgo's Session.onEvent
// does (a json.Decoder into an Event, then its "d" into the event type's
// struct), and returns the struct.
func onEventDecode(message []byte) (any, error) {
	var e *discordgo.Event
	if err := json.NewDecoder(bytes.NewBuffer(message)).Decode(&e); err != nil {
		return nil, err
	}
	var s any
	switch e.Type {
	case "INTERACTION_CREATE":
		s = new(discordgo.InteractionCreate)
	case SubstituteEvent:
		s = new(discordgo.WebhooksUpdate)
	}
	return s, json.Unmarshal(e.RawData, s)
}

// repeatReader gives the same frame again and again.
type repeatReader struct {
	frame []byte
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.frame[r.off:])
	r.off = (r.off + n) % len(r.frame)
	return n, nil
}

// BenchmarkGatewayInteractionCreate: a click on a dice table (an
// INTERACTION_CREATE as the fake Discord sends it) the discordgo way
// (onEvent's decoding) against discordgw's (the frame read through the
// frameReader, the interaction decoded once, and discordgo's decoding of
// the substitute dispatch it gets instead).
func BenchmarkGatewayInteractionCreate(b *testing.B) {
	msg := clickDispatch(b)
	b.Run("discordgo", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			s, err := onEventDecode(msg)
			if err != nil || s.(*discordgo.InteractionCreate).ID == "" {
				b.Fatal(err)
			}
		}
	})
	b.Run("discordgw", func(b *testing.B) {
		frame := wsFrame(true, 0, opText, msg, false)
		var got *discordgo.Interaction
		tk := NewTaker(func(i *discordgo.Interaction) { got = i })
		fr := newFrameReader(&repeatReader{frame: frame}, tk.park)
		fr.phase = phaseFrames
		out := make([]byte, 4096) // gorilla's read buffer
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			n, err := io.ReadAtLeast(fr, out, 2)
			if err != nil {
				b.Fatal(err)
			}
			if int(out[1]) != n-2 {
				b.Fatalf("read %d bytes, not one substitute frame", n)
			}
			w, err := onEventDecode(out[2:n])
			if err != nil {
				b.Fatal(err)
			}
			tk.onSubstitute(nil, w.(*discordgo.WebhooksUpdate))
			if got == nil || got.ID == "" {
				b.Fatal("no interaction handed on")
			}
			got = nil
		}
	})
}

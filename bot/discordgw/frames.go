package discordgw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
)

// MaxInteractionFrame is the largest frame the reader holds back to look
// at: a larger one (a READY or GUILD_CREATE of a big server, never a
// click) passes through as it arrives.
const MaxInteractionFrame = 128 << 10

// SubstituteEvent is the dispatch discordgo gets in place of an
// INTERACTION_CREATE taken by the reader: an event discordgo knows (so it
// decodes it quietly and stores its sequence number), that its State
// ignores and the bot does not otherwise ask for (it needs the
// GUILD_WEBHOOKS intent); only the Taker's handler reads it.
const SubstituteEvent = "WEBHOOKS_UPDATE"

// WebSocket opcodes and header bits (RFC 6455 section 5.2).
const (
	opContinuation = 0x0
	opText         = 0x1
	finBit         = 0x80
	rsvBits        = 0x70
	maskBit        = 0x80
)

// phase is where in the connection's byte stream the reader is.
type phase int

const (
	phaseHandshake phase = iota // the HTTP upgrade response, passed through
	phaseFrames                 // WebSocket frames from the server
	phaseRaw                    // no upgrade (a refusal): everything passed through
)

// frameReader reads a gateway connection's bytes (the HTTP upgrade
// response, then the server's frames) and gives them on unchanged, except
// each complete, unfragmented text frame holding an INTERACTION_CREATE
// dispatch: its interaction goes to park, and the frame is replaced by a
// dispatch of SubstituteEvent with the same sequence number whose
// channel_id is the key park gave (see Taker).
//
// It never waits for bytes beyond the frame it is giving: whatever it has
// to give, it gives before reading src again.
type frameReader struct {
	src  io.Reader
	park func(*discordgo.Interaction) uint64

	buf  []byte // bytes read from src: buf[r:w] not yet looked at
	r, w int
	out  []byte // bytes ready to give (in buf or in repl)
	pass int64  // payload bytes of the current frame still to pass through
	err  error  // src's error, given once buf is empty

	phase     phase
	status    []byte // the start of the upgrade response's status line
	crlf      int    // how much of "\r\n\r\n" the handshake has ended with
	inMessage bool   // a fragmented data message is under way

	repl []byte // the substitute frame, reused
	max  int    // the largest frame held back (MaxInteractionFrame)
}

// newFrameReader reads src (a connection from its first byte), handing
// the interactions it takes to park, which must not block.
func newFrameReader(src io.Reader, park func(*discordgo.Interaction) uint64) *frameReader {
	return &frameReader{src: src, park: park, buf: make([]byte, 16<<10), max: MaxInteractionFrame}
}

// Read gives the connection's bytes, rewritten as frameReader says.
func (f *frameReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(f.out) > 0 {
			c := copy(p[n:], f.out)
			f.out = f.out[c:]
			n += c
			continue
		}
		if f.pass > 0 {
			if f.w > f.r {
				c := copy(p[n:], f.buf[f.r:f.r+int(min(f.pass, int64(f.w-f.r)))])
				f.r += c
				f.pass -= int64(c)
				n += c
				continue
			}
			if n > 0 {
				return n, nil
			}
			if f.err != nil {
				return 0, f.err
			}
			// Straight from src into p: a large frame is not copied twice.
			c, err := f.src.Read(p[:min(int64(len(p)), f.pass)])
			f.pass -= int64(c)
			if err != nil {
				f.err = err
				if c == 0 {
					return 0, err
				}
			}
			return c, nil
		}
		if f.next() {
			continue
		}
		// Nothing to give without more bytes.
		if n > 0 {
			return n, nil
		}
		if f.err != nil {
			if f.w > f.r {
				// A partial frame, then the error: as src gave it.
				f.out = f.buf[f.r:f.w]
				f.r = f.w
				continue
			}
			return 0, f.err
		}
		if err := f.fill(); err != nil {
			f.err = err
		}
	}
	return n, nil
}

// fill reads src once into buf, after what is not yet looked at, growing
// buf when a held frame needs it.
func (f *frameReader) fill() error {
	if f.r > 0 {
		f.w = copy(f.buf, f.buf[f.r:f.w])
		f.r = 0
	}
	if f.w == len(f.buf) {
		f.buf = append(f.buf, make([]byte, len(f.buf))...)
	}
	c, err := f.src.Read(f.buf[f.w:])
	f.w += c
	if c > 0 {
		return nil // the error, if any, comes again at the next read
	}
	if err == nil {
		return nil
	}
	return err
}

// next moves what it can of buf[r:w] to out or pass, and says whether it
// did; false means it needs more bytes.
func (f *frameReader) next() bool {
	if f.r == f.w {
		return false
	}
	switch f.phase {
	case phaseRaw:
		f.out = f.buf[f.r:f.w]
		f.r = f.w
		return true
	case phaseHandshake:
		return f.handshake()
	}
	return f.frame()
}

// handshake passes the upgrade response through up to its blank line,
// then starts reading frames (or, if it is no 101, reads no frames).
func (f *frameReader) handshake() bool {
	const end = "\r\n\r\n"
	start := f.r
	for f.r < f.w {
		b := f.buf[f.r]
		f.r++
		if len(f.status) < len("HTTP/1.1 101 ") {
			f.status = append(f.status, b)
		}
		switch {
		case b == end[f.crlf]:
			f.crlf++
		case b == '\r':
			f.crlf = 1
		default:
			f.crlf = 0
		}
		if f.crlf == len(end) {
			f.phase = phaseRaw
			if st := string(f.status); len(st) >= len("HTTP/1.1 101") && st[len("HTTP/1.x "):len("HTTP/1.1 101")] == "101" && st[:len("HTTP/1.")] == "HTTP/1." {
				f.phase = phaseFrames
			}
			break
		}
	}
	f.out = f.buf[start:f.r]
	return true
}

// frame gives the next frame: through pass (its header in out), or whole
// in out when it is held (a complete text frame that may be a click).
func (f *frameReader) frame() bool {
	h := f.buf[f.r:f.w]
	if len(h) < 2 {
		return false
	}
	fin, rsv, op := h[0]&finBit != 0, h[0]&rsvBits, h[0]&0x0f
	masked := h[1]&maskBit != 0
	hl := 2
	size := int64(h[1] & 0x7f)
	switch size {
	case 126:
		hl += 2
	case 127:
		hl += 8
	}
	if masked {
		hl += 4
	}
	if len(h) < hl {
		return false
	}
	switch size {
	case 126:
		size = int64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		u := binary.BigEndian.Uint64(h[2:10])
		if u > 1<<62 {
			// Malformed (the top bit must be 0): gorilla refuses it;
			// nothing after it is read as frames.
			f.phase = phaseRaw
			return f.next()
		}
		size = int64(u)
	}
	wasInMessage := f.inMessage
	if op < 0x8 { // a data frame: fragmentation follows it
		if op == opContinuation {
			if fin {
				f.inMessage = false
			}
		} else if !fin {
			f.inMessage = true
		}
	}
	held := fin && rsv == 0 && op == opText && !masked && !wasInMessage && size <= int64(f.max)
	if !held {
		f.out = f.buf[f.r : f.r+hl]
		f.r += hl
		f.pass = size
		return true
	}
	total := hl + int(size)
	if len(h) < total {
		if total > len(f.buf) {
			nb := make([]byte, max(total, 2*len(f.buf)))
			f.w = copy(nb, h)
			f.r = 0
			f.buf = nb
		}
		return false
	}
	frame := h[:total]
	f.r += total
	if repl, ok := f.take(frame[hl:]); ok {
		f.out = repl
	} else {
		f.out = frame
	}
	return true
}

// interactionCreate is the name the reader looks for in a text frame
// before decoding it.
var interactionCreate = []byte(`"INTERACTION_CREATE"`)

// take decodes payload, a text frame's, and if it is an INTERACTION_CREATE
// dispatch the fast decoder reads, parks its interaction and returns the
// substitute frame.
func (f *frameReader) take(payload []byte) ([]byte, bool) {
	if !bytes.Contains(payload, interactionCreate) {
		return nil, false
	}
	i, seq, err := decodeDispatch(payload)
	if err != nil {
		return nil, false
	}
	f.repl = substitute(f.repl[:0], seq, f.park(i))
	return f.repl, true
}

// decodeDispatch decodes an INTERACTION_CREATE dispatch's sequence number
// and interaction, in one pass (discordhttp.DecodeDispatch), or says why
// it will not.
func decodeDispatch(payload []byte) (*discordgo.Interaction, int64, error) {
	d, err := discordhttp.DecodeDispatch(payload)
	if err != nil {
		return nil, 0, fmt.Errorf("gateway payload: %w", err)
	}
	if d.Op == nil || *d.Op != 0 || d.Seq == nil || d.Type != "INTERACTION_CREATE" || d.Interaction == nil {
		return nil, 0, fmt.Errorf("gateway payload: not an INTERACTION_CREATE dispatch")
	}
	return d.Interaction, *d.Seq, nil
}

// substitute appends the frame discordgo gets for a taken interaction:
// an unmasked final text frame of
// {"op":0,"s":seq,"t":SubstituteEvent,"d":{"channel_id":"discordgw:key"}}.
func substitute(dst []byte, seq int64, key uint64) []byte {
	var p [125]byte
	payload := append(p[:0], `{"op":0,"s":`...)
	payload = strconv.AppendInt(payload, seq, 10)
	payload = append(payload, `,"t":"`+SubstituteEvent+`","d":{"channel_id":"`+keyPrefix...)
	payload = strconv.AppendUint(payload, key, 10)
	payload = append(payload, `"}}`...)
	// Under 126 bytes: a 7-bit length.
	dst = append(dst, finBit|opText, byte(len(payload)))
	return append(dst, payload...)
}

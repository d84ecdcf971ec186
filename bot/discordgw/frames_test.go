package discordgw

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/bwmarrin/discordgo"
)

// upgradeResponse is a gateway's HTTP upgrade response, as gorilla's
// server writes it.
const upgradeResponse = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"

// clickDispatch is an INTERACTION_CREATE as the fake Discord sends it: a
// click on a dice table's colour button, captured from the fake during
// an e2e game.
func clickDispatch(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/interaction_create_table_click.json")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(raw)
}

// withSeqAndID is the click dispatch d with sequence number seq and
// interaction ID id (and the keys in Discord's order, not the fake's).
func withSeqAndID(t testing.TB, d []byte, seq int64, id string) []byte {
	t.Helper()
	tmpl, ok := dispatchTemplates.Load(string(d))
	if !ok {
		var p struct {
			D map[string]json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(d, &p); err != nil {
			t.Fatal(err)
		}
		p.D["id"] = json.RawMessage(`"@ID@"`)
		body, err := json.Marshal(p.D)
		if err != nil {
			t.Fatal(err)
		}
		tmpl, _ = dispatchTemplates.LoadOrStore(string(d), body)
	}
	body := bytes.Replace(tmpl.([]byte), []byte("@ID@"), []byte(id), 1)
	return fmt.Appendf(nil, `{"t":"INTERACTION_CREATE","s":%d,"op":0,"d":%s}`, seq, body)
}

// dispatchTemplates are withSeqAndID's dispatches by their input, with a
// placeholder for the ID.
var dispatchTemplates sync.Map

// wsFrame is a server frame: unmasked, with a length of 7, 16 or 64 bits
// (the smallest that fits, or 64 bits when long is set).
func wsFrame(fin bool, rsv, op byte, payload []byte, long bool) []byte {
	b0 := rsv<<4 | op
	if fin {
		b0 |= finBit
	}
	out := []byte{b0}
	switch n := len(payload); {
	case long || n > 0xffff:
		out = append(out, 127)
		out = binary.BigEndian.AppendUint64(out, uint64(n))
	case n >= 126:
		out = append(out, 126)
		out = binary.BigEndian.AppendUint16(out, uint16(n))
	default:
		out = append(out, byte(n))
	}
	return append(out, payload...)
}

// rawFrame is one frame as parseFrames splits a stream.
type rawFrame struct {
	b0, b1  byte
	payload string
	size    int // header and payload
}

// parseFrames splits a stream of server frames (a reference parser,
// independent of the reader's), and returns what is left of a partial
// last frame.
func parseFrames(b []byte) (frames []rawFrame, rest []byte) {
	for {
		if len(b) < 2 {
			return frames, b
		}
		hl, n := 2, uint64(b[1]&0x7f)
		if n == 126 {
			if len(b) < 4 {
				return frames, b
			}
			hl, n = 4, uint64(binary.BigEndian.Uint16(b[2:]))
		} else if n == 127 {
			if len(b) < 10 {
				return frames, b
			}
			hl, n = 10, binary.BigEndian.Uint64(b[2:])
		}
		if b[1]&maskBit != 0 {
			hl += 4
		}
		if uint64(len(b)) < uint64(hl)+n {
			return frames, b
		}
		frames = append(frames, rawFrame{b[0], b[1], string(b[hl : hl+int(n)]), hl + int(n)})
		b = b[hl+int(n):]
	}
}

// splitReader gives its bytes in reads of sizes drawn from rng (1 to
// 64 bytes, or 1 byte each with one set), then errEnd.
type splitReader struct {
	data []byte
	rng  *rand.Rand
	err  error
}

func (s *splitReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, s.err
	}
	n := min(len(p), len(s.data))
	if s.rng != nil {
		n = min(n, 1+s.rng.IntN(64))
	}
	copy(p, s.data[:n])
	s.data = s.data[n:]
	return n, nil
}

// errBlocked is what the test sources give when their bytes are all
// read: a real connection would wait for more there.
var errBlocked = errors.New("read past the bytes sent (a connection would block here)")

// readAll reads r in reads of len bufSize until an error, and returns
// the bytes, the error, and how many bytes it had when it came.
func readAll(r io.Reader, bufSize int) ([]byte, error) {
	var out []byte
	buf := make([]byte, bufSize)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}

// TestTakesInteractionFramesPassesOthersByteForByte: a stream with the
// upgrade response, an INTERACTION_CREATE (taken: discordgo gets the
// substitute dispatch with its sequence number), other dispatches, pings
// between the fragments of a fragmented message, a fragmented and a
// binary interaction, one with RSV1, one too large, one the decoder
// refuses (all passed byte for byte), read whole, one byte at a time and
// in random splits: the output is the input with only the taken frame
// changed, and the interaction reaches the handler once, decoded.
func TestTakesInteractionFramesPassesOthersByteForByte(t *testing.T) {
	click := clickDispatch(t)
	ic := withSeqAndID(t, click, 7, "1700000000000000042")
	other := []byte(`{"t":"GUILD_CREATE","s":8,"op":0,"d":{"id":"1","name":"INTERACTION_CREATE"}}`)
	broken := bytes.Replace(withSeqAndID(t, click, 9, "1"), []byte(`"app_permissions":"`), []byte(`"app_permissions":"x`), 1)
	var in, want bytes.Buffer
	both := func(f []byte) { in.Write(f); want.Write(f) }
	both([]byte(upgradeResponse))
	both(wsFrame(true, 0, opText, []byte(`{"op":10,"d":{"heartbeat_interval":41250}}`), false))
	in.Write(wsFrame(true, 0, opText, ic, false))
	want.Write(substitute(nil, 7, 1))
	both(wsFrame(true, 0, opText, other, false))
	both(wsFrame(false, 0, opText, ic[:100], false))
	both(wsFrame(true, 0, 0x9, []byte("ping"), false))
	both(wsFrame(false, 0, opContinuation, ic[100:200], false))
	both(wsFrame(true, 0, 0xA, nil, false))
	both(wsFrame(true, 0, opContinuation, ic[200:], false))
	both(wsFrame(true, 0, 0x2, ic, false))
	both(wsFrame(true, 4, opText, ic, false))
	both(wsFrame(true, 0, opText, broken, true))
	big := append(bytes.Clone(ic[:len(ic)-1]), bytes.Repeat([]byte(" "), MaxInteractionFrame)...)
	big = append(big, '}')
	both(wsFrame(true, 0, opText, big, false))
	both(wsFrame(true, 0, 0x8, []byte{0x03, 0xe8}, false))

	type read struct {
		name string
		src  func([]byte) io.Reader
		size int
	}
	reads := []read{
		{"whole", func(b []byte) io.Reader { return &splitReader{data: b, err: errBlocked} }, 64 << 10},
		{"one byte at a time", func(b []byte) io.Reader { return iotest.OneByteReader(&splitReader{data: b, err: errBlocked}) }, 1},
		{"gorilla's 4 KiB reads", func(b []byte) io.Reader { return &splitReader{data: b, err: errBlocked} }, 4096},
	}
	for seed := range uint64(8) {
		reads = append(reads, read{fmt.Sprintf("random splits %d", seed), func(b []byte) io.Reader {
			return &splitReader{data: b, err: errBlocked, rng: rand.New(rand.NewPCG(seed, 1))}
		}, 1 + int(seed)*37})
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			var got []*discordgo.Interaction
			fr := newFrameReader(rd.src(in.Bytes()), func(i *discordgo.Interaction) uint64 {
				got = append(got, i)
				return uint64(len(got))
			})
			out, err := readAll(fr, rd.size)
			if err != errBlocked {
				t.Fatalf("error %v, want the source's", err)
			}
			if !bytes.Equal(out, want.Bytes()) {
				gf, _ := parseFrames(out[len(upgradeResponse):])
				wf, _ := parseFrames(want.Bytes()[len(upgradeResponse):])
				for k := range min(len(gf), len(wf)) {
					if gf[k] != wf[k] {
						t.Fatalf("frame %d: got %.200q…, want %.200q…", k, gf[k].payload, wf[k].payload)
					}
				}
				t.Fatalf("output differs: %d frames, want %d", len(gf), len(wf))
			}
			if len(got) != 1 {
				t.Fatalf("%d interactions handed on, want 1", len(got))
			}
			var dg discordgo.InteractionCreate
			var e discordgo.Event
			if err := json.Unmarshal(ic, &e); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(e.RawData, &dg); err != nil {
				t.Fatal(err)
			}
			assertAsDiscordgo(t, got[0], dg.Interaction)
		})
	}
}

// assertAsDiscordgo fails unless got has the fields the bot reads as
// discordgo decoded them.
func assertAsDiscordgo(t *testing.T, got, want *discordgo.Interaction) {
	t.Helper()
	if got.ID != want.ID || got.Token != want.Token || got.Type != want.Type || got.GuildID != want.GuildID ||
		got.ChannelID != want.ChannelID || got.AppPermissions != want.AppPermissions || got.Locale != want.Locale ||
		got.Member.User.ID != want.Member.User.ID || got.Message.ID != want.Message.ID ||
		got.Message.Content != want.Message.Content || len(got.Message.Components) != len(want.Message.Components) ||
		!reflect.DeepEqual(got.MessageComponentData(), want.MessageComponentData()) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("interaction\n got %s\nwant %s", g, w)
	}
}

// TestNonUpgradeResponsePassesThrough: a refused upgrade (an HTTP error
// with a body that holds a frame-like INTERACTION_CREATE) is given as it
// came: no frame is read in it.
func TestNonUpgradeResponsePassesThrough(t *testing.T) {
	ic := withSeqAndID(t, clickDispatch(t), 1, "5")
	in := append([]byte("HTTP/1.1 429 Too Many Requests\r\nContent-Length: 9999\r\n\r\n"), wsFrame(true, 0, opText, ic, false)...)
	calls := 0
	out, err := readAll(newFrameReader(&splitReader{data: in, err: io.EOF}, func(*discordgo.Interaction) uint64 {
		calls++
		return 1
	}), 100)
	if err != io.EOF || !bytes.Equal(out, in) || calls != 0 {
		t.Fatalf("err %v, output equal %v, %d interactions taken", err, bytes.Equal(out, in), calls)
	}
}

// FuzzFrameReader: random streams of frames (dispatches, interactions
// with 7/16/64-bit lengths, pings between fragments, fragmented, binary,
// RSV, masked, refused and too-large frames), cut short anywhere and read
// in random splits: the output is the input's frames in order with only
// the takeable interactions replaced (each by its substitute, each
// handed on once, in order), a cut frame as it came; the reader gives
// every complete frame before it reads again (never waits past a frame);
// it never panics.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte{1, 0, 2, 3, 4, 1, 5, 6, 7, 8, 9, 1}, uint64(1), uint16(0))
	f.Add([]byte{4, 4, 1, 1, 1}, uint64(2), uint16(300))
	f.Add([]byte{}, uint64(3), uint16(10))
	click := clickDispatch(f)
	f.Fuzz(func(t *testing.T, kinds []byte, seed uint64, cut uint16) {
		if len(kinds) > 64 {
			kinds = kinds[:64]
		}
		var in, want bytes.Buffer
		in.WriteString(upgradeResponse)
		want.WriteString(upgradeResponse)
		var wantIDs []string
		seq := int64(0)
		both := func(fr []byte) { in.Write(fr); want.Write(fr) }
		for k, kind := range kinds {
			seq++
			id := strconv.Itoa(1000 + k)
			ic := withSeqAndID(t, click, seq, id)
			switch kind % 12 {
			case 0:
				both(wsFrame(true, 0, opText, fmt.Appendf(nil, `{"op":0,"s":%d,"t":"TYPING_START","d":{}}`, seq), false))
			case 1, 2:
				in.Write(wsFrame(true, 0, opText, ic, kind%12 == 2))
				wantIDs = append(wantIDs, id)
				want.Write(substitute(nil, seq, uint64(len(wantIDs))))
			case 3:
				both(wsFrame(true, 0, 0x9, []byte("p"), false))
			case 4:
				both(wsFrame(false, 0, opText, ic[:50], false))
				both(wsFrame(true, 0, 0x9, nil, false))
				both(wsFrame(false, 0, opContinuation, ic[50:60], false))
				both(wsFrame(true, 0, 0xA, []byte("pong"), false))
				both(wsFrame(true, 0, opContinuation, ic[60:], true))
			case 5:
				both(wsFrame(true, 0, 0x2, ic, false))
			case 6:
				both(wsFrame(true, 1+kind%7, opText, ic, false))
			case 7:
				m := wsFrame(true, 0, opText, ic, false)
				masked := append([]byte{m[0], m[1] | maskBit}, m[2:4]...)
				masked = append(append(masked, 0, 0, 0, 0), m[4:]...)
				both(masked)
			case 8:
				both(wsFrame(true, 0, opText, ic[:len(ic)-1], false)) // not JSON
			case 9:
				both(wsFrame(true, 0, opText, bytes.Replace(ic, []byte(`"op":0`), []byte(`"op":1`), 1), false))
			case 10: // over the test's cap
				padded := append(append(bytes.Clone(ic[:len(ic)-1]), bytes.Repeat([]byte{' '}, 64)...), '}')
				both(wsFrame(true, 0, opText, padded, false))
			case 11:
				both(wsFrame(true, 0, opText, nil, false))
			}
		}
		stream := in.Bytes()
		expect := want.Bytes()
		wasCut := false
		if c := int(cut); c > 0 && c < len(stream) {
			wasCut = true
			// Cut: the frames wholly before c, then the cut frame's bytes.
			stream = stream[:c]
			expect = cutExpectation(t, in.Bytes(), want.Bytes(), c)
		}
		complete := completeFramesLen(expect)
		var got []string
		fr := newFrameReader(&splitReader{data: stream, err: errBlocked, rng: rand.New(rand.NewPCG(seed, 2))}, func(i *discordgo.Interaction) uint64 {
			got = append(got, i.ID)
			return uint64(len(got))
		})
		fr.max = len(ic(t, click)) + 16 // case 10 is over it
		out := []byte{}
		buf := make([]byte, 1+int(seed%5000))
		for {
			n, err := fr.Read(buf)
			out = append(out, buf[:n]...)
			if err != nil {
				if err != errBlocked {
					t.Fatalf("error %v", err)
				}
				if len(out) < complete {
					t.Fatalf("read past a frame: the source was read again with %d bytes of complete frames not yet given", complete-len(out))
				}
				break
			}
		}
		if !bytes.Equal(out, expect) {
			t.Fatalf("output differs from the expected stream (%d bytes, want %d)", len(out), len(expect))
		}
		wantTaken := wantIDs
		if wasCut {
			wantTaken = wantIDs[:bytes.Count(expect, []byte(`"t":"`+SubstituteEvent+`"`))]
		}
		if !slicesEqual(got, wantTaken) {
			t.Fatalf("interactions handed on %v, want %v", got, wantTaken)
		}
	})
}

// ic is the click's dispatch as the fuzz test's frames carry it (its
// longest sequence number and ID).
func ic(t testing.TB, click []byte) []byte { return withSeqAndID(t, click, 64, "1063") }

// cutExpectation is the output expected from in cut at c: the expected
// output for the frames wholly before c, then the bytes of in from the
// start of the cut frame to c.
func cutExpectation(t *testing.T, in, want []byte, c int) []byte {
	t.Helper()
	hs := len(upgradeResponse)
	if c <= hs {
		return in[:c]
	}
	inFrames, _ := parseFrames(in[hs:c])
	// The same number of frames of want, then in's partial frame.
	consumedIn := frameBytes(in[hs:], len(inFrames))
	consumedWant := frameBytes(want[hs:], len(inFrames))
	out := append([]byte{}, want[:hs+consumedWant]...)
	return append(out, in[hs+consumedIn:c]...)
}

// frameBytes is how many bytes the first n frames of b take.
func frameBytes(b []byte, n int) int {
	fs, _ := parseFrames(b)
	total := 0
	for _, f := range fs[:n] {
		total += f.size
	}
	return total
}

// completeFramesLen is how many bytes of b (the upgrade response, then
// frames) are the response and whole frames.
func completeFramesLen(b []byte) int {
	hs := len(upgradeResponse)
	if len(b) <= hs {
		return len(b)
	}
	fs, _ := parseFrames(b[hs:])
	return hs + frameBytes(b[hs:], len(fs))
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

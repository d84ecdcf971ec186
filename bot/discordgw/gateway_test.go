package discordgw

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
)

// fakeGateway is a gateway on loopback that sends HELLO, READY after the
// IDENTIFY, then frames, then asks for a heartbeat (op 1) and reports the
// sequence numbers discordgo answers with. With resumed frames (sequence
// numbers 2, 3, …), the first connection asks for no heartbeat (its
// frames end with a RECONNECT) and a RESUME gets the resumed frames after
// its sequence number, then the op 1.
func fakeGateway(t *testing.T, frames, resumed [][]byte) (url string, heartbeat <-chan int64) {
	t.Helper()
	url, heartbeat, _ = fakeGatewayOver(t, frames, resumed, false)
	return url, heartbeat
}

// fakeGatewayOver is fakeGateway with, when overTLS, its websocket served
// over TLS (a wss:// gateway URL, as Discord's) by a server whose
// certificate roots is the pool of.
func fakeGatewayOver(t *testing.T, frames, resumed [][]byte, overTLS bool) (url string, heartbeat <-chan int64, roots *x509.CertPool) {
	t.Helper()
	var conns atomic.Int32
	hb := make(chan int64, 16)
	up := websocket.Upgrader{}
	mux := http.NewServeMux()
	var srv, wsSrv *httptest.Server
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/gateway") {
			http.NotFound(w, r)
			return
		}
		if overTLS {
			fmt.Fprintf(w, `{"url":"wss://%s/ws"}`, wsSrv.Listener.Addr())
			return
		}
		fmt.Fprintf(w, `{"url":"ws://%s/ws"}`, srv.Listener.Addr())
	})
	mux.HandleFunc("/ws/", func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		defer ws.Close()
		send := func(s string) {
			if err := ws.WriteMessage(websocket.TextMessage, []byte(s)); err != nil {
				t.Error(err)
			}
		}
		send(`{"op":10,"d":{"heartbeat_interval":600000}}`)
		first := conns.Add(1) == 1
		_, m, err := ws.ReadMessage()
		if err != nil || !strings.Contains(string(m), map[bool]string{true: `"op":2`, false: `"op":6`}[first]) {
			t.Errorf("identify or resume: %s %v", m, err)
			return
		}
		if first {
			send(`{"op":0,"s":1,"t":"READY","d":{"v":10,"session_id":"s1","user":{"id":"1","username":"bot"},"guilds":[],"application":{"id":"1"}}}`)
		} else {
			// As Discord: the events after the RESUME's sequence number
			// (each resumed frame's is its index + 2).
			var r struct {
				D struct {
					Seq int `json:"seq"`
				} `json:"d"`
			}
			if err := json.Unmarshal(m, &r); err != nil {
				t.Error(err)
				return
			}
			frames = resumed[min(max(r.D.Seq-1, 0), len(resumed)):]
		}
		for _, f := range frames {
			if _, err := ws.UnderlyingConn().Write(f); err != nil {
				t.Error(err)
				return
			}
		}
		if !first || resumed == nil {
			send(`{"op":1,"d":null}`)
		}
		for {
			_, m, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var p struct {
				Op int   `json:"op"`
				D  int64 `json:"d"`
			}
			if json.Unmarshal(m, &p) == nil && p.Op == 1 {
				select {
				case hb <- p.D:
				default:
				}
			}
		}
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	if overTLS {
		wsSrv = httptest.NewTLSServer(mux)
		t.Cleanup(wsSrv.Close)
		roots = x509.NewCertPool()
		roots.AddCert(wsSrv.Certificate())
	}
	return srv.URL, hb, roots
}

// testDialer is the Taker's ws:// dialling with the connection's reads
// through split (one byte at a time, random sizes).
func testDialer(t *Taker, split func(io.Reader) io.Reader) *websocket.Dialer {
	return &websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &conn{Conn: c, r: newFrameReader(split(c), t.park)}, nil
	}}
}

// TestDiscordgoThroughTheDialer: a discordgo session on a gateway that
// sends interactions whole (taken), fragmented with a ping between the
// fragments (discordgo's), other dispatches and a last taken interaction:
// every interaction reaches a handler exactly once (the taken ones the
// dialer's, the fragmented one discordgo's), decoded as discordgo
// decodes it, and discordgo's sequence number (its heartbeat's) ends as
// without the dialer; reads split at every byte and at random.
func TestDiscordgoThroughTheDialer(t *testing.T) {
	click := clickDispatch(t)
	ic2, ic4, ic5 := withSeqAndID(t, click, 2, "2002"), withSeqAndID(t, click, 4, "2004"), withSeqAndID(t, click, 5, "2005")
	frames := [][]byte{
		wsFrame(true, 0, opText, ic2, false),
		wsFrame(true, 0, opText, []byte(`{"op":0,"s":3,"t":"TYPING_START","d":{"channel_id":"9","user_id":"8","timestamp":1}}`), false),
		wsFrame(false, 0, opText, ic4[:1000], false),
		wsFrame(true, 0, 0x9, []byte("hi"), false),
		wsFrame(true, 0, opContinuation, ic4[1000:], true),
		wsFrame(true, 0, opText, ic5, false),
	}
	var dgWant discordgo.InteractionCreate
	if err := json.Unmarshal(mustRawData(t, ic5), &dgWant); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		install   func(s *discordgo.Session, handle func(*discordgo.Interaction))
		wantTaken []string
		overTLS   bool
	}{
		{"discordgo's own dialer", func(*discordgo.Session, func(*discordgo.Interaction)) {}, nil, false},
		{"Taker", func(s *discordgo.Session, h func(*discordgo.Interaction)) { NewTaker(h).Install(s) }, []string{"2002", "2005"}, false},
		{"one byte at a time", func(s *discordgo.Session, h func(*discordgo.Interaction)) {
			tk := NewTaker(h)
			tk.Install(s)
			s.Dialer = testDialer(tk, func(r io.Reader) io.Reader { return iotest.OneByteReader(r) })
		}, []string{"2002", "2005"}, false},
		{"random splits", func(s *discordgo.Session, h func(*discordgo.Interaction)) {
			tk := NewTaker(h)
			tk.Install(s)
			rng := rand.New(rand.NewPCG(7, 7))
			s.Dialer = testDialer(tk, func(r io.Reader) io.Reader { return &randomSplit{r: r, rng: rng} })
		}, []string{"2002", "2005"}, false},
		// A wss:// gateway, as Discord's: the Taker's own TLS dialling
		// (its NetDialTLSContext), the certificate checked against the
		// test server's root, the websocket spoken over it.
		{"Taker over TLS", nil, []string{"2002", "2005"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, hb, roots := fakeGatewayOver(t, frames, nil, c.overTLS)
			if c.overTLS {
				c.install = func(s *discordgo.Session, h func(*discordgo.Interaction)) {
					tk := NewTaker(h)
					tk.roots = roots
					tk.Install(s)
				}
			}
			s, err := discordgo.New("Bot test")
			if err != nil {
				t.Fatal(err)
			}
			if s.Client, err = discordhttp.NewHTTPClient(nil, base); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var taken, viaDiscordgo []string
			var last *discordgo.Interaction
			all := make(chan struct{}, 3)
			c.install(s, func(i *discordgo.Interaction) {
				mu.Lock()
				taken = append(taken, i.ID)
				if i.ID == "2005" {
					last = i
				}
				mu.Unlock()
				all <- struct{}{}
			})
			s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
				mu.Lock()
				viaDiscordgo = append(viaDiscordgo, ic.ID)
				if ic.ID == "2005" {
					last = ic.Interaction
				}
				mu.Unlock()
				all <- struct{}{}
			})
			if err := s.Open(); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			deadline := time.After(30 * time.Second)
			// discordgo's first heartbeat may come before the frames are
			// read; the answer to the op 1 sent after them has their last
			// sequence number.
			seq := waitHeartbeat(t, hb, deadline, 5)
			for range 3 {
				select {
				case <-all:
				case <-deadline:
					t.Fatal("not every interaction handled within 30 s")
				}
			}
			if seq != 5 {
				t.Errorf("discordgo's sequence number %d, want 5", seq)
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(taken)
			if !slices.Equal(taken, c.wantTaken) {
				t.Errorf("taken %v, want %v", taken, c.wantTaken)
			}
			every := slices.Sorted(slices.Values(append(slices.Clone(taken), viaDiscordgo...)))
			if !slices.Equal(every, []string{"2002", "2004", "2005"}) {
				t.Errorf("handled %v, want each of 2002, 2004, 2005 once", every)
			}
			assertAsDiscordgo(t, last, dgWant.Interaction)
		})
	}
}

// waitHeartbeat waits until discordgo heartbeats with a sequence number of
// at least want, and returns that number.
func waitHeartbeat(t *testing.T, hb <-chan int64, deadline <-chan time.Time, want int64) int64 {
	t.Helper()
	var seq int64
	for seq < want {
		select {
		case seq = <-hb:
		case <-deadline:
			t.Fatalf("no heartbeat with sequence number %d within 30 s (last %d)", want, seq)
		}
	}
	return seq
}

// mustRawData is a dispatch's "d" as discordgo's Event holds it.
func mustRawData(t *testing.T, dispatch []byte) []byte {
	t.Helper()
	var e discordgo.Event
	if err := json.Unmarshal(dispatch, &e); err != nil {
		t.Fatal(err)
	}
	return e.RawData
}

// randomSplit reads r in reads of 1 to 100 bytes.
type randomSplit struct {
	r   io.Reader
	rng *rand.Rand
	mu  sync.Mutex
}

func (s *randomSplit) Read(p []byte) (int, error) {
	s.mu.Lock()
	n := 1 + s.rng.IntN(100)
	s.mu.Unlock()
	return s.r.Read(p[:min(len(p), n)])
}

// TestReadAheadOfADroppedConnectionHandledOnceAfterResume: an interaction
// read in the same bytes as a RECONNECT (read ahead, taken and parked, but
// never handled by discordgo, which drops the connection) is handled once:
// when Discord sends it again after the RESUME, as with discordgo's own
// dialer; the sequence number ends as without the Taker.
func TestReadAheadOfADroppedConnectionHandledOnceAfterResume(t *testing.T) {
	ic := withSeqAndID(t, clickDispatch(t), 2, "3002")
	first := [][]byte{append(wsFrame(true, 0, opText, []byte(`{"op":7,"d":null}`), false), wsFrame(true, 0, opText, ic, false)...)}
	resumed := [][]byte{ // sequence numbers 2, 3
		wsFrame(true, 0, opText, ic, false),
		wsFrame(true, 0, opText, []byte(`{"op":0,"s":3,"t":"RESUMED","d":{}}`), false),
	}
	for _, taker := range []bool{false, true} {
		t.Run(fmt.Sprintf("taker=%v", taker), func(t *testing.T) {
			base, hb := fakeGateway(t, first, resumed)
			s, err := discordgo.New("Bot test")
			if err != nil {
				t.Fatal(err)
			}
			if s.Client, err = discordhttp.NewHTTPClient(nil, base); err != nil {
				t.Fatal(err)
			}
			var handled atomic.Int32
			count := func(i *discordgo.Interaction) {
				if i.ID == "3002" {
					handled.Add(1)
				}
			}
			s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { count(ic.Interaction) })
			tk := NewTaker(count)
			if taker {
				tk.Install(s)
			}
			if err := s.Open(); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			deadline := time.After(30 * time.Second)
			seq := waitHeartbeat(t, hb, deadline, 3)
			// discordgo handles events on goroutines: the handlers have
			// run once the interaction was counted; give a second one the
			// time to show up.
			for handled.Load() == 0 {
				select {
				case <-deadline:
					t.Fatal("the interaction was not handled within 30 s")
				case <-time.After(10 * time.Millisecond):
				}
			}
			time.Sleep(200 * time.Millisecond)
			if n := handled.Load(); n != 1 || seq != 3 {
				t.Errorf("handled %d times, sequence number %d; want once, 3", n, seq)
			}
			tk.mu.Lock()
			defer tk.mu.Unlock()
			if taker && len(tk.parked) != 1 {
				t.Errorf("%d interactions parked, want the one read ahead", len(tk.parked))
			}
		})
	}
}

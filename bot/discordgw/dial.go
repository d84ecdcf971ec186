// Package discordgw takes the interactions (button clicks, commands) off
// discordgo's gateway connection before discordgo decodes them, and hands
// them to the bot decoded in one pass.
//
// Why: discordgo decodes every gateway event three times with
// encoding/json: the whole message into an Event (validating and copying
// its "d"), then "d" into the event's struct, whose UnmarshalJSON (for
// INTERACTION_CREATE) decodes it again, the clicked message's components
// once more at each level of nesting. Under load that was about a fifth
// of the bot's CPU in gateway mode, nearly all of it on INTERACTION_CREATE.
// discordgo (v0.29.0) has no hook for its event decoding (Session.onEvent
// calls json.Unmarshal with a private registry of event types); the one
// hook it gives is Session.Dialer, the gorilla/websocket dialer of every
// gateway connection and reconnection.
//
// So the connections of a Taker's dialer read the server's bytes through
// a reader of WebSocket frames (RFC 6455). It passes the HTTP upgrade response through
// untouched, and every frame byte for byte, except a complete,
// unfragmented text frame (no RSV bits, no larger than
// MaxInteractionFrame) whose JSON is a dispatch (op 0) of
// INTERACTION_CREATE that bot/discordhttp.DecodeInteraction (the HTTP
// endpoint's decoder, segmentio/encoding, checked against discordgo's
// decoding there) reads: discordgo gets instead a small dispatch of
// SubstituteEvent with the same "s" (so that it stores the sequence number
// for its heartbeats and RESUME as before) and a key in place of the
// body; the interaction waits under that key until discordgo handles the
// substitute, and then goes to the bot's handler on discordgo's handler
// goroutine (Taker): when, and only when, discordgo would have handled
// the INTERACTION_CREATE (a frame read ahead on a connection discordgo
// drops is not handled: Discord sends it again after the RESUME). Anything
// else — other events, binary (zlib) messages, fragmented messages, control frames, a frame the
// decoder refuses, a bigger frame — reaches discordgo as it came, and
// discordgo stays the gateway client in every other respect (identify,
// heartbeat, resume, reconnect, sharding).
//
// Dispatches must come as text frames for this: sessions the Taker is
// installed in identify without "compress" (Discord would otherwise send some
// dispatches zlib-compressed in binary frames; those would still pass
// through, untaken). The trade is bandwidth: events Discord would have
// compressed (READY, GUILD_CREATE of big servers) come uncompressed.
package discordgw

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// dialTimeout bounds a TCP connect to the gateway (gorilla's handshake
// timeout bounds the whole upgrade).
const dialTimeout = 30 * time.Second

// keyPrefix starts the channel_id of a substitute dispatch: what follows
// is the key of its parked interaction.
const keyPrefix = "discordgw:"

// parkedFor is how long a parked interaction waits for its substitute
// dispatch (discordgo handles it within milliseconds, or never: when it
// drops the connection with frames read ahead, which Discord sends again
// after the RESUME).
const parkedFor = time.Minute

// Taker takes the interactions off a discordgo session's gateway
// connections (Install). A taken interaction waits, parked, until
// discordgo handles the substitute dispatch that replaced it: then it
// goes to the handler on discordgo's handler goroutine, exactly when
// discordgo would have handled the INTERACTION_CREATE, and so exactly
// once (a frame read ahead on a connection that discordgo drops is not
// handled, and comes again after the RESUME, as without the Taker).
type Taker struct {
	handle func(*discordgo.Interaction)

	mu     sync.Mutex
	next   uint64
	parked map[uint64]parked

	// roots are the certificate authorities wss:// gateways are checked
	// against; nil: the system's (tests set their own).
	roots *x509.CertPool
}

// parked is a taken interaction waiting for its substitute.
type parked struct {
	i  *discordgo.Interaction
	at time.Time
}

// NewTaker returns a Taker handing the interactions it takes to handle.
func NewTaker(handle func(*discordgo.Interaction)) *Taker {
	return &Taker{handle: handle, parked: map[uint64]parked{}}
}

// Install makes s connect through t's dialer, identify without
// compression (so that dispatches come as text frames), and hand t's
// taken interactions on when it handles their substitutes. Call it before
// s.Open; s's own INTERACTION_CREATE handlers stay for the interactions
// not taken.
func (t *Taker) Install(s *discordgo.Session) {
	s.Dialer = t.Dialer()
	s.Compress = false
	s.Identify.Compress = false
	s.AddHandler(t.onSubstitute)
}

// park keeps i until its substitute comes, and returns its key.
func (t *Taker) park(i *discordgo.Interaction) uint64 {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	if t.next%64 == 0 {
		for k, p := range t.parked {
			if now.Sub(p.at) > parkedFor {
				delete(t.parked, k)
			}
		}
	}
	t.parked[t.next] = parked{i: i, at: now}
	return t.next
}

// onSubstitute is discordgo's handler of SubstituteEvent: the parked
// interaction of its key goes to the handler.
func (t *Taker) onSubstitute(_ *discordgo.Session, w *discordgo.WebhooksUpdate) {
	key, ok := strings.CutPrefix(w.ChannelID, keyPrefix)
	if !ok {
		return // a real WEBHOOKS_UPDATE
	}
	k, err := strconv.ParseUint(key, 10, 64)
	if err != nil {
		return
	}
	t.mu.Lock()
	p, ok := t.parked[k]
	delete(t.parked, k)
	t.mu.Unlock()
	if ok {
		t.handle(p.i)
	}
}

// Dialer returns the websocket dialer whose connections take the
// interactions: ws:// URLs are dialled over TCP; wss:// over TLS with the
// system's roots, as gorilla would. It uses no proxy: see UsesProxy.
func (t *Taker) Dialer() *websocket.Dialer {
	nd := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	return &websocket.Dialer{
		HandshakeTimeout: websocket.DefaultDialer.HandshakeTimeout,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return newConn(c, t.park), nil
		},
		NetDialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			tc := tls.Client(c, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: t.roots})
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = c.Close()
				return nil, err
			}
			return newConn(tc, t.park), nil
		},
	}
}

// UsesProxy says whether the environment (HTTPS_PROXY and friends) names
// a proxy for the gateway at gatewayURL: gorilla would then dial through
// it, which NewDialer's connections do not, so keep discordgo's dialer.
func UsesProxy(gatewayURL string) bool {
	u, err := url.Parse(gatewayURL)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	p, err := http.ProxyFromEnvironment(&http.Request{URL: u})
	return err != nil || p != nil
}

// conn is a gateway connection whose reads go through a frameReader.
type conn struct {
	net.Conn
	r *frameReader
}

func newConn(c net.Conn, park func(*discordgo.Interaction) uint64) *conn {
	return &conn{Conn: c, r: newFrameReader(c, park)}
}

// Read reads the connection's bytes with INTERACTION_CREATE frames taken.
func (c *conn) Read(p []byte) (int, error) { return c.r.Read(p) }

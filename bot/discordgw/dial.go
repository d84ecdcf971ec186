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
// So NewDialer's connections read the server's bytes through a reader of
// WebSocket frames (RFC 6455). It passes the HTTP upgrade response through
// untouched, and every frame byte for byte, except a complete,
// unfragmented text frame (no RSV bits, no larger than
// MaxInteractionFrame) whose JSON is a dispatch (op 0) of
// INTERACTION_CREATE that bot/discordhttp.DecodeInteraction (the HTTP
// endpoint's decoder, segmentio/encoding, checked against discordgo's
// decoding there) reads: the interaction goes to the bot's handler on a
// goroutine of its own, as discordgo would call it (SyncEvents off), and
// discordgo gets instead a dispatch of SubstituteEvent with the same "s"
// and an empty body, so that it stores the sequence number for its
// heartbeats and RESUME as before. Anything else — other events, binary
// (zlib) messages, fragmented messages, control frames, a frame the
// decoder refuses, a bigger frame — reaches discordgo as it came, and
// discordgo stays the gateway client in every other respect (identify,
// heartbeat, resume, reconnect, sharding).
//
// Dispatches must come as text frames for this: sessions using the
// dialer identify without "compress" (Discord would otherwise send some
// dispatches zlib-compressed in binary frames; those would still pass
// through, untaken). The trade is bandwidth: events Discord would have
// compressed (READY, GUILD_CREATE of big servers) come uncompressed.
package discordgw

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// dialTimeout bounds a TCP connect to the gateway (gorilla's handshake
// timeout bounds the whole upgrade).
const dialTimeout = 30 * time.Second

// NewDialer returns the dialer for a discordgo Session.Dialer whose
// connections hand each INTERACTION_CREATE's interaction to handle (on a
// goroutine of its own) instead of to discordgo. ws:// URLs are dialled
// over TCP; wss:// over TLS with the system's roots, as gorilla would.
// It uses no proxy: see UsesProxy.
func NewDialer(handle func(*discordgo.Interaction)) *websocket.Dialer {
	async := func(i *discordgo.Interaction) { go handle(i) }
	nd := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	return &websocket.Dialer{
		HandshakeTimeout: websocket.DefaultDialer.HandshakeTimeout,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return newConn(c, async), nil
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
			tc := tls.Client(c, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = c.Close()
				return nil, err
			}
			return newConn(tc, async), nil
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

func newConn(c net.Conn, handle func(*discordgo.Interaction)) *conn {
	return &conn{Conn: c, r: newFrameReader(c, handle)}
}

// Read reads the connection's bytes with INTERACTION_CREATE frames taken.
func (c *conn) Read(p []byte) (int, error) { return c.r.Read(p) }

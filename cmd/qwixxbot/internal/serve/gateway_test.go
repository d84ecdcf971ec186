package serve

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/discordgw"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// TestTakeInteractionsIdentifiesUncompressed: the session gets discordgw's
// dialer and identifies without compression (so that interactions come
// as text frames), unless a proxy is configured for the gateway, when
// discordgo's dialer and identify stay as they were.
func TestTakeInteractionsIdentifiesUncompressed(t *testing.T) {
	for _, base := range []string{"", "http://127.0.0.1:1"} {
		s, err := discordgo.New("Bot x")
		if err != nil {
			t.Fatal(err)
		}
		takeInteractions(s, nil, config.Discord{BaseURL: base}, newMetrics(), zerolog.Nop())
		gw := "wss://gateway.discord.gg"
		if base != "" {
			gw = base
		}
		if discordgw.UsesProxy(gw) {
			if s.Dialer != websocket.DefaultDialer || !s.Identify.Compress {
				t.Errorf("%q behind a proxy: the dialer or compression changed", base)
			}
			continue
		}
		if s.Dialer == websocket.DefaultDialer || s.Dialer.NetDialContext == nil || s.Dialer.NetDialTLSContext == nil {
			t.Errorf("%q: discordgo's own dialer kept", base)
		}
		if s.Identify.Compress || s.Compress {
			t.Errorf("%q: identifies with compression", base)
		}
	}
}

package serve

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// A public key of the right form that no key pair has (a point of small
// order, which crypto/ed25519 would take, and then forged signatures of
// every message with it; or no point at all) stops the start with what to
// do, before the database opens.
func TestEndpointKeyNoKeyPairHasRefusedAtStart(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"0100000000000000000000000000000000000000000000000000000000000000", "discord.public_key: public key: a point of small order, which no key pair has (copy it from the developer portal's General Information > Public Key)"},
		{"0200000000000000000000000000000000000000000000000000000000000000", "discord.public_key: public key: not a point of Ed25519 (copy it from the developer portal's General Information > Public Key)"},
	} {
		db := filepath.Join(t.TempDir(), "bot.db")
		var cfg config.Config
		cfg.Discord.Token = config.NewSecret("x")
		cfg.Discord.ShardCount = 1
		cfg.Discord.InteractionsAddr = "127.0.0.1:0"
		cfg.Discord.PublicKey = c.key
		cfg.Store.Path = db
		err := Run(context.Background(), cfg, zerolog.Nop(), Options{})
		if err == nil || err.Error() != c.want {
			t.Errorf("key %s: Run = %v, want %q", c.key, err, c.want)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("key %s: the refused start created the database", c.key)
		}
	}
}

func TestEndpointKey(t *testing.T) {
	k, err := endpointKey(config.Discord{PublicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"})
	if k != nil || err != nil {
		t.Errorf("endpoint off: %v, %v", k, err)
	}
	const key = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"
	k, err = endpointKey(config.Discord{InteractionsAddr: "127.0.0.1:8443", PublicKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := hex.DecodeString(key); !bytes.Equal(k.Bytes(), want) {
		t.Errorf("key %x, want %s", k.Bytes(), key)
	}
	if _, err := endpointKey(config.Discord{InteractionsAddr: "127.0.0.1:8443", PublicKey: strings.Repeat("ab", 16)}); err == nil || !strings.HasPrefix(err.Error(), "discord.public_key: public key: 16 bytes, want 32") {
		t.Errorf("short key: %v", err)
	}
}

package discordhttp

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/workers"
)

// botMessages are the messages the bot sends, as Discord shows them in a
// click's "message" field: the view package's golden files (the tables of
// every variant, lobbies, hands, sheets, results…) with what Discord adds
// (author, timestamps, an attachment), by golden file name.
func botMessages(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "view", "testdata", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden views in ../view/testdata (%v)", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Message    *json.RawMessage
			Content    string
			Components json.RawMessage
			Embeds     json.RawMessage
			Flags      int
		}
		if json.Unmarshal(raw, &v) != nil {
			continue // not an object
		}
		if v.Message != nil {
			if json.Unmarshal(*v.Message, &v) != nil {
				continue
			}
		}
		if v.Components == nil && v.Content == "" {
			continue // an embed, not a message
		}
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		out[name] = discordMessage(name, v.Content, v.Components, v.Embeds, v.Flags)
	}
	return out
}

// discordMessage is a message as Discord sends it in an interaction.
func discordMessage(name, content string, comps, embeds json.RawMessage, flags int) []byte {
	if comps == nil || string(comps) == "null" {
		comps = json.RawMessage(`[]`)
	}
	if embeds == nil || string(embeds) == "null" {
		embeds = json.RawMessage(`[]`)
	}
	m := map[string]any{
		"id": "1311111111111111111", "channel_id": "1322222222222222222", "content": content,
		"timestamp": "2026-11-28T20:00:00.123000+00:00", "edited_timestamp": "2026-11-28T20:01:02.456000+00:00",
		"tts": false, "mention_everyone": false, "mentions": []any{}, "mention_roles": []any{}, "pinned": false,
		"type": 0, "flags": flags, "components": comps, "embeds": embeds,
		"author": map[string]any{"id": "1100000000000000001", "username": "Qwixx", "global_name": nil, "avatar": "0123456789abcdef0123456789abcdef", "discriminator": "0", "bot": true, "public_flags": 0},
		"attachments": []any{map[string]any{"id": "1333333333333333333", "filename": name + ".png", "size": 41234, "width": 960, "height": 540,
			"content_type": "image/png", "url": "https://cdn.discordapp.com/attachments/1322222222222222222/1333333333333333333/" + name + ".png?ex=674a&is=6748&hm=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef&",
			"proxy_url": "https://media.discordapp.net/attachments/1322222222222222222/1333333333333333333/" + name + ".png?ex=674a&is=6748&hm=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef&"}},
		"application_id": "1100000000000000001", "webhook_id": "1100000000000000001",
		"interaction_metadata": map[string]any{"id": "1344444444444444444", "type": 3, "user": map[string]any{"id": "1200000000000000001", "username": "anna", "global_name": "Anna"}, "authorizing_integration_owners": map[string]any{"0": "1400000000000000001"}},
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// firstCustomID is the custom_id of the first button or menu of a message
// ("" none).
func firstCustomID(message []byte) string {
	var m struct {
		Components []struct {
			Components []struct {
				CustomID string `json:"custom_id"`
			} `json:"components"`
		} `json:"components"`
	}
	_ = json.Unmarshal(message, &m)
	for _, r := range m.Components {
		for _, c := range r.Components {
			if c.CustomID != "" {
				return c.CustomID
			}
		}
	}
	return ""
}

// guildClick is a click on message in a guild channel, as Discord POSTs it.
func guildClick(id string, message []byte) []byte {
	p := map[string]any{
		"id": id, "application_id": "1100000000000000001", "type": 3, "version": 1,
		"token":      "aW50ZXJhY3Rpb246" + strings.Repeat("0123456789abcdef", 12),
		"channel_id": "1322222222222222222", "guild_id": "1400000000000000001", "guild_locale": "en-US", "locale": "de",
		"app_permissions": "2248473465835073", "entitlements": []any{}, "attachment_size_limit": 10485760, "context": 0,
		"authorizing_integration_owners": map[string]any{"0": "1400000000000000001"},
		"guild":                          map[string]any{"id": "1400000000000000001", "locale": "en-US", "features": []any{}},
		"channel": map[string]any{"id": "1322222222222222222", "type": 0, "guild_id": "1400000000000000001", "name": "qwixx", "position": 3,
			"permission_overwrites": []any{}, "nsfw": false, "parent_id": "1500000000000000001", "topic": nil, "last_message_id": "1311111111111111111", "rate_limit_per_user": 0, "flags": 0},
		"member": map[string]any{"user": map[string]any{"id": "1200000000000000001", "username": "anna", "global_name": "Anna", "avatar": nil, "discriminator": "0", "public_flags": 0},
			"nick": nil, "roles": []any{"1600000000000000001"}, "joined_at": "2025-01-02T03:04:05.678000+00:00", "premium_since": nil,
			"deaf": false, "mute": false, "pending": false, "flags": 0, "permissions": "2248473465835073", "avatar": nil, "communication_disabled_until": nil},
		"data":    map[string]any{"custom_id": firstCustomID(message), "component_type": 2},
		"message": json.RawMessage(message),
	}
	b, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	return b
}

// discardWriter is an http.ResponseWriter that keeps the status and counts
// the bytes of the response.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(c int)   { w.status = c }
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}
func (w *discardWriter) Flush() {}

// BenchmarkEndpointClick is one click through the endpoint: a signed click
// on the dice table (a few KiB, with the message's components and embeds)
// POSTed to ServeHTTP, verified and decoded, and answered with an update
// of the table carrying a 40 KB picture (multipart), the handler on a
// worker of the workers pool ("pool") or on a goroutine of its own ("go").
func BenchmarkEndpointClick(b *testing.B) {
	msgs := botMessages(b)
	message := msgs["table_dice_color_en"]
	if message == nil {
		b.Fatal("no table_dice_color_en golden view")
	}
	body := guildClick("1700000000000000001", message)
	var data discordgo.InteractionResponseData
	var golden struct {
		Content    string
		Components json.RawMessage
	}
	raw, err := os.ReadFile(filepath.Join("..", "view", "testdata", "table_dice_color_en.json"))
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		b.Fatal(err)
	}
	var withComps discordgo.Message
	if err := withComps.UnmarshalJSON(append(append([]byte(`{"components":`), golden.Components...), '}')); err != nil {
		b.Fatal(err)
	}
	data.Content, data.Components = golden.Content, withComps.Components
	png := make([]byte, 40<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range png {
		png[k] = byte(rng.Uint32())
	}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		b.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...)))
	e := NewEndpoint(mustPublicKey(b, pub), func(i *discordgo.Interaction, to bot.Answerer) {
		d := data
		d.Files = []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
		d.Attachments = &[]*discordgo.MessageAttachment{{ID: "0", Filename: "table.png"}}
		if err := to.Answer(context.Background(), i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &d}); err != nil {
			panic(err)
		}
	}, newHookRecorder(), zerolog.Nop())
	// "pool": the bot's handling on the workers pool, as the endpoint
	// runs it; "go": on a new goroutine each, as before the pool.
	for _, how := range []string{"pool", "go"} {
		b.Run(how, func(b *testing.B) {
			if how == "go" {
				e.spawn = func(f func()) { go f() }
			} else {
				e.spawn = workers.Go
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Signature-Ed25519", sig)
				req.Header.Set("X-Signature-Timestamp", ts)
				w := &discardWriter{h: make(http.Header)}
				e.ServeHTTP(w, req)
				if w.status != http.StatusOK || w.n < len(png) {
					b.Fatalf("status %d, %d bytes", w.status, w.n)
				}
			}
		})
	}
}

// sortedNames are m's keys in order.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// BenchmarkDecodeInteractionClick decodes a click on the dice table.
func BenchmarkDecodeInteractionClick(b *testing.B) {
	body := guildClick("1700000000000000001", botMessages(b)["table_dice_color_en"])
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeInteraction(body); err != nil {
			b.Fatal(err)
		}
	}
}

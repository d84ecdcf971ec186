package discordhttp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// readFields are the fields of a clicked message the bot reads (the
// bot package's readers: the ID, channel, flags, content, attachments,
// embeds, and the custom_ids of the buttons and menus in its action rows,
// with every other field of its components).
type readFields struct {
	ID, ChannelID, Content string
	Flags                  discordgo.MessageFlags
	Attachments            []*discordgo.MessageAttachment
	Embeds                 []*discordgo.MessageEmbed
	Components             []discordgo.MessageComponent
	CustomIDs              []string
}

func fieldsRead(m *discordgo.Message) readFields {
	f := readFields{ID: m.ID, ChannelID: m.ChannelID, Content: m.Content, Flags: m.Flags, Attachments: m.Attachments, Embeds: m.Embeds, Components: m.Components}
	for _, row := range m.Components {
		ar, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			switch x := c.(type) {
			case *discordgo.Button:
				f.CustomIDs = append(f.CustomIDs, x.CustomID)
			case *discordgo.SelectMenu:
				f.CustomIDs = append(f.CustomIDs, x.CustomID)
			}
		}
	}
	return f
}

// TestDecodeClicksOnBotMessagesAsDiscordgo: a click on any message the
// bot sends (tables of each variant, lobbies, hands, sheets, results…)
// decodes to the message fields the bot reads exactly as discordgo
// decodes them, components included (rows, buttons with their labels,
// styles, emoji and disabled state, menus with their options).
func TestDecodeClicksOnBotMessagesAsDiscordgo(t *testing.T) {
	msgs := botMessages(t)
	kinds := map[string]bool{}
	for _, name := range sortedNames(msgs) {
		raw := guildClick("1700000000000000001", msgs[name])
		got, err := DecodeInteraction(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want discordgo.Interaction
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: discordgo: %v", name, err)
		}
		if got.Message == nil || want.Message == nil {
			t.Fatalf("%s: no message", name)
		}
		g, w := fieldsRead(got.Message), fieldsRead(want.Message)
		if !reflect.DeepEqual(g, w) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			t.Errorf("%s:\n got %s\nwant %s", name, gj, wj)
		}
		if got.MessageComponentData().CustomID != want.MessageComponentData().CustomID {
			t.Errorf("%s: data custom_id %q, want %q", name, got.MessageComponentData().CustomID, want.MessageComponentData().CustomID)
		}
		for _, row := range got.Message.Components {
			for _, c := range row.(*discordgo.ActionsRow).Components {
				kinds[reflect.TypeOf(c).String()] = true
				if b, ok := c.(*discordgo.Button); ok && b.Emoji != nil {
					kinds["emoji"] = true
				}
				if s, ok := c.(*discordgo.SelectMenu); ok && len(s.Options) > 0 {
					kinds["options"] = true
				}
			}
		}
	}
	for _, k := range []string{"*discordgo.Button", "*discordgo.SelectMenu", "emoji", "options"} {
		if !kinds[k] {
			t.Errorf("no message with %s among the bot's messages: the test misses a case", k)
		}
	}
}

// componentsSeeds are components arrays for the fuzz test: those of the
// bot's messages, and some the bot does not send.
func componentsSeeds(t testing.TB) [][]byte {
	var out [][]byte
	msgs := botMessages(t)
	for _, name := range sortedNames(msgs) {
		var m struct {
			Components json.RawMessage `json:"components"`
		}
		if err := json.Unmarshal(msgs[name], &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := fastComponents(m.Components); !ok {
			t.Errorf("%s: the components of a message the bot sends take the slow way", name)
		}
		out = append(out, m.Components)
	}
	return append(out,
		[]byte(`[]`), []byte(`null`), []byte(`[null]`), []byte(`[{"type":1}]`), []byte(`[{"type":1,"components":null}]`),
		[]byte(`[{"type":1,"components":[null]}]`), []byte(`[{"type":1,"id":3,"components":[{"type":2,"style":5,"url":"https://x","label":"a","emoji":{"name":"🎲","id":"1","animated":true},"sku_id":"9","id":4}]}]`),
		[]byte(`[{"type":1,"components":[{"type":3,"custom_id":"m","min_values":0,"max_values":2,"placeholder":"p","options":[{"label":"l","value":"v","description":"d","default":true,"emoji":{"name":"x"}}]}]}]`),
		[]byte(`[{"type":1,"components":[{"type":8,"custom_id":"c","channel_types":[0,2],"default_values":[{"id":"1","type":"channel"}],"disabled":true}]}]`),
		[]byte(`[{"type":1,"components":[{"type":4,"custom_id":"t","label":"x","style":1,"required":true}]}]`),
		[]byte(`[{"type":10,"content":"text"},{"type":1,"components":[{"type":2,"custom_id":"b"}]}]`),
		[]byte(`[{"type":17,"components":[{"type":1,"components":[{"type":2,"custom_id":"b"}]}]}]`),
		[]byte(`[{"TYPE":1,"Components":[{"Type":2,"Custom_ID":"b","LABEL":"x"}]}]`),
		[]byte(`[{"type":1,"components":[{"type":2,"custom_id":"a","custom_id":"b","style":1.5}]}]`),
		[]byte(`[{"type":1,"components":[{"type":2,"label":"\ud800 \xff","custom_id":"\u00e9"}]}]`),
		[]byte(`{"type":1}`), []byte(`[{"type":"1"}]`), []byte(`[{"type":99}]`),
	)
}

// decodeAsDiscordgo decodes components as discordgo does.
func decodeAsDiscordgo(raw []byte) ([]discordgo.MessageComponent, error) {
	var m discordgo.Message
	err := m.UnmarshalJSON(append(append([]byte(`{"components":`), raw...), '}'))
	return m.Components, err
}

// TestDecodeComponentsAsDiscordgo: the seeds of the fuzz test decode as
// discordgo decodes them (or fail where discordgo fails).
// The decoder reuses its scratch rows: decoded one after the other in
// either order, each decodes as itself.
func TestDecodeComponentsAsDiscordgo(t *testing.T) {
	seeds := componentsSeeds(t)
	for _, raw := range seeds {
		checkComponentsAsDiscordgo(t, raw)
	}
	for k := len(seeds) - 1; k >= 0; k-- {
		checkComponentsAsDiscordgo(t, seeds[k])
	}
}

func checkComponentsAsDiscordgo(t *testing.T, raw []byte) {
	t.Helper()
	want, werr := decodeAsDiscordgo(raw)
	got, err := decodeComponents(raw)
	if werr != nil {
		if err == nil {
			t.Errorf("%s: decoded where discordgo fails (%v)", raw, werr)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v, discordgo decodes it", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Errorf("%s:\n got %s\nwant %s", raw, gj, wj)
	}
}

// FuzzDecodeComponents: any components JSON decodes without a panic, to
// what discordgo decodes whenever discordgo decodes it.
func FuzzDecodeComponents(f *testing.F) {
	for _, s := range componentsSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			// Invalid JSON does not reach the components: the whole
			// interaction fails to parse first. It must not panic.
			_, _ = decodeComponents(raw)
			return
		}
		checkComponentsAsDiscordgo(t, raw)
	})
}

// TestDecodeInteractionKeepsNothingOfItsInput: the endpoint reuses a
// request's buffer once the interaction is decoded, so the interaction
// must not refer to it: overwriting the input after decoding changes
// nothing in what was decoded.
func TestDecodeInteractionKeepsNothingOfItsInput(t *testing.T) {
	inputs := map[string][]byte{"command": commandJSON("1"), "click": clickJSON("2"),
		"modal": []byte(`{"id":"3","type":5,"token":"t","channel_id":"4","user":{"id":"5","username":"u"},"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"f","value":"typed"}]}]}}`)}
	for name, m := range botMessages(t) {
		inputs[name] = guildClick("9", m)
	}
	for name, raw := range inputs {
		want, err := DecodeInteraction(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		buf := append([]byte(nil), raw...)
		got, err := DecodeInteraction(buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k := range buf {
			buf[k] = 'X'
		}
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.Marshal(got)
			t.Errorf("%s: changed with its input: %s", name, gj)
		}
	}
	if _, err := DecodeInteraction([]byte(`{"type":2} x`)); err == nil {
		t.Error("trailing bytes decoded")
	}
}

package discordhttp

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"
)

// wireInteraction is what the bot reads of an interaction, decoded with
// segmentio/encoding's JSON (discordgo decodes interactions with
// encoding/json, a sixth of the bot's time under load).
type wireInteraction struct {
	ID                           string                                          `json:"id"`
	AppID                        string                                          `json:"application_id"`
	Type                         discordgo.InteractionType                       `json:"type"`
	Data                         json.RawMessage                                 `json:"data"`
	GuildID                      string                                          `json:"guild_id"`
	ChannelID                    string                                          `json:"channel_id"`
	Message                      *wireMessage                                    `json:"message"`
	AppPermissions               int64                                           `json:"app_permissions,string"`
	Member                       *wireMember                                     `json:"member"`
	User                         *discordgo.User                                 `json:"user"`
	Locale                       discordgo.Locale                                `json:"locale"`
	GuildLocale                  *discordgo.Locale                               `json:"guild_locale"`
	Context                      discordgo.InteractionContextType                `json:"context"`
	AuthorizingIntegrationOwners map[discordgo.ApplicationIntegrationType]string `json:"authorizing_integration_owners"`
	Token                        string                                          `json:"token"`
	Version                      int                                             `json:"version"`
}

// wireMember is what the bot reads of the member who interacted.
type wireMember struct {
	User        *discordgo.User `json:"user"`
	Nick        string          `json:"nick"`
	Permissions int64           `json:"permissions,string"`
}

// wireMessage is what the bot reads of the clicked message: its ID,
// flags, content, attachments, embeds and components.
type wireMessage struct {
	ID          string                         `json:"id"`
	ChannelID   string                         `json:"channel_id"`
	Content     string                         `json:"content"`
	Flags       discordgo.MessageFlags         `json:"flags"`
	Attachments []*discordgo.MessageAttachment `json:"attachments"`
	Embeds      []*discordgo.MessageEmbed      `json:"embeds"`
	Components  json.RawMessage                `json:"components"`
}

// wireRow is a top-level component of a message as the bot sends them: an
// action row of buttons and select menus.
type wireRow struct {
	Type       discordgo.ComponentType `json:"type"`
	ID         int                     `json:"id"`
	Components []wireLeaf              `json:"components"`
}

// wireLeaf is a button's or a select menu's fields (discordgo.Button's and
// discordgo.SelectMenu's, under the same keys; "type" tells which).
type wireLeaf struct {
	Type     discordgo.ComponentType   `json:"type"`
	ID       int                       `json:"id"`
	CustomID string                    `json:"custom_id"`
	Disabled bool                      `json:"disabled"`
	Label    string                    `json:"label"`
	Style    discordgo.ButtonStyle     `json:"style"`
	Emoji    *discordgo.ComponentEmoji `json:"emoji"`
	URL      string                    `json:"url"`
	SKUID    string                    `json:"sku_id"`

	Placeholder   string                             `json:"placeholder"`
	MinValues     *int                               `json:"min_values"`
	MaxValues     int                                `json:"max_values"`
	DefaultValues []discordgo.SelectMenuDefaultValue `json:"default_values"`
	Options       []discordgo.SelectMenuOption       `json:"options"`
	ChannelTypes  []discordgo.ChannelType            `json:"channel_types"`
}

// decodeComponents decodes a message's components as discordgo's
// Message.UnmarshalJSON does (an *ActionsRow of *Button and *SelectMenu
// for each row; TestDecodeComponentsAsDiscordgo, FuzzDecodeComponents):
// the action rows of buttons and select menus that the bot sends with
// segmentio/encoding's JSON in one pass, anything else through discordgo
// (encoding/json, which decodes each level of nesting again).
func decodeComponents(raw []byte) ([]discordgo.MessageComponent, error) {
	if comps, ok := fastComponents(raw); ok {
		return comps, nil
	}
	var withComps discordgo.Message
	buf := make([]byte, 0, len(raw)+len(`{"components":}`))
	if err := withComps.UnmarshalJSON(append(append(append(buf, `{"components":`...), raw...), '}')); err != nil {
		return nil, err
	}
	return withComps.Components, nil
}

// fastComponents decodes components that are action rows of buttons and
// select menus in one pass, or says it cannot.
func fastComponents(raw []byte) ([]discordgo.MessageComponent, bool) {
	sp := rowScratch.Get().(*[]wireRow)
	rows := (*sp)[:0]
	var comps []discordgo.MessageComponent
	ok := fastjson.Unmarshal(raw, &rows) == nil
	if ok {
		comps, ok = rowComponents(rows)
	}
	// Zeroed for the next decode (segmentio decodes into a slice's
	// elements where they lie, and keeps what a key left out): the
	// components made hold their own copies of the rows' fields, and the
	// pointers in them (emoji, options) are no longer the scratch's.
	rows = rows[:cap(rows)]
	leaves := 0
	for k := range rows {
		l := rows[k].Components[:cap(rows[k].Components)]
		clear(l)
		leaves += len(l)
		rows[k] = wireRow{Components: l[:0]}
	}
	if len(rows) <= 10 && leaves <= 100 {
		*sp = rows[:0]
		rowScratch.Put(sp)
	}
	return comps, ok
}

// rowScratch are the rows fastComponents decodes into, reused (a message
// has at most 5 rows of 5 components; segmentio makes room for 10 at a
// time).
var rowScratch = sync.Pool{New: func() any { return new([]wireRow) }}

// rowComponents are rows as discordgo's components, or false if one is
// not an action row of buttons and select menus (or is null).
func rowComponents(rows []wireRow) ([]discordgo.MessageComponent, bool) {
	n := 0
	for _, r := range rows {
		if r.Type != discordgo.ActionsRowComponent {
			return nil, false
		}
		for _, c := range r.Components {
			switch c.Type {
			case discordgo.ButtonComponent, discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent,
				discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
			default:
				return nil, false
			}
			n++
		}
	}
	// One allocation for the rows, one for the leaves' interfaces, one
	// each for the buttons and the menus.
	out := make([]discordgo.MessageComponent, len(rows))
	rowVals := make([]discordgo.ActionsRow, len(rows))
	leaves := make([]discordgo.MessageComponent, n)
	nb, ns := 0, 0
	for _, r := range rows {
		for _, c := range r.Components {
			if c.Type == discordgo.ButtonComponent {
				nb++
			} else {
				ns++
			}
		}
	}
	buttons := make([]discordgo.Button, nb)
	menus := make([]discordgo.SelectMenu, ns)
	nb, ns, n = 0, 0, 0
	for k, r := range rows {
		start := n
		for _, c := range r.Components {
			if c.Type == discordgo.ButtonComponent {
				buttons[nb] = discordgo.Button{Label: c.Label, Style: c.Style, Disabled: c.Disabled, Emoji: c.Emoji,
					URL: c.URL, CustomID: c.CustomID, SKUID: c.SKUID, ID: c.ID}
				leaves[n] = &buttons[nb]
				nb++
			} else {
				menus[ns] = discordgo.SelectMenu{MenuType: discordgo.SelectMenuType(c.Type), CustomID: c.CustomID, Placeholder: c.Placeholder,
					MinValues: c.MinValues, MaxValues: c.MaxValues, DefaultValues: c.DefaultValues, Options: c.Options,
					Disabled: c.Disabled, ChannelTypes: c.ChannelTypes, ID: c.ID}
				leaves[n] = &menus[ns]
				ns++
			}
			n++
		}
		rowVals[k] = discordgo.ActionsRow{Components: leaves[start:n:n], ID: r.ID}
		out[k] = &rowVals[k]
	}
	return out, true
}

// unmarshalRaw is fastjson.Unmarshal with the json.RawMessage values
// (the interaction's data, the message's components) left in raw, not
// copied: they are decoded from there before DecodeInteraction returns.
// Strings are copied: the interaction keeps nothing of raw.
func unmarshalRaw(raw []byte, x any) error {
	rest, err := fastjson.Parse(raw, x, fastjson.DontCopyRawMessage)
	if len(rest) != 0 {
		if _, ok := err.(*fastjson.SyntaxError); !ok {
			// As Unmarshal: trailing bytes are the error to report.
			err = fmt.Errorf("invalid character %q after top-level value", rest[0])
		}
	}
	return err
}

// DecodeInteraction decodes an interaction as Discord POSTs it to the
// interactions endpoint (the same object as the gateway's
// INTERACTION_CREATE), reading only the fields the bot reads. The
// interaction keeps no reference to raw.
func DecodeInteraction(raw []byte) (*discordgo.Interaction, error) {
	var w wireInteraction
	if err := unmarshalRaw(raw, &w); err != nil {
		return nil, fmt.Errorf("decode interaction: %w", err)
	}
	return w.interaction()
}

// Dispatch is a gateway dispatch ({"op","s","t","d"}) whose d was read
// as an interaction (DecodeDispatch).
type Dispatch struct {
	Op          *int   // nil when absent
	Seq         *int64 // nil when absent
	Type        string
	Interaction *discordgo.Interaction // nil when d is absent or null
}

// DecodeDispatch decodes a gateway payload whose d is an interaction (an
// INTERACTION_CREATE dispatch) in one pass, as DecodeInteraction decodes
// the interaction; a payload whose d is no interaction gives an error (or
// a Dispatch whose Type says what it is). The interaction keeps no
// reference to payload.
func DecodeDispatch(payload []byte) (Dispatch, error) {
	var e struct {
		Op *int             `json:"op"`
		S  *int64           `json:"s"`
		T  string           `json:"t"`
		D  *wireInteraction `json:"d"`
	}
	if err := unmarshalRaw(payload, &e); err != nil {
		return Dispatch{}, fmt.Errorf("decode dispatch: %w", err)
	}
	d := Dispatch{Op: e.Op, Seq: e.S, Type: e.T}
	if e.D != nil {
		i, err := e.D.interaction()
		if err != nil {
			return Dispatch{}, err
		}
		d.Interaction = i
	}
	return d, nil
}

// interaction is the interaction w was decoded from, its data and the
// message's components decoded from where they lie.
func (w *wireInteraction) interaction() (*discordgo.Interaction, error) {
	i := &discordgo.Interaction{ID: w.ID, AppID: w.AppID, Type: w.Type, GuildID: w.GuildID, ChannelID: w.ChannelID,
		AppPermissions: w.AppPermissions, User: w.User, Locale: w.Locale, GuildLocale: w.GuildLocale, Context: w.Context,
		AuthorizingIntegrationOwners: w.AuthorizingIntegrationOwners, Token: w.Token, Version: w.Version}
	if m := w.Member; m != nil {
		i.Member = &discordgo.Member{User: m.User, Nick: m.Nick, Permissions: m.Permissions, GuildID: w.GuildID}
	}
	if m := w.Message; m != nil {
		i.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, Content: m.Content, Flags: m.Flags, Attachments: m.Attachments, Embeds: m.Embeds}
		if len(m.Components) > 0 && string(m.Components) != "null" {
			comps, err := decodeComponents(m.Components)
			if err != nil {
				return nil, fmt.Errorf("decode interaction: message components: %w", err)
			}
			i.Message.Components = comps
		}
	}
	if len(w.Data) == 0 || string(w.Data) == "null" {
		return i, nil
	}
	var err error
	switch w.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var d discordgo.ApplicationCommandInteractionData
		err = fastjson.Unmarshal(w.Data, &d)
		i.Data = d
	case discordgo.InteractionMessageComponent:
		var d discordgo.MessageComponentInteractionData
		err = fastjson.Unmarshal(w.Data, &d)
		i.Data = d
	case discordgo.InteractionModalSubmit:
		var d discordgo.ModalSubmitInteractionData
		err = json.Unmarshal(w.Data, &d)
		i.Data = d
	}
	if err != nil {
		return nil, fmt.Errorf("decode interaction: data: %w", err)
	}
	return i, nil
}

package discordtest

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// fieldErrors is Discord's nested "errors" object of a 50035 Invalid Form
// Body answer: {"data":{"components":{"0":{"_errors":[{code,message}]}}}}.
type fieldErrors map[string]any

func (fe fieldErrors) add(path, code, msg string) {
	m := map[string]any(fe)
	if path != "" {
		for _, p := range strings.Split(path, ".") {
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
	}
	list, _ := m["_errors"].([]any)
	m["_errors"] = append(list, map[string]any{"code": code, "message": msg})
}

// summary flattens the errors into "path: message" lines for logs.
func (fe fieldErrors) summary() string {
	var lines []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if k == "_errors" {
				for _, e := range v.([]any) {
					em := e.(map[string]any)
					lines = append(lines, fmt.Sprintf("%s: %s (%s)", strings.TrimPrefix(prefix, "."), em["message"], em["code"]))
				}
				continue
			}
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+"."+k, sub)
			}
		}
	}
	walk("", fe)
	sort.Strings(lines)
	return strings.Join(lines, "; ")
}

func join(prefix string, parts ...any) string {
	for _, p := range parts {
		prefix += "." + fmt.Sprint(p)
	}
	return strings.TrimPrefix(prefix, ".")
}

func n(s string) int { return utf8.RuneCountInString(s) }

func maxLen(fe fieldErrors, path, s string, max int) {
	if n(s) > max {
		fe.add(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", max))
	}
}

func lenBetween(fe fieldErrors, path, s string, min, max int) {
	if l := n(s); l < min || l > max {
		fe.add(path, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", min, max))
	}
}

// Message limits.
const (
	maxContent       = 2000
	maxEmbeds        = 10
	maxEmbedTotal    = 6000
	maxRows          = 5
	maxRowChildren   = 5
	maxSelectOptions = 25
	maxAttachments   = 10
)

// validateContent checks content, embeds and components of a payload.
func validateContent(fe fieldErrors, prefix string, p *msgPayload) {
	if p.has["content"] {
		maxLen(fe, join(prefix, "content"), p.Content, maxContent)
	}
	if p.has["embeds"] {
		validateEmbeds(fe, join(prefix, "embeds"), p.Embeds)
	}
	if p.has["components"] {
		validateComponents(fe, join(prefix, "components"), p.Components, p.Flags&FlagComponentsV2 != 0)
	}
	if p.has["attachments"] && len(p.Attachments) > maxAttachments {
		fe.add(join(prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxAttachments))
	}
}

func validateEmbeds(fe fieldErrors, path string, embeds []*discordgo.MessageEmbed) {
	if len(embeds) > maxEmbeds {
		fe.add(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxEmbeds))
	}
	total := 0
	for i, e := range embeds {
		if e == nil {
			fe.add(join(path, i), "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		ep := join(path, i)
		maxLen(fe, join(ep, "title"), e.Title, 256)
		maxLen(fe, join(ep, "description"), e.Description, 4096)
		total += n(e.Title) + n(e.Description)
		if len(e.Fields) > 25 {
			fe.add(join(ep, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		for j, f := range e.Fields {
			if f == nil {
				continue
			}
			lenBetween(fe, join(ep, "fields", j, "name"), f.Name, 1, 256)
			lenBetween(fe, join(ep, "fields", j, "value"), f.Value, 1, 1024)
			total += n(f.Name) + n(f.Value)
		}
		if e.Footer != nil {
			maxLen(fe, join(ep, "footer", "text"), e.Footer.Text, 2048)
			total += n(e.Footer.Text)
		}
		if e.Author != nil {
			maxLen(fe, join(ep, "author", "name"), e.Author.Name, 256)
			total += n(e.Author.Name)
		}
	}
	if total > maxEmbedTotal {
		fe.add(path, "MAX_EMBED_SIZE_EXCEEDED", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal))
	}
}

func isSelect(t int) bool { return t == 3 || (t >= 5 && t <= 8) }

// validateComponents enforces Discord's component rules for messages.
func validateComponents(fe fieldErrors, path string, rows []Component, v2 bool) {
	ids := map[string]bool{}
	checkID := func(p, id string) {
		if id == "" {
			return
		}
		if ids[id] {
			fe.add(join(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		ids[id] = true
	}
	if !v2 && len(rows) > maxRows {
		fe.add(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxRows))
	}
	for i, row := range rows {
		rp := join(path, i)
		if row.Type != 1 {
			if !v2 {
				fe.add(join(rp, "type"), "UNION_TYPE_CHOICES", `Value of field "type" must be one of (1,).`)
			}
			// Components V2 layouts are accepted without deeper checks,
			// apart from custom_id rules.
			for _, c := range (&Message{Components: []Component{row}}).AllComponents() {
				checkID(rp, c.CustomID)
			}
			continue
		}
		if len(row.Components) == 0 {
			fe.add(join(rp, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
		}
		if len(row.Components) > maxRowChildren {
			fe.add(join(rp, "components"), "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxRowChildren))
		}
		for j, c := range row.Components {
			cp := join(rp, "components", j)
			switch {
			case c.Type == 2:
				validateButton(fe, cp, c)
			case isSelect(c.Type):
				if len(row.Components) > 1 {
					fe.add(join(rp, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
				}
				validateSelect(fe, cp, c)
			default:
				fe.add(join(cp, "type"), "COMPONENT_TYPE_INVALID", fmt.Sprintf("The specified component type is invalid in this context: %d", c.Type))
			}
			checkID(cp, c.CustomID)
		}
	}
}

func validateButton(fe fieldErrors, p string, b Component) {
	maxLen(fe, join(p, "label"), b.Label, 80)
	switch b.Style {
	case 1, 2, 3, 4:
		if b.CustomID == "" {
			fe.add(join(p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
		} else {
			lenBetween(fe, join(p, "custom_id"), b.CustomID, 1, 100)
		}
		if b.URL != "" {
			fe.add(join(p, "url"), "BUTTON_URL_NOT_ALLOWED", "A non-link button cannot have a url")
		}
	case 5:
		if b.URL == "" {
			fe.add(join(p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
		} else {
			maxLen(fe, join(p, "url"), b.URL, 512)
		}
		if b.CustomID != "" {
			fe.add(join(p, "custom_id"), "BUTTON_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id")
		}
	case 6:
		if b.SKUID == "" {
			fe.add(join(p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
		}
	default:
		fe.add(join(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	}
	if b.Style != 6 && b.Label == "" && (len(b.Emoji) == 0 || string(b.Emoji) == "null") {
		fe.add(join(p, "label"), "BUTTON_LABEL_OR_EMOJI_REQUIRED", "A button must have a label or an emoji")
	}
}

func validateSelect(fe fieldErrors, p string, c Component) {
	if c.CustomID == "" {
		fe.add(join(p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
	} else {
		lenBetween(fe, join(p, "custom_id"), c.CustomID, 1, 100)
	}
	maxLen(fe, join(p, "placeholder"), c.Placeholder, 150)
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
		if minV < 0 || minV > 25 {
			fe.add(join(p, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
		}
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
		if maxV < 1 || maxV > 25 {
			fe.add(join(p, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
		}
	}
	if minV > maxV {
		fe.add(join(p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be less than or equal to max_values")
	}
	if c.Type != 3 {
		return
	}
	if len(c.Options) == 0 {
		fe.add(join(p, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
	}
	if len(c.Options) > maxSelectOptions {
		fe.add(join(p, "options"), "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxSelectOptions))
	}
	if len(c.Options) > 0 && maxV > len(c.Options) {
		fe.add(join(p, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE", "max_values must be less than or equal to the number of options")
	}
	seen := map[string]bool{}
	for k, o := range c.Options {
		op := join(p, "options", k)
		lenBetween(fe, join(op, "label"), o.Label, 1, 100)
		lenBetween(fe, join(op, "value"), o.Value, 1, 100)
		maxLen(fe, join(op, "description"), o.Description, 100)
		if seen[o.Value] {
			fe.add(join(op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select component option values must be unique")
		}
		seen[o.Value] = true
	}
}

// validateModal checks a type 9 callback's data.
func validateModal(fe fieldErrors, p string, m *modalData) {
	lenBetween(fe, join(p, "custom_id"), m.CustomID, 1, 100)
	lenBetween(fe, join(p, "title"), m.Title, 1, 45)
	if len(m.Components) < 1 || len(m.Components) > 5 {
		fe.add(join(p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	for i, row := range m.Components {
		if row.Type != 1 || len(row.Components) != 1 || row.Components[0].Type != 4 {
			fe.add(join(p, "components", i), "MODAL_ROW_INVALID", "A modal row must hold exactly one text input")
			continue
		}
		ti := row.Components[0]
		lenBetween(fe, join(p, "components", i, "components", 0, "custom_id"), ti.CustomID, 1, 100)
		lenBetween(fe, join(p, "components", i, "components", 0, "label"), ti.Label, 1, 45)
	}
}

// ---- application commands ----

var (
	// commandNameRE is Discord's rule for CHAT_INPUT command and option
	// names, ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Go spells the
	// scripts \p{Devanagari} and \p{Thai}); letters must be lower case where
	// they have one (validateName).
	commandNameRE = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)
	validLocales  = map[string]bool{}
)

func init() {
	for _, l := range strings.Fields("id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th zh-CN ja zh-TW ko") {
		validLocales[l] = true
	}
}

type cmdChoice struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations"`
	Value             any               `json:"value"`
}

type cmdOption struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
	Required                 bool              `json:"required"`
	Choices                  []cmdChoice       `json:"choices"`
	Options                  []cmdOption       `json:"options"`
	MinValue                 *float64          `json:"min_value"`
	MaxValue                 *float64          `json:"max_value"`
	MinLength                *int              `json:"min_length"`
	MaxLength                *int              `json:"max_length"`
	Autocomplete             bool              `json:"autocomplete"`
}

type cmdDef struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
	Options                  []cmdOption       `json:"options"`
	Contexts                 *[]int            `json:"contexts"`
	IntegrationTypes         []int             `json:"integration_types"`
	DMPermission             *bool             `json:"dm_permission"`
}

func validateName(fe fieldErrors, p, name string, chat bool) {
	if chat {
		if !commandNameRE.MatchString(name) || strings.ToLower(name) != name {
			fe.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		return
	}
	lenBetween(fe, p, name, 1, 32)
}

func validateLocalized(fe fieldErrors, p string, m map[string]string, check func(path, v string)) {
	for k, v := range m {
		if !validLocales[k] {
			fe.add(join(p, k), "ENUM_TYPE_COERCE", fmt.Sprintf("Value %q is not a valid enum value.", k))
			continue
		}
		check(join(p, k), v)
	}
}

// validateCommands checks a bulk overwrite body.
func validateCommands(defs []cmdDef) fieldErrors {
	fe := fieldErrors{}
	if len(defs) > 100 {
		fe.add("", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	seen := map[string]bool{}
	for i, d := range defs {
		p := join("", i)
		typ := d.Type
		if typ == 0 {
			typ = 1
		}
		chat := typ == 1
		validateName(fe, join(p, "name"), d.Name, chat)
		validateLocalized(fe, join(p, "name_localizations"), d.NameLocalizations, func(path, v string) { validateName(fe, path, v, chat) })
		key := fmt.Sprint(typ, d.Name)
		if seen[key] {
			fe.add(join(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
		if chat {
			lenBetween(fe, join(p, "description"), d.Description, 1, 100)
			validateLocalized(fe, join(p, "description_localizations"), d.DescriptionLocalizations, func(path, v string) { lenBetween(fe, path, v, 1, 100) })
			validateOptions(fe, join(p, "options"), d.Options, "command")
		} else {
			if d.Description != "" {
				fe.add(join(p, "description"), "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED", "Context menu commands cannot have a description")
			}
			if len(d.Options) > 0 {
				fe.add(join(p, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Context menu commands cannot have options")
			}
		}
	}
	return fe
}

// validateOptions checks the options of a command, a subcommand group
// (level "group") or a subcommand (level "sub").
func validateOptions(fe fieldErrors, p string, opts []cmdOption, level string) {
	if len(opts) > 25 {
		fe.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	names := map[string]bool{}
	localNames := map[string]bool{} // locale + "\x00" + localised name
	optional, subs, plain := false, 0, 0
	for i, o := range opts {
		op := join(p, i)
		for loc, ln := range o.NameLocalizations {
			if localNames[loc+"\x00"+ln] {
				fe.add(join(op, "name_localizations", loc), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
			}
			localNames[loc+"\x00"+ln] = true
		}
		validateName(fe, join(op, "name"), o.Name, true)
		validateLocalized(fe, join(op, "name_localizations"), o.NameLocalizations, func(path, v string) { validateName(fe, path, v, true) })
		lenBetween(fe, join(op, "description"), o.Description, 1, 100)
		validateLocalized(fe, join(op, "description_localizations"), o.DescriptionLocalizations, func(path, v string) { lenBetween(fe, path, v, 1, 100) })
		if names[o.Name] {
			fe.add(join(op, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		switch {
		case o.Type == 1 || o.Type == 2:
			subs++
			if o.Required {
				fe.add(join(op, "required"), "APPLICATION_COMMAND_OPTION_REQUIRED_INVALID", "Subcommands cannot be required")
			}
			if level == "sub" || (level == "group" && o.Type == 2) {
				fe.add(join(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommand nesting is too deep")
			}
			next := "sub"
			if o.Type == 2 {
				next = "group"
			}
			validateOptions(fe, join(op, "options"), o.Options, next)
		case o.Type >= 3 && o.Type <= 11:
			plain++
			if level == "group" {
				fe.add(join(op, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "A subcommand group may only contain subcommands")
			}
			if len(o.Options) > 0 {
				fe.add(join(op, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Only subcommands may have options")
			}
			if o.Required && optional {
				fe.add(join(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			if !o.Required {
				optional = true
			}
			if len(o.Choices) > 25 {
				fe.add(join(op, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
			}
			if o.Autocomplete && len(o.Choices) > 0 {
				fe.add(join(op, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES_INVALID", "Autocomplete cannot be set if there are choices present")
			}
			if o.Autocomplete && o.Type != 3 && o.Type != 4 && o.Type != 10 {
				fe.add(join(op, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID_TYPE", "Autocomplete is only valid for string, integer and number options")
			}
			for j, c := range o.Choices {
				lenBetween(fe, join(op, "choices", j, "name"), c.Name, 1, 100)
				validateLocalized(fe, join(op, "choices", j, "name_localizations"), c.NameLocalizations, func(path, v string) { lenBetween(fe, path, v, 1, 100) })
			}
		default:
			fe.add(join(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.")
		}
	}
	if subs > 0 && plain > 0 {
		fe.add(p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands and subcommand groups cannot be mixed with other options")
	}
}

package discordtest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestMessageCloneIsDeep: a cloned message equals the original, and no
// change to the clone's components (nested rows, options, emoji, value
// bounds) reaches the original: what a reader got is a copy, as from
// Discord.
func TestMessageCloneIsDeep(t *testing.T) {
	one, three := 1, 3
	orig := &Message{ID: "1", Content: "x", Components: []Component{{
		Type: 1,
		Components: []Component{
			{Type: 2, CustomID: "a", Label: "A", Emoji: json.RawMessage(`{"name":"🎲"}`)},
			{Type: 3, CustomID: "s", MinValues: &one, MaxValues: &three,
				Options: []SelectOption{{Label: "o", Value: "v", Emoji: json.RawMessage(`{"name":"x"}`)}}},
		},
	}}, Attachments: []Attachment{{ID: "9", Filename: "t.png"}}}
	c := orig.clone()
	if !reflect.DeepEqual(orig, c) {
		t.Fatalf("clone differs:\n%+v\n%+v", orig, c)
	}
	row := c.Components[0].Components
	row[0].Label, row[0].Emoji[2] = "B", 'X'
	*row[1].MinValues, *row[1].MaxValues = 2, 2
	row[1].Options[0].Value, row[1].Options[0].Emoji[2] = "w", 'Y'
	c.Components[0].Components = append(row, Component{Type: 2})
	c.Attachments[0].Filename = "u.png"
	o := orig.Components[0].Components
	if o[0].Label != "A" || string(o[0].Emoji) != `{"name":"🎲"}` || *o[1].MinValues != 1 || *o[1].MaxValues != 3 ||
		o[1].Options[0].Value != "v" || string(o[1].Options[0].Emoji) != `{"name":"x"}` || len(o) != 2 ||
		orig.Attachments[0].Filename != "t.png" {
		t.Fatalf("changing the clone changed the original: %+v", orig)
	}
}

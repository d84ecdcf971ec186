package bot

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot/discordjson"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// fingerprintAsBefore is fingerprint as the bot always computed it: the
// live messages' stored revisions (Shown.Rev, Shown.Pic) stay valid.
func fingerprintAsBefore(vs ...any) string {
	h := fnv.New64a()
	for _, v := range vs {
		b, _ := json.Marshal(v)
		h.Write(b)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func controlsFingerprintAsBefore(content string, comps []discordgo.MessageComponent) string {
	h := fnv.New64a()
	b, _ := json.Marshal(content)
	h.Write(b)
	b, _ = discordjson.ComponentsJSON(comps)
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestFingerprintsAsBefore: the fingerprints, hashed from pooled buffers,
// are the ones hashed from json.Marshal's copies and printed with
// fmt.Sprintf, for live views through whole dice and card games and for
// texts JSON escapes.
func TestFingerprintsAsBefore(t *testing.T) {
	check := func(content string, comps []discordgo.MessageComponent, vs ...any) {
		t.Helper()
		if got, want := controlsFingerprint(content, comps), controlsFingerprintAsBefore(content, comps); got != want {
			t.Errorf("controlsFingerprint(%q) = %s, want %s", content, got, want)
		}
		if got, want := fingerprint(vs...), fingerprintAsBefore(vs...); got != want {
			t.Errorf("fingerprint(%v) = %s, want %s", vs, got, want)
		}
	}
	check("<@1> & \"Ben\" > 5 €\n\t\\", nil, "<&>", 0, nil, map[string]int{"b": 1, "a": 2})
	check("", []discordgo.MessageComponent{}, func() {}) // not JSON: nothing hashed, either way
	for _, variant := range []string{"dice", "cards"} {
		h := newHarness(t)
		h.bot.opt.LiveAnswers = true // moves answered on the live message (clickMove)
		h.startTwo(variant)
		views := 0
		for step := 0; h.table().Stage == StagePlaying && step < 40; step++ {
			tb := h.table()
			v := view.LiveTurn(tb)
			check(v.Content, v.Components, v.Picture)
			check(v.Content, v.Components, v.Picture, v.Content)
			views++
			p := tb.Game.Waiting()[0]
			h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
		}
		if views < 20 {
			t.Errorf("%s: only %d views compared", variant, views)
		}
	}
}

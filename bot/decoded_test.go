package bot

import (
	"bytes"
	"context"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// A table read twice from the same stored bytes is handed out as two
// copies (the second without decoding): changing one changes neither the
// other nor what a later read gets; once the stored bytes change, the read
// follows them, and a table just saved is read back as saved.
func TestTableReadAgainIsACopyAndFollowsTheStore(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	ctx := context.Background()
	a, err := h.bot.loadTable(ctx, testChannel)
	if err != nil || a == nil || a.Game == nil {
		t.Fatalf("table: %v, %v", a, err)
	}
	v, ok := h.bot.decoded.Load(testChannel)
	if !ok || v.(*decodedTable).t == a {
		t.Fatal("the decoded table is not kept apart from the one handed out")
	}
	b, err := h.bot.loadTable(ctx, testChannel)
	if err != nil || b == a || b.Game == a.Game {
		t.Fatalf("second read: %v, the same table %v", err, b == a)
	}
	a.Seats[0].Name, a.Shown.Msg = "changed", "changed"
	if b.Seats[0].Name == "changed" || b.Shown.Msg == "changed" {
		t.Fatal("changing one copy changed the other")
	}
	c, _ := h.bot.loadTable(ctx, testChannel)
	if c.Seats[0].Name == "changed" || c.Shown.Msg == "changed" {
		t.Fatal("changing a copy changed what a later read gets")
	}
	c.Seats[0].Name = "Zoë"
	if err := h.bot.saveTable(ctx, testChannel, c); err != nil {
		t.Fatal(err)
	}
	c.Seats[0].Name = "changed after saving"
	d, _ := h.bot.loadTable(ctx, testChannel)
	if d.Seats[0].Name != "Zoë" || d == c {
		t.Fatalf("after the store changed, read %q", d.Seats[0].Name)
	}
	// Kept as saved: the next read is a copy, not a decoding, and the same
	// as decoding the stored bytes gives.
	if v, ok := h.bot.decoded.Load(testChannel); !ok || !bytes.Equal(v.(*decodedTable).blob, h.storedBlob()) {
		t.Fatal("the saved table is not kept under the bytes stored")
	}
	fresh, err := session.Decode(h.storedBlob())
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := fresh.Encode(); !bytes.Equal(again, want) {
		t.Fatalf("the kept table differs from the decoded one:\n%s\n%s", again, want)
	}
	if err := h.bot.saveTable(ctx, testChannel, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.bot.decoded.Load(testChannel); ok {
		t.Fatal("a deleted table is still kept decoded")
	}
}

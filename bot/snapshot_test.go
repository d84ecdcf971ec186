package bot

import (
	"bytes"
	"context"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// Reading a table reuses the game last saved or restored in its channel
// (a clone, never the kept game itself): a change to one table read is
// not in the next one read, and what is read is what is stored.
func TestReadTablesDoNotShareGames(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	a, err := h.bot.loadTable(context.Background(), testChannel)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.bot.loadTable(context.Background(), testChannel)
	if a.Game == b.Game {
		t.Fatal("two reads share one game")
	}
	want, _ := b.Game.MarshalBinary()
	if err := a.Game.Apply(a.Game.LegalMoves(a.Game.Waiting()[0])[0]); err != nil {
		t.Fatal(err)
	}
	c, _ := h.bot.loadTable(context.Background(), testChannel)
	if got, _ := c.Game.MarshalBinary(); !bytes.Equal(got, want) {
		t.Fatal("a change to one table read showed in the next")
	}
	// Saved, the change is what the next read gets.
	if err := h.bot.saveTable(context.Background(), testChannel, a); err != nil {
		t.Fatal(err)
	}
	d, _ := h.bot.loadTable(context.Background(), testChannel)
	fresh, err := session.Decode(mustStored(t, h))
	if err != nil {
		t.Fatal(err)
	}
	g1, _ := d.Game.MarshalBinary()
	g2, _ := fresh.Game.MarshalBinary()
	if !bytes.Equal(g1, g2) || bytes.Equal(g1, want) {
		t.Fatal("the read after a save differs from the stored game")
	}
}

func mustStored(t *testing.T, h *harness) []byte {
	t.Helper()
	blob, ok, err := h.st.Get(context.Background(), testChannel)
	if err != nil || !ok {
		t.Fatalf("stored table: %v %v", ok, err)
	}
	return blob
}

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

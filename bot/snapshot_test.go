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

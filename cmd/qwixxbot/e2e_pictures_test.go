package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
)

// TestE2ETablePictureFollowsEveryMove: the crosses of a turn's action 1
// (RULES D3, the white sum) show on the table message, its picture redrawn
// (the bot edits it after the players' private answers). On an edit
// Discord appends only the files the edit's "attachments" list names by
// their upload index and removes the attachments it does not list (the
// fake does as Discord): an edit that uploads the new picture without
// listing it leaves the table with no picture at all.
func TestE2ETablePictureFollowsEveryMove(t *testing.T) {
	t.Parallel()
	e2eTablePictureFollowsEveryMove(t, newE2E(t))
}

func TestE2ETablePictureFollowsEveryMoveHTTP(t *testing.T) {
	t.Parallel()
	e2eTablePictureFollowsEveryMove(t, newE2EHTTP(t))
}

func e2eTablePictureFollowsEveryMove(t *testing.T, e *e2e) {
	e.stop()
	e.script = &game.Record{Rolls: [][6]int{{1, 2, 1, 1, 1, 1}, {1, 3, 1, 1, 1, 1}, {2, 3, 1, 1, 1, 1}}}
	e.start()
	max, linus := e.srv.AddUser("Max", "en-US"), e.srv.AddUser("Linus", "en-US")
	e.startTable(max, linus)
	shows := func(m *discordtest.Message) string {
		var names []string
		for _, a := range m.Attachments {
			names = append(names, a.Filename)
		}
		return fmt.Sprintf("message %s v%d %q with %v", m.ID, m.Version, m.Content, names)
	}
	picture := func(m *discordtest.Message) []byte {
		if len(m.Attachments) != 1 || m.Attachments[0].Filename != "table.png" || !bytes.HasPrefix(m.Attachments[0].Data, []byte("\x89PNG")) {
			return nil
		}
		return m.Attachments[0].Data
	}
	// redrawn waits for the table message id to show one table.png other
	// than before.
	redrawn := func(id string, before []byte, when string) []byte {
		t.Helper()
		var m *discordtest.Message
		var now []byte
		err := e.until(10*time.Second, func() bool {
			m, _ = e.srv.Message(id)
			now = picture(m)
			return now != nil && !bytes.Equal(now, before)
		})
		if err != nil {
			t.Fatalf("%s: the table shows no new picture: %s", when, shows(m))
		}
		return now
	}
	for i, sum := range []int{3, 4, 5} {
		tbl := e.table(max, fmt.Sprintf("white dice, **%d**", sum))
		before := picture(tbl)
		if before == nil {
			t.Fatalf("turn %d: the new table message shows no table.png: %s", i+1, shows(tbl))
		}
		e.answer(max.Click(tbl, players.IDWith(tbl, "white:red")))
		e.answer(linus.Click(tbl, players.IDWith(tbl, "white:yellow")))
		redrawn(tbl.ID, before, fmt.Sprintf("turn %d, after both crosses", i+1))
		if i == 2 {
			break
		}
		next := e.table(max, "Action 2")
		active := linus
		if strings.Contains(next.Content, "<@"+max.ID+">") {
			active = max
		}
		e.answer(active.Click(next, players.IDWith(next, "pass")))
	}
}

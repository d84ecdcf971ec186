// Command qwixxtables generates the value tables the hard and hard-v1
// computer players read (game/ai/*.tbl): for every sheet state of the dice
// game, the points still to come under best play, found by backward
// induction (solo.tbl; duo.tbl, hard-v1's two-player table; hardduo.tbl,
// hard's), and for hard's two-player table their standard deviation under
// the same play (hardduospread.tbl). It is deterministic: the same code
// writes the same bytes. On two cores it takes about a minute per table.
//
//	go run ./cmd/qwixxtables [-dir game/ai]
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/qwixxbot/qwixxbot/game/ai"
)

func main() {
	dir := flag.String("dir", "game/ai", "directory to write the tables to")
	flag.Parse()
	for _, t := range []struct {
		names []string
		build func() [][]byte
	}{
		{[]string{"solo.tbl"}, func() [][]byte { return [][]byte{ai.SoloTable()} }},
		{[]string{"duo.tbl"}, func() [][]byte { return [][]byte{ai.DuoTable()} }},
		{[]string{"hardduo.tbl", "hardduospread.tbl"}, func() [][]byte {
			values, spread := ai.HardDuoTables()
			return [][]byte{values, spread}
		}},
	} {
		start := time.Now()
		for i, data := range t.build() {
			path := filepath.Join(*dir, t.names[i])
			if err := os.WriteFile(path, data, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "qwixxtables:", err)
				os.Exit(1)
			}
			fmt.Printf("%s: %d bytes, sha256 %x, %v\n", path, len(data), sha256.Sum256(data), time.Since(start).Round(time.Second))
		}
	}
}

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/game"
)

// runRender replays a record up to a step and draws the table there (and,
// at the end, the results and the score chart; for card games each player's hand) as PNG files;
// with --review N, a finished game's review of player N as the bot answers
// it (review.txt, review.png).
func runRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	step := fs.Int("step", -1, "number of moves to replay (default: all)")
	out := fs.String("o", "out", "output directory")
	lang := fs.String("lang", "en", "language of the labels: en, de or fr")
	review := fs.Int("review", 0, "also write the review of player N (1-based) of a finished game: review.txt and review.png")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot render FILE [--step N] [-o DIR] [--lang en|de|fr] [--review N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	rec, err := readRecord(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot render: %v\n", err)
		return 2
	}
	r, err := game.NewReplayer(rec)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot render: %v\n", err)
		return 2
	}
	n := 0
	for !r.Done() && (*step < 0 || n < *step) {
		if err := r.Step(); err != nil {
			fmt.Fprintf(stderr, "qwixxbot render: %v\n", err)
			return 1
		}
		n++
	}
	g := r.Game()
	l := bot.LangFor(*lang)
	imgs := bot.Images{}
	files := map[string]func() ([]byte, error){
		"table.png": func() ([]byte, error) { return imgs.Table(g.Public(), l) },
	}
	if g.Over() {
		files["results.png"] = func() ([]byte, error) { return imgs.Results(g.Public(), nil, l) }
		files["chart.png"] = func() ([]byte, error) { return imgs.Chart(g.Public(), g.ScoreSeries(), l) }
	}
	if *review != 0 {
		if !g.Over() || *review < 1 || *review > len(g.Players()) {
			fmt.Fprintf(stderr, "qwixxbot render: --review %d: a finished game's player 1–%d\n", *review, len(g.Players()))
			return 2
		}
		text, png, err := bot.ReviewOf(g, *review-1, l)
		if err != nil {
			fmt.Fprintf(stderr, "qwixxbot render: %v\n", err)
			return 1
		}
		files["review.txt"] = func() ([]byte, error) { return []byte(text), nil }
		files["review.png"] = func() ([]byte, error) { return png, nil }
	}
	if g.Variant().CardGame() {
		for p, name := range g.Players() {
			files[fmt.Sprintf("hand-%d-%s.png", p+1, safeName(name))] = func() ([]byte, error) { return imgs.Hand(g.Private(p), l) }
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "qwixxbot render: %v\n", err)
		return 2
	}
	for name, draw := range files {
		png, err := draw()
		if err == nil {
			err = os.WriteFile(filepath.Join(*out, name), png, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "qwixxbot render: %s: %v\n", name, err)
			return 1
		}
		fmt.Fprintln(stdout, filepath.Join(*out, name))
	}
	fmt.Fprintf(stdout, "after %d of %d moves: turn %d, %s\n", n, len(rec.Moves), g.Turn(), g.Phase())
	return 0
}

// safeName keeps letters and digits of a name for a file name.
func safeName(s string) string {
	out := []rune{}
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return "player"
	}
	return string(out)
}

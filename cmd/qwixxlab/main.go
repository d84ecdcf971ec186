//go:build experiments

// Command qwixxlab runs the measurements behind game/ai/NOTES.md. They
// print figures and decide nothing, so they live outside the tests and
// outside the bot: the tool and the experiments (game/ai/lab.go) are built
// only with the tag experiments.
//
//	go run -tags experiments ./cmd/qwixxlab [flags] experiment
//	go run -tags experiments ./cmd/qwixxlab -list
//
// -list prints every experiment with what it prints. The experiments:
//
//   - tune-heur: the heuristic tuned by -set against its own tuning, two
//     players, -n seeds in both seatings; the win share with its 95 %
//     interval and the mean margin.
//   - rank-hist: which of the heuristic's ranks hard's card search (as -set
//     changes it) picks against hard-v1, -n games per card variant; a
//     histogram of ranks.
//   - calib-judge, calib-sigma, calib-fit: how well the search's judge
//     predicts heuristic self-play (-n games): rmse of the final margin,
//     log loss of the win for variants, the best spread σ = a + b·√g, a
//     linear fit's holdout rmse.
//   - calib-dice, hazard-dice, hazard-by-other: the dice win estimate's log
//     loss and the chance a turn ends the game, over -n games of hard
//     self-play.
//   - misthrows-dice: hard against hard-v1 (-n seeds, both seatings), the
//     win share by misthrows at the end and by misthrows taken
//     voluntarily.
//   - slow-decisions: the time of the search's decisions over -n games,
//     the p99, the mean and the ten slowest with what the search saw.
//   - scaled-duo: the duo table built with -scale × hazard, written to -o.
//
// -set changes hard's card search, e.g. -set endCap=3,heur.rate=1.7
// (-list names the knobs).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "qwixxlab:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("qwixxlab", flag.ContinueOnError)
	games := fs.Int("n", 100, "games (or seeds) to play")
	variant := fs.String("variant", "cards", "card variant of the card experiments: cards or jokers")
	set := fs.String("set", "", "changes to hard's card search, name=value,…")
	scale := fs.Float64("scale", 1.6, "scaled-duo's factor on hazard")
	out := fs.String("o", "", "write to this file instead of standard output")
	list := fs.Bool("list", false, "list the experiments, what each prints, and the knobs of -set")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		for _, e := range ai.Experiments {
			fmt.Fprintf(stdout, "%s\n\t%s\n\n", e.Name, strings.ReplaceAll(e.Prints, "\n", "\n\t"))
		}
		fmt.Fprintf(stdout, "knobs of -set: %s\n", strings.Join(ai.SearchKnobs(), ", "))
		return nil
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("name one experiment (-list lists them)")
	}
	v, err := game.ParseVariant(*variant)
	if err != nil || !v.CardGame() {
		return fmt.Errorf("-variant %q: cards or jokers", *variant)
	}
	o, err := ai.NewLabOptions(*games, v, *set, *scale, time.Now)
	if err != nil {
		return err
	}
	for _, e := range ai.Experiments {
		if e.Name != fs.Arg(0) {
			continue
		}
		if e.Name == "scaled-duo" && *out == "" {
			return fmt.Errorf("scaled-duo writes a binary table: give -o")
		}
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return fmt.Errorf("output: %w", err)
			}
			defer f.Close()
			w = f
		}
		if err := e.Run(w, o); err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		if f, ok := w.(*os.File); ok && f != os.Stdout {
			return f.Close()
		}
		return nil
	}
	return fmt.Errorf("no experiment %q (-list lists them)", fs.Arg(0))
}

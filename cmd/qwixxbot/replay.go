package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qwixxbot/qwixxbot/game"
)

// runReplay replays a game record and prints the final sheets and scores,
// or names the first illegal step and returns 1.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "json", "output format: json or text")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot replay FILE [--format json|text]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 || (*format != "json" && *format != "text") {
		fs.Usage()
		return 2
	}
	g, err := replayFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot replay: %v\n", err)
		var se *game.StepError
		if errors.As(err, &se) {
			return 1
		}
		return 2
	}
	sum := g.Summarize()
	if *format == "text" {
		writeText(stdout, sum)
		return 0
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		fmt.Fprintf(stderr, "qwixxbot replay: %v\n", err)
		return 2
	}
	return 0
}

// reorder moves flags before the positional arguments, so that
// "replay FILE --format text" works as well as "replay --format text FILE".
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-") && strings.Contains(a, "="):
			flags = append(flags, a)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}

// readRecord reads and parses a game record file.
func readRecord(path string) (*game.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// replayFile reads and replays a record; the game is returned as far as it
// got, with a *game.StepError for an illegal step.
func replayFile(path string) (*game.Game, error) {
	rec, err := readRecord(path)
	if err != nil {
		return nil, err
	}
	g, err := game.Replay(rec)
	if err != nil {
		return g, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// writeText prints a summary for people.
func writeText(w io.Writer, s game.Summary) {
	state := fmt.Sprintf("turn %d, %s to act (%s)", s.Turn, s.Active, s.Phase)
	if s.Over {
		state = fmt.Sprintf("over after turn %d (%s)", s.Turn, s.End)
	}
	fmt.Fprintf(w, "Qwixx %s: %s\n", s.Variant, state)
	if len(s.Closed) > 0 {
		fmt.Fprintf(w, "rows locked for everybody: %s\n", strings.Join(s.Closed, ", "))
	}
	for _, p := range s.Players {
		fmt.Fprintf(w, "\n%s: %d points\n", p.Name, p.Score)
		for _, c := range game.Colors {
			r := p.Rows[c.String()]
			nums := make([]string, len(r.Crossed))
			for i, n := range r.Crossed {
				nums[i] = fmt.Sprint(n)
			}
			lock := ""
			if r.Locked {
				lock = " +lock"
			}
			fmt.Fprintf(w, "  %-7s %-28s %2d crosses %3d\n", c, strings.Join(nums, " ")+lock, r.Crosses, r.Score)
		}
		fmt.Fprintf(w, "  %-7s %-28d %13d\n", "misthr.", p.Misthrows, -game.MisthrowPenalty*p.Misthrows)
	}
	label := "leading"
	if s.Over {
		label = "winner"
		if len(s.Winners) > 1 {
			label = "winners (shared)"
		}
	}
	fmt.Fprintf(w, "\n%s: %s\n", label, strings.Join(s.Winners, ", "))
}

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
	"github.com/qwixxbot/qwixxbot/game/ai/arena"
)

// runArena plays games between computer players and prints each one's
// figures.
func runArena(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "dice", "dice, cards or jokers")
	players := fs.String("players", "hard,medium", "the players' levels in seat order, 2 to 5 of: easy, medium, hard")
	solo := fs.String("solo", "", "play the solo dice game (one sheet, always active) at this level instead")
	games := fs.Int("games", 1000, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the first game (game i uses seed+i)")
	format := fs.String("format", "text", "text or json")
	showEndings := fs.Bool("endings", false, "also list each player's game-ending choices by their result")
	swap := fs.Bool("swap", false, "play each seed once per rotation of the seats (the players' figures then sum up every seat)")
	showTimes := fs.Bool("times", false, "also list each player's decision times (mean, p50, p99, max; run with GOMAXPROCS=1 for clean times)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot arena [--variant dice|cards|jokers] [--players hard,medium,…] [--solo LEVEL] [--games N] [--seed S] [--swap] [--format text|json] [--endings] [--times]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	v, err := game.ParseVariant(*variant)
	names := *players
	if *solo != "" {
		names = *solo
	}
	var levels []ai.Level
	for _, name := range strings.Split(names, ",") {
		l, lerr := ai.ParseAnyLevel(strings.TrimSpace(name))
		if lerr != nil && err == nil {
			err = lerr
		}
		levels = append(levels, l)
	}
	switch {
	case err != nil:
	case *solo != "" && (v != game.Dice || len(levels) != 1):
		err = fmt.Errorf("--solo takes one level and the dice game")
	case *solo == "" && (len(levels) < 2 || len(levels) > 5):
		err = fmt.Errorf("%d players: a table has 2 to 5", len(levels))
	case *games < 1:
		err = fmt.Errorf("--games %d: at least 1", *games)
	case *format != "text" && *format != "json":
		err = fmt.Errorf("--format %q: text or json", *format)
	}
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot arena: %v\n", err)
		return 2
	}
	res, err := arena.Run(v, levels, *games, *seed, *swap, *showTimes)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot arena: %v\n", err)
		return 1
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return 1
		}
		return 0
	}
	played := ""
	if *swap && len(levels) > 1 {
		played = fmt.Sprintf(", each in %d seatings (%d games)", len(levels), *games*len(levels))
	}
	fmt.Fprintf(stdout, "%s, %d games, seeds %d–%d%s\n\n", v, *games, *seed, *seed+uint64(*games)-1, played)
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "player\tlevel\tgames\twin share\t95 % interval\tmean score\tmean turns\t")
	for _, r := range res {
		fmt.Fprintf(w, "%s\t%s\t%d\t%.1f %%\t%.1f–%.1f %%\t%.1f\t%.1f\t\n", r.Player, r.Level, r.Games, 100*r.WinShare,
			100*r.WinShareCI95[0], 100*r.WinShareCI95[1], r.MeanScore, r.MeanTurns)
	}
	w.Flush()
	if *showEndings {
		fmt.Fprintf(stdout, "\ngame-ending choices (a second lock, a fourth misthrow) by their result for the chooser\n\n")
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "player\tlevel\tended\twon\tlost\tof them forced\ttied\t")
		for _, r := range res {
			e := r.Endings
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t\n", r.Player, r.Level, e.Won+e.Lost+e.Tied, e.Won, e.Lost, e.LostForced, e.Tied)
		}
		w.Flush()
	}
	if *showTimes {
		fmt.Fprintf(stdout, "\ndecision times (ms)\n\n")
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "player\tlevel\tdecisions\tmean\tp50\tp99\tmax\t")
		for _, r := range res {
			t := r.Times
			fmt.Fprintf(w, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", r.Player, r.Level, t.Decisions, t.Mean, t.P50, t.P99, t.Max)
		}
		seen := map[string]bool{}
		for _, r := range res {
			if t := r.LevelTimes; !seen[r.Level] && t.Decisions > r.Times.Decisions {
				seen[r.Level] = true
				fmt.Fprintf(w, "all\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", r.Level, t.Decisions, t.Mean, t.P50, t.P99, t.Max)
			}
		}
		w.Flush()
	}
	return 0
}

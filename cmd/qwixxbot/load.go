package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/load"
)

// runLoad is `qwixxbot load`: it reads the flags, runs the load harness
// (internal/load) and prints its report.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := load.Options{}
	fs.IntVar(&o.Games, "games", 200, "live games (one channel each)")
	fs.IntVar(&o.Players, "players", 3, "players per game (2–5)")
	variants := fs.String("variants", "dice,cards", "variants, taken in turn by the games")
	pace := fs.String("pace", "1s-3s", "think time before each look at the table, MIN-MAX; 0 = flat out")
	fs.DurationVar(&o.Warmup, "warmup", 10*time.Second, "time to let the games start before measuring")
	fs.DurationVar(&o.Duration, "duration", time.Minute, "measuring time")
	fs.DurationVar(&o.Sample, "sample", 0, "print a line of figures this often while measuring (0: only at the end)")
	fs.StringVar(&o.BotPath, "bot", "", "the bot binary to measure (default: this program)")
	fs.StringVar(&o.Dir, "dir", "", "where the database and the bot's log go (default: a temporary directory, removed)")
	fs.BoolVar(&o.Limits, "discord-limits", false, "enforce Discord's rate limits (50 requests/s per token, 5 posts and edits per 5 s per channel) and let the bot pace itself for them; without it neither limits, and the run measures the machine")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the players' choices")
	fs.StringVar(&o.Format, "format", "text", "text or json")
	fs.StringVar(&o.Profile, "cpuprofile", "", "write the bot's CPU profile over the measuring time to this file")
	fs.StringVar(&o.HeapProfile, "heapprofile", "", "write the bot's heap profile at the end to this file")
	fs.StringVar(&o.SelfProfile, "harness-cpuprofile", "", "write this process's CPU profile (fake Discord and players) over the measuring time to this file")
	fs.StringVar(&o.Ingress, "ingress", "gateway", "how the bot gets its interactions: gateway, or http (signed POSTs to its interactions endpoint, answered in the HTTP responses)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "qwixxbot load: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	if o.Ingress != "gateway" && o.Ingress != "http" {
		return bad("--ingress: %q is not gateway or http", o.Ingress)
	}
	if o.Games < 1 || o.Players < 2 || o.Players > 5 || o.Duration <= 0 || o.Warmup < 0 {
		return bad("want --games ≥ 1, --players 2–5, a positive --duration")
	}
	for _, v := range strings.Split(*variants, ",") {
		v = strings.TrimSpace(v)
		if v != "dice" && v != "cards" && v != "jokers" {
			return bad("--variants: %q is not dice, cards or jokers", v)
		}
		o.Variants = append(o.Variants, v)
	}
	if *pace != "0" {
		lo, hi, ok := strings.Cut(*pace, "-")
		if !ok {
			hi = lo
		}
		var err1, err2 error
		o.PaceMin, err1 = time.ParseDuration(lo)
		o.PaceMax, err2 = time.ParseDuration(hi)
		if err1 != nil || err2 != nil || o.PaceMin < 0 || o.PaceMax < o.PaceMin {
			return bad("--pace %q: want MIN-MAX such as 1s-3s, or 0", *pace)
		}
	}
	if o.Format != "text" && o.Format != "json" {
		return bad("--format: want text or json")
	}
	if o.BotPath == "" {
		exe, err := os.Executable()
		if err != nil {
			return bad("finding this program: %v", err)
		}
		o.BotPath = exe
	}
	rep, err := load.Run(ctx, o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot load: %v\n", err)
		return 1
	}
	if o.Format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.Write(stdout)
	}
	return 0
}

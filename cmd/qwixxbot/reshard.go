package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/store"
)

// reshardStopEnv, for the crash tests only, makes reshard kill itself
// (SIGKILL) just before the named step (store.ReshardOptions.Step).
const reshardStopEnv = "QWIXXTEST_RESHARD_KILL_AT"

// runReshard moves every table, result, record, setting and secret from
// the databases of N shards to new databases of M shards, by Discord's
// formula, with the bots stopped (store.Reshard).
func runReshard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reshard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the shards' databases now, shard 0 first, comma-separated")
	to := fs.String("to", "", "the new shards' databases (new files), shard 0 first, comma-separated: as many as the new discord.shard_count")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot reshard -from SHARD0.db,SHARD1.db,… -to NEW0.db,NEW1.db,…")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *from == "" || *to == "" {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	opt := store.ReshardOptions{GuildOfTable: session.GuildOf}
	if stop := os.Getenv(reshardStopEnv); stop != "" {
		opt.Step = func(name string) {
			if name == stop {
				p, _ := os.FindProcess(os.Getpid())
				p.Kill()
				select {}
			}
		}
	}
	rep, err := store.Reshard(strings.Split(*from, ","), strings.Split(*to, ","), opt)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot reshard: %v\n", err)
		return 1
	}
	for i, s := range rep.Sources {
		fmt.Fprintf(stdout, "from shard %d: %s\n", i, s)
	}
	for i, s := range rep.Targets {
		fmt.Fprintf(stdout, "to   shard %d: %s\n", i, s)
	}
	fmt.Fprintf(stdout, "moved %d values by guild and %d to every shard; checksum %s verified on the new files\n", rep.Sharded, rep.Everywhere, rep.Checksum[:16])
	fmt.Fprintf(stdout, "now set discord.shard_count = %d and give shard i the file of shard i\n", len(rep.Targets))
	return 0
}

package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/serve"
	"github.com/qwixxbot/qwixxbot/store"
)

// runForget forgets a Discord user in the database, as /qwixx forget-me
// does (store.DeleteUser in every guild, or in one with -guild): for an
// operator who must delete a user's data in every shard's database. It
// opens the database while the bot is stopped (bbolt allows one process
// per file).
func runForget(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("forget", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration file (TOML), for store.path")
	guild := fs.String("guild", "", "only in this guild (default: every guild)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot forget [-config FILE] [-guild ID] USER_ID")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || fs.Arg(0) == "" {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	cfg, err := loadConfig(*cfgPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot forget: %v\n", err)
		return 2
	}
	st, err := serve.OpenStore(cfg.Store.Path, store.WithRetention(serve.Retention(cfg.Store)))
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot forget: %v\n", err)
		return 1
	}
	defer st.Close()
	f, err := st.DeleteUser(*guild, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot forget: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "user %s forgotten in %d results and %d records (%d unreadable values deleted)\n", fs.Arg(0), f.Results, f.Records, f.Unreadable)
	return 0
}

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/serve"
)

// runQuarantine lists the stored tables that were put aside as unreadable
// (store.Quarantine), and with -o writes each one's raw bytes to a file for
// inspection. It opens the database while the bot is stopped (bbolt allows
// one process per file).
func runQuarantine(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("quarantine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration file (TOML), for store.path")
	out := fs.String("o", "", "directory to write each entry's raw bytes to")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot quarantine [-config FILE] [-o DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	cfg, err := loadConfig(*cfgPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot quarantine: %v\n", err)
		return 2
	}
	st, err := serve.OpenStore(cfg.Store.Path)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot quarantine: %v\n", err)
		return 1
	}
	defer st.Close()
	entries, err := st.Quarantined()
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot quarantine: %v\n", err)
	}
	if len(entries) == 0 {
		fmt.Fprintln(stdout, "no quarantined tables")
	}
	for _, e := range entries {
		fmt.Fprintf(stdout, "%s  channel %s  %d bytes  %s\n", e.Time.Format("2006-01-02 15:04:05Z07:00"), e.ChannelID, len(e.Raw), e.Reason)
		if *out == "" {
			continue
		}
		if err := os.MkdirAll(*out, 0o700); err != nil {
			fmt.Fprintf(stderr, "qwixxbot quarantine: %v\n", err)
			return 1
		}
		name := filepath.Join(*out, e.ChannelID+"-"+strings.NewReplacer(":", "", ".", "").Replace(e.Time.Format("20060102T150405.000000000"))+".bin")
		if err := os.WriteFile(name, e.Raw, 0o600); err != nil {
			fmt.Fprintf(stderr, "qwixxbot quarantine: %v\n", err)
			return 1
		}
	}
	if err != nil {
		return 1
	}
	return 0
}

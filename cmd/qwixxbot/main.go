// Command qwixxbot runs the Qwixx Discord bot and its tools.
//
//	qwixxbot [-config FILE]                       run the bot (QWIXXBOT_TOKEN set)
//	qwixxbot [-config FILE] [-sandbox]            no token: play in the built-in fake Discord, in the browser
//	qwixxbot [-config FILE] -sandbox-auto         simulated players play one game in the fake Discord
//	qwixxbot replay FILE [--format json|text]     replay a game record
//	qwixxbot render FILE [--step N] [-o DIR] [--lang L]  draw a game record's table as PNG
//	qwixxbot quarantine [-config FILE] [-o DIR]    list tables put aside as unreadable
//	qwixxbot forget [-config FILE] [-guild ID] USER_ID  forget a user in the kept history
//	qwixxbot backup [-config FILE] [-to DIR]        a consistent copy of the database, the bot running or not
//	qwixxbot restore [-config FILE] [-check] BACKUP  put a verified backup in place of a stopped bot's database
//	qwixxbot reshard -from A.db,B.db -to X.db,Y.db,Z.db  move the shards' data to another shard count
//	qwixxbot arena [--variant V] [--players L,L] [--games N]  computer players against each other
//	qwixxbot load [--games N] [--pace MIN-MAX|0] [--duration D]  the bot under load, against the fake Discord
//
// See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/serve"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: tests call it with their own context,
// arguments and writers. It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "replay":
			return runReplay(args[1:], stdout, stderr)
		case "render":
			return runRender(args[1:], stdout, stderr)
		case "quarantine":
			return runQuarantine(args[1:], stdout, stderr)
		case "forget":
			return runForget(args[1:], stdout, stderr)
		case "backup":
			return runBackup(args[1:], stdout, stderr)
		case "restore":
			return runRestore(args[1:], stdout, stderr)
		case "reshard":
			return runReshard(args[1:], stdout, stderr)
		case "arena":
			return runArena(args[1:], stdout, stderr)
		case "load":
			return runLoad(ctx, args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return 0
		}
	}
	fs := flag.NewFlagSet("qwixxbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	cfgPath := fs.String("config", "", "configuration file (TOML); see config.example.toml")
	sandbox := fs.Bool("sandbox", false, "play in the built-in fake Discord even if a token is set")
	auto := fs.Bool("sandbox-auto", false, "in the sandbox, let simulated players play one game and exit (demos, CI)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "qwixxbot: unknown command %q\n", fs.Arg(0))
		usage(stderr)
		return 2
	}
	cfg, err := loadConfig(*cfgPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot: %v\n", err)
		return 2
	}
	log := newLogger(cfg.Log, stderr)
	if *sandbox || *auto || !cfg.Discord.Token.IsSet() {
		play := runWebSandbox
		if *auto {
			play = runSandbox
		}
		if !*sandbox && !*auto {
			// Nobody asked for the sandbox: someone who meant to run the
			// real bot learns why they get a page, before anything else.
			fmt.Fprintln(stdout, noTokenNotice)
		}
		if err := play(ctx, cfg, log, stdout); err != nil {
			fmt.Fprintf(stderr, "qwixxbot sandbox: %v\n", err)
			return 1
		}
		return 0
	}
	so := serve.Options{}
	now, err := testClock(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot: %v\n", err)
		return 2
	}
	if now != nil {
		so.Now, so.Tick = now, 20*time.Millisecond
	}
	if err := serve.Run(ctx, cfg, log, so); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "qwixxbot: %v\n", err)
		return 1
	}
	return 0
}

// noTokenNotice is the first line the program prints when it found no
// token and so starts the sandbox unasked.
const noTokenNotice = "qwixxbot: no Discord bot token found, so this is the local sandbox: a fake Discord on a page in your browser. " +
	"To run the real bot, set QWIXXBOT_TOKEN to its token (or discord.token in the -config file)."

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  qwixxbot [-config FILE]            run the bot; the token comes from QWIXXBOT_TOKEN
  qwixxbot [-config FILE] -sandbox   play in the built-in fake Discord on a page in
                                     the browser (also what happens when no token is
                                     set); it prints the page's address
                                     (sandbox.addr, 127.0.0.1:8080)
  qwixxbot [-config FILE] -sandbox-auto
                                     simulated players play one whole game in the
                                     fake Discord; transcript and pictures in
                                     sandbox.out_dir
  qwixxbot replay FILE [--format json|text]
                                     replay a game record (game/RECORD.md)
  qwixxbot render FILE [--step N] [-o DIR] [--lang en|de|fr]
                                     draw a game record's table as PNG files
  qwixxbot quarantine [-config FILE] [-o DIR]
                                     list stored tables put aside as unreadable
                                     (with -o, write their raw bytes there)
  qwixxbot forget [-config FILE] [-guild ID] USER_ID
                                     forget a user in the kept results and
                                     records, as /qwixx forget-me does
  qwixxbot backup [-config FILE] [-to DIR]
                                     write a consistent, verified copy of the
                                     database (store.backup_dir); a running bot
                                     is asked for it on log.debug_addr
  qwixxbot restore [-config FILE] [-check] BACKUP
                                     put a verified backup in place of the
                                     database of a stopped bot (the old one is
                                     kept beside); -check only verifies
  qwixxbot reshard -from SHARD0.db,SHARD1.db,… -to NEW0.db,NEW1.db,…
                                     with the bots stopped, move every table,
                                     result, record and setting to the database
                                     of the shard that owns its server in the
                                     new shard count (new files, verified)
  qwixxbot arena [--variant dice|cards|jokers] [--players medium,easy,…]
                 [--games N] [--seed S] [--swap] [--format text|json]
                 [--endings] [--times]
                                     computer players against each other
  qwixxbot load [--games N] [--players N] [--variants dice,cards]
                [--pace 1s-3s|0] [--warmup D] [--duration D] [--sample D]
                [--bot FILE] [--discord-limits] [--format text|json]
                                     run the bot under load against the built-in
                                     fake Discord and measure it (see
                                     cmd/qwixxbot/internal/load/NOTES.md)
`)
}

// Command qwixxbot runs the Qwixx Discord bot and its tools.
//
//	qwixxbot replay FILE [--format json|text]   replay a game record
//
// See README.md for everything else.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests call it with their own arguments
// and writers. It returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "replay":
			return runReplay(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return 0
		}
	}
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  qwixxbot replay FILE [--format json|text]   replay a game record (game/RECORD.md)
`)
}

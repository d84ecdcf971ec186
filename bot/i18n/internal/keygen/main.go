// Command keygen writes package msg's key constants (msg/keys.go) from
// the English message file (go generate ./bot/i18n).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/qwixxbot/qwixxbot/bot/i18n/internal/keys"
)

func main() {
	in := flag.String("in", "locales/en.toml", "the English message file")
	out := flag.String("out", "msg/keys.go", "the Go file to write")
	flag.Parse()
	src, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	code, err := keys.Generate(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		log.Fatal(err)
	}
}

// Command schemagen writes bot/discordtest/openapi.json, the part of
// Discord's OpenAPI document that the fake Discord validates request bodies
// against (see package openapisub), from the whole document: by default
// shared/discord-api-spec/openapi.json beside the repository, as
// discordtest.FindSpec finds it. go generate ./bot/discordtest runs it.
//
//	go run ./bot/discordtest/internal/schemagen [-spec path] [-o path]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/qwixxbot/qwixxbot/bot/discordtest/internal/openapisub"
)

func main() {
	spec := flag.String("spec", "", "Discord's openapi.json (default: found as discordtest.FindSpec finds it)")
	out := flag.String("o", "openapi.json", "file to write")
	flag.Parse()
	if err := run(*spec, *out); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}

func run(spec, out string) error {
	if spec == "" {
		spec = openapisub.FindSpec()
		if spec == "" {
			return fmt.Errorf("shared/discord-api-spec/openapi.json not found above %s: give -spec", mustWd())
		}
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		return fmt.Errorf("reading the spec: %w", err)
	}
	sub, err := openapisub.Subset(data)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, sub, 0o644); err != nil {
		return fmt.Errorf("writing the subset: %w", err)
	}
	fmt.Printf("%s: %d bytes from %s (%d bytes)\n", out, len(sub), spec, len(data))
	return nil
}

func mustWd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "the working directory"
	}
	return wd
}

package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/sandbox"
)

// runSandbox starts the built-in fake Discord in this process, runs the real
// bot against it and lets simulated players play a whole game. Everything
// they see goes to a transcript and every image to a folder.
func runSandbox(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	res, err := sandbox.Auto(ctx, cfg, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n\nsandbox: %d moves; transcript %s, %d images in %s\n",
		res.Results, res.Moves, filepath.Join(cfg.Sandbox.OutDir, "transcript.txt"), res.Images, filepath.Join(cfg.Sandbox.OutDir, "images"))
	return nil
}

// runWebSandbox serves the sandbox's page until ctx ends.
func runWebSandbox(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	return sandbox.ServePage(ctx, cfg, log, stdout)
}

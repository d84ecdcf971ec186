package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// newLogger makes the one logger passed down everywhere.
func newLogger(c config.Log, w io.Writer) zerolog.Logger {
	if c.Format == "console" {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return zerolog.New(w).Level(c.ZerologLevel()).With().Timestamp().Logger()
}

// loadConfig reads the configuration file (if any) and the environment,
// warning about QWIXXBOT_ variables that match no key.
func loadConfig(path string, stderr io.Writer) (config.Config, error) {
	cfg, err := config.Load(path, os.LookupEnv)
	if err != nil {
		return cfg, err
	}
	for _, v := range config.UnknownEnv(os.Environ()) {
		hint := ""
		if near := config.NearestEnv(v); near != "" {
			hint = " (did you mean " + near + "?)"
		}
		fmt.Fprintf(stderr, "qwixxbot: warning: environment variable %s matches no configuration key%s\n", v, hint)
	}
	return cfg, nil
}

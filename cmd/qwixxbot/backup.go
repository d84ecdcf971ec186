package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/qwixxbot/qwixxbot/store"
)

// runBackup writes a consistent backup of the database into a folder. If
// the bot is stopped it opens the database itself; if the bot is running
// (the file is locked) it asks the bot for one on log.debug_addr
// (GET /debug/backup), the only way to copy a database being written.
func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration file (TOML), for store.path, store.backup_dir and log.debug_addr")
	to := fs.String("to", "", "folder to write the backup into (default: store.backup_dir)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot backup [-config FILE] [-to DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	cfg, err := loadConfig(*cfgPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot backup: %v\n", err)
		return 2
	}
	dir := *to
	if dir == "" {
		dir = cfg.Store.BackupDir
	}
	if dir == "" {
		fmt.Fprintln(stderr, "qwixxbot backup: no folder: give -to DIR or set store.backup_dir (QWIXXBOT_STORE_BACKUP_DIR)")
		return 2
	}
	st, err := store.Open(cfg.Store.Path, store.WithLockTimeout(200*time.Millisecond))
	if err == nil {
		defer st.Close()
		path, err := st.BackupFile(dir)
		if err != nil {
			fmt.Fprintf(stderr, "qwixxbot backup: %v\n", err)
			return 1
		}
		return reportBackup(path, stdout, stderr)
	}
	if !errors.Is(err, store.ErrLocked) {
		fmt.Fprintf(stderr, "qwixxbot backup: %v\n", err)
		return 1
	}
	if cfg.Log.DebugAddr == "" {
		fmt.Fprintf(stderr, "qwixxbot backup: %s is in use by a running bot, and log.debug_addr is not set: set it (for example 127.0.0.1:6060) and restart the bot, or let the bot write backups itself (store.backup_dir, store.backup_every)\n", cfg.Store.Path)
		return 1
	}
	path, err := fetchBackup("http://"+cfg.Log.DebugAddr+"/debug/backup", dir)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot backup: asking the running bot on %s: %v\n", cfg.Log.DebugAddr, err)
		return 1
	}
	return reportBackup(path, stdout, stderr)
}

// reportBackup verifies the backup at path and says what it holds.
func reportBackup(path string, stdout, stderr io.Writer) int {
	sum, err := store.Verify(path)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot backup: %s does not verify: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "backup written: %s (%s)\n", path, sum)
	return 0
}

// fetchBackup saves the backup served at url into dir, under the name the
// store gives its own backups, through a temporary file renamed when whole.
func fetchBackup(url, dir string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return "", fmt.Errorf("%s: %s", resp.Status, b)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".backup-*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, resp.Body); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if _, err := store.Verify(tmp.Name()); err != nil {
		return "", fmt.Errorf("the copy received does not verify: %w", err)
	}
	path := filepath.Join(dir, "qwixxbot-"+time.Now().UTC().Format("20060102T150405.000Z")+".db")
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	return path, nil
}

// runRestore puts a backup in place of the database (store.path) of a
// stopped bot: it verifies the backup first and changes nothing if it does
// not verify, refuses while a bot holds the database, and keeps the old
// database beside.
func runRestore(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration file (TOML), for store.path")
	check := fs.Bool("check", false, "only verify the backup; change nothing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: qwixxbot restore [-config FILE] [-check] BACKUP")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || fs.Arg(0) == "" {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	from := fs.Arg(0)
	if *check {
		sum, err := store.Verify(from)
		if err != nil {
			fmt.Fprintf(stderr, "qwixxbot restore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s verifies: %s\n", from, sum)
		return 0
	}
	cfg, err := loadConfig(*cfgPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot restore: %v\n", err)
		return 2
	}
	kept, sum, err := store.Restore(from, cfg.Store.Path, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "qwixxbot restore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "restored %s to %s (%s)\n", from, cfg.Store.Path, sum)
	if kept != "" {
		fmt.Fprintf(stdout, "the database it replaced is kept as %s\n", kept)
	}
	return 0
}

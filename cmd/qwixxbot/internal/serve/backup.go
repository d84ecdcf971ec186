package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/store"
)

// backups writes the database's backups: on a schedule (store.backup_every
// into store.backup_dir, keeping store.backup_keep) and when asked on the
// debug listener.
type backups struct {
	st    *store.Store
	dir   string
	every time.Duration
	keep  int
	now   func() time.Time
	log   zerolog.Logger
	mu    sync.Mutex // one backup at a time
}

// write writes one backup into dir and prunes the oldest beyond keep.
func (b *backups) write() (string, store.Summary, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	path, err := b.st.BackupFile(b.dir)
	if err != nil {
		return "", store.Summary{}, err
	}
	sum, err := store.Verify(path)
	if err != nil {
		return "", sum, err
	}
	gone, err := store.PruneBackups(b.dir, b.keep)
	if err != nil {
		b.log.Warn().Err(err).Str("dir", b.dir).Msg("prune backups")
	}
	b.log.Info().Str("path", path).Stringer("contents", sum).Dur("took", time.Since(start)).
		Int("pruned", len(gone)).Msg("backup written")
	return path, sum, nil
}

// run writes a backup every b.every until ctx ends. The first one is due
// b.every after the newest backup already in the folder (at once if that
// is longer ago), so a bot restarted more often than b.every still backs
// up on time.
func (b *backups) run(ctx context.Context) {
	if b.dir == "" || b.every <= 0 {
		return
	}
	next := b.now()
	if list, err := store.Backups(b.dir); err == nil && len(list) > 0 {
		if fi, err := os.Stat(list[len(list)-1]); err == nil {
			next = fi.ModTime().Add(b.every)
		}
	}
	for {
		wait := max(next.Sub(b.now()), 0)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if _, _, err := b.write(); err != nil {
			b.log.Error().Err(err).Str("dir", b.dir).Msg("scheduled backup failed")
			next = b.now().Add(min(b.every, 10*time.Minute)) // try again soon
			continue
		}
		next = b.now().Add(b.every)
	}
}

// ServeHTTP answers /debug/backup: GET streams a consistent copy of the
// database (save it with curl -o), POST writes one into store.backup_dir
// and answers its path and contents as JSON.
func (b *backups) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "qwixxbot-"+b.now().UTC().Format("20060102T150405Z")+".db"))
		if _, err := b.st.Backup(w); err != nil {
			// Headers are gone: the client sees a short body. Say it in the log.
			b.log.Error().Err(err).Msg("backup over HTTP failed")
		}
	case http.MethodPost:
		if b.dir == "" {
			http.Error(w, "no backup folder: set store.backup_dir (QWIXXBOT_STORE_BACKUP_DIR)", http.StatusConflict)
			return
		}
		path, sum, err := b.write()
		if err != nil {
			b.log.Error().Err(err).Msg("backup on demand failed")
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"path": path, "contents": sum.String(), "tables": sum.Games, "results": sum.Results, "records": sum.Records})
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "GET streams a backup, POST writes one into store.backup_dir", http.StatusMethodNotAllowed)
	}
}

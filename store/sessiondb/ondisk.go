// Package sessiondb is the session's storage on the bbolt store: OnDisk
// implements the interfaces that bot/session defines (Tables, History,
// Secrets, RestoreMark) with the store's values and errors put in the
// session's terms, which are game/kept's. It imports no bot package:
// dependencies point cmd → bot → store → game, and the values both sides
// name live in game/kept (see there why). The composition root
// (cmd/qwixxbot/internal/serve) checks that OnDisk satisfies the
// session's interfaces.
package sessiondb

import (
	"context"
	"errors"
	"time"

	"github.com/qwixxbot/qwixxbot/game/kept"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// OnDisk is the session's storage on the bbolt store: Tables, History and
// Secrets, with the store's errors put in the session's terms
// (kept.IsCorrupt, kept.DamagedBytes, kept.Skipped). A call checks its
// context before it starts a transaction.
type OnDisk struct{ st *store.Store }

// NewOnDisk returns the session's storage on st.
func NewOnDisk(st *store.Store) *OnDisk { return &OnDisk{st: st} }

// terms puts a store error in the session's terms.
func terms(err error) error {
	switch {
	case err == nil:
		return nil
	case store.Skipped(err) > 0: // a listing that left damaged values out
		return &kept.SkippedError{N: store.Skipped(err), Cause: err}
	case errors.Is(err, store.ErrCorrupt):
		raw, _ := store.DamagedBytes(err)
		return &kept.CorruptError{Raw: raw, Cause: err}
	}
	return err
}

// Get implements session.Tables.
func (d *OnDisk) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	b, ok, err := d.st.Get(key)
	return b, ok, terms(err)
}

// GetUnless implements session.Tables.
func (d *OnDisk) GetUnless(ctx context.Context, key string, have []byte) ([]byte, bool, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, false, err
	}
	b, ok, same, err := d.st.GetUnless(key, have)
	return b, ok, same, terms(err)
}

// Update implements session.Tables.
func (d *OnDisk) Update(ctx context.Context, key string, fn func(old []byte, exists bool) ([]byte, bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return terms(d.st.Update(key, fn))
}

// PutLater implements session.LaterTables.
func (d *OnDisk) PutLater(ctx context.Context, key string, blob []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return terms(d.st.PutLater(key, blob))
}

// ForEach implements session.Tables.
func (d *OnDisk) ForEach(ctx context.Context, fn func(key string, blob []byte, err error) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.ForEach(func(key string, blob []byte, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fn(key, blob, terms(err))
	})
}

// Restored implements session.RestoreMark: when store.Restore put the
// database in place, and whether its mark is still there.
func (d *OnDisk) Restored(ctx context.Context) (at time.Time, marked bool, err error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, false, err
	}
	return d.st.Restored()
}

// ClearRestored implements session.RestoreMark: it clears the mark of a
// restore.
func (d *OnDisk) ClearRestored(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return terms(d.st.ClearRestored())
}

// Quarantine implements session.Tables.
func (d *OnDisk) Quarantine(ctx context.Context, key, reason string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.Quarantine(key, reason)
}

// GuildSettings implements session.Tables.
func (d *OnDisk) GuildSettings(ctx context.Context, guildID string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	b, ok, err := d.st.GuildSettings(guildID)
	return b, ok, terms(err)
}

// PutGuildSettings implements session.Tables.
func (d *OnDisk) PutGuildSettings(ctx context.Context, guildID string, blob []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.PutGuildSettings(guildID, blob)
}

// UpdateSaving implements session.History.
func (d *OnDisk) UpdateSaving(ctx context.Context, key string, games []kept.Finished, fn func(old []byte, exists bool) ([]byte, bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fs := make([]store.Finished, len(games))
	for i, g := range games {
		fs[i] = store.Finished(g)
	}
	return terms(d.st.UpdateSaving(key, fs, fn))
}

// Results implements session.History.
func (d *OnDisk) Results(ctx context.Context, guildID string, limit int) ([]stats.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rs, err := d.st.Results(guildID, limit)
	return rs, terms(err)
}

// Record implements session.History.
func (d *OnDisk) Record(ctx context.Context, guildID, gameID string) (kept.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return kept.Record{}, false, err
	}
	r, ok, err := d.st.Record(guildID, gameID)
	return kept.Record(r), ok, terms(err)
}

// Records implements session.History.
func (d *OnDisk) Records(ctx context.Context, guildID string, limit int) ([]kept.RecordInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rs, err := d.st.Records(guildID, limit)
	out := make([]kept.RecordInfo, len(rs))
	for i, r := range rs {
		out[i] = kept.RecordInfo(r)
	}
	return out, terms(err)
}

// DeleteUser implements session.History.
func (d *OnDisk) DeleteUser(ctx context.Context, guildID, userID string) (kept.Forgotten, error) {
	if err := ctx.Err(); err != nil {
		return kept.Forgotten{}, err
	}
	f, err := d.st.DeleteUser(guildID, userID)
	return kept.Forgotten(f), terms(err)
}

// GuildLeft implements session.History.
func (d *OnDisk) GuildLeft(ctx context.Context, guildID string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.GuildLeft(guildID, at)
}

// GuildBack implements session.History.
func (d *OnDisk) GuildBack(ctx context.Context, guildID string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.GuildBack(guildID)
}

// Sweep implements session.History.
func (d *OnDisk) Sweep(ctx context.Context, now time.Time) (kept.SweepReport, error) {
	if err := ctx.Err(); err != nil {
		return kept.SweepReport{}, err
	}
	r, err := d.st.Sweep(now)
	return kept.SweepReport(r), terms(err)
}

// Retention implements session.History.
func (d *OnDisk) Retention() kept.Retention { return kept.Retention(d.st.Retention()) }

// Secret implements session.Secrets.
func (d *OnDisk) Secret(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.st.Secret(name)
}

// DailyMarked implements session.Secrets.
func (d *OnDisk) DailyMarked(ctx context.Context, day int, mark []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.DailyMarked(day, mark)
}

// MarkDaily implements session.Secrets.
func (d *OnDisk) MarkDaily(ctx context.Context, day int, mark []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.MarkDaily(day, mark)
}

package session

import (
	"context"
	"errors"
	"time"

	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// OnDisk is the session's storage on the bbolt store: Tables, History and
// Secrets, with the store's errors put in the session's terms (IsCorrupt,
// DamagedBytes, Skipped). A call checks its context before it starts a
// transaction.
type OnDisk struct{ st *store.Store }

// NewOnDisk returns the session's storage on st.
func NewOnDisk(st *store.Store) *OnDisk { return &OnDisk{st: st} }

var (
	_ Tables  = (*OnDisk)(nil)
	_ History = (*OnDisk)(nil)
	_ Secrets = (*OnDisk)(nil)
)

// terms puts a store error in the session's terms.
func terms(err error) error {
	switch {
	case err == nil:
		return nil
	case store.Skipped(err) > 0: // a listing that left damaged values out
		return &SkippedError{N: store.Skipped(err), Cause: err}
	case errors.Is(err, store.ErrCorrupt):
		raw, _ := store.DamagedBytes(err)
		return &CorruptError{Raw: raw, Cause: err}
	}
	return err
}

// Get implements Tables.
func (d *OnDisk) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	b, ok, err := d.st.Get(key)
	return b, ok, terms(err)
}

// GetUnless implements Tables.
func (d *OnDisk) GetUnless(ctx context.Context, key string, have []byte) ([]byte, bool, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, false, err
	}
	b, ok, same, err := d.st.GetUnless(key, have)
	return b, ok, same, terms(err)
}

// Update implements Tables.
func (d *OnDisk) Update(ctx context.Context, key string, fn func(old []byte, exists bool) ([]byte, bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return terms(d.st.Update(key, fn))
}

// ForEach implements Tables.
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

// AfterRestore readies every stored table of a database that
// store.Restore put in place (Table.Restored) and then clears the store's
// mark, so it runs once per restore; call it before the bot loads its
// tables. It reports when the restore ran and how many tables it
// readied; with no mark it does nothing. Killed half way, it runs again
// at the next start: a table readied twice only moves its stamp further.
// Tables that cannot be read are left to the bot's own handling.
func (d *OnDisk) AfterRestore(ctx context.Context) (at time.Time, n int, err error) {
	at, marked, err := d.st.Restored()
	if err != nil || !marked {
		return at, 0, err
	}
	var keys []string
	err = d.ForEach(ctx, func(key string, blob []byte, err error) error {
		if err == nil {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return at, 0, err
	}
	for _, key := range keys {
		err := d.Update(ctx, key, func(old []byte, exists bool) ([]byte, bool, error) {
			t, err := Decode(old)
			if !exists || err != nil {
				return nil, false, errSkip
			}
			t.Restored()
			blob, err := t.Encode()
			return blob, false, err
		})
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			return at, n, err
		default:
			n++
		}
	}
	return at, n, terms(d.st.ClearRestored())
}

// errSkip leaves a table as it is in AfterRestore.
var errSkip = errors.New("session: not a readable table")

// Quarantine implements Tables.
func (d *OnDisk) Quarantine(ctx context.Context, key, reason string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.Quarantine(key, reason)
}

// GuildSettings implements Tables.
func (d *OnDisk) GuildSettings(ctx context.Context, guildID string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	b, ok, err := d.st.GuildSettings(guildID)
	return b, ok, terms(err)
}

// PutGuildSettings implements Tables.
func (d *OnDisk) PutGuildSettings(ctx context.Context, guildID string, blob []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.PutGuildSettings(guildID, blob)
}

// UpdateSaving implements History.
func (d *OnDisk) UpdateSaving(ctx context.Context, key string, games []Finished, fn func(old []byte, exists bool) ([]byte, bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fs := make([]store.Finished, len(games))
	for i, g := range games {
		fs[i] = store.Finished(g)
	}
	return terms(d.st.UpdateSaving(key, fs, fn))
}

// Results implements History.
func (d *OnDisk) Results(ctx context.Context, guildID string, limit int) ([]stats.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rs, err := d.st.Results(guildID, limit)
	return rs, terms(err)
}

// Record implements History.
func (d *OnDisk) Record(ctx context.Context, guildID, gameID string) (KeptRecord, bool, error) {
	if err := ctx.Err(); err != nil {
		return KeptRecord{}, false, err
	}
	r, ok, err := d.st.Record(guildID, gameID)
	return KeptRecord(r), ok, terms(err)
}

// Records implements History.
func (d *OnDisk) Records(ctx context.Context, guildID string, limit int) ([]RecordInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rs, err := d.st.Records(guildID, limit)
	out := make([]RecordInfo, len(rs))
	for i, r := range rs {
		out[i] = RecordInfo(r)
	}
	return out, terms(err)
}

// DeleteUser implements History.
func (d *OnDisk) DeleteUser(ctx context.Context, guildID, userID string) (Forgotten, error) {
	if err := ctx.Err(); err != nil {
		return Forgotten{}, err
	}
	f, err := d.st.DeleteUser(guildID, userID)
	return Forgotten(f), terms(err)
}

// GuildLeft implements History.
func (d *OnDisk) GuildLeft(ctx context.Context, guildID string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.GuildLeft(guildID, at)
}

// GuildBack implements History.
func (d *OnDisk) GuildBack(ctx context.Context, guildID string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.GuildBack(guildID)
}

// Sweep implements History.
func (d *OnDisk) Sweep(ctx context.Context, now time.Time) (SweepReport, error) {
	if err := ctx.Err(); err != nil {
		return SweepReport{}, err
	}
	r, err := d.st.Sweep(now)
	return SweepReport(r), terms(err)
}

// Retention implements History.
func (d *OnDisk) Retention() Retention { return Retention(d.st.Retention()) }

// Secret implements Secrets.
func (d *OnDisk) Secret(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.st.Secret(name)
}

// DailyMarked implements Secrets.
func (d *OnDisk) DailyMarked(ctx context.Context, day int, mark []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.DailyMarked(day, mark)
}

// MarkDaily implements Secrets.
func (d *OnDisk) MarkDaily(ctx context.Context, day int, mark []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return d.st.MarkDaily(day, mark)
}

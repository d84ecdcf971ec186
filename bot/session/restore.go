package session

import (
	"context"
	"errors"
	"time"
)

// RestoreMark is the mark that restoring a database from a backup leaves
// (the store's Restore): when it ran, until cleared.
type RestoreMark interface {
	// Restored reports when the restore ran and whether its mark is
	// still there.
	Restored(ctx context.Context) (at time.Time, marked bool, err error)
	// ClearRestored clears the mark.
	ClearRestored(ctx context.Context) error
}

// AfterRestore readies every stored table of a database that the store's
// Restore put in place (Table.Restored) and then clears the restore's
// mark, so it runs once per restore; call it before the bot loads its
// tables. It reports when the restore ran and how many tables it
// readied; with no mark it does nothing. Killed half way, it runs again
// at the next start: a table readied twice only moves its stamp further.
// Tables that cannot be read are left to the bot's own handling.
func AfterRestore(ctx context.Context, tables Tables, mark RestoreMark) (at time.Time, n int, err error) {
	at, marked, err := mark.Restored(ctx)
	if err != nil || !marked {
		return at, 0, err
	}
	var keys []string
	err = tables.ForEach(ctx, func(key string, blob []byte, err error) error {
		if err == nil {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return at, 0, err
	}
	for _, key := range keys {
		err := tables.Update(ctx, key, func(old []byte, exists bool) ([]byte, bool, error) {
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
	return at, n, mark.ClearRestored(ctx)
}

// errSkip leaves a table as it is in AfterRestore.
var errSkip = errors.New("session: not a readable table")

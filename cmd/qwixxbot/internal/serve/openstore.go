package serve

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/qwixxbot/qwixxbot/store"
)

// OpenStore opens the bot's database at path (store.path). When it
// cannot, the error says what to change: the file is store.path in the
// configuration file or QWIXXBOT_STORE_PATH in the environment, and a
// relative path is shown where it leads.
func OpenStore(path string, opts ...store.Option) (*store.Store, error) {
	st, err := store.Open(path, opts...)
	if err == nil {
		return st, nil
	}
	where := ""
	if abs, aerr := filepath.Abs(path); aerr == nil && abs != path {
		where = " (" + abs + ")"
	}
	const setting = "store.path in the config file, or QWIXXBOT_STORE_PATH"
	var hint string
	switch {
	case errors.Is(err, store.ErrLocked):
		hint = fmt.Sprintf("another qwixxbot process has the database%s open: stop it, or give this one a database of its own with %s", where, setting)
	case errors.Is(err, store.ErrNotDatabase), errors.Is(err, store.ErrSchemaTooNew):
		hint = fmt.Sprintf("point %s at the bot's own database file, or at a new file to start afresh (the database is%s %q)", setting, where, path)
	default:
		hint = fmt.Sprintf("the database file%s is %s: point it at a file in a folder this user may create and write, or fix the permissions", where, setting)
	}
	return nil, fmt.Errorf("%w; %s", err, hint)
}

//go:build cgo

package store

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// sqliteBusy tells whether err is SQLite's "busy" or "locked": another
// connection holds the lock, and the operation may be tried again.
func sqliteBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

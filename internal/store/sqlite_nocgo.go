//go:build !cgo

package store

// sqliteBusy: without cgo there is no SQLite (its driver only says that it
// needs cgo), so nothing is ever busy.
func sqliteBusy(error) bool { return false }

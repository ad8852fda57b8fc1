package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smtarena/smtarena/internal/store/storetest"
	"github.com/smtarena/smtarena/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.StopPostgres()
	os.Exit(code)
}

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "s.db") })
}

func TestPostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T) string { return testenv.Postgres(t) })
}

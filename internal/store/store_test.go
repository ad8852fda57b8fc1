package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
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

// TestSQLiteOwnerOnly: the store holds every solver's results, and solvers
// run as users of their own; its files are readable by their owner alone,
// also a store made by an older smtarena with a wider mode.
func TestSQLiteOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), fi.Mode().Perm())
		}
	}
}

package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestPostgresWithoutSSLMode: a URL that names no sslmode connects to a
// server without TLS (the test server has none), as libpq's default
// (prefer) does; one that names it keeps it.
func TestPostgresWithoutSSLMode(t *testing.T) {
	dsn := testenv.Postgres(t)
	t.Setenv("PGSSLMODE", "restored after the test")
	os.Unsetenv("PGSSLMODE")
	plain := strings.Replace(dsn, "?sslmode=disable", "", 1)
	if plain == dsn {
		t.Fatalf("the test DSN %q names no sslmode=disable", dsn)
	}
	st, err := store.Open(context.Background(), plain)
	if err != nil {
		t.Fatalf("open %s: %v", plain, err)
	}
	st.Close()
	_, err = store.Open(context.Background(), strings.Replace(dsn, "sslmode=disable", "sslmode=require", 1))
	if err == nil || !strings.Contains(err.Error(), "SSL") {
		t.Errorf("sslmode=require against a server without TLS: %v, want an SSL error", err)
	}
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

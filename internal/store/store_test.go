package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestSQLiteBulkJournal: a bulk that has the database alone writes with a
// rollback journal (each page once, not into the log and then the
// database), one beside another connection writes into the log without
// waiting for it, and the store is in WAL mode again after either; the
// journal is the owner's alone, as the database is.
func TestSQLiteBulkJournal(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	many := make([]store.Result, 20000)
	for i := range many {
		many[i] = store.Result{Competition: "c", Year: 2024, Track: "unsat-core", Solver: "s", BenchmarkPath: fmt.Sprintf("non-incremental/QF_UF/f/%d.smt2", i),
			Status: "complete", Answer: "unsat", Extra: strings.Repeat("x", 100+i%1000), SourceKey: fmt.Sprint("k", i)}
	}
	add := func(rs []store.Result) {
		t.Helper()
		bulk, err := st.Bulk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := bulk.AddResults(rs, nil, nil); err != nil || n != len(rs) {
			t.Fatalf("add: %d %v", n, err)
		}
		if err := bulk.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	walSize := func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	journalMode := func() string {
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var mode string
		if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		return mode
	}
	add(many[:10000])
	if n := walSize(); n > 1<<20 {
		t.Errorf("alone: the log has %d bytes after the bulk, want next to none", n)
	}
	if m := journalMode(); m != "wal" {
		t.Errorf("after a bulk alone: journal mode %s, want wal", m)
	}
	other, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if n, err := other.CountResults(ctx, store.ResultFilter{}); err != nil || n != 10000 {
		t.Fatalf("the other connection counts %d, %v", n, err)
	}
	start := time.Now()
	add(many[10000:])
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a bulk beside another connection took %v: it waited for it", d)
	}
	if n := walSize(); n < 1<<20 {
		t.Errorf("beside another connection: the log has %d bytes, want the bulk's pages", n)
	}
	if n, err := other.CountResults(ctx, store.ResultFilter{}); err != nil || n != 20000 {
		t.Errorf("the other connection counts %d, %v", n, err)
	}
	if m := journalMode(); m != "wal" {
		t.Errorf("journal mode %s, want wal", m)
	}
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/lib/pq"           // registers the "postgres" driver
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver (without cgo, one that says it needs cgo)
)

// SQLite is the embedded store: one file, written ahead (WAL).
type SQLite struct{ sqlStore }

// Postgres is the store for many machines.
type Postgres struct{ sqlStore }

var (
	_ Store = (*SQLite)(nil)
	_ Store = (*Postgres)(nil)
)

// DefaultDSN is where the embedded store lives unless --db says otherwise.
const DefaultDSN = "smtarena.db"

// sqliteBusyMillis is how long an SQLite connection waits for another's
// lock.
const sqliteBusyMillis = 30000

// Open opens (and migrates) the store a DSN names: a postgres:// or
// postgresql:// URL, or an SQLite file path (optionally sqlite:PATH).
func Open(ctx context.Context, dsn string) (Store, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return OpenPostgres(ctx, dsn)
	}
	return OpenSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"))
}

// OpenSQLite opens the SQLite store in a file, creating it if needed.
func OpenSQLite(ctx context.Context, path string) (*SQLite, error) {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	if err := ownerOnly(path); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Every transaction of ours writes: taking the write lock at BEGIN
	// (IMMEDIATE) lets a process wait its turn (busy_timeout) where one
	// that read first and then wrote would fail at once with "database
	// is locked" while another process writes (several workers sharing a
	// file). database/sql hands a connection to one goroutine at a time,
	// so SQLite's own locking of each call is not needed (_mutex=no:
	// multi-thread mode): 5% off scoring the 2024 unsat-core results.
	q := url.Values{"_journal_mode": {"WAL"}, "_busy_timeout": {strconv.Itoa(sqliteBusyMillis)}, "_synchronous": {"NORMAL"}, "_foreign_keys": {"1"},
		"_txlock": {"immediate"}, "_mutex": {"no"}}
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// One writer at a time is what SQLite allows; a single connection
	// also keeps transactions from waiting on each other.
	db.SetMaxOpenConns(1)
	// Connections that only read, beside: BenchFacts reads on several at
	// once.
	rq := url.Values{"_busy_timeout": {strconv.Itoa(sqliteBusyMillis)}, "_mutex": {"no"}, "_query_only": {"1"}}
	s := &SQLite{sqlStore{db: db, d: sqliteDialect, readDSN: "file:" + path + "?" + rq.Encode()}}
	if err := pingSQLite(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// pingSQLite connects. A connection's first statements (the journal mode)
// can find the file locked by another process that is creating the same
// store, and SQLite does not wait for that lock (busy_timeout): try again
// for up to 30 s.
func pingSQLite(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := db.PingContext(ctx)
		if err == nil || !sqliteBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ownerOnly creates the store's file if needed and makes it readable by its
// owner alone: it holds every solver's results, and solvers run as users of
// their own must not read it. SQLite gives the -wal and -shm files it makes
// beside it the same mode.
func ownerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// preferSSL gives a URL that names no sslmode (and an environment without
// PGSSLMODE) libpq's default, sslmode=prefer: TLS where the server offers
// it, a plain connection where it does not. The driver, lib/pq, would
// otherwise require TLS and refuse a server without it.
func preferSSL(dsn string) string {
	if os.Getenv("PGSSLMODE") != "" {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil || u.Query().Has("sslmode") {
		return dsn // a malformed URL is the driver's to report
	}
	q := u.Query()
	q.Set("sslmode", "prefer")
	u.RawQuery = q.Encode()
	return u.String()
}

// OpenPostgres connects to a PostgreSQL database. Its connections are
// pooled (a worker's slots, its lease renewal and a coordinator share a
// few), and an operation that fails for a transient reason (the server
// restarting, a connection lost) is tried again for up to DefaultRetry.
func OpenPostgres(ctx context.Context, dsn string) (*Postgres, error) {
	db, err := sql.Open("postgres", preferSSL(dsn))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// A few connections per process: many workers share one server, whose
	// default limit is 100 connections.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)
	db.SetConnMaxLifetime(time.Hour)
	s := &Postgres{sqlStore{db: db, d: postgresDialect, retryFor: DefaultRetry}}
	if err := s.retry(ctx, func() error { return db.PingContext(ctx) }); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to PostgreSQL: %w", err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// ErrOneMachine is returned by Shared for a store that lives on one
// machine.
var ErrOneMachine = errors.New("the SQLite store lives in a file on one machine; an executor on several machines needs a PostgreSQL store (--db postgres://...)")

// Shared checks that workers on other machines can use the store: a
// PostgreSQL store, not an SQLite file (whose locks do not hold over a
// network filesystem).
func Shared(s Store) error {
	if _, ok := s.(*Postgres); ok {
		return nil
	}
	return ErrOneMachine
}

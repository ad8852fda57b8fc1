package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
)

// openStoreToRead opens a store that must exist already. A command that
// only reads the store (benchmarks, score, report, status, show-model)
// given a path where there is none says so, rather than creating an empty
// store and answering from it as if nothing had been indexed or run.
func openStoreToRead(ctx context.Context, dsn string) (store.Store, error) {
	if err := storeExists(dsn); err != nil {
		return nil, err
	}
	return store.Open(ctx, dsn)
}

// openCompetitionToRead is openCompetition for a command that reads the
// competition's store: the store must exist.
func openCompetitionToRead(ctx context.Context, path, dsn string) (*config.Competition, store.Store, error) {
	if dsn == "" {
		def, err := config.Load(path)
		if err != nil {
			return nil, nil, err
		}
		dsn = filepath.Join(def.Path(def.WorkDir), "smtarena.db")
	}
	if err := storeExists(dsn); err != nil {
		return nil, nil, fmt.Errorf("%w; has smtarena compete %s run?", err, path)
	}
	return openCompetition(ctx, path, dsn)
}

// storeExists checks that an SQLite store's file is there (a PostgreSQL
// database is the server's to know).
func storeExists(dsn string) error {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return nil
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no store at %s (smtarena index, import and compete write one; --db or SMTARENA_DB names another)", path)
	}
	return nil
}

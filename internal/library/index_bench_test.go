package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// corpus writes (once; SMTARENA_INDEX_CORPUS keeps it between runs) a
// generated library of files x bytes in SMT-LIB layout: the indexing
// figure of issue 4 is 20,000 files / 2 GB.
func corpus(b *testing.B, files int, bytes int64) string {
	b.Helper()
	dir := os.Getenv("SMTARENA_INDEX_CORPUS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("smtarena-corpus-%d-%d", files, bytes))
	}
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	var wg sync.WaitGroup
	work := make(chan int)
	errs := make(chan error, runtime.NumCPU())
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				d := filepath.Join(dir, "non-incremental", "QF_LIA", fmt.Sprintf("gen-%02d", i%50))
				if err := os.MkdirAll(d, 0o755); err != nil {
					errs <- err
					return
				}
				f, err := os.Create(filepath.Join(d, fmt.Sprintf("b%05d.smt2", i)))
				if err != nil {
					errs <- err
					return
				}
				err = benchgen.GenerateQFLIA(f, benchgen.QFLIAOptions{Seed: uint64(i), Bytes: bytes / int64(files), Vars: 200})
				f.Close()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 0; i < files; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchmarkIndex(b *testing.B, open func(b *testing.B) store.Store) {
	dir := corpus(b, 20000, 2<<30)
	b.ResetTimer()
	var mbps float64
	for i := 0; i < b.N; i++ {
		st := open(b)
		stats, err := Index(context.Background(), st, []string{dir}, IndexOptions{})
		if err != nil || stats.Files != 20000 {
			b.Fatalf("%+v %v", stats, err)
		}
		mbps = float64(stats.Bytes) / 1e6 / stats.Elapsed.Seconds()
		st.Close()
	}
	b.ReportMetric(mbps, "MB/s")
}

// BenchmarkIndexSQLite: indexing 20,000 files / 2 GB into SQLite.
func BenchmarkIndexSQLite(b *testing.B) {
	benchmarkIndex(b, func(b *testing.B) store.Store {
		s, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "i.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

// BenchmarkIndexPostgres: the same into PostgreSQL.
func BenchmarkIndexPostgres(b *testing.B) {
	benchmarkIndex(b, func(b *testing.B) store.Store {
		s, err := store.OpenPostgres(context.Background(), testenv.Postgres(b))
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.StopPostgres()
	os.Exit(code)
}

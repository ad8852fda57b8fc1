package official

import (
	"context"
	"errors"
	"sync"

	"github.com/smtarena/smtarena/internal/store"
)

// ImportFiles imports files as Import does, in one transaction of the
// store: the results files one after the other, in the order given (their
// results are stored in that order), and the benchmark lists beside them,
// read by a goroutine of their own (they fill another table): a year's
// results and its benchmark list are read at once on two cores. A file
// that cannot be read to its end is imported up to the damage, and stops
// the files after it of its kind (ErrNotRead); its error is in errs. The transaction is
// committed at the end; if a write fails, nothing is, and err says why
// (the stats then count what would have been added).
func ImportFiles(ctx context.Context, st store.Store, format string, paths []string, opts Options) (stats []Stats, errs []error, err error) {
	stats, errs = make([]Stats, len(paths)), make([]error, len(paths))
	bulk, err := st.Bulk(ctx)
	if err != nil {
		return stats, errs, err
	}
	shared := &sharedBulk{Bulk: bulk}
	through := bulkStore{Store: st, bulk: shared}
	var lists, others []int
	expect := 0
	for i, p := range paths {
		switch formatOf(format, p) {
		case "benchmarks-json":
			lists = append(lists, i)
		case "smtcomp-json":
			expect += resultsHint(p)
			others = append(others, i)
		default:
			others = append(others, i)
		}
	}
	// The results of all the files at once: their year's set of keys is
	// made once (the imports' own guesses are not passed on).
	bulk.Expect(expect)
	lane := func(files []int) {
		failed := false
		for _, i := range files {
			if failed {
				errs[i] = ErrNotRead
				continue
			}
			stats[i], errs[i] = Import(ctx, through, format, paths[i], opts)
			failed = errs[i] != nil
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { lane(lists) })
	lane(others)
	wg.Wait()
	if shared.failed != nil {
		_ = bulk.Rollback()
		return stats, errs, shared.failed
	}
	return stats, errs, bulk.Commit()
}

// ErrNotRead is the error of a file that ImportFiles did not read, because
// one before it of its kind could not be read.
var ErrNotRead = errors.New("not read: a file before it could not be read")

// formatOf is the format a file is read in: the one given, else the one
// its name tells.
func formatOf(format, path string) string {
	if format == "" {
		return detectFormat(path)
	}
	return format
}

// sharedBulk is a transaction that the imports of several files write in,
// each from goroutines of its own (store.Bulk's methods may be called
// so): an import's Commit or Rollback leaves it open (ImportFiles ends
// it). A write that failed is kept: the transaction is then rolled back.
type sharedBulk struct {
	store.Bulk
	mu     sync.Mutex
	failed error
}

func (b *sharedBulk) note(err error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil && b.failed == nil {
		b.failed = err
	}
	return err
}

func (b *sharedBulk) AddResults(rs []store.Result, at []int64, dup func(i int, first int64)) (int, error) {
	n, err := b.Bulk.AddResults(rs, at, dup)
	return n, b.note(err)
}

// Expect is ImportFiles's, for all its files.
func (b *sharedBulk) Expect(int) {}

func (b *sharedBulk) AddBenchmarks(bs []store.Indexed) (int, error) {
	n, err := b.Bulk.AddBenchmarks(bs)
	return n, b.note(err)
}

func (b *sharedBulk) UpsertBenchmarks(bs []store.Indexed) error {
	return b.note(b.Bulk.UpsertBenchmarks(bs))
}

// Commit leaves the transaction to ImportFiles, unless a write failed.
func (b *sharedBulk) Commit() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failed
}

// Rollback comes after a failed write: ImportFiles rolls back.
func (b *sharedBulk) Rollback() error {
	return b.note(errors.New("an import was rolled back"))
}

// bulkStore is a store whose Bulk is the shared transaction (the importers
// use nothing else of it while they import).
type bulkStore struct {
	store.Store
	bulk *sharedBulk
}

func (s bulkStore) Bulk(context.Context) (store.Bulk, error) { return s.bulk, nil }

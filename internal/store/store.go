package store

import (
	"context"
	"errors"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// ErrNotFound is returned when a named thing is not in the store.
var ErrNotFound = errors.New("store: not found")

// Store is what the rest of smtarena needs from a database.
type Store interface {
	// UpsertBenchmarks records benchmarks by library path, with the file
	// signatures that let a later index skip unchanged files.
	UpsertBenchmarks(ctx context.Context, bs []Indexed) error
	// FileSigs returns the signature of every indexed path.
	FileSigs(ctx context.Context) (map[string]FileSig, error)
	// Benchmarks lists indexed benchmarks, ordered by path.
	Benchmarks(ctx context.Context, f Filter) ([]benchmark.Benchmark, error)

	// AddResults records results; a result whose SourceKey is already
	// recorded is skipped, so an interrupted import can be rerun. It
	// returns how many were new. The results go into blocks of their year
	// and track (see blocks.go), and every call first reads the keys of the
	// years it adds to: many results are added in one call, or through a
	// Bulk.
	AddResults(ctx context.Context, rs []Result) (int, error)
	// Results lists recorded results.
	Results(ctx context.Context, f ResultFilter) ([]Result, error)
	// EachResult calls fn with each recorded result in the order of
	// Results, without keeping them (scoring a year holds rows of its own);
	// the Result passed is reused, and an error of fn ends the listing. Its
	// strings may be parts of a stored block of megabytes, which a string
	// kept keeps alive whole: what fn keeps for long it copies (rowsOf).
	EachResult(ctx context.Context, f ResultFilter, fn func(*Result) error) error
	// CountResults counts the results Results would list.
	CountResults(ctx context.Context, f ResultFilter) (int, error)

	// Bulk starts adding many rows in one transaction (an import): what
	// its AddResults and UpsertBenchmarks add is recorded at its Commit,
	// all at once, or, after a Rollback or a crash, not at all. The store
	// is not to be used otherwise until then (SQLite's has one
	// connection).
	Bulk(ctx context.Context) (Bulk, error)

	// SaveSelection records a selection under its name, replacing one of
	// the same name, in one transaction.
	SaveSelection(ctx context.Context, s Selection) (int64, error)
	// Selection returns a saved selection (ErrNotFound if none).
	Selection(ctx context.Context, name string) (Selection, error)

	PairStore
	CoreStore
	FactStore

	Close() error
}

// Bulk adds rows in one transaction; see Store.Bulk. Its methods are as
// the Store's of the same names. They may be called from several
// goroutines (statements are run one at a time; the results' blocks are
// built outside the transaction's lock), so that a year's results and its
// benchmark list can be read at once.
type Bulk interface {
	// AddResults is Store.AddResults, telling the caller what it skips:
	// at, if not nil, holds a position of the caller's for each result
	// (a file's number and line; not 0), and dup, if not nil, is called
	// with the index in rs of each result skipped and the position of the
	// result whose key it has, 0 if that one was stored before the
	// transaction. An importer then needs no set of keys of its own to
	// name the rows a file gives twice.
	AddResults(rs []Result, at []int64, dup func(i int, first int64)) (int, error)
	// Expect says that about n more results are coming (a guess, not a
	// limit: an importer's from its file's size), so that the set of keys
	// of their year is made that large at once.
	Expect(n int)
	UpsertBenchmarks(bs []Indexed) error
	// AddBenchmarks adds the benchmarks whose paths are not in the store
	// yet, the first of a path given twice, and leaves the others as they
	// are; it returns how many it added.
	AddBenchmarks(bs []Indexed) (int, error)
	Commit() error
	Rollback() error
}

// FileSig identifies the contents of an indexed file cheaply.
type FileSig struct {
	Size    int64
	ModTime int64 // Unix nanoseconds
	Hash    string
}

// Indexed is a benchmark with the signature of its file.
type Indexed struct {
	benchmark.Benchmark
	Sig FileSig
}

// Filter selects benchmarks; zero fields match everything.
type Filter struct {
	Logic       string
	Incremental *bool
	PathPrefix  string
	// Paths, when not nil, keeps only these paths (looked up by the
	// path's index: scoring a few thousand results needs their benchmarks,
	// not the hundreds of thousands of a library).
	Paths []string
}

// Result is one solver's run on one benchmark, imported from an earlier
// competition or written by a run.
type Result struct {
	ID            int64
	Competition   string // e.g. "SMT-COMP 2019"
	Year          int
	Track         string
	Solver        string
	Configuration string
	BenchmarkPath string // library path: (non-)incremental/LOGIC/...
	// Status is how the run ended: complete, timeout, memout, ...
	Status   string
	Answer   string // sat, unsat, unknown, ... as the solver answered
	Expected string
	CPU      float64 // seconds
	Wall     float64
	MemoryMB float64
	// Extra holds the track's other columns (JSON object), kept for scoring.
	Extra string
	// SourceKey identifies the result at its source (e.g. a StarExec pair
	// id); importing it twice records it once.
	SourceKey string
}

// ResultFilter selects results; zero fields match everything.
type ResultFilter struct {
	Year          int
	Track         string
	Solver        string
	BenchmarkPath string
	// ImportedKeysless: imported results come without their SourceKey
	// (scoring reads the keys of runs' results only, and making an
	// imported result's key is a tenth of reading it back).
	ImportedKeysless bool
}

// Selection is a named benchmark selection.
type Selection struct {
	ID    int64
	Name  string
	Rules int
	Track string
	Seed  uint32
	Items []SelectionItem
}

// SelectionItem is one selected benchmark.
type SelectionItem struct {
	BenchmarkID   int64
	Path          string
	KeepCheckSats int // incremental scripts cut to a prefix; 0 means all
	Heat          int
}

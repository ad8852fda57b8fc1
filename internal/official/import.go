package official

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/smtarena/smtarena/internal/store"
)

// Formats are the result formats `smtarena import` reads.
var Formats = []string{"starexec-csv", "smtcomp-json", "benchmarks-json", "aws-csv"}

// Options say what an official result file is about when its name does
// not tell.
type Options struct {
	Year        int    // default: a 4-digit year in the file's path
	Competition string // default: "SMT-COMP <year>"
	Track       string // default: from the file name (Unsat_Core_Track, ...)
	Solver      string // aws-csv: the solver of a raw file (default: from its name)
	// aws-csv: the organisers' map of competition names to SMT-LIB names
	// (competition name, smtlib name: 2021's {cloud,parallel}-map.csv or
	// its scramble_map archive, 2022's cloud-map.csv), and a table of
	// benchmark statuses (benchmark or benchmark name, status: 2021's
	// aws-instance-statuses.csv, SMT-LIB_non_incremental_benchmarks_all_
	// assertions.csv) for the files that have no expected column.
	Map, Statuses string
}

// Stats count an import: every row of the file is either added, already
// there (Skipped), or unusable (named in Problems with its line and the
// reason), so that Rows = Added + Skipped + Unusable(); Problems also
// holds notes on rows imported all the same (Kept).
type Stats struct {
	Rows, Added, Skipped int
	Problems             []Problem
}

// Problem is a row that could not be imported, or something the importer
// noticed that a user should know (Kept: the row was imported all the same).
type Problem struct {
	File   string // the file, or archive:member
	Line   int    // 1-based line of the row (0: the whole file)
	Reason string
	Kept   bool
	// Remark: the line is not a result row at all (2021's joined exports
	// repeat the header line of every job appended), so it is neither
	// imported nor counted among the rows.
	Remark bool
}

func (p Problem) String() string {
	at := p.File
	if p.Line > 0 {
		at += ":" + strconv.Itoa(p.Line)
	}
	if p.Remark {
		return at + ": " + p.Reason
	}
	if p.Kept {
		return at + ": " + p.Reason + " (imported)"
	}
	return at + ": " + p.Reason + " (not imported)"
}

// Unusable counts the rows not imported.
func (s Stats) Unusable() int {
	n := 0
	for _, p := range s.Problems {
		if !p.Kept && !p.Remark {
			n++
		}
	}
	return n
}

// Key identifies an imported result by what it is: the year, track,
// solver, configuration and benchmark, and the source's id of the pair
// where it has one. Two results that differ in any of these are two
// results; importing the same file twice records each once.
func Key(source string, year int, track, solver, configuration, benchmark, pair string) string {
	b := appendKey(make([]byte, 0, len(source)+len(track)+len(solver)+len(configuration)+len(benchmark)+len(pair)+26),
		source, year, track, solver, configuration, benchmark, pair)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not kept: one allocation a key, as strings.Builder makes
}

// appendKey appends the Key of a result.
func appendKey(b []byte, source string, year int, track, solver, configuration, benchmark, pair string) []byte {
	b = append(b, source...)
	b = append(b, '\x1f')
	b = strconv.AppendInt(b, int64(year), 10)
	for _, s := range [...]string{track, solver, configuration, benchmark, pair} {
		b = append(b, '\x1f')
		b = append(b, s...)
	}
	return b
}

// Import reads an official result file of a format (see Formats) into the
// results table.
// Without a format, a JSON file (.json, .json.gz, .json.xz, .json.bz2) is
// the smtcomp tool's: its benchmark list when named benchmarks-*, else its
// results (results-TRACK-YEAR.json.gz); anything else a StarExec export.
func Import(ctx context.Context, st store.Store, format, path string, opts Options) (Stats, error) {
	switch format = formatOf(format, path); format {
	case "", "starexec-csv":
		return ImportStarExec(ctx, st, path, opts)
	case "smtcomp-json":
		return ImportSMTCOMPJSON(ctx, st, path, opts)
	case "benchmarks-json":
		return ImportBenchmarksJSON(ctx, st, path)
	case "aws-csv":
		return ImportAWSCSV(ctx, st, path, opts)
	}
	return Stats{}, fmt.Errorf("unknown result format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// detectFormat names the format of a file given without one: "" (a
// StarExec export) unless its name says it is the smtcomp tool's JSON.
func detectFormat(path string) string {
	base := strings.ToLower(filepath.Base(path))
	for _, ext := range []string{".gz", ".xz", ".bz2"} {
		base = strings.TrimSuffix(base, ext)
	}
	if !strings.HasSuffix(base, ".json") {
		return ""
	}
	if strings.HasPrefix(base, "benchmarks-") {
		return "benchmarks-json"
	}
	return "smtcomp-json"
}

// trackNames map the official file names to tracks.
var trackNames = []struct{ key, track string }{
	// the organisers' joined files of 2021-2023 (raw-results-sq.csv,
	// results-uc.csv)
	{"results-sq", "single-query"},
	{"results-inc", "incremental"},
	{"results-uc", "unsat-core"},
	{"results-mv", "model-validation"},
	{"results-pe", "proof"},
	{"challenge_track_incremental", "challenge-incremental"},
	{"challenge_track_non-incremental", "challenge-non-incremental"},
	{"single_query", "single-query"},
	{"single-query", "single-query"},
	{"main_track", "single-query"},
	{"incremental", "incremental"},
	{"application", "incremental"},
	{"unsat_core", "unsat-core"},
	{"unsat-core", "unsat-core"},
	{"model_validation", "model-validation"},
	{"model-validation", "model-validation"},
	{"proof", "proof"},
	{"parallel", "parallel"},
	{"cloud", "cloud"},
}

var yearRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^0-9])(20[0-9]{2})(?:[^0-9]|$)`) })

// defaults fills the year, competition and track of an import from the
// file's path where they were not given: the year is the last 4-digit year
// in the path, the track the first track name in the file's name, else in
// its directories (2020/results/unsat-core/Job_infos.tar.xz).
func (opts *Options) defaults(path string, needTrack, needYear bool) error {
	if opts.Year == 0 {
		if ms := yearRE().FindAllStringSubmatch(path, -1); ms != nil {
			opts.Year, _ = strconv.Atoi(ms[len(ms)-1][1])
		} else if needYear {
			return fmt.Errorf("%s: no year in the path; give one (--year)", path)
		}
	}
	if opts.Competition == "" && opts.Year != 0 {
		opts.Competition = fmt.Sprintf("SMT-COMP %d", opts.Year)
	}
	if opts.Track == "" && needTrack {
		opts.Track = trackOfPath(path)
		if opts.Track == "" {
			return fmt.Errorf("%s: cannot tell the track from the file name; give one (--track)", path)
		}
	}
	return nil
}

func trackOfPath(path string) string {
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.ToLower(parts[i])
		for _, t := range trackNames {
			if strings.Contains(p, t.key) {
				return t.track
			}
		}
	}
	return ""
}

// writeBehind writes batches in a goroutine of its own while the importer
// reads on (parsing and the database's writing take about as long, and the
// machine has cores for both). A batch B holds rows (len tells how many;
// empty gives a batch emptied for reuse, fresh a new one).
type writeBehind[B any] struct {
	write   func(B) (int, error) // returns how many rows were new
	len     func(B) int
	empty   func(B) B
	fresh   func() B
	work    chan B
	free    chan B
	done    chan error
	failed  atomic.Bool
	added   int // new rows, counted by the goroutine, read after done
	written int // rows written
}

// newRowsBehind writes batches that are slices of up to size rows.
func newRowsBehind[T any](write func([]T) (int, error), size int) *writeBehind[[]T] {
	return newWriteBehind(write, func(b []T) int { return len(b) }, func(b []T) []T { return b[:0] },
		func() []T { return make([]T, 0, size) })
}

func newWriteBehind[B any](write func(B) (int, error), length func(B) int, empty func(B) B, fresh func() B) *writeBehind[B] {
	w := &writeBehind[B]{write: write, len: length, empty: empty, fresh: fresh, work: make(chan B, 2), free: make(chan B, 3), done: make(chan error, 1)}
	go func() {
		var first error
		for batch := range w.work {
			if first == nil {
				n, err := w.write(batch)
				if err != nil {
					first = err
					w.failed.Store(true)
				} else {
					w.added += n
					w.written += w.len(batch)
				}
			}
			select {
			case w.free <- w.empty(batch):
			default:
			}
		}
		w.done <- first
	}()
	return w
}

// put hands a batch to the writer and returns an empty one to fill; after
// the writer failed, it drops the batch (wait reports the failure).
func (w *writeBehind[B]) put(batch B) B {
	if w.len(batch) == 0 {
		return batch
	}
	if w.failed.Load() {
		return w.empty(batch)
	}
	w.work <- batch
	select {
	case b := <-w.free:
		return b
	default:
		return w.fresh()
	}
}

// wait waits for the writer to write what it was given: how many rows
// were new, how many written, and the first error.
func (w *writeBehind[B]) wait() (added, written int, err error) {
	close(w.work)
	err = <-w.done
	return w.added, w.written, err
}

// resultBatch is a batch of results, their positions (see
// store.Bulk.AddResults and batcher.pos) and the batcher's files up to
// then.
type resultBatch struct {
	rs    []store.Result
	at    []int64
	files []string
}

// batcher adds results to the store in batches and counts them: started
// (start), it writes behind in one transaction of the store, and finish
// waits for the writer and commits. An import is one transaction: the
// store keeps a year's results in blocks (store.Store.AddResults loads a
// year's keys at every call).
type batcher struct {
	ctx   context.Context
	st    store.Store
	buf   resultBatch
	stats Stats
	// The store keeps the keys, and tells of each result it skips the
	// position of the one with its key (see pos): the files of the
	// batcher by number, the position of each of its problems (in the
	// order of stats.Problems), and the results of its files that had the
	// key of one before (written by the writer, read after it is done).
	// expect: about how many results the file has, if known (to size the
	// store's set of keys at once)
	expect  int
	no      int64
	files   []string
	fileNos map[string]int64
	probAt  []int64
	dups    []Problem
	dupAt   []int64
	wb      *writeBehind[resultBatch]
	bulk    store.Bulk
}

// batchSize is how many rows one call of the store adds: a multiple of
// the rows of its multi-row INSERTs (400), so that one statement serves.
const batchSize = 4800

// batcherNos numbers the batchers of the process.
var batcherNos atomic.Int64

// pos is the position of a file's line among the rows the batcher reads,
// in their order and in no other batcher's: the batcher's number (15
// bits), the file's among its files (16: an archive's members), the line
// (32).
func (b *batcher) pos(file string, line int) int64 {
	if b.no == 0 {
		b.no = batcherNos.Add(1)%(1<<15-1) + 1
	}
	n, ok := b.fileNos[file]
	if !ok {
		if b.fileNos == nil {
			b.fileNos = map[string]int64{}
		}
		n = int64(len(b.files)) % (1 << 16)
		b.fileNos[file] = n
		b.files = append(b.files, file)
	}
	return b.no<<48 | n<<32 | int64(line)&(1<<32-1)
}

// start makes the batcher write behind, all in one transaction of the
// store (see store.Bulk) that finish commits.
func (b *batcher) start() error {
	bulk, err := b.st.Bulk(b.ctx)
	if err != nil {
		return err
	}
	b.bulk = bulk
	if b.expect > 0 {
		bulk.Expect(b.expect)
	}
	b.wb = newWriteBehind(b.write, func(rb resultBatch) int { return len(rb.rs) },
		func(rb resultBatch) resultBatch { return resultBatch{rs: rb.rs[:0], at: rb.at[:0]} },
		func() resultBatch {
			return resultBatch{rs: make([]store.Result, 0, batchSize), at: make([]int64, 0, batchSize)}
		})
	b.buf = b.wb.fresh()
	return nil
}

// write adds a batch, in the writer's goroutine: the results whose key
// one of the batcher's came with before are named (those of other
// imports, or stored before, are counted as skipped).
func (b *batcher) write(rb resultBatch) (int, error) {
	files := rb.files
	return b.bulk.AddResults(rb.rs, rb.at, func(i int, first int64) {
		if first>>48 != b.no {
			return
		}
		at := rb.at[i]
		file, line := files[at>>32&(1<<16-1)], int(at&(1<<32-1))
		firstFile, firstLine := files[first>>32&(1<<16-1)], int(first&(1<<32-1))
		where := fmt.Sprintf("line %d", firstLine)
		if firstFile != file {
			where = fmt.Sprintf("%s:%d", firstFile, firstLine)
		}
		b.dups = append(b.dups, Problem{File: file, Line: line,
			Reason: fmt.Sprintf("the same result as %s (same year, track, solver, configuration, benchmark and pair)", where)})
		b.dupAt = append(b.dupAt, at)
	})
}

// add queues a result read at file:line.
func (b *batcher) add(file string, line int, r store.Result) error {
	b.stats.Rows++
	b.buf.rs = append(b.buf.rs, r)
	b.buf.at = append(b.buf.at, b.pos(file, line))
	if len(b.buf.rs) >= batchSize {
		return b.flush()
	}
	return nil
}

// mergeProblems merges two lists of problems, each in the order of its
// positions (at), into one in that order: a problem of ps comes before
// one of more whose position is not after its own.
func mergeProblems(ps []Problem, psAt []int64, more []Problem, moreAt []int64) []Problem {
	all := make([]Problem, 0, len(ps)+len(more))
	for i, p := range more {
		for len(ps) > 0 && psAt[0] <= moreAt[i] {
			all, ps, psAt = append(all, ps[0]), ps[1:], psAt[1:]
		}
		all = append(all, p)
	}
	return append(all, ps...)
}

// problem records a problem of a row.
func (b *batcher) problem(p Problem) {
	b.stats.Problems = append(b.stats.Problems, p)
	b.probAt = append(b.probAt, b.pos(p.File, p.Line))
}

// unusable counts a row that cannot be imported.
func (b *batcher) unusable(file string, line int, format string, args ...any) {
	b.stats.Rows++
	b.problem(Problem{File: file, Line: line, Reason: fmt.Sprintf(format, args...)})
}

// note records something about a row that was imported all the same.
func (b *batcher) note(file string, line int, format string, args ...any) {
	b.problem(Problem{File: file, Line: line, Reason: fmt.Sprintf(format, args...), Kept: true})
}

// remark records a line that is not a result row (not counted).
func (b *batcher) remark(file string, line int, format string, args ...any) {
	b.problem(Problem{File: file, Line: line, Reason: fmt.Sprintf(format, args...), Remark: true})
}

// flush hands the queued results to the writer.
func (b *batcher) flush() error {
	if len(b.buf.rs) == 0 {
		return nil
	}
	if b.wb.failed.Load() {
		return b.finish()
	}
	b.buf.files = b.files[:len(b.files):len(b.files)]
	b.buf = b.wb.put(b.buf)
	return nil
}

// finish adds what is queued, waits for the writer and commits.
func (b *batcher) finish() error {
	if b.wb == nil {
		return nil
	}
	b.buf.files = b.files[:len(b.files):len(b.files)]
	b.wb.put(b.buf)
	b.buf = resultBatch{}
	added, written, err := b.wb.wait()
	b.wb = nil
	// The duplicates among the other problems, in the order read.
	if len(b.dups) > 0 {
		b.stats.Problems, b.probAt = mergeProblems(b.stats.Problems, b.probAt, b.dups, b.dupAt), nil
		written -= len(b.dups)
		b.dups, b.dupAt = nil, nil
	}
	if err != nil {
		_ = b.bulk.Rollback()
		return err
	}
	if err := b.bulk.Commit(); err != nil {
		return err
	}
	b.stats.Added += added
	b.stats.Skipped += written - added
	return nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/smtarena/smtarena/internal/keyset"
)

// Imported results are stored in blocks, not rows: one row of the
// result_blocks table holds up to blockRows results (about blockBytes at
// most) of one year and track,
// column by column (each string column as a dictionary and an index per
// row, the times as raw floats). An official year has hundreds of
// thousands of results: SQLite writes a row with its indexes in about
// 3 µs and reads one back in 2, while a block is written and decoded at
// memory speed (docs/scoring.md has the figures). Results written by runs
// (CompletePair), one at a time and looked up by pair, stay rows of the
// results table.
//
// A source key identifies a result in both forms: adding results first
// loads the keys of the year's rows and blocks, and skips those already
// there. A source key names one year (the importers' keys contain it; a
// run's are "pair:N"), so only that year's keys are loaded.

// blockRows is the most results one block holds, blockBytes about the most
// bytes (a block is built in memory, then copied by the database: the
// StarExec exports' other columns, kept in Extra, take a kilobyte a row).
const (
	blockRows  = 1 << 16
	blockBytes = 4 << 20
)

// blockMagic starts every block; its last byte is the format's version.
const blockMagic = "SRB\x01"

// blockIDBase places the results of blocks in the ID order of Results:
// result i of block b has ID blockIDBase + b<<16 + i, below every row's
// (positive) ID, so blocks are listed first, in the order they were added.
const blockIDBase = math.MinInt64 / 2

// String columns of a block, in their order in the encoding. keyHead and
// keyTail are the source and pair parts of a key made as the importers
// make it (the fields of the result joined by \x1f); keyFull is any other
// key whole, and empty for those.
const (
	colCompetition = iota
	colSolver
	colConfiguration
	colBenchmark
	colStatus
	colAnswer
	colExpected
	colExtra
	colKeyHead
	colKeyTail
	colKeyFull
	stringCols
)

// floatCols are CPU, wall time and memory.
const floatCols = 3

// blockBuilder gathers the results of one year and track into a block.
type blockBuilder struct {
	year  int
	track string
	n     int
	size  int // bytes the block will take, about
	dicts [stringCols]map[string]uint32
	words [stringCols][]string // dictionary entries, by index
	index [stringCols][]byte   // uvarint index of each row
	nums  [floatCols][]byte
	// the last value of each column and its index: consecutive results
	// mostly share them (a benchmark's solvers follow one another)
	last    [stringCols]string
	lastIdx [stringCols]uint32
}

func newBlockBuilder(year int, track string) *blockBuilder {
	b := &blockBuilder{year: year, track: track}
	for c := range b.dicts {
		b.dicts[c] = map[string]uint32{}
	}
	return b
}

// reset empties the builder, keeping its year and track, and the room it
// has (the next block of the track is about as large).
func (b *blockBuilder) reset() {
	b.n, b.size = 0, 0
	for c := range stringCols {
		clear(b.dicts[c])
		clear(b.words[c]) // not kept alive by the slice
		b.words[c], b.index[c] = b.words[c][:0], b.index[c][:0]
		b.last[c], b.lastIdx[c] = "", 0
	}
	for c := range b.nums {
		b.nums[c] = b.nums[c][:0]
	}
}

func (b *blockBuilder) put(c int, s string) {
	i := b.lastIdx[c]
	if s != b.last[c] || len(b.words[c]) == 0 {
		i = b.lookup(c, s)
		b.last[c], b.lastIdx[c] = s, i
	}
	b.index[c] = binary.AppendUvarint(b.index[c], uint64(i))
}

// smallDict is the size up to which a column's values are looked up by a
// scan rather than a map (solvers, statuses, answers: a handful).
const smallDict = 8

// lookup returns the index of a value in a column's dictionary, adding it.
func (b *blockBuilder) lookup(c int, s string) uint32 {
	words := b.words[c]
	if len(words) <= smallDict {
		for i, w := range words {
			if w == s {
				return uint32(i)
			}
		}
	} else if i, ok := b.dicts[c][s]; ok {
		return i
	}
	i := uint32(len(words))
	b.words[c] = append(words, s)
	b.size += len(s) + 2
	switch {
	case len(b.words[c]) == smallDict+1:
		for j, w := range b.words[c] {
			b.dicts[c][w] = uint32(j)
		}
	case len(b.words[c]) > smallDict+1:
		b.dicts[c][s] = i
	}
	return i
}

// add appends a result (of the builder's year and track).
func (b *blockBuilder) add(r *Result) {
	b.put(colCompetition, r.Competition)
	b.put(colSolver, r.Solver)
	b.put(colConfiguration, r.Configuration)
	b.put(colBenchmark, r.BenchmarkPath)
	b.put(colStatus, r.Status)
	b.put(colAnswer, r.Answer)
	b.put(colExpected, r.Expected)
	b.put(colExtra, r.Extra)
	head, tail, full := splitKey(r)
	b.put(colKeyHead, head)
	b.put(colKeyTail, tail)
	b.put(colKeyFull, full)
	for c, v := range [floatCols]float64{r.CPU, r.Wall, r.MemoryMB} {
		b.nums[c] = binary.LittleEndian.AppendUint64(b.nums[c], math.Float64bits(v))
	}
	b.n++
	b.size += 3*8 + stringCols
}

// splitKey returns the source and pair parts of a key made of the result's
// fields (source, year, track, solver, configuration, benchmark, pair,
// joined by \x1f, as official.Key makes them), or the key whole.
func splitKey(r *Result) (head, tail, full string) {
	k := r.SourceKey
	head, rest, ok := strings.Cut(k, "\x1f")
	if !ok {
		return "", "", k
	}
	var year [20]byte
	for _, f := range [...]string{string(strconv.AppendInt(year[:0], int64(r.Year), 10)), r.Track, r.Solver, r.Configuration, r.BenchmarkPath} {
		if len(rest) <= len(f) || rest[len(f)] != '\x1f' || rest[:len(f)] != f {
			return "", "", k
		}
		rest = rest[len(f)+1:]
	}
	return head, rest, ""
}

// joinKey is the key splitKey split.
func joinKey(r *Result, head, tail string) string {
	return strings.Join([]string{head, strconv.Itoa(r.Year), r.Track, r.Solver, r.Configuration, r.BenchmarkPath, tail}, "\x1f")
}

// encode writes the block: the magic, the row count, each string column
// (dictionary size, entries as length and bytes, then the rows' indexes
// unless the dictionary has one entry), then the float columns.
func (b *blockBuilder) encode(dst []byte) []byte {
	size := len(blockMagic) + 10
	for c := range stringCols {
		size += 10 + len(b.index[c])
		for _, w := range b.words[c] {
			size += 5 + len(w)
		}
	}
	out := slices.Grow(dst[:0], size+floatCols*8*b.n)
	out = append(out, blockMagic...)
	out = binary.AppendUvarint(out, uint64(b.n))
	for c := range stringCols {
		out = binary.AppendUvarint(out, uint64(len(b.words[c])))
		for _, w := range b.words[c] {
			out = binary.AppendUvarint(out, uint64(len(w)))
			out = append(out, w...)
		}
		if len(b.words[c]) > 1 {
			out = append(out, b.index[c]...)
		}
	}
	for c := range floatCols {
		out = append(out, b.nums[c]...)
	}
	return out
}

// errCorrupt is what a block that cannot be decoded gives.
var errCorrupt = errors.New("corrupt result block")

// blockReader decodes a block.
type blockReader struct {
	raw   []byte
	data  string // the block, one copy: the strings decoded are its parts
	n     int
	words [stringCols][]string
	index [stringCols]string // per-row indexes; empty if one entry
	nums  [floatCols][]byte
}

// decodeBlock checks a block's structure and prepares to read its rows.
// The strings it gives are parts of data, which is the block's from then
// on: the caller does not change it.
func decodeBlock(data []byte) (*blockReader, error) {
	// Not copied: a year's blocks are tens of MB, copied from SQLite and
	// by database/sql already, and fresh memory is paid for page by page.
	d := &blockReader{raw: data, data: unsafe.String(unsafe.SliceData(data), len(data))}
	p := 0
	uvarint := func() (uint64, error) {
		v, k := binary.Uvarint(d.raw[p:])
		if k <= 0 {
			return 0, fmt.Errorf("%w: bad number at byte %d", errCorrupt, p)
		}
		p += k
		return v, nil
	}
	if !strings.HasPrefix(d.data, blockMagic) {
		return nil, fmt.Errorf("%w: not a block of this version", errCorrupt)
	}
	p = len(blockMagic)
	n, err := uvarint()
	if err != nil {
		return nil, err
	}
	if n > blockRows {
		return nil, fmt.Errorf("%w: %d rows", errCorrupt, n)
	}
	d.n = int(n)
	for c := range stringCols {
		m, err := uvarint()
		if err != nil {
			return nil, err
		}
		if m > n || (m == 0 && n > 0) {
			return nil, fmt.Errorf("%w: column %d has %d distinct values for %d rows", errCorrupt, c, m, n)
		}
		d.words[c] = make([]string, m)
		for i := range d.words[c] {
			l, err := uvarint()
			if err != nil {
				return nil, err
			}
			if l > uint64(len(d.data)-p) {
				return nil, fmt.Errorf("%w: value at byte %d past the end", errCorrupt, p)
			}
			d.words[c][i] = d.data[p : p+int(l)]
			p += int(l)
		}
		if m > 1 {
			start := p
			for range n {
				i, err := uvarint()
				if err != nil {
					return nil, err
				}
				if i >= m {
					return nil, fmt.Errorf("%w: index %d of column %d out of range", errCorrupt, i, c)
				}
			}
			d.index[c] = d.data[start:p]
		}
	}
	for c := range floatCols {
		if len(d.data)-p < 8*d.n {
			return nil, fmt.Errorf("%w: times cut short", errCorrupt)
		}
		d.nums[c] = d.raw[p : p+8*d.n]
		p += 8 * d.n
	}
	if p != len(d.data) {
		return nil, fmt.Errorf("%w: %d bytes after its end", errCorrupt, len(d.data)-p)
	}
	return d, nil
}

// each calls fn with every row of the block as a Result (reused), of the
// given year and track, numbered from id, with its key if asked.
func (d *blockReader) each(year int, track string, id int64, keys bool, fn func(*Result) error) error {
	var at [stringCols]int // read positions in the index columns
	next := func(c int) string {
		if d.index[c] == "" {
			return d.words[c][0]
		}
		// the indexes were checked by decodeBlock
		var v uint64
		var s uint
		for {
			x := d.index[c][at[c]]
			at[c]++
			v |= uint64(x&0x7f) << s
			if x < 0x80 {
				break
			}
			s += 7
		}
		return d.words[c][v]
	}
	r := Result{Year: year, Track: track}
	for i := range d.n {
		r.ID = id + int64(i)
		r.Competition = next(colCompetition)
		r.Solver = next(colSolver)
		r.Configuration = next(colConfiguration)
		r.BenchmarkPath = next(colBenchmark)
		r.Status = next(colStatus)
		r.Answer = next(colAnswer)
		r.Expected = next(colExpected)
		r.Extra = next(colExtra)
		head, tail, full := next(colKeyHead), next(colKeyTail), next(colKeyFull)
		switch {
		case !keys:
		case full != "":
			r.SourceKey = full
		default:
			r.SourceKey = joinKey(&r, head, tail)
		}
		r.CPU = math.Float64frombits(binary.LittleEndian.Uint64(d.nums[0][8*i:]))
		r.Wall = math.Float64frombits(binary.LittleEndian.Uint64(d.nums[1][8*i:]))
		r.MemoryMB = math.Float64frombits(binary.LittleEndian.Uint64(d.nums[2][8*i:]))
		if err := fn(&r); err != nil {
			return err
		}
	}
	return nil
}

// blockAdder adds results in a transaction: into blocks, skipping those
// whose keys are there already.
type blockAdder struct {
	s     *sqlStore
	ctx   context.Context
	tx    *sql.Tx
	hash  keyset.Hasher
	keys  map[int]*keyset.Table // by year: the keys recorded and added
	build map[yearTrack]*blockBuilder
	order []*blockBuilder             // the blocks being built, in the order they were started
	spare map[yearTrack]*blockBuilder // builders of blocks written, for the next
	// enc: the buffer blocks are encoded into (see write)
	enc []byte
	// expected: the results said to be coming (Bulk.Expect)
	expected int
	// add's: the keys' hashes, the results skipped
	hashes []keyset.Hash
	skip   []int
	txMu   *sync.Mutex // held while the transaction is used (nil: none)
}

func (a *blockAdder) lock() {
	if a.txMu != nil {
		a.txMu.Lock()
	}
}

func (a *blockAdder) unlock() {
	if a.txMu != nil {
		a.txMu.Unlock()
	}
}

type yearTrack struct {
	year  int
	track string
}

func newBlockAdder(ctx context.Context, s *sqlStore, tx *sql.Tx) *blockAdder {
	return &blockAdder{s: s, ctx: ctx, tx: tx, hash: keyset.NewHasher(), keys: map[int]*keyset.Table{}, build: map[yearTrack]*blockBuilder{}}
}

// add adds results, returning how many were new; the keys added are
// recorded with the results' positions (at, see Bulk.AddResults), and dup
// told of each result skipped.
func (a *blockAdder) add(rs []Result, at []int64, dup func(i int, first int64)) (int, error) {
	for i := range rs {
		if rs[i].SourceKey == "" {
			return 0, errors.New("a result needs a source key")
		}
	}
	if at != nil && len(at) != len(rs) {
		return 0, fmt.Errorf("%d positions for %d results", len(at), len(rs))
	}
	// The keys are hashed first and looked up in a loop of their own: the
	// tables of an import are megabytes, and a loop that does nothing else
	// has the processor wait for several of their cache lines at once.
	hs := a.hashes[:0]
	for i := range rs {
		hs = append(hs, a.hash.Of(rs[i].SourceKey))
	}
	a.hashes = hs
	skip := a.skip[:0]
	var keys *keyset.Table
	year := 0
	for i := range rs {
		if keys == nil || rs[i].Year != year {
			var err error
			if keys, err = a.keysOf(rs[i].Year); err != nil {
				return 0, err
			}
			year = rs[i].Year
		}
		var pos int64
		if at != nil {
			pos = at[i]
		}
		first, there := keys.Add(hs[i], int(pos))
		if !there {
			continue
		}
		if first == 0 && pos != 0 {
			// stored before: the first result to come again stands for
			// it to those after it
			keys.Set(hs[i], int(pos))
		}
		skip = append(skip, i)
		if dup != nil {
			dup(i, int64(first))
		}
	}
	a.skip = skip
	added := 0
	var b *blockBuilder // the last result's builder: a file's results are mostly of one track
	for i := range rs {
		if len(skip) > 0 && skip[0] == i {
			skip = skip[1:]
			continue
		}
		r := &rs[i]
		yt := yearTrack{r.Year, r.Track}
		if b == nil || b.year != r.Year || b.track != r.Track {
			b = a.build[yt]
		}
		if b == nil {
			if b = a.spare[yt]; b != nil {
				delete(a.spare, yt)
			} else {
				b = newBlockBuilder(r.Year, r.Track)
			}
			a.build[yt] = b
			a.order = append(a.order, b)
		}
		b.add(r)
		added++
		if b.n == blockRows || b.size >= blockBytes {
			if err := a.write(b); err != nil {
				return 0, err
			}
			// The track's next block is started with the next result of
			// it, by this builder (its room kept).
			delete(a.build, yt)
			a.order = slices.DeleteFunc(a.order, func(o *blockBuilder) bool { return o == b })
			if a.spare == nil {
				a.spare = map[yearTrack]*blockBuilder{}
			}
			a.spare[yt] = b
			b = nil
		}
	}
	return added, nil
}

// expect makes room for n more results in the sets of keys made and to
// be made.
func (a *blockAdder) expect(n int) {
	a.expected += n
	for _, keys := range a.keys {
		keys.Reserve(keys.Len() + n)
	}
}

// keysOf returns the set of keys of a year, loading those recorded the
// first time: PostgreSQL first takes a lock on the year's results to the
// end of the transaction, so that two imports of one year do not both add
// a result (SQLite's transactions take the write lock at their start).
func (a *blockAdder) keysOf(year int) (*keyset.Table, error) {
	if keys, ok := a.keys[year]; ok {
		return keys, nil
	}
	a.lock()
	defer a.unlock()
	if a.s.d.name == "postgres" {
		if _, err := a.tx.ExecContext(a.ctx, `SELECT pg_advisory_xact_lock($1, $2)`, migrationLock, year); err != nil {
			return nil, err
		}
	}
	keys := keyset.New(max(1<<16, a.expected)) // an import of a year adds many
	rows, err := a.tx.QueryContext(a.ctx, `SELECT source_key FROM results WHERE year = $1`, year)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return nil, err
		}
		keys.Add(a.hash.Of(k), 0)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	err = eachBlock(a.ctx, a.tx, a.s.d, ResultFilter{Year: year}, func(r *Result) error {
		keys.Add(a.hash.Of(r.SourceKey), 0)
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.keys[year] = keys
	return keys, nil
}

// write records a block (once: a block full is written at once, and
// emptied).
func (a *blockAdder) write(b *blockBuilder) error {
	if b.n == 0 {
		return nil
	}
	defer b.reset()
	// One buffer for the adder's blocks: the database has copied a block
	// when its INSERT returns, and a fresh one is paid for page by page.
	a.enc = b.encode(a.enc)
	data := a.enc
	a.lock()
	defer a.unlock()
	_, err := a.tx.ExecContext(a.ctx, `INSERT INTO result_blocks (year, track, n_results, data) VALUES ($1, $2, $3, $4)`,
		b.year, b.track, b.n, data)
	return err
}

// flush writes the blocks being built, in the order they were started,
// so that results come back in the order they were added where a file's
// tracks follow one another.
func (a *blockAdder) flush() error {
	for _, b := range a.order {
		if err := a.write(b); err != nil {
			return err
		}
	}
	a.order = a.order[:0]
	clear(a.build)
	return nil
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// blocksWhere is the WHERE clause of the blocks a filter may match.
func blocksWhere(f ResultFilter) (string, []any) {
	return resultsWhere(ResultFilter{Year: f.Year, Track: f.Track})
}

// eachBlock calls fn with the results of the blocks that match a filter,
// block by block (one in memory at a time, no query left open while fn
// runs). SQLite gives each block as text, which the driver copies once (a
// blob is copied twice: by the driver, then by database/sql), and a year's
// blocks are tens of MB.
func eachBlock(ctx context.Context, q querier, db dialect, f ResultFilter, fn func(*Result) error) error {
	where, args := blocksWhere(f)
	rows, err := q.QueryContext(ctx, `SELECT id, year, track FROM result_blocks`+where+` ORDER BY id`, args...)
	if err != nil {
		return err
	}
	type head struct {
		id    int64
		year  int
		track string
	}
	var heads []head
	for rows.Next() {
		var h head
		if err := rows.Scan(&h.id, &h.year, &h.track); err != nil {
			rows.Close()
			return err
		}
		heads = append(heads, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	filter := fn
	if f.Solver != "" || f.BenchmarkPath != "" {
		filter = func(r *Result) error {
			if (f.Solver != "" && r.Solver != f.Solver) || (f.BenchmarkPath != "" && r.BenchmarkPath != f.BenchmarkPath) {
				return nil
			}
			return fn(r)
		}
	}
	for _, h := range heads {
		var data []byte // a copy of its own, for decodeBlock
		if db.name == sqliteDialect.name {
			// The bytes as they are (CAST to TEXT changes none), in a
			// string of their own that nothing changes.
			var s string
			if err := q.QueryRowContext(ctx, `SELECT CAST(data AS TEXT) FROM result_blocks WHERE id = $1`, h.id).Scan(&s); err != nil {
				return err
			}
			data = unsafe.Slice(unsafe.StringData(s), len(s))
		} else if err := q.QueryRowContext(ctx, `SELECT data FROM result_blocks WHERE id = $1`, h.id).Scan(&data); err != nil {
			return err
		}
		d, err := decodeBlock(data)
		if err != nil {
			return fmt.Errorf("block %d (%d, %s): %w", h.id, h.year, h.track, err)
		}
		if err := d.each(h.year, h.track, blockIDBase+h.id<<16, !f.ImportedKeysless, filter); err != nil {
			return err
		}
	}
	return nil
}

// countBlocks counts the results of the blocks that match a filter.
func countBlocks(ctx context.Context, q querier, db dialect, f ResultFilter) (int, error) {
	if f.Solver == "" && f.BenchmarkPath == "" {
		where, args := blocksWhere(f)
		var n int
		err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(n_results), 0) FROM result_blocks`+where, args...).Scan(&n)
		return n, err
	}
	n := 0
	err := eachBlock(ctx, q, db, f, func(*Result) error { n++; return nil })
	return n, err
}

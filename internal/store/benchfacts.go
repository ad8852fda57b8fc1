package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// BenchFact is what scoring reads of an indexed benchmark.
type BenchFact struct {
	// Indexed: the path is in the store; the other fields are zero if not.
	Indexed   bool
	Status    benchmark.Status
	Asserts   int
	CheckSats int
}

// FactStore looks up what scoring needs of many benchmarks at once.
type FactStore interface {
	// BenchFacts returns the facts of the benchmark at each path, in the
	// order of paths (which may repeat). Scoring a year looks up tens of
	// thousands of benchmarks among hundreds of thousands: the paths go
	// to the database as one JSON array, and the facts come back as one.
	BenchFacts(ctx context.Context, paths []string) ([]BenchFact, error)
}

var (
	_ FactStore = (*SQLite)(nil)
	_ FactStore = (*Postgres)(nil)
)

// benchFactsChunk bounds the paths sent in one query (FactsAhead sends
// paths as they come in chunks of this size): the JSON of them is
// copied on its way to the database, and SQLite parses it and builds the
// answer in memory of its own. 4096 paths (some 300 KB) keep that memory
// small enough to be reused from one query to the next: the 66,188 paths
// of the 2024 unsat-core results take 1,900 page faults, against 4,300 in
// chunks of 16,384, for as many lookups a second.
const benchFactsChunk = 4096

func (s *sqlStore) BenchFacts(ctx context.Context, paths []string) ([]BenchFact, error) {
	out := make([]BenchFact, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	// Each found path as [its place in the array, status, asserts,
	// check-sats], all in one JSON array (one row, not one per path).
	q := `SELECT json_group_array(json_array(j.key, b.status, b.asserts, b.check_sats))
		FROM json_each($1) AS j JOIN benchmarks AS b ON b.path = j.value`
	if s.d.name == "postgres" {
		q = `SELECT json_agg(json_build_array(j.i - 1, b.status, b.asserts, b.check_sats))::text
			FROM json_array_elements_text($1::json) WITH ORDINALITY AS j(p, i) JOIN benchmarks AS b ON b.path = j.p`
	}
	// The paths are looked up in the order of the path index (SQLite's:
	// bytewise), each once: the index's and the table's pages are then
	// read one after another. A year's results mostly come sorted by
	// benchmark: then nothing is sorted.
	lookup, order := paths, []int32(nil) // order: the places of lookup[i] in paths are order[first[i]:first[i+1]]
	var first []int32
	if !slices.IsSorted(paths) || hasRepeats(paths) {
		order = make([]int32, len(paths))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			if c := strings.Compare(paths[a], paths[b]); c != 0 {
				return c
			}
			return int(a - b)
		})
		lookup = make([]string, 0, len(paths))
		for i, at := range order {
			if i == 0 || paths[at] != lookup[len(lookup)-1] {
				lookup = append(lookup, paths[at])
				first = append(first, int32(i))
			}
		}
		first = append(first, int32(len(order)))
	}
	// The chunks are looked up at once on as many connections as there
	// are processors (SQLite's store has one connection of its own, for
	// writing: its readers are others), each chunk's facts going to places
	// of their own.
	chunks := (len(lookup) + benchFactsChunk - 1) / benchFactsChunk
	// SQLite's readers also leave the store's connection to what else
	// reads meanwhile (scoring reads a track's results while it looks up
	// their benchmarks).
	pool, err := s.readPool()
	if err != nil {
		return nil, fmt.Errorf("store: benchmark facts: %w", err)
	}
	workers := min(max(chunks, 1), runtime.GOMAXPROCS(0), maxReaders)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var found []BenchFact // a chunk's facts where they are scattered from
			for c := w; c < chunks; c += workers {
				at := c * benchFactsChunk
				chunk := lookup[at:min(at+benchFactsChunk, len(lookup))]
				n := 2
				for _, p := range chunk {
					n += len(p) + 3
				}
				if cap(buf) < n {
					buf = make([]byte, 0, n)
				}
				buf = appendJSONStrings(buf[:0], chunk)
				// The array as a string, not copied (the driver copies
				// it), and not changed while the query runs.
				arg := unsafe.String(unsafe.SliceData(buf), len(buf))
				var facts sql.NullString
				if err := pool.QueryRowContext(ctx, q, arg).Scan(&facts); err != nil {
					errs[w] = err
					return
				}
				dst := out[at : at+len(chunk)]
				if order != nil {
					if found == nil {
						found = make([]BenchFact, min(benchFactsChunk, len(lookup)))
					}
					dst = found[:len(chunk)]
					clear(dst)
				}
				if err := readBenchFacts(facts.String, dst); err != nil {
					errs[w] = err
					return
				}
				if order != nil {
					for k, f := range dst {
						for _, i := range order[first[at+k]:first[at+k+1]] {
							out[i] = f
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("store: benchmark facts: %w", err)
	}
	return out, nil
}

// maxReaders bounds the connections that read at once for one call.
const maxReaders = 4

// readPool returns the connections to read with at once: PostgreSQL's
// pool; for SQLite a pool of query-only connections beside the store's
// own, opened the first time (WAL lets them read while it writes).
func (s *sqlStore) readPool() (*sql.DB, error) {
	if s.readDSN == "" {
		return s.db, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers == nil {
		db, err := sql.Open("sqlite3", s.readDSN)
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(maxReaders)
		db.SetMaxIdleConns(maxReaders)
		s.readers = db
	}
	return s.readers, nil
}

// hasRepeats says whether sorted paths name one twice.
func hasRepeats(sorted []string) bool {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return true
		}
	}
	return false
}

// appendJSONStrings appends a JSON array of strings.
func appendJSONStrings(buf []byte, ss []string) []byte {
	buf = append(buf, '[')
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		plain := true
		for j := 0; j < len(s) && plain; j++ {
			plain = s[j] >= 0x20 && s[j] != '"' && s[j] != '\\'
		}
		if plain {
			buf = append(buf, '"')
			buf = append(buf, s...)
			buf = append(buf, '"')
			continue
		}
		q, _ := json.Marshal(s) // a string always marshals
		buf = append(buf, q...)
	}
	return append(buf, ']')
}

// readBenchFacts reads the facts array of BenchFacts into out, by place:
// [[place, "status", asserts, check-sats], ...], spaces allowed (as
// PostgreSQL writes it); "" (no rows, PostgreSQL's NULL) is none.
func readBenchFacts(s string, out []BenchFact) error {
	if s == "" {
		return nil
	}
	p := factsParser{s: s}
	p.expect('[')
	if p.peek() == ']' {
		p.i++
	} else {
		for p.err == nil {
			p.expect('[')
			at := p.int()
			p.expect(',')
			st := p.str()
			p.expect(',')
			asserts := p.int()
			p.expect(',')
			checks := p.int()
			p.expect(']')
			if p.err != nil {
				break
			}
			if at < 0 || at >= len(out) {
				return fmt.Errorf("place %d of %d paths", at, len(out))
			}
			out[at] = BenchFact{Indexed: true, Status: st, Asserts: asserts, CheckSats: checks}
			if p.peek() == ',' {
				p.i++
				continue
			}
			p.expect(']')
			break
		}
	}
	if p.err == nil && p.peek() != 0 {
		p.fail("trailing text")
	}
	return p.err
}

// factsParser reads the JSON of readBenchFacts.
type factsParser struct {
	s   string
	i   int
	err error
}

func (p *factsParser) fail(what string) {
	if p.err == nil {
		p.err = fmt.Errorf("offset %d: %s", p.i, what)
	}
}

// peek is the next byte that is not a space, 0 at the end.
func (p *factsParser) peek() byte {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

func (p *factsParser) expect(c byte) {
	if p.err != nil {
		return
	}
	if p.peek() != c {
		p.fail("want " + strconv.QuoteRune(rune(c)))
		return
	}
	p.i++
}

func (p *factsParser) int() int {
	if p.err != nil {
		return 0
	}
	p.peek()
	j := p.i
	for j < len(p.s) && (p.s[j] == '-' || ('0' <= p.s[j] && p.s[j] <= '9')) {
		j++
	}
	n, err := strconv.Atoi(p.s[p.i:j])
	if err != nil {
		p.fail("want an integer")
		return 0
	}
	p.i = j
	return n
}

// str reads a status; the usual ones without allocating.
func (p *factsParser) str() benchmark.Status {
	if p.err != nil {
		return ""
	}
	if p.peek() != '"' {
		p.fail("want a string")
		return ""
	}
	j := p.i + 1
	for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' {
		j++
	}
	if j < len(p.s) && p.s[j] == '"' {
		v := p.s[p.i+1 : j]
		p.i = j + 1
		switch st := benchmark.Status(v); st {
		case benchmark.Sat:
			return benchmark.Sat
		case benchmark.Unsat:
			return benchmark.Unsat
		case benchmark.Unknown:
			return benchmark.Unknown
		case "":
			return ""
		}
		return benchmark.Status(strings.Clone(v)) // not a piece of the whole array
	}
	// An escape: let encoding/json read the string.
	dec := json.NewDecoder(strings.NewReader(p.s[p.i:]))
	var v string
	if err := dec.Decode(&v); err != nil {
		p.fail("bad string")
		return ""
	}
	p.i += int(dec.InputOffset())
	return benchmark.Status(v)
}

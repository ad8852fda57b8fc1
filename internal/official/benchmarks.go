package official

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// benchField numbers the fields of the tool's InfoIncremental and
// InfoNonIncremental by their quoted names (-1: another field).
func benchField(quoted string) int {
	switch quoted {
	case `"file"`:
		return 0
	case `"check_sats"`:
		return 1
	case `"asserts"`:
		return 2
	case `"status"`:
		return 3
	}
	return -1
}

// benchmarkEntry makes a benchmark of an entry's fields (file, check_sats,
// asserts, status; nil where missing), or names what is wrong with it.
func benchmarkEntry(vals [4][]byte, track string, paths *pathMaker, bad func(format string, args ...any)) (benchmark.Benchmark, bool) {
	if vals[0] == nil {
		bad("no file")
		return benchmark.Benchmark{}, false
	}
	p, ok := paths.path(vals[0], track)
	if !ok {
		var err error
		if p, err = libraryPath(append(json.RawMessage(nil), vals[0]...), track); err != nil {
			bad("%v", err)
			return benchmark.Benchmark{}, false
		}
	}
	b := benchmark.Benchmark{Path: p, Logic: benchmark.LogicOfPath(p), Incremental: strings.HasPrefix(p, "incremental/"),
		Status: benchmark.Unknown, Difficulty: -1}
	count := func(k string, v []byte) (int, bool) {
		if v == nil {
			return 0, true
		}
		x, err := strconv.Atoi(string(v))
		if err != nil || x < 0 {
			bad("%s %s: not a count", k, v)
			return 0, false
		}
		return x, true
	}
	var ok1, ok2 bool
	b.CheckSats, ok1 = count("check_sats", vals[1])
	b.Asserts, ok2 = count("asserts", vals[2])
	if !ok1 || !ok2 {
		return b, false
	}
	if v := vals[3]; v != nil {
		var s string
		if plain, ok := plainString(v); ok {
			s = string(plain)
		} else if json.Unmarshal(v, &s) != nil {
			bad("status %s: not a string", v)
			return b, false
		}
		switch s {
		case "sat", "unsat", "unknown":
			b.Status = benchmark.Status(s)
		case "incremental":
		default:
			bad("unknown status %q", s)
			return b, false
		}
	}
	return b, true
}

// ImportBenchmarksJSON reads the smtcomp tool's benchmark list
// (data/benchmarks-YEAR.json.gz: {"incremental": [{file, check_sats}],
// "non_incremental": [{file, status, asserts}]}) into the store's
// benchmarks: path, logic, status, number of assertions (what the
// unsat-core track's correct score subtracts the core from) and of
// check-sats (the incremental track's N). A benchmark already in the store
// (indexed from the library, or imported from another year's list) is
// counted as Skipped and left as it is. An entry that cannot be used is
// named with its array and index (Line: the index in its array); fields the
// list may add are named once in a kept Problem (the benchmarks table has
// no place for them).
func ImportBenchmarksJSON(ctx context.Context, st store.Store, path string) (Stats, error) {
	r, closer, err := openJSON(path)
	if err != nil {
		return Stats{}, err
	}
	defer closer()
	var stats Stats
	// One transaction: the list is there, or (a crash, a failing store)
	// not at all.
	bulk, err := st.Bulk(ctx)
	if err != nil {
		return Stats{}, err
	}
	wb := newWriteBehind(bulk.AddBenchmarks)
	buf := make([]store.Indexed, 0, batchSize)
	finished, finishErr := false, error(nil)
	finish := func() error {
		if finished {
			return finishErr
		}
		finished = true
		wb.put(buf)
		added, written, err := wb.wait()
		if err != nil {
			_ = bulk.Rollback()
			finishErr = err
			return err
		}
		if finishErr = bulk.Commit(); finishErr != nil {
			return finishErr
		}
		stats.Added += added
		stats.Skipped += written - added
		return nil
	}
	unknown := map[string]int{}
	// Where each path was first: the entry's index times 4 plus that of its
	// array in arrayNames (small values: the lists are long).
	arrayNames := []string{"", "incremental", "non_incremental"}
	seen := make(map[keyHash]int32, mapHint(path, 256)) // an entry takes some 230 bytes
	hash := newHasher()
	d := newJSONReader(r)
	var paths pathMaker
	var ms []member
	err = d.arrays(map[string]bool{"incremental": true, "non_incremental": true}, func(key string) error {
		track := "single-query"
		if key == "incremental" {
			track = "incremental"
		}
		for n := 1; ; n++ {
			more, err := d.more()
			if err == nil && more {
				ms, err = d.element(ms)
			}
			if err != nil {
				return fmt.Errorf("%s entry %d (byte %d of the JSON): %w", key, n, jsonOffset(d, err), err)
			}
			if !more {
				return nil
			}
			stats.Rows++
			bad := func(format string, args ...any) {
				stats.Problems = append(stats.Problems, Problem{File: path, Line: n, Reason: fmt.Sprintf("%s[%d]: ", key, n) + fmt.Sprintf(format, args...)})
			}
			// The fields, the last of a name given twice (as encoding/json
			// decodes into a map).
			var vals [4][]byte
			for _, m := range ms {
				k := d.bytes(m.key)
				i := benchField(string(k))
				if i < 0 {
					name := unquoteKey(k)
					if i = benchField(strconv.Quote(name)); i < 0 {
						if _, ok := unknown[name]; !ok {
							unknown[name] = n
						}
						continue
					}
				}
				vals[i] = d.bytes(m.val)
			}
			b, ok := benchmarkEntry(vals, track, &paths, bad)
			d.release()
			if !ok {
				continue
			}
			k := hash.of(b.Path)
			if first, dup := seen[k]; dup {
				bad("the same benchmark as %s[%d]", arrayNames[first%4], first/4)
				continue
			}
			seen[k] = int32(n)*4 + int32(slices.Index(arrayNames, key))
			buf = append(buf, store.Indexed{Benchmark: b})
			if len(buf) >= batchSize {
				if wb.failed.Load() {
					return finish()
				}
				buf = wb.put(buf)
			}
		}
	})
	if err == nil {
		err = d.drain()
	}
	if err != nil {
		if ferr := finish(); ferr != nil {
			return stats, fmt.Errorf("%s: %w (and: %v)", path, err, ferr)
		}
		return stats, fmt.Errorf("%s: %w", path, err)
	}
	if err := finish(); err != nil {
		return stats, err
	}
	ks := make([]string, 0, len(unknown))
	for k := range unknown {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		stats.Problems = append(stats.Problems, Problem{File: path, Line: unknown[k], Kept: true,
			Reason: fmt.Sprintf("field %q (first in entry %d) has no place in the benchmarks table: not kept", k, unknown[k])})
	}
	return stats, nil
}

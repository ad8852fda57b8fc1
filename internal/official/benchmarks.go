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
	"github.com/smtarena/smtarena/internal/keyset"
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

// statusWord is string(w), without making a string of a status's word.
func statusWord(w []byte) string {
	for _, s := range [...]string{"sat", "unsat", "unknown", "incremental"} {
		if string(w) == s {
			return s
		}
	}
	return string(w)
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
			s = statusWord(plain)
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
	unknown := map[string]int{}
	// The path of each entry added, in the order of the entries (the store
	// skips a path given twice, and duplicates finds which), and the first
	// half of its hash.
	arrayNames := []string{"", "incremental", "non_incremental"}
	hint := mapHint(path, 230) // an entry takes some 230 bytes
	ats, hs := make([]pathAt, 0, hint), make([]uint64, 0, hint)
	hash := keyset.NewHasher()
	// The entries' problems and where each is among the entries (Rows).
	var probRows []int64
	var key string
	var n int
	bad := func(format string, args ...any) {
		stats.Problems = append(stats.Problems, Problem{File: path, Line: n, Reason: fmt.Sprintf("%s[%d]: ", key, n) + fmt.Sprintf(format, args...)})
		probRows = append(probRows, int64(stats.Rows))
	}
	wb := newRowsBehind(bulk.AddBenchmarks, batchSize)
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
		// The store added the first entry of a path given more than once
		// and skipped the others, which are named here.
		dups := duplicates(ats, hs)
		stats.Added += added
		stats.Skipped += written - added - len(dups)
		named := make([]Problem, len(dups))
		dupAt := make([]int64, len(dups))
		for i, dup := range dups {
			key, first := arrayNames[dup.at%4], ats[dup.first].at
			named[i] = Problem{File: path, Line: int(dup.at / 4),
				Reason: fmt.Sprintf("%s[%d]: the same benchmark as %s[%d]", key, dup.at/4, arrayNames[first%4], first/4)}
			dupAt[i] = int64(dup.row) - 1 // after the problems of the entries before it, before its own
		}
		stats.Problems = mergeProblems(stats.Problems, probRows, named, dupAt)
		return nil
	}
	d := newJSONReader(r)
	var paths pathMaker
	var ms []member
	err = d.arrays(map[string]bool{"incremental": true, "non_incremental": true}, func(k string) error {
		key = k
		array := int32(slices.Index(arrayNames, key))
		track := "single-query"
		if key == "incremental" {
			track = "incremental"
		}
		for n = 1; ; n++ {
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
			h := hash.Of(b.Path)
			ats = append(ats, pathAt{h: h, row: int32(stats.Rows), at: int32(n)*4 + array})
			hs = append(hs, h[0])
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

// pathAt is the path of an entry (its hash) and where the entry is: its
// place among the entries (Stats.Rows), and its index times 4 plus its
// array's in arrayNames.
type pathAt struct {
	h       keyset.Hash
	row, at int32
}

// dupAt is an entry whose path an earlier one has, the first (an index
// in ats).
type dupAt struct {
	pathAt
	first int
}

// duplicates finds the entries of ats (in the order of the entries) whose
// path an earlier one has, in that order; hs holds the first half of each
// hash, and is sorted in place. Sorting those takes a fraction of the time
// a map of half a million paths takes to fill (a cache miss an entry).
func duplicates(ats []pathAt, hs []uint64) []dupAt {
	slices.Sort(hs)
	var twice map[uint64]bool
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			if twice == nil {
				twice = map[uint64]bool{}
			}
			twice[hs[i]] = true
		}
	}
	if twice == nil {
		return nil
	}
	var dups []dupAt
	first := map[keyset.Hash]int{}
	for i, a := range ats {
		if !twice[a.h[0]] {
			continue
		}
		if j, ok := first[a.h]; ok {
			dups = append(dups, dupAt{a, j})
		} else {
			first[a.h] = i
		}
	}
	return dups
}

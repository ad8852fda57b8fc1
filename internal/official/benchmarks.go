package official

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// The fields of the tool's InfoIncremental and InfoNonIncremental.
var benchFields = map[string]bool{"file": true, "check_sats": true, "status": true, "asserts": true}

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
	have, err := st.FileSigs(ctx)
	if err != nil {
		return Stats{}, err
	}
	var stats Stats
	var buf []store.Indexed
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := st.UpsertBenchmarks(ctx, buf); err != nil {
			return err
		}
		stats.Added += len(buf)
		buf = buf[:0]
		return nil
	}
	unknown := map[string]int{}
	seen := map[string]string{}
	dec := json.NewDecoder(r)
	err = jsonArray(dec, map[string]bool{"incremental": true, "non_incremental": true}, func(key string) error {
		for n := 1; dec.More(); n++ {
			var raw map[string]json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return fmt.Errorf("%s entry %d (byte %d of the JSON): %w", key, n, dec.InputOffset(), err)
			}
			stats.Rows++
			at := fmt.Sprintf("%s[%d]", key, n)
			bad := func(format string, args ...any) {
				stats.Problems = append(stats.Problems, Problem{File: path, Line: n, Reason: at + ": " + fmt.Sprintf(format, args...)})
			}
			for k := range raw {
				if !benchFields[k] {
					if _, ok := unknown[k]; !ok {
						unknown[k] = n
					}
				}
			}
			track := "single-query"
			if key == "incremental" {
				track = "incremental"
			}
			f, ok := raw["file"]
			if !ok {
				bad("no file")
				continue
			}
			p, err := libraryPath(f, track)
			if err != nil {
				bad("%v", err)
				continue
			}
			b := benchmark.Benchmark{Path: p, Logic: benchmark.LogicOfPath(p), Incremental: strings.HasPrefix(p, "incremental/"),
				Status: benchmark.Unknown, Difficulty: -1}
			intField := func(k string) (int, bool) {
				v, ok := raw[k]
				if !ok {
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
			b.CheckSats, ok1 = intField("check_sats")
			b.Asserts, ok2 = intField("asserts")
			if !ok1 || !ok2 {
				continue
			}
			if v, ok := raw["status"]; ok {
				var s string
				if json.Unmarshal(v, &s) != nil {
					bad("status %s: not a string", v)
					continue
				}
				switch s {
				case "sat", "unsat", "unknown":
					b.Status = benchmark.Status(s)
				case "incremental":
				default:
					bad("unknown status %q", s)
					continue
				}
			}
			if first, dup := seen[p]; dup {
				bad("the same benchmark as %s", first)
				continue
			}
			seen[p] = at
			if _, ok := have[p]; ok {
				stats.Skipped++
				continue
			}
			buf = append(buf, store.Indexed{Benchmark: b})
			if len(buf) >= 5000 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		if ferr := flush(); ferr != nil {
			return stats, fmt.Errorf("%s: %w (and: %v)", path, err, ferr)
		}
		return stats, fmt.Errorf("%s: %w", path, err)
	}
	if err := flush(); err != nil {
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

package official

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
)

// ImportAWSCSV reads the results of the cloud and parallel tracks run on
// AWS (2022, 2023): the joined table (benchmark, millisecond, result, cpu
// time, wallclock time, solver, solver id, configuration id, expected,
// status), or one solver's raw file without a header (benchmark,
// millisecond, result), whose solver is Options.Solver or the file
// name before "-smt.csv". Benchmarks outside non-incremental/ are put
// there under their logic directory.
func ImportAWSCSV(ctx context.Context, st store.Store, path string, opts Options) (Stats, error) {
	if err := opts.defaults(path, true, true); err != nil {
		return Stats{}, err
	}
	b := &batcher{ctx: ctx, st: st}
	err := EachCSV(path, func(name string, r io.Reader) error {
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		first, err := cr.Read()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		col := map[string]int{}
		header := false
		for i, h := range first {
			col[strings.TrimSpace(h)] = i
			if strings.TrimSpace(h) == "millisecond" {
				header = true
			}
		}
		if !header {
			col = map[string]int{"benchmark": 0, "millisecond": 1, "result": 2}
		}
		solver := opts.Solver
		if solver == "" {
			solver = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(strings.TrimSuffix(name, ".csv")), "-smt"), ".csv")
		}
		get := func(rec []string, c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		line := 1
		rec := first
		if header {
			rec = nil
		}
		for {
			if rec == nil {
				rec, err = cr.Read()
				line++
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return fmt.Errorf("%s:%d: %w", name, line, err)
				}
			}
			ms, err := strconv.ParseFloat(get(rec, "millisecond"), 64)
			if err != nil {
				return fmt.Errorf("%s:%d: millisecond %q: %w", name, line, get(rec, "millisecond"), err)
			}
			sv := solver
			if s := get(rec, "solver"); s != "" {
				sv = s
			}
			status, answer := "complete", get(rec, "result")
			if answer == "timeout" || answer == "memout" {
				status, answer = answer, "unknown"
			}
			if s := get(rec, "status"); s != "" && status == "complete" {
				status = s
			}
			extra := map[string]string{}
			for _, c := range []string{"solver id", "configuration id"} {
				if v := get(rec, c); v != "" {
					extra[c] = v
				}
			}
			ej, _ := json.Marshal(extra)
			bp := awsPath(get(rec, "benchmark"))
			t := ms / 1000
			if err := b.add(name, line, store.Result{Competition: opts.Competition, Year: opts.Year, Track: opts.Track, Solver: sv,
				BenchmarkPath: bp, Status: status, Answer: answer, Expected: get(rec, "expected"), CPU: t, Wall: t,
				Extra: string(ej), SourceKey: Key("aws", opts.Year, opts.Track, sv, "", bp, "")}); err != nil {
				return err
			}
			rec = nil
		}
	})
	if err != nil {
		return b.stats, err
	}
	return b.stats, b.flush()
}

func awsPath(p string) string {
	p = strings.TrimPrefix(p, "./")
	if i := strings.Index(p, "non-incremental/"); i >= 0 {
		return p[i:]
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) >= 2 {
		return "non-incremental/" + strings.Join(parts[len(parts)-2:], "/")
	}
	return "non-incremental/" + p
}

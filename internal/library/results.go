package library

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/ulikunitz/xz"
)

// ImportOptions say what an official result file is about when its name
// does not tell.
type ImportOptions struct {
	Year        int    // default: a 4-digit year in the file's path
	Competition string // default: "SMT-COMP <year>"
	Track       string // default: from the file name (Unsat_Core_Track, ...)
	Solver      string // aws-csv: the solver of a raw file (default: from its name)
}

// ImportStats count an import.
type ImportStats struct {
	Rows, Added, Skipped int
}

// trackOfFile maps the official file names to tracks.
var trackNames = []struct{ key, track string }{
	{"challenge_track_incremental", "challenge-incremental"},
	{"challenge_track_non-incremental", "challenge-non-incremental"},
	{"single_query", "single-query"},
	{"main_track", "single-query"},
	{"incremental", "incremental"},
	{"application", "incremental"},
	{"unsat_core", "unsat-core"},
	{"model_validation", "model-validation"},
	{"proof", "proof"},
	{"parallel", "parallel"},
	{"cloud", "cloud"},
}

var yearRE = regexp.MustCompile(`(?:^|[^0-9])(20[0-9]{2})(?:[^0-9]|$)`)

// ImportStarExec reads an official StarExec job export (CSV, or CSV inside
// a .tar.xz/.tar.gz as the SMT-COMP repositories publish them) into the
// results table. The benchmark column ("Competition - Unsat Core
// Track/AUFNIRA/FFT/x.smt2") becomes a library path; columns beyond the
// common ones are kept as JSON for scoring. Rows already imported (same
// StarExec pair id) are skipped.
func ImportStarExec(ctx context.Context, st store.Store, path string, opts ImportOptions) (ImportStats, error) {
	if opts.Year == 0 {
		if m := yearRE.FindStringSubmatch(path); m != nil {
			opts.Year, _ = strconv.Atoi(m[1])
		} else {
			return ImportStats{}, fmt.Errorf("%s: no year in the path; give one", path)
		}
	}
	if opts.Competition == "" {
		opts.Competition = fmt.Sprintf("SMT-COMP %d", opts.Year)
	}
	if opts.Track == "" {
		base := strings.ToLower(filepath.Base(path))
		for _, t := range trackNames {
			if strings.Contains(base, t.key) {
				opts.Track = t.track
				break
			}
		}
		if opts.Track == "" {
			return ImportStats{}, fmt.Errorf("%s: cannot tell the track from the file name; give one", path)
		}
	}
	var stats ImportStats
	err := EachCSV(path, func(name string, r io.Reader) error {
		s, err := importCSV(ctx, st, name, r, opts)
		stats.Rows += s.Rows
		stats.Added += s.Added
		stats.Skipped += s.Skipped
		return err
	})
	return stats, err
}

// EachCSV calls fn with every CSV file that path is: a .csv file, or the
// .csv members of a .tar.xz or .tar.gz archive, as SMT-COMP publishes
// them.
func EachCSV(path string, fn func(name string, r io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	switch {
	case strings.HasSuffix(path, ".csv"):
		return fn(path, f)
	case strings.HasSuffix(path, ".tar.xz"), strings.HasSuffix(path, ".tar.gz"):
		var r io.Reader
		if strings.HasSuffix(path, ".xz") {
			if r, err = xz.NewReader(f); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		} else {
			gr, err := gzip.NewReader(f)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			defer gr.Close()
			r = gr
		}
		tr := tar.NewReader(r)
		found := false
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if h.Typeflag == tar.TypeReg && strings.HasSuffix(h.Name, ".csv") {
				found = true
				if err := fn(path+":"+h.Name, tr); err != nil {
					return err
				}
			}
		}
		if !found {
			return fmt.Errorf("%s: no .csv inside", path)
		}
		return nil
	}
	return fmt.Errorf("%s: want a .csv, .csv.tar.xz or .csv.tar.gz file", path)
}

// ReadCheckSats reads the number of check-sat commands of incremental
// benchmarks from SMT-COMP's table (prep/incremental_num_check_sat.csv:
// benchmark,num_check_sat with paths below incremental/), keyed by library
// path.
func ReadCheckSats(path string) (map[string]int, error) {
	out := map[string]int{}
	err := EachCSV(path, func(name string, r io.Reader) error {
		cr := csv.NewReader(r)
		head, err := cr.Read()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		bi, ni := -1, -1
		for i, h := range head {
			switch strings.TrimSpace(h) {
			case "benchmark":
				bi = i
			case "num_check_sat":
				ni = i
			}
		}
		if bi < 0 || ni < 0 {
			return fmt.Errorf("%s: want columns benchmark and num_check_sat", name)
		}
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			n, err := strconv.Atoi(strings.TrimSpace(rec[ni]))
			if err != nil {
				return fmt.Errorf("%s: %q: %w", name, rec[ni], err)
			}
			p := strings.TrimPrefix(rec[bi], "./")
			if !strings.HasPrefix(p, "incremental/") {
				p = "incremental/" + p
			}
			out[p] = n
		}
	})
	return out, err
}

// The columns every StarExec export has and that have a field of their own;
// the others go into Extra, including the solver and configuration ids,
// which scoring needs to name solvers as the registration does.
var commonColumns = map[string]bool{"pair id": true, "benchmark": true, "benchmark id": true, "solver": true,
	"configuration": true, "status": true, "cpu time": true,
	"wallclock time": true, "memory usage": true, "result": true, "expected": true}

// StarExecPath maps a StarExec benchmark column to a library path: the
// first component is the space ("Competition - Incremental Track").
func StarExecPath(bench, track string) string {
	rest := bench
	if i := strings.IndexByte(bench, '/'); i >= 0 {
		rest = bench[i+1:]
	}
	if strings.Contains(track, "incremental") && !strings.Contains(track, "non-incremental") {
		return "incremental/" + rest
	}
	return "non-incremental/" + rest
}

func importCSV(ctx context.Context, st store.Store, name string, r io.Reader, opts ImportOptions) (ImportStats, error) {
	var stats ImportStats
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return stats, fmt.Errorf("%s: header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"pair id", "benchmark", "solver", "status", "cpu time", "wallclock time", "result"} {
		if _, ok := col[need]; !ok {
			return stats, fmt.Errorf("%s: no %q column: not a StarExec job export", name, need)
		}
	}
	get := func(rec []string, c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	const batch = 5000
	var buf []store.Result
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		n, err := st.AddResults(ctx, buf)
		if err != nil {
			return err
		}
		stats.Added += n
		stats.Skipped += len(buf) - n
		buf = buf[:0]
		return nil
	}
	line := 1
	for {
		rec, err := cr.Read()
		line++
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return stats, fmt.Errorf("%s:%d: %w", name, pe.Line, err)
			}
			return stats, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		stats.Rows++
		extra := map[string]string{}
		for h, i := range col {
			if !commonColumns[h] && i < len(rec) {
				extra[h] = rec[i]
			}
		}
		ej, _ := json.Marshal(extra)
		buf = append(buf, store.Result{
			Competition: opts.Competition, Year: opts.Year, Track: opts.Track,
			Solver: get(rec, "solver"), Configuration: get(rec, "configuration"),
			BenchmarkPath: StarExecPath(get(rec, "benchmark"), opts.Track),
			Status:        get(rec, "status"), Answer: get(rec, "result"), Expected: get(rec, "expected"),
			CPU: num(get(rec, "cpu time")), Wall: num(get(rec, "wallclock time")),
			MemoryMB: num(get(rec, "memory usage")) / 1024, // StarExec reports KB
			Extra:    string(ej), SourceKey: "starexec:" + get(rec, "pair id"),
		})
		if len(buf) >= batch {
			if err := flush(); err != nil {
				return stats, err
			}
		}
	}
	return stats, flush()
}

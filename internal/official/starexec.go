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

// ImportStarExec reads an official StarExec job export (CSV, compressed or
// in a tar or zip archive, as the SMT-COMP repositories publish them) into
// the results table. The benchmark column ("Competition - Unsat Core
// Track/AUFNIRA/FFT/x.smt2") becomes a library path; every other column is
// kept in Extra (JSON) for scoring, with the archive member the row came
// from as "job file" (2020's archives hold three job exports, which the
// official scoring combines by file: internal/score/official2020.go). A result is keyed by
// year, track, solver, configuration, benchmark and pair id.
func ImportStarExec(ctx context.Context, st store.Store, path string, opts Options) (Stats, error) {
	if err := opts.defaults(path, true, true); err != nil {
		return Stats{}, err
	}
	b := &batcher{ctx: ctx, st: st}
	if err := b.start(); err != nil {
		return Stats{}, err
	}
	err := EachCSV(path, func(name string, r io.Reader) error {
		member := ""
		if name != path {
			member = name[len(path)+1:]
		}
		return importCSV(b, name, member, r, opts)
	})
	if err != nil {
		// The rows read before the damage are whole: store them, so that
		// the counts say what the store holds, and a later import of the
		// intact file adds only the rest.
		if ferr := b.finish(); ferr != nil {
			return b.stats, errors.Join(err, ferr)
		}
		return b.stats, err
	}
	return b.stats, b.finish()
}

// The columns every StarExec export has and that have a field of their own;
// the others go into Extra, including the solver and configuration ids,
// which scoring needs to name solvers as the registration does.
var commonColumns = map[string]bool{"benchmark": true, "solver": true,
	"configuration": true, "status": true, "cpu time": true,
	"wallclock time": true, "memory usage": true, "result": true, "expected": true}

// StarExecPath maps a StarExec benchmark column to a library path: the
// first component is the space ("Competition - Incremental Track").
func StarExecPath(bench, track string) string {
	rest := strings.TrimPrefix(bench, "./")
	// The first component is StarExec's space ("Competition - Unsat Core
	// Track"), unless the export was processed and starts at the logic
	// (score.py tells them apart the same way: a logic is upper case).
	if i := strings.IndexByte(rest, '/'); i >= 0 && !isLogic(rest[:i]) {
		rest = rest[i+1:]
	}
	if strings.Contains(track, "incremental") && !strings.Contains(track, "non-incremental") {
		return "incremental/" + rest
	}
	return "non-incremental/" + rest
}

// isLogic says whether a path component is an SMT-LIB logic name.
func isLogic(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// sameHeader says whether a record repeats the header line.
func sameHeader(rec, header []string) bool {
	if len(rec) != len(header) {
		return false
	}
	for i := range rec {
		if columnName(rec[i]) != columnName(header[i]) {
			return false
		}
	}
	return true
}

// columnName is the name a StarExec header column is known by: trimmed,
// lower case, underscores as spaces (score.py's own files write
// cpu_time, pair_id), without a byte-order mark.
func columnName(h string) string {
	h = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
	return strings.ReplaceAll(strings.ToLower(h), "_", " ")
}

// The columns an export must have. "pair id" and "status" are not among
// them: some exports and the organisers' joined files lack them (a row is
// then keyed without a pair id; no status is a complete run); "expected"
// is missing from every incremental export.
var requiredColumns = []string{"benchmark", "solver", "cpu time", "wallclock time", "result"}

// awsHint is what a file that is not a StarExec export may be instead.
const awsHint = "the cloud and parallel tracks' AWS results are read as aws-csv: smtarena import aws-csv FILE"

func importCSV(b *batcher, name, member string, r io.Reader, opts Options) error {
	er := &endReader{r: r}
	cr := csv.NewReader(er)
	cr.FieldsPerRecord = -1
	// A quote inside an unquoted field (a validator's message quoting the
	// solver's output) is kept, as Python's csv and pandas, which the
	// organisers read these files with, keep it.
	cr.LazyQuotes = true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s:1: header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		c := columnName(h)
		if _, dup := col[c]; !dup {
			col[c] = i
		}
	}
	// 2023's exports split a custom column "key=a=b" into a column "key=a"
	// holding "b" (StarExec cut at the last "="); the organisers'
	// fix_starexec_custom_column.py merged the "key=..." columns into
	// "key", the last of them (in header order) giving the value. The
	// split columns are kept as they are too.
	custom := map[string][]int{}
	var customOrder []string
	for i, h := range header {
		if base, _, ok := strings.Cut(strings.TrimSpace(h), "="); ok {
			if _, plain := col[columnName(base)]; plain {
				continue
			}
			if custom[base] == nil {
				customOrder = append(customOrder, base)
			}
			custom[base] = append(custom[base], i)
		}
	}
	// The cloud and parallel tracks' AWS tables of 2022 have the columns
	// of an export, but also a millisecond column, which no export has,
	// and no pair ids: read as an export, a solver's second row of a
	// benchmark (departure 17 of docs/scoring.md) would be taken for the
	// first and dropped.
	if _, ok := col["millisecond"]; ok {
		return fmt.Errorf("%s:1: a millisecond column: not a StarExec job export (%s)", name, awsHint)
	}
	for _, need := range requiredColumns {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("%s:1: no %q column: not a StarExec job export (%s)", name, need, awsHint)
		}
	}
	get := func(rec []string, c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	// 2017's reruns of the main track's timeouts
	// (2017/csv/Main_Track_Rerun_Timeouts.tar.xz) replace the original
	// runs that timed out: the official computation needs to know which
	// rows they are (internal/score/official2015.go).
	rerun := ""
	if strings.Contains(strings.ToLower(name), "rerun") {
		rerun = filepath.Base(strings.ReplaceAll(name, ":", "/"))
	}
	line := 1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return b.truncatedLastRow(name, line, er)
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s:%d: %w (a truncated or corrupted file?)", name, pe.StartLine, pe.Err)
			}
			// The file itself broke off (a truncated archive): name the
			// line after the last whole row.
			return fmt.Errorf("%s:%d: %w (a truncated or corrupted file?)", name, line+1, err)
		}
		line, _ = cr.FieldPos(0)
		if sameHeader(rec, header) {
			// 2021/results/join.sh appended each job's export with
			// `tail -n +1`, header line and all, so the joined
			// TRACK_Track.csv repeats the header once per job after the
			// first (SMT-COMP repository, 2021/results/join.sh, commit
			// 180b2e226af12eec13b491ce0f4b30b286b3eb62).
			b.remark(name, line, "the header line again (a joined export): not a result, passed over")
			continue
		}
		if len(rec) > len(header) && strings.TrimSpace(header[len(header)-1]) == "model_validator_exception" {
			// 2020's model-validation export leaves the validator's
			// exception text unquoted, commas and all ("Line 1, Col 0: sat
			// expected"); the organisers' clean_and_join_csvs.sh
			// (fixModelValCsv) quoted everything from that column on, and
			// so the surplus fields are that column's text.
			last := len(header) - 1
			rec = append(rec[:last:last], strings.Join(rec[last:], ","))
			b.note(name, line, "%s unquoted: its commas taken as part of it, as the organisers' fixModelValCsv did", header[last])
		}
		if len(rec) != len(header) {
			b.unusable(name, line, "%d fields, the header has %d", len(rec), len(header))
			continue
		}
		var bad []string
		num := func(c string) float64 {
			s := strings.TrimSpace(get(rec, c))
			if s == "" || s == "-" || s == "--" {
				return 0
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s %q", c, s))
			}
			return v
		}
		cpu, wall, mem := num("cpu time"), num("wallclock time"), num("memory usage")
		pair, bench, solver := strings.TrimSpace(get(rec, "pair id")), get(rec, "benchmark"), get(rec, "solver")
		_, hasPair := col["pair id"]
		if (hasPair && pair == "") || bench == "" || solver == "" {
			bad = append(bad, "an empty pair id, benchmark or solver")
		}
		if len(bad) > 0 {
			b.unusable(name, line, "%s", strings.Join(bad, ", "))
			continue
		}
		extra := map[string]string{}
		for i, h := range header {
			if c := columnName(h); !commonColumns[c] && i < len(rec) {
				extra[strings.TrimSpace(h)] = rec[i]
			}
		}
		for _, base := range customOrder {
			is := custom[base]
			if last := is[len(is)-1]; last < len(rec) {
				extra[base] = rec[last]
			}
		}
		if member != "" {
			extra["job file"] = member
		}
		if rerun != "" {
			extra["rerun file"] = rerun
		}
		ej, _ := json.Marshal(extra)
		bp := StarExecPath(bench, opts.Track)
		conf := get(rec, "configuration")
		if err := b.add(name, line, store.Result{
			Competition: opts.Competition, Year: opts.Year, Track: opts.Track,
			Solver: solver, Configuration: conf, BenchmarkPath: bp,
			Status: get(rec, "status"), Answer: get(rec, "result"), Expected: get(rec, "expected"),
			CPU: cpu, Wall: wall, MemoryMB: mem / 1024, // StarExec reports KB
			Extra: string(ej), SourceKey: Key("starexec", opts.Year, opts.Track, solver, conf, bp, pair),
		}); err != nil {
			return err
		}
	}
}

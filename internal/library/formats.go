package library

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
)

// Formats are the result formats `smtarena import` reads.
var Formats = []string{"starexec-csv", "smtcomp-json", "aws-csv"}

// Import reads an official result file of a format (see Formats) into the
// results table.
func Import(ctx context.Context, st store.Store, format, path string, opts ImportOptions) (ImportStats, error) {
	switch format {
	case "", "starexec-csv":
		return ImportStarExec(ctx, st, path, opts)
	case "smtcomp-json":
		return ImportSMTCOMPJSON(ctx, st, path, opts)
	case "aws-csv":
		return ImportAWSCSV(ctx, st, path, opts)
	}
	return ImportStats{}, fmt.Errorf("unknown result format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// defaults fills the year, competition and track of an import from the
// file's path where they were not given.
func (opts *ImportOptions) defaults(path string, needTrack, needYear bool) error {
	if opts.Year == 0 {
		if m := yearRE.FindStringSubmatch(path); m != nil {
			opts.Year, _ = strconv.Atoi(m[1])
		} else if needYear {
			return fmt.Errorf("%s: no year in the path; give one", path)
		}
	}
	if opts.Competition == "" && opts.Year != 0 {
		opts.Competition = fmt.Sprintf("SMT-COMP %d", opts.Year)
	}
	if opts.Track == "" && needTrack {
		base := strings.ToLower(filepath.Base(path))
		for _, t := range trackNames {
			if strings.Contains(base, t.key) {
				opts.Track = t.track
				break
			}
		}
		if opts.Track == "" {
			return fmt.Errorf("%s: cannot tell the track from the file name; give one", path)
		}
	}
	return nil
}

// batcher adds results to the store in batches.
type batcher struct {
	ctx   context.Context
	st    store.Store
	buf   []store.Result
	stats ImportStats
}

func (b *batcher) add(r store.Result) error {
	b.stats.Rows++
	b.buf = append(b.buf, r)
	if len(b.buf) >= 5000 {
		return b.flush()
	}
	return nil
}

func (b *batcher) flush() error {
	if len(b.buf) == 0 {
		return nil
	}
	n, err := b.st.AddResults(b.ctx, b.buf)
	if err != nil {
		return err
	}
	b.stats.Added += n
	b.stats.Skipped += len(b.buf) - n
	b.buf = b.buf[:0]
	return nil
}

// The track names of the smtcomp tool (2024 on) and of smtarena.
var jsonTracks = map[string]string{
	"singlequery": "single-query", "single-query": "single-query", "sq": "single-query",
	"incremental": "incremental", "inc": "incremental",
	"unsatcore": "unsat-core", "unsat-core": "unsat-core", "uc": "unsat-core",
	"modelvalidation": "model-validation", "model-validation": "model-validation", "mv": "model-validation",
	"proofexhibition": "proof", "proof": "proof",
	"cloud": "cloud", "parallel": "parallel",
}

// jsonResult is one result of the smtcomp tool's JSON (2024 on).
type jsonResult struct {
	Track         string          `json:"track"`
	Solver        string          `json:"solver"`
	File          json.RawMessage `json:"file"`
	Result        string          `json:"result"`
	CPUTime       float64         `json:"cpu_time"`
	WallclockTime float64         `json:"wallclock_time"`
	MemoryUsage   float64         `json:"memory_usage"`
	NbAnswers     *int            `json:"nb_answers"`
	Year          int             `json:"year"`
}

// jsonFile is the file field as an object.
type jsonFile struct {
	Incremental bool            `json:"incremental"`
	Logic       string          `json:"logic"`
	Family      json.RawMessage `json:"family"`
	Name        string          `json:"name"`
}

// libraryPath makes a library path of the file field: a path string, or
// an object {incremental, logic, family (a list of directories or one),
// name}.
func libraryPath(raw json.RawMessage, track string) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		s = strings.TrimPrefix(s, "./")
		if strings.HasPrefix(s, "incremental/") || strings.HasPrefix(s, "non-incremental/") {
			return s, nil
		}
		return StarExecPath("x/"+s, track), nil
	}
	var f jsonFile
	if err := json.Unmarshal(raw, &f); err != nil || f.Logic == "" || f.Name == "" {
		return "", fmt.Errorf("file %s: want a path or {logic, family, name}", raw)
	}
	var fam []string
	if err := json.Unmarshal(f.Family, &fam); err != nil {
		var one string
		if json.Unmarshal(f.Family, &one) == nil && one != "" {
			fam = strings.Split(one, "/")
		}
	}
	top := "non-incremental"
	if f.Incremental || track == "incremental" {
		top = "incremental"
	}
	return strings.Join(append(append([]string{top, f.Logic}, fam...), f.Name), "/"), nil
}

// ImportSMTCOMPJSON reads the results the smtcomp tool publishes from 2024
// on: a JSON array of results, or an object with a "results" array (.json
// or .json.gz), each with track, solver, file, result, cpu_time,
// wallclock_time, memory_usage (bytes) and nb_answers. The result's word
// becomes status and answer (timeout and memout are statuses); nb_answers
// is the correct answers of an incremental run and the core size of an
// unsat-core one; a model-validation sat is a validated model.
func ImportSMTCOMPJSON(ctx context.Context, st store.Store, path string, opts ImportOptions) (ImportStats, error) {
	if err := opts.defaults(path, false, false); err != nil {
		return ImportStats{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportStats{}, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(path, ".gz") {
		gr, err := gzip.NewReader(r)
		if err != nil {
			return ImportStats{}, fmt.Errorf("%s: %w", path, err)
		}
		defer gr.Close()
		r = gr
	}
	dec := json.NewDecoder(r)
	// Find the array: the top level, or the value of "results".
	tok, err := dec.Token()
	if err != nil {
		return ImportStats{}, fmt.Errorf("%s: %w", path, err)
	}
	if tok == json.Delim('{') {
		for {
			k, err := dec.Token()
			if err != nil {
				return ImportStats{}, fmt.Errorf("%s: %w", path, err)
			}
			if k == "results" {
				if tok, err = dec.Token(); err != nil {
					return ImportStats{}, fmt.Errorf("%s: %w", path, err)
				}
				break
			}
			if k == json.Delim('}') {
				return ImportStats{}, fmt.Errorf("%s: no results array", path)
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return ImportStats{}, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	if tok != json.Delim('[') {
		return ImportStats{}, fmt.Errorf("%s: want an array of results", path)
	}
	b := &batcher{ctx: ctx, st: st}
	for i := 0; dec.More(); i++ {
		var jr jsonResult
		if err := dec.Decode(&jr); err != nil {
			return b.stats, fmt.Errorf("%s: result %d: %w", path, i+1, err)
		}
		track := opts.Track
		if track == "" {
			track = jsonTracks[strings.ToLower(jr.Track)]
		}
		if track == "" {
			return b.stats, fmt.Errorf("%s: result %d: unknown track %q", path, i+1, jr.Track)
		}
		bp, err := libraryPath(jr.File, track)
		if err != nil {
			return b.stats, fmt.Errorf("%s: result %d: %w", path, i+1, err)
		}
		year, comp := opts.Year, opts.Competition
		if year == 0 {
			year = jr.Year
		}
		if year == 0 {
			return b.stats, fmt.Errorf("%s: result %d: no year (give one)", path, i+1)
		}
		if comp == "" {
			comp = fmt.Sprintf("SMT-COMP %d", year)
		}
		status, answer, extra := "complete", "unknown", map[string]string{}
		switch word := strings.ToLower(strings.ReplaceAll(jr.Result, "_", "")); {
		case word == "sat", word == "unsat", word == "unknown":
			answer = word
		case strings.HasPrefix(word, "timeout"):
			status = "timeout"
		case word == "oom", word == "memout", strings.HasPrefix(word, "outofmemory"):
			status = "memout"
		case word == "incremental":
		case word == "incrementalerror":
			extra["wrong-answers"] = "1"
		case word == "unsatcoreinvalidated":
			answer, extra["result-is-erroneous"] = "unsat", "1"
		case strings.HasPrefix(word, "model"):
			answer = "sat" // validation failed: ModelNotValidated is UNKNOWN, the others INVALID
			extra["model_validator_status"] = "INVALID"
			if word == "modelnotvalidated" {
				extra["model_validator_status"] = "UNKNOWN"
			}
		default:
			status = word
		}
		if jr.NbAnswers != nil && *jr.NbAnswers >= 0 {
			switch track {
			case "incremental":
				extra["correct-answers"] = strconv.Itoa(*jr.NbAnswers)
			case "unsat-core":
				extra["core-size"] = strconv.Itoa(*jr.NbAnswers)
			}
		}
		if track == "model-validation" && answer == "sat" && extra["model_validator_status"] == "" {
			extra["model_validator_status"] = "VALID"
		}
		ej, _ := json.Marshal(extra)
		err = b.add(store.Result{Competition: comp, Year: year, Track: track, Solver: jr.Solver,
			BenchmarkPath: bp, Status: status, Answer: answer, CPU: jr.CPUTime, Wall: jr.WallclockTime,
			MemoryMB: jr.MemoryUsage / (1 << 20), Extra: string(ej),
			SourceKey: "smtcomp:" + track + ":" + jr.Solver + ":" + bp})
		if err != nil {
			return b.stats, err
		}
	}
	return b.stats, b.flush()
}

// ImportAWSCSV reads the results of the cloud and parallel tracks run on
// AWS (2022, 2023): the joined table (benchmark, millisecond, result, cpu
// time, wallclock time, solver, solver id, configuration id, expected,
// status), or one solver's raw file without a header (benchmark,
// millisecond, result), whose solver is ImportOptions.Solver or the file
// name before "-smt.csv". Benchmarks outside non-incremental/ are put
// there under their logic directory.
func ImportAWSCSV(ctx context.Context, st store.Store, path string, opts ImportOptions) (ImportStats, error) {
	if err := opts.defaults(path, true, true); err != nil {
		return ImportStats{}, err
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
			if err := b.add(store.Result{Competition: opts.Competition, Year: opts.Year, Track: opts.Track, Solver: sv,
				BenchmarkPath: bp, Status: status, Answer: answer, Expected: get(rec, "expected"), CPU: t, Wall: t,
				Extra: string(ej), SourceKey: "aws:" + opts.Track + ":" + sv + ":" + bp}); err != nil {
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

package official

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
)

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
func ImportSMTCOMPJSON(ctx context.Context, st store.Store, path string, opts Options) (Stats, error) {
	if err := opts.defaults(path, false, false); err != nil {
		return Stats{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return Stats{}, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(path, ".gz") {
		gr, err := gzip.NewReader(r)
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", path, err)
		}
		defer gr.Close()
		r = gr
	}
	dec := json.NewDecoder(r)
	// Find the array: the top level, or the value of "results".
	tok, err := dec.Token()
	if err != nil {
		return Stats{}, fmt.Errorf("%s: %w", path, err)
	}
	if tok == json.Delim('{') {
		for {
			k, err := dec.Token()
			if err != nil {
				return Stats{}, fmt.Errorf("%s: %w", path, err)
			}
			if k == "results" {
				if tok, err = dec.Token(); err != nil {
					return Stats{}, fmt.Errorf("%s: %w", path, err)
				}
				break
			}
			if k == json.Delim('}') {
				return Stats{}, fmt.Errorf("%s: no results array", path)
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return Stats{}, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	if tok != json.Delim('[') {
		return Stats{}, fmt.Errorf("%s: want an array of results", path)
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
		err = b.add(path, i+1, store.Result{Competition: comp, Year: year, Track: track, Solver: jr.Solver,
			BenchmarkPath: bp, Status: status, Answer: answer, CPU: jr.CPUTime, Wall: jr.WallclockTime,
			MemoryMB: jr.MemoryUsage / (1 << 20), Extra: string(ej),
			SourceKey: Key("smtcomp", year, track, jr.Solver, "", bp, "")})
		if err != nil {
			return b.stats, err
		}
	}
	return b.stats, b.flush()
}

package official

import (
	"bufio"
	"context"
	"encoding/binary"
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
	"proofexhibition": "proof", "proof": "proof", "pe": "proof",
	"cloud": "cloud", "parallel": "parallel",
}

// jsonFile is the file field as an object (the tool's Smt2File).
type jsonFile struct {
	Incremental *bool   `json:"incremental"`
	Logic       string  `json:"logic"`
	Family      famList `json:"family"`
	Name        string  `json:"name"`
}

// famList is a family: a list of directories (the tool's), or one path.
type famList []string

func (f *famList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*f = nil
		if one != "" {
			*f = strings.Split(one, "/")
		}
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return fmt.Errorf("family %.200s: want a list of directories or a path", b)
	}
	*f = l
	return nil
}

// libraryPath makes a library path of the file field: a path string, or
// an object {incremental, logic, family (a list of directories or one),
// name} (Smt2File.path() of the smtcomp tool).
func libraryPath(raw json.RawMessage, track string) (string, error) {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		s = strings.TrimPrefix(s, "./")
		if strings.HasPrefix(s, "incremental/") || strings.HasPrefix(s, "non-incremental/") {
			return s, nil
		}
		if s == "" {
			return "", fmt.Errorf("file: an empty path")
		}
		return StarExecPath("x/"+s, track), nil
	}
	var f jsonFile
	if err := json.Unmarshal(raw, &f); err != nil || f.Logic == "" || f.Name == "" {
		if err != nil && strings.Contains(err.Error(), "family") {
			return "", err
		}
		return "", fmt.Errorf("file %.200s: want a path or {logic, family, name}", raw)
	}
	fam := []string(f.Family)
	top := "non-incremental"
	if (f.Incremental != nil && *f.Incremental) || (f.Incremental == nil && track == "incremental") {
		top = "incremental"
	}
	return strings.Join(append(append([]string{top, f.Logic}, fam...), f.Name), "/"), nil
}

// openJSON opens a .json or .json.gz (.xz, .bz2) file, decompressed a
// few buffers ahead in a goroutine of its own.
func openJSON(path string) (io.Reader, func() error, error) {
	r, compressed, closeFile, err := openDecompressed(path)
	if err != nil || !compressed {
		return r, closeFile, err
	}
	ahead := newReadAhead(r, 1<<18, 4)
	return ahead, func() error {
		ahead.Close()
		return closeFile()
	}, nil
}

// openDecompressed opens a file and decompresses it as it is read, in the
// reader's goroutine.
func openDecompressed(path string) (r io.Reader, compressed bool, closeFile func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	if r, _, err = decompress(path, br); err != nil {
		f.Close()
		return nil, false, nil, err
	}
	return r, r != io.Reader(br), f.Close, nil
}

// jsonSize guesses the size of a JSON file decompressed: a .gz file's
// trailer has it (modulo 4 GB), a plain file is its size; 0 if unknown.
// The importers size their maps by it.
func jsonSize(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	if strings.HasSuffix(path, ".json") {
		return fi.Size()
	}
	if !strings.HasSuffix(path, ".gz") || fi.Size() < 4 {
		return 0
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:], fi.Size()-4); err != nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint32(b[:]))
}

// mapHint is how many entries of perEntry bytes a JSON file of jsonSize
// may hold, within reason.
func mapHint(path string, perEntry int64) int {
	return int(min(jsonSize(path)/perEntry, 1<<22))
}

// resultsHint is how many results a file of the smtcomp tool may hold: a
// result takes some 380 bytes of its JSON.
func resultsHint(path string) int { return mapHint(path, 380) }

// The fields of a result of the smtcomp tool (defs.Result); any other is
// kept in the result's Extra under its own name.
var resultFields = map[string]bool{"track": true, "solver": true, "file": true, "result": true, "cpu_time": true,
	"wallclock_time": true, "memory_usage": true, "nb_answers": true, "year": true}

// ImportSMTCOMPJSON reads the results the smtcomp tool publishes from 2024
// on (data/results-TRACK-YEAR.json.gz): an object with a "results" array,
// or an array, each result with track, solver, file, result, cpu_time,
// wallclock_time, memory_usage (bytes) and nb_answers (the incremental
// track's answered check-sats, the unsat-core track's core size), and in
// later files a year. The year of a result is --year if given, else its
// own year field, else the one in the file's path; it is part of the
// result's identity, so two years' files fill one store side by side.
//
// The result word (defs.Answer) becomes status and answer: Timeout and
// OutOfMemory are statuses; sat, unsat and unknown answers; incremental
// is a run that answered nb_answers check-sats, IncrementalError one with
// a wrong answer; UnsatCoreNotValidated an unsat whose core the validating
// solvers refuted; the Model* words a sat whose model was not validated.
// The word itself is kept in Extra ("result"), and so is every field the
// tool may add. A result that cannot be used (unknown track or word, no
// file, no year) is counted and named with its index in the array (Line);
// a file cut short is an error naming the file and the result it stopped
// in.
func ImportSMTCOMPJSON(ctx context.Context, st store.Store, path string, opts Options) (Stats, error) {
	given, givenComp := opts.Year, opts.Competition
	if err := opts.defaults(path, false, false); err != nil {
		return Stats{}, err
	}
	r, closer, err := openJSON(path)
	if err != nil {
		return Stats{}, err
	}
	defer closer()
	d := newJSONReader(r)
	b := &batcher{ctx: ctx, st: st, expect: resultsHint(path)}
	if err := b.start(); err != nil {
		return Stats{}, err
	}
	fast := smtcompFast{opts: opts, given: given, givenComp: givenComp}
	n := 0
	var ms []member
	err = d.arrays(map[string]bool{"results": true}, func(string) error {
		for {
			more, err := d.more()
			if err == nil && more {
				n++
				ms, err = d.element(ms)
			}
			if err != nil {
				return fmt.Errorf("result %d (byte %d of the JSON): %w", n+1, jsonOffset(d, err), err)
			}
			if !more {
				return nil
			}
			res, why, ok := fast.result(d, ms)
			if !ok {
				res, why = smtcompResult(d.rawMap(ms), opts, given, givenComp)
			}
			d.release()
			if why != "" {
				b.unusable(path, n, "result %d: %s", n, why)
				continue
			}
			if err := b.add(path, n, res); err != nil {
				return err
			}
			if res.Status != "complete" && res.Status != "timeout" && res.Status != "memout" {
				b.note(path, n, "result %d: unknown result word %q, imported as an abnormal end without answer", n, res.Status)
			}
		}
	})
	if err == nil {
		err = d.drain()
	}
	if err != nil {
		// The results read before the file went wrong are imported, so
		// that the counts add up (Rows = Added + Skipped + unusable).
		if ferr := b.finish(); ferr != nil {
			return b.stats, fmt.Errorf("%s: %w (and: %v)", path, err, ferr)
		}
		return b.stats, fmt.Errorf("%s: %w", path, err)
	}
	return b.stats, b.finish()
}

// smtcompResult makes a stored result of one result of the tool's JSON, or
// says why it cannot.
func smtcompResult(raw map[string]json.RawMessage, opts Options, given int, givenComp string) (store.Result, string) {
	str := func(k string) string {
		var s string
		if v, ok := raw[k]; ok {
			if json.Unmarshal(v, &s) != nil {
				s = strings.Trim(string(v), `"`)
			}
		}
		return s
	}
	num := func(k string) (float64, bool, string) {
		v, ok := raw[k]
		if !ok || string(v) == "null" {
			return 0, false, ""
		}
		f, err := strconv.ParseFloat(strings.Trim(string(v), `"`), 64)
		if err != nil {
			return 0, false, fmt.Sprintf("%s %s: not a number", k, v)
		}
		return f, true, ""
	}
	track := opts.Track
	if track == "" {
		track = jsonTracks[strings.ToLower(str("track"))]
		if track == "" {
			return store.Result{}, fmt.Sprintf("unknown track %q", str("track"))
		}
	}
	solver := str("solver")
	if solver == "" {
		return store.Result{}, "no solver"
	}
	fileRaw, ok := raw["file"]
	var fileID json.RawMessage // a file field that is not the benchmark (an id), kept
	if _, flat := raw["logic"]; flat && (!ok || (len(fileRaw) > 0 && fileRaw[0] != '{' && fileRaw[0] != '"')) {
		// A benchmark given by top-level logic, family and name (the file
		// field, if any, an id): make the file object of them.
		obj := map[string]json.RawMessage{}
		for _, k := range []string{"incremental", "logic", "family", "name"} {
			if v, ok := raw[k]; ok {
				obj[k] = v
			}
		}
		if ok {
			fileID = fileRaw
		}
		fileRaw, _ = json.Marshal(obj)
		ok = true
	}
	if !ok {
		return store.Result{}, "no file"
	}
	bp, err := libraryPath(fileRaw, track)
	if err != nil {
		return store.Result{}, err.Error()
	}
	year := given
	if year == 0 {
		if y, ok, why := num("year"); why != "" {
			return store.Result{}, why
		} else if ok {
			year = int(y)
		}
	}
	if year == 0 {
		year = opts.Year
	}
	if year == 0 {
		return store.Result{}, "no year (give one: --year)"
	}
	comp := givenComp
	if comp == "" {
		comp = fmt.Sprintf("SMT-COMP %d", year)
	}
	var times [3]float64
	for i, k := range []string{"cpu_time", "wallclock_time", "memory_usage"} {
		v, _, why := num(k)
		if why != "" {
			return store.Result{}, why
		}
		times[i] = v
	}
	nb, hasNB, why := num("nb_answers")
	if why != "" {
		return store.Result{}, why
	}
	word := str("result")
	w, ok := classifyWord(word)
	if !ok {
		return store.Result{}, "no result"
	}
	status, answer := w.status, w.answer
	extra := map[string]any{"result": word}
	if w.wrong {
		extra["wrong-answers"] = 1
	}
	if w.erroneous {
		extra["result-is-erroneous"] = 1
	}
	if w.model != "" {
		extra["model_validator_status"] = w.model
	}
	if hasNB {
		extra["nb_answers"] = nb
		if nb >= 0 {
			switch track {
			case "incremental":
				extra["correct-answers"] = nb
			case "unsat-core":
				extra["core-size"] = nb
			}
		}
	}
	if track == "model-validation" && answer == "sat" && extra["model_validator_status"] == nil {
		extra["model_validator_status"] = "VALID"
	}
	config := ""
	for k, v := range raw {
		if !resultFields[k] {
			extra[k] = json.RawMessage(v)
		}
	}
	if fileID != nil {
		extra["file"] = fileID
	}
	if p, ok := raw["participation"]; ok {
		config = strings.Trim(string(p), `"`) // a solver's second participation is another configuration
	}
	ej, err := json.Marshal(extra)
	if err != nil {
		return store.Result{}, err.Error()
	}
	return store.Result{Competition: comp, Year: year, Track: track, Solver: solver, Configuration: config,
		BenchmarkPath: bp, Status: status, Answer: answer, CPU: times[0], Wall: times[1],
		MemoryMB: times[2] / (1 << 20), Extra: string(ej),
		SourceKey: Key("smtcomp", year, track, solver, config, bp, "")}, ""
}

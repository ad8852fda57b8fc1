package official

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/store"
)

// ImportAWSCSV reads the results of the cloud and parallel tracks, which
// ran on AWS (2021-2023), in every shape the SMT-COMP repository publishes:
//
//   - 2021 `results/{cloud,parallel}-track/results.csv`: benchmark, solver,
//     wallclock time, result, with TIMEOUT, CRASHED or PARSE_ERROR in the
//     time column and SATISFIABLE/UNSATISFIABLE or nothing as the result.
//     Converted as the organisers' mapResults.py and aws_join.sh did
//     (a TIMEOUT takes 1201 s, a crash 0 s; no answer over 1200 s; cvc5gg's
//     PARSE_ERROR with UNSATISFIABLE is a timeout); the AWS solver names
//     get the ids of 2021/prep/aws-spaces/aws_solver_name_to_solver_id.csv.
//   - The joined table (2022 `raw-results-{cloud,parallel}.csv`, written by
//     2022/results/cloud-parallel/join.py): benchmark, millisecond, result,
//     cpu time, wallclock time, solver, solver id, configuration id,
//     expected, status. Results are kept as written ("timeout", "error":
//     the 2022 scoring took them for answers, see docs/scoring.md).
//   - One solver's raw file of 2022 (`aws-results.zip`: vampire-cloud-smt.csv,
//     csmtscq-smt.csv, ...): benchmark, millisecond, result, no header. The
//     solver, its ids and the track come from join.py's table; benchmarks
//     keep their competition names (smt-comp-108.smt2), since the map to
//     SMT-LIB names (prep/selection/final/cloud-map.csv) is not published.
//   - One solver's raw file of 2023 (`2023/results/aws/cloud-vampire.adjust-
//     smt.csv.gz`): a header `name, time, result` (time in ms); the solver
//     and track come from 2023's join.py; a `TRACK-pairs.csv.gz` beside it
//     (input file, original name) gives the SMT-LIB names, and results
//     other than sat and unsat are no answer (join.py's convert_result).
//
// A path's logic is its first component that is a logic (or the one after
// non-incremental/); the path below it is kept. Every row is added, or
// named as unusable; a row for a solver and benchmark already seen in the
// file is named too but imported, because the official scoring counted
// every row (docs/scoring.md, "2022 cloud and parallel").
func ImportAWSCSV(ctx context.Context, st store.Store, file string, opts Options) (Stats, error) {
	userTrack := opts.Track
	if err := opts.defaults(file, false, true); err != nil {
		return Stats{}, err
	}
	b := &batcher{ctx: ctx, st: st}
	ac := &awsContext{file: file, opts: opts, userTrack: userTrack, maps: map[string]map[string]string{}}
	var err error
	if ac.pairs, err = awsPairs(file); err != nil {
		return Stats{}, err
	}
	if err := ac.loadStatuses(); err != nil {
		return Stats{}, err
	}
	if err := b.start(); err != nil {
		return Stats{}, err
	}
	err = EachCSV(file, func(name string, r io.Reader) error {
		return importAWS(b, name, r, ac)
	})
	if err != nil {
		// As ImportStarExec: the rows read before the damage are whole;
		// store them, so that the counts say what the store holds.
		if ferr := b.finish(); ferr != nil {
			return b.stats, errors.Join(err, ferr)
		}
		return b.stats, err
	}
	return b.stats, b.finish()
}

// awsSolver is a solver of an AWS run as an official join script names it.
type awsSolver struct {
	track, name, id, config string
}

// aws2022 is 2022/results/cloud-parallel/join.py's table of raw files.
var aws2022 = map[string]awsSolver{
	"vampire-cloud-smt.csv":    {"cloud", "Vampire", "39081", "659685"},
	"csmtscq-smt.csv":          {"cloud", "SMTSCQ", "1", "1"},
	"csmtscqf-smt.csv":         {"cloud", "SMTSCQF", "2", "2"},
	"csmtsp-smt.csv":           {"cloud", "SMTSP", "3", "3"},
	"cvc5-cloud-smt.csv":       {"cloud", "CVC5", "4", "4"},
	"vampire-parallel-smt.csv": {"parallel", "Vampire", "39081", "659685"},
	"psmtscq-smt.csv":          {"parallel", "SMTSCQ", "1", "1"},
	"psmtscqf-smt.csv":         {"parallel", "SMTSCQF", "2", "2"},
	"psmtsp-smt.csv":           {"parallel", "SMTSP", "3", "3"},
}

// aws2023 is 2023/results/aws/join.py's table (file name without .gz).
var aws2023 = map[string]awsSolver{
	"cloud-vampire.adjust-smt.csv":    {"cloud", "Vampire", "44484", "741777"},
	"cloud-cvc5.adjust-smt.csv":       {"cloud", "cvc5", "44737", "741788"},
	"parallel-vampire.adjust-smt.csv": {"parallel", "Vampire", "44484", "741777"},
	"parallel-iprover.adjust-smt.csv": {"parallel", "iProver", "44768", "741808"},
	"parallel-z3-owl.adjust-smt.csv":  {"parallel", "Z3-Owl", "44715", "741784"},
}

// aws2021IDs is 2021/prep/aws-spaces/aws_solver_name_to_solver_id.csv.
var aws2021IDs = map[string]string{
	"cubeandconquer": "10", "cvc5gg": "11", "cvc5ggparallel": "11", "par": "12", "parallelpar": "12",
	"portfolio": "13", "stp": "14", "vampirecloud": "33458", "vampireparallel": "33458", "stpcloudparallel": "15",
}

// The prefixes the 2023 join script removes before looking a benchmark up
// in the pairs file.
const aws2023Prefix = "/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/"

// awsPairs reads the 2023 pairs files (TRACK-pairs.csv.gz: input file,
// original name) beside file, if any: track -> competition name -> SMT-LIB
// name.
func awsPairs(file string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, tr := range []string{"cloud", "parallel"} {
		for _, n := range []string{tr + "-pairs.csv.gz", tr + "-pairs.csv"} {
			p := filepath.Join(filepath.Dir(file), n)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			rows, err := readColumns(p, "input file", "original name")
			if err != nil {
				return nil, err
			}
			m := make(map[string]string, len(rows))
			for _, c := range rows {
				m[c.Vals[0]] = c.Vals[1]
			}
			out[tr] = m
			break
		}
	}
	return out, nil
}

// The shapes of AWS result files.
const (
	shapeJoined  = "joined"
	shape2021    = "aws-2021"
	shapeRaw2022 = "raw-2022"
	shapeRaw2023 = "raw-2023"
)

func importAWS(b *batcher, name string, r io.Reader, ac *awsContext) error {
	opts, userTrack, file := ac.opts, ac.userTrack, ac.file
	member := name[strings.LastIndexByte(name, ':')+1:]
	base := path.Base(filepath.ToSlash(strings.TrimSuffix(member, ".gz")))
	er := &endReader{r: r}
	cr := csv.NewReader(er)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	first, err := cr.Read()
	if errors.Is(err, io.EOF) {
		b.note(name, 0, "empty file")
		return nil
	}
	if err != nil {
		return csvError(name, err)
	}
	col := map[string]int{}
	for i, h := range first {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	has := func(cs ...string) bool {
		for _, c := range cs {
			if _, ok := col[c]; !ok {
				return false
			}
		}
		return true
	}
	if has("input file", "original name") {
		// 2023's TRACK-pairs.csv.gz, given with the results (aws/*.csv.gz):
		// read for the files beside it, not results.
		b.note(name, 0, "a map of competition names (input file, original name), not results: read for the result files beside it")
		return nil
	}
	shape := ""
	var known awsSolver
	switch {
	case has("benchmark", "solver", "wallclock time", "result") && !has("millisecond") && !has("status"):
		shape = shape2021
	case has("benchmark", "result") && (has("millisecond") || has("wallclock time")):
		shape = shapeJoined
	case has("name", "time", "result"):
		shape = shapeRaw2023
		known = aws2023[base]
		col = map[string]int{"benchmark": col["name"], "millisecond": col["time"], "result": col["result"]}
	case len(first) == 3:
		if _, err := strconv.ParseFloat(strings.TrimSpace(first[1]), 64); err == nil {
			shape = shapeRaw2022
			known = aws2022[base]
			col = map[string]int{"benchmark": 0, "millisecond": 1, "result": 2}
		}
	}
	if shape == "" {
		return fmt.Errorf("%s:1: not an AWS result file: the first line %q is neither a known header (benchmark, solver, wallclock time, result; benchmark, millisecond, result, ...; name, time, result) nor a raw row (benchmark, milliseconds, result)", name, strings.Join(first, ","))
	}
	track := known.track
	if track == "" {
		track = userTrack
	}
	if track == "" {
		track = trackOfPath(member)
	}
	if track == "" {
		track = trackOfPath(file)
	}
	if track == "" {
		return fmt.Errorf("%s: cannot tell the track from the file name; give one (--track)", name)
	}
	solver := opts.Solver
	if solver == "" {
		solver = known.name
	}
	if solver == "" && (shape == shapeRaw2022 || shape == shapeRaw2023) {
		solver = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".csv"), "-smt"), ".adjust-smt")
		b.note(name, 0, "solver %q taken from the file name: the official join scripts do not list this file", solver)
	}
	if shape == shapeRaw2023 && len(ac.pairs[track]) == 0 {
		b.note(name, 0, "no %s-pairs.csv.gz beside the file: benchmarks keep their competition names", track)
	}
	var names map[string]string // competition name -> SMT-LIB name
	removed := map[string]string{}
	if shape == shape2021 || shape == shapeRaw2022 {
		m, err := ac.nameMap(track, opts.Year)
		if err != nil {
			return err
		}
		names = m
		if m == nil {
			b.note(name, 0, "no map of competition names to SMT-LIB names (--map): benchmarks keep their competition names")
		} else if shape == shape2021 {
			removed = ac.removed[track]
		}
	}
	if shape != shapeJoined && ac.statuses == nil {
		b.note(name, 0, "no benchmark statuses (--statuses): every expected status is unknown")
	}
	get := func(rec []string, c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	used := map[int]bool{}
	for _, i := range col {
		used[i] = true
	}
	statusesUnmatched := false
	seen := map[string]int{}  // solver+benchmark -> first line
	count := map[string]int{} // solver+benchmark -> occurrences so far
	line := 1
	rec := first
	if shape != shapeRaw2022 {
		rec = nil
	}
	for {
		if rec == nil {
			rec, err = cr.Read()
			if errors.Is(err, io.EOF) {
				return b.truncatedLastRow(name, line, er)
			}
			if err != nil {
				return csvErrorAt(name, line, err)
			}
			line, _ = cr.FieldPos(0)
		}
		res, why := awsRow(shape, rec, get, first, used, solver, known, track, ac.pairs[track], names)
		rec = nil
		if why == "" {
			if first, ok := removed[compKey(res.extra["competition name"])]; ok {
				why = fmt.Sprintf("a second competition name of the SMT-LIB benchmark of %s: 2021's aws_join.sh removed its rows", first)
			}
		}
		if why != "" {
			b.unusable(name, line, "%s", why)
			continue
		}
		if res.expected == "" && ac.statuses != nil && res.competition && !statusesUnmatched {
			statusesUnmatched = true
			b.note(name, line, "benchmarks keep their competition names: the statuses of %s (SMT-LIB names) cannot be looked up without the map (--map)", ac.statusFile)
		}
		if res.expected == "" && ac.statuses != nil && !res.competition {
			if st, ok := ac.statuses[res.bench]; ok {
				res.expected = st
			} else {
				res.expected = "unknown"
				b.note(name, line, "%s has no status in %s: taken as unknown", res.bench, ac.statusFile)
			}
		}
		if member != name {
			res.extra["file"] = member
		}
		ej, _ := json.Marshal(res.extra)
		k := res.solver + "\x1f" + res.bench
		count[k]++
		pair := ""
		if n := count[k]; n > 1 {
			pair = "occurrence " + strconv.Itoa(n)
			b.note(name, line, "same solver and benchmark as line %d (%s, %s); kept, as the official scoring counted every row",
				seen[k], res.solver, res.bench)
		} else {
			seen[k] = line
		}
		if err := b.add(name, line, store.Result{Competition: opts.Competition, Year: opts.Year, Track: track, Solver: res.solver,
			BenchmarkPath: res.bench, Status: res.status, Answer: res.answer, Expected: res.expected, CPU: res.cpu, Wall: res.wall,
			Extra: string(ej), SourceKey: Key("aws", opts.Year, track, res.solver, "", res.bench, pair)}); err != nil {
			return err
		}
	}
}

type awsResult struct {
	solver, bench, status, answer, expected string
	cpu, wall                               float64
	extra                                   map[string]string
	// competition says the benchmark kept its competition name (no map):
	// statuses, keyed by SMT-LIB names, cannot be looked up.
	competition bool
}

// awsRow converts one row; why says what makes it unusable.
func awsRow(shape string, rec []string, get func([]string, string) string, header []string, used map[int]bool,
	solver string, known awsSolver, track string, pairs, names map[string]string) (awsResult, string) {
	res := awsResult{extra: map[string]string{}, status: "complete"}
	nfields := 3
	if shape == shapeJoined || shape == shape2021 {
		nfields = len(header)
	}
	if len(rec) != nfields {
		return res, fmt.Sprintf("%d fields, expected %d", len(rec), nfields)
	}
	raw := get(rec, "benchmark")
	if raw == "" {
		return res, "no benchmark"
	}
	res.answer = get(rec, "result")
	res.solver = solver
	switch shape {
	case shapeJoined:
		if s := get(rec, "solver"); s != "" {
			res.solver = s
		}
		if s := get(rec, "status"); s != "" {
			res.status = s
		}
		res.expected = get(rec, "expected")
		var err error
		if get(rec, "wallclock time") != "" {
			if res.wall, err = strconv.ParseFloat(get(rec, "wallclock time"), 64); err != nil {
				return res, fmt.Sprintf("wallclock time %q is not a number", get(rec, "wallclock time"))
			}
			res.cpu = res.wall
			if c := get(rec, "cpu time"); c != "" {
				if res.cpu, err = strconv.ParseFloat(c, 64); err != nil {
					return res, fmt.Sprintf("cpu time %q is not a number", c)
				}
			}
		} else {
			ms, err := strconv.ParseFloat(get(rec, "millisecond"), 64)
			if err != nil {
				return res, fmt.Sprintf("millisecond %q is not a number", get(rec, "millisecond"))
			}
			res.cpu, res.wall = ms/1000, ms/1000
		}
		for i, h := range header {
			h = strings.TrimSpace(h)
			switch strings.ToLower(h) {
			case "benchmark", "result", "solver", "status", "expected", "cpu time", "wallclock time":
				continue
			}
			res.extra[h] = strings.TrimSpace(rec[i])
		}
	case shape2021:
		// mapResults.py: getStarexecTime, getStarexecResult; aws_join.sh's
		// fix of cvc5gg's PARSE_ERRORs that said UNSATISFIABLE.
		t, ans := get(rec, "wallclock time"), get(rec, "result")
		res.solver = get(rec, "solver")
		if res.solver == "" {
			return res, "no solver"
		}
		res.extra["aws wallclock time"], res.extra["aws result"] = t, ans
		if id, ok := aws2021IDs[res.solver]; ok {
			res.extra["solver id"] = id
		}
		if res.solver == "cvc5gg" && t == "PARSE_ERROR" && strings.Contains(ans, "UNSATISFIABLE") {
			t, ans = "TIMEOUT", ""
			res.extra["fixed"] = "PARSE_ERROR with UNSATISFIABLE taken for a timeout (aws_join.sh)"
		}
		switch t {
		case "TIMEOUT":
			res.wall, res.status, res.answer = 1201, "timeout", "starexec-unknown"
		case "CRASHED", "PARSE_ERROR":
			res.wall, res.answer = 0, "starexec-unknown"
		default:
			w, err := strconv.ParseFloat(t, 64)
			if err != nil {
				return res, fmt.Sprintf("wallclock time %q is neither a number nor TIMEOUT, CRASHED or PARSE_ERROR", t)
			}
			res.wall = w
			switch {
			case w > 1200:
				res.answer = "starexec-unknown"
			case ans == "SATISFIABLE":
				res.answer = "sat"
			case ans == "UNSATISFIABLE":
				res.answer = "unsat"
			default:
				return res, fmt.Sprintf("a time (%s) and the result %q, neither SATISFIABLE nor UNSATISFIABLE", t, ans)
			}
		}
		res.cpu = -1 // mapResults.py's cpu time
		res.extra["cpu time"] = "-1"
	case shapeRaw2022, shapeRaw2023:
		ms, err := strconv.ParseFloat(get(rec, "millisecond"), 64)
		if err != nil {
			return res, fmt.Sprintf("time %q is not a number of milliseconds", get(rec, "millisecond"))
		}
		res.cpu, res.wall = ms/1000, ms/1000
		res.extra["millisecond"] = get(rec, "millisecond")
		if known.id != "" {
			res.extra["solver id"], res.extra["configuration id"] = known.id, known.config
		}
		if shape == shapeRaw2023 {
			res.extra["aws result"] = res.answer
			if res.answer != "sat" && res.answer != "unsat" {
				res.answer = "starexec-unknown" // join.py's convert_result
			}
		}
	}
	name := raw
	if shape != shapeJoined {
		// The name the competition ran the benchmark under.
		res.extra["competition name"] = raw
	}
	if shape == shapeRaw2023 {
		comp := strings.TrimPrefix(raw, aws2023Prefix+track)
		if orig, ok := pairs[comp]; ok {
			name = orig
		} else if orig, ok := pairs[compKey(comp)]; ok {
			name = orig
		} else {
			res.competition = true
		}
	}
	if names != nil {
		orig, ok := names[compKey(raw)]
		if !ok {
			return res, fmt.Sprintf("%s is not in the map of competition names", raw)
		}
		name = orig
	} else if shape == shape2021 || shape == shapeRaw2022 {
		res.competition = true
	}
	bp, ok := awsPath(name)
	if !ok {
		return res, fmt.Sprintf("no logic in the benchmark path %q", name)
	}
	res.bench = bp
	return res, ""
}

var logicRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(QF_)?[A-Z]+$`) })

// awsPath makes a library path (non-incremental/LOGIC/...) of an AWS
// benchmark name: "./LRA/2010-Monniaux-QE/mjollnir2/x.smt2",
// "/home/.../cloud/non-incremental/UF/smt-comp-108.smt2",
// "cloud_new/non-incremental/QF_BV/smt-comp-061.smt2". The logic is the
// component after non-incremental/, else the first component that is a
// logic name; everything below it is kept.
func awsPath(p string) (string, bool) {
	parts := strings.Split(strings.Trim(filepath.ToSlash(p), "/"), "/")
	for i, s := range parts {
		if s == "non-incremental" && i+2 < len(parts) {
			return "non-incremental/" + strings.Join(parts[i+1:], "/"), true
		}
	}
	for i, s := range parts {
		if logicRE().MatchString(s) && i+1 < len(parts) {
			return "non-incremental/" + strings.Join(parts[i:], "/"), true
		}
	}
	return "", false
}

// awsContext is what an import of AWS files reads beside them: the 2023
// pairs, the maps of competition names, the benchmark statuses.
type awsContext struct {
	file, userTrack string
	opts            Options
	pairs           map[string]map[string]string
	maps            map[string]map[string]string // track -> competition key -> SMT-LIB name
	removed         map[string]map[string]string // track -> competition key -> the kept competition name
	statuses        map[string]string            // library path -> status
	statusFile      string
}

// compKey is the part of a competition name from non-incremental/ on:
// "cloud_new/non-incremental/QF_BV/smt-comp-061.smt2" (2021's results),
// "/home/mww/.../cloud/non-incremental/UF/smt-comp-108.smt2" (2022's raw
// files) and the maps' "/non-incremental/QF_BV/smt-comp-061.smt2" meet.
func compKey(s string) string {
	s = filepath.ToSlash(strings.TrimSpace(s))
	if i := strings.Index(s, "non-incremental/"); i >= 0 {
		return s[i:]
	}
	return strings.TrimPrefix(s, "/")
}

// readTable reads the two columns key and val of every CSV in file (plain,
// compressed or archived), the header naming them (either of keys).
func readTable(file string, keys []string, val string) (map[string]string, error) {
	out := map[string]string{}
	err := EachCSV(file, func(name string, r io.Reader) error {
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		head, err := cr.Read()
		if err != nil {
			return csvError(name, err)
		}
		ki, vi := -1, -1
		for i, h := range head {
			h = strings.ToLower(strings.TrimSpace(h))
			for _, k := range keys {
				if h == k && ki < 0 {
					ki = i
				}
			}
			if h == val {
				vi = i
			}
		}
		if ki < 0 || vi < 0 {
			return fmt.Errorf("%s:1: want the columns %q and %q", name, strings.Join(keys, `" or "`), val)
		}
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return csvError(name, err)
			}
			if ki < len(rec) && vi < len(rec) {
				out[strings.TrimSpace(rec[ki])] = strings.TrimSpace(rec[vi])
			}
		}
	})
	return out, err
}

// loadStatuses reads --statuses, or 2021's aws-instance-statuses beside
// the results.
func (ac *awsContext) loadStatuses() error {
	f := ac.opts.Statuses
	if f == "" {
		for _, n := range []string{"aws-instance-statuses.csv", "aws-instance-statuses.tar.gz"} {
			p := filepath.Join(filepath.Dir(ac.file), n)
			if _, err := os.Stat(p); err == nil {
				f = p
				break
			}
		}
	}
	if f == "" {
		return nil
	}
	t, err := readTable(f, []string{"benchmark", "benchmark name"}, "status")
	if err != nil {
		return fmt.Errorf("statuses: %w", err)
	}
	ac.statuses = map[string]string{}
	for k, v := range t {
		if bp, ok := awsPath(k); ok {
			ac.statuses[bp] = v
		}
	}
	ac.statusFile = f
	return nil
}

// nameMap reads the map of a track's competition names: --map, else the
// organisers' map where the repository keeps it relative to the results
// (YEAR/prep/selection/final/TRACK-map.csv, or 2021's
// benchmark_selection_TRACK_2021_scramble_map.tar.xz). Nil when there is
// none. SMT-LIB names given to more than one competition name are noted in
// removed: 2021's aws_join.sh dropped the rows of the last of them.
func (ac *awsContext) nameMap(track string, year int) (map[string]string, error) {
	if m, ok := ac.maps[track]; ok {
		return m, nil
	}
	f := ac.opts.Map
	if f == "" {
		final := filepath.Join(filepath.Dir(ac.file), "..", "..", "prep", "selection", "final")
		if filepath.Base(filepath.Dir(ac.file)) == "results" {
			final = filepath.Join(filepath.Dir(ac.file), "..", "prep", "selection", "final")
		}
		for _, n := range []string{track + "-map.csv", fmt.Sprintf("benchmark_selection_%s_%d_scramble_map.tar.xz", track, year)} {
			if _, err := os.Stat(filepath.Join(final, n)); err == nil {
				f = filepath.Join(final, n)
				break
			}
		}
	}
	if f == "" {
		ac.maps[track] = nil
		return nil, nil
	}
	rows, err := readColumns(f, "competition name", "smtlib name")
	if err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	order := make([][2]string, len(rows))
	for i, c := range rows {
		order[i] = [2]string{c.Vals[0], c.Vals[1]}
	}
	m := map[string]string{}
	firstOf, lastOf := map[string]string{}, map[string]string{}
	count := map[string]int{}
	for _, cs := range order {
		m[compKey(cs[0])] = cs[1]
		if _, ok := firstOf[cs[1]]; !ok {
			firstOf[cs[1]] = cs[0]
		}
		lastOf[cs[1]] = cs[0]
		count[cs[1]]++
	}
	if ac.removed == nil {
		ac.removed = map[string]map[string]string{}
	}
	ac.removed[track] = map[string]string{}
	for smt, n := range count {
		if n > 1 {
			ac.removed[track][compKey(lastOf[smt])] = firstOf[smt]
		}
	}
	ac.maps[track] = m
	return m, nil
}

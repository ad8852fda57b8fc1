package score

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// Exclusion is a published list of benchmarks left out of scoring (the
// organisers' blacklists, e.g. SMT-COMP 2020's benchmarks in the wrong
// logic or with non-linear terms), or a patch of results (2020's
// SQ-wrong-sat-result.csv: pairs whose answer the post-processor got
// wrong, with the answer to use).
type Exclusion struct {
	Name       string          // where it came from (the file, or archive:member)
	Benchmarks map[string]bool // ExcludeKey of each benchmark
	// Patch maps a pair id to the answer to use instead of the row's.
	Patch map[string]string
	// Status maps a benchmark (ExcludeKey) to the status the organisers
	// decided for it (2021-2023's sq-disagreements-decision.csv,
	// "benchmark,decided status"; process_results.py -d).
	Status map[string]string
	// WrongIncremental maps an incremental benchmark to the solver id
	// whose answers the organisers found wrong (inc-disagreements-
	// decision.csv, "benchmark,wrong answers,solver,solver id";
	// process_results.py -i sets its wrong answers to 1 and its correct
	// ones to 0; a later line of the same benchmark replaces an earlier
	// one, as there).
	WrongIncremental map[string]string
	// NotProved is 2023's list of the model-validation runs that the
	// organisers' local re-validation (with a fixed dolmen) did not prove
	// (2023/results/fix-results-JOB.csv.gz: benchmark, solver,
	// configuration, no header). merge_local_results_mv.py made every
	// other run of the job a validated sat answer: status complete,
	// result sat, model_validator_status VALID, model_validator_error "-"
	// (SMT-COMP repository, 2023/results/merge_local_results_mv.py,
	// commit a78f88ae22512e97a80fe97e534bc0ab0036d74c). Keyed by
	// notProvedKey; Job is the StarExec job the list is for (from its
	// name), whose rows alone it patches when the rows know their job.
	NotProved map[string]bool
	Job       string
	// Library is "incremental/" or "non-incremental/" when the list's
	// file name says which library it is for (2020's
	// blacklist_incremental_*.txt, blacklist_nonincremental_*.txt;
	// make_mds.sh applied each to its tracks only), else "".
	Library string
}

// Excluded counts the rows an exclusion (or an official choice of rows)
// removed or, for a patch, changed.
type Excluded struct {
	Name string
	Rows int
}

// ExcludeKey is the form in which an excluded benchmark is compared: its
// path below the StarExec space or the library's (non-)incremental
// directory, without "./". The organisers' filter_result_csv.py compares
// the benchmark column without its first component (the space) with the
// list's lines without "./"; library paths, StarExec paths and the lists'
// lines all map to the same key.
func ExcludeKey(p string) string {
	p = strings.TrimSpace(strings.ReplaceAll(p, "\\", "/"))
	p = strings.TrimPrefix(p, "./")
	if first, rest, ok := strings.Cut(p, "/"); ok && !isLogicName(first) {
		p = rest
	}
	return p
}

// isLogicName says whether a path component is an SMT-LIB logic (QF_BV,
// UFDTLIRA): capital letters, digits and underscores. A space name
// ("Competition - Incremental Track") or the library's "incremental" and
// "non-incremental" directories are not.
func isLogicName(s string) bool {
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

// ParseExclusion reads an exclusion list: one benchmark path a line, in
// any of the forms the organisers published (LOGIC/family/x.smt2,
// ./LOGIC/..., a StarExec path with its space, a library path); blank
// lines and lines starting with # are skipped. A CSV with "pair id" and
// "result" columns (SQ-wrong-sat-result.csv) is read as a patch instead.
func ParseExclusion(name string, r io.Reader) (Exclusion, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(200)
	ex := Exclusion{Name: name}
	first, _, _ := strings.Cut(string(head), "\n")
	if job, ok := fixResultsJob(name); ok {
		return parseNotProved(name, job, br)
	}
	if strings.HasPrefix(first, "benchmark,") && (strings.Contains(first, "decided status") || strings.Contains(first, "wrong answers")) {
		return parseDecision(name, br, strings.Contains(first, "wrong answers"))
	}
	if strings.Contains(first, "pair id") && strings.Contains(first, "result") {
		cr := csv.NewReader(br)
		cr.FieldsPerRecord = -1
		h, err := cr.Read()
		if err != nil {
			return ex, fmt.Errorf("%s:1: %w", name, err)
		}
		pi, ri := -1, -1
		for i, c := range h {
			switch strings.TrimSpace(c) {
			case "pair id":
				pi = i
			case "result":
				ri = i
			}
		}
		ex.Patch = map[string]string{}
		for line := 2; ; line++ {
			rec, err := cr.Read()
			if err == io.EOF {
				return ex, nil
			}
			if err != nil {
				return ex, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			if pi >= len(rec) || ri >= len(rec) {
				return ex, fmt.Errorf("%s:%d: %d fields, want pair id and result", name, line, len(rec))
			}
			ex.Patch[strings.TrimSpace(rec[pi])] = strings.TrimSpace(rec[ri])
		}
	}
	ex.Benchmarks = map[string]bool{}
	ex.Library = libraryOfName(name)
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ex.Benchmarks[excludeKind(l)+ExcludeKey(l)] = true
	}
	if err := sc.Err(); err != nil {
		return ex, fmt.Errorf("%s: %w", name, err)
	}
	return ex, nil
}

// excludeKind is "incremental/" or "non-incremental/" when a path says
// which library it is in (2021's SMT-LIB_excluded.txt lists both), else
// "": a list's line that names its library excludes only there.
func excludeKind(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "./")
	for _, k := range []string{"incremental/", "non-incremental/"} {
		if strings.HasPrefix(p, k) {
			return k
		}
	}
	return ""
}

// libraryOfName says which library a list is for by its file name.
func libraryOfName(name string) string {
	base := strings.ToLower(name[strings.LastIndexAny(name, "/:")+1:])
	switch {
	case strings.Contains(base, "nonincremental"), strings.Contains(base, "non-incremental"), strings.Contains(base, "non_incremental"):
		return "non-incremental/"
	case strings.Contains(base, "incremental"):
		return "incremental/"
	}
	return ""
}

// parseDecision reads the organisers' decisions on disagreements: a
// benchmark's status (benchmark,decided status) or, incremental, the
// solver whose answers were wrong (benchmark,wrong answers,solver,solver
// id).
func parseDecision(name string, r io.Reader, incremental bool) (Exclusion, error) {
	ex := Exclusion{Name: name}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	if _, err := cr.Read(); err != nil {
		return ex, fmt.Errorf("%s:1: %w", name, err)
	}
	if incremental {
		ex.WrongIncremental = map[string]string{}
	} else {
		ex.Status = map[string]string{}
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return ex, nil
		}
		if err != nil {
			return ex, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		key := ExcludeKey(rec[0])
		switch {
		case incremental && len(rec) >= 4:
			ex.WrongIncremental[key] = strings.TrimSpace(rec[3])
		case !incremental && len(rec) >= 2:
			ex.Status[key] = strings.TrimSpace(rec[1])
		default:
			return ex, fmt.Errorf("%s:%d: %d fields", name, line, len(rec))
		}
	}
}

// applyExclusions removes the rows of excluded benchmarks and patches the
// answers of patched pairs, counting per exclusion (a row is counted by
// the first list that names it).
func applyExclusions(rows []Row, exs []Exclusion) ([]Row, []Excluded) {
	if len(exs) == 0 {
		return rows, nil
	}
	counts := make([]Excluded, len(exs))
	for i, ex := range exs {
		counts[i].Name = ex.Name
	}
	kept := make([]Row, 0, len(rows))
	for _, r := range rows {
		drop := false
		key := ExcludeKey(r.Benchmark)
		kindKey := excludeKind(r.Benchmark) + key
		for i, ex := range exs {
			switch {
			case ex.Patch != nil:
				if a, ok := ex.Patch[r.Pair()]; ok && r.Pair() != "" {
					r.Answer = a
					counts[i].Rows++
				}
				continue
			case ex.Status != nil:
				if st, ok := ex.Status[key]; ok {
					r.Expected = st
					counts[i].Rows++
				}
				continue
			case ex.NotProved != nil:
				if ex.Job != "" && r.Job() != "" && !strings.Contains(r.Job(), "Job"+ex.Job) {
					continue
				}
				if !ex.NotProved[notProvedKey(r.Benchmark, r.SourceName(), r.ConfigName())] {
					// r is a copy: its Source is rows[i]'s.
					r.Source = r.Source.Clone()
					src := r.EditSource()
					r.Status, r.Answer, src.Model, src.ModelError = "complete", "sat", "VALID", "-"
					counts[i].Rows++
				}
				continue
			case ex.WrongIncremental != nil:
				if id, ok := ex.WrongIncremental[key]; ok && id == r.Solver {
					r.WrongAnswers, r.CorrectAnswers = 1, 0
					counts[i].Rows++
				}
				continue
			}
			if ex.Library != "" && !strings.HasPrefix(r.Benchmark, ex.Library) {
				continue
			}
			if ex.Benchmarks[key] || ex.Benchmarks[kindKey] {
				counts[i].Rows++
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, r)
		}
	}
	return kept, counts
}

// fixResultsJob says whether a list is one of 2023's fix-results-JOB
// lists of model-validation runs not proved locally, and for which job.
func fixResultsJob(name string) (string, bool) {
	base := strings.ToLower(name[strings.LastIndexAny(name, "/:")+1:])
	rest, ok := strings.CutPrefix(base, "fix-results")
	if !ok {
		return "", false
	}
	rest = strings.TrimLeft(rest, "-_")
	job := rest
	if i := strings.IndexFunc(rest, func(c rune) bool { return c < '0' || c > '9' }); i >= 0 {
		job = rest[:i]
	}
	return job, true
}

// notProvedKey is how a run is looked up in a NotProved list: its
// benchmark (ExcludeKey), solver name and configuration name, as
// merge_local_results_mv.py keys the raw results.
func notProvedKey(bench, solver, config string) string {
	return ExcludeKey(bench) + "\x1f" + strings.TrimSpace(solver) + "\x1f" + strings.TrimSpace(config)
}

// parseNotProved reads a fix-results list: benchmark, solver,
// configuration on each line (further columns ignored), no header; the
// script reads every line as a key, and so does this.
func parseNotProved(name, job string, r io.Reader) (Exclusion, error) {
	ex := Exclusion{Name: name, NotProved: map[string]bool{}, Job: job}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return ex, nil
		}
		if err != nil {
			return ex, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(rec) < 3 {
			return ex, fmt.Errorf("%s:%d: %d fields, want benchmark, solver, configuration", name, line, len(rec))
		}
		ex.NotProved[notProvedKey(rec[0], rec[1], rec[2])] = true
	}
}

package score

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official computation of SMT-COMP 2020 (2020/scoring/ of the SMT-COMP
// repository: clean_and_join_csvs.sh joins StarExec's job exports,
// make_mds.sh filters the excluded benchmarks and runs
// tools/scoring/score.py -y 2020). docs/scoring.md lists where it departs
// from the 2020 rules.

// The 2020 job exports of each track (results/TRACK/Job_infos.tar.xz): the
// main job, the job of the fixed solvers, and the job of the best solvers
// of 2019.
const (
	job2020Orig  = "Job_info_orig.csv"
	job2020Fixed = "Job_info_fixed.csv"
	job2020Best  = "Job_info_2019.csv"
)

// keepOfficialRows drops the rows that the year's official computation
// did not score. 2020: the organisers joined the three job exports of a
// track with clean_and_join_csvs.sh, which
//   - incremental: removes from the 2019 job every row of QF_ANIA and
//     QF_AUFBVNIA (the script means to remove two solvers run by mistake,
//     2018-Z3 and 2019-MathSAT-na-ext, but csvgrep's -r pattern on the
//     benchmark column replaces its -m on the solver id: the logic's rows
//     of every solver go; in the 2020 data only those two solvers have
//     rows there);
//   - unsat-core: writes the reordered fixed job over the reordered 2019
//     job's temporary file and passes an unset variable as the third
//     file, so the 2019 job is not scored at all (no 2019 solver is on a
//     published unsat-core page);
//   - model-validation: joins all three;
//   - single-query (main job and 2019 job, which holds the fixed
//     solvers too): removes from the 2019 job the solver ids 24160 and
//     29388 (csvgrep -m on the solver id); the answer patch
//     SQ-wrong-sat-result.csv of the main job is an --exclude file.
//
// Rows without a job file (other exports, smtarena's own runs) are all
// kept. It returns the rows kept and the number dropped by each reason.
func keepOfficialRows(rows []Row, o Options) ([]Row, []Excluded) {
	if o.Year >= 2022 {
		// score.py from 2022: "data_new['solver_id'] =
		// data['configuration_id']": a solver is its configuration, as
		// the registration's Config ID columns name it.
		for i := range rows {
			if c := rows[i].Config(); c != "" {
				if _, ok := o.Solvers[c]; ok {
					rows[i].Solver = c
				}
			}
		}
	}
	if legacyYear(o.Year) {
		reruns := slices.ContainsFunc(rows, func(r Row) bool { return r.Rerun() })
		return filterRows(rows, func(r *Row) string { return droppedLegacy(r, o.Year, o.Track, reruns) })
	}
	if o.Year >= 2021 && o.Year <= 2023 {
		return filterRows(rows, func(r *Row) string { return dropCleaned(r, o.Year, o.Track) })
	}
	if o.Year != 2020 {
		return rows, nil
	}
	drop := func(r *Row) string {
		job := path.Base(r.Job())
		switch {
		case job != job2020Best:
			return ""
		case o.Track == benchmark.UnsatCore:
			return "2020 unsat-core: the 2019 job, which clean_and_join_csvs.sh leaves out"
		case o.Track == benchmark.SingleQuery && (r.Solver == "24160" || r.Solver == "29388"):
			return "2020 single-query: the 2019 job's solvers 24160 (run alone in a division by mistake) and 29388 (withdrawn as unsound), removed by clean_and_join_csvs.sh"
		case o.Track == benchmark.Incremental:
			switch benchmark.LogicOfPath(r.Benchmark) {
			case "QF_ANIA", "QF_AUFBVNIA":
				return "2020 incremental: the 2019 job's QF_ANIA and QF_AUFBVNIA rows, removed by clean_and_join_csvs.sh"
			}
		}
		return ""
	}
	rows, dropped := filterRows(rows, drop)
	// join_results.sh concatenates the main job, the 2019 job and the
	// fixed job and sorts the rows by benchmark (csvsort, stable), and the
	// script sums a solver's times in that order: floating-point sums in
	// another order can differ in the third decimal that the pages print
	// (incremental QF_UF: SMTInterpol's CPU score 1297.261, 1297.26 when
	// summed in the order of the job files).
	rank := map[string]int{job2020Orig: 0, job2020Best: 1, job2020Fixed: 2}
	keys := make([]string, len(rows))
	for i := range rows {
		keys[i] = ExcludeKey(rows[i].Benchmark)
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]], keys[idx[b]]
		if ka != kb {
			return ka < kb
		}
		return rank[path.Base(rows[idx[a]].Job())] < rank[path.Base(rows[idx[b]].Job())]
	})
	sorted := make([]Row, len(rows))
	for i, j := range idx {
		sorted[i] = rows[j]
	}
	return sorted, dropped
}

// filterRows keeps the rows for which why says "", counting the others by
// reason in the order the reasons first occur.
func filterRows(rows []Row, why func(*Row) string) ([]Row, []Excluded) {
	var out []Excluded
	at := map[string]int{}
	kept := rows[:0:0]
	for i := range rows {
		w := why(&rows[i])
		if w == "" {
			kept = append(kept, rows[i])
			continue
		}
		j, ok := at[w]
		if !ok {
			j = len(out)
			at[w] = j
			out = append(out, Excluded{Name: w})
		}
		out[j].Rows++
	}
	if len(out) == 0 {
		return rows, nil
	}
	return kept, out
}

// incompleteModel is what score.py (2020 on) takes as a validator
// exception saying the solver gave no model at all: "... ( expected", "...
// sat expected", or "-" (what the fixed and 2019 jobs have throughout).
var incompleteModel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:.*: \( expected|.*: sat expected|-)$`) })

// noException stands for a model_validator_exception column that an
// export does not have (2020's fixed and 2019 jobs); the organisers'
// unify_column_order.py added it empty, and pandas reads that as NaN,
// which the script's test treats as the "-" above does.
const noException = "-"

// officialModelError is a model-validation error as score.py computes it
// from 2020 on: an INVALID verdict on any row (not only on sat answers
// within the limit, as in 2019), unless the validator's error is
// unhandled_exception with an exception saying the solver gave no model.
func officialModelError(r *Row) bool {
	if !strings.EqualFold(r.Model(), "INVALID") {
		return false
	}
	exc := r.ModelException()
	incomplete := exc == "" || incompleteModel().MatchString(exc)
	return r.ModelError() != "unhandled_exception" || !incomplete
}

// qfEqualityBitvecArith matches the logics of 2021's incremental division
// QF_Equality+Bitvec+Arith.
var qfEqualityBitvecArith = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^QF_A?UFBV[LN]IA$`) })

// dropCleaned says why the year's clean_result_csvs.sh (2021, 2023; 2022
// published none, and is taken to have done what both its neighbours
// did) left a row of the joined results (raw-results-TRACK.csv) out
// before scoring, or "". The exclusion list and the decisions on
// disagreements it applied too are --exclude files.
func dropCleaned(r *Row, year int, track benchmark.Track) string {
	switch track {
	case benchmark.UnsatCore:
		// grep -v -e ',post-processor error,' -e 'run script error'
		if r.Status == "post-processor error" || strings.Contains(r.Status, "run script error") || strings.Contains(r.Answer, "run script error") {
			return fmt.Sprintf("%d unsat-core: a post-processor or run script error (clean_result_csvs.sh)", year)
		}
	case benchmark.SingleQuery:
		if year == 2021 && r.Solver == "33746" {
			return "2021 single-query: Z3str4 - Final (solver id 33746), retracted (clean_result_csvs.sh)"
		}
	case benchmark.Incremental:
		if year == 2021 && qfEqualityBitvecArith().MatchString(benchmark.LogicOfPath(r.Benchmark)) {
			return "2021 incremental: QF_Equality+Bitvec+Arith, non-competitive (clean_result_csvs.sh)"
		}
	}
	return ""
}

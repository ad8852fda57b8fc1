package score

import (
	"sort"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// NoVerdict counts a solver's model-validation results that carry no
// validator verdict (an import without the column, or a "-" in it).
const NoVerdict = "none"

// SolverVerdicts counts one solver's model-validation verdicts in a
// division, by verdict and reason as compete stores them
// (model_validator_status and model_reason): "VALID", "INVALID bad-model",
// "UNKNOWN no-output", ...; imported results have the verdict alone.
type SolverVerdicts struct {
	Solver string
	// Results is the solver's number of results in the division.
	Results int
	// Valid, Invalid and Unknown total the verdicts of each kind.
	Valid, Invalid, Unknown int
	// Verdicts counts each "VERDICT reason" (or NoVerdict).
	Verdicts map[string]int
}

// modelVerdicts fills in each division's Verdicts of the model-validation
// track from the rows scored (after exclusions), when some row carries a
// verdict. Divisions are found by their logics.
func modelVerdicts(rep *Report, rows []Row, reg Registry) {
	if rep.Track != benchmark.ModelValidation {
		return
	}
	has := false
	for i := range rows {
		if rows[i].Model() != "" {
			has = true
			break
		}
	}
	if !has {
		return
	}
	divOf := map[string]int{}
	for i, d := range rep.Divisions {
		for _, l := range d.Logics {
			divOf[l.Logic] = i
		}
	}
	by := make([]map[string]*SolverVerdicts, len(rep.Divisions))
	for i := range rows {
		r := &rows[i]
		di, ok := divOf[benchmark.LogicOfPath(r.Benchmark)]
		if !ok {
			continue
		}
		if by[di] == nil {
			by[di] = map[string]*SolverVerdicts{}
		}
		name := reg.lookup(r.Solver).Name
		sv := by[di][name]
		if sv == nil {
			sv = &SolverVerdicts{Solver: name, Verdicts: map[string]int{}}
			by[di][name] = sv
		}
		sv.Results++
		key := r.Model()
		switch key {
		case "VALID":
			sv.Valid++
		case "INVALID":
			sv.Invalid++
		case "UNKNOWN":
			sv.Unknown++
		case "":
			key = NoVerdict
		}
		if reason := r.ModelReason(); reason != "" && key != NoVerdict {
			key += " " + reason
		}
		sv.Verdicts[key]++
	}
	for di, m := range by {
		if m == nil {
			continue
		}
		out := make([]SolverVerdicts, 0, len(m))
		for _, sv := range m {
			out = append(out, *sv)
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].Valid != out[j].Valid {
				return out[i].Valid > out[j].Valid
			}
			return out[i].Solver < out[j].Solver
		})
		rep.Divisions[di].Verdicts = out
	}
}

// VerdictList writes a solver's verdict counts in order, e.g.
// "VALID: 3, INVALID bad-model: 1, UNKNOWN no-output: 2".
func (sv SolverVerdicts) VerdictList(sep string) string {
	keys := sortedKeys(sv.Verdicts)
	sort.SliceStable(keys, func(i, j int) bool { return verdictOrder(keys[i]) < verdictOrder(keys[j]) })
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+strconv.Itoa(sv.Verdicts[k]))
	}
	return strings.Join(parts, sep)
}

// verdictOrder puts VALID first, then INVALID, UNKNOWN, the others and
// NoVerdict last.
func verdictOrder(k string) int {
	v, _, _ := strings.Cut(k, " ")
	switch v {
	case "VALID":
		return 0
	case "INVALID":
		return 1
	case "UNKNOWN":
		return 2
	case NoVerdict:
		return 4
	}
	return 3
}

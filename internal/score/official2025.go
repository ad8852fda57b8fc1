package score

import (
	"sort"
	"strings"
)

// What the smtcomp tool does differently from 2025 on, on top of the
// computation of 2024 (official2024.go). Source: SMT-COMP/smt-comp.github.io
// smtcomp/generate_website_page.py at commit
// 061c204f4056bdb5a6017241baf5a5ea33e3062e (the version that stamps its
// pages with resultdate 2025-08-11, the day the 2025 results were
// published), against the 2024 version the shared 2024 pages were made by:
//
//   - podium_steps marks a solver competing "yes" only when it is one of
//     Config.competitive_solvers (the submissions with "competitive": true;
//     the base solvers that derived solvers had to bring along in 2025 are
//     "competitive": false), and lists the competitive solvers first, then
//     the others, each in ranking order; the biggest lead takes the first
//     two of that list;
//   - get_winner takes the first competitive solver of the ranking, and
//     "-" when there is none or its correct score is 0;
//   - is_competitive_division: a division (or logic) is competitive when
//     the solvers with results there (competitive or not) come from at
//     least two families, a family being the solver's name up to its first
//     "-", lower-cased ("Z3-Owl" and "z3siri" are two, "Z3-Owl" and
//     "Z3-alpha" one);
//   - each solver line names its base solver (Config.baseSolverMap2025) and
//     the difference of correct scores with the base's line of the same
//     ranking (0 when the base has none); the page records gain
//     is_competitive, baseSolver and deltaBaseSolver (export2024.go).

// competitiveFirst reorders a ranking as podium_steps lists it: the
// competitive solvers, then the others, each in their order.
func competitiveFirst(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Competitive && !es[j].Competitive })
}

// winner is a ranking's winner: the first entry (2024: every solver
// competes) or the first competitive one (2025 on), if its correct score
// is not 0.
func (s *score2024) winner(es []Entry) string {
	for _, e := range es {
		if s.y25 && !e.Competitive {
			continue
		}
		if e.Correct != 0 {
			return e.Solver
		}
		return ""
	}
	return ""
}

// family is is_competitive_division's family of a solver: its name up to
// the first "-", lower-cased.
func family(solver string) string {
	f, _, _ := strings.Cut(solver, "-")
	return strings.ToLower(f)
}

// families counts the families of the solvers of the rows idx.
func (s *score2024) families(idx []int32) int {
	seen := map[string]bool{}
	for _, i := range idx {
		seen[family(s.solvers[s.rows[i].solver])] = true
	}
	return len(seen)
}

// contributorsCompetitiveFirst orders a division's largest-contribution
// lines as the tool's podium_steps lists the solver-less virtual solvers
// (competitive solvers first), which decides the order of lines the sort
// leaves tied.
func (s *score2024) contributorsCompetitiveFirst(lines []Contribution) {
	comp := map[string]bool{}
	for i, n := range s.solvers {
		comp[n] = s.comp[i]
	}
	sort.SliceStable(lines, func(i, j int) bool { return comp[lines[i].Solver] && !comp[lines[j].Solver] })
}

// baseDelta is a line's base solver and its correct score minus the base's
// in the same ranking (podium_steps); "" and 0 without a base, 0 when the
// base has no line there.
func baseDelta(bases map[string]string, r *Ranking, e *Entry) (string, int64) {
	b := bases[e.Solver]
	if b == "" {
		return "", 0
	}
	for i := range r.Entries {
		if r.Entries[i].Solver == b {
			return b, int64(e.Correct) - int64(r.Entries[i].Correct)
		}
	}
	return b, 0
}

// OfficialResultDate is the resultdate the smtcomp tool wrote into every
// page of a year (make_podium and the cross-division records): 2024-07-08
// (the shared 2024 pages: "Results were generated on 2024-07-08"),
// 2025-08-11 (generate_website_page.py at 061c204f); "" for other years.
func OfficialResultDate(year int) string {
	switch year {
	case 2024:
		return "2024-07-08"
	case 2025:
		return "2025-08-11"
	}
	return ""
}

package score_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/score"
)

// compatDiffs lists, per division, where the rules as written and the
// official computation give other numbers on the same rows.
func compatDiffs(rules, official *score.Report) map[string][]string {
	out := map[string][]string{}
	od := map[string]*score.Division{}
	for i := range official.Divisions {
		od[official.Divisions[i].Name] = &official.Divisions[i]
	}
	for i := range rules.Divisions {
		d := &rules.Divisions[i]
		o := od[d.Name]
		for _, r := range d.Rankings {
			or := o.Ranking(r.Kind)
			if r.Winner != or.Winner {
				out[d.Name] = append(out[d.Name], fmt.Sprintf("%s winner %q, officially %q", r.Kind, r.Winner, or.Winner))
			}
			oe := map[string]score.Entry{}
			for _, e := range or.Entries {
				oe[e.Solver] = e
			}
			var ro, oo []string
			for j, e := range r.Entries {
				ro = append(ro, e.Solver)
				oo = append(oo, or.Entries[j].Solver)
				x := oe[e.Solver]
				for _, f := range []struct {
					name string
					a, b float64
				}{{"e", e.Error, x.Error}, {"n", e.Correct, x.Correct}, {"c", e.CPU, x.CPU}, {"w", e.Wall, x.Wall},
					{"timeout", float64(e.Timeout), float64(x.Timeout)}} {
					if fmt.Sprintf("%.3f", f.a) != fmt.Sprintf("%.3f", f.b) {
						out[d.Name] = append(out[d.Name], fmt.Sprintf("%s %s %s %.3f, officially %.3f", r.Kind, e.Solver, f.name, f.a, f.b))
					}
				}
			}
			if strings.Join(ro, ",") != strings.Join(oo, ",") {
				out[d.Name] = append(out[d.Name], fmt.Sprintf("%s order %v, officially %v", r.Kind, ro, oo))
			}
		}
	}
	for _, k := range rules.Kinds {
		bl := func(ls []score.Lead) []string {
			var out []string
			for _, l := range ls {
				out = append(out, fmt.Sprintf("%s:%s>%s %.8f %.8f", l.Division, l.First, l.Second, l.Correctness, l.Time))
			}
			return out
		}
		lc := func(cs []score.Contribution) []string {
			var out []string
			for _, c := range cs {
				out = append(out, fmt.Sprintf("%s:%s %.8f %.8f", c.Division, c.Solver, c.Correctness, c.Time))
			}
			return out
		}
		a, b := bl(rules.BiggestLead[k]), bl(official.BiggestLead[k])
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			out["biggest lead"] = append(out["biggest lead"], fmt.Sprintf("%s:\n    %s\n  officially\n    %s", k, strings.Join(a, "\n    "), strings.Join(b, "\n    ")))
		}
		a, b = lc(rules.LargestContribution[k]), lc(official.LargestContribution[k])
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			out["largest contribution"] = append(out["largest contribution"], fmt.Sprintf("%s:\n    %s\n  officially\n    %s", k, strings.Join(a, "\n    "), strings.Join(b, "\n    ")))
		}
	}
	return out
}

// The departures docs/scoring.md lists, as they show in the 2019 data:
// each is a line of compatDiffs' output for a track and division.
var documented2019 = []struct{ track, division, diff string }{
	{"model-validation", "QF_BV", "parallel Boolector e 19.000, officially 0.000"},
	{"model-validation", "QF_BV", `sequential winner "Minkeyrink Solver MT", officially "Boolector"`},
	{"incremental", "LRA", `parallel winner "CVC4-inc", officially ""`},
	{"unsat-core", "AUFNIA", `parallel winner "UltimateEliminator+Yices-2.6.1", officially ""`},
	{"unsat-core", "AUFLIA", "parallel UltimateEliminator+SMTInterpol c 251676.898, officially 107468.218"},
	{"incremental", "QF_BV", "parallel Minkeyrink Solver MT c 87500.519, officially 48178.659"},
	{"unsat-core", "QF_LIRA", "sequential CVC4-uc c 1160.165, officially 2409.745"},
	{"unsat-core", "AUFNIA", "sequential Z3 w 7200.000, officially 7200.070"},
	{"incremental", "biggest lead", "LRA:CVC4-inc>SMTInterpol 1.00000000 1.80845459"},
	{"incremental", "largest contribution", "UFLRA:CVC4-inc 0.04053106 0.07901901"},
	{"incremental", "largest contribution", "UFLRA:CVC4-inc 0.04057221 0.00000000"},
}

func TestCompat2019(t *testing.T) {
	rows, reg := load2019(t)
	found := map[int]bool{}
	for _, tr := range tracks2019 {
		o := score.Options{Rules: 2019, Year: 2019, Track: tr.track, Solvers: reg}
		rules, err := score.Score(rows[tr.track], o)
		if err != nil {
			t.Fatal(err)
		}
		o.Compat = score.Official
		official, err := score.Score(rows[tr.track], o)
		if err != nil {
			t.Fatal(err)
		}
		diffs := compatDiffs(rules, official)
		divs := make([]string, 0, len(diffs))
		for d := range diffs {
			divs = append(divs, d)
		}
		sort.Strings(divs)
		for _, d := range divs {
			t.Logf("%s %s:\n  %s", tr.track, d, strings.Join(diffs[d], "\n  "))
			for i, doc := range documented2019 {
				if doc.track == string(tr.track) && doc.division == d && strings.Contains(strings.Join(diffs[d], "\n"), doc.diff) {
					found[i] = true
				}
			}
		}
	}
	for i, doc := range documented2019 {
		if !found[i] {
			t.Errorf("documented departure not seen: %s %s: %s", doc.track, doc.division, doc.diff)
		}
	}
}

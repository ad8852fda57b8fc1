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

func TestCompat2019(t *testing.T) {
	rows, reg := load2019(t)
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
		}
	}
}

package score_test

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
)

// entryOf finds a solver's entry in a division's ranking of a kind.
func entryOf(rep *score.Report, division string, k score.Kind, solver string) (score.Entry, bool) {
	for i := range rep.Divisions {
		if rep.Divisions[i].Name != division {
			continue
		}
		if r := rep.Divisions[i].Ranking(k); r != nil {
			for _, e := range r.Entries {
				if e.Solver == solver {
					return e, true
				}
			}
		}
	}
	return score.Entry{}, false
}

// TestCompat2020 checks that the departures of the official 2020
// computation that docs/scoring.md says show on the 2020 data (24, 27)
// do show there, with the values it gives.
func TestCompat2020(t *testing.T) {
	d := load2020(t)
	opts := func(tr benchmark.Track, compat score.Compat, year int) score.Options {
		return score.Options{Rules: 2020, Year: year, TimeLimit: 1200, Track: tr, Compat: compat, Solvers: d.reg,
			Exclude: d.exclude[tr], Experimental: d.exp[tr]}
	}
	// 16: the 2019 unsat-core job is not scored officially.
	uc := d.rows[benchmark.UnsatCore]
	all := make([]score.Row, len(uc))
	copy(all, uc)
	for i := range all {
		// as if the three exports were one; a Source of its own, since
		// uc's rows share theirs
		all[i].Source = all[i].Source.Clone()
		all[i].EditSource().Job = ""
	}
	off, err := score.Score(uc, opts(benchmark.UnsatCore, score.Official, 2020))
	if err != nil {
		t.Fatal(err)
	}
	joined, err := score.Score(all, opts(benchmark.UnsatCore, score.Official, 2020))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := entryOf(off, "LIA", score.Sequential, "2018-Z3 (unsat core)"); ok {
		t.Error("16: 2018-Z3 (unsat core) on the official LIA unsat-core page")
	}
	if e, ok := entryOf(joined, "LIA", score.Sequential, "2018-Z3 (unsat core)"); !ok || e.Correct != 9 || e.CPU < 3572.45 || e.CPU > 3572.47 {
		t.Errorf("16: with every job, LIA 2018-Z3 (unsat core) %+v (%t), want n 9, c 3572.460", e, ok)
	}
	// 19: model-validation errors, 2020's rule against the rules as
	// written and against 2019's.
	mv := d.rows[benchmark.ModelValidation]
	off, err = score.Score(mv, opts(benchmark.ModelValidation, score.Official, 2020))
	if err != nil {
		t.Fatal(err)
	}
	written, err := score.Score(mv, opts(benchmark.ModelValidation, score.AsWritten, 2020))
	if err != nil {
		t.Fatal(err)
	}
	rule2019, err := score.Score(mv, opts(benchmark.ModelValidation, score.Official, 2019))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rep             *score.Report
		what, div, name string
		k               score.Kind
		e               float64
	}{
		{off, "officially", "QF_BV", "Bitwuzla", score.Parallel, 0},
		{written, "as written", "QF_BV", "Bitwuzla", score.Parallel, 21},
		{off, "officially", "QF_BV", "MathSAT5-mv", score.Sequential, 104},
		{rule2019, "by the 2019 rule", "QF_BV", "MathSAT5-mv", score.Sequential, 0},
		{off, "officially", "QF_LRA", "SMTInterpol", score.Sequential, 2},
		{rule2019, "by the 2019 rule", "QF_LRA", "SMTInterpol", score.Sequential, 0},
		{written, "as written", "QF_LIA", "SMTInterpol", score.Parallel, 258},
	} {
		if e, ok := entryOf(c.rep, c.div, c.k, c.name); !ok || e.Error != c.e {
			t.Errorf("19: %s %s %s %s: errorScore %v (%t), want %v", c.what, c.div, c.name, c.k, e.Error, ok, c.e)
		}
	}
}

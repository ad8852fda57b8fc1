package score

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official script's departures (docs/scoring.md), one constructed
// example each.
func TestOfficialCompat(t *testing.T) {
	b := "QF_UF/f/1.smt2"
	rows := []Row{
		{Solver: "mem", Benchmark: "non-incremental/" + b, Status: "memout", Answer: "--", Expected: "unsat", CPU: 100, Wall: 90},
		{Solver: "par", Benchmark: "non-incremental/" + b, Status: "timeout (wallclock)", Answer: "unsat", Expected: "unsat", CPU: 9000, Wall: 2400.2},
		{Solver: "seq", Benchmark: "non-incremental/" + b, Status: "complete", Answer: "unknown", Expected: "unsat", CPU: 10, Wall: 2400.5},
	}
	o := Options{Rules: 2019, Year: 2019, TimeLimit: 2400}
	rules := mustScore(t, rows, o)
	o.Compat = Official
	official := mustScore(t, rows, o)
	// 4. A memout costs T in both times.
	if e := entry(t, official, "QF_UF", Parallel, "mem"); e.CPU != 2400 || e.Wall != 2400 || e.Memout != 1 {
		t.Errorf("official memout %+v", e)
	}
	if e := entry(t, rules, "QF_UF", Parallel, "mem"); e.CPU != 100 || e.Wall != 90 {
		t.Errorf("memout as written %+v", e)
	}
	// 3, 11. Over the wall limit: officially no answer and c = T; as
	// written the answer counts and c ≤ mT.
	if e := entry(t, official, "QF_UF", Parallel, "par"); e.Correct != 0 || e.CPU != 2400 || e.Wall != 2400 {
		t.Errorf("official over the limit %+v", e)
	}
	if e := entry(t, rules, "QF_UF", Parallel, "par"); e.Correct != 1 || e.CPU != 9000 || e.Wall != 2400 {
		t.Errorf("over the limit as written %+v", e)
	}
	// 5. Sequential wall time: officially as measured while c ≤ T.
	if e := entry(t, official, "QF_UF", Sequential, "seq"); e.Wall != 2400.5 {
		t.Errorf("official sequential wall %+v", e)
	}
	if e := entry(t, rules, "QF_UF", Sequential, "seq"); e.Wall != 2400 {
		t.Errorf("sequential wall as written %+v", e)
	}
	// 2. Officially no winner when nothing was solved.
	none := []Row{sq("x", b, "unknown", "unsat", 1, 1), sq("y", b, "unknown", "unsat", 2, 2)}
	if w := ranking(t, mustScore(t, none, Options{Rules: 2019, Compat: Official}), "QF_UF", Parallel).Winner; w != "" {
		t.Errorf("official winner with nothing solved: %q", w)
	}
	if w := ranking(t, mustScore(t, none, Options{Rules: 2019}), "QF_UF", Parallel).Winner; w != "x" {
		t.Errorf("winner as written: %q", w)
	}
	// 9. Ties: officially by solver id, one rank each counting only
	// competitive solvers.
	tie := []Row{sq("20", b, "unsat", "unsat", 1, 1), sq("3", b, "unsat", "unsat", 1, 1)}
	r := ranking(t, mustScore(t, tie, Options{Rules: 2019, Compat: Official}), "QF_UF", Parallel)
	if order(r) != "3,20" || r.Entries[0].Rank != 1 || r.Entries[1].Rank != 2 || r.Winner != "3" {
		t.Errorf("official tie %+v", r)
	}
	// 10. Officially disagreements are removed on every track, by the
	// path below the logic in every division.
	dis := []Row{
		{Solver: "a", Benchmark: "non-incremental/QF_BV/f/u.smt2", Answer: "sat", Expected: "unknown", Source: &RowSource{Model: "VALID"}},
		{Solver: "b", Benchmark: "non-incremental/QF_BV/f/u.smt2", Answer: "unsat", Expected: "unknown"},
		{Solver: "a", Benchmark: "non-incremental/QF_ABV/f/u.smt2", Answer: "sat", Expected: "sat", Source: &RowSource{Model: "VALID"}},
	}
	rep := mustScore(t, dis, Options{Rules: 2019, Track: benchmark.ModelValidation, Compat: Official})
	if len(rep.Disagreements) != 1 || len(rep.Divisions) != 0 {
		t.Errorf("official disagreements %+v, divisions %d", rep.Disagreements, len(rep.Divisions))
	}
}

// 2018 §7.2 unsat-core track: e = 1 when erroneous (a sat answer, a core
// that is not unsatisfiable), else n = A minus the core's size; weighted
// like the main track, with a sequential score.
func TestUnsatCore2018(t *testing.T) {
	rows := []Row{
		{Solver: "a", Benchmark: "non-incremental/QF_UF/f1/1.smt2", Answer: "unsat", Expected: "unsat", Reduction: 10, CPU: 1, Wall: 1},
		{Solver: "a", Benchmark: "non-incremental/QF_UF/f2/2.smt2", Answer: "sat", Expected: "unsat", CPU: 1, Wall: 1},
		{Solver: "b", Benchmark: "non-incremental/QF_UF/f1/1.smt2", Answer: "unsat", Expected: "unsat", Reduction: 4, CPU: 1, Wall: 1},
	}
	rep := mustScore(t, rows, Options{Rules: 2018, Track: benchmark.UnsatCore})
	if len(rep.Kinds) != 2 {
		t.Errorf("kinds %v", rep.Kinds)
	}
	// Two families of one benchmark each: α' = 1/2, N = 2.
	a, b := entry(t, rep, "QF_UF", Sequential, "a"), entry(t, rep, "QF_UF", Sequential, "b")
	if a.Error != 1 || a.Correct != 10 || b.Correct != 4 || ranking(t, rep, "QF_UF", Sequential).Winner != "b" {
		t.Errorf("a %+v b %+v", a, b)
	}
}

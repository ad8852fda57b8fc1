package score

import (
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official computation of the AWS tracks (official2022.go), one
// constructed example per departure, in the years that have it and not
// in the others.
func TestOfficialAWS(t *testing.T) {
	lia, idl := "non-incremental/QF_LIA/f/a.smt2", "non-incremental/QF_IDL/g/b.smt2"
	rows := []Row{
		// A known-status benchmark the solver did not answer, written as
		// AWS wrote it.
		{Solver: "A", Benchmark: lia, Status: "complete", Answer: "timeout", Expected: "sat", CPU: 1200, Wall: 1200},
		{Solver: "B", Benchmark: lia, Status: "complete", Answer: "sat", Expected: "sat", CPU: 10, Wall: 10},
		// The same solver and benchmark twice (2022's raw-results-cloud.csv
		// has 34 such rows): both count.
		{Solver: "A", Benchmark: idl, Status: "complete", Answer: "unsat", Expected: "unknown", CPU: 5, Wall: 5},
		{Solver: "A", Benchmark: idl, Status: "complete", Answer: "unsat", Expected: "unknown", CPU: 30, Wall: 30},
		{Solver: "B", Benchmark: idl, Status: "complete", Answer: "error", Expected: "unknown", CPU: 100, Wall: 100},
	}
	divs := map[string][]string{"QF_LinearIntArith": {"QF_LIA", "QF_IDL"}, "QF_LinearRealArith": {"QF_LRA"}}
	for _, tc := range []struct {
		year                int
		aErr                float64 // A's parallel error score (timeout taken for an answer)
		aWall, a24Wall      float64
		bWall               float64
		logicPages, listOne bool
	}{
		{2022, 1, 1235, 24 + 5 + 24, 110, true, true},
		{2023, 0, 35, 5, 10, true, true},
		{2021, 0, 1235, 24 + 5 + 24, 110, true, true},
		{2019, 0, 1235, 24 + 5 + 24, 110, false, false},
	} {
		for _, tr := range []benchmark.Track{benchmark.Cloud, benchmark.Parallel} {
			rep := mustScore(t, rows, Options{Rules: 2022, Year: tc.year, Track: tr, Compat: Official, Divisions: divs})
			a := entry(t, rep, "QF_LinearIntArith", Parallel, "A")
			if a.Error != tc.aErr || a.Wall != tc.aWall || a.Solved != 2 || a.Unsolved != 1 {
				t.Errorf("%d %s: A %+v, want error %v, wall %v, 2 solved (a repeated row counts twice), 1 unsolved", tc.year, tr, a, tc.aErr, tc.aWall)
			}
			if a24 := entry(t, rep, "QF_LinearIntArith", TwentyFour, "A"); a24.Wall != tc.a24Wall || a24.Error != 0 || a24.Timeout != 2 {
				t.Errorf("%d %s: A's 24 s score %+v, want wall %v, 2 timeouts", tc.year, tr, a24, tc.a24Wall)
			}
			if b := entry(t, rep, "QF_LinearIntArith", Parallel, "B"); b.Wall != tc.bWall || b.Error != 0 {
				t.Errorf("%d %s: B %+v, want wall %v and no error (no known status)", tc.year, tr, b, tc.bWall)
			}
			pages := map[string]string{}
			for _, p := range Pages(rep, "") {
				pages[p.Name] = p.Text
			}
			suffix := "-" + string(tr) + ".md"
			_, hasLogic := pages["QF_LIA"+suffix]
			if hasLogic != tc.logicPages {
				t.Errorf("%d %s: a page of the logic QF_LIA: %v, want %v", tc.year, tr, hasLogic, tc.logicPages)
			}
			div := pages["QF_LinearIntArith"+suffix]
			// Two benchmarks, three rows of A: abstained is 2 - 3 = -1.
			if tc.logicPages && (!strings.Contains(div, "logics:\n- QF_LIA: 1\n  QF_IDL: 1\n") || !strings.Contains(div, "mem_limit: N/A\n") ||
				!strings.Contains(div, "  unsolved: 1\n  abstained: -1\n")) {
				t.Errorf("%d %s: division page\n%s", tc.year, tr, div)
			}
			if tc.logicPages && strings.Contains(pages["QF_LIA"+suffix], "logics:") {
				t.Errorf("%d %s: a logic's page lists logics", tc.year, tr)
			}
		}
	}
	// One logic of a division: listed on the division's page.
	rep := mustScore(t, rows[:2], Options{Rules: 2022, Year: 2022, Track: benchmark.Cloud, Compat: Official, Divisions: divs})
	for _, p := range Pages(rep, "") {
		if p.Name == "QF_LinearIntArith-cloud.md" && !strings.Contains(p.Text, "logics:\n- QF_LIA: 1\n\n") {
			t.Errorf("a division of one logic:\n%s", p.Text)
		}
	}
	// As written, the AWS strings are no answers and a run's time counts.
	w := mustScore(t, rows, Options{Rules: 2022, Year: 2022, Track: benchmark.Cloud, Divisions: divs})
	if a := entry(t, w, "QF_LinearIntArith", Parallel, "A"); a.Error != 0 {
		t.Errorf("as written, a timeout string is an error: %+v", a)
	}
}

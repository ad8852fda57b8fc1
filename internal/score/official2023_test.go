package score

import (
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// 2023's model-validation runs were validated again locally; every run of
// a job that its fix-results list does not name became a validated sat
// answer (merge_local_results_mv.py).
func TestFixResults2023(t *testing.T) {
	// fix-results-59579.csv.gz: benchmark, solver, configuration, no
	// header (the script reads every line as a key).
	list := "Competition - Model Validation Track/QF_BV/f/a.smt2,Bitwuzla,default\n"
	ex, err := ParseExclusion("2023/results/fix-results-59579.csv.gz", strings.NewReader(list))
	if err != nil || ex.Job != "59579" || len(ex.NotProved) != 1 {
		t.Fatalf("%+v %v", ex, err)
	}
	a, b := "non-incremental/QF_BV/f/a.smt2", "non-incremental/QF_BV/f/b.smt2"
	row := func(bench, job, status, answer, model string) Row {
		return Row{Solver: "44001", Benchmark: bench, Status: status, Answer: answer, Expected: "sat", CPU: 1, Wall: 1,
			Source: &RowSource{Name: "Bitwuzla", ConfigName: "default", Job: job, Model: model, ModelError: "unhandled_exception"}}
	}
	rows := []Row{
		row(a, "Job59579/Job59579_info.csv", "complete", "sat", "INVALID"),           // not proved: as it was
		row(b, "Job59579/Job59579_info.csv", "timeout (wallclock)", "--", "INVALID"), // proved locally
		row(b, "Job59619/Job59619_info.csv", "complete", "sat", "INVALID"),           // another job's run
	}
	kept, counts := applyExclusions(rows, []Exclusion{ex})
	if counts[0].Rows != 1 || kept[0].Model() != "INVALID" || kept[1].Model() != "VALID" || kept[1].Answer != "sat" ||
		kept[1].Status != "complete" || kept[1].ModelError() != "-" || kept[2].Model() != "INVALID" {
		t.Errorf("patched %+v, rows %+v", counts, kept)
	}
	if rows[1].Model() != "INVALID" || rows[1].ModelError() != "unhandled_exception" {
		t.Errorf("patching changed the row it copied: %+v", rows[1])
	}
	rep, err := Score(rows, Options{Rules: 2023, Year: 2023, Track: benchmark.ModelValidation, Compat: Official, Exclude: []Exclusion{ex}})
	if err != nil {
		t.Fatal(err)
	}
	if e := entry(t, rep, "QF_BV", Parallel, "44001"); e.Correct != 1 {
		t.Errorf("Bitwuzla %+v, want the run proved locally solved", e)
	}
	if _, err := Score(rows, Options{Rules: 2023, Year: 2023, Track: benchmark.SingleQuery, Compat: Official, Exclude: []Exclusion{ex}}); err == nil {
		t.Errorf("a fix-results list on the single-query track: no error")
	}
}

// score.py marks experimental divisions on the largest-contribution page's
// sequential and parallel lines only; the sat, unsat and 24 s lines are
// written without --expdivs, though their winners skip those divisions.
func TestContributionExperimentalLines(t *testing.T) {
	rep := &Report{Year: 2021, Compat: Official, Kinds: []Kind{Parallel, Sat}, Experimental: map[string]bool{"X": true},
		LargestContribution: map[Kind][]Contribution{Parallel: {{Division: "X", Solver: "s"}}, Sat: {{Division: "X", Solver: "s"}}}}
	p := contributionPage(rep, "d")
	if !strings.Contains(p, "parallel:\n- name: s\n  correctScore: 0.00000000\n  timeScore: 0.00000000\n  division: X\n  experimental: true\n") ||
		!strings.Contains(p, "sat:\n- name: s\n  correctScore: 0.00000000\n  timeScore: 0.00000000\n  division: X\n  experimental: false\n") ||
		!strings.Contains(p, `winner_sat: "-"`) {
		t.Errorf("page:\n%s", p)
	}
	if got := OfficialExperimental(2023, benchmark.ModelValidation); len(got) != 1 || got[0] != "QF_FPArith" {
		t.Errorf("2023: %v", got)
	}
}

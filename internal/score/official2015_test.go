package score

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// starexecRow builds a row as `smtarena import` stores a 2015-2018
// StarExec export row: the solver column as the solver, the ids and the
// track's own columns in Extra.
func starexecRow(t *testing.T, solver, id, bench, status, answer, expected string, cpu, wall float64, extra map[string]string) Row {
	t.Helper()
	x := map[string]string{"solver id": id, "pair id": bench + "/" + id}
	for k, v := range extra {
		x[k] = v
	}
	j, _ := json.Marshal(x)
	r, err := RowOf(solver, bench, status, answer, expected, cpu, wall, string(j))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func winnerOf(t *testing.T, rep *Report, div string, k Kind) string {
	t.Helper()
	for _, d := range rep.Divisions {
		if d.Name == div {
			return d.Ranking(k).Winner
		}
	}
	t.Fatalf("no division %s", div)
	return ""
}

// The application track of 2015-2018 (compute_app_html.ml): e = 1 and
// n = 0 on a wrong answer, measured times, winner among two competitive
// solvers whatever it solved; score.py (2019 on) differs on each.
func TestOfficial2018Application(t *testing.T) {
	app := func(solver, id, bench, status string, correct, wrong int, cpu, wall float64) Row {
		// Application_Track.tar.xz: pair id, benchmark, benchmark id,
		// solver, solver id, configuration, configuration id, status, cpu
		// time, wallclock time, memory usage, result, wrong-answers,
		// correct-answers (compute_app_html.ml's col_names).
		return starexecRow(t, solver, id, bench, status, "--", "", cpu, wall, map[string]string{
			"correct-answers": itoa(correct), "wrong-answers": itoa(wrong), "num_check_sat": "10"})
	}
	a, b := "incremental/QF_LIA/f/a.smt2", "incremental/QF_LIA/f/b.smt2"
	rows := []Row{
		app("Yices", "1", a, "complete", 10, 0, 100, 90),
		app("Yices", "1", b, "memout", 5, 0, 50, 2500),
		app("CVC4", "2", a, "complete", 10, 1, 10, 10),
		app("CVC4", "2", b, "complete", 10, 0, 10, 10),
		app("Z3", "3", a, "complete", 10, 0, 1, 1),
		app("Z3", "3", b, "complete", 10, 0, 1, 1),
	}
	reg := Registry{"Yices": {Name: "Yices", Competitive: true}, "CVC4": {Name: "CVC4", Competitive: true},
		"Z3": {Name: "Z3"}}
	for _, rules := range []int{2018, 2014} {
		rep := mustScore(t, rows, Options{Rules: rules, Year: 2018, Track: benchmark.Incremental, Compat: Official, Solvers: reg})
		if len(rep.Kinds) != 1 || rep.Kinds[0] != Parallel || rep.TimeLimit != 2400 {
			t.Fatalf("rules %d: kinds %v, T %v; want the parallel score only, 2400 s", rules, rep.Kinds, rep.TimeLimit)
		}
		y := entry(t, rep, "QF_LIA", Parallel, "Yices")
		if y.Correct != 15 || y.Error != 0 || y.Wall != 2590 || y.CPU != 150 || y.Memout != 1 {
			t.Errorf("rules %d: Yices %+v, want n 15, wall 2590, CPU 150 (no memout or limit penalty)", rules, y)
		}
		c := entry(t, rep, "QF_LIA", Parallel, "CVC4")
		if c.Error != 1 || c.Correct != 10 {
			t.Errorf("rules %d: CVC4 %+v, want e 1 and n 10 (the wrong run scores e = 1, n = 0)", rules, c)
		}
		if w := winnerOf(t, rep, "QF_LIA", Parallel); w != "Yices" {
			t.Errorf("rules %d: winner %q, want Yices (Z3 is not competitive)", rules, w)
		}
	}
	// score.py's reading (2019 on): e = wrong answers, n the correct ones,
	// a memout costs T.
	rep := mustScore(t, rows, Options{Rules: 2018, Year: 2019, Track: benchmark.Incremental, Compat: Official, Solvers: reg, TimeLimit: 2400})
	if c := entry(t, rep, "QF_LIA", Parallel, "2"); c.Error != 1 || c.Correct != 20 {
		t.Errorf("2019 reading: CVC4 %+v, want e 1, n 20", c)
	}
	// One competitive solver: no winner, whatever it solved.
	one := mustScore(t, rows, Options{Rules: 2018, Year: 2018, Track: benchmark.Incremental, Compat: Official,
		Solvers: Registry{"Yices": {Name: "Yices", Competitive: true}, "CVC4": {Name: "CVC4"}, "Z3": {Name: "Z3"}}})
	if w := winnerOf(t, one, "QF_LIA", Parallel); w != "" {
		t.Errorf("one competitive solver: winner %q, want none", w)
	}
}

// The main track of 2015-2018 (competition.ml, scoring.ml).
func TestOfficial2018Main(t *testing.T) {
	const T = 1200
	main := func(solver, id, bench, status, answer, expected string, cpu, wall float64) Row {
		// Main track exports: pair id, benchmark, benchmark id, solver,
		// solver id, configuration, configuration id, status, cpu time,
		// wallclock time, memory usage, result, expected.
		return starexecRow(t, solver, id, bench, status, answer, expected, cpu, wall, nil)
	}
	f1a, f1b, f2c := "non-incremental/QF_UF/f1/a.smt2", "non-incremental/QF_UF/f1/b.smt2", "non-incremental/QF_UF/f2/c.smt2"
	unk := "non-incremental/QF_UF/f2/u.smt2"
	rows := []Row{
		// A: CPU time over T on a solved benchmark (a parallel solver):
		// solved in the parallel score, not in the sequential one.
		main("A", "11", f1a, "complete", "sat", "sat", 4000, 1100),
		main("A", "11", f1b, "complete", "unsat", "unsat", 10, 10),
		main("A", "11", f2c, "timeout (wallclock)", "unsat", "unsat", 1300, 1250),
		main("A", "11", unk, "complete", "sat", "unknown", 1, 1),
		// B: a run script error is pending, neither right nor wrong.
		main("B", "12", f1a, "run script error", "sat", "sat", 5, 5),
		main("B", "12", f1b, "complete", "unsat", "unsat", 20, 20),
		main("B", "12", f2c, "complete", "starexec-unknown", "unsat", 30, 30),
		main("B", "12", unk, "complete", "unsat", "unknown", 1, 1),
		// C: unsound (a wrong answer on a known status), so its answer on
		// the unknown benchmark does not make a disagreement.
		main("C", "13", f1a, "complete", "unsat", "sat", 1, 1),
		main("C", "13", unk, "complete", "unsat", "unknown", 1, 1),
	}
	for _, year := range []int{2018, 2015} {
		rep := mustScore(t, rows, Options{Rules: 2018, Year: year, Track: benchmark.SingleQuery, Compat: Official, TimeLimit: T})
		if year == 2015 {
			// Before 2017 unknown-status benchmarks were scored apart.
			if len(rep.Disagreements) != 0 || len(rep.Excluded) != 1 || rep.Excluded[0].Rows != 3 {
				t.Fatalf("%d: disagreements %+v, excluded %+v; want the 3 rows of %s left out", year, rep.Disagreements, rep.Excluded, unk)
			}
		} else if len(rep.Disagreements) != 1 || rep.Disagreements[0].Benchmark != unk {
			t.Fatalf("%d: disagreements %+v, want %s (A sat, B unsat)", year, rep.Disagreements, unk)
		}
		// w: a benchmark's weight on times; N*w on e and n. 2015 weighs
		// nothing.
		N := 1.0
		w := map[string]float64{f1a: 1, f1b: 1, f2c: 1}
		if year >= 2016 {
			// alpha_b = (1 + ln F_b)/F_b over the families f1 (2) and f2 (1).
			N = 3
			a1, a2 := (1+math.Log(2))/2, 1.0
			sum := 2*a1 + a2
			w = map[string]float64{f1a: a1 / sum, f1b: a1 / sum, f2c: a2 / sum}
		}
		par := entry(t, rep, "QF_UF", Parallel, "A")
		wantN := N * (w[f1a] + w[f1b] + w[f2c])
		wantWall := w[f1a]*1100 + w[f1b]*10 + w[f2c]*1250
		if !near(par.Correct, wantN) || !near(par.Wall, wantWall) || par.Timeout != 1 || par.Solved != 3 || par.Unsolved != 0 {
			t.Errorf("%d: A parallel %+v, want n %.6f (the timed-out answer counts), wall %.6f measured", year, par, wantN, wantWall)
		}
		seq := entry(t, rep, "QF_UF", Sequential, "A")
		wantSeqN := N * w[f1b]
		wantCPU := w[f1a]*T + w[f1b]*10 + w[f2c]*T
		if !near(seq.Correct, wantSeqN) || !near(seq.CPU, wantCPU) || !near(seq.Wall, wantWall) || seq.Unsolved != 2 {
			t.Errorf("%d: A sequential %+v, want n %.6f (runs over T of CPU time count nothing), CPU %.6f (cut to T), wall %.6f (as measured), 2 unsolved", year, seq, wantSeqN, wantCPU, wantWall)
		}
		b := entry(t, rep, "QF_UF", Parallel, "B")
		if b.Error != 0 || !near(b.Correct, N*w[f1b]) || b.Unsolved != 2 {
			t.Errorf("%d: B %+v, want no error, n for f1/b only, 2 unsolved of the division's 3", year, b)
		}
		if c := entry(t, rep, "QF_UF", Parallel, "C"); !near(c.Error, N*w[f1a]) {
			t.Errorf("%d: C %+v, want e %.6f", year, c, N*w[f1a])
		}
	}
	// The solver column names solvers, not the StarExec id.
	rep := mustScore(t, rows, Options{Rules: 2018, Year: 2018, Track: benchmark.SingleQuery, Compat: Official, TimeLimit: T})
	if len(rep.Divisions) != 1 || len(rep.Divisions[0].Rankings[0].Entries) != 3 || rep.Divisions[0].Rankings[0].Entries[0].Solver == "11" {
		t.Errorf("entries %+v, want A, B, C by name", rep.Divisions[0].Rankings[0].Entries)
	}
}

// Ranking and winners of 2015-2018: e and n compared at two decimals, a
// winner that solved nothing, and 2015's two teams.
func TestOfficial2018Ranking(t *testing.T) {
	m := mode{kind: Parallel}
	a := Entry{Correct: 10.001, Wall: 50}
	b := Entry{Correct: 10.004, Wall: 40}
	if legacyCompare(&m, &a, &b) <= 0 {
		t.Errorf("n 10.001 and 10.004 are equal at two decimals: the faster b must come first")
	}
	seq := mode{kind: Sequential, seq: true}
	a, b = Entry{Correct: 3, CPU: 5, Wall: 100}, Entry{Correct: 3, CPU: 6, Wall: 1}
	if legacyCompare(&seq, &a, &b) >= 0 {
		t.Errorf("sequential: CPU decides, not wall-clock time")
	}
	x := "non-incremental/QF_UF/f/x.smt2"
	rows := []Row{
		{Solver: "CVC4", Benchmark: x, Status: "complete", Answer: "starexec-unknown", Expected: "sat", CPU: 1, Wall: 1},
		{Solver: "CVC4 (exp)", Benchmark: x, Status: "complete", Answer: "starexec-unknown", Expected: "sat", CPU: 2, Wall: 2},
	}
	reg := Registry{"CVC4": {Name: "CVC4", Competitive: true, Team: "CVC4"}, "CVC4 (exp)": {Name: "CVC4 (exp)", Competitive: true, Team: "CVC4"}}
	r18 := mustScore(t, rows, Options{Rules: 2018, Year: 2018, Compat: Official, Solvers: reg})
	if w := winnerOf(t, r18, "QF_UF", Parallel); w != "CVC4" {
		t.Errorf("2018: winner %q, want CVC4 (two competitive solvers; nothing solved does not matter)", w)
	}
	r15 := mustScore(t, rows, Options{Rules: 2018, Year: 2015, Compat: Official, Solvers: reg})
	if w := winnerOf(t, r15, "QF_UF", Parallel); w != "" || r15.TimeLimit != 2400 {
		t.Errorf("2015: winner %q, T %v; want none (one team, competition.ml's families) and 2400 s", w, r15.TimeLimit)
	}
	// 2018's main track QF_SLIA was not competing (competition.ml).
	slia := []Row{
		{Solver: "CVC4", Benchmark: "non-incremental/QF_SLIA/f/x.smt2", Status: "complete", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1},
		{Solver: "Z3str", Benchmark: "non-incremental/QF_SLIA/f/x.smt2", Status: "complete", Answer: "sat", Expected: "sat", CPU: 2, Wall: 2},
	}
	if w := winnerOf(t, mustScore(t, slia, Options{Rules: 2018, Year: 2018, Compat: Official}), "QF_SLIA", Sequential); w != "" {
		t.Errorf("2018 QF_SLIA: winner %q, want none", w)
	}
	// score.py (2019 on) names no winner that solved nothing.
	r19 := mustScore(t, rows, Options{Rules: 2018, Year: 2019, Compat: Official, Solvers: reg})
	if w := winnerOf(t, r19, "QF_UF", Parallel); w != "" {
		t.Errorf("2019: winner %q, want none", w)
	}
}

// The unsat-core track of 2016-2018 (compute_ucore_html.ml).
func TestOfficial2016UnsatCore(t *testing.T) {
	uc := func(solver, id, bench, status, answer string, reduction int, erroneous, parsable string, cpu float64) Row {
		return starexecRow(t, solver, id, bench, status, answer, "unsat", cpu, cpu, map[string]string{
			"reduction": itoa(reduction), "result-is-erroneous": erroneous, "parsable-unsat-core": parsable})
	}
	a, b, c := "non-incremental/QF_LIA/f/a.smt2", "non-incremental/QF_LIA/f/b.smt2", "non-incremental/QF_LIA/g/c.smt2"
	rows := []Row{
		uc("SMTInterpol", "1", a, "complete", "unsat", 7, "0", "true", 10),
		uc("SMTInterpol", "1", b, "complete", "unsat", 3, "1", "true", 10),
		uc("SMTInterpol", "1", c, "timeout (cpu)", "unsat", 9, "0", "true", 2500),
		uc("veriT", "2", a, "complete", "sat", 0, "0", "-", 1),
		uc("veriT", "2", b, "complete", "unsat", 4, "0", "false", 1),
		uc("veriT", "2", c, "complete", "unsat", 5, "0", "true", 1),
	}
	rep := mustScore(t, rows, Options{Rules: 2018, Year: 2016, Track: benchmark.UnsatCore, Compat: Official})
	if rep.TimeLimit != 2400 {
		t.Errorf("T %v, want 2400", rep.TimeLimit)
	}
	a1, a2 := (1+math.Log(2))/2, 1.0
	sum := 2*a1 + a2
	s := entry(t, rep, "QF_LIA", Parallel, "SMTInterpol")
	if !near(s.Correct, 3*7*a1/sum) || !near(s.Error, 3*a1/sum) {
		t.Errorf("SMTInterpol %+v, want reduction %.4f (a timed-out run counts nothing), error %.4f", s, 3*7*a1/sum, 3*a1/sum)
	}
	v := entry(t, rep, "QF_LIA", Parallel, "veriT")
	if !near(v.Error, 3*2*a1/sum) || !near(v.Correct, 3*5*a2/sum) {
		t.Errorf("veriT %+v, want errors for the sat answer and the unparsable core", v)
	}
	// parsable-unsat-core "-" on an unsat answer: unparsable (the
	// program's default), an error.
	dash := []Row{uc("CVC4", "3", a, "complete", "unsat", 6, "0", "-", 1)}
	if e := entry(t, mustScore(t, dash, Options{Rules: 2018, Year: 2016, Track: benchmark.UnsatCore, Compat: Official}), "QF_LIA", Parallel, "CVC4"); e.Error != 1 || e.Correct != 0 {
		t.Errorf("CVC4 %+v, want an error", e)
	}
}

// 2017's reruns of the main track's timeouts replace every timed-out run
// of the main job (merge-2017-main-track-reruns.sh).
func TestOfficial2017Reruns(t *testing.T) {
	x, y := "non-incremental/QF_BV/f/x.smt2", "non-incremental/QF_BV/f/y.smt2"
	rows := []Row{
		{Solver: "A", Benchmark: x, Status: "timeout (wallclock)", Answer: "starexec-unknown", Expected: "sat", CPU: 1200, Wall: 1200},
		{Solver: "A", Benchmark: x, Status: "complete", Answer: "sat", Expected: "sat", CPU: 700, Wall: 700, Source: &RowSource{Rerun: true}},
		{Solver: "B", Benchmark: x, Status: "complete", Answer: "sat", Expected: "sat", CPU: 5, Wall: 5},
		{Solver: "B", Benchmark: y, Status: "timeout (cpu)", Answer: "starexec-unknown", Expected: "sat", CPU: 1200, Wall: 1200},
	}
	rep := mustScore(t, rows, Options{Rules: 2018, Year: 2017, Compat: Official})
	if a := entry(t, rep, "QF_BV", Parallel, "A"); a.Solved != 1 || a.Wall != 700 {
		t.Errorf("A %+v, want the rerun's answer and time only", a)
	}
	if len(rep.Excluded) != 1 || rep.Excluded[0].Rows != 2 {
		t.Errorf("excluded %+v, want the main job's two timeouts", rep.Excluded)
	}
	// Without reruns nothing is dropped.
	rep = mustScore(t, rows[2:], Options{Rules: 2018, Year: 2017, Compat: Official})
	if len(rep.Excluded) != 0 {
		t.Errorf("excluded %+v without reruns", rep.Excluded)
	}
}

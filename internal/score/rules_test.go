package score

import (
	"math"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// Constructed examples, one per rule, following each document's wording.

func sq(solver, bench, answer, expected string, cpu, wall float64) Row {
	return Row{Solver: solver, Benchmark: "non-incremental/" + bench, Status: "complete", Answer: answer, Expected: expected, CPU: cpu, Wall: wall}
}

func mustScore(t *testing.T, rows []Row, o Options) *Report {
	t.Helper()
	rep, err := Score(rows, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func entry(t *testing.T, rep *Report, div string, k Kind, solver string) Entry {
	t.Helper()
	for _, d := range rep.Divisions {
		if d.Name != div {
			continue
		}
		r := d.Ranking(k)
		if r == nil {
			t.Fatalf("%s has no %s score", div, k)
		}
		for _, e := range r.Entries {
			if e.Solver == solver {
				return e
			}
		}
	}
	t.Fatalf("no %s entry for %s in %s", k, solver, div)
	return Entry{}
}

func ranking(t *testing.T, rep *Report, div string, k Kind) *Ranking {
	t.Helper()
	for i := range rep.Divisions {
		if rep.Divisions[i].Name == div {
			if r := rep.Divisions[i].Ranking(k); r != nil {
				return r
			}
		}
	}
	t.Fatalf("no %s ranking of %s", k, div)
	return nil
}

func order(r *Ranking) string {
	var ns []string
	for _, e := range r.Entries {
		ns = append(ns, e.Solver)
	}
	return strings.Join(ns, ",")
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

// 2022 §7.1.2: e = 0, n = 1 for sat/unsat agreeing with the status or on
// an unknown status; e = 1 when incorrect; 0 for unknown; a response
// counts even when the process does not terminate within the limit.
func TestSingleQueryBenchmarkScore2022(t *testing.T) {
	rows := []Row{
		sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1),
		sq("a", "QF_LIA/f/2.smt2", "unsat", "sat", 1, 1),
		sq("a", "QF_LIA/f/3.smt2", "sat", "unknown", 1, 1),
		sq("a", "QF_LIA/f/4.smt2", "unknown", "unsat", 1, 1),
		{Solver: "a", Benchmark: "non-incremental/QF_LIA/f/5.smt2", Status: "timeout (wallclock)", Answer: "unsat", Expected: "unsat", CPU: 1300, Wall: 1200.5},
	}
	e := entry(t, mustScore(t, rows, Options{Rules: 2022}), "QF_LIA", Parallel, "a")
	if e.Error != 1 || e.Correct != 3 || e.SolvedSat != 2 || e.SolvedUnsat != 1 || e.Unsolved != 2 || e.Timeout != 1 {
		t.Errorf("parallel %+v: want e 1, n 3 (2 sat, 1 unsat), 2 unsolved, 1 timeout", e)
	}
	// w ∈ [0, T], c ∈ [0, mT]: the timeout's wall time is cut at T = 1200.
	if !near(e.Wall, 1204) || !near(e.CPU, 1304) {
		t.Errorf("w %v c %v, want 1204 and 1304", e.Wall, e.CPU)
	}
}

// 2022 §7.1.1: the sequential score keeps a result only if c ≤ T, and
// c_S = min{c, T}; §7.1: c counts up to mT.
func TestSequentialScore2022(t *testing.T) {
	rows := []Row{
		sq("par", "QF_BV/f/1.smt2", "sat", "sat", 3000, 800),  // 4 cores busy: over T in CPU
		sq("par", "QF_BV/f/2.smt2", "sat", "sat", 9000, 1100), // over mT = 4800 too
		sq("seq", "QF_BV/f/1.smt2", "sat", "sat", 1000, 1000),
		sq("seq", "QF_BV/f/2.smt2", "unknown", "sat", 5, 5),
	}
	rep := mustScore(t, rows, Options{Rules: 2022, TimeLimit: 1200})
	p := entry(t, rep, "QF_BV", Parallel, "par")
	if p.Correct != 2 || !near(p.CPU, 3000+4800) || !near(p.Wall, 1900) {
		t.Errorf("parallel %+v: want n 2, c 7800 (capped at mT), w 1900", p)
	}
	s := entry(t, rep, "QF_BV", Sequential, "par")
	if s.Correct != 0 || !near(s.CPU, 2400) || s.Timeout != 2 {
		t.Errorf("sequential %+v: want n 0 and c 2400", s)
	}
	if w := ranking(t, rep, "QF_BV", Parallel).Winner; w != "par" {
		t.Errorf("parallel winner %q", w)
	}
	if w := ranking(t, rep, "QF_BV", Sequential).Winner; w != "seq" {
		t.Errorf("sequential winner %q", w)
	}
}

// 2022 §7.1.3: e = 1 and n = 0 on any wrong check-sat answer; otherwise n
// correct answers; N - n unsolved.
func TestIncrementalScore2022(t *testing.T) {
	rows := []Row{
		{Solver: "a", Benchmark: "incremental/QF_LIA/f/1.smt2", Status: "complete", CorrectAnswers: 7, CheckSats: 10, CPU: 5, Wall: 5},
		{Solver: "b", Benchmark: "incremental/QF_LIA/f/1.smt2", Status: "complete", CorrectAnswers: 9, WrongAnswers: 1, CheckSats: 10, CPU: 5, Wall: 5},
	}
	rep := mustScore(t, rows, Options{Rules: 2022, Track: benchmark.Incremental})
	if got := rep.Kinds; len(got) != 1 || got[0] != Parallel {
		t.Errorf("incremental scores %v, want parallel only (§7.2.2)", got)
	}
	a, b := entry(t, rep, "QF_LIA", Parallel, "a"), entry(t, rep, "QF_LIA", Parallel, "b")
	if a.Correct != 7 || a.Unsolved != 3 || b.Error != 1 || b.Correct != 0 || b.Unsolved != 10 {
		t.Errorf("a %+v, b %+v", a, b)
	}
	// The official script counts every wrong answer and keeps n.
	rep = mustScore(t, rows, Options{Rules: 2022, Track: benchmark.Incremental, Compat: Official})
	if b := entry(t, rep, "QF_LIA", Parallel, "b"); b.Error != 1 || b.Correct != 9 {
		t.Errorf("official b %+v", b)
	}
}

// 2022 §7.1.4: e = 1 for a sat answer or a refuted core; n = reduction.
func TestUnsatCoreScore2022(t *testing.T) {
	b := "non-incremental/QF_UF/f/1.smt2"
	rows := []Row{
		{Solver: "good", Benchmark: b, Answer: "unsat", Expected: "unsat", Reduction: 12, CPU: 1, Wall: 1},
		{Solver: "sat", Benchmark: b, Answer: "sat", Expected: "unsat", CPU: 1, Wall: 1},
		{Solver: "refuted", Benchmark: b, Answer: "unsat", Expected: "unsat", Reduction: 30, CoreErroneous: true, CPU: 1, Wall: 1},
		{Solver: "none", Benchmark: b, Answer: "unknown", Expected: "unsat", CPU: 1, Wall: 1},
	}
	rep := mustScore(t, rows, Options{Rules: 2022, Track: benchmark.UnsatCore})
	for _, c := range []struct {
		s    string
		e, n float64
	}{{"good", 0, 12}, {"sat", 1, 0}, {"refuted", 1, 0}, {"none", 0, 0}} {
		if e := entry(t, rep, "QF_UF", Parallel, c.s); e.Error != c.e || e.Correct != c.n {
			t.Errorf("%s: e %v n %v, want %v %v", c.s, e.Error, e.Correct, c.e, c.n)
		}
	}
	if got := order(ranking(t, rep, "QF_UF", Parallel)); got != "good,none,refuted,sat" {
		t.Errorf("order %s", got)
	}
	// Officially a sat answer is neither solved nor an error.
	rep = mustScore(t, rows, Options{Rules: 2022, Track: benchmark.UnsatCore, Compat: Official})
	if e := entry(t, rep, "QF_UF", Parallel, "sat"); e.Error != 0 {
		t.Errorf("official sat answer: %+v", e)
	}
}

// 2022 §7.1.5: INVALID is an error, VALID scores 1, UNKNOWN 0. Officially
// (2019) only a sat answer's INVALID model is an error.
func TestModelValidationScore2022(t *testing.T) {
	b := "non-incremental/QF_BV/f/1.smt2"
	rows := []Row{
		{Solver: "valid", Benchmark: b, Answer: "sat", Expected: "sat", CPU: 1, Wall: 1, Source: &RowSource{Model: "VALID"}},
		{Solver: "invalid", Benchmark: b, Answer: "sat", Expected: "sat", CPU: 1, Wall: 1, Source: &RowSource{Model: "INVALID"}},
		{Solver: "crashed", Benchmark: b, Status: "timeout (wallclock)", Answer: "--", Expected: "sat", CPU: 2400, Wall: 2400.1, Source: &RowSource{Model: "INVALID"}},
		{Solver: "unknown", Benchmark: b, Answer: "sat", Expected: "sat", CPU: 1, Wall: 1, Source: &RowSource{Model: "UNKNOWN"}},
	}
	o := Options{Rules: 2019, Year: 2019, Track: benchmark.ModelValidation}
	rep := mustScore(t, rows, o)
	for _, c := range []struct {
		s    string
		e, n float64
	}{{"valid", 0, 1}, {"invalid", 1, 0}, {"crashed", 1, 0}, {"unknown", 0, 0}} {
		if e := entry(t, rep, "QF_BV", Parallel, c.s); e.Error != c.e || e.Correct != c.n {
			t.Errorf("%s: e %v n %v, want %v %v", c.s, e.Error, e.Correct, c.e, c.n)
		}
	}
	o.Compat = Official
	rep = mustScore(t, rows, o)
	if e := entry(t, rep, "QF_BV", Parallel, "crashed"); e.Error != 0 || e.CPU != 2400 || e.Timeout != 1 {
		t.Errorf("official crashed run: %+v", e)
	}
	if e := entry(t, rep, "QF_BV", Parallel, "invalid"); e.Error != 1 {
		t.Errorf("official invalid model: %+v", e)
	}
}

// 2022 §7.2: unknown-status benchmarks on which two sound solvers disagree
// are removed and reported; an unsound solver's answer does not count.
func TestRemovalOfDisagreements(t *testing.T) {
	rows := []Row{
		sq("a", "QF_LIA/f/u1.smt2", "sat", "unknown", 1, 1),
		sq("b", "QF_LIA/f/u1.smt2", "unsat", "unknown", 1, 1),
		sq("a", "QF_LIA/f/u2.smt2", "sat", "unknown", 1, 1),
		sq("bad", "QF_LIA/f/u2.smt2", "unsat", "unknown", 1, 1),
		sq("bad", "QF_LIA/f/k.smt2", "unsat", "sat", 1, 1), // unsound on a known status
		sq("a", "QF_LIA/f/k.smt2", "sat", "sat", 1, 1),
	}
	rep := mustScore(t, rows, Options{Rules: 2022})
	if len(rep.Disagreements) != 1 || rep.Disagreements[0].Benchmark != "non-incremental/QF_LIA/f/u1.smt2" ||
		strings.Join(rep.Disagreements[0].Sat, ",") != "a" || strings.Join(rep.Disagreements[0].Unsat, ",") != "b" {
		t.Errorf("disagreements %+v", rep.Disagreements)
	}
	if d := rep.Divisions[0]; d.Benchmarks != 2 {
		t.Errorf("%d benchmarks left, want 2", d.Benchmarks)
	}
	if a := entry(t, rep, "QF_LIA", Parallel, "a"); a.Correct != 2 {
		t.Errorf("a solved %v, want 2 (u2 and k)", a.Correct)
	}
	// Not for the other tracks as written.
	rep = mustScore(t, rows, Options{Rules: 2022, Track: benchmark.ModelValidation})
	if len(rep.Disagreements) != 0 {
		t.Errorf("model validation removed %v", rep.Disagreements)
	}
}

// 2022 §7.2.1 and §7.2.2: parallel ⟨e, n, w, c⟩ and sequential ⟨e, n, c⟩
// orders; fewer errors beat more correct answers.
func TestLexicographicOrders2022(t *testing.T) {
	rows := []Row{
		sq("err", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1),
		sq("err", "QF_LIA/f/2.smt2", "sat", "unsat", 1, 1),
		sq("slowwall", "QF_LIA/f/1.smt2", "sat", "sat", 2, 10),
		sq("fastwall", "QF_LIA/f/1.smt2", "sat", "sat", 20, 5),
		sq("fastcpu", "QF_LIA/f/1.smt2", "sat", "sat", 1.5, 10),
	}
	rep := mustScore(t, rows, Options{Rules: 2022})
	if got := order(ranking(t, rep, "QF_LIA", Parallel)); got != "fastwall,fastcpu,slowwall,err" {
		t.Errorf("parallel order %s", got)
	}
	if got := order(ranking(t, rep, "QF_LIA", Sequential)); got != "fastcpu,slowwall,fastwall,err" {
		t.Errorf("sequential order %s", got)
	}
	// Equal scores share a rank.
	rows = []Row{sq("x", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1), sq("y", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1)}
	r := ranking(t, mustScore(t, rows, Options{Rules: 2022}), "QF_LIA", Parallel)
	if r.Entries[0].Rank != 1 || r.Entries[1].Rank != 1 || r.Winner != "x and y" {
		t.Errorf("tie: %+v", r)
	}
}

// 2022 §7.2.3-5: the 24-seconds score (answers within 24 s of wall time),
// the sat and the unsat scores (only instances of that status).
func TestTwentyFourSatUnsatScores(t *testing.T) {
	rows := []Row{
		sq("fast", "QF_LIA/f/s.smt2", "sat", "sat", 2, 2),
		sq("fast", "QF_LIA/f/u.smt2", "unknown", "unsat", 1, 1),
		sq("slow", "QF_LIA/f/s.smt2", "sat", "sat", 30, 30),
		sq("slow", "QF_LIA/f/u.smt2", "unsat", "unsat", 100, 100),
		sq("slow", "QF_LIA/f/x.smt2", "unsat", "unknown", 100, 100),
	}
	rep := mustScore(t, rows, Options{Rules: 2022})
	if e := entry(t, rep, "QF_LIA", TwentyFour, "slow"); e.Correct != 0 || !near(e.Wall, 72) {
		t.Errorf("24 s: slow %+v, want n 0 and w 3×24", e)
	}
	if w := ranking(t, rep, "QF_LIA", TwentyFour).Winner; w != "fast" {
		t.Errorf("24 s winner %q", w)
	}
	if e := entry(t, rep, "QF_LIA", Sat, "slow"); e.Correct != 1 || e.Abstained != 0 || !near(e.Wall, 30) {
		t.Errorf("sat: slow %+v", e)
	}
	if e := entry(t, rep, "QF_LIA", Unsat, "slow"); e.Correct != 2 || !near(e.Wall, 200) {
		t.Errorf("unsat: slow %+v, want u and the unknown-status x", e)
	}
	if e := entry(t, rep, "QF_LIA", Unsat, "fast"); e.Correct != 0 || e.Abstained != 1 {
		t.Errorf("unsat: fast %+v, want abstained on x", e)
	}
}

// 2022 §6 and §7.2: winners are competitive solvers, in competitive
// divisions (two competitive solvers of different teams); a division of
// several logics is broken down per logic.
func TestWinnersAndPerLogic(t *testing.T) {
	reg := Registry{
		"org":    {Name: "org", Competitive: false},
		"a":      {Name: "a", Competitive: true, Team: "A"},
		"a-fast": {Name: "a-fast", Competitive: true, Team: "A"},
		"b":      {Name: "b", Competitive: true, Team: "B"},
	}
	rows := []Row{
		sq("org", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1), sq("org", "QF_LRA/f/1.smt2", "sat", "sat", 1, 1),
		sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 5, 5), sq("a", "QF_LRA/f/1.smt2", "sat", "sat", 5, 5),
		sq("b", "QF_LIA/f/1.smt2", "sat", "sat", 9, 9),
		sq("a", "QF_BV/f/1.smt2", "sat", "sat", 5, 5), sq("a-fast", "QF_BV/f/1.smt2", "sat", "sat", 1, 1),
	}
	rep := mustScore(t, rows, Options{Rules: 2022, Solvers: reg, Divisions: map[string][]string{"Arith": {"QF_LIA", "QF_LRA"}, "Bitvec": {"QF_BV"}}})
	r := ranking(t, rep, "Arith", Parallel)
	if r.Winner != "a" || r.Entries[0].Solver != "org" || r.Entries[0].Rank != 0 || r.Entries[1].Rank != 1 {
		t.Errorf("Arith: %+v", r)
	}
	var arith Division
	for _, d := range rep.Divisions {
		if d.Name == "Arith" {
			arith = d
		}
	}
	// QF_LRA alone has one competitive team: scores, no winner.
	if len(arith.PerLogic) != 2 || arith.PerLogic[0].Ranking(Parallel).Winner != "a" || arith.PerLogic[1].Name != "QF_LRA" ||
		arith.PerLogic[1].Ranking(Parallel).Winner != "" || arith.Ranking(Unsat).Winner != "" ||
		len(arith.Logics) != 2 || arith.Benchmarks != 2 {
		t.Errorf("per logic: %+v", arith)
	}
	if w := ranking(t, rep, "Bitvec", Parallel).Winner; w != "" {
		t.Errorf("Bitvec (one team) has winner %q", w)
	}
}

// 2022 §7.3.1: the biggest lead is (n1+1)/(n2+1) between a division's
// first two competitive solvers, ties broken by the time rank.
func TestBiggestLead(t *testing.T) {
	var rows []Row
	add := func(div, s string, solved int, wall float64) {
		for i := range 4 {
			ans := "unknown"
			if i < solved {
				ans = "sat"
			}
			rows = append(rows, sq(s, div+"/f/"+string(rune('a'+i))+".smt2", ans, "sat", wall, wall))
		}
	}
	add("QF_A", "x", 3, 1)
	add("QF_A", "y", 1, 1) // lead 4/2 = 2
	add("QF_B", "x", 1, 1)
	add("QF_B", "z", 0, 1) // lead 2/1 = 2, time (4+1)/(4+1)
	add("QF_C", "y", 1, 1)
	add("QF_C", "z", 0, 3) // lead 2, time (12+1)/(4+1) = 2.6
	rep := mustScore(t, rows, Options{Rules: 2022})
	ls := rep.BiggestLead[Parallel]
	if len(ls) != 3 || ls[0].Division != "QF_C" || !near(ls[0].Correctness, 2) || !near(ls[0].Time, 13.0/5) ||
		ls[1].Division != "QF_A" || ls[2].Division != "QF_B" {
		t.Errorf("biggest lead %+v", ls)
	}
}

// 2022 §7.3.2: contributions to the virtual best solver, normalised by
// n_D/N; divisions with at most two sound competitive solvers are left
// out.
func TestLargestContribution(t *testing.T) {
	rows := []Row{
		// QF_A: three sound solvers; x alone solves 1, y and z both solve 2.
		sq("x", "QF_A/f/1.smt2", "sat", "sat", 10, 10),
		sq("y", "QF_A/f/1.smt2", "unknown", "sat", 1, 1),
		sq("z", "QF_A/f/1.smt2", "unknown", "sat", 1, 1),
		sq("x", "QF_A/f/2.smt2", "unknown", "sat", 1, 1),
		sq("y", "QF_A/f/2.smt2", "sat", "sat", 4, 4),
		sq("z", "QF_A/f/2.smt2", "sat", "sat", 2, 2),
		// QF_B: two sound solvers only (w is wrong): left out, but its
		// pairs count in N.
		sq("x", "QF_B/f/1.smt2", "sat", "sat", 1, 1),
		sq("y", "QF_B/f/1.smt2", "sat", "sat", 1, 1),
		sq("w", "QF_B/f/1.smt2", "unsat", "sat", 1, 1),
	}
	rep := mustScore(t, rows, Options{Rules: 2022, TimeLimit: 100})
	cs := rep.LargestContribution[Parallel]
	if len(cs) != 1 {
		t.Fatalf("contributions %+v", cs)
	}
	c := cs[0]
	// vbss_n(S) = 2, without x 1: rank 1/2; vbss_w(S) = 10 + 2, without x
	// 100 + 2: rank 1 - 12/102; n_D/N = 6/9.
	if c.Solver != "x" || c.Division != "QF_A" || !near(c.Correctness, 0.5*6/9) || !near(c.Time, (1-12.0/102)*6/9) {
		t.Errorf("largest contribution %+v", c)
	}
}

// 2022 §7.4: new entrants that beat an existing solver in some division.
func TestNewEntrants2022(t *testing.T) {
	reg := Registry{"new": {Name: "new", Competitive: true, New: true}, "old": {Name: "old", Competitive: true}, "older": {Name: "older", Competitive: true}}
	rows := []Row{sq("new", "QF_A/f/1.smt2", "sat", "sat", 1, 1), sq("old", "QF_A/f/1.smt2", "unknown", "sat", 1, 1),
		sq("older", "QF_A/f/1.smt2", "sat", "sat", 0.5, 0.5)}
	rep := mustScore(t, rows, Options{Rules: 2022, Solvers: reg})
	if len(rep.Recognitions) != 1 || rep.Recognitions[0].Solver != "new" || rep.Recognitions[0].Note != "beat old" {
		t.Errorf("recognitions %+v", rep.Recognitions)
	}
}

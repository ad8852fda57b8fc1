package score

import (
	"math"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// 2018 §7.4: α_b = (1 + ln F_b)/F_b, normalised α'_b = α_b / Σ α_b', and
// the division score Σ α'_b ⟨e_b·N, n_b·N, w_b, c_b⟩; families are the
// top-level directories (the official script: the directory holding the
// file).
func TestFamilyWeights2018(t *testing.T) {
	rows := []Row{
		sq("one", "QF_X/fa/1.smt2", "sat", "sat", 10, 10),
		sq("three", "QF_X/fb/s1/2.smt2", "sat", "sat", 10, 10),
		sq("three", "QF_X/fb/s1/3.smt2", "sat", "sat", 10, 10),
		sq("three", "QF_X/fb/s2/4.smt2", "sat", "sat", 10, 10),
	}
	rep := mustScore(t, rows, Options{Rules: 2018})
	sum := 1 + 3*(1+math.Log(3))/3
	one, three := entry(t, rep, "QF_X", Parallel, "one"), entry(t, rep, "QF_X", Parallel, "three")
	if !near(one.Correct, 4/sum) || !near(three.Correct, 4*(1+math.Log(3))/sum) || !near(one.Wall, 10/sum) {
		t.Errorf("one %+v, three %+v", one, three)
	}
	if w := ranking(t, rep, "QF_X", Parallel).Winner; w != "three" {
		t.Errorf("winner %q", w)
	}
	// Officially fb/s1 and fb/s2 are two families: α = (1+ln 2)/2 and 1.
	rep = mustScore(t, rows, Options{Rules: 2018, Compat: Official})
	sum = 1 + 2*(1+math.Log(2))/2 + 1
	if three := entry(t, rep, "QF_X", Parallel, "three"); !near(three.Correct, 4*(1+math.Log(2)+1)/sum) {
		t.Errorf("official three %+v", three)
	}
	// The application track is scored raw.
	inc := mustScore(t, []Row{{Solver: "a", Benchmark: "incremental/QF_X/fa/1.smt2", CorrectAnswers: 3, CheckSats: 3}}, Options{Rules: 2018, Track: benchmark.Incremental})
	if e := entry(t, inc, "QF_X", Parallel, "a"); e.Correct != 3 || len(inc.Kinds) != 1 {
		t.Errorf("application %+v %v", e, inc.Kinds)
	}
}

// 2018 §7.5: Σ (e_i = 0 ? (n_i/N_i)² : -4) · ln N_i over competitive
// divisions.
func TestCompetitionWide2018(t *testing.T) {
	var rows []Row
	for i, b := range []string{"a", "b", "c", "d"} { // QF_A: 4 benchmarks of 4 families
		rows = append(rows, sq("x", "QF_A/"+b+"/1.smt2", "sat", "sat", 1, 1))
		if i < 2 {
			rows = append(rows, sq("y", "QF_A/"+b+"/1.smt2", "sat", "sat", 1, 1))
		}
	}
	rows = append(rows, sq("x", "QF_B/a/1.smt2", "unsat", "sat", 1, 1), sq("x", "QF_B/b/1.smt2", "sat", "sat", 1, 1),
		sq("y", "QF_B/a/1.smt2", "sat", "sat", 1, 1), sq("y", "QF_B/b/1.smt2", "sat", "sat", 1, 1))
	rep := mustScore(t, rows, Options{Rules: 2018})
	ws := rep.CompetitionWide[Parallel]
	x := math.Log(4) - 4*math.Log(2)
	y := 0.25*math.Log(4) + math.Log(2)
	if len(ws) != 2 || ws[0].Solver != "y" || !near(ws[0].Score, y) || !near(ws[1].Score, x) {
		t.Errorf("competition-wide %+v, want y %v, x %v", ws, y, x)
	}
}

// The special recognitions the 2018 rules list, and §7.6's best new
// entrant.
func TestRecognitions2018(t *testing.T) {
	// w wins QF_A; without the benchmarks w solved, c is best; w solved
	// two benchmarks nobody else did.
	rows := []Row{
		sq("w", "QF_A/f1/1.smt2", "sat", "sat", 1, 1), sq("w", "QF_A/f2/2.smt2", "sat", "sat", 1, 1), sq("w", "QF_A/f4/4.smt2", "sat", "sat", 1, 1),
		sq("d", "QF_A/f1/1.smt2", "sat", "sat", 1, 1),
		sq("c", "QF_A/f3/3.smt2", "sat", "sat", 1, 1),
	}
	rep := mustScore(t, rows, Options{Rules: 2018})
	got := map[string]string{}
	for _, r := range rep.Recognitions {
		if _, dup := got[r.Name]; !dup {
			got[r.Name] = r.Solver
		}
	}
	if got["best complementary solver"] != "c" || got["most unique solver"] != "w" || got["competition-wide"] != "w" {
		t.Errorf("recognitions %+v", rep.Recognitions)
	}
	// x solves the unknown-status benchmark; y is fast (5 s) but solves
	// less; y is new.
	rows = []Row{
		sq("x", "QF_B/f1/1.smt2", "sat", "sat", 50, 50), sq("x", "QF_B/f2/u.smt2", "sat", "unknown", 50, 50),
		sq("y", "QF_B/f1/1.smt2", "sat", "sat", 5, 5), sq("y", "QF_B/f2/u.smt2", "unknown", "unknown", 5, 5),
	}
	reg := Registry{"x": {Name: "x", Competitive: true}, "y": {Name: "y", Competitive: true, New: true}}
	rep = mustScore(t, rows, Options{Rules: 2018, Solvers: reg})
	got = map[string]string{}
	for _, r := range rep.Recognitions {
		if _, dup := got[r.Name]; !dup {
			got[r.Name] = r.Solver
		}
	}
	if got["the prophet"] != "x" || got["the 10 second wonder"] != "y" || got["best new entrant"] != "y" {
		t.Errorf("recognitions %+v", rep.Recognitions)
	}
}

// 2014 §6.1: ⟨e, n, m⟩; sequential m is CPU time with the timeout T on
// CPU time; parallel: a run over T/C wall-clock seconds has timed out and
// m is wall-clock time; a timeout scores as unknown.
func TestScore2014(t *testing.T) {
	rows := []Row{
		sq("mt", "QF_A/f/1.smt2", "sat", "sat", 1000, 300),  // 4 threads: in time both ways
		sq("mt", "QF_A/f/2.smt2", "sat", "sat", 1600, 420),  // over T in CPU, over T/C = 375 in wall
		sq("st", "QF_A/f/1.smt2", "sat", "sat", 400, 400),   // over T/C in wall
		sq("st", "QF_A/f/2.smt2", "unsat", "sat", 100, 100), // wrong
	}
	rep := mustScore(t, rows, Options{Rules: 2014})
	if rep.TimeLimit != 1500 {
		t.Errorf("T = %v, want 1500", rep.TimeLimit)
	}
	mt, st := entry(t, rep, "QF_A", Sequential, "mt"), entry(t, rep, "QF_A", Sequential, "st")
	if mt.Correct != 1 || !near(mt.CPU, 2500) || mt.Timeout != 1 || st.Correct != 1 || st.Error != 1 {
		t.Errorf("sequential mt %+v st %+v", mt, st)
	}
	mt, st = entry(t, rep, "QF_A", Parallel, "mt"), entry(t, rep, "QF_A", Parallel, "st")
	if mt.Correct != 1 || !near(mt.Wall, 300+375) || st.Correct != 0 || st.Error != 1 || !near(st.Wall, 375+100) {
		t.Errorf("parallel mt %+v st %+v", mt, st)
	}
	// ⟨e, n, m⟩: fewer errors first.
	if w := ranking(t, rep, "QF_A", Sequential).Winner; w != "mt" {
		t.Errorf("winner %q", w)
	}
	// Application track: e and n count the answers, m = T on a timeout.
	inc := []Row{
		{Solver: "a", Benchmark: "incremental/QF_A/f/1.smt2", Status: "timeout", CorrectAnswers: 5, WrongAnswers: 2, CheckSats: 9, CPU: 1501, Wall: 1501},
		{Solver: "b", Benchmark: "incremental/QF_A/f/1.smt2", Status: "complete", CorrectAnswers: 9, CheckSats: 9, CPU: 20, Wall: 20},
	}
	rep = mustScore(t, inc, Options{Rules: 2014, Track: benchmark.Incremental})
	if a := entry(t, rep, "QF_A", Sequential, "a"); a.Error != 2 || a.Correct != 5 || a.CPU != 1500 || len(rep.Kinds) != 1 {
		t.Errorf("application a %+v kinds %v", a, rep.Kinds)
	}
}

// 2014 §6.2: the top open-source solver of each division; the best new
// entrant by the mean of (solver time)/(winning solver time).
func TestRecognitions2014(t *testing.T) {
	reg := Registry{
		"closed": {Name: "closed", Competitive: true},
		"open":   {Name: "open", Competitive: true, OpenSource: true},
		"new1":   {Name: "new1", Competitive: true, New: true},
		"new2":   {Name: "new2", Competitive: true, New: true},
	}
	rows := []Row{
		sq("closed", "QF_A/f/1.smt2", "sat", "sat", 1, 1), sq("closed", "QF_A/f/2.smt2", "sat", "sat", 2, 2),
		sq("open", "QF_A/f/1.smt2", "sat", "sat", 5, 5),
		sq("new1", "QF_A/f/1.smt2", "sat", "sat", 2, 2), sq("new1", "QF_A/f/2.smt2", "sat", "sat", 2, 2), // ratios 2, 1
		sq("new2", "QF_A/f/1.smt2", "sat", "sat", 4, 4), sq("new2", "QF_A/f/2.smt2", "sat", "sat", 4, 4), // ratios 4, 2
	}
	rep := mustScore(t, rows, Options{Rules: 2014, Solvers: reg})
	got := map[string]Recognition{}
	for _, r := range rep.Recognitions {
		if r.Kind == Sequential {
			got[r.Name] = r
		}
	}
	if got["open source"].Solver != "open" || got["best new entrant"].Solver != "new1" || !near(got["best new entrant"].Value, 1.5) {
		t.Errorf("recognitions %+v", rep.Recognitions)
	}
}

// 2006: Figure 1's +1/-8, 0 for unknown and timeout; more than three
// wrong answers in a division disqualify from the whole competition; ties
// broken by the CPU time on the benchmarks that did not time out; the
// Time column leaves out unknown results.
func TestScore2006(t *testing.T) {
	var rows []Row
	add := func(s, logic string, n int, ans, exp string, cpu float64, status string) {
		for i := range n {
			b := logic + "/f/" + s + ans + exp + status + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".smt2"
			r := sq(s, b, ans, exp, cpu, cpu)
			if status != "" {
				r.Status = status
			}
			rows = append(rows, r)
		}
	}
	// Jat's line of Figure 5 (QF_RDL): Score -466, Unsat 2, Sat 4,
	// Unknown 14, Timeout 23, Wrong 59.
	add("Jat", "QF_RDL", 2, "unsat", "unsat", 1, "")
	add("Jat", "QF_RDL", 4, "sat", "sat", 1, "")
	add("Jat", "QF_RDL", 14, "unknown", "sat", 1, "")
	add("Jat", "QF_RDL", 23, "unknown", "sat", 1200, "timeout")
	add("Jat", "QF_RDL", 59, "unsat", "sat", 0.1, "")
	add("Yices", "QF_RDL", 5, "sat", "sat", 3, "")
	// In QF_UF Jat scores best but is disqualified; A and B tie on points,
	// B has less CPU time on non-timeouts though more in the Time column.
	add("Jat", "QF_UF", 10, "sat", "sat", 1, "")
	add("A", "QF_UF", 3, "sat", "sat", 10, "")
	add("A", "QF_UF", 1, "unknown", "sat", 5, "")
	add("B", "QF_UF", 3, "sat", "sat", 11, "")
	add("B", "QF_UF", 1, "unknown", "sat", 1500, "timeout")
	rep := mustScore(t, rows, Options{Rules: 2006})
	j := entry(t, rep, "QF_RDL", Sequential, "Jat")
	if j.Points != -466 || j.SolvedUnsat != 2 || j.SolvedSat != 4 || j.Unknown != 14 || j.Timeout != 23 || j.Wrong != 59 ||
		!j.Disqualified || !near(j.Time, 6+5.9) {
		t.Errorf("Jat %+v", j)
	}
	r := ranking(t, rep, "QF_UF", Sequential)
	if r.Winner != "B" || order(r) != "B,A,Jat" {
		t.Errorf("QF_UF %s, winner %q", order(r), r.Winner)
	}
	a, b := entry(t, rep, "QF_UF", Sequential, "A"), entry(t, rep, "QF_UF", Sequential, "B")
	if !near(a.TieTime, 35) || !near(a.Time, 30) || !near(b.TieTime, 33) || !near(b.Time, 33) {
		t.Errorf("A %+v B %+v", a, b)
	}
	if len(rep.Recognitions) != 1 || rep.Recognitions[0].Solver != "Jat" || rep.Recognitions[0].Division != "QF_RDL" {
		t.Errorf("recognitions %+v", rep.Recognitions)
	}
}

package score

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The texts of 2020, 2023 and 2024 where they depart from the 2022 rules:
// the same constructed rows scored by each, giving what each text says.

func run(solver, bench, status, answer, expected string, cpu, wall float64) Row {
	return Row{Solver: solver, Benchmark: "non-incremental/" + bench, Status: status, Answer: answer, Expected: expected, CPU: cpu, Wall: wall}
}

// Which text scores which rules year; unknown years are refused with the
// accepted ones named.
func TestDocument(t *testing.T) {
	for year, want := range map[int]int{2006: 0, 2018: 0, 2019: 2020, 2020: 2020, 2021: 2022, 2022: 2022, 2023: 2023, 2024: 2024, 2025: 2024, 2031: 2024} {
		if got := Document(year); got != want {
			t.Errorf("Document(%d) = %d, want %d", year, got, want)
		}
	}
	for _, year := range []int{0, 2010, 2017} {
		_, err := RuleSet(year)
		if err == nil || !strings.Contains(err.Error(), "2019 and later") || !strings.Contains(err.Error(), "2024") {
			t.Errorf("RuleSet(%d): %v", year, err)
		}
	}
	rows := []Row{sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1)}
	for rules, want := range map[int]int{2019: 2020, 2020: 2020, 2021: 2022, 2022: 2022, 2023: 2023, 2024: 2024, 2025: 2024} {
		rep := mustScore(t, rows, Options{Rules: rules})
		if rep.Document != want || rep.Rules != 2022 || rep.Asked != rules {
			t.Errorf("rules %d: document %d, rule set %d, asked %d; want %d, 2022, %d", rules, rep.Document, rep.Rules, rep.Asked, want, rules)
		}
		if rep = mustScore(t, rows, Options{Rules: rules, Compat: Official}); rep.Document != 0 {
			t.Errorf("rules %d officially: document %d, want none (the official computation is not a text)", rules, rep.Document)
		}
	}
}

// 2020 §1: four tracks; 2022 and 2023 §1: seven; 2024 §1: the proof track
// is discontinued.
func TestTracksOfEachText(t *testing.T) {
	rows := []Row{sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1)}
	for _, c := range []struct {
		rules int
		track benchmark.Track
		err   string // "" when the track is scored
	}{
		{2019, benchmark.Parallel, "no parallel track"},
		{2020, benchmark.Parallel, "no parallel track"},
		{2020, benchmark.Cloud, "the 2020 text"},
		{2020, benchmark.Proof, "no proof track"},
		{2020, benchmark.ModelValidation, ""},
		{2021, benchmark.Cloud, ""},
		{2022, benchmark.Cloud, ""},
		{2022, benchmark.Proof, "no scores"},
		{2023, benchmark.Parallel, ""},
		{2023, benchmark.Proof, "no scores"},
		{2024, benchmark.Proof, "the 2024 text"},
		{2024, benchmark.Cloud, ""},
		{2026, benchmark.Proof, "no proof track"},
	} {
		_, err := Score(rows, Options{Rules: c.rules, Track: c.track})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("rules %d, %s: %v", c.rules, c.track, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("rules %d, %s: error %v, want one saying %q", c.rules, c.track, err, c.err)
		}
	}
}

// Each text's time limit (§4/§5 "Time Limit.") and memory limit (§4.1/
// §5.1): 2024 gives the parallel and cloud tracks 2 minutes and the four
// others 30 GB. A competition year keeps the limits it ran with whatever
// rules score it: its text's, but 2024 ran 1200 s and 20 GB on every track.
func TestLimitsOfEachText(t *testing.T) {
	rows := []Row{sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1)}
	for _, c := range []struct {
		rules, year int
		track       benchmark.Track
		T           float64
		mem         int
	}{
		{2020, 2020, benchmark.UnsatCore, 1200, 60},
		{2022, 2022, benchmark.Cloud, 1200, 60},
		{2023, 2023, benchmark.Parallel, 1200, 60},
		{2023, 2023, benchmark.SingleQuery, 1200, 60},
		{2024, 2024, benchmark.Parallel, 1200, 20}, // as it ran, not as written
		{2024, 2024, benchmark.Cloud, 1200, 20},
		{2024, 2024, benchmark.SingleQuery, 1200, 20},
		{2022, 2024, benchmark.Cloud, 1200, 20},
		{2024, 2022, benchmark.Cloud, 1200, 60},       // 2022's ran 20 minutes
		{2025, 2025, benchmark.Parallel, 120, 60},     // 2025 by the 2024 text
		{2025, 2025, benchmark.Cloud, 120, 60},        // (memory: left to the website)
		{2025, 2025, benchmark.SingleQuery, 1200, 30}, // 30 GB
		{2024, 2006, benchmark.Cloud, 120, 60},        // a year without these limits
		{2024, 2019, benchmark.SingleQuery, 2400, 30}, // 2019 ran 40 minutes
	} {
		rep := mustScore(t, rows, Options{Rules: c.rules, Year: c.year, Track: c.track})
		if rep.TimeLimit != c.T || rep.MemLimit != c.mem {
			t.Errorf("rules %d, year %d, %s: T %v, memory %d GB; want %v and %d", c.rules, c.year, c.track, rep.TimeLimit, rep.MemLimit, c.T, c.mem)
		}
	}
}

// 2023 §1 "Scoring." and §7.1 (2024 the same): the time scores count only
// correctly solved benchmarks. The text's own example: a solver that times
// out loses, in 2022, to one that aborts quickly, though it solved the same
// benchmarks faster; from 2023 it wins.
func TestTimeScoresOfSolvedBenchmarks(t *testing.T) {
	rows := []Row{
		run("slow-out", "QF_LIA/f/1.smt2", "complete", "sat", "sat", 1, 1),
		run("slow-out", "QF_LIA/f/2.smt2", "complete", "unsat", "unsat", 1, 1),
		run("slow-out", "QF_LIA/f/3.smt2", "timeout (wallclock)", "unknown", "sat", 1200, 1200.3),
		run("aborts", "QF_LIA/f/1.smt2", "complete", "sat", "sat", 2, 2),
		run("aborts", "QF_LIA/f/2.smt2", "complete", "unsat", "unsat", 2, 2),
		run("aborts", "QF_LIA/f/3.smt2", "error", "unknown", "sat", 0.5, 0.5),
	}
	for _, c := range []struct {
		rules            int
		winner           string
		wOut, cOut, cSeq float64 // slow-out's w, c, and sequential c
	}{
		{2020, "aborts", 1202, 1202, 1202},
		{2022, "aborts", 1202, 1202, 1202},
		{2023, "slow-out", 2, 2, 2},
		{2024, "slow-out", 2, 2, 2},
	} {
		rep := mustScore(t, rows, Options{Rules: c.rules})
		for _, k := range []Kind{Parallel, Sequential} {
			if w := ranking(t, rep, "QF_LIA", k).Winner; w != c.winner {
				t.Errorf("rules %d %s: winner %q, want %q", c.rules, k, w, c.winner)
			}
		}
		p, s := entry(t, rep, "QF_LIA", Parallel, "slow-out"), entry(t, rep, "QF_LIA", Sequential, "slow-out")
		if p.Correct != 2 || !near(p.Wall, c.wOut) || !near(p.CPU, c.cOut) || !near(s.CPU, c.cSeq) || p.Timeout != 1 {
			t.Errorf("rules %d: slow-out parallel %+v, sequential c %v; want n 2, w %v, c %v, sequential c %v", c.rules, p, s.CPU, c.wOut, c.cOut, c.cSeq)
		}
		if a := entry(t, rep, "QF_LIA", Parallel, "aborts"); !near(a.Wall, map[bool]float64{true: 4, false: 4.5}[c.rules >= 2023]) {
			t.Errorf("rules %d: aborts w %v", c.rules, a.Wall)
		}
	}
}

// 2023 §7.1: w = 0 when e = 1 or when the run did not end within T, c = 0
// when e = 1 or past mT, though the response counts (§7.1.2); the
// sequential score (§7.1.1) is ⟨0, 0, 0⟩ past the virtual CPU limit and
// ⟨e, n, c⟩ within it, with no min{c, T}.
func TestBenchmarkScore2023(t *testing.T) {
	const T = 1200
	for _, c := range []struct {
		name string
		row  Row
		// parallel e, n, w, c and sequential e, n, c under 2022 and 2024
		p22, s22, p24, s24 [4]float64
	}{
		{"correct within T", run("a", "QF_BV/f/1.smt2", "complete", "sat", "sat", 30, 10),
			[4]float64{0, 1, 10, 30}, [4]float64{0, 1, 0, 30}, [4]float64{0, 1, 10, 30}, [4]float64{0, 1, 0, 30}},
		{"wrong answer", run("a", "QF_BV/f/1.smt2", "complete", "unsat", "sat", 30, 10),
			[4]float64{1, 0, 10, 30}, [4]float64{1, 0, 0, 30}, [4]float64{1, 0, 0, 0}, [4]float64{1, 0, 0, 0}},
		{"wrong answer past the CPU limit", run("a", "QF_BV/f/1.smt2", "complete", "unsat", "sat", 2000, 600),
			[4]float64{1, 0, 600, 2000}, [4]float64{0, 0, 0, 1200}, [4]float64{1, 0, 0, 0}, [4]float64{0, 0, 0, 0}},
		{"correct, stopped at the wall limit", run("a", "QF_BV/f/1.smt2", "timeout (wallclock)", "sat", "sat", 1100, 1200.5),
			[4]float64{0, 1, 1200, 1100}, [4]float64{0, 1, 0, 1100}, [4]float64{0, 1, 0, 1100}, [4]float64{0, 1, 0, 1100}},
		{"correct, parallel past the CPU limit", run("a", "QF_BV/f/1.smt2", "complete", "sat", "sat", 3000, 800),
			[4]float64{0, 1, 800, 3000}, [4]float64{0, 0, 0, 1200}, [4]float64{0, 1, 800, 3000}, [4]float64{0, 0, 0, 0}},
		{"correct past mT", run("a", "QF_BV/f/1.smt2", "timeout (wallclock)", "sat", "sat", 5000, 1200.5),
			[4]float64{0, 1, 1200, 4800}, [4]float64{0, 0, 0, 1200}, [4]float64{0, 1, 0, 0}, [4]float64{0, 0, 0, 0}},
		{"unknown", run("a", "QF_BV/f/1.smt2", "complete", "unknown", "sat", 7, 7),
			[4]float64{0, 0, 7, 7}, [4]float64{0, 0, 0, 7}, [4]float64{0, 0, 0, 0}, [4]float64{0, 0, 0, 0}},
		{"memout", run("a", "QF_BV/f/1.smt2", "memout", "unknown", "sat", 70, 70),
			[4]float64{0, 0, 70, 70}, [4]float64{0, 0, 0, 70}, [4]float64{0, 0, 0, 0}, [4]float64{0, 0, 0, 0}},
	} {
		for _, y := range []struct {
			rules    int
			par, seq [4]float64
		}{{2022, c.p22, c.s22}, {2023, c.p24, c.s24}, {2024, c.p24, c.s24}} {
			rep := mustScore(t, []Row{c.row}, Options{Rules: y.rules, Year: 2023, TimeLimit: T})
			p, s := entry(t, rep, "QF_BV", Parallel, "a"), entry(t, rep, "QF_BV", Sequential, "a")
			if got := [4]float64{p.Error, p.Correct, p.Wall, p.CPU}; got != y.par {
				t.Errorf("%s, rules %d: parallel ⟨e n w c⟩ %v, want %v", c.name, y.rules, got, y.par)
			}
			if got := [4]float64{s.Error, s.Correct, 0, s.CPU}; got != y.seq {
				t.Errorf("%s, rules %d: sequential ⟨e n · c⟩ %v, want %v", c.name, y.rules, got, y.seq)
			}
		}
	}
}

// 2023 §7.2.3 with §7.1: the 24-seconds score is the parallel score with
// T = 24 s; from 2023 a benchmark not solved within it costs no time.
func TestTwentyFour2023(t *testing.T) {
	rows := []Row{
		run("a", "QF_BV/f/1.smt2", "complete", "sat", "sat", 10, 10),
		run("a", "QF_BV/f/2.smt2", "complete", "sat", "sat", 30, 30),
	}
	for rules, want := range map[int][2]float64{2022: {1, 34}, 2023: {1, 10}, 2024: {1, 10}} {
		e := entry(t, mustScore(t, rows, Options{Rules: rules}), "QF_BV", TwentyFour, "a")
		if e.Correct != want[0] || !near(e.Wall, want[1]) {
			t.Errorf("rules %d: 24 s n %v w %v, want %v", rules, e.Correct, e.Wall, want)
		}
	}
}

// 2023 §7.1 for the incremental track: w and c run until the last sat/unsat
// answer within the limit, 0 when there was none; a wrong answer keeps
// them (only e and n change, §7.1.3).
func TestIncrementalTimes2023(t *testing.T) {
	inc := func(s string, st string, correct, wrong int32, cpu, wall float64) Row {
		return Row{Solver: s, Benchmark: "incremental/QF_LIA/f/1.smt2", Status: st, CorrectAnswers: correct, WrongAnswers: wrong,
			CheckSats: 5, CPU: cpu, Wall: wall}
	}
	rows := []Row{
		inc("none", "timeout (wallclock)", 0, 0, 1300, 1200.2),
		inc("part", "timeout (wallclock)", 3, 0, 1300, 1200.2),
		inc("all", "complete", 5, 0, 40, 20),
		inc("wrong", "complete", 4, 1, 9, 9),
	}
	for _, c := range []struct {
		rules int
		want  map[string][4]float64 // e, n, w, c
	}{
		{2022, map[string][4]float64{"none": {0, 0, 1200, 1300}, "part": {0, 3, 1200, 1300}, "all": {0, 5, 20, 40}, "wrong": {1, 0, 9, 9}}},
		{2023, map[string][4]float64{"none": {0, 0, 0, 0}, "part": {0, 3, 1200, 1300}, "all": {0, 5, 20, 40}, "wrong": {1, 0, 9, 9}}},
	} {
		rep := mustScore(t, rows, Options{Rules: c.rules, Track: benchmark.Incremental})
		for s, want := range c.want {
			e := entry(t, rep, "QF_LIA", Parallel, s)
			if got := [4]float64{e.Error, e.Correct, e.Wall, e.CPU}; got != want {
				t.Errorf("rules %d, %s: ⟨e n w c⟩ %v, want %v", c.rules, s, got, want)
			}
		}
	}
}

// 2022 §7.2 breaks a division of several logics down per logic; the 2020
// text, whose divisions are logics (§5), does not.
func TestPerLogicByText(t *testing.T) {
	rows := []Row{sq("a", "QF_LIA/f/1.smt2", "sat", "sat", 1, 1), sq("a", "QF_LRA/f/1.smt2", "sat", "sat", 1, 1)}
	divs := map[string][]string{"Arith": {"QF_LIA", "QF_LRA"}}
	for rules, want := range map[int]int{2019: 0, 2020: 0, 2021: 2, 2022: 2, 2023: 2, 2024: 2} {
		rep := mustScore(t, rows, Options{Rules: rules, Divisions: divs})
		if len(rep.Divisions) != 1 || len(rep.Divisions[0].PerLogic) != want {
			t.Errorf("rules %d: %d divisions, per logic %+v; want %d logics", rules, len(rep.Divisions), rep.Divisions[0].PerLogic, want)
		}
	}
}

// The departures of the texts are the rules as written: the official
// computation (other helpers' per-year code) is the same whichever text
// names the year.
func TestOfficialIgnoresTexts(t *testing.T) {
	rows := []Row{
		run("a", "QF_LIA/f/1.smt2", "complete", "sat", "sat", 1, 1),
		run("a", "QF_LIA/f/2.smt2", "timeout (wallclock)", "unknown", "sat", 1200, 1200.3),
		run("b", "QF_LIA/f/1.smt2", "complete", "sat", "sat", 2, 2),
		run("b", "QF_LIA/f/2.smt2", "complete", "unsat", "sat", 3, 3),
	}
	divs := map[string][]string{"Arith": {"QF_LIA", "QF_LRA"}}
	base := mustScore(t, rows, Options{Rules: 2022, Year: 2022, Compat: Official, Divisions: divs})
	for _, rules := range []int{2019, 2020, 2023, 2024, 2025} {
		rep := mustScore(t, rows, Options{Rules: rules, Year: 2022, Compat: Official, Divisions: divs})
		if !reflect.DeepEqual(rep.Divisions, base.Divisions) || rep.TimeLimit != base.TimeLimit {
			t.Errorf("rules %d officially differs from rules 2022:\n%+v\n%+v", rules, rep.Divisions, base.Divisions)
		}
	}
}

// An ill-formed unsat core (StarExec's parsable-unsat-core = false) is an
// error by the 2018 rules (§5.4) and the 2020 text (§4.4 (ii), §7.1.4), no
// answer by the 2022-2024 texts (§7.1.4).
func TestIllFormedCore(t *testing.T) {
	row, err := RowOf("a", "non-incremental/QF_UF/f/1.smt2", "complete", "unsat", "unsat", 1, 1,
		`{"reduction": "4", "result-is-erroneous": "0", "parsable-unsat-core": "false"}`)
	if err != nil || !row.CoreIllFormed {
		t.Fatalf("RowOf: %+v %v", row, err)
	}
	good := row
	good.Solver, good.CoreIllFormed = "b", false
	for rules, want := range map[int][2]float64{2018: {1, 0}, 2019: {1, 0}, 2020: {1, 0}, 2021: {0, 0}, 2022: {0, 0}, 2023: {0, 0}, 2024: {0, 0}} {
		rep := mustScore(t, []Row{row, good}, Options{Rules: rules, Track: benchmark.UnsatCore})
		e := entry(t, rep, "QF_UF", Parallel, "a")
		if [2]float64{e.Error, e.Correct} != want || e.Unsolved != 1 {
			t.Errorf("rules %d: ill-formed core ⟨e n⟩ %v (unsolved %d), want %v", rules, [2]float64{e.Error, e.Correct}, e.Unsolved, want)
		}
		if g := entry(t, rep, "QF_UF", Parallel, "b"); g.Error != 0 || g.Correct != 4 {
			t.Errorf("rules %d: well-formed core %+v", rules, g)
		}
	}
}

// The model-validation divisions each text calls experimental (2020 §4.5,
// 2022 §1, 2023 and 2024 §5.5) are scored but name no winner and stay out
// of the biggest lead ranking.
func TestExperimentalDivisions(t *testing.T) {
	var rows []Row
	for _, l := range []string{"QF_BV", "QF_LIA", "QF_FP", "QF_NIA", "QF_AX"} {
		rows = append(rows,
			Row{Solver: "a", Benchmark: "non-incremental/" + l + "/f/1.smt2", Status: "complete", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1, Source: &RowSource{Model: "VALID"}},
			Row{Solver: "b", Benchmark: "non-incremental/" + l + "/f/1.smt2", Status: "complete", Answer: "unknown", Expected: "sat", CPU: 1, Wall: 1})
	}
	for _, c := range []struct {
		rules        int
		experimental string // the divisions without a winner, in order
	}{
		{2020, "QF_LIA"},
		{2022, "QF_FP"},
		{2023, "QF_AX,QF_NIA"},
		{2024, "QF_AX,QF_NIA"},
	} {
		rep := mustScore(t, rows, Options{Rules: c.rules, Track: benchmark.ModelValidation})
		var exp, lead []string
		for _, d := range rep.Divisions {
			w := d.Ranking(Parallel).Winner
			if d.Experimental {
				exp = append(exp, d.Name)
				if w != "" || d.Ranking(Parallel).Entries[0].Correct != 1 {
					t.Errorf("rules %d: experimental %s: %+v", c.rules, d.Name, d.Ranking(Parallel))
				}
			} else if w != "a" {
				t.Errorf("rules %d: %s winner %q, want a", c.rules, d.Name, w)
			}
		}
		for _, l := range rep.BiggestLead[Parallel] {
			lead = append(lead, l.Division)
		}
		if got := strings.Join(exp, ","); got != c.experimental || len(lead) != 5-len(exp) || strings.Contains(strings.Join(lead, ","), exp[0]) {
			t.Errorf("rules %d: experimental %s, biggest lead over %v; want experimental %s", c.rules, got, lead, c.experimental)
		}
		if rep = mustScore(t, rows, Options{Rules: c.rules, Track: benchmark.ModelValidation, Compat: Official}); len(rep.BiggestLead[Parallel]) != 5 {
			t.Errorf("rules %d officially: biggest lead over %d divisions, want 5 (the official computation has its own flags)", c.rules, len(rep.BiggestLead[Parallel]))
		}
	}
}

package score

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// TestOfficial2024Tracks checks the smtcomp tool's per-track benchmark
// scores (scoring.py: benchmark_scoring) on constructed rows: what is an
// error, what is correct, what is solved, in each track.
func TestOfficial2024Tracks(t *testing.T) {
	type want struct {
		e, n            float64
		solved, timeout int
	}
	cases := []struct {
		name  string
		track benchmark.Track
		row   Row
		want  want
	}{
		{"sq right", benchmark.SingleQuery, Row{Result: "sat", Answer: "sat", Expected: "sat", Wall: 3, CPU: 3}, want{0, 1, 1, 0}},
		{"sq wrong: solved, not correct", benchmark.SingleQuery, Row{Result: "unsat", Answer: "unsat", Expected: "sat", Wall: 3, CPU: 3}, want{1, 0, 1, 0}},
		{"sq timeout", benchmark.SingleQuery, Row{Result: "Timeout", Status: "timeout", Expected: "sat", Wall: 1201, CPU: 1201}, want{0, 0, 0, 1}},
		{"uc reduction not clamped", benchmark.UnsatCore, Row{Result: "unsat", Answer: "unsat", CoreSize: 9, Asserts: 5, Wall: 1, CPU: 1}, want{0, -4, 1, 0}},
		{"uc sat answer is an error", benchmark.UnsatCore, Row{Result: "sat", Answer: "sat", Wall: 1, CPU: 1}, want{1, 0, 1, 0}},
		{"uc core not validated is an error", benchmark.UnsatCore, Row{Result: "UnsatCoreNotValidated", Answer: "unsat", CoreSize: 2, Asserts: 5, Wall: 1, CPU: 1}, want{1, 0, 0, 0}},
		{"mv validated", benchmark.ModelValidation, Row{Result: "sat", Answer: "sat", Wall: 1, CPU: 1}, want{0, 1, 1, 0}},
		{"mv model unsat is an error", benchmark.ModelValidation, Row{Result: "ModelUnsat", Answer: "sat", Wall: 1, CPU: 1}, want{1, 0, 0, 0}},
		{"mv not validated: nothing", benchmark.ModelValidation, Row{Result: "ModelNotValidated", Answer: "sat", Wall: 1, CPU: 1}, want{0, 0, 0, 0}},
		{"inc timeout keeps its answers", benchmark.Incremental, Row{Result: "Timeout", Status: "timeout", CorrectAnswers: 17, Wall: 1300, CPU: 1300}, want{0, 17, 0, 1}},
		{"inc error", benchmark.Incremental, Row{Result: "IncrementalError", WrongAnswers: 1, Wall: 2, CPU: 2}, want{1, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.row
			r.Solver, r.Benchmark = "s", "non-incremental/QF_UF/f/a.smt2"
			if c.track == benchmark.Incremental {
				r.Benchmark = "incremental/QF_UF/f/a.smt2"
			}
			rep, err := Score([]Row{r}, Options{Rules: 2024, Year: 2024, Track: c.track, Compat: Official})
			if err != nil {
				t.Fatal(err)
			}
			if rep.MemLimit != 20480 || rep.TimeLimit != 1200 {
				t.Errorf("limits %d %v", rep.MemLimit, rep.TimeLimit)
			}
			e := rep.Divisions[0].Ranking(Parallel).Entries[0]
			if got := (want{e.Error, e.Correct, e.Solved, e.Timeout}); got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestOfficial2024Entrants: a solver that entered a logic and has no
// result on one of its benchmarks gets an unsolved row (nb_answers -1 in
// the incremental track); its results in a logic it did not enter are not
// scored.
func TestOfficial2024Entrants(t *testing.T) {
	rows := []Row{
		{Solver: "a", Benchmark: "incremental/QF_LIA/f/1.smt2", Result: "incremental", CorrectAnswers: 5},
		{Solver: "a", Benchmark: "incremental/QF_LIA/f/2.smt2", Result: "incremental", CorrectAnswers: 3},
		{Solver: "b", Benchmark: "incremental/QF_LIA/f/1.smt2", Result: "incremental", CorrectAnswers: 4},
		{Solver: "b", Benchmark: "incremental/QF_BV/f/3.smt2", Result: "incremental", CorrectAnswers: 9},
	}
	rep, err := Score(rows, Options{Rules: 2024, Year: 2024, Track: benchmark.Incremental, Compat: Official,
		Entrants: map[string][]string{"a": {"QF_LIA"}, "b": {"QF_LIA"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Divisions {
		es := d.Ranking(Parallel).Entries
		switch d.Name {
		case "QF_LIA":
			if len(es) != 2 || es[0].Solver != "a" || es[0].Correct != 8 || es[1].Correct != 3 || es[1].Unsolved != 2 || es[1].Abstained != 0 {
				t.Errorf("QF_LIA: %+v", es)
			}
		case "QF_BV":
			if len(es) != 0 || d.Benchmarks != 1 {
				t.Errorf("QF_BV: %d benchmarks, %+v", d.Benchmarks, es)
			}
		}
	}
}

// TestOfficial2025BestOverall: from 2025 the tool ranks solvers over all
// divisions by Σ (n/N_D)² log₁₀ N_D (−2 log₁₀ N_D with errors); N_D is the
// division's check-sats in the incremental track.
func TestOfficial2025BestOverall(t *testing.T) {
	rows := []Row{
		{Solver: "a", Benchmark: "incremental/QF_LIA/f/1.smt2", Result: "incremental", CorrectAnswers: 10, CheckSats: 10, Wall: 1, CPU: 1},
		{Solver: "a", Benchmark: "incremental/QF_LIA/f/2.smt2", Result: "incremental", CorrectAnswers: 50, CheckSats: 90, Wall: 2, CPU: 2},
		{Solver: "b", Benchmark: "incremental/QF_LIA/f/1.smt2", Result: "IncrementalError", WrongAnswers: 1, CheckSats: 10, Wall: 1, CPU: 1},
		{Solver: "b", Benchmark: "incremental/QF_LIA/f/2.smt2", Result: "incremental", CorrectAnswers: 90, CheckSats: 90, Wall: 1, CPU: 1},
	}
	for _, year := range []int{2024, 2025} {
		rep, err := Score(rows, Options{Rules: 2024, Year: year, Track: benchmark.Incremental, Compat: Official})
		if err != nil {
			t.Fatal(err)
		}
		if year == 2024 {
			if rep.BestOverall != nil {
				t.Errorf("2024 has no best overall ranking: %+v", rep.BestOverall)
			}
			continue
		}
		ls := rep.BestOverall[Parallel]
		// a: (60/100)² · log10(100) = 0.72; b: an error: -2 · 2 = -4.
		if len(ls) != 2 || ls[0].Solver != "a" || math.Abs(ls[0].Contribution-0.72) > 1e-12 || ls[1].Contribution != -4 {
			t.Errorf("best overall %+v", ls)
		}
		if w, sc := OverallWinner(ls); w != "a" || math.Abs(sc-0.72) > 1e-12 {
			t.Errorf("winner %s %v", w, sc)
		}
		pages, err := WebPages(rep, "2025-07-01")
		if err != nil || len(pages) != 5 || pages[1].Name != "best-overall-incremental.md" {
			t.Errorf("pages %v %v", len(pages), err)
		}
	}
}

// TestFactsOf: what FactsOf leaves out, the computation does not read —
// rows without those facts score the same — and 2025's best overall
// ranking reads the check-sats and assertions.
func TestFactsOf(t *testing.T) {
	answers := []string{"sat", "unsat", "unknown", "Timeout", "IncrementalError", "UnsatCoreNotValidated", "ModelUnsat", "incremental"}
	statuses := []string{"sat", "unsat", "unknown"}
	for _, year := range []int{2024, 2025} {
		for _, track := range []benchmark.Track{benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation, benchmark.Cloud, benchmark.SingleQuery} {
			o := Options{Rules: 2024, Year: year, Track: track, Compat: Official}
			need := FactsOf(o)
			var rows []Row
			for i := range 60 {
				dir := "non-incremental"
				if track == benchmark.Incremental {
					dir = "incremental"
				}
				logic := []string{"QF_UF", "QF_LIA"}[i%2]
				res := answers[(i*7)%len(answers)]
				rows = append(rows, Row{Solver: []string{"a", "b", "c", "d"}[i%4], Benchmark: fmt.Sprintf("%s/%s/f/%d.smt2", dir, logic, i/3),
					Result: res, Answer: res, Expected: statuses[(i/3)%3], CPU: float64(i%13) + 0.5, Wall: float64(i%11) + 0.25,
					CorrectAnswers: int32(i % 5), CheckSats: int32(4 + i/3), Asserts: int32(10 + i/3), CoreSize: int32(i % 4)})
			}
			want, err := Score(rows, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rows {
				if !need.Status {
					rows[i].Expected = ""
				}
				if !need.Asserts {
					rows[i].Asserts = 0
				}
				if !need.CheckSats {
					rows[i].CheckSats = 0
				}
			}
			got, err := Score(rows, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d %s: %+v leaves out what the scores read", year, track, need)
			}
		}
	}
	if FactsOf(Options{Rules: 2023, Year: 2023, Track: benchmark.Incremental, Compat: Official}) != AllFacts ||
		FactsOf(Options{Rules: 2024, Year: 2024, Track: benchmark.Incremental}) != AllFacts {
		t.Error("before 2024, or as written: every fact")
	}
}

// TestBenchIndex: the index finds what a map finds, whatever the order
// the paths come in.
func TestBenchIndex(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {0, 2, 1, 3, 5, 4}, {3, 0, 4, 1, 5, 2}} {
		var x benchIndex
		m := map[string]int32{}
		for _, k := range order {
			p := fmt.Sprintf("non-incremental/QF_UF/f/%d.smt2", k)
			_, has := m[p]
			if x.isNew(p) && has {
				t.Fatalf("%v: %s taken for new", order, p)
			}
			if i, ok := x.find(p); ok != has || i != m[p] {
				t.Fatalf("%v: %s: %d %v, want %d %v", order, p, i, ok, m[p], has)
			}
			m[p] = int32(len(m))
			x.add(p, m[p])
			if i, ok := x.find(p); !ok || i != m[p] || x.isNew(p) {
				t.Fatalf("%v: %s added: %d %v", order, p, i, ok)
			}
		}
		for p, want := range m {
			if i, ok := x.find(p); !ok || i != want {
				t.Errorf("%v: %s: %d %v, want %d", order, p, i, ok, want)
			}
		}
	}
}

// TestOfficial2024OneLogicDivision: a division of one logic has that
// logic's scores as its page, a copy of its own (not shared with it).
func TestOfficial2024OneLogicDivision(t *testing.T) {
	rows := []Row{
		{Solver: "a", Benchmark: "non-incremental/QF_UF/f/1.smt2", Result: "sat", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1},
		{Solver: "b", Benchmark: "non-incremental/QF_UF/f/1.smt2", Result: "unknown", CPU: 2, Wall: 2},
		{Solver: "a", Benchmark: "non-incremental/QF_LIA/f/2.smt2", Result: "unsat", Answer: "unsat", Expected: "unsat", CPU: 1, Wall: 1},
		{Solver: "b", Benchmark: "non-incremental/QF_LRA/f/3.smt2", Result: "sat", Answer: "sat", Expected: "sat", CPU: 3, Wall: 3},
	}
	rep, err := Score(rows, Options{Rules: 2024, Year: 2024, Track: benchmark.SingleQuery, Compat: Official,
		Divisions: map[string][]string{"Arith": {"QF_LIA", "QF_LRA"}, "QF_Equality": {"QF_UF"}}})
	if err != nil {
		t.Fatal(err)
	}
	var one *Division
	for i := range rep.Divisions {
		if rep.Divisions[i].Name == "QF_Equality" {
			one = &rep.Divisions[i]
		}
	}
	if one == nil || len(one.PerLogic) != 1 {
		t.Fatalf("%+v", rep.Divisions)
	}
	l := one.PerLogic[0]
	want := *one
	want.Name, want.PerLogic = "QF_UF", nil
	if !reflect.DeepEqual(l, want) {
		t.Errorf("logic page %+v, want %+v", l, want)
	}
	l.Rankings[0].Entries[0].Solver = "changed"
	l.Logics[0].Benchmarks = 99
	if one.Rankings[0].Entries[0].Solver == "changed" || one.Logics[0].Benchmarks == 99 {
		t.Error("the logic's scores are the division's own")
	}
}

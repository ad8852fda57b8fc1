package selection

import (
	"errors"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

func easy2022(year int) func(int, *Candidate) {
	return func(_ int, c *Candidate) {
		c.Prior = map[int]Prior{year: {Solvers: 4, SolvedBy: 4, MaxTime: 0.9}}
	}
}

func newFamily(_ int, c *Candidate) { c.NewFamily = true }

// TestCaps2022 follows step 4: "(a) if n ≤ 300, all instances will be
// selected; (b) if 300 < n ≤ 600, a subset of 300 ...; (c) and if n > 600,
// 50% of the benchmarks".
func TestCaps2022(t *testing.T) {
	tests := []struct{ n, want int }{
		{1, 1}, {299, 299}, {300, 300}, {301, 300}, {599, 300}, {600, 300}, {601, 300}, {602, 301},
		{1000, 500}, {1001, 500},
	}
	for _, tt := range tests {
		sel := mustSelect(t, lib("QF_LRA", "f", tt.n, nil), Options{Rules: 2022, Track: benchmark.SingleQuery, Seed: 9})
		s := summary(t, sel, "QF_LRA")
		if s.Selected != tt.want || s.Eligible != tt.n || s.Dropped[NotDrawn] != tt.n-tt.want {
			t.Errorf("n=%d: %+v, want %d selected", tt.n, s, tt.want)
		}
		why := Drawn
		if tt.want == tt.n {
			why = All
		}
		if count(sel, withReason(why)) != tt.want {
			t.Errorf("n=%d: reasons should all be %s", tt.n, why)
		}
	}
}

// TestEasy2022 follows step 2 for the single query track: "All benchmarks
// that were solved by all solvers (including non-competitive solvers) in
// less than one second in the corresponding track in 2018, 2019, and
// 2020."
func TestEasy2022(t *testing.T) {
	tests := []struct {
		name  string
		prior map[int]Prior
		years []int
		easy  bool
	}{
		{"all in 0.9 s in 2019", map[int]Prior{2019: {Solvers: 3, SolvedBy: 3, MaxTime: 0.9}}, nil, true},
		{"easy in 2018 only", map[int]Prior{2018: {Solvers: 3, SolvedBy: 3, MaxTime: 0.2}, 2020: {Solvers: 3, SolvedBy: 1, MaxTime: 0.2}}, nil, true},
		{"1 s is not less than one second", map[int]Prior{2020: {Solvers: 3, SolvedBy: 3, MaxTime: 1}}, nil, false},
		{"not all solved it", map[int]Prior{2020: {Solvers: 3, SolvedBy: 2, MaxTime: 0.1}}, nil, false},
		{"one solver is too few (official tool)", map[int]Prior{2020: {Solvers: 1, SolvedBy: 1, MaxTime: 0.1}}, nil, false},
		{"two solvers", map[int]Prior{2020: {Solvers: 2, SolvedBy: 2, MaxTime: 0.1}}, nil, true},
		{"2021 is not a named year", map[int]Prior{2021: {Solvers: 3, SolvedBy: 3, MaxTime: 0.1}}, nil, false},
		{"2021 named", map[int]Prior{2021: {Solvers: 3, SolvedBy: 3, MaxTime: 0.1}}, []int{2021}, true},
		{"no years named", map[int]Prior{2019: {Solvers: 3, SolvedBy: 3, MaxTime: 0.1}}, []int{}, false},
		{"no prior results", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := lib("QF_NIA", "f", 1, func(_ int, c *Candidate) { c.Prior = tt.prior })
			sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery, PriorYears: tt.years})
			if got := len(sel.Benchmarks) == 0; got != tt.easy {
				t.Errorf("dropped as easy: %v, want %v", got, tt.easy)
			}
			if s := summary(t, sel, "QF_NIA"); tt.easy && s.Dropped[Easy] != 1 {
				t.Errorf("summary %+v", s)
			}
			// Only the single query track drops easy benchmarks.
			sel = mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.ModelValidation, Logics: []string{"QF_NIA"}, PriorYears: tt.years})
			if len(sel.Benchmarks) != 1 {
				t.Errorf("model validation dropped it")
			}
		})
	}

	// n counts what steps 1-3 leave: 700 candidates of which 150 easy is
	// n = 550, so 300 are drawn.
	cands := concat(lib("QF_NIA", "easy", 150, easy2022(2018)), lib("QF_NIA", "hard", 550, nil))
	sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery, Seed: 5})
	if s := summary(t, sel, "QF_NIA"); s.Candidates != 700 || s.Eligible != 550 || s.Selected != 300 || s.Dropped[Easy] != 150 {
		t.Errorf("summary %+v", s)
	}
}

// TestStatus2022 follows step 2 for the unsat-core track ("All benchmarks
// with only a single assertion") and step 3 for the unsat-core, proof and
// model-validation tracks.
func TestStatus2022(t *testing.T) {
	S, U, X := benchmark.Sat, benchmark.Unsat, benchmark.Unknown
	type answer struct{ sat, unsat bool }
	tests := []struct {
		track   benchmark.Track
		status  benchmark.Status
		sound   answer
		asserts int
		want    Reason // "" kept
	}{
		{benchmark.UnsatCore, U, answer{}, 2, ""},
		{benchmark.UnsatCore, U, answer{}, 1, SingleAssertion},
		{benchmark.UnsatCore, U, answer{}, 0, SingleAssertion},
		{benchmark.UnsatCore, S, answer{}, 5, WrongStatus},
		{benchmark.UnsatCore, S, answer{unsat: true}, 5, WrongStatus},
		{benchmark.UnsatCore, X, answer{}, 5, WrongStatus},
		{benchmark.UnsatCore, X, answer{unsat: true}, 5, ""},
		{benchmark.UnsatCore, X, answer{sat: true}, 5, WrongStatus},
		{benchmark.UnsatCore, X, answer{sat: true, unsat: true}, 5, ""}, // "in case of a dispute ... may be retained"
		{benchmark.UnsatCore, "", answer{unsat: true}, 5, ""},           // no :status is unknown
		{benchmark.Proof, U, answer{}, 1, ""},                           // one assertion is fine for proofs
		{benchmark.Proof, S, answer{}, 1, WrongStatus},
		{benchmark.Proof, X, answer{unsat: true}, 1, ""},
		{benchmark.Proof, X, answer{sat: true}, 1, WrongStatus},
		{benchmark.ModelValidation, S, answer{}, 1, ""},
		{benchmark.ModelValidation, U, answer{}, 1, WrongStatus},
		{benchmark.ModelValidation, U, answer{sat: true}, 1, WrongStatus},
		{benchmark.ModelValidation, X, answer{}, 1, WrongStatus},
		{benchmark.ModelValidation, X, answer{sat: true}, 1, ""},
		{benchmark.ModelValidation, X, answer{unsat: true}, 1, WrongStatus},
		{benchmark.SingleQuery, X, answer{}, 1, ""},
		{benchmark.SingleQuery, U, answer{}, 0, ""},
	}
	for _, tt := range tests {
		cands := lib("QF_BV", "f", 1, func(_ int, c *Candidate) {
			c.Status, c.Asserts, c.SoundSat, c.SoundUnsat = tt.status, tt.asserts, tt.sound.sat, tt.sound.unsat
		})
		sel := mustSelect(t, cands, Options{Rules: 2022, Track: tt.track})
		s := summary(t, sel, "QF_BV")
		if tt.want == "" && s.Selected != 1 || tt.want != "" && s.Dropped[tt.want] != 1 {
			t.Errorf("%s, status %q, sound %+v, %d asserts: %+v, want %q", tt.track, tt.status, tt.sound, tt.asserts, s, tt.want)
		}
	}
}

// TestLogics2022 checks the model-validation track's default logics ("from
// logics QF_BV, QF_IDL, ...") and an explicit list.
func TestLogics2022(t *testing.T) {
	cands := concat(lib("QF_BV", "f", 3, nil), lib("QF_ABV", "f", 3, nil), lib("QF_UFLRA", "f", 2, nil))
	sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.ModelValidation})
	if len(sel.Summary) != 2 || sel.Summary[0].Logic != "QF_BV" || sel.Summary[1].Logic != "QF_UFLRA" || len(sel.Benchmarks) != 5 {
		t.Errorf("default model-validation logics: %+v", sel.Summary)
	}
	sel = mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.ModelValidation, Logics: []string{"QF_ABV"}})
	if len(sel.Summary) != 1 || len(sel.Benchmarks) != 3 {
		t.Errorf("explicit logics: %+v", sel.Summary)
	}
	sel = mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery})
	if len(sel.Summary) != 3 || len(sel.Benchmarks) != 8 {
		t.Errorf("single query, all logics: %+v", sel.Summary)
	}
}

// TestNewFamilies2022 follows "The selection process in cases 4b and 4c
// above will guarantee the inclusion of new benchmarks by first picking
// randomly one benchmark from each new benchmark family."
func TestNewFamilies2022(t *testing.T) {
	const L = "QF_SLIA"
	t.Run("one of each", func(t *testing.T) {
		// n = 1000 + 5 + 1 + 10 = 1016 (the easy new family is not
		// eligible), so 508, of which one from each of three new families.
		cands := concat(lib(L, "old/a", 600, nil), lib(L, "old/b", 400, nil), lib(L, "new/n1", 5, newFamily),
			lib(L, "new/n2", 1, newFamily), lib(L, "new/n3", 10, newFamily),
			lib(L, "new/easy", 4, func(i int, c *Candidate) { newFamily(i, c); easy2022(2020)(i, c) }))
		for seed := uint32(0); seed < 20; seed++ {
			sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery, Seed: seed})
			if s := summary(t, sel, L); s.Selected != 508 || s.Eligible != 1016 || s.Dropped[Easy] != 4 {
				t.Fatalf("summary %+v", s)
			}
			if n := count(sel, withReason(NewFamily)); n != 3 {
				t.Errorf("%d new-family picks, want 3", n)
			}
			for _, f := range []string{"new/n1", "new/n2", "new/n3"} {
				if count(sel, inFamily(f)) == 0 {
					t.Errorf("seed %d: nothing from new family %s", seed, f)
				}
				if count(sel, func(b Selected) bool { return b.Reason == NewFamily && inFamily(f)(b) }) != 1 {
					t.Errorf("seed %d: family %s not picked first", seed, f)
				}
			}
		}
	})
	t.Run("case a takes all", func(t *testing.T) {
		cands := concat(lib(L, "old", 200, nil), lib(L, "new", 100, newFamily))
		sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery})
		if len(sel.Benchmarks) != 300 || count(sel, withReason(All)) != 300 {
			t.Errorf("n = 300: %d selected", len(sel.Benchmarks))
		}
	})
	t.Run("more new families than places", func(t *testing.T) {
		// n = 301, so 300 places; 301 new families of one each all stay.
		var cands []Candidate
		for i := 0; i < 301; i++ {
			cands = append(cands, lib(L, "new/"+string(rune('a'+i/26))+string(rune('a'+i%26)), 1, newFamily)...)
		}
		sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery})
		if len(sel.Benchmarks) != 301 || count(sel, withReason(NewFamily)) != 301 {
			t.Errorf("%d selected", len(sel.Benchmarks))
		}
	})
}

func TestIncremental2022(t *testing.T) {
	S, X := benchmark.Sat, benchmark.Unknown
	cands := incLib("QF_ABV", "f", []benchmark.Status{X, S}, []benchmark.Status{S, X, S})
	sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.Incremental})
	if len(sel.Benchmarks) != 2 || sel.Benchmarks[0].KeepCheckSats != 2 || sel.Benchmarks[1].KeepCheckSats != 3 {
		t.Errorf("2022 cuts no incremental script: %+v", sel.Benchmarks)
	}
}

func TestOptionErrors(t *testing.T) {
	cands := lib("QF_BV", "f", 2, nil)
	tests := []struct {
		name string
		opts Options
	}{
		{"no such rules", Options{Rules: 2010, Track: benchmark.SingleQuery}},
		{"2006 had no incremental track", Options{Rules: 2006, Track: benchmark.Incremental}},
		{"2014 had no unsat-core track", Options{Rules: 2014, Track: benchmark.UnsatCore}},
		{"2018 had no proof track", Options{Rules: 2018, Track: benchmark.Proof}},
		{"2022 parallel", Options{Rules: 2022, Track: benchmark.Parallel}},
		{"2022 cloud", Options{Rules: 2022, Track: benchmark.Cloud}},
		{"negative N", Options{Rules: 2014, Track: benchmark.SingleQuery, N: -1}},
		{"N outside 2014", Options{Rules: 2022, Track: benchmark.SingleQuery, N: 10}},
		{"2014 with two years", Options{Rules: 2014, Track: benchmark.SingleQuery, PriorYears: []int{2012, 2013}}},
		{"empty track", Options{Rules: 2022}},
	}
	for _, tt := range tests {
		if _, err := Select(cands, tt.opts); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := Select(cands, Options{Rules: 2022, Track: benchmark.Cloud}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("cloud: %v, want ErrUnsupported", err)
	}
	dup := append(lib("QF_BV", "f", 2, nil), lib("QF_BV", "f", 1, nil)...)
	if _, err := Select(dup, Options{Rules: 2018, Track: benchmark.SingleQuery}); err == nil {
		t.Error("duplicate path: no error")
	}
}

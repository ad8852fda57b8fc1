package selection

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// TestIncremental2018 follows "only the prefix of the benchmark up to the
// preceding check-sat command is eligible ...; if the benchmark's first
// check-sat command has unknown status, the entire benchmark is
// ineligible".
func TestIncremental2018(t *testing.T) {
	S, U, X := benchmark.Sat, benchmark.Unsat, benchmark.Unknown
	tests := []struct {
		name      string
		statuses  []benchmark.Status
		checkSats int // 0: len(statuses)
		keep      int // -1: dropped
	}{
		{"all known", []benchmark.Status{S, U, S}, 0, 3},
		{"unknown third", []benchmark.Status{S, U, X, S}, 0, 2},
		{"unknown second", []benchmark.Status{U, X}, 0, 1},
		{"unknown last", []benchmark.Status{S, S, S, X}, 0, 3},
		{"first unknown", []benchmark.Status{X, S, U}, 0, -1},
		{"single unknown", []benchmark.Status{X}, 0, -1},
		{"unannotated check-sats are unknown", []benchmark.Status{S}, 3, 1},
		{"no annotation at all", nil, 2, -1},
		{"no check-sat", nil, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := incLib("QF_LIA", "f", tt.statuses)
			if tt.checkSats > 0 {
				cands[0].CheckSats = tt.checkSats
			}
			sel := mustSelect(t, cands, Options{Rules: 2018, Track: benchmark.Incremental})
			s := summary(t, sel, "QF_LIA")
			if tt.keep < 0 {
				if len(sel.Benchmarks) != 0 || s.Dropped[FirstCheckSatUnknown] != 1 || s.Eligible != 0 {
					t.Errorf("want dropped, got %+v, %+v", sel.Benchmarks, s)
				}
				return
			}
			if len(sel.Benchmarks) != 1 || sel.Benchmarks[0].KeepCheckSats != tt.keep {
				t.Fatalf("want 1 benchmark keeping %d check-sats, got %+v", tt.keep, sel.Benchmarks)
			}
		})
	}
}

// TestRules2018 checks "All remaining benchmarks are used" and the
// unsat-core track's "unsatisfiable main track benchmarks".
func TestRules2018(t *testing.T) {
	statuses := func(i int, c *Candidate) {
		c.Status = []benchmark.Status{benchmark.Sat, benchmark.Unsat, benchmark.Unknown}[i%3]
		c.Category = []benchmark.Category{benchmark.Industrial, benchmark.Crafted}[i%2]
	}
	cands := concat(lib("QF_UF", "a", 30, statuses), lib("QF_UF", "b", 700, statuses), lib("UF", "c", 9, statuses),
		incLib("QF_UF", "i", []benchmark.Status{benchmark.Sat}))
	sel := mustSelect(t, cands, Options{Rules: 2018, Track: benchmark.SingleQuery, Seed: 1})
	if len(sel.Benchmarks) != 739 || count(sel, withReason(All)) != 739 {
		t.Errorf("main track: %d selected, want all 739", len(sel.Benchmarks))
	}
	if s := summary(t, sel, "QF_UF"); s.Sat != 244 || s.Unsat != 243 || s.Unknown != 243 || s.Candidates != 730 {
		t.Errorf("QF_UF summary %+v", s)
	}
	if len(sel.Summary) != 2 || sel.Summary[0].Logic != "QF_UF" || sel.Summary[1].Logic != "UF" {
		t.Errorf("summary order %+v", sel.Summary)
	}
	sel = mustSelect(t, cands, Options{Rules: 2018, Track: benchmark.UnsatCore})
	if n := count(sel, func(b Selected) bool { return b.Status == benchmark.Unsat }); n != len(sel.Benchmarks) || n != 246 {
		t.Errorf("unsat core: %d unsat of %d, want 246", n, len(sel.Benchmarks))
	}
	if s := summary(t, sel, "UF"); s.Dropped[WrongStatus] != 6 {
		t.Errorf("UF unsat core summary %+v", s)
	}
}

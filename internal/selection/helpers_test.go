package selection

import (
	"fmt"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// lib builds n non-incremental candidates of one family: industrial, sat,
// no difficulty, five assertions, one check-sat, unless set changes them.
func lib(logic, family string, n int, set func(i int, c *Candidate)) []Candidate {
	out := make([]Candidate, n)
	for i := range out {
		out[i] = Candidate{Benchmark: benchmark.Benchmark{
			Path:       fmt.Sprintf("non-incremental/%s/%s/b%05d.smt2", logic, family, i),
			Logic:      logic,
			Category:   benchmark.Industrial,
			Status:     benchmark.Sat,
			Difficulty: -1,
			Asserts:    5,
			CheckSats:  1,
		}}
		if set != nil {
			set(i, &out[i])
		}
	}
	return out
}

// incLib builds n incremental candidates whose check-sats have the given
// statuses.
func incLib(logic, family string, statuses ...[]benchmark.Status) []Candidate {
	out := make([]Candidate, len(statuses))
	for i, st := range statuses {
		out[i] = Candidate{Benchmark: benchmark.Benchmark{
			Path:        fmt.Sprintf("incremental/%s/%s/b%05d.smt2", logic, family, i),
			Logic:       logic,
			Incremental: true,
			Status:      benchmark.Unknown,
			Statuses:    st,
			CheckSats:   len(st),
			Difficulty:  -1,
		}}
	}
	return out
}

func concat(libs ...[]Candidate) []Candidate {
	var out []Candidate
	for _, l := range libs {
		out = append(out, l...)
	}
	return out
}

func mustSelect(t *testing.T, cands []Candidate, opts Options) Selection {
	t.Helper()
	sel, err := Select(cands, opts)
	if err != nil {
		t.Fatalf("Select: %v", err)
	}
	return sel
}

// count counts the selected benchmarks for which pred holds.
func count(sel Selection, pred func(Selected) bool) int {
	n := 0
	for _, b := range sel.Benchmarks {
		if pred(b) {
			n++
		}
	}
	return n
}

func summary(t *testing.T, sel Selection, logic string) LogicSummary {
	t.Helper()
	for _, s := range sel.Summary {
		if s.Logic == logic {
			return s
		}
	}
	t.Fatalf("no summary for %s in %+v", logic, sel.Summary)
	return LogicSummary{}
}

func inFamily(f string) func(Selected) bool {
	return func(b Selected) bool { return benchmark.Family(b.Path, 2022) == f }
}

func withReason(r Reason) func(Selected) bool {
	return func(b Selected) bool { return b.Reason == r }
}

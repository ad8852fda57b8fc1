package store

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// TestReadBenchFacts: the facts array as either database writes it, and
// malformed ones refused with an error, not a panic.
func TestReadBenchFacts(t *testing.T) {
	out := make([]BenchFact, 3)
	if err := readBenchFacts(`[[2, "sat", 4, 0], [0,"x\"y",1,2]]`, out); err != nil {
		t.Fatal(err)
	}
	if out[2] != (BenchFact{true, benchmark.Sat, 4, 0}) || out[0] != (BenchFact{true, `x"y`, 1, 2}) || out[1].Indexed {
		t.Errorf("%+v", out)
	}
	for _, bad := range []string{`[`, `[[0,"sat",1]]`, `[[3,"sat",1,1]]`, `[[-1,"sat",1,1]]`, `[[0,sat,1,1]]`, `[] x`, `[[0,"sat",1,1],]`, `{}`} {
		if err := readBenchFacts(bad, make([]BenchFact, 3)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if err := readBenchFacts("", out); err != nil {
		t.Error(err)
	}
	if err := readBenchFacts("[]", out); err != nil {
		t.Error(err)
	}
}

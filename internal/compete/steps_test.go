package compete

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/selection"
)

func TestHardest(t *testing.T) {
	c := func(path string, prior map[int]selection.Prior) selection.Candidate {
		return selection.Candidate{Benchmark: benchmark.Benchmark{Path: path}, Prior: prior}
	}
	cands := []selection.Candidate{
		c("easy", map[int]selection.Prior{2021: {Solvers: 3, SolvedBy: 3, MinTime: 0.1}}),
		c("slow", map[int]selection.Prior{2021: {Solvers: 3, SolvedBy: 1, MinTime: 900}}),
		c("unsolved", map[int]selection.Prior{2021: {Solvers: 3, SolvedBy: 0}}),
		c("new", nil),
	}
	var got []string
	for _, b := range hardest(cands, 3, 1) {
		got = append(got, b.Path)
	}
	if strings.Join(got, ",") != "unsolved,new,slow" {
		t.Errorf("got %v", got)
	}
}

func TestCutAfter(t *testing.T) {
	src := "(set-logic QF_UF)\n(push 1)\n(check-sat)\n(pop 1)\n(check-sat)\n(exit)\n"
	out, err := cutAfter("f", []byte(src), 1)
	if err != nil || string(out) != "(set-logic QF_UF)\n(push 1)\n(check-sat)\n\n(exit)\n" {
		t.Errorf("%q %v", out, err)
	}
}

func TestExpectedOf(t *testing.T) {
	b := benchmark.Benchmark{Incremental: true, CheckSats: 2, Statuses: []benchmark.Status{"sat", "unsat"}}
	if got := expectedOf(b, "/nonexistent"); got != "sat unsat" {
		t.Errorf("annotated: %q", got)
	}
	b.Statuses = []benchmark.Status{"unknown", "unknown"}
	if got := expectedOf(b, "/nonexistent"); got != "unknown unknown" {
		t.Errorf("no .expected: %q", got)
	}
	src := filepath.Join(t.TempDir(), "b.smt2")
	os.WriteFile(src+".expected", []byte("sat\nunsat\n"), 0o644)
	if got := expectedOf(b, src); got != "sat unsat" {
		t.Errorf("from .expected: %q", got)
	}
	if got := expectedOf(benchmark.Benchmark{Status: "sat"}, ""); got != "sat" {
		t.Errorf("single query: %q", got)
	}
}

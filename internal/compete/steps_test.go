package compete

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
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

// TestPrepareInputRefused: a benchmark the official scrambler refuses is an
// inputError (left out of the track), not an error that stops the run.
func TestPrepareInputRefused(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "non-incremental", "QF_UF", "f")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"ok.smt2":      "(set-logic QF_UF)\n(declare-fun p () Bool)\n(assert p)\n(check-sat)\n",
		"option.smt2":  "(set-logic QF_UF)\n(set-option :produce-models true)\n(check-sat)\n",
		"broken.smt2":  "(set-logic QF_UF)\n(assert (and p\n",
		"sortarg.smt2": "(set-logic QF_UF)\n(declare-sort S 1)\n(check-sat)\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(lib, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte("name = \"c\"\nrules = 2022\nlibrary = [\"lib\"]\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = 1\n"+
		"[[solvers]]\nname = \"s\"\ntracks = [\"single-query\"]\nlogics = [\".*\"]\ncommand = [\"true\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	p := &Prepared{Def: c, Seed: 1}
	out := t.TempDir()
	for i, name := range []string{"ok.smt2", "option.smt2", "broken.smt2", "sortarg.smt2"} {
		b := benchmark.Benchmark{ID: int64(i + 1), Path: "non-incremental/QF_UF/f/" + name, Status: "sat"}
		_, _, err := p.prepareInput(benchmark.SingleQuery, b, 0, out)
		var ie *inputError
		if refused := errors.As(err, &ie); refused != (name != "ok.smt2") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A benchmark that is not there is not the benchmark's fault.
	_, _, err = p.prepareInput(benchmark.SingleQuery, benchmark.Benchmark{ID: 9, Path: "non-incremental/QF_UF/f/gone.smt2"}, 0, out)
	var ie *inputError
	if err == nil || errors.As(err, &ie) {
		t.Errorf("missing file: %v", err)
	}
}

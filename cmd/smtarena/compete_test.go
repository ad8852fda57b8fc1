package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// writeLibrary writes n tiny QF_UF benchmarks (half sat, half unsat).
func writeLibrary(t testing.TB, dir string, n int) {
	t.Helper()
	d := filepath.Join(dir, "non-incremental", "QF_UF", "tiny")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		status, body := "sat", "(assert p)"
		if i%2 == 1 {
			status, body = "unsat", "(assert (and p (not p)))"
		}
		src := fmt.Sprintf("(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status %s)\n(declare-fun p () Bool)\n%s\n(check-sat)\n(exit)\n", status, body)
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("b%03d.smt2", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func needRootForRuns(t testing.TB) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "competitions run solvers in the sandbox, which needs root")
	}
}

func TestCompeteRealSolvers(t *testing.T) {
	needRootForRuns(t)
	for _, s := range []string{"z3", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 6)
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "t"
rules = 2022
library = ["lib"]
[seed]
value = 7
[tracks.single-query]
cpu_limit = "10s"
wall_limit = "20s"
memory_mb = 1024
[[solvers]]
name = "z3"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["z3", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc5"]
`), 0o644)
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"12 pairs planned", "single-query track, division QF_Equality", "z3      6       6    3      3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkKeptOutputs(t, def, 12)
	code, out, _ = runCLI(t, "", "status", def)
	if code != 0 || !strings.Contains(out, "single-query        0        0    12     12") {
		t.Errorf("status: %d\n%s", code, out)
	}
	// The competition's results, scored by its rules (2022: the division
	// QF_Equality; both solvers right on all six benchmarks).
	code, out, errs = runCLI(t, "", "score", "--config", def)
	if code != 0 || !strings.Contains(out, "QF_Equality: 6 benchmarks") || !strings.Contains(out, "parallel: winner") {
		t.Errorf("score: %d %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "", "score", "--config", def, "--format", "csv")
	for _, s := range []string{"z3", "cvc5"} {
		if code != 0 || !strings.Contains(out, ",parallel,") || !regexp.MustCompile(`QF_Equality,,parallel,[12],`+s+`,yes,(true|false),0,6,`).MatchString(out) {
			t.Errorf("score csv: %d, no line of %s with 6 correct:\n%s", code, s, out)
		}
	}
}

// killCompeteAfter starts `smtarena compete --quiet def` (the test binary
// as smtarena) and kills it with SIGKILL after d.
func killCompeteAfter(t *testing.T, exe, def string, d time.Duration) {
	t.Helper()
	c := exec.Command(exe, "compete", "--quiet", def)
	c.Env = append(os.Environ(), "SMTARENA_TEST_MAIN=1")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	_ = c.Process.Kill()
	_ = c.Wait()
}

// TestCompeteResume kills the compete process with SIGKILL 20 times during a
// 500-pair run, then lets it finish: every pair is recorded exactly once.
func TestCompeteResume(t *testing.T) {
	needRootForRuns(t)
	if testing.Short() {
		t.Skip("500 pairs")
	}
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 250)
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "resume"
rules = 2018
library = ["lib"]
[seed]
value = 1
[tracks.single-query]
wall_limit = "10s"
[[solvers]]
name = "a"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo sat", "a", "{file}"]
[[solvers]]
name = "b"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat", "b", "{file}"]
`), 0o644)
	exe, _ := os.Executable()
	for cycle := 0; cycle < 20; cycle++ {
		killCompeteAfter(t, exe, def, time.Duration(150+cycle*37%200)*time.Millisecond)
	}
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("final run: %d %s %s", code, out, errs)
	}
	st := openCompeteStore(t, def)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range rs {
		keys[r.SourceKey] = true
	}
	if len(rs) != 500 || len(keys) != 500 {
		t.Errorf("%d results for %d distinct pairs, want 500 each", len(rs), len(keys))
	}
	if !strings.Contains(out, "a    250     125  125      0        0") {
		t.Errorf("summary:\n%s", out)
	}
}

// TestCompeteStoreHidden: a solver cannot read the competition's store (it
// holds every solver's results), even when handed its path: each solver
// answers sat if it can read the file it is given, unsat if not.
func TestCompeteStoreHidden(t *testing.T) {
	needRootForRuns(t)
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 2)
	db := filepath.Join(dir, "work", "smtarena.db")
	def := filepath.Join(dir, "c.toml")
	solver := func(name string) string {
		return fmt.Sprintf(`[[solvers]]
name = %q
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "if cat \"$1\" >/dev/null; then echo sat; else echo unsat; fi", "s", %q, "{file}"]
`, name, db)
	}
	os.WriteFile(def, []byte(`name = "hidden"
rules = 2018
library = ["lib"]
workdir = "work"
[seed]
value = 1
[tracks.single-query]
wall_limit = "10s"
`+solver("a")+solver("b")), 0o644)
	if code, out, errs := runCLI(t, "", "compete", "--quiet", def); code != 0 {
		t.Fatalf("compete: %d %s %s", code, out, errs)
	}
	rs, err := openCompeteStore(t, def).Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4", len(rs))
	}
	for _, r := range rs {
		if r.Answer != "unsat" {
			t.Errorf("%s on %s answered %q: it read the store", r.Solver, r.BenchmarkPath, r.Answer)
		}
	}
}

// TestIsWrong: the progress line counts wrong answers as the result tables
// do, in both tracks and also when the run was then killed at a limit.
func TestIsWrong(t *testing.T) {
	for extra, want := range map[string]bool{
		`{"wrong":true,"reason":"cputime"}`: true,
		`{"wrong":false}`:                   false,
		`{"wrong_answers":1,"solved":3}`:    true,
		`{"wrong_answers":0,"solved":3}`:    false,
		``:                                  false,
	} {
		if got := isWrong(store.Result{Extra: extra}); got != want {
			t.Errorf("%s: %v, want %v", extra, got, want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// runCLI runs one command line as main does and returns its exit code and
// outputs.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, streams{strings.NewReader(stdin), &out, &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFmt(t *testing.T) {
	code, out, _ := runCLI(t, "(set-logic QF_UF)  (assert   (|a| true))", "fmt", "-")
	if code != 0 || out != "(set-logic QF_UF)\n(assert (a true))\n" {
		t.Errorf("fmt: code %d, output %q", code, out)
	}
	p := writeFile(t, "bad.smt2", "(set-logic QF_UF)\n(assert (and true)\n(check-sat)\n")
	code, _, errs := runCLI(t, "", "fmt", p)
	if code != 2 || !strings.Contains(errs, "bad.smt2:3:1: expected ')'") {
		t.Errorf("fmt of a broken file: code %d, stderr %q", code, errs)
	}
}

func TestGenerateMetaLint(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gen.smt2")
	if code, _, errs := runCLI(t, "", "generate", "qf_lia", "--seed", "3", "--bytes", "20000", "-o", p); code != 0 {
		t.Fatalf("generate: %d %s", code, errs)
	}
	code, out, _ := runCLI(t, "", "meta", "--json", p)
	if code != 0 || !strings.Contains(out, `"logic":"QF_LIA"`) {
		t.Errorf("meta: code %d, output %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "lint", p); code != 0 || out != "" {
		t.Errorf("lint of a generated benchmark: code %d, output %q", code, out)
	}
}

func TestLint(t *testing.T) {
	p := writeFile(t, "b.smt2", "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> (* x x) 0))\n(check-sat)\n(check-sat)\n")
	code, out, _ := runCLI(t, "", "lint", "--summary", p)
	for _, want := range []string{"b.smt2:3:13: nonlinear multiplication", "b.smt2:5:1: second check-sat", "1 files, 1 with errors", "errors by kind: check-sat 1, linear 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("lint exit code %d, want 1", code)
	}
	for _, args := range [][]string{{"lint", "--track", "sprint", p}, {"lint", "--rules", "2014", "--track", "unsat-core", p}, {"lint", "/nonexistent"}} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

// TestLintShared runs lint on the shared benchmarks as the README shows.
func TestLintShared(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	code, out, _ := runCLI(t, "", "lint", "--track", "auto", "--summary", "--quiet", dir)
	if code != 1 || !strings.Contains(out, " with errors\n") {
		t.Errorf("code %d, summary:\n%s", code, out)
	}
}

func TestMain(m *testing.M) {
	if os.Getenv("SMTARENA_TEST_MAIN") != "" {
		// Act as the smtarena binary, for tests that kill it.
		os.Exit(run(context.Background(), os.Args[1:], streams{os.Stdin, os.Stdout, os.Stderr}))
	}
	os.Exit(m.Run())
}

func TestExec(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "smtarena exec tests need root")
	}
	dir := testenv.Shared(t, "benchmarks")
	bench := filepath.Join(dir, "non-incremental", "QF_LIA", "cvc4-regress0-arith", "mod-simp.smt2")
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, backend := range []string{"cgroup1", "fallback"} {
		code, stdout, errs := runCLI(t, "", "exec", "--backend", backend, "--cpu-limit", "20", "--mem-limit", "1024", "--output", out, "--", "z3", bench)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", backend, code, errs)
		}
		for _, want := range []string{"reason=completed\n", "exit_code=0\n", "backend=" + backend + "\n", "cpu_s=", "peak_mb="} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", backend, want, stdout)
			}
		}
		if b, _ := os.ReadFile(out); string(b) != "unsat\n" {
			t.Errorf("%s: solver output %q", backend, b)
		}
	}
	code, stdout, _ := runCLI(t, "", "exec", "--json", "--wall-limit", "0.3", "--output", out, "--", "sleep", "10")
	if code != 0 || !strings.Contains(stdout, `"reason":"walltime"`) || !strings.Contains(stdout, `"signal":"SIGTERM"`) {
		t.Errorf("wall limit: exit %d, %s", code, stdout)
	}
	code, _, errs := runCLI(t, "", "exec", "--", "no-such-solver")
	if code != 2 || !strings.Contains(errs, "reason=failed") || !strings.Contains(errs, "no-such-solver") {
		t.Errorf("missing solver: exit %d, stderr %s", code, errs)
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

func needZ3(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		testenv.Skipf(t, "needs z3: %v", err)
	}
}

// TestTraceExecGolden runs rows of the official executor's golden data
// through the CLI: output byte for byte and exit status.
func TestTraceExecGolden(t *testing.T) {
	needZ3(t)
	dir := testenv.Shared(t, "trace-golden")
	input := filepath.Join(dir, "inputs/incremental/QF_LRA/cvc5-regress1-push-pop/fuzz_5_1.smt2")
	out := func(solver string) string {
		b, err := os.ReadFile(filepath.Join(dir, "outputs", solver, "incremental/QF_LRA/cvc5-regress1-push-pop/fuzz_5_1.smt2.out"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		solver string
		flags  []string
		code   int
	}{
		{"z3", nil, 0},
		{"wrong-solver", nil, 2},
		{"garbage-solver", nil, 1},
		{"nosuccess-solver", []string{"--timeout", "0.5"}, 124}, // the official one hangs (124 from GNU timeout)
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct {
			solver string
			flags  []string
			code   int
		}{"z3", []string{"--sandbox", "--cpu-limit", "20", "--mem-limit", "1024"}, 0})
	}
	for _, tc := range cases {
		args := append(append([]string{"trace-exec"}, tc.flags...), input, "--", filepath.Join(dir, "solvers", tc.solver+".sh"))
		code, stdout, stderr := runCLI(t, "", args...)
		if code != tc.code || stdout != out(tc.solver) {
			t.Errorf("%s %v: exit %d (want %d), output %q (want %q), stderr %q", tc.solver, tc.flags, code, tc.code, stdout, out(tc.solver), stderr)
		}
		if tc.code == 124 && !strings.Contains(stderr, "limit (walltime)") {
			t.Errorf("time-out: stderr %q", stderr)
		}
	}
}

// TestTraceExecExpectedFile runs a shared benchmark without header, whose
// answers are in its .expected file, and records the times of the answers.
func TestTraceExecExpectedFile(t *testing.T) {
	needZ3(t)
	bench := filepath.Join(testenv.Shared(t, "benchmarks"), "incremental/QF_LIA/cvc5-regress1-push-pop/fuzz_4.smt2")
	want, err := os.ReadFile(bench + ".expected")
	if err != nil {
		t.Fatal(err)
	}
	times := filepath.Join(t.TempDir(), "times.tsv")
	code, stdout, stderr := runCLI(t, "", "trace-exec", "--times", times, bench, "--", "z3", "-in")
	if code != 0 || stdout != string(want) {
		t.Fatalf("exit %d, output %q (want %q), stderr %q", code, stdout, want, stderr)
	}
	b, err := os.ReadFile(times)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	n := strings.Count(string(want), "\n")
	if len(lines) != n+2 || lines[0] != "query\tanswer\texpected\twall_s\tcpu_s\twall_at_s\tcpu_at_s" {
		t.Fatalf("times file:\n%s", b)
	}
	if f := strings.Split(lines[1], "\t"); len(f) != 7 || f[0] != "1" || f[1] != f[2] {
		t.Errorf("first row %q", lines[1])
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "# status=done exit=0 ") || !strings.Contains(last, "source=expected") {
		t.Errorf("summary %q", last)
	}
}

func TestTraceExecUsage(t *testing.T) {
	p := writeFile(t, "b.smt2", "sat\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n")
	for _, args := range [][]string{
		{"trace-exec"},
		{"trace-exec", p},
		{"trace-exec", "--no-such-flag", p, "--", "z3"},
		{"trace-exec", "--cpu-limit", "10", p, "--", "z3"},
		{"trace-exec", p, "z3", "--", "-in"},
		{"trace-exec", "--timeout", "-1", p, "--", "z3"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != 3 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 3 and a message", args, code, stderr)
		}
	}
	// A solver that cannot be started is judged as the official executor
	// judges it.
	code, stdout, stderr := runCLI(t, "", "trace-exec", p, "--", "/nonexistent/solver")
	if code != 1 || stdout != "BAD response to set-option command: 'Cannot execute: /nonexistent/solver\n'\n" || !strings.Contains(stderr, "cannot execute") {
		t.Errorf("missing solver: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestTraceExecSaysWhyNothingRan: where the official executor prints
// nothing (no expected answer, or unknown first) or only a BAD line (no
// answers anywhere), standard error says why; standard output and the exit
// status stay the official ones.
func TestTraceExecSaysWhyNothingRan(t *testing.T) {
	needZ3(t)
	script := "(set-logic QF_UF)\n(push 1)\n(check-sat)\n(pop 1)\n(check-sat)\n(exit)\n"
	for _, c := range []struct {
		name, src, flag, stdout, why string
		code                         int
	}{
		{"empty-header.smt2", "--- BENCHMARK BEGINS HERE ---\n" + script, "", "", "gives no expected answer (from its header", 0},
		{"unknown-first.smt2", "unknown\nsat\n--- BENCHMARK BEGINS HERE ---\n" + script, "", "", "expects unknown first, so no query was run", 0},
		{"unknown-first-continue.smt2", "unknown\nsat\n--- BENCHMARK BEGINS HERE ---\n" + script, "--continue-after-unknown", "sat\nsat\n", "", 0},
		{"no-answers.smt2", script, "", "BAD expected result: '(set-logic QF_UF)\n'\n", "no-answers.smt2.expected, no (set-info :status ...)", 1},
	} {
		args := []string{"trace-exec"}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		args = append(args, writeFile(t, c.name, c.src), "--", "z3", "-in")
		code, stdout, stderr := runCLI(t, "", args...)
		if code != c.code || stdout != c.stdout || (c.why == "") != (stderr == "") || !strings.Contains(stderr, c.why) {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want %d, %q and %q", c.name, c.flag, code, stdout, stderr, c.code, c.stdout, c.why)
		}
	}
}

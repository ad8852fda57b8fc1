package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
	if code != 2 || !strings.Contains(errs, "bad.smt2:3:1: expected ')'") || strings.Contains(errs, "stopped after") {
		t.Errorf("fmt of a broken file: code %d, stderr %q", code, errs)
	}
	// Past ten errors it says it stopped, and --all-errors gives them all.
	p = writeFile(t, "worse.smt2", "(set-logic QF_UF)\n"+strings.Repeat("(assert true)) )\n", 15))
	code, _, errs = runCLI(t, "", "fmt", p)
	if code != 2 || strings.Count(errs, "worse.smt2:") != 10 || !strings.Contains(errs, "(stopped after ten errors; --all-errors reports every one)") {
		t.Errorf("fmt of a file with 30 errors: code %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "fmt", "--all-errors", p)
	if code != 2 || strings.Count(errs, "worse.smt2:") != 30 || strings.Contains(errs, "stopped after") {
		t.Errorf("fmt --all-errors: code %d, stderr %q", code, errs)
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
	if os.Getenv("SMTARENA_TEST_MEASURE") != "" {
		os.Exit(measureCommand(os.Args[1:]))
	}
	if os.Getenv("SMTARENA_TEST_MAIN") != "" {
		// Act as the smtarena binary, for tests that kill it (and for the
		// Slurm tests' workers, which scancel stops with SIGTERM).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], streams{os.Stdin, os.Stdout, os.Stderr})
		stop()
		os.Exit(code)
	}
	code := m.Run()
	testenv.StopPostgres()
	if score2024DB.path != "" { // BenchmarkScore2024's store, shared by its runs
		os.RemoveAll(filepath.Dir(score2024DB.path))
	}
	os.Exit(code)
}

// measureCommand runs a command and prints its wall time, CPU time and
// peak RSS as "wall_ns cpu_ns maxrss_kb" on stdout, its output going to
// this process's stderr. The benchmarks run commands through it, as a
// process of its own: a process's peak RSS (ru_maxrss) counts that of the
// process it was started from, up to its exec (Go starts commands with
// vfork), so a command started from a benchmark that holds hundreds of MB
// would report at least those. Started from here, it reports at least this
// process's own RSS, some 10 MB, below the commands' own peaks.
func measureCommand(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "measure: no command")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		return 1
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "measure: no resource usage")
		return 1
	}
	fmt.Printf("%d %d %d\n", wall.Nanoseconds(), ru.Utime.Nano()+ru.Stime.Nano(), ru.Maxrss)
	return 0
}

func TestExec(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "smtarena exec tests need root")
	}
	dir := testenv.Shared(t, "benchmarks")
	bench := filepath.Join(dir, "non-incremental", "QF_LIA", "cvc4-regress0-arith", "mod-simp.smt2")
	out := filepath.Join(t.TempDir(), "out.txt")
	// The backend this machine picks (cgroup1 here and in CI), and the
	// fallback.
	_, _, errs := runCLI(t, "", "exec", "--", "true")
	best := strings.TrimPrefix(lineWith(errs, "backend="), "backend=")
	backends := []string{"fallback"}
	if best != "fallback" {
		backends = append([]string{best}, backends...)
	}
	for _, backend := range backends {
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
	code, _, errs = runCLI(t, "", "exec", "--", "no-such-solver")
	if code != 2 || !strings.Contains(errs, "reason=failed") || !strings.Contains(errs, "no-such-solver") {
		t.Errorf("missing solver: exit %d, stderr %s", code, errs)
	}
	for _, c := range [][2]string{{"--mem-limit", "-5"}, {"--cpu-limit", "-1"}, {"--grace", "-2"}, {"--wall-limit", "2e+09"}} {
		code, _, errs = runCLI(t, "", "exec", c[0], c[1], "--", "true")
		if want := c[0] + " " + c[1] + ": must be between 0 and 1e9"; code == 0 || !strings.Contains(errs, want) {
			t.Errorf("%s %s: exit %d, stderr %q, want %q", c[0], c[1], code, errs, want)
		}
	}
}

// cliBinary runs this test binary as the smtarena command, so that the
// C exec command linked into it (internal/sandbox/native) gets the command
// line first; with engine "go" it leaves it to the Go command.
func cliBinary(t *testing.T, engine string, args ...string) (int, string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "SMTARENA_TEST_MAIN=1", "SMTARENA_EXEC_ENGINE="+engine)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// TestExecEngines runs `smtarena exec` on the C command and on the Go one
// and compares their reports: the same keys in the same order, the same
// JSON types, the same verdicts and exit statuses.
func TestExecEngines(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "smtarena exec tests need root")
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	in := writeFile(t, "in.txt", "one\ntwo\n")
	cases := [][]string{
		{"exec", "--", "true"},
		{"exec", "--json", "--output", out, "--", "true"},
		{"exec", "--json", "--wall-limit", "0.3", "--output", out, "--", "sleep", "10"},
		{"exec", "--output", out, "--stdin", in, "--", "cat"},
		{"exec", "--timestamps", "--output", out, "--stdin", in, "--", "cat"},
		{"exec", "--output", out, "--backend", "fallback", "--cpu-limit=0.3", "--", "sh", "-c", "while :; do :; done"},
		{"exec", "--", "no-such-solver"},
		{"exec", "--json", "--", "no-such-solver"},
		{"exec", "--stdin", "/no/such/file", "--", "true"},
		{"exec", "--output", "/dev/full", "--", "echo", "a full disk"},
	}
	keysOf := func(report string) []string {
		var keys []string
		for _, line := range strings.Split(strings.TrimSpace(report), "\n") {
			k, _, _ := strings.Cut(line, "=")
			keys = append(keys, k)
		}
		return keys
	}
	for _, args := range cases {
		cCode, cOut, cErr := cliBinary(t, "", args...)
		cFile, _ := os.ReadFile(out)
		goCode, goOut, goErr := cliBinary(t, "go", args...)
		goFile, _ := os.ReadFile(out)
		name := strings.Join(args, " ")
		if cCode != goCode {
			t.Errorf("%s: exit %d (C) and %d (Go); stderr %q and %q", name, cCode, goCode, cErr, goErr)
		}
		cReport, goReport := cOut+cErr, goOut+goErr
		if strings.Contains(name, "--json") {
			var c, g map[string]any
			cj := cReport[strings.Index(cReport, "{"):]
			gj := goReport[strings.Index(goReport, "{"):]
			dc, dg := json.NewDecoder(strings.NewReader(cj)), json.NewDecoder(strings.NewReader(gj))
			if err := errors.Join(dc.Decode(&c), dg.Decode(&g)); err != nil {
				t.Fatalf("%s: %v\n%s\n%s", name, err, cReport, goReport)
			}
			for k, v := range g {
				if fmt.Sprintf("%T", c[k]) != fmt.Sprintf("%T", v) {
					t.Errorf("%s: %s is %T (C) and %T (Go)", name, k, c[k], v)
				}
			}
			for _, k := range []string{"reason", "exit_code", "signal", "backend", "accurate"} {
				if c[k] != g[k] {
					t.Errorf("%s: %s is %v (C) and %v (Go)", name, k, c[k], g[k])
				}
			}
			continue
		}
		if ck, gk := keysOf(stripSmtarena(cReport)), keysOf(stripSmtarena(goReport)); strings.Join(ck, ",") != strings.Join(gk, ",") {
			t.Errorf("%s: keys %v (C) and %v (Go)", name, ck, gk)
		}
		for _, k := range []string{"reason=", "exit_code=", "signal=", "backend=", "smtarena: "} {
			if lineWith(cReport, k) != lineWith(goReport, k) {
				t.Errorf("%s: %q (C) and %q (Go)", name, lineWith(cReport, k), lineWith(goReport, k))
			}
		}
		if strings.Contains(name, "--timestamps") {
			cFile, goFile = stripStamps(cFile), stripStamps(goFile)
		}
		if !bytes.Equal(cFile, goFile) {
			t.Errorf("%s: output %q (C) and %q (Go)", name, cFile, goFile)
		}
	}
	// What the C command does not take is left to the Go one.
	for _, args := range [][]string{{"exec", "--help"}, {"exec", "--cpu-limit", "x", "--", "true"}, {"exec", "--"}} {
		code, _, errs := cliBinary(t, "", args...)
		goCode, _, goErrs := cliBinary(t, "go", args...)
		if code != goCode || errs != goErrs {
			t.Errorf("%v: exit %d, %q; the Go command: exit %d, %q", args, code, errs, goCode, goErrs)
		}
	}
	if code, _, errs := cliBinary(t, "", "exec", "true"); code != 0 || !strings.Contains(errs, "reason=completed\n") {
		t.Errorf("exec without --: exit %d, %q", code, errs)
	}
}

func lineWith(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}

// stripSmtarena drops the "smtarena: ..." error line from a report.
func stripSmtarena(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "smtarena: ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// stripStamps drops the WALL/CPU<TAB> prefixes of timestamped lines.
func stripStamps(b []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if _, text, ok := strings.Cut(line, "\t"); ok {
			line = text
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

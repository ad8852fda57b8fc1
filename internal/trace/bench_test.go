package trace

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/testenv"
)

// incrementalLIA generates an incremental QF_LIA script in the official
// format: 2,600 commands, 600 of them check-sat in push/assert/check-sat/pop
// blocks, each answer known by construction. It returns the file's text.
func incrementalLIA(seed int64) string {
	const vars, blocks, extra = 10, 600, 179
	r := rand.New(rand.NewSource(seed))
	var script strings.Builder
	var answers []string
	script.WriteString("(set-logic QF_LIA)\n")
	for i := 0; i < vars; i++ {
		fmt.Fprintf(&script, "(declare-fun x%d () Int)\n", i)
	}
	for i := 0; i < vars; i++ {
		fmt.Fprintf(&script, "(assert (and (<= 0 x%d) (<= x%d 1000)))\n", i, i)
	}
	for b := 0; b < blocks; b++ {
		j, k := r.Intn(vars), r.Intn(vars-1)
		if k >= j {
			k++
		}
		lo, hi, c := r.Intn(1100)-50, r.Intn(1100)-50, r.Intn(2100)-50
		// sat iff some xj in [lo, hi] ∩ [0, 1000] has c - xj in [0, 1000].
		a := "unsat"
		if max(lo, 0, c-1000) <= min(hi, 1000, c) {
			a = "sat"
		}
		answers = append(answers, a)
		fmt.Fprintf(&script, "(push 1)\n(assert (and (>= x%d %d) (<= x%d %d) (= (+ x%d x%d) %d)))\n(check-sat)\n(pop 1)\n",
			j, lo, j, hi, j, k, c)
		if b < extra {
			fmt.Fprintf(&script, "(assert (>= x%d 0))\n", b%vars)
		}
	}
	script.WriteString("(exit)\n")
	return strings.Join(answers, "\n") + "\n" + Header + "\n" + script.String()
}

// TestIncrementalLIA checks the generator: its counts, and z3's answers.
func TestIncrementalLIA(t *testing.T) {
	in := Parse([]byte(incrementalLIA(1)))
	if len(in.Expected) != 600 {
		t.Fatalf("%d expected answers", len(in.Expected))
	}
	sp := NewSplitter(in.Script())
	n, checks := 0, 0
	for c, err := sp.Next(); err == nil; c, err = sp.Next() {
		n++
		if c.CheckSat {
			checks++
		}
	}
	if n != 2600+1 || checks != 600 { // with the final (exit)
		t.Errorf("%d commands, %d check-sat", n, checks)
	}
}

func benchInput(b *testing.B) string {
	if _, err := exec.LookPath("z3"); err != nil {
		b.Skip("needs z3")
	}
	p := filepath.Join(b.TempDir(), "lia.smt2")
	if err := os.WriteFile(p, []byte(incrementalLIA(1)), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkTraceExec: wall time of the trace executor on a 2,600-command
// incremental QF_LIA script with 600 check-sat answered by z3 (z3 -in), from
// the start of the solver to its exit. The target: at most 1.2 times
// the official C executor's, measured side by side ("official", below; the
// issue quotes about 50 ms for it). The sub-benchmarks: plain pipes as
// smtarena trace-exec runs by default; the same recording every answer's
// CPU time from /proc (--times); the sandbox (--sandbox, root); the
// smtarena binary as a user runs it (bin/smtarena, built by make build);
// interleaved with a minimal C lock-step client (side-by-side); interleaved
// with the official executor, when TRACE_EXECUTOR_OFFICIAL names it
// (official); and z3 reading the whole script at once, no executor at all:
// the floor.
func BenchmarkTraceExec(b *testing.B) {
	bench := benchInput(b)
	run := func(b *testing.B, start func() Conn) {
		var walls, cpus []time.Duration
		for i := 0; i < b.N; i++ {
			in, err := Open(bench)
			if err != nil {
				b.Fatal(err)
			}
			c0 := selfCPU()
			t0 := time.Now()
			res := Run(start(), in, Options{})
			walls = append(walls, time.Since(t0))
			cpus = append(cpus, selfCPU()-c0)
			in.Close()
			if res.Status != Done || len(res.Answers) != 600 || res.Solver.Reason != sandbox.Completed {
				b.Fatalf("%s %q after %d answers, solver %s", res.Status, res.Message, len(res.Answers), res.Solver.Reason)
			}
		}
		b.ReportMetric(float64(testenv.Median(walls))/1e6, "ms-wall")
		b.ReportMetric(float64(testenv.Median(cpus))/1e6, "ms-executor-cpu")
	}
	z3 := []string{"z3", "-in"}
	b.Run("exec", func(b *testing.B) {
		run(b, func() Conn {
			c, err := StartExec(context.Background(), z3, ExecOptions{})
			if err != nil {
				b.Fatal(err)
			}
			return c
		})
	})
	b.Run("exec-times", func(b *testing.B) {
		run(b, func() Conn {
			c, err := StartExec(context.Background(), z3, ExecOptions{MeasureCPU: true})
			if err != nil {
				b.Fatal(err)
			}
			return c
		})
	})
	b.Run("sandbox", func(b *testing.B) {
		if os.Geteuid() != 0 {
			b.Skip("needs root")
		}
		run(b, func() Conn {
			c, err := StartSandbox(context.Background(), z3, sandbox.Spec{})
			if err != nil {
				b.Fatal(err)
			}
			return c
		})
	})
	b.Run("cli", func(b *testing.B) {
		bin, _ := filepath.Abs("../../bin/smtarena")
		if _, err := os.Stat(bin); err != nil {
			b.Skip("needs bin/smtarena (make build)")
		}
		var walls []time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			out, err := exec.Command(bin, "trace-exec", bench, "--", "z3", "-in").Output()
			walls = append(walls, time.Since(t0))
			if err != nil || strings.Count(string(out), "\n") != 600 {
				b.Fatalf("%v: %d lines", err, strings.Count(string(out), "\n"))
			}
		}
		b.ReportMetric(float64(testenv.Median(walls))/1e6, "ms-wall")
	})
	b.Run("side-by-side", func(b *testing.B) {
		// Interleaved runs of the executor and of a minimal C lock-step
		// client (below), so that the load of the machine hits both
		// alike; the ratio of the medians is the figure.
		ref := buildLockstep(b)
		if out, err := exec.Command(ref, bench).Output(); err != nil || strings.Count(string(out), "\n") != 600 {
			b.Fatalf("C client: %v, %d lines", err, strings.Count(string(out), "\n"))
		}
		// Both print the answers where nothing reads them (the executor
		// to io.Discard, the client to /dev/null); the client's are
		// counted once, above.
		m := interleave(b, func() time.Duration { return timeOurs(b, bench, z3) },
			func() time.Duration { return timeCmd(b, ref, bench) })
		b.ReportMetric(float64(m[0])/1e6, "ms-wall")
		b.ReportMetric(float64(m[1])/1e6, "ms-C-lockstep")
		b.ReportMetric(float64(m[0])/float64(m[1]), "ratio")
	})
	b.Run("official", func(b *testing.B) {
		// Interleaved runs of the executor and of the official one
		// (TRACE_EXECUTOR_OFFICIAL: smtlib2_trace_executor built from
		// SMT-COMP/trace-executor's source with gcc -O2, see the README),
		// both starting z3 through the same wrapper script, as the
		// official one execs its SOLVER argument with no arguments; and,
		// when bin/smtarena is there, smtarena trace-exec as a user runs
		// it (its Go start-up included). Outputs go to io.Discard and
		// /dev/null; they are compared byte for byte once, before.
		off := os.Getenv("TRACE_EXECUTOR_OFFICIAL")
		if off == "" {
			b.Skip("set TRACE_EXECUTOR_OFFICIAL to the official smtlib2_trace_executor")
		}
		if strings.Contains(off, "/") && !filepath.IsAbs(off) {
			b.Fatalf("TRACE_EXECUTOR_OFFICIAL=%s: give an absolute path (the benchmark runs in internal/trace)", off)
		}
		wrapper := filepath.Join(b.TempDir(), "z3-in")
		if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec z3 -in\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		want, err := exec.Command(off, wrapper, bench).Output()
		if err != nil || strings.Count(string(want), "\n") != 600 {
			b.Fatalf("official: %v, %d lines", err, strings.Count(string(want), "\n"))
		}
		var got strings.Builder
		in, err := Open(bench)
		if err != nil {
			b.Fatal(err)
		}
		c, err := StartExec(context.Background(), []string{wrapper}, ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		Run(c, in, Options{Out: &got})
		in.Close()
		if got.String() != string(want) {
			b.Fatalf("outputs differ:\n%s\nofficial:\n%s", got.String(), want)
		}
		runs := []func() time.Duration{
			func() time.Duration { return timeOurs(b, bench, []string{wrapper}) },
			func() time.Duration { return timeCmd(b, off, wrapper, bench) },
		}
		bin, _ := filepath.Abs("../../bin/smtarena")
		cli := false
		if _, err := os.Stat(bin); err == nil {
			cli = true
			runs = append(runs, func() time.Duration { return timeCmd(b, bin, "trace-exec", bench, "--", wrapper) })
		}
		m := interleave(b, runs...)
		b.ReportMetric(float64(m[0])/1e6, "ms-wall")
		b.ReportMetric(float64(m[1])/1e6, "ms-official")
		b.ReportMetric(float64(m[0])/float64(m[1]), "ratio")
		if cli {
			b.ReportMetric(float64(m[2])/1e6, "ms-cli")
			b.ReportMetric(float64(m[2])/float64(m[1]), "ratio-cli")
		}
	})
	b.Run("z3-alone", func(b *testing.B) {
		data, _ := os.ReadFile(bench)
		_, script, _ := strings.Cut(string(data), Header+"\n")
		p := filepath.Join(b.TempDir(), "script.smt2")
		if err := os.WriteFile(p, []byte("(set-option :print-success true)\n"+script), 0o644); err != nil {
			b.Fatal(err)
		}
		var walls []time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			if err := exec.Command("z3", p).Run(); err != nil {
				b.Fatal(err)
			}
			walls = append(walls, time.Since(t0))
		}
		b.ReportMetric(float64(testenv.Median(walls))/1e6, "ms-wall")
	})
}

// selfCPU is the CPU time this process has used (the executor's own work:
// the solver's is not in it until it is waited for, and is then counted in
// RUSAGE_CHILDREN, not here).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// interleave runs each of runs b.N times, in turns (the order rotating
// from one turn to the next), so that the load of a shared machine hits
// them alike, and returns the median time of each.
func interleave(b *testing.B, runs ...func() time.Duration) []time.Duration {
	times := make([][]time.Duration, len(runs))
	for i := 0; i < b.N; i++ {
		for j := range runs {
			k := (i + j) % len(runs)
			times[k] = append(times[k], runs[k]())
		}
	}
	m := make([]time.Duration, len(runs))
	for k := range times {
		m[k] = testenv.Median(times[k])
	}
	return m
}

// timeOurs times the executor on the benchmark with the solver args, from
// the start of the solver to its exit, its output discarded.
func timeOurs(b *testing.B, bench string, args []string) time.Duration {
	in, err := Open(bench)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	t0 := time.Now()
	c, err := StartExec(context.Background(), args, ExecOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := Run(c, in, Options{})
	d := time.Since(t0)
	if res.Status != Done || len(res.Answers) != 600 || res.Solver.Reason != sandbox.Completed {
		b.Fatalf("%s %q after %d answers, solver %s", res.Status, res.Message, len(res.Answers), res.Solver.Reason)
	}
	return d
}

// timeCmd times a command whose output goes to /dev/null.
func timeCmd(b *testing.B, name string, args ...string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return d
}

// lockstepC is a minimal lock-step client in C, for a side-by-side figure:
// it forks z3 -in, sends (set-option :print-success true) and then each
// command of the script (counting parentheses only), and reads one line
// after each, with stdio as the official executor does. It checks nothing.
// It is not the official executor (sub-benchmark "official" runs that,
// when it has been built); it is a floor for any executor built that way.
const lockstepC = `#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
static char cmd[1 << 22];
int main(int argc, char **argv) {
  int to[2], from[2];
  if (argc != 2 || pipe(to) || pipe(from)) return 1;
  if (fork() == 0) {
    dup2(to[0], 0); dup2(from[1], 1); close(to[1]); close(from[0]);
    execlp("z3", "z3", "-in", (char *)0); _exit(127);
  }
  close(to[0]); close(from[1]);
  FILE *w = fdopen(to[1], "w"), *r = fdopen(from[0], "r"), *in = fopen(argv[1], "r");
  char line[4096];
  if (!in) return 1;
  while (fgets(line, sizeof line, in) && strncmp(line, "--- ", 4) != 0) {}
  fputs("(set-option :print-success true)\n", w); fflush(w);
  if (!fgets(line, sizeof line, r)) return 1;
  int c, depth = 0, opened = 0; size_t n = 0;
  while ((c = fgetc(in)) != EOF && n < sizeof cmd - 1) {
    if (n == 0 && c == '\n') continue;
    cmd[n++] = c;
    if (c == '(') { depth++; opened = 1; }
    if (c == ')') depth--;
    if (opened && depth == 0) {
      cmd[n] = 0;
      if (strcmp(cmd, "(exit)") == 0) break;
      fwrite(cmd, 1, n, w); fputc('\n', w); fflush(w);
      if (!fgets(line, sizeof line, r)) return 1;
      if (strcmp(line, "success\n") != 0) { fputs(line, stdout); fflush(stdout); }
      n = 0; opened = 0;
    }
  }
  fputs("(exit)\n", w); fclose(w); fclose(r); wait(NULL);
  return 0;
}
`

// buildLockstep compiles lockstepC with the system's C compiler.
func buildLockstep(b *testing.B) string {
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skip("needs a C compiler for the side-by-side reference")
	}
	dir := b.TempDir()
	src, bin := filepath.Join(dir, "lockstep.c"), filepath.Join(dir, "lockstep")
	if err := os.WriteFile(src, []byte(lockstepC), 0o644); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		b.Fatalf("cc: %v\n%s", err, out)
	}
	return bin
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/trace"
	"github.com/spf13/cobra"
)

// TraceOptions are the flags of `smtarena trace-exec`.
type TraceOptions struct {
	ContinueAfterUnknown bool
	Timeout              float64 // seconds of wall time, 0: none
	Times                string
	ExitWait             float64
	Sandbox              bool
	CPULimit             float64
	MemLimitMB           int64
	Backend              string
}

// traceUsage is the exit status of trace-exec when it cannot run at all
// (bad usage, unreadable input, no sandbox): 1 and 2 are the official
// executor's verdicts, 124 a limit.
const traceUsage = 3

// exitStatus is an error that carries the exit status of its command; its
// message, if any, goes to standard error.
type exitStatus struct {
	code int
	msg  string
}

func (e exitStatus) Error() string { return e.msg }
func (e exitStatus) ExitCode() int { return e.code }

func newTraceCmd(io streams) *cobra.Command {
	opts := TraceOptions{Timeout: 1200, ExitWait: 1}
	cmd := &cobra.Command{
		Use:   "trace-exec [flags] BENCHMARK_WITH_STATUS -- SOLVER ARGS...",
		Short: "Run an incremental benchmark on a solver as SMT-COMP's trace executor does",
		Long: `Run an incremental benchmark on a solver the way the official SMT-COMP trace
executor (smtlib2_trace_executor) does, with the same output byte for byte and
the same exit statuses: send (set-option :print-success true), then the
script one command at a time, require success for every command and sat,
unsat or unknown for check-sat, print each answer on a line, and stop at the
first wrong answer ("WRONG solver response: got X, expected Y", exit 2), at a
protocol error ("BAD ...", exit 1), or after the last query with an expected
answer (exit 0). Without --continue-after-unknown, the queries after the first
expected unknown are not run.

The expected answers precede the line "--- BENCHMARK BEGINS HERE ---" (the
official format); a benchmark without that header takes them from the file
BENCHMARK.expected (one per line) or, failing that, from the
(set-info :status ...) before each check-sat.

Unlike the official executor it never waits for ever: --timeout ends the
solver (exit 124, nothing more on standard output). --times FILE records the
wall and CPU time of every answer. --sandbox runs the solver as 'smtarena
exec' does: isolated, under --cpu-limit and --mem-limit too, measured by the
kernel.

Exit status: 0 done, 1 BAD (protocol error), 2 WRONG (wrong answer), 124 a
limit ended the solver (or trace-exec was interrupted), 3 trace-exec could
not run (bad usage).`,
		Example: `  smtarena trace-exec bench.smt2 -- z3 -in
  smtarena trace-exec --continue-after-unknown --times times.tsv bench.smt2 -- cvc5 --incremental
  smtarena trace-exec --sandbox --cpu-limit 1200 --mem-limit 8192 bench.smt2 -- ./bin/starexec_run_default`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTrace(cmd.Context(), opts, args, cmd.ArgsLenAtDash(), io)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return exitStatus{traceUsage, err.Error()}
	})
	f := cmd.Flags()
	f.BoolVar(&opts.ContinueAfterUnknown, "continue-after-unknown", false, "also run the queries after the first expected unknown")
	f.Float64Var(&opts.Timeout, "timeout", opts.Timeout, "wall-clock limit of the solver, seconds (0: none); reaching it ends the run with exit status 124")
	f.Float64Var(&opts.Timeout, "wall-limit", opts.Timeout, "the same as --timeout")
	f.StringVar(&opts.Times, "times", "", "write the wall and CPU time of every answer to this file (tab-separated)")
	f.Float64Var(&opts.ExitWait, "exit-wait", opts.ExitWait, "seconds the solver may take to exit after the final (exit) before it is killed")
	f.BoolVar(&opts.Sandbox, "sandbox", false, "run the solver in the sandbox (as smtarena exec does)")
	f.Float64Var(&opts.CPULimit, "cpu-limit", 0, "CPU time limit of the solver's process tree, seconds (needs --sandbox)")
	f.Int64Var(&opts.MemLimitMB, "mem-limit", 0, "memory limit of the solver's process tree, MB (needs --sandbox)")
	f.StringVar(&opts.Backend, "backend", "", "force a sandbox backend: cgroup2, cgroup1 or fallback (needs --sandbox)")
	return cmd
}

func runTrace(ctx context.Context, opts TraceOptions, args []string, dash int, io streams) error {
	usage := func(format string, a ...any) error {
		return exitStatus{traceUsage, fmt.Sprintf("trace-exec: "+format, a...)}
	}
	if len(args) < 2 || (dash >= 0 && dash != 1) {
		return usage("want BENCHMARK_WITH_STATUS -- SOLVER ARGS...")
	}
	if opts.Timeout < 0 || opts.CPULimit < 0 || opts.MemLimitMB < 0 || opts.ExitWait < 0 {
		return usage("limits must not be negative")
	}
	if !opts.Sandbox && (opts.CPULimit > 0 || opts.MemLimitMB > 0 || opts.Backend != "") {
		return usage("--cpu-limit, --mem-limit and --backend need --sandbox")
	}
	bench, solver := args[0], args[1:]
	in, err := trace.Open(bench)
	if err != nil {
		return usage("%s: %v", bench, err)
	}
	defer in.Close()

	var times *bufio.Writer
	if opts.Times != "" {
		f, err := os.Create(opts.Times)
		if err != nil {
			return usage("%v", err)
		}
		defer f.Close()
		times = bufio.NewWriter(f)
		fmt.Fprintln(times, "query\tanswer\texpected\twall_s\tcpu_s\twall_at_s\tcpu_at_s")
	}

	var conn trace.Conn
	if opts.Sandbox {
		conn, err = trace.StartSandbox(ctx, absArgs(solver), sandbox.Spec{
			Limits:  sandbox.Limits{Wall: seconds(opts.Timeout), CPU: seconds(opts.CPULimit), MemoryBytes: opts.MemLimitMB << 20},
			Backend: opts.Backend,
		})
	} else {
		conn, err = trace.StartExec(ctx, solver, trace.ExecOptions{Wall: seconds(opts.Timeout), MeasureCPU: times != nil})
	}
	if err != nil {
		return usage("%v", err)
	}
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }
	topts := trace.Options{ContinueAfterUnknown: opts.ContinueAfterUnknown, Out: io.out, ExitWait: seconds(opts.ExitWait)}
	if times != nil {
		topts.OnAnswer = func(a trace.Answer) {
			fmt.Fprintf(times, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Query, a.Answer, a.Expected,
				sec(a.Wall), sec(a.CPU), sec(a.WallAt), sec(a.CPUAt))
		}
	}
	res := trace.Run(conn, in, topts)
	s := res.Solver
	if times != nil {
		fmt.Fprintf(times, "# status=%s exit=%d answers=%d queries=%d source=%s reason=%s solver_wall_s=%s solver_cpu_s=%s peak_mb=%.3f backend=%s\n",
			res.Status, res.ExitCode(), len(res.Answers), res.Queries, in.Source, s.Reason, sec(s.Wall), sec(s.CPU),
			float64(s.PeakMemoryBytes)/(1<<20), s.Backend)
		if err := times.Flush(); err != nil {
			return usage("%s: %v", opts.Times, err)
		}
	}
	switch {
	case s.Reason == sandbox.Failed:
		fmt.Fprintf(io.err, "smtarena: trace-exec: cannot execute %s: %s\n", solver[0], s.Error)
	case res.Status == trace.Limit && res.Limit == sandbox.Killed && ctx.Err() != nil:
		fmt.Fprintf(io.err, "smtarena: trace-exec: interrupted after %d answers\n", len(res.Answers))
	case res.Status == trace.Limit:
		fmt.Fprintf(io.err, "smtarena: trace-exec: the solver reached a limit (%s) after %d of %d answers\n", res.Limit, len(res.Answers), res.Queries)
	case in.Source == "" && strings.HasPrefix(in.Bad, "BAD expected result"):
		fmt.Fprintf(io.err, "smtarena: trace-exec: %s gives no expected answers: no header before --- BENCHMARK BEGINS HERE ---, no %s.expected, no (set-info :status ...)\n", bench, filepath.Base(bench))
	case res.Status == trace.Done && res.Queries == 0 && len(in.Expected) == 0:
		// Nothing on stdout, as the official executor prints: say why.
		fmt.Fprintf(io.err, "smtarena: trace-exec: %s gives no expected answer (from its %s), so no query was run\n", bench, sourceName(in.Source))
	case res.Status == trace.Done && res.Queries == 0:
		fmt.Fprintf(io.err, "smtarena: trace-exec: %s expects unknown first, so no query was run (--continue-after-unknown runs them)\n", bench)
	}
	if code := res.ExitCode(); code != 0 {
		return exitStatus{code: code}
	}
	return nil
}

// absArgs makes the solver's program and file arguments given relative to
// here absolute: the sandbox runs the solver in a fresh directory.
func absArgs(args []string) []string {
	args = append([]string(nil), args...)
	for i, a := range args {
		if filepath.IsAbs(a) || strings.HasPrefix(a, "-") || (i == 0 && !strings.Contains(a, "/")) {
			continue
		}
		if _, err := os.Stat(a); err == nil {
			if abs, err := filepath.Abs(a); err == nil {
				args[i] = abs
			}
		}
	}
	return args
}

// sourceName says where a benchmark's expected answers were looked for.
func sourceName(source string) string {
	switch source {
	case trace.FromHeader:
		return "header before --- BENCHMARK BEGINS HERE ---"
	case trace.FromExpected:
		return ".expected file"
	}
	return "(set-info :status ...) commands"
}

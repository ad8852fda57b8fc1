package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/spf13/cobra"
)

// ExecOptions are the flags of `smtarena exec`.
type ExecOptions struct {
	CPULimit, WallLimit float64 // seconds
	MemLimitMB          int64
	PidsLimit           int
	OutputLimitMB       int64
	Cores               string
	Stdin               string
	WorkDir             string
	KeepWorkDir         bool
	Protocol            string
	Grace               float64
	Output              string
	JSON                bool
	Backend             string
	Timestamps          bool
}

func newExecCmd(io streams) *cobra.Command {
	opts := ExecOptions{Protocol: "2022", Grace: 1}
	cmd := &cobra.Command{
		Use:   "exec [flags] -- CMD ARGS...",
		Short: "Run one program under limits, isolated, and print what was measured",
		Long: `Run one program as the competition runs a solver: under CPU, wall, memory,
process and output limits, in its own PID, mount and network namespaces, with a
private /tmp, a fresh working directory and (as root) a user of its own, and
measure it through the kernel's accounting of the whole process tree.

The measurements are printed as key=value lines (or one JSON object with
--json): reason (completed, cputime, walltime, memory, output, pids, killed,
failed), wall_s, cpu_s, user_s, sys_s, peak_mb, exit_code, signal, backend
(cgroup2, cgroup1 or fallback), accurate, workdir, output_bytes, start, end,
and error for a run that failed to start. The program's standard output and
error go to --output, or to standard output.

The command runs before the Go runtime starts (internal/sandbox/native) when
its flags are written as --name value or --name=value, followed by --; it
then exits as soon as the result is printed, and the run's cgroups and
working directory are removed just after. SMTARENA_EXEC_ENGINE=go runs it
here instead, on the same engine.`,
		Example: `  smtarena exec --cpu-limit 20 --mem-limit 2048 -- z3 bench.smt2
  smtarena exec --protocol 2005 --cpu-limit 10 --stdin bench.smt2 -- cvc4 --lang smt2`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExec(cmd.Context(), opts, args, io)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&opts.CPULimit, "cpu-limit", 0, "CPU time limit of the process tree, seconds")
	f.Float64Var(&opts.WallLimit, "wall-limit", 0, "wall-clock limit, seconds")
	f.Int64Var(&opts.MemLimitMB, "mem-limit", 0, "memory limit of the process tree, MB")
	f.IntVar(&opts.PidsLimit, "pids-limit", 0, "most processes and threads at once")
	f.Int64Var(&opts.OutputLimitMB, "output-limit", 0, "output limit, MB (the head is kept, and the tail in memory)")
	f.StringVar(&opts.Cores, "cores", "", "CPUs to pin the run to, as 0,2-3")
	f.StringVar(&opts.Stdin, "stdin", "", "file to give as standard input (default /dev/null)")
	f.StringVar(&opts.WorkDir, "workdir", "", "working directory (default: a fresh one, deleted afterwards)")
	f.BoolVar(&opts.KeepWorkDir, "keep-workdir", false, "keep the fresh working directory")
	f.StringVar(&opts.Protocol, "protocol", opts.Protocol, "termination protocol: 2022 (SIGTERM, grace, SIGKILL) or 2005 (SIGXCPU, SIGKILL 3 s later)")
	f.Float64Var(&opts.Grace, "grace", opts.Grace, "seconds between SIGTERM and SIGKILL (protocol 2022)")
	f.StringVar(&opts.Output, "output", "", "file for the program's output (default: standard output)")
	f.BoolVar(&opts.JSON, "json", false, "print the measurements as one JSON object")
	f.StringVar(&opts.Backend, "backend", "", "force a backend: cgroup2, cgroup1 or fallback")
	f.BoolVar(&opts.Timestamps, "timestamps", false, "prefix each output line with the wall and CPU seconds since the start, as WALL/CPU<TAB>")
	return cmd
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// parseCores reads a CPU list such as 0,2-3.
func parseCores(s string) ([]int, error) {
	var out []int
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("--cores %q: %w", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("--cores %q: bad range %q", s, part)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

func runExec(ctx context.Context, opts ExecOptions, args []string, io streams) error {
	cores, err := parseCores(opts.Cores)
	if err != nil {
		return err
	}
	if opts.Protocol != "2022" && opts.Protocol != "2005" {
		return fmt.Errorf("--protocol %q: want 2022 or 2005", opts.Protocol)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"cpu-limit", opts.CPULimit}, {"wall-limit", opts.WallLimit}, {"grace", opts.Grace},
		{"mem-limit", float64(opts.MemLimitMB)}, {"pids-limit", float64(opts.PidsLimit)}, {"output-limit", float64(opts.OutputLimitMB)}} {
		if f.v < 0 || f.v > 1e9 {
			return fmt.Errorf("--%s %g: must be between 0 and 1e9", f.name, f.v)
		}
	}
	// The program runs in a fresh directory: file arguments given relative
	// to here are passed as absolute paths.
	args = append([]string(nil), args...)
	for i := 1; i < len(args); i++ {
		if !filepath.IsAbs(args[i]) && !strings.HasPrefix(args[i], "-") {
			if _, err := os.Stat(args[i]); err == nil {
				if abs, err := filepath.Abs(args[i]); err == nil {
					args[i] = abs
				}
			}
		}
	}
	spec := sandbox.Spec{
		Args: args,
		Limits: sandbox.Limits{CPU: seconds(opts.CPULimit), Wall: seconds(opts.WallLimit),
			MemoryBytes: opts.MemLimitMB << 20, Pids: opts.PidsLimit, OutputBytes: opts.OutputLimitMB << 20, Cores: cores},
		Protocol: sandbox.Protocol(opts.Protocol), Grace: seconds(opts.Grace),
		WorkDir: opts.WorkDir, KeepWorkDir: opts.KeepWorkDir, Backend: opts.Backend,
		Stdout: io.out,
	}
	if opts.Stdin != "" {
		f, err := os.Open(opts.Stdin)
		if err != nil {
			return err
		}
		defer f.Close()
		spec.Stdin = f
	}
	report := io.out
	out := &firstError{w: io.out, name: "/dev/stdout"}
	if opts.Output != "" {
		f, err := os.Create(opts.Output)
		if err != nil {
			return err
		}
		defer f.Close()
		out = &firstError{w: f, name: opts.Output}
	} else {
		report = io.err // keep the program's output clean on stdout
	}
	spec.Stdout = out
	if opts.Timestamps {
		w := spec.Stdout
		spec.Stdout = nil
		spec.OnLine = func(line []byte, wall, cpu time.Duration) {
			fmt.Fprintf(w, "%.6f/%.6f\t%s\n", wall.Seconds(), cpu.Seconds(), line)
		}
	}
	res, err := sandbox.Run(ctx, spec)
	if perr := printResult(report, res, opts.JSON); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	if res.Reason == sandbox.Failed {
		return fmt.Errorf("run failed: %s", res.Error)
	}
	if out.err != nil {
		return fmt.Errorf("write %s: %w", out.name, out.err)
	}
	return nil
}

// firstError is the program's output: it remembers the first write that
// failed (a full disk), which the run does not stop for but the command
// reports.
type firstError struct {
	w    io.Writer
	name string
	err  error
}

func (f *firstError) Write(b []byte) (int, error) {
	if f.err != nil {
		return len(b), nil
	}
	if _, err := f.w.Write(b); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		f.err = err
	}
	return len(b), nil
}

// resultFields are the measurements in the order they are printed.
func resultFields(r sandbox.Result) [][2]string {
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }
	f := [][2]string{
		{"reason", string(r.Reason)},
		{"wall_s", sec(r.Wall)}, {"cpu_s", sec(r.CPU)}, {"user_s", sec(r.User)}, {"sys_s", sec(r.Sys)},
		{"peak_mb", strconv.FormatFloat(float64(r.PeakMemoryBytes)/(1<<20), 'f', 3, 64)},
		{"exit_code", strconv.Itoa(r.ExitCode)}, {"signal", r.Signal},
		{"backend", r.Backend}, {"accurate", strconv.FormatBool(r.Accurate)},
		{"workdir", r.WorkDir}, {"output_bytes", strconv.FormatInt(r.OutputBytes, 10)},
		{"start", r.Start.UTC().Format(time.RFC3339Nano)}, {"end", r.End.UTC().Format(time.RFC3339Nano)},
	}
	if r.Error != "" {
		f = append(f, [2]string{"error", r.Error})
	}
	return f
}

// printResult prints the measurements as key=value lines, or as one JSON
// object with the same keys in the same order (numbers and booleans as
// such). The C command in internal/sandbox/native prints exactly the same.
func printResult(w io.Writer, r sandbox.Result, asJSON bool) error {
	fields := resultFields(r)
	var b strings.Builder
	for i, kv := range fields {
		if !asJSON {
			fmt.Fprintf(&b, "%s=%s\n", kv[0], kv[1])
			continue
		}
		if i == 0 {
			b.WriteString("{")
		} else {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q:", kv[0])
		switch kv[0] {
		case "wall_s", "cpu_s", "user_s", "sys_s", "peak_mb", "exit_code", "output_bytes", "accurate":
			b.WriteString(kv[1])
		default:
			b.WriteString(jsonString(kv[1]))
		}
	}
	if asJSON {
		b.WriteString("}\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonString quotes s for JSON, escaping only what JSON requires (as the C
// command does).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

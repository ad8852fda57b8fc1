package trace

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// fakeBin is a copy of the test binary that the sandbox's unprivileged user
// can execute (the go build cache is private to root); without root, the
// test binary itself.
var fakeBin string

func TestMain(m *testing.M) {
	if mode := os.Getenv("TRACE_FAKE_SOLVER"); mode != "" {
		os.Exit(fakeSolver(mode))
	}
	os.Exit(func() int {
		exe, _ := os.Executable()
		fakeBin = exe
		if os.Geteuid() == 0 {
			base := "/var/lib/smtarena/runs"
			if d := os.Getenv("SMTARENA_RUN_DIR"); d != "" {
				base = d
			}
			if err := os.MkdirAll(base, 0o711); err == nil {
				if dir, err := os.MkdirTemp(base, "trace-testbin-"); err == nil {
					defer os.RemoveAll(dir)
					_ = os.Chmod(dir, 0o755)
					fakeBin = filepath.Join(dir, "trace.test")
					if err := copyExe(exe, fakeBin); err != nil {
						fmt.Fprintln(os.Stderr, "copy test binary:", err)
						return 1
					}
				}
			}
		}
		return m.Run()
	}())
}

func copyExe(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// fakeSolver is what the test binary does when started as a solver: it
// reads commands as the executor sends them and answers in its mode. The
// answers to check-sat are in TRACE_FAKE_ANSWERS; every mode writes noise
// on standard error, which the executor must not read.
func fakeSolver(mode string) int {
	switch mode {
	case "sleeper":
		// The child an escaping solver leaves behind: in a session of its
		// own, with the solver's output, sleeping.
		_ = os.WriteFile(os.Getenv("TRACE_FAKE_PIDFILE"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(20 * time.Second)
		return 0
	case "escape":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "TRACE_FAKE_SOLVER=sleeper")
		cmd.Stdout = os.Stdout
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 1
		}
		time.Sleep(time.Hour) // and never answers
	}
	answers := strings.Fields(os.Getenv("TRACE_FAKE_ANSWERS"))
	sleep, _ := time.ParseDuration(os.Getenv("TRACE_FAKE_SLEEP"))
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		if mode == "blank" {
			s = "\n \t\n" + strings.TrimSuffix(s, "\n") + " \r\n"
		}
		out.WriteString(s)
		out.Flush()
	}
	fmt.Fprintln(os.Stderr, "noise on stderr (")
	sp := NewSplitter(os.Stdin)
	checks, cmds := 0, 0
	for {
		c, err := sp.Next()
		text := string(trimSpace(c.Text))
		if err != nil || text == "(exit)" {
			if mode == "noexit" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		cmds++
		if !c.CheckSat {
			switch {
			case mode == "nosuccess":
			case mode == "error" && cmds == 4:
				say("(error \"boom\")\n")
			case mode == "stale" && cmds == 1:
				say("success\nsuccess\n")
			case mode == "nul" && cmds == 2:
				say("succ\x00ess\n")
			default:
				say("success\n")
			}
			continue
		}
		a := "unknown"
		if checks < len(answers) {
			a = answers[checks]
		}
		checks++
		switch mode {
		case "wrong":
			if checks == 2 {
				a = map[string]string{"sat": "unsat", "unsat": "sat"}[a]
			}
		case "garbage":
			a = "maybe"
		case "unknown":
			a = "unknown"
		case "slow":
			time.Sleep(sleep)
		case "crash":
			if checks == 2 {
				say("sa") // a last line without newline is no answer
				return 3
			}
		}
		say(a + "\n")
	}
}

// slowAnswer is how long the slow fake solver takes per answer: two answers
// and the start of a Go test binary on a loaded machine fit in the slow
// case's 2.5 s wall limit, three do not (half a second of margin each way).
const slowAnswer = time.Second

const fakeInput = `sat
unsat
sat
--- BENCHMARK BEGINS HERE ---
(set-logic QF_UF)
(declare-const a Bool)
(push 1)
(assert a)
(check-sat)
(pop 1)
(assert (not a))
(check-sat)
; a comment ( with a parenthesis
(check-sat)
(exit)
`

// connector starts a solver for a test, with plain pipes or the sandbox.
type connector struct {
	name  string
	start func(t *testing.T, args, env []string, wall time.Duration) Conn
}

func connectors(t *testing.T) []connector {
	cs := []connector{{"exec", func(t *testing.T, args, env []string, wall time.Duration) Conn {
		c, err := StartExec(context.Background(), args, ExecOptions{Wall: wall, Env: env, MeasureCPU: true, Grace: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}}}
	if os.Geteuid() == 0 {
		cs = append(cs, connector{"sandbox", func(t *testing.T, args, env []string, wall time.Duration) Conn {
			c, err := StartSandbox(context.Background(), args, sandbox.Spec{Env: env, Limits: sandbox.Limits{Wall: wall}, Grace: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}})
	} else {
		t.Log("not root: the sandbox connection is not tested")
	}
	return cs
}

func TestFakeSolvers(t *testing.T) {
	bench := filepath.Join(t.TempDir(), "b.smt2")
	if err := os.WriteFile(bench, []byte(fakeInput), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode     string
		answers  string
		wall     time.Duration
		opts     Options
		out      string
		status   Status
		nAnswers int
		reason   sandbox.Reason // how the solver ended, if it matters
	}{
		{mode: "ok", answers: "sat unsat sat", out: "sat\nunsat\nsat\n", status: Done, nAnswers: 3, reason: sandbox.Completed},
		{mode: "blank", answers: "sat unsat sat", out: "sat\nunsat\nsat\n", status: Done, nAnswers: 3},
		{mode: "unknown", out: "unknown\nunknown\nunknown\n", status: Done, nAnswers: 3},
		{mode: "wrong", answers: "sat unsat sat", out: "sat\nWRONG solver response: got sat, expected unsat\n", status: Wrong, nAnswers: 2},
		{mode: "garbage", out: "BAD response to check command: 'maybe\n'\n", status: Bad},
		{mode: "error", answers: "sat unsat sat", out: "BAD response to status command: '(error \"boom\")\n'\n", status: Bad},
		{mode: "stale", answers: "sat unsat sat", out: "BAD response to check command: 'success\n'\n", status: Bad},
		{mode: "nul", answers: "sat unsat sat", out: "BAD response to status command: 'succ'\n", status: Bad},
		{mode: "crash", answers: "sat unsat sat", out: "sat\nBAD response: unexpected EOF\n", status: Bad, nAnswers: 1},
		{mode: "nosuccess", wall: 300 * time.Millisecond, out: "", status: Limit, reason: sandbox.WallTime},
		{mode: "slow", answers: "sat unsat sat", wall: 2500 * time.Millisecond, out: "sat\nunsat\n", status: Limit, nAnswers: 2, reason: sandbox.WallTime},
		{mode: "noexit", answers: "sat unsat sat", opts: Options{ExitWait: 200 * time.Millisecond}, out: "sat\nunsat\nsat\n", status: Done, nAnswers: 3, reason: sandbox.Killed},
	} {
		for _, cn := range connectors(t) {
			t.Run(tc.mode+"/"+cn.name, func(t *testing.T) {
				t.Parallel()
				env := []string{"TRACE_FAKE_SOLVER=" + tc.mode, "TRACE_FAKE_ANSWERS=" + tc.answers, "TRACE_FAKE_SLEEP=" + slowAnswer.String()}
				in, err := Open(bench)
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				var out strings.Builder
				opts := tc.opts
				opts.Out = &out
				var seen []Answer
				opts.OnAnswer = func(a Answer) { seen = append(seen, a) }
				t0 := time.Now()
				res := Run(cn.start(t, []string{fakeBin}, env, tc.wall), in, opts)
				if out.String() != tc.out {
					t.Errorf("output %q, want %q", out.String(), tc.out)
				}
				if res.Status != tc.status || len(res.Answers) != tc.nAnswers || len(seen) != tc.nAnswers {
					t.Errorf("status %s with %d answers (%d seen), want %s with %d", res.Status, len(res.Answers), len(seen), tc.status, tc.nAnswers)
				}
				if tc.reason != "" && res.Solver.Reason != tc.reason {
					t.Errorf("solver ended by %q, want %q", res.Solver.Reason, tc.reason)
				}
				if tc.status == Limit && res.Limit != sandbox.WallTime {
					t.Errorf("limit %q", res.Limit)
				}
				if el := time.Since(t0); el > 5*time.Second {
					t.Errorf("took %v", el)
				}
				for i, a := range res.Answers {
					if a.Query != i+1 || a.Wall <= 0 || a.WallAt <= 0 || a.CPUAt <= 0 || a.CPU < 0 {
						t.Errorf("answer %+v", a)
					}
				}
				if tc.mode == "slow" && len(res.Answers) > 0 && res.Answers[0].Wall < slowAnswer {
					t.Errorf("slow answer timed at %v", res.Answers[0].Wall)
				}
			})
		}
	}
}

// A solver that cannot be started is judged as under the official
// executor, whose child prints "Cannot execute".
func TestCannotExecute(t *testing.T) {
	bench := filepath.Join(t.TempDir(), "b.smt2")
	if err := os.WriteFile(bench, []byte(fakeInput), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cn := range connectors(t) {
		in, _ := Open(bench)
		var out strings.Builder
		res := Run(cn.start(t, []string{"/nonexistent/solver"}, nil, time.Second), in, Options{Out: &out})
		in.Close()
		if want := "BAD response to set-option command: 'Cannot execute: /nonexistent/solver\n'\n"; out.String() != want || res.ExitCode() != ExitBad {
			t.Errorf("%s: output %q, exit %d", cn.name, out.String(), res.ExitCode())
		}
		if res.Solver.Reason != sandbox.Failed || res.Solver.Error == "" {
			t.Errorf("%s: solver result %+v", cn.name, res.Solver)
		}
	}
}

// The input's errors are reported once the solver has answered set-option,
// as by the official executor.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ path, out string }{
		{filepath.Join(dir, "missing.smt2"), "BAD benchmark (cannot open): '" + filepath.Join(dir, "missing.smt2") + "'\n"},
		{write("a.smt2", "sat\nmaybe\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n"), "BAD expected result: 'maybe\n'\n"},
		{write("b.smt2", "sat\n\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n"), "BAD expected result: '\n'\n"},
		{write("c.smt2", "(set-logic QF_UF)\n(check-sat)\n"), "BAD expected result: '(set-logic QF_UF)\n'\n"},
		{write("d.smt2", "sat\nunsat\n"), "BAD benchmark: unexpected EOF\n"},
		{write("e.smt2", ""), "BAD benchmark: unexpected EOF\n"},
		{write("f.smt2", "sat\nsat\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n(assert"), "sat\nBAD benchmark: unexpected EOF\n"},
		{write("g.smt2", "sat\nsat\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n(exit)\n(check-sat)\n"), "sat\n"},
		{write("h.smt2", "sat\nunknown\nsat\n--- BENCHMARK BEGINS HERE ---\n(check-sat)\n(check-sat)\n(check-sat)\n"), "sat\n"},
	} {
		in, err := Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		env := []string{"TRACE_FAKE_SOLVER=ok", "TRACE_FAKE_ANSWERS=sat sat sat"}
		c, err := StartExec(context.Background(), []string{fakeBin}, ExecOptions{Env: env, Wall: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		Run(c, in, Options{Out: &out})
		in.Close()
		if out.String() != tc.out {
			t.Errorf("%s: output %q, want %q", filepath.Base(tc.path), out.String(), tc.out)
		}
	}
}

func TestOpenForms(t *testing.T) {
	dir := t.TempDir()
	script := "(set-logic QF_UF)\n(declare-const a Bool)\n(set-info :status sat)\n(check-sat)\n(assert (not a))\n(assert a)\n; note\n(set-info :status unsat)\n(check-sat)\n(check-sat)\n"
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path, source, expected, script string
	}{
		{write("header.smt2", "sat\n unsat \r\nunknown\n--- BENCHMARK BEGINS HERE ---  \n"+script), FromHeader, "sat unsat unknown", script},
		{write("status.smt2", script), FromStatus, "sat unsat unknown", script},
		{write("exp.smt2", script), FromExpected, "unsat sat", script},
	} {
		if tc.source == FromExpected {
			write("exp.smt2.expected", "unsat\n\nsat")
		}
		in, err := Open(tc.path)
		if err != nil || in.Bad != "" {
			t.Fatalf("%s: %v %s", tc.path, err, in.Bad)
		}
		b, _ := io.ReadAll(in.Script())
		in.Close()
		if in.Source != tc.source || strings.Join(in.Expected, " ") != tc.expected || string(b) != tc.script {
			t.Errorf("%s: source %s, expected %q, script %q", filepath.Base(tc.path), in.Source, in.Expected, b)
		}
	}
	write("badexp.smt2", script)
	write("badexp.smt2.expected", "sat\nsatisfiable\n")
	if in, _ := Open(filepath.Join(dir, "badexp.smt2")); in.Bad != "BAD expected result: 'satisfiable\n'" {
		t.Errorf("bad .expected file: %q", in.Bad)
	}
	if in := Parse([]byte("unsat\n" + Header + "\n(check-sat)\n")); in.Source != FromHeader || len(in.Expected) != 1 {
		t.Errorf("Parse: %+v", in)
	}
}

// A solver that leaves behind a process holding its output, in a session of
// its own, and never answers: the run still ends at its limit.
func TestEscapedOutputHolder(t *testing.T) {
	bench := filepath.Join(t.TempDir(), "b.smt2")
	if err := os.WriteFile(bench, []byte(fakeInput), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cn := range connectors(t) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		if cn.name == "sandbox" {
			pidfile = "/dev/null" // the sandbox's namespace takes the sleeper with it
		}
		in, _ := Open(bench)
		t0 := time.Now()
		res := Run(cn.start(t, []string{fakeBin}, []string{"TRACE_FAKE_SOLVER=escape", "TRACE_FAKE_PIDFILE=" + pidfile}, 300*time.Millisecond), in, Options{})
		in.Close()
		if res.Status != Limit || res.Limit != sandbox.WallTime {
			t.Errorf("%s: %s %s", cn.name, res.Status, res.Limit)
		}
		if el := time.Since(t0); el > 4*time.Second {
			t.Errorf("%s: took %v", cn.name, el)
		}
		if b, err := os.ReadFile(pidfile); err == nil && len(b) > 0 {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		} else if cn.name == "exec" {
			t.Errorf("exec: the sleeper did not start: %v", err)
		}
	}
}

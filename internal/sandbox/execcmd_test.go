//go:build linux

package sandbox

import (
	"bytes"
	"errors"
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
)

// The exec command in C (native/execcmd_linux.c) runs on its own engine,
// not on Run: these tests put it through the hostile suite, by starting the
// test binary (which has the command's constructor linked in) as
// `exec ... -- <test binary> __hostile MODE MARKER ARGS...`, and compare it
// with Run where both apply.

const hostileArg = "__hostile"

// cliRun is one run of the exec command: its exit status, its key=value
// report, what the program wrote and what went to standard error.
type cliRun struct {
	code   int
	keys   map[string]string
	output string
	stderr string
}

func (c cliRun) String() string {
	return fmt.Sprintf("exit %d, report %v, stderr %q", c.code, c.keys, c.stderr)
}

// execCLI runs `exec FLAGS -- CMD...` (the C command) and parses its report.
func execCLI(t *testing.T, flags []string, cmd ...string) cliRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"exec", "--output", out}, flags...)
	args = append(append(args, "--"), cmd...)
	c := exec.Command(helperBin, args...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	run := cliRun{keys: map[string]string{}, stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		run.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("exec command: %v", err)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			run.keys[k] = v
		}
	}
	b, _ := os.ReadFile(out)
	run.output = string(b)
	return run
}

// hostileCLI runs the test binary in a hostile mode through the exec
// command and checks afterwards that none of its processes survived.
func hostileCLI(t *testing.T, backend, mode string, flags []string, args ...string) cliRun {
	t.Helper()
	marker := fmt.Sprintf("cli-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano())
	flags = append([]string{"--backend", backend, "--grace", "0.2"}, flags...)
	run := execCLI(t, flags, append([]string{helperBin, hostileArg, mode, marker}, args...)...)
	if pids := survivors("SANDBOX_TEST_MARK=" + marker); len(pids) > 0 {
		t.Errorf("processes of the run survived it: %v", pids)
		killAll(pids)
	}
	return run
}

func seconds(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return time.Duration(f * float64(time.Second))
}

// wantKeys checks the report against key=value pairs.
func wantKeys(t *testing.T, run cliRun, kv ...string) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		if got := run.keys[kv[i]]; got != kv[i+1] {
			t.Errorf("%s=%q, want %q (%v)", kv[i], got, kv[i+1], run)
		}
	}
}

// reportKeys are the keys of every report, in order.
var reportKeys = []string{"reason", "wall_s", "cpu_s", "user_s", "sys_s", "peak_mb", "exit_code", "signal",
	"backend", "accurate", "workdir", "output_bytes", "start", "end"}

// TestExecCommandLeavesStdinAlone gives the command the write end of a pipe
// as standard input: nothing may be written there.
func TestExecCommandLeavesStdinAlone(t *testing.T) {
	backends(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(helperBin, "exec", "--", "true")
	c.Stdin = w
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	w.Close()
	if b, _ := io.ReadAll(r); len(b) > 0 {
		t.Errorf("the command wrote %q to its standard input", b)
	}
}

func TestExecCommandCompleted(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "true", nil)
		wantKeys(t, run, "reason", "completed", "exit_code", "0", "signal", "", "backend", b,
			"accurate", strconv.FormatBool(b != "fallback"))
		for _, k := range reportKeys {
			if _, ok := run.keys[k]; !ok {
				t.Errorf("report lacks %s: %v", k, run)
			}
		}
		if run.code != 0 {
			t.Errorf("exit status %d", run.code)
		}
		// The run's directory and cgroups go after the command exits.
		waitGone(t, run.keys["workdir"])
		if b == "cgroup1" {
			id := filepath.Base(run.keys["workdir"])
			waitGone(t, filepath.Join("/sys/fs/cgroup/cpuacct/smtarena", id[:strings.LastIndexByte(id, '-')]))
		}
	})
}

// waitGone waits up to 2 s for path to be removed.
func waitGone(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s was not removed", path)
			return
		}
	}
}

func TestExecCommandEnvironment(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "env", []string{"--cpu-limit", "10", "--wall-limit", "20", "--mem-limit", "512"})
		for _, want := range []string{"STAREXEC_CPU_LIMIT=10", "STAREXEC_WALLCLOCK_LIMIT=20", "STAREXEC_MAX_MEM=512",
			"TMPDIR=/tmp", "HOME=" + run.keys["workdir"], "cwd=" + run.keys["workdir"]} {
			if !strings.Contains(run.output, want+"\n") {
				t.Errorf("environment lacks %q:\n%s", want, run.output)
			}
		}
		// The mode and marker were set by the helper itself; nothing else
		// of ours may leak in.
		if strings.Contains(run.output, "GOPATH=") || strings.Contains(run.output, "USER=") {
			t.Errorf("environment is not clean:\n%s", run.output)
		}
	})
}

func TestExecCommandLimits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "spin", []string{"--cpu-limit", "1", "--wall-limit", "10"})
		wantKeys(t, run, "reason", "cputime", "signal", "SIGTERM")
		if cpu := seconds(run.keys["cpu_s"]); cpu < time.Second || cpu > 1500*time.Millisecond {
			t.Errorf("cpu %v for a 1 s limit", cpu)
		}
		run = hostileCLI(t, b, "spin-threads", []string{"--cpu-limit", "2", "--wall-limit", "30"}, "4")
		if run.keys["reason"] != "cputime" || seconds(run.keys["cpu_s"]) < 2*time.Second {
			t.Errorf("threads: %v", run)
		}
		run = hostileCLI(t, b, "sleep", []string{"--wall-limit", "0.5"})
		wantKeys(t, run, "reason", "walltime", "signal", "SIGTERM")
		if w := seconds(run.keys["wall_s"]); w > 2*time.Second {
			t.Errorf("wall %v for a 0.5 s limit", w)
		}
		run = hostileCLI(t, b, "ignore-term", []string{"--cpu-limit", "0.5", "--wall-limit", "10"})
		wantKeys(t, run, "reason", "cputime", "signal", "SIGKILL")
		run = hostileCLI(t, b, "fork-bomb", []string{"--pids-limit", "64", "--cpu-limit", "5", "--wall-limit", "5"})
		if b != "fallback" && run.keys["reason"] != "pids" || run.keys["reason"] == "completed" {
			t.Errorf("fork bomb: %v", run)
		}
		for _, mode := range []string{"setsid-escapee", "daemon"} {
			run = hostileCLI(t, b, mode, []string{"--wall-limit", "10"})
			wantKeys(t, run, "reason", "completed", "exit_code", "0")
		}
	})
}

func TestExecCommandProtocol2005(t *testing.T) {
	backends(t)
	start := time.Now()
	run := hostileCLI(t, bestBackend(t), "ignore-term", []string{"--protocol", "2005", "--cpu-limit", "0.5"})
	// SIGXCPU is ignored: SIGKILL follows 3 s later.
	wantKeys(t, run, "reason", "cputime", "signal", "SIGKILL")
	if time.Since(start) < 3*time.Second {
		t.Errorf("ended after %v, before the 3 s of the 2005 protocol", time.Since(start))
	}
}

func TestExecCommandMemory(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		for i := 0; i < spikeRuns(b); i++ {
			run := hostileCLI(t, b, "alloc", []string{"--mem-limit", "200", "--wall-limit", "10"}, "300")
			if run.keys["reason"] != "memory" {
				t.Fatalf("run %d: 300 MB under a 200 MB limit: %v", i, run)
			}
		}
		run := hostileCLI(t, b, "alloc", []string{"--wall-limit", "10"}, "500")
		if mb, _ := strconv.ParseFloat(run.keys["peak_mb"], 64); run.keys["reason"] != "completed" || mb < 500 || mb > 540 {
			t.Errorf("peak of 500 MB touched: %v", run)
		}
	})
}

func TestExecCommandOutput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "flood", []string{"--output-limit", "1", "--wall-limit", "20"}, strconv.Itoa(1<<30))
		if run.keys["reason"] != "output" || len(run.output) != 1<<20 {
			t.Errorf("flood: %d bytes kept, %v", len(run.output), run)
		}
		if n, _ := strconv.ParseInt(run.keys["output_bytes"], 10, 64); n <= 1<<20 {
			t.Errorf("output_bytes %d: want all that was produced, beyond the limit", n)
		}
		if testing.Short() {
			return
		}
		run = hostileCLI(t, b, "flood", []string{"--wall-limit", "60"}, strconv.Itoa(1<<30))
		wantKeys(t, run, "reason", "completed", "output_bytes", strconv.Itoa(1<<30))
		if len(run.output) != 1<<30 {
			t.Errorf("1 GB of output: %d bytes written", len(run.output))
		}
	})
}

func TestExecCommandIsolation(t *testing.T) {
	ln := loopbackServer(t)
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "connect", []string{"--wall-limit", "10"}, ln.Addr().String())
		wantKeys(t, run, "exit_code", "3")
		run = hostileCLI(t, b, "write", []string{"--wall-limit", "10"}, "/etc/smtarena-sandbox-test")
		if run.keys["exit_code"] != "3" {
			t.Errorf("the run wrote to /etc: %v", run)
			os.Remove("/etc/smtarena-sandbox-test")
		}
		target := filepath.Join(t.TempDir(), "outside")
		hostileCLI(t, b, "write", []string{"--wall-limit", "10"}, target)
		if _, err := os.Stat(target); err == nil {
			t.Errorf("the run wrote into another directory under /tmp")
		}
		run = hostileCLI(t, b, "freeze-self", []string{"--wall-limit", "5"})
		wantKeys(t, run, "exit_code", "3")
	})
}

func TestExecCommandTimestampsAndStdin(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := hostileCLI(t, b, "lines", []string{"--timestamps"})
		lines := strings.Split(strings.TrimSuffix(run.output, "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("lines %q", lines)
		}
		var walls []time.Duration
		for i, l := range lines {
			stamp, text, ok := strings.Cut(l, "\t")
			wall, cpu, ok2 := strings.Cut(stamp, "/")
			if !ok || !ok2 || text != fmt.Sprintf("line %d", i) || seconds(cpu) < 0 {
				t.Fatalf("line %q", l)
			}
			walls = append(walls, seconds(wall))
		}
		// The helper prints its last line 100 ms after it starts, so
		// that line's stamp is later; a stamp is taken when the line is
		// read, which may be late for any line on a busy machine.
		if walls[0] > walls[1] || walls[1] > walls[2] || walls[2] < 100*time.Millisecond {
			t.Errorf("stamps %v", walls)
		}
		in := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(in, []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run = execCLI(t, []string{"--backend", b, "--stdin", in}, "cat")
		if run.output != "hello\n" || run.keys["reason"] != "completed" {
			t.Errorf("stdin: output %q, %v", run.output, run)
		}
	})
}

func TestExecCommandFailures(t *testing.T) {
	backends(t)
	run := execCLI(t, nil, "no-such-solver")
	wantKeys(t, run, "reason", "failed")
	if run.code != 2 || !strings.Contains(run.keys["error"], `"no-such-solver"`) || !strings.Contains(run.stderr, "run failed") {
		t.Errorf("missing program: %v", run)
	}
	run = execCLI(t, []string{"--stdin", "/no/such/file"}, "true")
	if run.code != 2 || !strings.Contains(run.stderr, "open /no/such/file: no such file or directory") {
		t.Errorf("missing stdin file: %v", run)
	}
	run = execCLI(t, []string{"--backend", "cgroup7"}, "true")
	if run.code != 2 || !strings.Contains(run.stderr, `unknown backend "cgroup7"`) {
		t.Errorf("unknown backend: %v", run)
	}
	// A work dir the run's user would be given: never a file, nor (as
	// root) a directory that holds anything, which stay as they were.
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ workdir, want string }{
		{file, "work dir " + file + ": not a directory"},
		{dir, "work dir " + dir + ": not empty"},
	} {
		run = execCLI(t, []string{"--workdir", c.workdir}, "true")
		if run.code != 2 || !strings.Contains(run.stderr, c.want) {
			t.Errorf("--workdir %s: %v", c.workdir, run)
		}
	}
	for _, p := range []string{dir, file} {
		if fi, err := os.Stat(p); err != nil || fi.Sys().(*syscall.Stat_t).Uid != 0 {
			t.Errorf("%s changed owner: %v", p, err)
		}
	}
	run = execCLI(t, []string{"--cores", "4095"}, "true")
	if run.code != 2 || !strings.Contains(run.stderr, "CPU 4095 is not one this process may use") {
		t.Errorf("--cores 4095: %v", run)
	}
}

// TestExecCommandMatchesRun runs the same programs through the command and
// through Run, and compares what they report.
func TestExecCommandMatchesRun(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		for _, c := range []struct {
			mode  string
			flags []string
			l     Limits
		}{
			{"true", nil, Limits{}},
			{"spin", []string{"--cpu-limit", "0.5"}, Limits{CPU: 500 * time.Millisecond}},
			{"sleep", []string{"--wall-limit", "0.3"}, Limits{Wall: 300 * time.Millisecond}},
			{"alloc", []string{"--mem-limit", "200", "--wall-limit", "10"}, Limits{MemoryBytes: 200 << 20, Wall: 10 * time.Second}},
		} {
			args := []string{}
			if c.mode == "alloc" {
				args = []string{"300"}
			}
			cli := hostileCLI(t, b, c.mode, c.flags, args...)
			res, _ := runHostile(t, b, c.mode, c.l, args...)
			if cli.keys["reason"] != string(res.Reason) || cli.keys["exit_code"] != strconv.Itoa(res.ExitCode) ||
				cli.keys["signal"] != res.Signal || cli.keys["backend"] != res.Backend {
				t.Errorf("%s: command %v, Run %+v", c.mode, cli, res)
			}
		}
	})
}

func TestExecCommandRealSolvers(t *testing.T) {
	forEachRealSolver(t, func(t *testing.T, b, solver, bench string) {
		run := execCLI(t, []string{"--backend", b, "--cpu-limit", "20", "--wall-limit", "30", "--mem-limit", "1024"}, solver, bench)
		if run.keys["reason"] != "completed" || strings.TrimSpace(run.output) != "unsat" {
			t.Errorf("%s: output %q, %v", solver, run.output, run)
		}
	})
}

// TestExecCommandKilled: SIGTERM to the command ends the run as killed, and
// the result is still printed.
func TestExecCommandKilled(t *testing.T) {
	backends(t)
	marker := fmt.Sprintf("cli-killed-%d", time.Now().UnixNano())
	out := filepath.Join(t.TempDir(), "out")
	c := exec.Command(helperBin, "exec", "--output", out, "--", helperBin, hostileArg, "sleep", marker)
	var stdout bytes.Buffer
	c.Stdout = &stdout
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(survivors("SANDBOX_TEST_MARK="+marker)) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	_ = c.Process.Signal(syscall.SIGTERM)
	if err := c.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(stdout.String(), "reason=killed\n") {
		t.Errorf("report:\n%s", stdout.String())
	}
	if p := survivors("SANDBOX_TEST_MARK=" + marker); len(p) > 0 {
		t.Errorf("survivors %v", p)
		killAll(p)
	}
}

// TestExecCommandUnprivileged runs the command as an ordinary user, as a
// solver developer does on a workstation: no namespaces, no cgroups, the
// user's own uid; what the program leaves behind dies with the run all the
// same.
func TestExecCommandUnprivileged(t *testing.T) {
	backends(t)
	tmp, err := os.MkdirTemp("", "smtarena-nobody-") // t.TempDir's parent is private
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"true", "setsid-escapee", "daemon", "fork-bomb"} {
		marker := fmt.Sprintf("cli-nobody-%s-%d", mode, time.Now().UnixNano())
		flags := []string{"--wall-limit", "10"}
		if mode == "fork-bomb" {
			flags = []string{"--pids-limit", "64", "--cpu-limit", "3", "--wall-limit", "5"}
		}
		args := append(append([]string{"exec"}, flags...), "--", helperBin, hostileArg, mode, marker)
		c := exec.Command(helperBin, args...)
		c.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + tmp}
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := c.CombinedOutput()
		report := string(out)
		if mode == "fork-bomb" {
			if !strings.Contains(report, "backend=fallback\n") || strings.Contains(report, "reason=completed\n") {
				t.Errorf("%s: %v\n%s", mode, err, report)
			}
		} else if err != nil || !strings.Contains(report, "reason=completed\n") || !strings.Contains(report, "backend=fallback\n") ||
			!strings.Contains(report, "workdir="+tmp+"/smtarena-runs/") {
			t.Errorf("%s: %v\n%s", mode, err, report)
		}
		if p := survivors("SANDBOX_TEST_MARK=" + marker); len(p) > 0 {
			t.Errorf("%s: processes of the run survived it: %v", mode, p)
			killAll(p)
		}
	}
}

// TestExecCommandWorkDirs: --keep-workdir and --workdir leave the run's
// directory and what the program wrote there, also after later runs (whose
// sweep of dead runs' leftovers used to take kept directories too).
func TestExecCommandWorkDirs(t *testing.T) {
	backends(t)
	kept := execCLI(t, []string{"--keep-workdir"}, "sh", "-c", "echo kept > f")
	given := filepath.Join(t.TempDir(), "given")
	mine := execCLI(t, []string{"--workdir", given}, "sh", "-c", "echo given > f")
	if mine.keys["workdir"] != given {
		t.Errorf("--workdir %s: ran in %q", given, mine.keys["workdir"])
	}
	for i := 0; i < 2; i++ { // later runs, and their removal, are done
		execCLI(t, []string{"--wall-limit", "5"}, "true")
		time.Sleep(200 * time.Millisecond)
	}
	for dir, want := range map[string]string{kept.keys["workdir"]: "kept\n", given: "given\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, "f")); err != nil || string(b) != want {
			t.Errorf("%s/f: %q, %v", dir, b, err)
		}
	}
	os.RemoveAll(kept.keys["workdir"])
}

// TestExecCommandCores: --cores pins the run (cpuset with cgroups, the
// first process's affinity without).
func TestExecCommandCores(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		run := execCLI(t, []string{"--backend", b, "--cores", "0"}, "sh", "-c", "grep Cpus_allowed_list /proc/self/status")
		if run.output != "Cpus_allowed_list:\t0\n" {
			t.Errorf("output %q, %v", run.output, run)
		}
	})
}

//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

// helperBin is a copy of the test binary that the run's unprivileged user
// can execute (the go build cache is private to root).
var helperBin string

func TestMain(m *testing.M) {
	if mode := os.Getenv("SANDBOX_TEST_HELPER"); mode != "" {
		os.Exit(hostile(mode, os.Args[1:]))
	}
	// Started by `exec` (the C command), whose runs get a clean
	// environment: __hostile MODE MARKER ARGS... The mode and marker go to
	// the environment, where the processes it starts find them.
	if len(os.Args) > 3 && os.Args[1] == hostileArg {
		os.Setenv("SANDBOX_TEST_HELPER", os.Args[2])
		os.Setenv("SANDBOX_TEST_MARK", os.Args[3])
		os.Exit(hostile(os.Args[2], os.Args[4:]))
	}
	code := func() int {
		_ = os.MkdirAll(runDir(), 0o711)
		dir, err := os.MkdirTemp(runDir(), "testbin-")
		if err == nil {
			_ = os.Chmod(dir, 0o755)
			exe, _ := os.Executable()
			helperBin = filepath.Join(dir, "sandbox.test")
			if err := copyFile(exe, helperBin); err != nil {
				fmt.Fprintln(os.Stderr, "copy test binary:", err)
				return 1
			}
			defer os.RemoveAll(dir)
		} else {
			helperBin, _ = os.Executable()
		}
		return m.Run()
	}()
	os.Exit(code)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// hostile is what the test binary does when a run starts it: the misbehaving
// solvers of the suite.
func hostile(mode string, args []string) int {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch mode {
	case "true":
		return 0
	case "spin":
		//lint:ignore SA5002 burning CPU is the point
		for {
		}
	case "spin-threads":
		n, _ := strconv.Atoi(arg(0))
		for i := 1; i < n; i++ {
			go func() {
				//lint:ignore SA5002 burning CPU is the point
				for {
				}
			}()
		}
		//lint:ignore SA5002 burning CPU is the point
		for {
		}
	case "sleep":
		time.Sleep(time.Hour)
	case "xcpu-tree", "xcpu-tree-child":
		// The 2005 protocol's SIGXCPU: the first process reports it (and
		// goes on), a child it started must not get it.
		who := "child"
		if mode == "xcpu-tree" {
			who = "solver"
			child := exec.Command(os.Args[0], "child")
			child.Env = append(os.Environ(), "SANDBOX_TEST_HELPER=xcpu-tree-child")
			child.Stdout = os.Stdout
			if err := child.Start(); err != nil {
				return 3
			}
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGXCPU)
		<-c
		fmt.Println(who + ": SIGXCPU")
		time.Sleep(time.Hour)
	case "ignore-term":
		signalIgnore(syscall.SIGTERM, syscall.SIGXCPU)
		//lint:ignore SA5002 burning CPU is the point
		for {
		}
	case "fork-bomb":
		for {
			cmd := exec.Command(os.Args[0])
			cmd.Env = os.Environ()
			_ = cmd.Start() // children go on forking; failures are the point
		}
	case "setsid-escapee", "daemon":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_HELPER=sleep")
		if mode == "daemon" {
			cmd.Env = append(os.Environ(), "SANDBOX_TEST_HELPER=setsid-escapee")
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 3
		}
		if mode == "daemon" {
			_ = cmd.Wait() // the middle process exits: a double fork
		}
		return 0
	case "alloc":
		mb, _ := strconv.Atoi(arg(0))
		b := make([]byte, mb<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println("allocated")
		time.Sleep(200 * time.Millisecond)
		return int(b[len(b)/2]) - 1
	case "flood":
		n, _ := strconv.ParseInt(arg(0), 10, 64)
		buf := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), 1024)
		for n > 0 {
			w := int64(len(buf))
			if n < w {
				w = n
			}
			if _, err := os.Stdout.Write(buf[:w]); err != nil {
				return 3
			}
			n -= w
		}
		return 0
	case "connect", "connect-unix":
		network, addr := "tcp", arg(0)
		if mode == "connect-unix" {
			// The socket's name under /run (a path argument would be
			// bound into the run, as input files are).
			network, addr = "unix", "/run/"+addr
		}
		c, err := net.DialTimeout(network, addr, time.Second)
		if err != nil {
			fmt.Println("connect failed:", err)
			return 3
		}
		c.Close()
		return 0
	case "write":
		if err := os.WriteFile(arg(0), []byte("x"), 0o644); err != nil {
			fmt.Println("write failed:", err)
			return 3
		}
		return 0
	case "read": // a file, or a directory's list
		_, err := os.ReadFile(arg(0))
		if fi, serr := os.Stat(arg(0)); serr == nil && fi.IsDir() {
			_, err = os.ReadDir(arg(0))
		}
		if err != nil {
			fmt.Println("read failed:", err)
			return 3
		}
		return 0
	case "freeze-self":
		dir := "/sys/fs/cgroup/freezer/escape"
		if err := os.Mkdir(dir, 0o755); err != nil {
			fmt.Println("mkdir cgroup failed:", err)
			return 3
		}
		_ = os.WriteFile(dir+"/cgroup.procs", []byte(strconv.Itoa(os.Getpid())), 0o644)
		_ = os.WriteFile(dir+"/freezer.state", []byte("FROZEN"), 0o644)
		return 0
	case "busy":
		d, _ := time.ParseDuration(arg(0))
		var ru syscall.Rusage
		for {
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			if time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= d {
				break
			}
			for i := 0; i < 100000; i++ {
			}
		}
		fmt.Println(ru.Utime.Nano() + ru.Stime.Nano())
		return 0
	case "lines":
		for i := 0; i < 3; i++ {
			fmt.Println("line", i)
			time.Sleep(50 * time.Millisecond)
		}
		return 0
	case "env":
		for _, e := range os.Environ() {
			fmt.Println(e)
		}
		wd, _ := os.Getwd()
		fmt.Println("cwd=" + wd)
		return 0
	}
	return 2
}

func signalIgnore(sigs ...os.Signal) { signal.Ignore(sigs...) }

// run starts the test binary in a hostile mode and checks afterwards that
// none of its processes survived.
func runHostile(t *testing.T, backend, mode string, l Limits, args ...string) (Result, string) {
	t.Helper()
	marker := fmt.Sprintf("SANDBOX_TEST_MARK=%s-%d", t.Name(), time.Now().UnixNano())
	var out bytes.Buffer
	spec := Spec{Args: append([]string{helperBin}, args...), Env: []string{"SANDBOX_TEST_HELPER=" + mode, marker},
		Limits: l, Stdout: &out, Backend: backend, Grace: 200 * time.Millisecond}
	res, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if pids := survivors(marker); len(pids) > 0 {
		t.Errorf("processes of the run survived it: %v", pids)
		killAll(pids)
	}
	return res, out.String()
}

// processes lists the processes for which match, given the files of
// their /proc directory by name, is true.
func processes(match func(file func(name string) []byte) bool) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		file := func(name string) []byte { b, _ := os.ReadFile("/proc/" + e.Name() + "/" + name); return b }
		if match(file) {
			out = append(out, pid)
		}
	}
	return out
}

// survivors lists the processes whose environment (or, for the exec
// command's helpers, arguments) has the marker.
func survivors(marker string) []int {
	value := strings.TrimPrefix(marker, "SANDBOX_TEST_MARK=")
	return processes(func(file func(string) []byte) bool {
		// A helper started by the exec command has its marker in its
		// arguments (see TestMain).
		args := bytes.Split(file("cmdline"), []byte{0})
		helper := len(args) > 3 && string(args[1]) == hostileArg && string(args[3]) == value
		return helper || bytes.Contains(file("environ"), []byte(marker))
	})
}

// backends lists the backends this machine offers: the engine's choice,
// and the fallback.
func backends(t *testing.T) []string {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "the sandbox suite needs root (namespaces, cgroups, a user per run)")
	}
	out := []string{"fallback"}
	if b := bestBackend(t); b != "fallback" {
		out = append([]string{b}, out...)
	}
	return out
}

var best struct {
	sync.Once
	name string
}

// bestBackend is the backend the engine picks on this machine.
func bestBackend(tb testing.TB) string {
	best.Do(func() {
		res, err := Run(context.Background(), Spec{Args: []string{"true"}})
		if err != nil || res.Reason != Completed {
			tb.Fatalf("a run of true: %+v %v", res, err)
		}
		best.name = res.Backend
	})
	return best.name
}

func killAll(pids []int) {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

// runDir is where the engine makes runs' directories (helperBin goes there,
// where the runs' users can execute it).
func runDir() string {
	if d := os.Getenv("SMTARENA_RUN_DIR"); d != "" {
		return d
	}
	if os.Geteuid() == 0 {
		return "/var/lib/smtarena/runs"
	}
	return filepath.Join(os.TempDir(), "smtarena-runs")
}

func forEachBackend(t *testing.T, f func(t *testing.T, backend string)) {
	for _, b := range backends(t) {
		t.Run(b, func(t *testing.T) { f(t, b) })
	}
}

func TestCompleted(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, _ := runHostile(t, b, "true", Limits{})
		if res.Reason != Completed || res.ExitCode != 0 || res.Backend != b {
			t.Errorf("got %+v", res)
		}
	})
}

func TestEnvironment(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, out := runHostile(t, b, "env", Limits{CPU: 10 * time.Second, Wall: 20 * time.Second, MemoryBytes: 512 << 20})
		for _, want := range []string{"STAREXEC_CPU_LIMIT=10", "STAREXEC_WALLCLOCK_LIMIT=20", "STAREXEC_MAX_MEM=512", "TMPDIR=/tmp", "cwd=" + res.WorkDir} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("environment lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "GOPATH=") || strings.Contains(out, "USER=") {
			t.Errorf("environment is not clean:\n%s", out)
		}
		if err := Flush(); err != nil {
			t.Errorf("flush: %v", err)
		}
		if _, err := os.Stat(res.WorkDir); err == nil {
			t.Errorf("work dir %s was not removed", res.WorkDir)
		}
	})
}

func TestCPULimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, _ := runHostile(t, b, "spin", Limits{CPU: time.Second, Wall: 10 * time.Second})
		if res.Reason != CPUTime || res.CPU < time.Second || res.CPU > 1500*time.Millisecond {
			t.Errorf("got reason %s cpu %v wall %v", res.Reason, res.CPU, res.Wall)
		}
	})
}

func TestMultiThreadedCPU(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs")
	}
	forEachBackend(t, func(t *testing.T, b string) {
		// The limit is on the sum over the threads: on an idle machine the
		// run stops before 2 s of wall time (CPU time above wall time); on
		// a loaded one only the sum is certain, so that is what is
		// asserted, and the ratio is logged.
		res, _ := runHostile(t, b, "spin-threads", Limits{CPU: 2 * time.Second, Wall: 30 * time.Second}, "4")
		if res.Reason != CPUTime || res.CPU < 2*time.Second {
			t.Errorf("got reason %s cpu %v wall %v: want the CPU limit reached by the threads together", res.Reason, res.CPU, res.Wall)
		}
		t.Logf("cpu %v over wall %v", res.CPU, res.Wall)
	})
}

func TestWallLimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, _ := runHostile(t, b, "sleep", Limits{Wall: 500 * time.Millisecond})
		if res.Reason != WallTime || res.Wall > 2*time.Second || res.Signal != "SIGTERM" {
			t.Errorf("got %+v", res)
		}
	})
}

func TestSIGTERMIgnorer(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, _ := runHostile(t, b, "ignore-term", Limits{CPU: 500 * time.Millisecond, Wall: 10 * time.Second})
		if res.Reason != CPUTime || res.Signal != "SIGKILL" {
			t.Errorf("got reason %s signal %q", res.Reason, res.Signal)
		}
	})
}

func TestProtocol2005(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root")
	}
	marker := "SANDBOX_TEST_MARK=2005"
	start := time.Now()
	res, err := Run(context.Background(), Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=ignore-term", marker},
		Limits: Limits{CPU: 500 * time.Millisecond}, Protocol: Protocol2005})
	if err != nil {
		t.Fatal(err)
	}
	// SIGXCPU is ignored: SIGKILL follows 3 s later.
	if res.Reason != CPUTime || res.Signal != "SIGKILL" || time.Since(start) < 3*time.Second {
		t.Errorf("got reason %s signal %q after %v", res.Reason, res.Signal, time.Since(start))
	}
	if p := survivors(marker); len(p) > 0 {
		t.Errorf("survivors %v", p)
	}
}

// TestProtocol2005Tree: the 2005 page's SIGXCPU goes to the solver alone
// ("Solvers are allowed to spawn other processes, but these will not be
// sent SIGXCPU"), also at the wall limit, and SIGKILL ends every process 3 s
// later.
func TestProtocol2005Tree(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		var out bytes.Buffer
		marker := "SANDBOX_TEST_MARK=2005-tree-" + b
		res, err := Run(context.Background(), Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=xcpu-tree", marker},
			Backend: b, Stdout: &out, Limits: Limits{Wall: 500 * time.Millisecond}, Protocol: Protocol2005})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != WallTime || res.Signal != "SIGKILL" || res.Wall < 3*time.Second {
			t.Errorf("got reason %s signal %q after %v", res.Reason, res.Signal, res.Wall)
		}
		if got := out.String(); got != "solver: SIGXCPU\n" {
			t.Errorf("output %q, want the solver's SIGXCPU only", got)
		}
		if p := survivors(marker); len(p) > 0 {
			t.Errorf("survivors %v", p)
			killAll(p)
		}
	})
}

func TestEscapees(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		for _, mode := range []string{"setsid-escapee", "daemon"} {
			res, _ := runHostile(t, b, mode, Limits{Wall: 10 * time.Second})
			if res.Reason != Completed || res.ExitCode != 0 {
				t.Errorf("%s: got %+v", mode, res)
			}
		}
	})
}

func TestForkBomb(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, _ := runHostile(t, b, "fork-bomb", Limits{Pids: 64, Wall: 5 * time.Second, CPU: 5 * time.Second})
		if b != "fallback" && res.Reason != Pids {
			t.Errorf("got reason %s, want pids", res.Reason)
		}
		if res.Reason == Completed {
			t.Errorf("fork bomb completed: %+v", res)
		}
	})
}

// spikeRuns is how many times the 300 MB spike runs under its 200 MB limit:
// the issue asks for 20 of 20 with cgroups; the fallback, which samples,
// and short runs try 3.
func spikeRuns(backend string) int {
	if testing.Short() || backend == "fallback" {
		return 3
	}
	return 20
}

func TestMemoryLimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		for i := 0; i < spikeRuns(b); i++ {
			res, _ := runHostile(t, b, "alloc", Limits{MemoryBytes: 200 << 20, Wall: 10 * time.Second}, "300")
			if res.Reason != Memory {
				t.Fatalf("run %d: 300 MB under a 200 MB limit: reason %s (exit %d, signal %q, peak %d MB)",
					i, res.Reason, res.ExitCode, res.Signal, res.PeakMemoryBytes>>20)
			}
		}
	})
}

func TestPeakMemory(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, out := runHostile(t, b, "alloc", Limits{Wall: 10 * time.Second}, "500")
		if res.Reason != Completed || !strings.Contains(out, "allocated") {
			t.Fatalf("got %+v, output %q", res, out)
		}
		if mb := float64(res.PeakMemoryBytes) / (1 << 20); mb < 500 || mb > 540 {
			t.Errorf("peak %.1f MB for 500 MB touched", mb)
		}
	})
}

func TestOutputFlood(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		var out countingWriter
		marker := "SANDBOX_TEST_MARK=flood-" + b
		res, err := Run(context.Background(), Spec{Args: []string{helperBin, strconv.Itoa(1 << 30)},
			Env: []string{"SANDBOX_TEST_HELPER=flood", marker}, Stdout: &out, Backend: b,
			Limits: Limits{OutputBytes: 1 << 20, Wall: 20 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != Output || out.n != 1<<20 || len(res.Tail) == 0 {
			t.Errorf("got reason %s, %d bytes passed on, tail %d bytes", res.Reason, out.n, len(res.Tail))
		}
		if p := survivors(marker); len(p) > 0 {
			t.Errorf("survivors %v", p)
		}
	})
}

// TestOutputGigabyte passes 1 GB of output through without a limit.
func TestOutputGigabyte(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GB of output")
	}
	forEachBackend(t, func(t *testing.T, b string) {
		var out countingWriter
		res, err := Run(context.Background(), Spec{Args: []string{helperBin, strconv.Itoa(1 << 30)},
			Env: []string{"SANDBOX_TEST_HELPER=flood"}, Stdout: &out, Backend: b, Limits: Limits{Wall: 60 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != Completed || out.n != 1<<30 || res.OutputBytes != 1<<30 {
			t.Errorf("got reason %s, %d bytes", res.Reason, out.n)
		}
	})
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(b []byte) (int, error) { w.n += int64(len(b)); return len(b), nil }

// loopbackServer listens on a loopback port and accepts (and closes) every
// connection until the test ends: what a run must not reach.
func loopbackServer(t *testing.T) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}

func TestNoNetwork(t *testing.T) {
	ln := loopbackServer(t)
	// A daemon's Unix socket under /run, open to everyone (as
	// PostgreSQL's is): a network namespace does not stop those, the
	// run's private /run does.
	sock := filepath.Join("/run", fmt.Sprintf("smtarena-test-%d.sock", os.Getpid()))
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()
	if err := os.Chmod(sock, 0o777); err != nil {
		t.Fatal(err)
	}
	forEachBackend(t, func(t *testing.T, b string) {
		res, out := runHostile(t, b, "connect", Limits{Wall: 10 * time.Second}, ln.Addr().String())
		if res.ExitCode != 3 {
			t.Errorf("the run reached a loopback server: exit %d, output %q", res.ExitCode, out)
		}
		res, out = runHostile(t, b, "connect-unix", Limits{Wall: 10 * time.Second}, filepath.Base(sock))
		if res.ExitCode != 3 {
			t.Errorf("the run reached a Unix socket under /run: exit %d, output %q", res.ExitCode, out)
		}
	})
}

func TestWriteOutside(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		target := filepath.Join(t.TempDir(), "outside")
		res, _ := runHostile(t, b, "write", Limits{Wall: 10 * time.Second}, "/etc/smtarena-sandbox-test")
		if res.ExitCode != 3 {
			t.Errorf("the run wrote to /etc: exit %d", res.ExitCode)
			os.Remove("/etc/smtarena-sandbox-test")
		}
		res, _ = runHostile(t, b, "write", Limits{Wall: 10 * time.Second}, target)
		if _, err := os.Stat(target); err == nil {
			t.Errorf("the run wrote into another directory under /tmp (exit %d)", res.ExitCode)
		}
		// Its own /tmp is private: what it writes there is gone.
		res, _ = runHostile(t, b, "write", Limits{Wall: 10 * time.Second}, "/tmp/smtarena-private-test")
		if res.ExitCode != 0 {
			t.Errorf("the run could not write its private /tmp: exit %d", res.ExitCode)
		}
		if _, err := os.Stat("/tmp/smtarena-private-test"); err == nil {
			t.Error("the run's /tmp is not private")
			os.Remove("/tmp/smtarena-private-test")
		}
	})
}

// TestOthersUnreadable: a run cannot read what another run left in its
// working directory (each run has a user of its own), nor the runs'
// directory itself.
func TestOthersUnreadable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, err := Run(context.Background(), Spec{Args: []string{helperBin, "secret"}, Env: []string{"SANDBOX_TEST_HELPER=write"},
			Backend: b, KeepWorkDir: true, Limits: Limits{Wall: 10 * time.Second}})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("first run: %+v %v", res, err)
		}
		defer os.RemoveAll(res.WorkDir)
		for _, path := range []string{filepath.Join(res.WorkDir, "secret"), filepath.Dir(res.WorkDir)} {
			if res, out := runHostile(t, b, "read", Limits{Wall: 10 * time.Second}, path); res.ExitCode != 3 {
				t.Errorf("a run read %s: exit %d, %q", path, res.ExitCode, out)
			}
		}
	})
}

func TestCgroupFreezer(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		res, out := runHostile(t, b, "freeze-self", Limits{Wall: 5 * time.Second})
		if res.ExitCode != 3 {
			t.Errorf("the run made its own cgroup: exit %d, output %q", res.ExitCode, out)
		}
	})
}

func TestLineTimestamps(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		var lines []string
		var walls []time.Duration
		_, err := Run(context.Background(), Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=lines"}, Backend: b,
			OnLine: func(l []byte, wall, cpu time.Duration) {
				lines = append(lines, string(l))
				walls = append(walls, wall)
			}})
		if err != nil {
			t.Fatal(err)
		}
		// See TestExecCommandTimestampsAndStdin for the bounds.
		if len(lines) != 3 || lines[2] != "line 2" || walls[0] > walls[1] || walls[1] > walls[2] || walls[2] < 100*time.Millisecond {
			t.Errorf("lines %q at %v", lines, walls)
		}
	})
}

func TestStdin(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root")
	}
	var out bytes.Buffer
	res, err := Run(context.Background(), Spec{Args: []string{"cat"}, Stdin: strings.NewReader("hello\n"), Stdout: &out})
	if err != nil || res.Reason != Completed || out.String() != "hello\n" {
		t.Errorf("got %+v %v, output %q", res, err, out.String())
	}
	res, _ = Run(context.Background(), Spec{Args: []string{"no-such-solver"}})
	if res.Reason != Failed || !strings.Contains(res.Error, "no-such-solver") {
		t.Errorf("missing program: %+v", res)
	}
}

// forEachRealSolver calls f for z3 and cvc5 on each backend, with an unsat
// benchmark of the shared set.
func forEachRealSolver(t *testing.T, f func(t *testing.T, backend, solver, bench string)) {
	dir := testenv.Shared(t, "benchmarks")
	bench := filepath.Join(dir, "non-incremental", "QF_LIA", "cvc4-regress0-arith", "mod-simp.smt2")
	forEachBackend(t, func(t *testing.T, b string) {
		for _, solver := range []string{"z3", "cvc5"} {
			if _, err := exec.LookPath(solver); err != nil {
				testenv.Skipf(t, "needs %s: %v", solver, err)
			}
			f(t, b, solver, bench)
		}
	})
}

func TestRealSolvers(t *testing.T) {
	forEachRealSolver(t, func(t *testing.T, b, solver, bench string) {
		var out bytes.Buffer
		res, err := Run(context.Background(), Spec{Args: []string{solver, bench}, Stdout: &out, Backend: b,
			Limits: Limits{CPU: 20 * time.Second, Wall: 30 * time.Second, MemoryBytes: 1 << 30}})
		if err != nil || res.Reason != Completed || strings.TrimSpace(out.String()) != "unsat" {
			t.Errorf("%s: %+v %v, output %q", solver, res, err, out.String())
		}
	})
}

// TestFakeCgroup2 covers the v2 backend on a fake tree: the files the
// engine writes, and the ones it reads, which the test writes while the
// run goes on.
func TestFakeCgroup2(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root (a user per run)")
	}
	root := t.TempDir()
	// The delegated cgroup offers the controllers but passes none on yet,
	// as systemd's Delegate=yes leaves it: the engine enables them.
	for f, v := range map[string]string{"cgroup.controllers": "cpu memory pids cpuset hugetlb\n",
		"deleg/cgroup.controllers": "memory pids cpuset\n", "deleg/cgroup.subtree_control": ""} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SMTARENA_CGROUP_ROOT", root)
	t.Setenv("SMTARENA_CGROUP2", "deleg")
	// fake plays the kernel: it writes the run's counters once its cgroup
	// is made.
	fake := func(files map[string]string) (dir chan string) {
		dir = make(chan string, 1)
		go func() {
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				ents, _ := os.ReadDir(filepath.Join(root, "deleg"))
				for _, e := range ents {
					if !e.IsDir() {
						continue
					}
					d := filepath.Join(root, "deleg", e.Name())
					if _, err := os.Stat(filepath.Join(d, "done")); err == nil {
						continue
					}
					for f, v := range files {
						_ = os.WriteFile(filepath.Join(d, f), []byte(v), 0o644)
					}
					_ = os.WriteFile(filepath.Join(d, "done"), nil, 0o644)
					dir <- d
					return
				}
			}
			close(dir)
		}()
		return dir
	}
	dir := fake(map[string]string{
		"cpu.stat":      "usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n",
		"memory.peak":   "123456789\n",
		"memory.events": "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n",
		"pids.events":   "max 0\n",
	})
	res, err := Run(context.Background(), Spec{Args: []string{"sleep", "5"}, Backend: "cgroup2",
		Limits: Limits{MemoryBytes: 200 << 20, Pids: 64, Cores: []int{0}, Wall: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	d := <-dir
	// The kernel reported an OOM kill: the run ends for memory, with the
	// counters read from the files.
	if res.Reason != Memory || res.User != time.Second || res.Sys != 500*time.Millisecond || res.PeakMemoryBytes != 123456789 || res.Backend != "cgroup2" {
		t.Errorf("got %+v", res)
	}
	// A fake cgroup cannot be removed: the files written are in the way.
	if err := Flush(); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("flush: %v", err)
	}
	read := func(f string) string { b, _ := os.ReadFile(filepath.Join(d, f)); return string(b) }
	for f, want := range map[string]string{"memory.max": "209715200", "memory.oom.group": "1",
		"pids.max": "64", "cpuset.cpus": "0", "cgroup.procs": "0", "cgroup.kill": "1"} {
		if got := read(f); got != want {
			t.Errorf("%s = %q, want %q", f, got, want)
		}
	}
	os.RemoveAll(d)
	if got, _ := os.ReadFile(filepath.Join(root, "deleg", "cgroup.subtree_control")); string(got) != "+memory +pids +cpuset" {
		t.Errorf("deleg/cgroup.subtree_control = %q, want the run's controllers enabled", got)
	}
	// What the kernel shows once they are: nothing more to write.
	if err := os.WriteFile(filepath.Join(root, "deleg", "cgroup.subtree_control"), []byte("cpuset memory pids\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// A refused fork, and the CPU limit read from cpu.stat.
	dir = fake(map[string]string{"cpu.stat": "usage_usec 100\nuser_usec 0\nsystem_usec 100\n", "pids.events": "max 2\n"})
	res, _ = Run(context.Background(), Spec{Args: []string{"sleep", "5"}, Backend: "cgroup2", Limits: Limits{Pids: 64, Wall: 10 * time.Second}})
	if d = <-dir; res.Reason != Pids {
		t.Errorf("pids: got %+v", res)
	}
	_ = Flush()
	os.RemoveAll(d)
	dir = fake(map[string]string{"cpu.stat": "usage_usec 3000000\nuser_usec 2000000\nsystem_usec 1000000\n"})
	res, _ = Run(context.Background(), Spec{Args: []string{"sleep", "5"}, Backend: "cgroup2", Limits: Limits{CPU: 2 * time.Second, Wall: 10 * time.Second}})
	if d = <-dir; res.Reason != CPUTime || res.CPU != 3*time.Second {
		t.Errorf("cpu: got %+v", res)
	}
	_ = Flush()
	os.RemoveAll(d)

	// A kernel before 5.19 keeps no memory.peak: memory.current is
	// sampled, and the result says it is less accurate.
	dir = fake(map[string]string{"cpu.stat": "usage_usec 100\nuser_usec 0\nsystem_usec 100\n", "memory.current": "300000000\n"})
	res, _ = Run(context.Background(), Spec{Args: []string{"sleep", "0.3"}, Backend: "cgroup2", Limits: Limits{Wall: 10 * time.Second}})
	if d = <-dir; res.Reason != Completed || res.PeakMemoryBytes != 300000000 || res.Accurate {
		t.Errorf("sampled peak: got %+v", res)
	}
	_ = Flush()
	os.RemoveAll(d)

	// A controller the delegated cgroup does not offer is named.
	for f, v := range map[string]string{"cgroup.controllers": "memory cpuset\n", "cgroup.subtree_control": "memory\n"} {
		if err := os.WriteFile(filepath.Join(root, "deleg", f), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err = Run(context.Background(), Spec{Args: []string{"true"}, Backend: "cgroup2", Limits: Limits{Pids: 64}})
	if err == nil || res.Reason != Failed || !strings.Contains(res.Error, filepath.Join(root, "deleg")+" does not offer the pids controller") {
		t.Errorf("pids not offered: %+v %v", res, err)
	}
}

// TestSetupFailures: a run that cannot be set up is an error, and says why.
func TestSetupFailures(t *testing.T) {
	backends(t)
	res, err := Run(context.Background(), Spec{Args: []string{"true"}, Backend: "cgroup7"})
	if err == nil || res.Reason != Failed || !strings.Contains(res.Error, `unknown backend "cgroup7"`) {
		t.Errorf("unknown backend: %+v %v", res, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), Spec{Args: []string{"true"}, WorkDir: filepath.Join(file, "sub")})
	if err == nil || res.Reason != Failed || !strings.Contains(res.Error, "work dir") {
		t.Errorf("work dir under a file: %+v %v", res, err)
	}
	if _, err := Run(context.Background(), Spec{}); err == nil {
		t.Error("no command: no error")
	}
}

// TestCancel: a run whose context is cancelled ends as killed, with
// nothing of it left.
func TestCancel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b string) {
		marker := "SANDBOX_TEST_MARK=cancel-" + b
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		res, err := Run(ctx, Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=setsid-escapee", marker},
			Backend: b, Limits: Limits{Wall: 20 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		// The escapee's parent is done at once; the escapee sleeps on
		// until the run is killed... which is when its parent exits.
		if res.Reason != Completed && res.Reason != Killed {
			t.Errorf("got %+v", res)
		}
		res, err = Run(ctx2(t, 300*time.Millisecond), Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=sleep", marker},
			Backend: b, Limits: Limits{Wall: 20 * time.Second}})
		if err != nil || res.Reason != Killed || res.Wall > 5*time.Second {
			t.Errorf("cancelled run: %+v %v", res, err)
		}
		if p := survivors(marker); len(p) > 0 {
			t.Errorf("survivors %v", p)
			killAll(p)
		}
	})
}

// ctx2 is a context cancelled after d.
func ctx2(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	time.AfterFunc(d, cancel)
	return ctx
}

// TestEngineKilled: when a run's engine process is killed, Run says so,
// and the run dies with it.
func TestEngineKilled(t *testing.T) {
	backends(t)
	marker := "SANDBOX_TEST_MARK=engine-killed"
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if len(survivors(marker)) == 0 {
				continue // the solver is not running yet
			}
			for _, pid := range engines() {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
	}()
	res, err := Run(context.Background(), Spec{Args: []string{helperBin}, Env: []string{"SANDBOX_TEST_HELPER=sleep", marker},
		Limits: Limits{Wall: 20 * time.Second}})
	if err == nil || res.Reason != Failed || !strings.Contains(res.Error, "without a report") {
		t.Errorf("got %+v %v", res, err)
	}
	for deadline := time.Now().Add(2 * time.Second); len(survivors(marker)) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("the run outlived its engine: %v", survivors(marker))
			killAll(survivors(marker))
			break
		}
	}
	_ = Flush()
}

// engines lists the processes that are a run's engine, children of this
// test process.
func engines() []int {
	parent := []byte(") S " + strconv.Itoa(os.Getpid()) + " ")
	return processes(func(file func(string) []byte) bool {
		return bytes.Contains(file("cmdline"), []byte(runArg)) && bytes.Contains(file("stat"), parent)
	})
}

// TestNoDescriptorLeak: a competition makes thousands of runs in one
// process; each must give back every descriptor it took.
func TestNoDescriptorLeak(t *testing.T) {
	backends(t)
	count := func() int { ents, _ := os.ReadDir("/proc/self/fd"); return len(ents) }
	run := func() {
		var out bytes.Buffer
		res, err := Run(context.Background(), Spec{Args: []string{"cat"}, Stdin: strings.NewReader("x\n"), Stdout: &out,
			OnLine: func([]byte, time.Duration, time.Duration) {}})
		if err != nil || res.Reason != Completed || out.String() != "x\n" {
			t.Fatalf("%+v %v %q", res, err, out.String())
		}
	}
	run()
	_ = Flush()
	before := count()
	for i := 0; i < 30; i++ {
		run()
	}
	_ = Flush()
	if after := count(); after > before {
		t.Errorf("%d descriptors open before 30 runs, %d after", before, after)
	}
}

// TestSweepsLeftovers: a run killed while its cgroups were being removed
// leaves some controllers' directories only; a later run removes them (a
// stale cgroup whose name a new run with the same pid takes would stop
// that run).
func TestSweepsLeftovers(t *testing.T) {
	backends(t)
	if bestBackend(t) != "cgroup1" {
		testenv.Skipf(t, "needs cgroup v1 (this machine's backend is %s)", bestBackend(t))
	}
	var stale []string
	for _, ctl := range []string{"cpuset", "memory"} {
		d := filepath.Join("/sys/fs/cgroup", ctl, "smtarena", "run-99999999-1") // no pid is that large
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, d)
	}
	if res, err := Run(context.Background(), Spec{Args: []string{"true"}}); err != nil || res.Reason != Completed {
		t.Fatalf("%+v %v", res, err)
	}
	if err := Flush(); err != nil {
		t.Fatal(err)
	}
	for _, d := range stale {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s is still there", d)
			os.Remove(d)
		}
	}
}

// TestKeepWorkDir: a kept working directory outlives later runs.
func TestKeepWorkDir(t *testing.T) {
	backends(t)
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo kept > f"}, KeepWorkDir: true})
	if err != nil || res.Reason != Completed {
		t.Fatalf("%+v %v", res, err)
	}
	defer os.RemoveAll(res.WorkDir)
	for i := 0; i < 2; i++ {
		if _, err := Run(context.Background(), Spec{Args: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Flush(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(res.WorkDir, "f")); err != nil || string(b) != "kept\n" {
		t.Errorf("%s/f: %q, %v", res.WorkDir, b, err)
	}
}

// TestCluster: a run with Cluster (a cloud-track solver on a Slurm
// allocation) shares the host's network namespace, keeps the caller's user
// and sees the kept paths under /run; a run without it does none of that.
func TestCluster(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root (namespaces, a user per run)")
	}
	dir, err := os.MkdirTemp("/run", "smtarena-cluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "munge.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()
	netns, _ := os.Readlink("/proc/self/ns/net")
	want := fmt.Sprintf("%s %d sock\n", netns, os.Getuid())
	for _, cluster := range []bool{true, false} {
		var out bytes.Buffer
		spec := Spec{Args: []string{"sh", "-c", `echo "$(readlink /proc/self/ns/net) $(id -u) $(test -S "$1" && echo sock)"`, "sh", sock},
			Cluster: cluster, Stdout: &out, Limits: Limits{Wall: 10 * time.Second}}
		if cluster {
			spec.Keep = []string{dir}
		}
		res, err := Run(context.Background(), spec)
		if err != nil || res.Reason != Completed {
			t.Fatalf("cluster %v: %v %+v", cluster, err, res)
		}
		if got := out.String(); (got == want) != cluster {
			t.Errorf("cluster %v: the run says %q; the host is %q", cluster, got, want)
		}
	}
}

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// CgroupRoot is where cgroup hierarchies are mounted; tests point it at a
// fake tree.
var CgroupRoot = "/sys/fs/cgroup"

var runCounter atomic.Uint64

// Run executes spec and returns what was measured. The error is for runs
// that could not be set up at all (no backend, no working directory); a
// program that cannot be started is a Result with Reason Failed.
func Run(ctx context.Context, spec Spec) (Result, error) {
	if len(spec.Args) == 0 {
		return Result{Reason: Failed, Error: "no command"}, errors.New("sandbox: no command")
	}
	if !haveFirstProc {
		const msg = "sandbox: this binary was built without cgo (CGO_ENABLED=0); a run's first process is C code linked through cgo"
		return Result{Reason: Failed, Error: msg}, errors.New(msg)
	}
	r := &run{spec: spec, root: os.Geteuid() == 0}
	if r.spec.Protocol == "" {
		r.spec.Protocol = Protocol2022
	}
	if r.spec.Grace == 0 {
		r.spec.Grace = time.Second
	}
	if r.spec.Protocol == Protocol2005 {
		r.spec.Grace = 3 * time.Second
		if r.spec.Limits.Wall == 0 && r.spec.Limits.CPU > 0 {
			r.spec.Limits.Wall = r.spec.Limits.CPU + 30*time.Second
		}
	}
	return r.exec(ctx)
}

type run struct {
	spec    Spec
	root    bool
	id      string
	uid     int
	workdir string
	be      backend
	cmd     *exec.Cmd
	start   time.Time

	lastCPU atomic.Int64 // ns, as of the last poll

	mu        sync.Mutex
	reason    Reason
	killTimer *time.Timer
	done      chan struct{}
}

// baseDir is where fresh working directories go: not under /tmp, which each
// run gets privately.
func baseDir(root bool) string {
	if d := os.Getenv("SMTARENA_RUN_DIR"); d != "" {
		return d
	}
	if root {
		return "/var/lib/smtarena/runs"
	}
	return filepath.Join(os.TempDir(), "smtarena-runs")
}

func (r *run) exec(ctx context.Context) (Result, error) {
	sweepStale(r.root)
	n := runCounter.Add(1)
	r.id = fmt.Sprintf("run-%d-%d", os.Getpid(), n)
	r.uid = -1
	if r.root {
		// A user of its own per run: runs cannot read each other's files.
		r.uid = 1_000_000_000 + (os.Getpid()%100_000)*1000 + int(n%1000)
	}
	// The first process starts at once and waits for its configuration:
	// its exec overlaps with making the working directory and cgroups.
	fp, err := r.startFirst()
	if err != nil {
		return Result{Reason: Failed, Error: err.Error(), ExitCode: -1}, nil
	}
	defer fp.close()
	if err := r.makeWorkdir(); err != nil {
		fp.abort()
		return Result{Reason: Failed, Error: err.Error()}, err
	}
	if r.be, err = r.backend(); err != nil {
		fp.abort()
		return Result{Reason: Failed, Error: err.Error(), WorkDir: r.workdir}, errors.Join(err, r.removeWorkdir())
	}
	res, err := r.runHelper(ctx, fp)
	// Everything is measured: the cgroups and the working directory go
	// while the caller gets on with the result (Flush waits for them).
	teardown.wg.Add(1)
	go func() {
		defer teardown.wg.Done()
		if e := errors.Join(r.be.destroy(), r.removeWorkdir()); e != nil {
			teardown.mu.Lock()
			teardown.errs = append(teardown.errs, e)
			teardown.mu.Unlock()
		}
	}()
	return res, err
}

// teardown is the removal of finished runs' cgroups and working
// directories, which happens after Run has returned.
var teardown struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

// Flush waits until the cgroups and working directories of the runs that
// have returned are removed, and returns what went wrong in removing them
// since the last Flush. Run returns before that removal (a millisecond or
// two a run), so a program calls Flush before it exits; what a killed
// program leaves behind is removed by the next one (sweepStale).
func Flush() error {
	teardown.wg.Wait()
	teardown.mu.Lock()
	defer teardown.mu.Unlock()
	err := errors.Join(teardown.errs...)
	teardown.errs = nil
	return err
}

func (r *run) removeWorkdir() error {
	if r.spec.KeepWorkDir || r.spec.WorkDir != "" {
		return nil
	}
	if err := os.RemoveAll(r.workdir); err != nil {
		return fmt.Errorf("sandbox: remove work dir: %w", err)
	}
	return nil
}

// firstProc is a run's first process, started and waiting for its
// configuration, with our ends of its pipes.
type firstProc struct {
	cmd       *exec.Cmd
	cfgW      *os.File // its configuration, fd 3
	repR      *os.File // its report, fd 4
	outR      *os.File // the solver's output
	stdinCopy func()   // feeds a non-file Stdin, once the run goes
	inR       *os.File // the read end of that feed
}

// startFirst starts the run's first process in new namespaces.
func (r *run) startFirst() (*firstProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable: %w", err)
	}
	fp := &firstProc{}
	var cfgR, repW, outW *os.File
	defer func() { closeAll(cfgR, repW, outW) }()
	if cfgR, fp.cfgW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if fp.repR, repW, err = os.Pipe(); err != nil {
		fp.close()
		return nil, err
	}
	if fp.outR, outW, err = os.Pipe(); err != nil {
		fp.close()
		return nil, err
	}
	cmd := exec.Command(exe, initArg)
	cmd.Env = []string{}
	cmd.ExtraFiles = []*os.File{cfgR, repW}
	cmd.Stdout, cmd.Stderr = outW, outW
	switch in := r.spec.Stdin.(type) {
	case nil:
	case *os.File:
		cmd.Stdin = in
	default:
		inR, inW, err := os.Pipe()
		if err != nil {
			fp.close()
			return nil, err
		}
		cmd.Stdin, fp.inR = inR, inR
		fp.stdinCopy = func() {
			_, _ = io.Copy(inW, in)
			inW.Close()
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if r.root {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC
	}
	fp.cmd = cmd
	r.start = time.Now()
	if err := cmd.Start(); err != nil {
		fp.close()
		return nil, fmt.Errorf("start: %w", err)
	}
	return fp, nil
}

// abort ends a first process that will get no configuration.
func (fp *firstProc) abort() {
	_ = fp.cmd.Process.Kill()
	_ = fp.cmd.Wait()
}

func (fp *firstProc) close() { closeAll(fp.cfgW, fp.repR, fp.outR, fp.inR) }

// closeAll closes the files that are open (a nil one is skipped).
func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

func (r *run) makeWorkdir() error {
	if r.spec.WorkDir != "" {
		r.workdir = r.spec.WorkDir
		if err := os.MkdirAll(r.workdir, 0o755); err != nil {
			return fmt.Errorf("sandbox: work dir: %w", err)
		}
	} else {
		base := baseDir(r.root)
		if err := os.MkdirAll(base, 0o711); err != nil {
			return fmt.Errorf("sandbox: work dir: %w", err)
		}
		d, err := os.MkdirTemp(base, r.id+"-")
		if err != nil {
			return fmt.Errorf("sandbox: work dir: %w", err)
		}
		r.workdir = d
	}
	if r.uid >= 0 {
		if err := os.Chown(r.workdir, r.uid, r.uid); err != nil {
			return fmt.Errorf("sandbox: work dir: %w", err)
		}
		if err := os.Chmod(r.workdir, 0o700); err != nil {
			return fmt.Errorf("sandbox: work dir: %w", err)
		}
	}
	return nil
}

// pickBackend names the best backend this machine offers.
func pickBackend(root bool) string {
	if _, err := os.Stat(filepath.Join(CgroupRoot, "cgroup.controllers")); err == nil && cgroup2Parent() != "" {
		return "cgroup2"
	}
	if _, err := os.Stat(filepath.Join(CgroupRoot, "cpuacct", "cpuacct.usage")); err == nil && root {
		return "cgroup1"
	}
	return "fallback"
}

// cgroup2Parent is the delegated v2 cgroup runs are created in: the one
// named by SMTARENA_CGROUP2, or none.
func cgroup2Parent() string {
	if p := os.Getenv("SMTARENA_CGROUP2"); p != "" {
		return filepath.Join(CgroupRoot, p)
	}
	return ""
}

func (r *run) backend() (backend, error) {
	name := r.spec.Backend
	if name == "" {
		name = pickBackend(r.root)
	}
	switch name {
	case "cgroup2":
		parent := cgroup2Parent()
		if parent == "" {
			return nil, errors.New("sandbox: cgroup2 needs a delegated cgroup in SMTARENA_CGROUP2")
		}
		return newCgroup2(parent, r.id, r.spec.Limits)
	case "cgroup1":
		return newCgroup1(CgroupRoot, r.id, r.spec.Limits)
	case "fallback":
		return newProcPoll(r.spec.Limits), nil
	}
	return nil, fmt.Errorf("sandbox: unknown backend %q (want cgroup2, cgroup1 or fallback)", name)
}

// env is the clean environment of a run, with the limits as StarExec gives
// them.
func (r *run) env() []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "HOME=" + r.workdir, "TMPDIR=/tmp", "LANG=C.UTF-8"}
	l := r.spec.Limits
	if l.Wall > 0 {
		env = append(env, "STAREXEC_WALLCLOCK_LIMIT="+strconv.FormatInt(int64(l.Wall/time.Second), 10))
	}
	if l.CPU > 0 {
		env = append(env, "STAREXEC_CPU_LIMIT="+strconv.FormatInt(int64(l.CPU/time.Second), 10))
	}
	if l.MemoryBytes > 0 {
		env = append(env, "STAREXEC_MAX_MEM="+strconv.FormatInt(l.MemoryBytes>>20, 10))
	}
	return append(env, r.spec.Env...)
}

// hidden reports whether path lies under a directory that gets a private
// mount in the run.
func hidden(path string) bool {
	for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

func (r *run) config() initConfig {
	cfg := initConfig{Args: r.spec.Args, Env: r.env(), Dir: r.workdir, UID: r.uid, GID: r.uid,
		Mounts: r.root, NewPID: r.root, Cores: r.spec.Limits.Cores}
	if r.uid >= 0 && r.spec.Limits.Pids > 0 {
		cfg.Nproc = r.spec.Limits.Pids
	}
	if r.be.name() == "fallback" {
		cfg.ASLimit = r.spec.Limits.MemoryBytes
	}
	for _, p := range append([]string{r.workdir}, r.spec.Args...) {
		if abs, err := filepath.Abs(p); err == nil && hidden(abs) {
			if _, err := os.Stat(abs); err == nil {
				cfg.BindPaths = append(cfg.BindPaths, abs)
			}
		}
	}
	return cfg
}

func (r *run) runHelper(ctx context.Context, fp *firstProc) (Result, error) {
	res := Result{ExitCode: -1, Backend: r.be.name(), Accurate: r.be.accurate(), WorkDir: r.workdir, Start: r.start}
	cmd, outR, repR := fp.cmd, fp.outR, fp.repR
	r.cmd = cmd
	r.done = make(chan struct{})
	if err := r.be.add(cmd.Process.Pid); err != nil {
		fp.abort()
		return r.failed(res, err.Error())
	}
	if _, err := fp.cfgW.Write(r.config().encode()); err != nil {
		fp.abort()
		return r.failed(res, "send config: "+err.Error())
	}
	fp.cfgW.Close()
	if fp.stdinCopy != nil {
		go fp.stdinCopy()
	}

	out := newOutputSink(r.spec.Stdout, r.spec.Limits.OutputBytes, r.spec.OnLine, r)
	outDone := make(chan struct{})
	go func() {
		out.copyFrom(outR)
		close(outDone)
	}()
	pollDone := make(chan struct{})
	go r.poll(ctx, pollDone)

	// The first process reports when the solver and everything it started
	// are gone; its own exit, and the teardown of the namespaces, need not
	// be waited for.
	type reportRead struct {
		rep initReport
		ok  bool
	}
	repCh := make(chan reportRead, 1)
	go func() {
		b, _ := io.ReadAll(repR) // the first process closes it after reporting
		rep, ok := decodeReport(b)
		repCh <- reportRead{rep, ok}
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	got := <-repCh
	rep := got.rep
	if !got.ok {
		// Killed before it could report (SIGKILL after the grace): the
		// solver died with it.
		err := <-waited
		rep = initReport{Started: true, ExitCode: -1, Signal: "SIGKILL"}
		if err == nil {
			rep.Signal = ""
		}
		waited <- err
	}
	res.End = time.Now()
	res.Wall = res.End.Sub(r.start)
	close(r.done)
	<-pollDone
	r.mu.Lock()
	if r.killTimer != nil {
		r.killTimer.Stop()
	}
	r.mu.Unlock()
	go func() { <-waited }() // reap the first process as it exits
	// Every process of the run is gone (or is killed now), so the output
	// pipe reaches EOF.
	r.be.kill()
	select {
	case <-outDone:
	case <-time.After(2 * time.Second):
		outR.Close()
		<-outDone
	}
	user, sys, uerr := r.be.usage()
	if uerr != nil || !r.be.accurate() {
		// The fallback's final word is the kernel's rusage of everything
		// the first process reaped.
		if ru := time.Duration(rep.UserNs); ru > user {
			user = ru
		}
		if rs := time.Duration(rep.SysNs); rs > sys {
			sys = rs
		}
	}
	res.User, res.Sys, res.CPU = user, sys, user+sys
	res.PeakMemoryBytes = r.be.peak()
	if p := rep.MaxRSSKB << 10; !r.be.accurate() && p > res.PeakMemoryBytes {
		res.PeakMemoryBytes = p
	}
	res.ExitCode, res.Signal = rep.ExitCode, rep.Signal
	res.OutputBytes, res.Tail = out.total, out.tailBytes()
	r.mu.Lock()
	res.Reason = r.reason
	r.mu.Unlock()
	if res.Reason == "" {
		res.Reason = Completed
		if h := r.be.hit(); h != "" && rep.Signal != "" {
			res.Reason = h // the kernel killed the solver at a limit
		}
	}
	if !rep.Started {
		res.Reason = Failed
		res.Error = rep.Error
	}
	return res, nil
}

func (r *run) failed(res Result, msg string) (Result, error) {
	res.Reason, res.Error = Failed, msg
	res.End = time.Now()
	return res, nil
}

// How often the limits are looked at: the fallback samples /proc every
// sampleEvery; with cgroups the kernel enforces memory and processes, and
// the events that say so are read every eventsEvery, while the CPU time is
// read when the limit could first have been reached (the time left over
// the CPUs the run may use), at most every minCPUPoll as it comes near.
// A long run so costs few wake-ups, which are taken from the solvers of the
// other slots on a busy machine.
const (
	sampleEvery = 10 * time.Millisecond
	eventsEvery = 50 * time.Millisecond
	minCPUPoll  = time.Millisecond
)

// poll watches the limits until the run ends.
func (r *run) poll(ctx context.Context, done chan struct{}) {
	defer close(done)
	l := r.spec.Limits
	var wall <-chan time.Time
	if l.Wall > 0 {
		t := time.NewTimer(l.Wall - time.Since(r.start))
		defer t.Stop()
		wall = t.C
	}
	rate := time.Duration(len(l.Cores))
	if rate == 0 {
		rate = time.Duration(runtime.NumCPU())
	}
	accurate := r.be.accurate()
	tick := time.NewTimer(minCPUPoll)
	defer tick.Stop()
	var eventsRead time.Time
	for {
		select {
		case <-r.done:
			return
		case <-ctx.Done():
			r.terminate(Killed)
		case <-wall:
			r.terminate(WallTime)
		case now := <-tick.C:
			next := sampleEvery
			if accurate {
				next = eventsEvery
			}
			if l.CPU > 0 || !accurate {
				if used, err := r.pollCPU(); err == nil {
					r.lastCPU.Store(int64(used))
					if l.CPU > 0 && used >= l.CPU {
						r.terminate(CPUTime)
					} else if accurate && l.CPU > 0 {
						next = min(max((l.CPU-used)/rate, minCPUPoll), eventsEvery)
					}
				}
			}
			if !accurate || now.Sub(eventsRead) >= eventsEvery-minCPUPoll {
				eventsRead = now
				if h := r.be.hit(); h != "" {
					r.terminate(h)
				}
			}
			tick.Reset(next)
		}
	}
}

// terminate ends the run for a reason (the first one wins): by the
// protocol for the time limits, at once for the others.
func (r *run) terminate(reason Reason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reason != "" {
		return
	}
	r.reason = reason
	p := r.cmd.Process
	killNow := func() {
		_ = p.Signal(syscall.SIGUSR1) // the first process kills the namespace
		time.AfterFunc(time.Second, func() {
			select {
			case <-r.done:
			default:
				_ = p.Kill()
				r.be.kill()
			}
		})
	}
	if reason != CPUTime && reason != WallTime {
		killNow()
		return
	}
	sig := syscall.SIGTERM
	if r.spec.Protocol == Protocol2005 && reason == CPUTime {
		sig = syscall.SIGXCPU
	}
	_ = p.Signal(sig)
	r.killTimer = time.AfterFunc(r.spec.Grace, killNow)
}

// pollCPU reads the run's CPU time, for the limit and line timestamps:
// through the cgroup's descriptor kept open when there is one (one pread),
// else by the backend's usage (the fallback samples memory while it reads).
func (r *run) pollCPU() (time.Duration, error) {
	if t, ok := r.be.(interface{ cpuTotal() (time.Duration, error) }); ok && r.be.accurate() {
		if d, err := t.cpuTotal(); err == nil {
			return d, nil
		}
	}
	u, s, err := r.be.usage()
	return u + s, err
}

// cpuNow returns the CPU time of the run so far, for line timestamps: read
// from the kernel with a cgroup, the last poll's value with the fallback
// (whose reading scans /proc).
func (r *run) cpuNow() time.Duration {
	if !r.be.accurate() {
		return time.Duration(r.lastCPU.Load())
	}
	d, _ := r.pollCPU()
	return d
}

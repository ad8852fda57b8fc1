package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// runArg makes the smtarena binary (or a test binary) run one run on the
// sandbox's engine, the C code of internal/sandbox/native, which runs
// before the Go runtime starts and exits when the run is removed. The
// engine makes the run's working directory, user and cgroups, starts its
// first process in new namespaces, watches the limits, measures, and
// reports on the status descriptor; this side feeds the input, reads the
// output (cutting it at the limit, timestamping its lines) and turns the
// report into a Result. `smtarena exec` runs on the same engine.
const runArg = "__smtarena-sandbox-run"

// Run executes spec and returns what was measured. The error is for runs
// that could not be set up at all (no backend, no working directory); a
// program that cannot be started is a Result with Reason Failed.
func Run(ctx context.Context, spec Spec) (Result, error) {
	if len(spec.Args) == 0 {
		return Result{Reason: Failed, Error: "no command"}, errors.New("sandbox: no command")
	}
	if !haveNative {
		const msg = "sandbox: this binary was built without cgo (CGO_ENABLED=0); the sandbox's engine is C code linked through cgo"
		return Result{Reason: Failed, Error: msg}, errors.New(msg)
	}
	r := &run{spec: spec}
	return r.exec(ctx)
}

// run is one run as this side sees it.
type run struct {
	spec   Spec
	cmd    *exec.Cmd
	start  time.Time
	cpu    atomic.Pointer[counter] // the run's CPU time, where a cgroup has it
	cpuNs  atomic.Int64            // else the engine's last sample
	stderr lockedBuffer
}

// encodeSpec writes the spec as the engine reads it: "key=value" strings,
// each ended by a NUL (no argument, environment entry or path can hold one).
func (r *run) encodeSpec() []byte {
	var b bytes.Buffer
	put := func(k, v string) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
		b.WriteByte(0)
	}
	num := func(k string, v int64) {
		if v != 0 {
			put(k, strconv.FormatInt(v, 10))
		}
	}
	s := r.spec
	for _, a := range s.Args {
		put("arg", a)
	}
	for _, e := range s.Env {
		put("env", e)
	}
	num("cpu_ns", int64(s.Limits.CPU))
	num("wall_ns", int64(s.Limits.Wall))
	num("mem", s.Limits.MemoryBytes)
	num("pids", int64(s.Limits.Pids))
	for _, c := range s.Limits.Cores {
		put("core", strconv.Itoa(c))
	}
	if s.Protocol != "" {
		put("protocol", string(s.Protocol))
	}
	num("grace_ns", int64(s.Grace))
	if s.WorkDir != "" {
		put("workdir", s.WorkDir)
	}
	if s.KeepWorkDir {
		put("keep", "1")
	}
	if s.Backend != "" {
		put("backend", s.Backend)
	}
	if s.Cluster {
		put("share_net", "1")
		put("keep_user", "1")
	}
	for _, p := range s.Keep {
		put("keep_path", p)
	}
	if s.OnLine != nil {
		put("cpu_updates", "1")
	}
	return b.Bytes()
}

func (r *run) exec(ctx context.Context) (Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return r.failed("find own executable: " + err.Error())
	}
	var specR, specW, statR, statW, outR, outW, inR, inW *os.File
	defer func() { closeAll(specR, specW, statR, statW, outR, outW, inR, inW) }()
	if specR, specW, err = os.Pipe(); err != nil {
		return r.failed(err.Error())
	}
	if statR, statW, err = os.Pipe(); err != nil {
		return r.failed(err.Error())
	}
	if outR, outW, err = os.Pipe(); err != nil {
		return r.failed(err.Error())
	}
	cmd := exec.Command(exe, runArg)
	cmd.ExtraFiles = []*os.File{specR, statW}
	cmd.Stdout, cmd.Stderr = outW, &r.stderr
	var feed func()
	switch in := r.spec.Stdin.(type) {
	case nil:
	case *os.File:
		cmd.Stdin = in
	default:
		if inR, inW, err = os.Pipe(); err != nil {
			return r.failed(err.Error())
		}
		cmd.Stdin = inR
		w := inW
		feed = func() {
			_, _ = io.Copy(w, in)
			w.Close()
		}
	}
	// Its own process group: the caller's terminal signals reach it
	// through ctx; and it dies with us.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	r.cmd = cmd
	r.start = time.Now()
	if err := cmd.Start(); err != nil {
		return r.failed("start the engine: " + err.Error())
	}
	// Only the engine and the run hold these now.
	closeAll(specR, statW, outW, inR)
	specR, statW, outW, inR = nil, nil, nil, nil
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if _, err := specW.Write(r.encodeSpec()); err != nil {
		_ = cmd.Process.Kill()
		return r.engineDied(<-exited, "send the spec: "+err.Error())
	}
	specW.Close()
	specW = nil
	if feed != nil {
		inW = nil // the feeder closes it
		go feed()
	}

	out := newOutputSink(r.spec.Stdout, r.spec.Limits.OutputBytes, r.spec.OnLine, r)
	outDone := make(chan struct{})
	go func() {
		out.copyFrom(outR)
		close(outDone)
	}()
	statusDone := make(chan struct{})
	defer close(statusDone)
	go func() {
		select {
		case <-ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGTERM) // the engine: killed
		case <-statusDone:
		}
	}()

	rep, complete := r.readStatus(statR)
	if !complete {
		err := <-exited
		return r.engineDied(err, "")
	}
	// The run's processes are gone: the output reaches EOF.
	select {
	case <-outDone:
	case <-time.After(2 * time.Second):
		outR.Close() // something of the run's still holds it: stop reading
		<-outDone
	}
	if c := r.cpu.Load(); c != nil {
		c.close()
	}
	// The engine removes the run's cgroups and working directory now;
	// Flush waits for that.
	teardown.wg.Add(1)
	go func() {
		defer teardown.wg.Done()
		if err := <-exited; err != nil {
			e := fmt.Errorf("sandbox: removing a run: %v: %s", err, bytes.TrimSpace(r.stderr.Bytes()))
			teardown.mu.Lock()
			teardown.errs = append(teardown.errs, e)
			teardown.mu.Unlock()
		}
	}()
	res := rep.result()
	res.OutputBytes, res.Tail = out.total, out.tailBytes()
	if rep["setup_failed"] == "1" {
		return res, errors.New(res.Error)
	}
	return res, nil
}

// status is the engine's report, key by key (a later entry wins).
type status map[string]string

func (s status) num(k string) int64 {
	n, _ := strconv.ParseInt(s[k], 10, 64)
	return n
}

func (s status) result() Result {
	res := Result{
		Reason:          Reason(s["reason"]),
		Error:           s["error"],
		ExitCode:        int(s.num("exit")),
		Signal:          s["signal"],
		Wall:            time.Duration(s.num("wall_ns")),
		User:            time.Duration(s.num("user_ns")),
		Sys:             time.Duration(s.num("sys_ns")),
		PeakMemoryBytes: s.num("peak"),
		Backend:         s["backend"],
		Accurate:        s["accurate"] == "1",
		WorkDir:         s["workdir"],
	}
	if _, ok := s["exit"]; !ok {
		res.ExitCode = -1
	}
	res.CPU = res.User + res.Sys
	if ns := s.num("start_ns"); ns != 0 {
		res.Start = time.Unix(0, ns)
	}
	if ns := s.num("end_ns"); ns != 0 {
		res.End = time.Unix(0, ns)
	}
	return res
}

// readStatus reads what the engine says until its end; complete is false
// when the engine died first.
func (r *run) readStatus(f *os.File) (rep status, complete bool) {
	rep = status{}
	br := bufio.NewReader(f)
	for {
		entry, err := br.ReadBytes(0)
		if len(entry) > 0 && entry[len(entry)-1] == 0 {
			k, v, _ := bytes.Cut(entry[:len(entry)-1], []byte("="))
			key := string(k)
			rep[key] = string(v)
			switch key {
			case "cpu":
				r.cpuNs.Store(rep.num("cpu"))
			case "cpu_unit_ns":
				unit := time.Duration(rep.num("cpu_unit_ns"))
				r.cpu.Store(&counter{path: rep["cpu_file"], key: rep["cpu_key"], unit: unit})
			case "end":
				return rep, true
			}
		}
		if err != nil {
			return rep, false
		}
	}
}

func (r *run) failed(msg string) (Result, error) {
	return Result{Reason: Failed, Error: msg, ExitCode: -1}, errors.New("sandbox: " + msg)
}

// engineDied is the result of a run whose engine ended without reporting
// (killed from outside, or a bug): nothing is known of the run.
func (r *run) engineDied(err error, what string) (Result, error) {
	msg := "the sandbox's engine ended without a report"
	if what != "" {
		msg += " (" + what + ")"
	}
	if err != nil {
		msg += ": " + err.Error()
	}
	if e := bytes.TrimSpace(r.stderr.Bytes()); len(e) > 0 {
		msg += ": " + string(e)
	}
	return Result{Reason: Failed, Error: msg, ExitCode: -1, Start: r.start, End: time.Now()}, errors.New("sandbox: " + msg)
}

// terminate asks the engine to end the run for a reason of this side: the
// output limit.
func (r *run) terminate(reason Reason) {
	if reason == Output {
		_ = r.cmd.Process.Signal(syscall.SIGUSR2)
	}
}

// cpuNow returns the CPU time of the run so far, for line timestamps: read
// from the run's cgroup, or the engine's last sample of /proc.
func (r *run) cpuNow() time.Duration {
	if c := r.cpu.Load(); c != nil {
		if d, err := c.read(); err == nil {
			return d
		}
	}
	return time.Duration(r.cpuNs.Load())
}

// teardown is the removal of finished runs' cgroups and working
// directories, which the engine does after Run has returned.
var teardown struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

// Flush waits until the cgroups and working directories of the runs that
// have returned are removed, and returns what went wrong in removing them
// since the last Flush. Run returns before that removal (a millisecond or
// two a run), so a program calls Flush before it exits; what a killed
// program leaves behind is removed by a later run.
func Flush() error {
	teardown.wg.Wait()
	teardown.mu.Lock()
	defer teardown.mu.Unlock()
	err := errors.Join(teardown.errs...)
	teardown.errs = nil
	return err
}

// closeAll closes the files that are open (a nil one is skipped).
func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the writer goroutine of exec.Cmd
// and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 64<<10 {
		return len(p), nil // enough to say what went wrong
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.b.Bytes()...)
}

package trace

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// ExecOptions configure a solver started with plain pipes.
type ExecOptions struct {
	// Wall ends the solver after this much wall time (0: never). At the
	// limit the solver's process group gets SIGTERM, then SIGKILL after
	// Grace (default 1 s).
	Wall  time.Duration
	Grace time.Duration
	// MeasureCPU makes CPU read the solver's process tree from /proc
	// (a few system calls each time); otherwise CPU returns 0.
	MeasureCPU bool
	// Stderr receives the solver's standard error; nil discards it, as
	// the official executor does.
	Stderr io.Writer
	// Dir is the solver's working directory; empty means the current one.
	Dir string
	// Env is added to the environment the solver inherits.
	Env []string
}

// execConn is a solver started with os/exec and two pipes, in a process
// group of its own: what the official executor does (fork, pipes, exec),
// plus the limit.
type execConn struct {
	opts  ExecOptions
	cmd   *exec.Cmd
	stdin *os.File
	out   *os.File // read with blocking reads
	outFd int
	r     *bufio.Reader
	line  []byte
	start time.Time
	// yielded is the wall time (since start) of the last runtime.Gosched
	// of ReadLine.
	yielded time.Duration

	mu     sync.Mutex
	reason sandbox.Reason // why we ended it, "" while we have not
	timers []*time.Timer

	tree *procTree // nil unless MeasureCPU

	abandoned atomic.Bool // the output is not read any more (see unblock)
	closed    bool        // Close has closed the output (guarded by mu)

	done  chan struct{} // closed when the solver has been waited for
	state *os.ProcessState
	end   time.Time
	stop  func() bool // stops watching ctx
}

// StartExec starts the solver args[0] with arguments args[1:] (looked up in
// PATH when it has no slash). Cancelling ctx kills it. The error is for
// pipes that cannot be made; a solver that cannot be started behaves as
// under the official executor, whose child prints "Cannot execute: SOLVER"
// on the output before exiting (Close then says why).
func StartExec(ctx context.Context, args []string, opts ExecOptions) (Conn, error) {
	if len(args) == 0 {
		return nil, errors.New("trace: no solver command")
	}
	if opts.Grace == 0 {
		opts.Grace = time.Second
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The solver's output is read with blocking read(2), as the official
	// executor reads it, not through Go's poller: an answer then wakes
	// the executor at once, which halves its CPU time and saves tens of
	// milliseconds over a few thousand commands (BenchmarkTraceExec). Its
	// input stays with the poller, whose writes cost the same and can be
	// interrupted.
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	outR, outW := os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Dir = inR, outW, opts.Stderr, opts.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if len(opts.Env) > 0 {
		cmd.Env = append(os.Environ(), opts.Env...)
	}
	c := &execConn{opts: opts, cmd: cmd, stdin: inW, out: outR, outFd: fds[0], r: bufio.NewReaderSize(outR, 64<<10), done: make(chan struct{})}
	c.start = time.Now()
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return newFailedConn(args[0], err.Error()), nil
	}
	if opts.MeasureCPU {
		c.tree = newProcTree(cmd.Process.Pid)
	}
	go func() {
		_ = cmd.Wait()
		c.state, c.end = cmd.ProcessState, time.Now()
		close(c.done)
	}()
	if opts.Wall > 0 {
		c.mu.Lock()
		c.timers = append(c.timers, time.AfterFunc(opts.Wall, func() { c.terminate(sandbox.WallTime, true) }))
		c.mu.Unlock()
	}
	c.stop = context.AfterFunc(ctx, func() { c.terminate(sandbox.Killed, false) })
	return c, nil
}

// terminate ends the solver for a reason (the first one wins): SIGTERM to
// its group and SIGKILL after the grace period when gently, SIGKILL at once
// otherwise. A second after that, ReadLine is unblocked, in case a process
// that left the group keeps the output open.
func (c *execConn) terminate(reason sandbox.Reason, gently bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reason != "" {
		return
	}
	c.reason = reason
	pgid := c.cmd.Process.Pid
	kill := func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		c.timers = append(c.timers, time.AfterFunc(time.Second, c.unblock))
	}
	if !gently {
		kill()
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	c.timers = append(c.timers, time.AfterFunc(c.opts.Grace, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		kill()
	}))
}

// unblock makes a read of the output that may be blocked for ever return: a
// blocking read cannot be interrupted by closing the file, so a newline is
// written into the pipe through a write end opened by its /proc name, and
// ReadLine, seeing abandoned, reports the limit.
func (c *execConn) unblock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return // the descriptor may be another file's by now
	}
	c.abandoned.Store(true)
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(c.outFd), os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	_, _ = f.Write([]byte{'\n'}) // a full pipe needs none: the read is not blocked
	f.Close()
}

func (c *execConn) Send(cmd []byte) error {
	_, err := c.stdin.Write(cmd)
	return err
}

// yieldEvery is how often ReadLine passes through the scheduler. A goroutine
// that only makes blocking system calls never does, and after 10 ms on the
// same scheduling tick the runtime's monitor thread (sysmon) preempts it (a
// signal, or its P taken in the middle of a read) and, having done
// something, goes back to waking every 20 µs. On the 2,600 commands of
// BenchmarkTraceExec that was about 1,500 wake-ups of the monitor, a dozen
// preemptions and the goroutine moving between threads. A Gosched every
// 5 ms lets the monitor back off to 10 ms sleeps (about 150 wake-ups): the
// executor's CPU time went from 49-64 ms to 36-45 ms a run (exec).
const yieldEvery = 5 * time.Millisecond

func (c *execConn) ReadLine() ([]byte, time.Duration, error) {
	c.line = c.line[:0]
	for {
		b, err := c.r.ReadSlice('\n')
		if c.abandoned.Load() {
			err = io.EOF
		}
		if err == nil {
			wall := time.Since(c.start)
			if wall-c.yielded >= yieldEvery {
				c.yielded = wall
				runtime.Gosched()
			}
			if len(c.line) > 0 {
				c.line = append(c.line, b...)
				return c.line, wall, nil
			}
			return b, wall, nil
		}
		if err == bufio.ErrBufferFull {
			c.line = append(c.line, b...)
			continue
		}
		// The end of the output (a last line without newline is
		// dropped, as the official executor drops it).
		c.mu.Lock()
		reason := c.reason
		c.mu.Unlock()
		if reason != "" {
			return nil, time.Since(c.start), &LimitError{Reason: reason}
		}
		return nil, time.Since(c.start), io.EOF
	}
}

func (c *execConn) CPU() time.Duration {
	if c.tree == nil {
		return 0
	}
	return c.tree.cpu()
}

func (c *execConn) Close(wait time.Duration) sandbox.Result {
	c.stdin.Close()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-c.done:
		case <-t.C:
		}
		t.Stop()
	}
	select {
	case <-c.done:
		// Whatever the solver left behind in its group goes too.
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	default:
		c.terminate(sandbox.Killed, false)
		<-c.done
	}
	c.stop()
	if c.tree != nil {
		c.tree.close()
	}
	c.mu.Lock()
	for _, t := range c.timers {
		t.Stop()
	}
	reason := c.reason
	c.closed = true
	c.out.Close()
	c.mu.Unlock()
	res := sandbox.Result{Reason: sandbox.Completed, ExitCode: -1, Backend: "exec", Start: c.start, End: c.end, Wall: c.end.Sub(c.start)}
	if reason != "" {
		res.Reason = reason
	}
	st := c.state
	res.ExitCode = st.ExitCode()
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Signal = sigName(ws.Signal())
	}
	res.User, res.Sys = st.UserTime(), st.SystemTime()
	res.CPU = res.User + res.Sys
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		res.PeakMemoryBytes = ru.Maxrss << 10
	}
	return res
}

// sigName names a signal as the sandbox does (SIGKILL, SIGTERM, ...).
func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGXCPU:
		return "SIGXCPU"
	case syscall.SIGINT:
		return "SIGINT"
	}
	return s.String()
}

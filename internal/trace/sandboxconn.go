package trace

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// stderrWrapper runs the solver with its standard error discarded: the
// sandbox merges it into standard output, and the executor must read only
// what the solver prints on standard output, as the official one does.
var stderrWrapper = []string{"/bin/sh", "-c", `exec "$0" "$@" 2>/dev/null`}

// sandboxConn is a solver run by the sandbox: isolated, under the run's
// limits, measured by the kernel.
type sandboxConn struct {
	cancel context.CancelFunc
	stdin  *os.File // our end of the solver's input
	inR    *os.File // the solver's end, closed when the run is over
	last   stampedLine
	name   string // the solver, for "Cannot execute"
	failed bool   // "Cannot execute" has been given

	mu      sync.Mutex
	pending []stampedLine // lines whose newline has not been written yet
	ready   []stampedLine // complete lines not read yet
	over    bool          // the run is over: no more lines
	wake    chan struct{} // signalled when ready or over changes

	done   chan struct{}
	result sandbox.Result
}

type stampedLine struct {
	text      []byte // with its newline
	wall, cpu time.Duration
}

// StartSandbox runs the solver args under spec (its Args, Stdin, Stdout and
// OnLine are set here; the rest, limits above all, is the caller's). The
// solver's standard error is discarded. Cancelling ctx kills it. The error
// is for runs that cannot be set up; a solver that cannot be started
// behaves as under the official executor, whose child prints "Cannot
// execute: SOLVER" on the output before exiting (Close then says why).
func StartSandbox(ctx context.Context, args []string, spec sandbox.Spec) (Conn, error) {
	if len(args) == 0 {
		return nil, errors.New("trace: no solver command")
	}
	if _, err := exec.LookPath(args[0]); err != nil {
		return newFailedConn(args[0], err.Error()), nil
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &sandboxConn{name: args[0], cancel: cancel, stdin: inW, inR: inR, wake: make(chan struct{}, 1), done: make(chan struct{})}
	spec.Args = append(append([]string(nil), stderrWrapper...), args...)
	spec.Stdin = inR
	spec.Stdout = lineWriter{c}
	spec.OnLine = c.onLine
	go func() {
		res, err := sandbox.Run(ctx, spec)
		if err != nil && res.Error == "" {
			res.Error = err.Error()
		}
		c.result = res
		c.inR.Close()
		c.mu.Lock()
		c.over = true
		c.mu.Unlock()
		c.signal()
		close(c.done)
	}()
	return c, nil
}

func (c *sandboxConn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// onLine is called by the sandbox for each line, before the bytes holding
// its newline are written to Stdout; a last line without newline is passed
// to it too, but never written with a newline, so it stays pending and is
// dropped, as the official executor drops it.
func (c *sandboxConn) onLine(line []byte, wall, cpu time.Duration) {
	text := make([]byte, len(line)+1)
	copy(text, line)
	text[len(line)] = '\n'
	c.mu.Lock()
	c.pending = append(c.pending, stampedLine{text, wall, cpu})
	c.mu.Unlock()
}

// lineWriter makes one pending line ready per newline written.
type lineWriter struct{ c *sandboxConn }

func (w lineWriter) Write(b []byte) (int, error) {
	n := bytes.Count(b, []byte{'\n'})
	if n == 0 {
		return len(b), nil
	}
	c := w.c
	c.mu.Lock()
	n = min(n, len(c.pending))
	c.ready = append(c.ready, c.pending[:n]...)
	c.pending = append(c.pending[:0], c.pending[n:]...)
	c.mu.Unlock()
	c.signal()
	return len(b), nil
}

func (c *sandboxConn) Send(cmd []byte) error {
	_, err := c.stdin.Write(cmd)
	return err
}

func (c *sandboxConn) ReadLine() ([]byte, time.Duration, error) {
	for {
		c.mu.Lock()
		if len(c.ready) > 0 {
			c.last = c.ready[0]
			c.ready[0] = stampedLine{}
			c.ready = c.ready[1:]
			c.mu.Unlock()
			return c.last.text, c.last.wall, nil
		}
		over := c.over
		c.mu.Unlock()
		if over {
			if c.result.Reason == sandbox.Failed && !c.failed {
				c.failed = true
				return []byte("Cannot execute: " + c.name + "\n"), c.result.Wall, nil
			}
			if limitReason(c.result.Reason) {
				return nil, c.result.Wall, &LimitError{Reason: c.result.Reason}
			}
			return nil, c.result.Wall, io.EOF
		}
		<-c.wake
	}
}

func (c *sandboxConn) CPU() time.Duration { return c.last.cpu }

func (c *sandboxConn) Close(wait time.Duration) sandbox.Result {
	c.stdin.Close()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-c.done:
		case <-t.C:
		}
		t.Stop()
	}
	c.cancel()
	<-c.done
	return c.result
}

// failedConn is a solver that could not be started. Like the official
// executor's child after a failed exec, it prints "Cannot execute: NAME" and
// exits.
type failedConn struct {
	line []byte
	err  string
	at   time.Time
}

func newFailedConn(name, err string) *failedConn {
	return &failedConn{line: []byte("Cannot execute: " + name + "\n"), err: err, at: time.Now()}
}

func (c *failedConn) Send([]byte) error { return nil }

func (c *failedConn) ReadLine() ([]byte, time.Duration, error) {
	if l := c.line; l != nil {
		c.line = nil
		return l, 0, nil
	}
	return nil, 0, io.EOF
}

func (c *failedConn) CPU() time.Duration { return 0 }

func (c *failedConn) Close(time.Duration) sandbox.Result {
	return sandbox.Result{Reason: sandbox.Failed, Error: c.err, ExitCode: -1, Start: c.at, End: c.at}
}

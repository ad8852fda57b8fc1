package trace

import (
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// Conn is the executor's connection to a running solver: commands go to its
// standard input, lines come from its standard output (its standard error is
// not read, as by the official executor).
type Conn interface {
	// Send writes one command to the solver. An error (the solver is
	// gone) is not fatal by itself: the executor goes on to read the
	// answer, and finds the end of the output.
	Send(cmd []byte) error
	// ReadLine returns the next complete line of output, with its
	// newline, and the wall time since the solver started at which it was
	// read. At the end of the output it returns an error: io.EOF, or a
	// *LimitError when a limit (or cancellation) ended the solver.
	ReadLine() ([]byte, time.Duration, error)
	// CPU returns the CPU time the solver's process tree has used so far
	// (with the sandbox: as of the last line read), or 0 when the
	// connection does not measure it.
	CPU() time.Duration
	// Close ends the solver: it closes its input and, unless the solver
	// exits by itself within wait, kills it (wait 0 kills at once). It
	// returns how the solver ended.
	Close(wait time.Duration) sandbox.Result
}

// LimitError is the end of a solver's output caused by a limit of the run
// or its cancellation, rather than by the solver.
type LimitError struct {
	Reason sandbox.Reason // sandbox.WallTime, CPUTime, Memory, Output, Pids or Killed
}

func (e *LimitError) Error() string { return "solver stopped: " + string(e.Reason) }

// limitReason tells whether a run's end reason is a limit (or a kill from
// outside) rather than the solver's own doing.
func limitReason(r sandbox.Reason) bool {
	switch r {
	case sandbox.WallTime, sandbox.CPUTime, sandbox.Memory, sandbox.Output, sandbox.Pids, sandbox.Killed:
		return true
	}
	return false
}

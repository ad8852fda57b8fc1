package trace

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// Exit statuses of the executor: the official executor's three, and one
// for runs that a limit ended.
const (
	ExitOK    = 0   // the trace ran to its end (or to (exit))
	ExitBad   = 1   // a protocol error: the executor printed BAD ...
	ExitWrong = 2   // a wrong answer: the executor printed WRONG ...
	ExitLimit = 124 // a limit (or cancellation) ended the solver first
)

// Status is how a trace ended.
type Status string

// The ways a trace ends.
const (
	Done  Status = "done"  // every query the input allows was answered, or (exit) was reached
	Bad   Status = "bad"   // protocol error (Message says which)
	Wrong Status = "wrong" // a wrong sat or unsat answer
	Limit Status = "limit" // the solver was ended by a limit or cancellation (Result.Limit)
)

// Answer is one answered check-sat.
type Answer struct {
	Query    int    // 1, 2, ...
	Answer   string // sat, unsat or unknown
	Expected string
	Wrong    bool
	// Wall is the time from sending the check-sat to reading its answer;
	// CPU is the solver's CPU time in between (0 when the connection does
	// not measure it).
	Wall, CPU time.Duration
	// WallAt and CPUAt are the wall and CPU time since the solver started
	// when the answer came.
	WallAt, CPUAt time.Duration
}

// Result is what a trace execution did.
type Result struct {
	Status   Status
	Message  string         // the BAD or WRONG line printed, without its newline
	Limit    sandbox.Reason // which limit ended the solver (Status Limit)
	Answers  []Answer
	Queries  int // check-sat commands the input asks to run (before the first unknown, unless ContinueAfterUnknown)
	Commands int // commands sent, set-option and (exit) included
	Solver   sandbox.Result
}

// ExitCode is the executor's exit status for the result.
func (r *Result) ExitCode() int {
	switch r.Status {
	case Bad:
		return ExitBad
	case Wrong:
		return ExitWrong
	case Limit:
		return ExitLimit
	}
	return ExitOK
}

// Options control an execution.
type Options struct {
	// ContinueAfterUnknown runs the check-sat commands after the first
	// expected unknown too (any answer is right there), as the official
	// --continue-after-unknown.
	ContinueAfterUnknown bool
	// Out receives what the official executor prints on its standard
	// output: one line per answer, and the final BAD or WRONG line.
	Out io.Writer
	// ExitWait is how long the solver may take to exit after the final
	// (exit) before it is killed (default 1 s). The official executor
	// waits for ever.
	ExitWait time.Duration
	// OnAnswer, if set, is called for every answer (a wrong one too).
	OnAnswer func(Answer)
}

const printSuccess = "(set-option :print-success true)\n"

// Run executes the input's script on the solver behind conn as the official
// trace executor (SMT-COMP's smtlib2_trace_executor) does, and ends the
// solver: with (exit) after the last query, killed after an error. What it
// prints on opts.Out is byte for byte what the official one prints.
func Run(conn Conn, in *Input, opts Options) *Result {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.ExitWait == 0 {
		opts.ExitWait = time.Second
	}
	e := &executor{conn: conn, in: in, opts: opts, res: &Result{Status: Done}}
	if e.run() {
		e.send([]byte("(exit)\n"))
		e.res.Solver = conn.Close(opts.ExitWait)
	} else {
		e.res.Solver = conn.Close(0)
	}
	return e.res
}

type executor struct {
	conn Conn
	in   *Input
	opts Options
	res  *Result
	// lastWall is the wall time stamp of the last response read.
	lastWall time.Duration
}

// run talks to the solver; it returns false when the trace ended in error.
func (e *executor) run() bool {
	e.send([]byte(printSuccess))
	line, ok := e.response("BAD response to set-option command: unexpected EOF")
	if !ok {
		return false
	}
	if string(trimSpace(line)) != "success" {
		return e.bad("BAD response to set-option command: '%s'", line)
	}
	if e.in.Bad != "" {
		return e.bad("%s", e.in.Bad)
	}
	exp := e.in.Expected
	max := len(exp)
	if !e.opts.ContinueAfterUnknown {
		for i, a := range exp {
			if a == "unknown" {
				max = i
				break
			}
		}
	}
	e.res.Queries = max
	sp := NewSplitter(e.in.Script())
	buf := make([]byte, 0, 4096)
	for q := 0; q < max; {
		cmd, err := sp.Next()
		if err != nil {
			return e.bad("%s", "BAD benchmark: unexpected EOF")
		}
		// The official executor stops at an (exit) of the script, which
		// a solver need not answer, and sends its own.
		if string(trimSpace(cmd.Text)) == "(exit)" {
			break
		}
		buf = append(append(buf[:0], cmd.Text...), '\n')
		var cpu0 time.Duration
		var sent time.Time
		if cmd.CheckSat {
			cpu0, sent = e.conn.CPU(), time.Now()
		}
		e.send(buf)
		line, ok := e.response("BAD response: unexpected EOF")
		if !ok {
			return false
		}
		if !cmd.CheckSat {
			if string(trimSpace(line)) != "success" {
				return e.bad("BAD response to status command: '%s'", line)
			}
			continue
		}
		got := string(trimSpace(line))
		if !isAnswer(got, true) {
			return e.bad("BAD response to check command: '%s'", line)
		}
		a := Answer{Query: q + 1, Answer: got, Expected: exp[q], Wall: time.Since(sent), WallAt: e.lastWall}
		a.CPUAt = e.conn.CPU()
		if cpu0 > 0 || a.CPUAt > 0 {
			a.CPU = a.CPUAt - cpu0
		}
		a.Wrong = got != "unknown" && a.Expected != "unknown" && got != a.Expected
		e.res.Answers = append(e.res.Answers, a)
		if e.opts.OnAnswer != nil {
			e.opts.OnAnswer(a)
		}
		if a.Wrong {
			e.res.Status = Wrong
			e.res.Message = fmt.Sprintf("WRONG solver response: got %s, expected %s", got, a.Expected)
			fmt.Fprintf(e.opts.Out, "%s\n", e.res.Message)
			return false
		}
		q++
		_, _ = io.WriteString(e.opts.Out, got+"\n")
	}
	return true
}

func (e *executor) send(cmd []byte) {
	e.res.Commands++
	// A failed write means the solver is gone: reading its answer finds
	// the end of its output, and says so.
	_ = e.conn.Send(cmd)
}

// response reads the next line of the solver that is not blank. At the end
// of the output it prints eofMsg (or, when a limit ended the solver,
// nothing) and returns false.
func (e *executor) response(eofMsg string) ([]byte, bool) {
	for {
		line, wall, err := e.conn.ReadLine()
		if err != nil {
			var lim *LimitError
			if errors.As(err, &lim) {
				e.res.Status, e.res.Limit = Limit, lim.Reason
				return nil, false
			}
			e.bad("%s", eofMsg)
			return nil, false
		}
		line = cutNUL(line)
		if len(trimSpace(line)) > 0 {
			e.lastWall = wall
			return line, true
		}
	}
}

// bad ends the trace with a protocol error, printed as the official
// executor prints it.
func (e *executor) bad(format string, arg any) bool {
	e.res.Status = Bad
	e.res.Message = fmt.Sprintf(format, arg)
	fmt.Fprintf(e.opts.Out, "%s\n", e.res.Message)
	return false
}

// cutNUL ends a line at its first NUL byte, as the C strings of the official
// executor end there.
func cutNUL(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

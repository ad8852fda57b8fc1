package proof

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/track"
)

// Pair is one pair of the track: the solver, then the checker.
type Pair struct {
	// Solver is the solver's argv, the benchmark included.
	Solver []string
	// Checker returns the checker's argv for the file holding the
	// solver's output (the benchmark included).
	Checker func(output string) []string
	// Limits bound the pair as a whole: the checker gets what the solver
	// left of the CPU and wall-clock time (2022 §5.8: "This time limit
	// includes the time for proof checking"); memory and processes bound
	// each; the output limit is the solver's.
	Limits sandbox.Limits
	// Output is where the solver's output is written; it is then kept
	// there or compressed into Output.gz (see Keep).
	Output        string
	CompressAbove int64
}

// Result is what a pair did.
type Result struct {
	Solver sandbox.Result
	// Checker is nil when the checker did not run: the solver could not
	// start or ended at a limit, or left no time.
	Checker *sandbox.Result
	// CheckerOutput is the head of the checker's output.
	CheckerOutput []byte
	Check         Check
	Kept          Kept
	// Answer is the solver's first output line (its check-sat answer).
	Answer string
	// Status is how the pair ended: complete, timeout, memout, abort (a
	// limit on output or processes, or a checker without a verdict),
	// error (could not start).
	Status string
	// Limit is the status of the limit the pair ended at, "" if none.
	Limit     string
	CPU, Wall time.Duration // solver and checker together
	PeakBytes int64         // the larger of the two
}

// firstLine returns the first non-blank line of a file, trimmed (at most
// its first 4 KiB).
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// checkerOutputLimit bounds what is read of a checker: a verdict and
// statistics, not a proof.
const checkerOutputLimit = 1 << 20

// quiet wraps an argv so that its standard error is dropped: only standard
// output is the solver's (or checker's) answer (2022 §5.8: "Output to
// stderr is ignored by the toolchain"), and the sandbox merges the two.
func quiet(argv []string) []string {
	return append([]string{"/bin/sh", "-c", `exec "$@" 2>/dev/null`, "sh"}, argv...)
}

// Run runs the solver with its output into p.Output, then, if it ended by
// itself with time left, the checker on the benchmark and that output
// under what is left of the limits; it keeps the output and reads the
// checker's answer. The error is for pairs that could not be set up.
func Run(ctx context.Context, p Pair) (Result, error) {
	var res Result
	if err := os.MkdirAll(filepath.Dir(p.Output), 0o755); err != nil {
		return res, err
	}
	// A pair run again (its first run was interrupted) starts afresh.
	if err := os.Remove(p.Output + ".gz"); err != nil && !os.IsNotExist(err) {
		return res, err
	}
	f, err := os.Create(p.Output)
	if err != nil {
		return res, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	sr, err := sandbox.Run(ctx, sandbox.Spec{Args: quiet(p.Solver), Limits: p.Limits, Stdout: w})
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil && sr.Reason != sandbox.Failed {
		return res, fmt.Errorf("solver: %w", err)
	}
	res.Solver, res.CPU, res.Wall, res.PeakBytes = sr, sr.CPU, sr.Wall, sr.PeakMemoryBytes
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	res.Status = track.StatusOf(sr.Reason)
	left := p.Limits
	left.OutputBytes = checkerOutputLimit
	if left.CPU > 0 {
		left.CPU -= sr.CPU
	}
	if left.Wall > 0 {
		left.Wall -= sr.Wall
	}
	switch {
	case sr.Reason != sandbox.Completed:
		if sr.Reason != sandbox.Failed {
			res.Limit = res.Status
		}
	case (p.Limits.CPU > 0 && left.CPU <= 0) || (p.Limits.Wall > 0 && left.Wall <= 0):
		res.Status, res.Limit = "timeout", "timeout"
	default:
		var out bytes.Buffer
		cr, err := sandbox.Run(ctx, sandbox.Spec{Args: quiet(p.Checker(p.Output)), Limits: left, Stdout: &out})
		if err != nil && cr.Reason != sandbox.Failed {
			return res, fmt.Errorf("checker: %w", err)
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Checker, res.CheckerOutput = &cr, out.Bytes()
		res.CPU += cr.CPU
		res.Wall += cr.Wall
		res.PeakBytes = max(res.PeakBytes, cr.PeakMemoryBytes)
		res.Check = ReadChecker(out.Bytes())
		res.Status = track.StatusOf(cr.Reason)
		// The checker ran out of what the solver left, or of the output
		// limit, before it gave a verdict: a limit of the pair.
		if cr.Reason != sandbox.Completed && cr.Reason != sandbox.Failed && res.Check.Verdict == "" {
			res.Limit = res.Status
		}
		if res.Status == "complete" && res.Check.Verdict == "" {
			res.Status = "abort"
		}
	}
	res.Answer = firstLine(p.Output)
	above := p.CompressAbove
	if above <= 0 {
		above = CompressAbove
	}
	if res.Kept, err = Keep(p.Output, above); err != nil {
		return res, fmt.Errorf("keep the proof: %w", err)
	}
	return res, nil
}

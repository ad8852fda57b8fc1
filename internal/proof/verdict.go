package proof

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// The checker's verdicts (2022 §5.8).
const (
	Valid   = "valid"   // the proof justifies the benchmark's unsatisfiability
	Invalid = "invalid" // the proof is erroneous or malformed
	Holey   = "holey"   // valid, but with steps that were not checked
	Sat     = "sat"     // the solver said sat
	Unknown = "unknown" // the solver said unknown, gave no proof, or an error
)

// Stat is one key=value line of the checker's output.
type Stat struct{ Key, Value string }

// Check is what a checker said.
type Check struct {
	// Verdict is the checker's first line when it is one of the five
	// verdicts; Line is that line as printed (also when it is not one,
	// and "" when the checker printed nothing but blank lines and
	// comments).
	Verdict, Line string
	// Stats are the key=value lines after the first, in order.
	Stats []Stat
}

// statLine is the official post-processor's pattern for a key=value line
// (SMT-COMP/postprocessors proof-track/process).
var statLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-A-Za-z0-9_]+=[-A-Za-z0-9_.]*$`) })

// ReadChecker reads a checker's output as the official post-processor
// does: blank lines and lines that are only a comment (;...) are skipped,
// the first other line, trimmed, is the verdict, and the key=value lines
// after it are the statistics (other lines are ignored).
func ReadChecker(out []byte) Check {
	var c Check
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first {
			if line == "" || strings.HasPrefix(line, ";") {
				continue
			}
			first = false
			c.Line = line
			switch line {
			case Valid, Invalid, Holey, Sat, Unknown:
				c.Verdict = line
			}
			continue
		}
		if statLine().MatchString(line) {
			k, v, _ := strings.Cut(line, "=")
			c.Stats = append(c.Stats, Stat{k, v})
		}
	}
	return c
}

// Outcome is how a pair of the track is judged.
type Outcome struct {
	// Answer is what the official post-processor reports as the pair's
	// result: unsat for valid and holey, sat for sat, unknown otherwise.
	Answer string
	// Reason is the official post-processor's reason: valid, holey,
	// invalid, unknown, error (the checker's first line is not a
	// verdict), or the limit the pair ended at before the checker
	// answered (timeout, memout, ...); "" for sat.
	Reason string
	// Erroneous: the checker said sat (the benchmark is unsatisfiable) or
	// invalid (2022 §5.8 "Result").
	Erroneous bool
	// Unsound: on a satisfiable benchmark of the soundness probe, the
	// checker said valid (2022 §5.8: "A checker that returns valid to a
	// satisfiable benchmark is deemed to be unsound").
	Unsound bool
}

// Judge judges a pair from the checker's answer. limit is how the pair
// ended when it did not end by itself (timeout, memout, ...: of the
// solver, or of the checker), "" otherwise; probe says the benchmark is satisfiable (the checker
// soundness probe), where sat is the right answer and valid the unsound
// one.
func Judge(c Check, limit string, probe bool) Outcome {
	var o Outcome
	switch {
	case c.Verdict == Valid || c.Verdict == Holey:
		o.Answer, o.Reason = "unsat", c.Verdict
	case c.Verdict == Sat:
		o.Answer = "sat"
	case c.Verdict == Invalid || c.Verdict == Unknown:
		o.Answer, o.Reason = "unknown", c.Verdict
	case limit != "":
		o.Answer, o.Reason = "unknown", limit
	default:
		o.Answer, o.Reason = "unknown", "error"
	}
	if probe {
		o.Unsound = c.Verdict == Valid
		return o
	}
	o.Erroneous = c.Verdict == Sat || c.Verdict == Invalid
	return o
}

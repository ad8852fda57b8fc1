package lint

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/smtlib"
)

// Options say which rules a benchmark is checked against.
type Options struct {
	Track benchmark.Track
	// Rules is the year of the rules: 2014, 2018 or 2022.
	Rules int
	// Scrambled checks the file as the solver receives it, after the
	// scrambler has removed set-info and added the set-option and get-*
	// commands of the track. Without it the file is checked as a library
	// benchmark, before scrambling: set-info may appear anywhere, and the
	// commands the scrambler adds are optional but must be in place if
	// present.
	Scrambled bool
}

// Years lists the rules years lint knows.
var Years = []int{2014, 2018, 2022}

// Validate reports options that name no rules: an unknown year, or a track
// that year did not have.
func (o Options) Validate() error {
	if !slices.Contains(Years, o.Rules) {
		return fmt.Errorf("unknown rules year %d (want 2014, 2018 or 2022)", o.Rules)
	}
	if !slices.Contains(benchmark.TracksOf(o.Rules), o.Track) {
		return fmt.Errorf("the %d rules have no %s track", o.Rules, o.Track)
	}
	if o.Scrambled && o.Rules == 2014 {
		return errors.New("--scrambled is not supported for the 2014 rules, whose scrambler output is not specified")
	}
	return nil
}

// Severity tells errors from notes.
type Severity uint8

// An Error is a violation of the rules; a NotChecked note names a rule lint
// could not check for this file.
const (
	Error Severity = iota
	NotChecked
)

// Finding is one error or note, with the rule it concerns.
type Finding struct {
	Pos      smtlib.Position
	Severity Severity
	// Kind names the rule, for summaries: "set-option", "set-logic",
	// "command", "check-sat", "push-pop", "exit", "named", "get",
	// "arity", "status", "syntax", "sort", "logic", "uf", "array",
	// "linear", "difference-logic".
	Kind string
	Msg  string
}

func (f Finding) String() string {
	if f.Severity == NotChecked {
		return fmt.Sprintf("%s: not checked: %s", f.Pos, f.Msg)
	}
	return fmt.Sprintf("%s: %s", f.Pos, f.Msg)
}

// Result is what lint found in one file.
type Result struct {
	File     string
	Findings []Finding
}

// Errors counts the findings that are violations.
func (r Result) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// File lints the benchmark at path. The error is for files it cannot read;
// what is wrong inside a file is in the Result.
func File(path string, opts Options) (Result, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Result{File: path}, err
	}
	return Source(path, src, opts), nil
}

// Source lints a benchmark held in memory.
func Source(name string, src []byte, opts Options) Result {
	res := Result{File: name}
	s, err := smtlib.Parse(name, src, smtlib.AllErrors)
	var el smtlib.ErrorList
	if errors.As(err, &el) {
		for _, e := range el {
			res.Findings = append(res.Findings, Finding{Pos: e.Pos, Kind: "syntax", Msg: e.Msg})
		}
		// The commands of a script that does not parse are not what the
		// solver would see: stop at the syntax errors.
		return res
	}
	res.Findings = Script(s, opts)
	return res
}

// Script lints a parsed script. Findings are sorted by position.
func Script(s *smtlib.Script, opts Options) []Finding {
	l := &linter{s: s, opts: opts}
	c, err := smtlib.Check(s, smtlib.AllErrors)
	l.checked = c
	var el smtlib.ErrorList
	if errors.As(err, &el) {
		for _, e := range el {
			l.findings = append(l.findings, Finding{Pos: e.Pos, Kind: sortKind(e.Msg), Msg: e.Msg})
		}
	}
	l.commands()
	l.logic()
	slices.SortStableFunc(l.findings, func(a, b Finding) int {
		if a.Pos.Offset != b.Pos.Offset {
			return a.Pos.Offset - b.Pos.Offset
		}
		return int(a.Severity) - int(b.Severity)
	})
	return l.findings
}

// sortKind classifies the sort checker's messages: those about the logic's
// theories are logic membership, the rest are sort errors.
func sortKind(msg string) string {
	for _, w := range []string{"is not in logic", "which has no", "quantifier-free", "are not in logic", "needs datatypes"} {
		if strings.Contains(msg, w) {
			return "logic"
		}
	}
	return "sort"
}

type linter struct {
	s        *smtlib.Script
	opts     Options
	checked  *smtlib.Checked
	findings []Finding
}

func (l *linter) at(p smtlib.Pos) smtlib.Position { return l.s.Position(p) }

func (l *linter) errorf(p smtlib.Pos, kind, format string, args ...any) {
	l.findings = append(l.findings, Finding{Pos: l.at(p), Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

func (l *linter) notChecked(p smtlib.Pos, kind, format string, args ...any) {
	l.findings = append(l.findings, Finding{Pos: l.at(p), Severity: NotChecked, Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

// rule names the section of the rules a finding comes from.
func (l *linter) rule() string {
	if l.opts.Rules == 2014 {
		return "2014 rules §4.1"
	}
	return fmt.Sprintf("%d rules §5.1", l.opts.Rules)
}

func (l *linter) incremental() bool { return l.opts.Track == benchmark.Incremental }

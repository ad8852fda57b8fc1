package scramble

import "fmt"

// Position is a place in the input: byte offset, and line and column (both
// from 1, the column in bytes).
type Position struct {
	Offset int64
	Line   int
	Column int
}

// SyntaxError reports input that is not SMT-LIB the scrambler can read: a
// lexical or grammatical error. The CLI exits with status 2 on it.
type SyntaxError struct {
	File string
	Pos  Position
	Msg  string
}

func (e *SyntaxError) Error() string { return where(e.File, e.Pos) + e.Msg }

// RejectError reports well-formed input that the official scrambler refuses
// (a set-option other than those the competition uses, a declare-sort with
// non-zero arity, ...). The official tool exits with status 1 on it, and so
// does the CLI.
type RejectError struct {
	File string
	Pos  Position
	Msg  string
}

func (e *RejectError) Error() string { return where(e.File, e.Pos) + e.Msg }

func where(file string, p Position) string {
	if file == "" {
		file = "<stdin>"
	}
	if p.Line == 0 {
		return file + ": "
	}
	return fmt.Sprintf("%s:%d:%d: ", file, p.Line, p.Column)
}

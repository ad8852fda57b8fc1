package smtlib

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Pos is a byte offset into a source file plus one; NoPos (0) means unknown.
// It is four bytes so that every term can carry one.
type Pos uint32

// NoPos is the zero Pos: no position is known.
const NoPos Pos = 0

// IsValid reports whether p refers to a place in a file.
func (p Pos) IsValid() bool { return p != NoPos }

// Offset returns the byte offset that p stands for.
func (p Pos) Offset() int { return int(p) - 1 }

// maxFileSize is the largest input a Pos can address.
const maxFileSize = 1<<32 - 2

// File maps the positions of one source file to lines and columns.
type File struct {
	Name  string
	Size  int
	lines []uint32 // byte offsets at which lines start; lines[0] == 0

	// base is where the text begins when it is one piece of a longer stream,
	// such as one solver response; positions are reported in the stream.
	base Position
}

// NewFile builds the line table of src.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Size: len(src)}
	n := bytes.Count(src, []byte{'\n'})
	f.lines = make([]uint32, 1, n+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		f.lines = append(f.lines, uint32(off))
	}
	return f
}

// Position is a position expanded for people: file, line and column (both
// counted from 1, the column in bytes).
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// IsValid reports whether the position is known.
func (p Position) IsValid() bool { return p.Line > 0 }

// String renders file:line:col, or the parts of it that are known.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Position expands p. A nil File gives offsets only.
func (f *File) Position(p Pos) Position {
	if f == nil {
		return Position{Offset: p.Offset()}
	}
	if !p.IsValid() {
		return Position{Filename: f.Name}
	}
	off := p.Offset()
	i := sort.Search(len(f.lines), func(i int) bool { return int(f.lines[i]) > off }) - 1
	if i < 0 {
		i = 0
	}
	pos := Position{Filename: f.Name, Offset: off, Line: i + 1, Column: off - int(f.lines[i]) + 1}
	if f.base.IsValid() {
		if i == 0 {
			pos.Column += f.base.Column - 1
		}
		pos.Offset += f.base.Offset
		pos.Line += f.base.Line - 1
	}
	return pos
}

// Error is one diagnostic at a position.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of diagnostics, sorted by position by Sort. As an error
// it prints the first entries, one per line.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Sort orders the list by file, line and column; it keeps the order of
// errors at the same position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

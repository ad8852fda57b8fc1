package model

import (
	"bytes"
	"errors"
	"io"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// chunkSize is how many bytes of whole commands are parsed at a time.
const chunkSize = 2 << 20

// chunk is a run of whole commands of the benchmark, parsed.
type chunk struct {
	s         *smtlib.Script
	name      string
	base      int // byte offset of the chunk in the file
	line, col int // line and column where the chunk starts (from 1)
}

// position expands a position of the chunk's script to one in the file.
func (c *chunk) position(p smtlib.Pos) smtlib.Position {
	lp := c.s.Position(p)
	out := smtlib.Position{Filename: c.name, Offset: c.base + lp.Offset, Line: c.line + lp.Line - 1, Column: lp.Column}
	if lp.Line == 1 {
		out.Column = c.col + lp.Column - 1
	}
	return out
}

// splitter cuts a stream into runs of whole top-level commands, keeping
// the lexer's state (strings, quoted symbols, comments, depth) across
// reads, so that a command of any length is scanned once.
type splitter struct {
	r       io.Reader
	buf     []byte
	scanned int // bytes of buf already scanned
	cut     int // end of the last whole command in buf
	depth   int
	state   byte // 0, '"' in a string, '|' in a quoted symbol, ';' in a comment
	eof     bool
	size    int  // the input's size where known, else -1
	whole   bool // buf was made for all of the input (size is known)
	base    int
	line    int
	col     int
}

func newSplitter(r io.Reader) *splitter {
	return &splitter{r: r, line: 1, col: 1, size: smtlib.InputSize(r)}
}

// candidate returns, without consuming them, the bytes up to a probable
// end of a command: the last line that starts with '(' in the next
// chunkSize bytes, or everything left at the end of the input. A guess
// that is not the end of a command leaves an unbalanced or unterminated
// first part, which does not parse: the caller then takes next, which
// scans. The guess spares scanning every byte twice (here and in the
// parser).
func (sp *splitter) candidate() ([]byte, error) {
	for len(sp.buf) < chunkSize && !sp.eof {
		if err := sp.fill(); err != nil {
			return nil, err
		}
	}
	if sp.eof {
		if len(bytes.TrimSpace(sp.buf)) == 0 {
			return nil, io.EOF
		}
		return sp.buf, nil
	}
	i := bytes.LastIndex(sp.buf, []byte("\n("))
	if i < 0 {
		return nil, nil
	}
	return sp.buf[:i+1], nil
}

// consume takes the first n bytes of the buffer (a candidate that parsed)
// and returns where they start.
func (sp *splitter) consume(n int) (base, line, col int) {
	sp.cut = n
	sp.scanned = n
	_, base, line, col, _ = sp.take()
	sp.depth, sp.state, sp.scanned = 0, 0, 0
	return base, line, col
}

// next returns the next run of commands, its offset, line and column; at
// the end it returns io.EOF.
func (sp *splitter) next() (data []byte, base, line, col int, err error) {
	for {
		sp.scan()
		if sp.cut > 0 && (len(sp.buf) >= chunkSize || sp.eof) {
			break
		}
		if sp.eof {
			if len(bytes.TrimSpace(sp.buf)) == 0 {
				return nil, 0, 0, 0, io.EOF
			}
			// An unfinished command: the parser reports it.
			sp.cut = len(sp.buf)
			break
		}
		if err := sp.fill(); err != nil {
			return nil, 0, 0, 0, err
		}
	}
	return sp.take()
}

// take returns the first sp.cut bytes and advances past them.
func (sp *splitter) take() (data []byte, base, line, col int, err error) {
	data = sp.buf[:sp.cut:sp.cut]
	base, line, col = sp.base, sp.line, sp.col
	nl := bytes.Count(data, []byte{'\n'})
	if nl > 0 {
		sp.line += nl
		sp.col = len(data) - bytes.LastIndexByte(data, '\n')
	} else {
		sp.col += len(data)
	}
	sp.base += sp.cut
	rest := sp.buf[sp.cut:]
	if sp.eof {
		// Nothing more is read into the buffer: the rest stays where it is.
		sp.buf = rest
	} else {
		sp.buf = append(make([]byte, 0, max(chunkSize+chunkSize/4, len(rest)+64<<10)), rest...)
	}
	sp.scanned -= sp.cut
	sp.cut = 0
	return data, base, line, col, nil
}

// fill reads more of the input. The buffer grows by doubling from 64 KiB,
// so that a small benchmark (most are a few KB) costs a small buffer: a
// validation is often a whole process of a few milliseconds.
func (sp *splitter) fill() error {
	if room := cap(sp.buf) - len(sp.buf); room == 0 || (room < 64<<10 && !sp.whole) {
		n := max(2*cap(sp.buf), 128<<10)
		sp.whole = false
		if cap(sp.buf) == 0 && sp.size >= 0 && sp.size < chunkSize {
			// All of it, and room to see the end (or that it grew).
			n = sp.size + 1<<10
			sp.whole = true
		}
		nb := make([]byte, len(sp.buf), n)
		copy(nb, sp.buf)
		sp.buf = nb
	}
	n, err := sp.r.Read(sp.buf[len(sp.buf):cap(sp.buf)])
	sp.buf = sp.buf[:len(sp.buf)+n]
	if errors.Is(err, io.EOF) {
		sp.eof = true
		return nil
	}
	return err
}

// scan advances over buf, noting where commands end.
func (sp *splitter) scan() {
	b := sp.buf
	i := sp.scanned
	for i < len(b) {
		if sp.state == 0 {
			// Skip what cannot change the state: most of the input.
			for i < len(b) && !special[b[i]] {
				i++
			}
			if i == len(b) {
				break
			}
		}
		c := b[i]
		switch sp.state {
		case '"':
			if c == '"' {
				if i+1 >= len(b) && !sp.eof {
					sp.scanned = i
					return
				}
				if i+1 < len(b) && b[i+1] == '"' {
					i += 2
					continue
				}
				sp.state = 0
			}
		case '|':
			if c == '|' {
				sp.state = 0
			}
		case ';':
			if c == '\n' || c == '\r' {
				sp.state = 0
			}
		default:
			switch c {
			case '"', '|', ';':
				sp.state = c
			case '(':
				sp.depth++
			case ')':
				sp.depth--
				if sp.depth <= 0 {
					sp.depth = 0
					sp.cut = i + 1
				}
			}
		}
		i++
	}
	sp.scanned = i
}

// special marks the bytes that change the splitter's state outside strings,
// quoted symbols and comments.
var special = [256]bool{'(': true, ')': true, '"': true, '|': true, ';': true}

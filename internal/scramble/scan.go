package scramble

import (
	"errors"
	"fmt"
	"io"
)

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tLParen
	tRParen
	tNumeral
	tDecimal
	tHex
	tBinary
	tString
	tSymbol  // simple symbol, possibly a reserved word
	tQSymbol // |...|; the text keeps the bars
	tKeyword // :name; the text keeps the colon
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tLParen:
		return "'('"
	case tRParen:
		return "')'"
	case tNumeral:
		return "numeral"
	case tDecimal:
		return "decimal"
	case tHex:
		return "hexadecimal"
	case tBinary:
		return "binary"
	case tString:
		return "string"
	case tSymbol, tQSymbol:
		return "symbol"
	case tKeyword:
		return "keyword"
	}
	return "token"
}

// Character classes of the SMT-LIB 2.6 lexicon.
const (
	cSymStart = 1 << iota
	cSymRest
	cDigit
	cSpace
	cHex
)

var class = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cSymStart | cSymRest
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= cSymStart | cSymRest
	}
	for _, c := range "~!@$%^&*_-+=<>.?/" {
		t[c] |= cSymStart | cSymRest
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cSymRest | cDigit | cHex
	}
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHex
	}
	for _, c := range " \t\r\n\f\v" {
		t[c] |= cSpace
	}
	return
}()

// scanner splits a stream into tokens. It reads through a window that it
// refills and compacts, so memory does not grow with the input; a token's
// text is valid until the next call of next.
type scanner struct {
	r    io.Reader
	buf  []byte
	i    int   // next unread byte of buf
	base int64 // input offset of buf[0]
	eof  bool
	rerr error

	line      int   // line of buf[i], from 1
	lineStart int64 // input offset at which that line starts

	// the current token
	kind   tokKind
	ts, te int // the token is buf[ts:te]
	// where a string or quoted symbol starts (they may span lines)
	tokOff    int64
	tokLine   int
	tokLineAt int64
}

// tok returns the text of the current token; it is valid until the next
// call of next.
func (s *scanner) tok() []byte { return s.buf[s.ts:s.te] }

// position returns where the current token starts.
func (s *scanner) position() Position {
	if s.kind == tString || s.kind == tQSymbol {
		return Position{Offset: s.tokOff, Line: s.tokLine, Column: int(s.tokOff-s.tokLineAt) + 1}
	}
	off := s.base + int64(s.ts)
	return Position{Offset: off, Line: s.line, Column: int(off-s.lineStart) + 1}
}

const scanWindow = 256 << 10

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 0, scanWindow), line: 1}
}

// more makes bytes beyond the end of buf available, keeping buf[keep:]. It
// returns how far the kept bytes moved towards the front (subtract it from
// any index into buf), and whether new bytes arrived.
func (s *scanner) more(keep int) (shift int, ok bool) {
	if s.eof {
		return 0, false
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.base += int64(keep)
		s.i -= keep
		shift = keep
	}
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	for {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.rerr = err
			}
			return shift, n > 0
		}
		if n > 0 {
			return shift, true
		}
	}
}

// posAt returns the position of buf[j], which must be on the current line.
func (s *scanner) posAt(j int) Position {
	off := s.base + int64(j)
	return Position{Offset: off, Line: s.line, Column: int(off-s.lineStart) + 1}
}

// skipSpace skips white space and comments, counting lines.
func (s *scanner) skipSpace() {
	comment := false
	for {
		buf, j := s.buf, s.i
		for j < len(buf) {
			c := buf[j]
			if c == '\n' {
				s.line++
				s.lineStart = s.base + int64(j) + 1
				comment = false
				j++
				continue
			}
			if comment || class[c]&cSpace != 0 {
				j++
				continue
			}
			if c == ';' {
				comment = true
				j++
				continue
			}
			s.i = j
			return
		}
		s.i = j
		if _, ok := s.more(j); !ok {
			return
		}
	}
}

// scanErr is a lexical error.
type scanErr struct {
	pos Position
	msg string
}

func (s *scanner) errorf(p Position, format string, args ...any) *scanErr {
	return &scanErr{pos: p, msg: fmt.Sprintf(format, args...)}
}

// lookahead is how many bytes the fast path of next wants in the window;
// tokens and white space that run past it take the slow path.
const lookahead = 4096

// next reads the next token into s.kind and s.text. Its fast path handles
// parentheses, simple symbols and numerals inside the window; everything else
// goes to nextSlow.
func (s *scanner) next() *scanErr {
	buf, i := s.buf, s.i
	if len(buf)-i < lookahead && !s.eof {
		for len(s.buf)-s.i < lookahead && !s.eof {
			s.more(s.i)
		}
		buf, i = s.buf, s.i
	}
	for i < len(buf) {
		switch cat[buf[i]] {
		case catSpace:
			i++
			continue
		case catNewline:
			s.line++
			s.lineStart = s.base + int64(i) + 1
			i++
			continue
		case catOpen:
			s.kind, s.ts, s.te, s.i = tLParen, i, i+1, i+1
			return nil
		case catClose:
			s.kind, s.ts, s.te, s.i = tRParen, i, i+1, i+1
			return nil
		case catSymbol:
			j := i + 1
			for j < len(buf) && class[buf[j]]&cSymRest != 0 {
				j++
			}
			if j == len(buf) {
				break
			}
			s.kind, s.ts, s.te, s.i = tSymbol, i, j, j
			return nil
		case catDigit:
			j := i + 1
			for j < len(buf) && class[buf[j]]&cDigit != 0 {
				j++
			}
			if j == len(buf) || class[buf[j]]&cSymRest != 0 || buf[j] == '.' {
				break
			}
			s.kind, s.ts, s.te, s.i = tNumeral, i, j, j
			return nil
		}
		break
	}
	s.i = i
	return s.nextSlow()
}

// Categories of the first byte of a token, for the fast path of next.
const (
	catOther = iota
	catSpace
	catNewline
	catOpen
	catClose
	catSymbol
	catDigit
)

var cat = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '\n':
			t[c] = catNewline
		case class[c]&cSpace != 0:
			t[c] = catSpace
		case c == '(':
			t[c] = catOpen
		case c == ')':
			t[c] = catClose
		case class[c]&cSymStart != 0:
			t[c] = catSymbol
		case class[c]&cDigit != 0:
			t[c] = catDigit
		}
	}
	return
}()

// nextSlow reads the next token, refilling the window as needed.
func (s *scanner) nextSlow() *scanErr {
	s.skipSpace()
	if s.rerr != nil {
		return s.errorf(s.posAt(s.i), "read error: %v", s.rerr)
	}
	st := s.i
	s.tokOff, s.tokLine, s.tokLineAt = s.base+int64(st), s.line, s.lineStart
	s.kind, s.ts, s.te = tEOF, st, st
	if st >= len(s.buf) {
		s.kind, s.ts, s.te = tEOF, st, st
		return nil
	}
	c := s.buf[st]
	switch {
	case c == '(':
		s.i++
		s.kind, s.ts, s.te = tLParen, st, st+1
		return nil
	case c == ')':
		s.i++
		s.kind, s.ts, s.te = tRParen, st, st+1
		return nil
	case class[c]&cSymStart != 0:
		st, j := s.run(st, st+1, cSymRest)
		s.kind, s.ts, s.te, s.i = tSymbol, st, j, j
		return nil
	case class[c]&cDigit != 0:
		return s.number(st)
	case c == ':':
		st, j := s.run(st, st+1, cSymRest)
		s.kind, s.ts, s.te, s.i = tKeyword, st, j, j
		if j == st+1 {
			return s.errorf(s.position(), "keyword without a name after ':'")
		}
		return nil
	case c == '|':
		return s.quoted(st, '|', tQSymbol)
	case c == '"':
		return s.quoted(st, '"', tString)
	case c == '#':
		return s.radix(st)
	}
	s.i = st + 1
	return s.errorf(s.position(), "unexpected character %q", rune(c))
}

// run extends a token from buf[j] over bytes of class cl, refilling the
// window as needed, and returns the (possibly moved) start and end.
func (s *scanner) run(st, j int, cl uint8) (int, int) {
	for {
		buf := s.buf
		for j < len(buf) && class[buf[j]]&cl != 0 {
			j++
		}
		if j < len(buf) {
			return st, j
		}
		s.i = j
		shift, ok := s.more(st)
		st, j = st-shift, j-shift
		if !ok {
			return st, j
		}
	}
}

// quoted scans |...| or "..." ("" inside a string is a quote).
func (s *scanner) quoted(st int, q byte, kind tokKind) *scanErr {
	j := st + 1
	for {
		if j >= len(s.buf) {
			s.i = j
			shift, ok := s.more(st)
			st, j = st-shift, j-shift
			if !ok {
				s.kind, s.ts, s.te = kind, st, j
				if q == '|' {
					return s.errorf(s.position(), "quoted symbol not terminated")
				}
				return s.errorf(s.position(), "string literal not terminated")
			}
			continue
		}
		c := s.buf[j]
		if c == q {
			if q == '"' {
				if j+1 >= len(s.buf) {
					s.i = j
					shift, _ := s.more(st)
					st, j = st-shift, j-shift
				}
				if j+1 < len(s.buf) && s.buf[j+1] == '"' {
					j += 2
					continue
				}
			}
			s.kind, s.ts, s.te, s.i = kind, st, j+1, j+1
			return nil
		}
		if c == '\n' {
			s.line++
			s.lineStart = s.base + int64(j) + 1
		}
		j++
	}
}

// number scans a numeral or a decimal.
func (s *scanner) number(st int) *scanErr {
	st, j := s.run(st, st+1, cDigit)
	kind := tNumeral
	if j < len(s.buf) && s.buf[j] == '.' {
		n := j - st
		st, j = s.run(st, j+1, cDigit)
		if j == st+n+1 {
			s.kind, s.ts, s.te, s.i = tDecimal, st, j, j
			return s.errorf(s.position(), "decimal needs digits after '.'")
		}
		kind = tDecimal
	}
	if j < len(s.buf) && class[s.buf[j]]&cSymRest != 0 {
		st, j = s.run(st, j, cSymRest)
		s.kind, s.ts, s.te, s.i = tSymbol, st, j, j
		return s.errorf(s.position(), "a symbol cannot start with a digit: %q", clip(s.tok()))
	}
	s.kind, s.ts, s.te, s.i = kind, st, j, j
	return nil
}

// radix scans #x... and #b... literals.
func (s *scanner) radix(st int) *scanErr {
	st, j := s.run(st, st+1, cSymRest)
	s.kind, s.ts, s.te, s.i = tSymbol, st, j, j
	t := s.tok()
	if len(t) < 3 || (t[1] != 'x' && t[1] != 'b') {
		return s.errorf(s.position(), "'#' must be followed by 'x' or 'b' and digits")
	}
	for _, c := range t[2:] {
		if t[1] == 'x' && class[c]&cHex == 0 || t[1] == 'b' && c != '0' && c != '1' {
			return s.errorf(s.position(), "unexpected %q in literal %q", rune(c), clip(t))
		}
	}
	if t[1] == 'x' {
		s.kind = tHex
	} else {
		s.kind = tBinary
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// describe renders the current token for messages.
func (s *scanner) describe() string {
	switch s.kind {
	case tEOF, tLParen, tRParen:
		return s.kind.String()
	}
	return "'" + clip(s.tok()) + "'"
}

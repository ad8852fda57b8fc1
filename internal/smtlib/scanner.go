package smtlib

import "fmt"

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokLParen
	tokRParen
	tokNumeral
	tokDecimal
	tokHex
	tokBinary
	tokString
	tokSymbol       // simple symbol, possibly a reserved word
	tokQuotedSymbol // |...|; text is the content between the bars
	tokKeyword      // :name; text includes the colon
	tokIllegal      // a character or literal the lexicon does not allow
)

func (k tokKind) String() string {
	switch k {
	case tokEOF:
		return "end of file"
	case tokLParen:
		return "'('"
	case tokRParen:
		return "')'"
	case tokNumeral:
		return "numeral"
	case tokDecimal:
		return "decimal"
	case tokHex:
		return "hexadecimal"
	case tokBinary:
		return "binary"
	case tokString:
		return "string"
	case tokSymbol, tokQuotedSymbol:
		return "symbol"
	case tokKeyword:
		return "keyword"
	}
	return "illegal token"
}

// token is one lexeme. text aliases the scanner's source.
type token struct {
	kind tokKind
	pos  Pos
	text []byte
}

// describe renders a token for error messages: `'assert'`, `')'`, `end of file`.
func (t token) describe() string {
	switch t.kind {
	case tokEOF, tokLParen, tokRParen:
		return t.kind.String()
	case tokQuotedSymbol:
		return "'|" + clip(string(t.text)) + "|'"
	}
	return "'" + clip(string(t.text)) + "'"
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// Character classes of the SMT-LIB 2.6 lexicon.
const (
	cSymStart = 1 << iota // may start a simple symbol
	cSymRest              // may continue a simple symbol
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

// scanner splits SMT-LIB 2.6 source into tokens. Lexical errors are reported
// through errf and scanning goes on, so a caller always gets a token stream.
type scanner struct {
	src  []byte
	off  int
	errf func(pos Pos, msg string)

	// escapes makes \" and \\ escapes inside string literals, as SMT-LIB
	// 2.0 had them and some solvers still print them; 2.6 has only "".
	escapes bool
}

func (s *scanner) init(src []byte, errf func(Pos, string)) {
	s.src, s.off, s.errf = src, 0, errf
}

func (s *scanner) error(off int, format string, args ...any) {
	if s.errf != nil {
		s.errf(Pos(off+1), fmt.Sprintf(format, args...))
	}
}

// skipSpace skips white space and comments.
func (s *scanner) skipSpace() {
	src, off := s.src, s.off
	for off < len(src) {
		c := src[off]
		if class[c]&cSpace != 0 {
			off++
			continue
		}
		if c == ';' {
			for off < len(src) && src[off] != '\n' && src[off] != '\r' {
				off++
			}
			continue
		}
		break
	}
	s.off = off
}

// next returns the next token.
func (s *scanner) next() token {
	s.skipSpace()
	src, start := s.src, s.off
	if start >= len(src) {
		return token{kind: tokEOF, pos: Pos(start + 1)}
	}
	pos := Pos(start + 1)
	c := src[start]
	switch {
	case c == '(':
		s.off++
		return token{kind: tokLParen, pos: pos}
	case c == ')':
		s.off++
		return token{kind: tokRParen, pos: pos}
	case class[c]&cSymStart != 0:
		off := start + 1
		for off < len(src) && class[src[off]]&cSymRest != 0 {
			off++
		}
		s.off = off
		return token{kind: tokSymbol, pos: pos, text: src[start:off]}
	case class[c]&cDigit != 0:
		return s.number(start)
	case c == '|':
		off := start + 1
		kind := tokQuotedSymbol
		for off < len(src) && src[off] != '|' {
			if src[off] == '\\' {
				s.error(off, "backslash is not allowed in a quoted symbol")
				kind = tokIllegal
			}
			off++
		}
		if off >= len(src) {
			s.error(start, "quoted symbol not terminated")
			s.off = off
			return token{kind: tokIllegal, pos: pos, text: src[start:off]}
		}
		s.off = off + 1
		if kind == tokIllegal {
			return token{kind: kind, pos: pos, text: src[start : off+1]}
		}
		return token{kind: kind, pos: pos, text: src[start+1 : off]}
	case c == '"':
		off := start + 1
		for {
			if off >= len(src) {
				s.error(start, "string literal not terminated")
				s.off = off
				return token{kind: tokIllegal, pos: pos, text: src[start:off]}
			}
			if s.escapes && src[off] == '\\' && off+1 < len(src) && (src[off+1] == '"' || src[off+1] == '\\') {
				off += 2
				continue
			}
			if src[off] == '"' {
				if off+1 < len(src) && src[off+1] == '"' {
					off += 2
					continue
				}
				off++
				break
			}
			off++
		}
		s.off = off
		return token{kind: tokString, pos: pos, text: src[start:off]}
	case c == ':':
		off := start + 1
		for off < len(src) && class[src[off]]&cSymRest != 0 {
			off++
		}
		s.off = off
		if off == start+1 {
			s.error(start, "keyword without a name after ':'")
			return token{kind: tokIllegal, pos: pos, text: src[start:off]}
		}
		return token{kind: tokKeyword, pos: pos, text: src[start:off]}
	case c == '#':
		return s.radix(start)
	}
	s.off = start + 1
	s.error(start, "unexpected character %q", rune(c))
	return token{kind: tokIllegal, pos: pos, text: src[start : start+1]}
}

// number scans a numeral or decimal.
func (s *scanner) number(start int) token {
	src := s.src
	off := start
	for off < len(src) && class[src[off]]&cDigit != 0 {
		off++
	}
	kind := tokNumeral
	if off < len(src) && src[off] == '.' {
		frac := off + 1
		off = frac
		for off < len(src) && class[src[off]]&cDigit != 0 {
			off++
		}
		if off == frac {
			s.error(start, "decimal needs digits after '.'")
			kind = tokIllegal
		} else {
			kind = tokDecimal
		}
	}
	if off < len(src) && class[src[off]]&cSymRest != 0 {
		// "12abc": not a numeral and not a symbol.
		for off < len(src) && class[src[off]]&cSymRest != 0 {
			off++
		}
		s.off = off
		s.error(start, "symbols cannot start with a digit: %q", clip(string(src[start:off])))
		return token{kind: tokIllegal, pos: Pos(start + 1), text: src[start:off]}
	}
	s.off = off
	if src[start] == '0' && start+1 < off && src[start+1] != '.' {
		s.error(start, "numeral with a leading zero: %q", clip(string(src[start:off])))
		kind = tokIllegal
	}
	return token{kind: kind, pos: Pos(start + 1), text: src[start:off]}
}

// radix scans #x... and #b... literals.
func (s *scanner) radix(start int) token {
	src := s.src
	off := start + 1
	if off < len(src) && (src[off] == 'x' || src[off] == 'b') {
		hex := src[off] == 'x'
		off++
		digits := off
		for off < len(src) {
			c := src[off]
			if hex && class[c]&cHex != 0 || !hex && (c == '0' || c == '1') {
				off++
				continue
			}
			break
		}
		end := off
		for off < len(src) && class[src[off]]&cSymRest != 0 {
			off++
		}
		s.off = off
		switch {
		case end == digits:
			s.error(start, "%q needs at least one digit", string(src[start:digits]))
		case off != end:
			s.error(end, "unexpected %q in literal", clip(string(src[end:off])))
		default:
			kind := tokBinary
			if hex {
				kind = tokHex
			}
			return token{kind: kind, pos: Pos(start + 1), text: src[start:off]}
		}
		return token{kind: tokIllegal, pos: Pos(start + 1), text: src[start:off]}
	}
	s.off = off
	s.error(start, "'#' must be followed by 'x' or 'b'")
	return token{kind: tokIllegal, pos: Pos(start + 1), text: src[start:off]}
}

// isReserved reports whether a simple symbol is a reserved word of SMT-LIB
// 2.6 (§3.2): the special words and every command name.
func isReserved(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	switch string(s) {
	case "BINARY", "DECIMAL", "HEXADECIMAL", "NUMERAL", "STRING",
		"_", "!", "as", "let", "exists", "forall", "match", "par":
		return true
	}
	return commandByName(s) != CmdInvalid
}

// needsQuotes reports whether name must be written |name| to be read back as
// the same symbol.
func needsQuotes(name string) bool {
	if name == "" || class[name[0]]&cSymStart == 0 {
		return true
	}
	for i := 1; i < len(name); i++ {
		if class[name[i]]&cSymRest == 0 {
			return true
		}
	}
	return isReserved([]byte(name))
}

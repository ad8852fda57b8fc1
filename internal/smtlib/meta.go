package smtlib

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Meta is what indexing needs to know about a benchmark, read without
// building terms.
type Meta struct {
	Logic         string
	Status        string // the first :status, "" if none
	Category      string // :category, without quotes
	Source        string // :source, without bars or quotes
	SMTLIBVersion string // :smt-lib-version
	License       string // :license, without quotes
	Difficulty    string // :difficulty (SMT-LIB 1.2 and 2006 benchmarks: 0-5)

	Asserts   int
	CheckSats int
	Pushes    int // push commands (not levels)
	Pops      int
	Commands  [numCommands]int // how many times each command occurs

	// Declared lists the symbols that declare-fun, declare-const,
	// define-fun(-rec), define-funs-rec, declare-sort, define-sort and
	// declare-datatype(s) introduce, in order.
	Declared []string

	// CheckSatStatuses holds, per check-sat in order, the last :status set
	// since the previous check-sat ("" if none): how incremental benchmarks
	// annotate the expected answer of each query.
	CheckSatStatuses []string

	// Named reports whether a :named attribute occurs anywhere.
	Named bool
}

// ScanMetaFile reads the file at path and scans it.
func ScanMetaFile(path string) (*Meta, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ScanMeta(path, src)
}

// ScanMeta reads the metadata of an SMT-LIB 2.6 script. It skips the bodies
// of asserts and definitions by counting parentheses, so it is many times
// faster than Parse; it reports structural errors (unbalanced parentheses,
// unterminated literals, unknown commands) with positions, and always
// returns what it read.
func ScanMeta(name string, src []byte) (*Meta, error) {
	m := &Meta{}
	var errs ErrorList
	var file *File
	report := func(pos Pos, msg string) {
		if file == nil {
			file = NewFile(name, src)
		}
		if len(errs) < maxErrors {
			errs.Add(file.Position(pos), msg)
		}
	}
	sc := &scanner{}
	sc.init(src, report)
	pending := "" // the last :status since the previous check-sat
	for {
		tok := sc.next()
		if tok.kind == tokEOF {
			break
		}
		if tok.kind != tokLParen {
			report(tok.pos, "expected '(' to start a command, found "+tok.describe())
			if !skipToCommand(sc, report) {
				break
			}
			continue
		}
		open := tok.pos
		tok = sc.next()
		kind := CmdInvalid
		if tok.kind == tokSymbol {
			kind = commandByName(tok.text)
		}
		if kind == CmdInvalid {
			report(tok.pos, "expected a command name, found "+tok.describe())
			if !skipBalanced(sc, 1, open, report, m) {
				break
			}
			continue
		}
		m.Commands[kind]++
		depth := 1 // inside the command's parenthesis
		switch kind {
		case CmdAssert:
			m.Asserts++
		case CmdCheckSat, CmdCheckSatAssuming:
			m.CheckSats++
			m.CheckSatStatuses = append(m.CheckSatStatuses, pending)
			pending = ""
		case CmdPush:
			m.Pushes++
		case CmdPop:
			m.Pops++
		case CmdSetLogic:
			if t := sc.next(); t.kind == tokSymbol || t.kind == tokQuotedSymbol {
				if m.Logic == "" {
					m.Logic = string(t.text)
				}
			} else {
				depth = adjust(depth, t)
			}
		case CmdSetInfo:
			key := sc.next()
			if key.kind != tokKeyword {
				depth = adjust(depth, key)
				break
			}
			val := sc.next()
			if val.kind == tokLParen || val.kind == tokRParen {
				depth = adjust(depth, val)
				break
			}
			text := atomText(val)
			switch string(key.text) {
			case ":status":
				if m.Status == "" {
					m.Status = text
				}
				pending = text
			case ":category":
				m.Category = text
			case ":source":
				m.Source = text
			case ":smt-lib-version":
				m.SMTLIBVersion = text
			case ":license":
				m.License = text
			case ":difficulty":
				m.Difficulty = text
			}
		case CmdDeclareFun, CmdDeclareConst, CmdDefineFun, CmdDefineFunRec, CmdDeclareSort,
			CmdDefineSort, CmdDeclareDatatype:
			if t := sc.next(); t.kind == tokSymbol || t.kind == tokQuotedSymbol {
				m.Declared = append(m.Declared, string(t.text))
			} else {
				depth = adjust(depth, t)
			}
		case CmdDefineFunsRec, CmdDeclareDatatypes:
			// ((name ...) (name ...)) : the first symbol of each inner list.
			if t := sc.next(); t.kind != tokLParen {
				depth = adjust(depth, t)
				break
			}
			depth++
			for depth == 2 {
				t := sc.next()
				if t.kind == tokEOF {
					break
				}
				depth = adjust(depth, t)
				if t.kind == tokLParen {
					if n := sc.next(); n.kind == tokSymbol || n.kind == tokQuotedSymbol {
						m.Declared = append(m.Declared, string(n.text))
					} else {
						depth = adjust(depth, n)
					}
					if !skipBalanced(sc, depth-2, open, report, m) {
						return m, errs.Err()
					}
					depth = 2
				}
			}
		}
		if depth > 0 && !skipBalanced(sc, depth, open, report, m) {
			break
		}
	}
	errs.Sort()
	return m, errs.Err()
}

func adjust(depth int, t token) int {
	switch t.kind {
	case tokLParen:
		return depth + 1
	case tokRParen:
		return depth - 1
	}
	return depth
}

// atomText returns a set-info value as text: strings without quotes and with
// "" unescaped, quoted symbols without bars.
func atomText(t token) string {
	if t.kind == tokString && len(t.text) >= 2 {
		return strings.ReplaceAll(string(t.text[1:len(t.text)-1]), `""`, `"`)
	}
	return string(t.text)
}

// Byte classes for skipBalanced: everything but these bytes is skipped by a
// tight loop.
const (
	skOther = iota
	skOpen
	skClose
	skBar
	skQuote
	skSemi
	skColon
)

var skipClass = func() (t [256]uint8) {
	t['('], t[')'], t['|'], t['"'], t[';'], t[':'] = skOpen, skClose, skBar, skQuote, skSemi, skColon
	return
}()

var namedKeyword = []byte(":named")

// skipBalanced advances sc past depth unmatched ')'. It notices :named on the
// way. It returns false at end of input (having reported the unclosed
// command that began at open).
func skipBalanced(sc *scanner, depth int, open Pos, report func(Pos, string), m *Meta) bool {
	src := sc.src
	off := sc.off
	for off < len(src) {
		c := skipClass[src[off]]
		if c == skOther {
			off++
			continue
		}
		switch c {
		case skOpen:
			depth++
			off++
		case skClose:
			depth--
			off++
			if depth == 0 {
				sc.off = off
				return true
			}
		case skBar:
			end := indexByteFrom(src, off+1, '|')
			if end < 0 {
				report(Pos(off+1), "quoted symbol not terminated")
				off = len(src)
				break
			}
			off = end + 1
		case skQuote:
			off++
			for {
				end := indexByteFrom(src, off, '"')
				if end < 0 {
					report(Pos(off), "string literal not terminated")
					off = len(src)
					break
				}
				off = end + 1
				if off < len(src) && src[off] == '"' {
					off++
					continue
				}
				break
			}
		case skSemi:
			end := indexByteFrom(src, off, '\n')
			if end < 0 {
				off = len(src)
			} else {
				off = end + 1
			}
		case skColon:
			if len(src)-off >= len(namedKeyword) && string(src[off:off+len(namedKeyword)]) == ":named" &&
				(off+len(namedKeyword) == len(src) || class[src[off+len(namedKeyword)]]&cSymRest == 0) {
				m.Named = true
			}
			off++
		}
	}
	sc.off = off
	report(open, fmt.Sprintf("command is not closed: %d ')' missing at end of file", depth))
	return false
}

// skipToCommand skips to the next '(' at the start of a line after a stray
// token at top level.
func skipToCommand(sc *scanner, report func(Pos, string)) bool {
	for {
		t := sc.next()
		switch t.kind {
		case tokEOF:
			return false
		case tokLParen:
			sc.off = t.pos.Offset()
			return true
		}
	}
}

func indexByteFrom(b []byte, from int, c byte) int {
	if from >= len(b) {
		return -1
	}
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

package smtlib

import (
	"bufio"
	"io"
	"strings"
)

// The canonical form: one command per line, every term on that line with
// single spaces between tokens, symbols quoted only when they must be,
// constants and keywords as written. Parsing the canonical form of a script
// gives the same tree.

// Print writes the script in canonical form.
func (s *Script) Print(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, c := range s.cmds {
		s.writeCommand(bw, c)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// CommandString returns one command in canonical form.
func (s *Script) CommandString(c Command) string {
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	s.writeCommand(bw, c)
	bw.Flush()
	return b.String()
}

// TermString returns a term in canonical form.
func (s *Script) TermString(t Term) string {
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	s.WriteTerm(bw, t)
	bw.Flush()
	return b.String()
}

func (s *Script) writeCommand(w *bufio.Writer, c Command) {
	w.WriteByte('(')
	w.WriteString(c.Kind.String())
	for i, n := 0, s.CmdNumArgs(c); i < n; i++ {
		a := s.CmdArg(c, i)
		if s.Kind(a) == KindNone {
			continue
		}
		w.WriteByte(' ')
		s.WriteTerm(w, a)
	}
	w.WriteByte(')')
}

// WriteSymbol writes name as an SMT-LIB symbol, quoting it if it must be.
func WriteSymbol(w *bufio.Writer, name string) {
	if needsQuotes(name) {
		w.WriteByte('|')
		w.WriteString(name)
		w.WriteByte('|')
		return
	}
	w.WriteString(name)
}

// QuoteSymbol returns name as it must be written.
func QuoteSymbol(name string) string {
	if needsQuotes(name) {
		return "|" + name + "|"
	}
	return name
}

// WriteTerm writes t in canonical form, without recursion.
func (s *Script) WriteTerm(w *bufio.Writer, t Term) {
	type item struct {
		t    Term
		next int32 // index of the next child to print
		n    int32 // number of children
	}
	var stack []item
	push := func(t Term) {
		ref := s.slots[t].ref
		switch ref & tagMask {
		case tagSym:
			WriteSymbol(w, s.syms[ref&maxIndex])
			return
		case tagConst:
			w.WriteString(s.consts[ref&maxIndex])
			return
		case tagNone:
			return
		}
		switch s.nodes[ref].kind {
		case KindIndexed:
			w.WriteString("(_ ")
		case KindQualified:
			w.WriteString("(as ")
		case KindLet:
			w.WriteString("(let (")
		case KindForall:
			w.WriteString("(forall (")
		case KindExists:
			w.WriteString("(exists (")
		case KindMatch:
			w.WriteString("(match ")
		case KindAnnotated:
			w.WriteString("(! ")
		case KindPar:
			w.WriteString("(par ")
		default:
			w.WriteByte('(')
		}
		start, end := s.nodeRange(ref)
		stack = append(stack, item{t: t, n: int32(end - start)})
	}
	push(t)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		kind := s.Kind(top.t)
		i, n := top.next, top.n
		if i == n {
			switch kind {
			case KindMatch:
				w.WriteString(")))")
			default:
				w.WriteByte(')')
			}
			stack = stack[:len(stack)-1]
			continue
		}
		top.next++
		child := s.Child(top.t, int(i))
		// Separator before child i.
		switch kind {
		case KindLet, KindForall, KindExists:
			switch {
			case i == n-1:
				w.WriteString(")) ")
			case i == 0:
				w.WriteByte('(')
			case i%2 == 1:
				w.WriteByte(' ')
			default:
				w.WriteString(") (")
			}
		case KindMatch:
			switch {
			case i == 0:
			case i == 1:
				w.WriteString(" ((")
			case i%2 == 1:
				w.WriteString(") (")
			default:
				w.WriteByte(' ')
			}
		default:
			if i > 0 && s.Kind(child) != KindNone {
				w.WriteByte(' ')
			}
		}
		push(child)
	}
}

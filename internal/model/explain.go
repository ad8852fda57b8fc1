package model

import (
	"strings"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// Limits of an explanation: how deep it follows the false path, and how
// much of each term it prints.
const (
	explainDepth = 64
	explainTerm  = 120
)

// explain follows a false assertion down to where it turns false: at each
// level the term and its value, then the operand that makes it false (the
// false conjunct, the taken branch of an ite, the body of a let with its
// bindings), ending at an atom with the values of its arguments.
func (e *evaluator) explain(s *smtlib.Script, t smtlib.Term, c *chunk) []string {
	mark := len(e.binds)
	defer func() { e.binds = e.binds[:mark] }()
	var lines []string
	at := func(u smtlib.Term) string { return c.position(s.Pos(u)).String() }
	line := func(depth int, u smtlib.Term, v value) {
		lines = append(lines, strings.Repeat("  ", depth)+clip(s.TermString(u), explainTerm)+" = "+clip(e.show(v), explainTerm)+"   ["+at(u)+"]")
	}
	cur := t
	for depth := 0; depth < explainDepth && e.abort == nil; depth++ {
		v := e.eval(s, cur, 0)
		line(depth, cur, v)
		switch s.Kind(cur) {
		case smtlib.KindAnnotated:
			cur = s.Arg(cur, 0)
			continue
		case smtlib.KindLet:
			n := (s.NumArgs(cur) - 1) / 2
			vals := make([]value, n)
			for k := range n {
				vals[k] = e.eval(s, s.Arg(cur, 2*k+1), 0)
			}
			for k := range n {
				name := s.Name(s.Arg(cur, 2*k))
				lines = append(lines, strings.Repeat("  ", depth+1)+"let "+name+" = "+clip(e.show(vals[k]), explainTerm))
				e.binds = append(e.binds, binding{name, vals[k]})
			}
			cur = s.Arg(cur, s.NumArgs(cur)-1)
			continue
		case smtlib.KindApp:
		default:
			return lines
		}
		name, _, nidx, _ := ident(s, s.Head(cur))
		n := s.NumArgs(cur)
		next := smtlib.NoTerm
		switch {
		case nidx > 0:
		case name == "not" && n == 1:
			next = s.Arg(cur, 0)
		case (name == "and" && v.isFalse()) || (name == "or" && v.isTrue()):
			// One operand decides: follow the first that does.
			for k := range n {
				a := s.Arg(cur, k)
				if av := e.eval(s, a, 0); av.k == vBool && av.isTrue() == v.isTrue() {
					next = a
					break
				}
			}
		case name == "ite":
			cv := e.eval(s, s.Arg(cur, 0), 0)
			line(depth+1, s.Arg(cur, 0), cv)
			switch {
			case cv.isTrue():
				next = s.Arg(cur, 1)
			case cv.isFalse():
				next = s.Arg(cur, 2)
			}
		}
		if next == smtlib.NoTerm {
			for k := range n {
				a := s.Arg(cur, k)
				if s.Kind(a) == smtlib.KindSymbol || s.Kind(a) == smtlib.KindApp || s.Kind(a) == smtlib.KindLet {
					line(depth+1, a, e.eval(s, a, 0))
				}
			}
			return lines
		}
		cur = next
	}
	return lines
}

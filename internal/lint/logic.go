package lint

import (
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/smtlib"
)

// logic checks that the formulas belong to the declared logic beyond what
// the sort checker sees: free symbols, array sorts, the arithmetic fragment,
// and :named terms.
func (l *linter) logic() {
	s, c := l.s, l.checked
	lg := c.Logic
	if lg.Name != "" && !lg.Known {
		for _, cmd := range s.Commands() {
			if cmd.Kind == smtlib.CmdSetLogic {
				l.errorf(s.Pos(s.CmdArg(cmd, 0)), "logic", "unknown logic %s: not an SMT-LIB logic name", lg.Name)
				break
			}
		}
	}
	for _, cmd := range s.Commands() {
		if cmd.Kind == smtlib.CmdDeclareSort && !lg.FreeSorts {
			l.errorf(cmd.Pos, "uf", "declare-sort in logic %s, which has no free sorts", lg.Name)
		}
	}
	for _, d := range c.Decls() {
		if d.Bind == smtlib.BindDeclared && len(d.Params) > 0 && !lg.UF {
			l.errorf(d.Pos, "uf", "%s is a free function symbol (declare-fun with arguments) in logic %s, which has none",
				smtlib.QuoteSymbol(d.Name), lg.Name)
		}
		for _, so := range append(append([]smtlib.Sort(nil), d.Params...), d.Result) {
			l.arraySort(d.Pos, so)
		}
	}
	l.walk()
}

// arraySort checks an array sort against the logics that restrict them.
func (l *linter) arraySort(p smtlib.Pos, so smtlib.Sort) {
	c := l.checked
	lg := c.Logic
	idx, elem, ok := c.ArrayOf(so)
	if !ok || !lg.Known || lg.Name == "ALL" || lg.Name == "QF_ALL" {
		return
	}
	var good bool
	var want string
	switch {
	case lg.Floats || lg.Strings || lg.Datatypes:
		l.notChecked(p, "array", "which array sorts logic %s allows", lg.Name)
		return
	case lg.BitVectors:
		good, want = c.IsBitVec(idx) && c.IsBitVec(elem), "(Array (_ BitVec i) (_ BitVec j))"
	case lg.Ints && lg.Reals:
		inner := false
		if i2, e2, ok := c.ArrayOf(elem); ok {
			inner = i2 == smtlib.SortInt && e2 == smtlib.SortReal
		}
		good = idx == smtlib.SortInt && (elem == smtlib.SortReal || inner)
		want = "(Array Int Real) or (Array Int (Array Int Real))"
	case lg.Ints:
		good, want = idx == smtlib.SortInt && elem == smtlib.SortInt, "(Array Int Int)"
	case lg.FreeSorts && !lg.Ints && !lg.Reals:
		// QF_AX: arrays over free sorts.
		good, want = c.IsFree(idx) && c.IsFree(elem), "arrays over declared sorts"
	default:
		l.notChecked(p, "array", "which array sorts logic %s allows", lg.Name)
		return
	}
	if !good {
		l.errorf(p, "array", "array sort %s in logic %s, which allows only %s", c.SortString(so), lg.Name, want)
	}
}

type walkItem struct {
	t        smtlib.Term
	topLevel bool // the term of an assert
}

// walk visits every term of the script once, iteratively.
func (l *linter) walk() {
	s := l.s
	var stack []walkItem
	dl := newDiffLogic(l)
	for _, cmd := range s.Commands() {
		switch cmd.Kind {
		case smtlib.CmdAssert:
			stack = append(stack, walkItem{t: s.CmdArg(cmd, 0), topLevel: true})
		case smtlib.CmdDefineFun, smtlib.CmdDefineFunRec:
			stack = append(stack, walkItem{t: s.CmdArg(cmd, 3)})
		case smtlib.CmdDefineFunsRec:
			bodies := s.CmdArg(cmd, 1)
			for i := 0; i < s.NumChildren(bodies); i++ {
				stack = append(stack, walkItem{t: s.Child(bodies, i)})
			}
		}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			t := it.t
			switch s.Kind(t) {
			case smtlib.KindAnnotated:
				l.named(t, it.topLevel)
			case smtlib.KindApp:
				l.arith(t, dl)
			case smtlib.KindQualified, smtlib.KindIndexed:
				continue
			}
			for i := s.NumChildren(t) - 1; i >= 0; i-- {
				stack = append(stack, walkItem{t: s.Child(t, i)})
			}
		}
	}
	dl.finish()
}

// named checks :named attributes: only in the unsat-core track, and only on
// a whole assertion.
func (l *linter) named(t smtlib.Term, topLevel bool) {
	s := l.s
	for i := 1; i+1 < s.NumArgs(t); i += 2 {
		key := s.Arg(t, i)
		if s.Name(key) != ":named" {
			continue
		}
		switch {
		case l.opts.Track != benchmark.UnsatCore:
			l.errorf(s.Pos(key), "named", "named term in the %s track: only the unsat-core track uses :named (%s)", l.opts.Track, l.rule())
		case !topLevel:
			l.errorf(s.Pos(key), "named", "named term inside a formula: only top-level assertions may be named (%s)", l.rule())
		}
	}
}

// through follows let variables to the terms they stand for.
// A let term stands for its body.
func (l *linter) through(t smtlib.Term) smtlib.Term {
	s := l.s
	for {
		switch s.Kind(t) {
		case smtlib.KindSymbol:
			r := l.checked.Ref(t)
			if r.Bind != smtlib.BindLet || r.Value == smtlib.NoTerm {
				return t
			}
			t = r.Value
		case smtlib.KindLet:
			t = s.Arg(t, s.NumArgs(t)-1)
		default:
			return t
		}
	}
}

// arithOp returns the name of an arithmetic theory symbol heading t, or "".
func (l *linter) arithOp(t smtlib.Term) string {
	s := l.s
	if s.Kind(t) != smtlib.KindApp {
		return ""
	}
	h := s.Head(t)
	r := l.checked.Ref(h)
	if r.Bind != smtlib.BindTheory || (r.Theory != smtlib.TheoryInts && r.Theory != smtlib.TheoryReals) {
		return ""
	}
	if s.Kind(h) == smtlib.KindIndexed {
		return s.Name(s.Head(h))
	}
	return s.Name(h)
}

// isConstant reports whether t is a concrete coefficient: a numeral or
// decimal, its negation, or a quotient of such.
func (l *linter) isConstant(t smtlib.Term) bool {
	s := l.s
	t = l.through(t)
	switch s.Kind(t) {
	case smtlib.KindNumeral, smtlib.KindDecimal:
		return true
	case smtlib.KindApp:
		switch l.arithOp(t) {
		case "-":
			return s.NumArgs(t) == 1 && l.isConstant(s.Arg(t, 0))
		case "/":
			for i := 0; i < s.NumArgs(t); i++ {
				if !l.isConstant(s.Arg(t, i)) {
					return false
				}
			}
			return true
		}
		if r := l.checked.Ref(s.Head(t)); r.Theory == smtlib.TheoryRealsInts && s.Name(s.Head(t)) == "to_real" {
			return l.isConstant(s.Arg(t, 0))
		}
	}
	return false
}

// isNumeral reports whether t is (or stands for) a numeral.
func (l *linter) isNumeral(t smtlib.Term) bool {
	return l.s.Kind(l.through(t)) == smtlib.KindNumeral
}

// arith checks one application against the arithmetic fragment of the
// logic.
func (l *linter) arith(t smtlib.Term, dl *diffLogic) {
	s := l.s
	lg := l.checked.Logic
	op := l.arithOp(t)
	switch lg.Arith {
	case smtlib.ArithLinear:
		if op == "" {
			return
		}
		switch op {
		case "*":
			n := 0
			for i := 0; i < s.NumArgs(t); i++ {
				if !l.isConstant(s.Arg(t, i)) {
					n++
				}
			}
			if n > 1 {
				l.errorf(s.Pos(s.Head(t)), "linear", "nonlinear multiplication in logic %s: '*' multiplies %d non-constant terms; only (* c x) with a concrete coefficient c is linear", lg.Name, n)
			}
		case "/":
			if !l.isConstant(t) {
				l.errorf(s.Pos(s.Head(t)), "linear", "division of a non-constant term in logic %s: '/' is allowed only in rational coefficients (/ c n)", lg.Name)
			}
		case "div", "mod", "abs":
			l.errorf(s.Pos(s.Head(t)), "linear", "'%s' in logic %s: linear arithmetic has no div, mod or abs (only * by a concrete coefficient)", op, lg.Name)
		}
	case smtlib.ArithDifference:
		if lg.UF {
			l.ufidl(t, op)
		} else {
			dl.visit(t, op)
		}
	}
}

// ufidl checks the signature of QF_UFIDL: binary + and -, each with a
// numeral argument; binary comparisons; no other arithmetic.
func (l *linter) ufidl(t smtlib.Term, op string) {
	s := l.s
	name := l.checked.Logic.Name
	switch op {
	case "":
	case "+", "-":
		if s.NumArgs(t) != 2 {
			l.errorf(s.Pos(s.Head(t)), "difference-logic", "'%s' with %d arguments in logic %s, which has only the binary '%s'", op, s.NumArgs(t), name, op)
		} else if !l.isNumeral(s.Arg(t, 0)) && !l.isNumeral(s.Arg(t, 1)) {
			l.errorf(s.Pos(s.Head(t)), "difference-logic", "'%s' without a numeral argument in logic %s: one of its two arguments must be a numeral", op, name)
		}
	case "<", "<=", ">", ">=":
		if s.NumArgs(t) != 2 {
			l.errorf(s.Pos(s.Head(t)), "difference-logic", "'%s' with %d arguments in logic %s, which has only the binary '%s'", op, s.NumArgs(t), name, op)
		}
	default:
		l.errorf(s.Pos(s.Head(t)), "difference-logic", "'%s' is not in the signature of logic %s (only +, -, <, <=, >, >=)", op, name)
	}
}

// diffLogic checks QF_IDL and QF_RDL, whose atoms have fixed forms:
// (op (- x y) c), (op x y), and for RDL (op (- (+ x ... x) (+ y ... y)) c)
// and (op (- x y) (/ c n)), with x, y free constants and c a numeral or its
// negation. Arithmetic terms are allowed only inside such atoms. Atoms are
// checked when visited; the arithmetic terms they consume are marked, and
// the others reported at the end (let values are visited before the atoms
// that use them).
type diffLogic struct {
	l       *linter
	ok      map[smtlib.Term]bool
	pending []smtlib.Term
}

func newDiffLogic(l *linter) *diffLogic {
	return &diffLogic{l: l, ok: map[smtlib.Term]bool{}}
}

func (d *diffLogic) arithSort() smtlib.Sort {
	if d.l.checked.Logic.Reals {
		return smtlib.SortReal
	}
	return smtlib.SortInt
}

func (d *diffLogic) visit(t smtlib.Term, op string) {
	l, s := d.l, d.l.s
	head := s.Head(t)
	isAtom := false
	switch op {
	case "<", "<=", ">", ">=":
		isAtom = true
	case "":
		r := l.checked.Ref(head)
		name := s.Name(head)
		isAtom = r.Bind == smtlib.BindTheory && r.Theory == smtlib.TheoryCore && (name == "=" || name == "distinct") &&
			s.NumArgs(t) > 0 && l.checked.SortOf(s.Arg(t, 0)) == d.arithSort()
	}
	if !isAtom {
		if op != "" || l.checked.SortOf(t) == d.arithSort() {
			d.pending = append(d.pending, t)
		}
		return
	}
	if !d.atom(t) {
		form := "(op (- x y) n), (op (- x y) (- n)) or (op x y)"
		if d.arithSort() == smtlib.SortReal {
			form = "(op (- x y) c), (op x y), (op (- (+ x ... x) (+ y ... y)) c) or (op (- x y) (/ c n))"
		}
		l.errorf(s.Pos(head), "difference-logic", "atom is not in difference-logic form %s with x, y free constants (logic %s)", form, l.checked.Logic.Name)
	}
}

// atom reports whether the atom t has one of the forms, marking the terms
// it consumes.
func (d *diffLogic) atom(t smtlib.Term) bool {
	l, s := d.l, d.l.s
	if s.NumArgs(t) != 2 {
		return false
	}
	a, b := l.through(s.Arg(t, 0)), l.through(s.Arg(t, 1))
	if d.freeConst(a) && d.freeConst(b) {
		return true
	}
	if l.arithOp(a) != "-" || s.NumArgs(a) != 2 || !d.constant(b) {
		return false
	}
	x, y := l.through(s.Arg(a, 0)), l.through(s.Arg(a, 1))
	if !(d.freeConst(x) && d.freeConst(y)) && !(d.arithSort() == smtlib.SortReal && d.sameSum(x, y)) {
		return false
	}
	d.ok[a] = true
	return true
}

// sameSum reports whether x and y are (+ x ... x) and (+ y ... y) with the
// same number n > 1 of free constants each.
func (d *diffLogic) sameSum(x, y smtlib.Term) bool {
	l, s := d.l, d.l.s
	sum := func(t smtlib.Term) int {
		if l.arithOp(t) != "+" {
			return 0
		}
		first := l.through(s.Arg(t, 0))
		for i := 0; i < s.NumArgs(t); i++ {
			a := l.through(s.Arg(t, i))
			if !d.freeConst(a) || s.Name(a) != s.Name(first) {
				return 0
			}
		}
		return s.NumArgs(t)
	}
	n := sum(x)
	if n > 1 && n == sum(y) {
		d.ok[x], d.ok[y] = true, true
		return true
	}
	return false
}

// constant reports whether t is c: a numeral m or (- m); in RDL also
// (/ c n). It marks the terms it consumes.
func (d *diffLogic) constant(t smtlib.Term) bool {
	l, s := d.l, d.l.s
	t = l.through(t)
	if s.Kind(t) == smtlib.KindNumeral {
		return true
	}
	switch l.arithOp(t) {
	case "-":
		if s.NumArgs(t) == 1 && l.isNumeral(s.Arg(t, 0)) {
			d.ok[t] = true
			return true
		}
	case "/":
		if d.arithSort() == smtlib.SortReal && s.NumArgs(t) == 2 && l.isNumeral(s.Arg(t, 1)) &&
			s.Name(l.through(s.Arg(t, 1))) != "0" && d.constant(s.Arg(t, 0)) {
			d.ok[t] = true
			return true
		}
	}
	return false
}

func (d *diffLogic) freeConst(t smtlib.Term) bool {
	l := d.l
	return l.s.Kind(t) == smtlib.KindSymbol && l.checked.Ref(t).Bind == smtlib.BindDeclared &&
		l.checked.SortOf(t) == d.arithSort()
}

// finish reports the arithmetic terms no atom consumed.
func (d *diffLogic) finish() {
	l, s := d.l, d.l.s
	for _, t := range d.pending {
		if d.ok[t] {
			continue
		}
		name := s.Name(s.Head(t))
		if name == "" {
			name = s.TermString(s.Head(t))
		}
		l.errorf(s.Pos(s.Head(t)), "difference-logic", "'%s' term outside a difference-logic atom (logic %s allows arithmetic only in atoms (op (- x y) c) and (op x y))",
			name, l.checked.Logic.Name)
	}
}

package model

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// tables holds the sorts a benchmark and a model declare.
type tables struct {
	sortDecl map[string]int // declare-sort: arity
	sortDef  map[string]*sortDef
	dts      map[string]*dtInfo
}

type sortDef struct {
	s      *smtlib.Script
	params []string
	body   smtlib.Term
}

// maxSortDepth bounds the nesting of sorts (they are read recursively).
const maxSortDepth = 500

// resolveSort reads a sort term of script s.
func (e *evaluator) resolveSort(s *smtlib.Script, t smtlib.Term) (sortID, error) {
	return e.resolveSortIn(s, t, nil, 0)
}

func (e *evaluator) resolveSortIn(s *smtlib.Script, t smtlib.Term, params map[string]sortID, depth int) (sortID, error) {
	if depth > maxSortDepth {
		return noSort, errors.New("a sort nested too deeply")
	}
	pos := func() string { return s.Position(s.Pos(t)).String() }
	switch s.Kind(t) {
	case smtlib.KindSymbol:
		name := s.Name(t)
		if p, ok := params[name]; ok {
			return p, nil
		}
		return e.namedSort(s, t, name, nil, depth)
	case smtlib.KindIndexed:
		return e.indexedSort(s, s.Name(s.Head(t)), s.Arg(t, 0), s.NumArgs(t))
	case smtlib.KindApp:
		head := s.Head(t)
		n := s.NumArgs(t)
		args := make([]sortID, n)
		for k := range n {
			a, err := e.resolveSortIn(s, s.Arg(t, k), params, depth+1)
			if err != nil {
				return noSort, err
			}
			args[k] = a
		}
		return e.namedSort(s, head, s.Name(head), args, depth)
	case smtlib.KindList:
		n := s.NumChildren(t)
		if n >= 2 && s.IsSymbol(s.Child(t, 0), "_") {
			return e.indexedSort(s, s.Name(s.Child(t, 1)), s.Child(t, 2), n-2)
		}
		if n >= 2 && s.Kind(s.Child(t, 0)) == smtlib.KindSymbol {
			args := make([]sortID, n-1)
			for k := 1; k < n; k++ {
				a, err := e.resolveSortIn(s, s.Child(t, k), params, depth+1)
				if err != nil {
					return noSort, err
				}
				args[k-1] = a
			}
			return e.namedSort(s, s.Child(t, 0), s.Name(s.Child(t, 0)), args, depth)
		}
	}
	return noSort, fmt.Errorf("%s: not a sort: %s", pos(), clip(s.TermString(t), 60))
}

func (e *evaluator) indexedSort(s *smtlib.Script, name string, idx smtlib.Term, nidx int) (sortID, error) {
	switch name {
	case "BitVec":
		w, ok := indexInt(s, idx, nidx, 0)
		if !ok || nidx != 1 || w == 0 {
			return noSort, errors.New("bad bit-vector sort")
		}
		if w > maxWidth {
			return noSort, fmt.Errorf("a bit-vector sort of width %d (the validator takes at most %d)", w, maxWidth)
		}
		return e.sorts.bv(w), nil
	case "FloatingPoint":
		eb, ok1 := indexInt(s, idx, nidx, 0)
		sb, ok2 := indexInt(s, idx, nidx, 1)
		if !ok1 || !ok2 || nidx != 2 || eb < 2 || sb < 2 {
			return noSort, errors.New("bad floating-point sort")
		}
		if eb > 30 || sb > maxWidth {
			return noSort, fmt.Errorf("a floating-point sort (_ FloatingPoint %d %d) beyond the validator's limits", eb, sb)
		}
		return e.sorts.fp(eb, sb), nil
	}
	return noSort, fmt.Errorf("unknown indexed sort %s", clip(name, 60))
}

func (e *evaluator) namedSort(s *smtlib.Script, at smtlib.Term, name string, args []sortID, depth int) (sortID, error) {
	n := len(args)
	switch name {
	case "Bool":
		if n == 0 {
			return sortBool, nil
		}
	case "Int":
		if n == 0 {
			return sortInt, nil
		}
	case "Real":
		if n == 0 {
			return sortReal, nil
		}
	case "RoundingMode":
		if n == 0 {
			return sortRM, nil
		}
	case "Float16":
		return e.sorts.fp(5, 11), nil
	case "Float32":
		return e.sorts.fp(8, 24), nil
	case "Float64":
		return e.sorts.fp(11, 53), nil
	case "Float128":
		return e.sorts.fp(15, 113), nil
	case "Array":
		if n == 2 {
			return e.sorts.array(args[0], args[1]), nil
		}
	case "String", "RegLan", "Seq", "Set", "Bag", "UnicodeChar":
		return e.sorts.named(skString, name, args), nil
	}
	if d, ok := e.tables.sortDef[name]; ok {
		if len(d.params) != n {
			return noSort, fmt.Errorf("sort %s takes %d parameters, has %d", name, len(d.params), n)
		}
		ps := make(map[string]sortID, n)
		for k, p := range d.params {
			ps[p] = args[k]
		}
		return e.resolveSortIn(d.s, d.body, ps, depth+1)
	}
	if dt, ok := e.tables.dts[name]; ok {
		if len(dt.params) != n {
			return noSort, fmt.Errorf("datatype %s takes %d parameters, has %d", name, len(dt.params), n)
		}
		return e.sorts.named(skDatatype, name, args), nil
	}
	if ar, ok := e.tables.sortDecl[name]; ok {
		if ar != n {
			return noSort, fmt.Errorf("sort %s takes %d parameters, has %d", name, ar, n)
		}
		return e.sorts.named(skUninterp, name, args), nil
	}
	return noSort, fmt.Errorf("%s: unknown sort %s", s.Position(s.Pos(at)), clip(name, 60))
}

// modelFun returns the model's definition of sym, reading it the first
// time: its parameters' and result's sorts are resolved and compared with
// the benchmark's declaration. A problem becomes the symbol's value: an
// undefined value with the reason.
func (e *evaluator) modelFun(sym *symbol) *closure {
	if sym.mres {
		return sym.mfun
	}
	sym.mres = true
	if sym.mdef < 0 || e.model == nil {
		return nil
	}
	d := e.model.Defs[sym.mdef]
	s := e.model.Script
	// A model's definitions may not recurse (define-fun-rec included): a
	// definition that reaches itself is cyclic, never looped on.
	fn := e.newClosure()
	*fn = closure{name: sym.name, s: s, body: d.Body, model: true}
	bad := func(format string, args ...any) *closure {
		msg := fmt.Sprintf(format, args...)
		fn.body = smtlib.NoTerm
		fn.memo, fn.memoSet = undefVal(ReasonSortError, msg), true
		fn.params = nil
		if e.sortProblem == nil {
			e.sortProblem = &Result{Verdict: Unknown, Reason: ReasonSortError, Detail: msg,
				Position: s.Position(d.Pos).String()}
		}
		sym.mfun = &closure{name: sym.name, memo: fn.memo, memoSet: true, params: make([]string, len(d.Params)),
			body: smtlib.NoTerm, rec: true}
		return sym.mfun
	}
	for _, p := range d.Params {
		ps, err := e.resolveSort(s, p.Sort)
		if err != nil {
			return bad("the model's definition of %s: %v", sym.name, err)
		}
		fn.params = append(fn.params, p.Name)
		fn.psorts = append(fn.psorts, ps)
	}
	rs, err := e.resolveSort(s, d.Sort)
	if err != nil {
		return bad("the model's definition of %s: %v", sym.name, err)
	}
	fn.result = rs
	if sym.declared {
		if len(fn.params) != len(sym.params) {
			return bad("the model defines %s with %d parameters, the benchmark declares %d", sym.name, len(fn.params), len(sym.params))
		}
		for k, ps := range fn.psorts {
			if ps != sym.params[k] {
				return bad("the model defines parameter %d of %s with sort %s, the benchmark declares %s",
					k+1, sym.name, e.sorts.String(ps), e.sorts.String(sym.params[k]))
			}
		}
		if rs != sym.result {
			return bad("the model defines %s with sort %s, the benchmark declares %s", sym.name, e.sorts.String(rs), e.sorts.String(sym.result))
		}
	}
	sym.mfun = fn
	if len(fn.params) == 0 && fn.body != smtlib.NoTerm && len(s.Name(fn.body)) <= 100 {
		switch s.Kind(fn.body) {
		case smtlib.KindNumeral, smtlib.KindDecimal, smtlib.KindHex, smtlib.KindBinary:
			// A constant whose value is a short literal, most of a model:
			// its value at once, as a call would compute and keep it.
			fn.memo, fn.memoSet = e.coerce(e.constant(s, fn.body), fn.result, fn.name), true
		}
	}
	return fn
}

func itoa(n int) string { return strconv.Itoa(n) }

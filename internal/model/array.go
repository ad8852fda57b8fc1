package model

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/smtlib"
)

func (e *evaluator) selectTable(a, i value) value {
	av := a.p.(*arrayVal)
	if en, ok := av.entries[e.valueKey(i)]; ok {
		return en.val
	}
	return av.def
}

// store returns a new table: arrays are values.
func (e *evaluator) store(args []value) value {
	a, i, v := args[0], args[1], args[2]
	if a.k != vArray {
		return e.sortErr("store", a)
	}
	av := a.p.(*arrayVal)
	if av.fn != nil {
		return undefVal(ReasonUnsupported, "store into an array given by a function that is not a table")
	}
	if a.s != noSort {
		info := e.sorts.info(a.s)
		if i = e.coerce(i, info.args[0], "the index of store"); i.k == vUndef {
			return i
		}
		if v = e.coerce(v, info.args[1], "the value of store"); v.k == vUndef {
			return v
		}
	}
	k := e.valueKey(i)
	n := &arrayVal{def: av.def, entries: make(map[string]arrayEntry, len(av.entries)+1)}
	for kk, en := range av.entries {
		n.entries[kk] = en
	}
	if _, ok := av.entries[k]; ok {
		n.keys = append([]string(nil), av.keys...)
	} else {
		n.keys = append(append(make([]string, 0, len(av.keys)+1), av.keys...), k)
	}
	n.entries[k] = arrayEntry{i, v}
	return value{k: vArray, s: a.s, p: n}
}

// domainSize returns the number of values of a finite sort, or 0 when it
// is infinite or too large to matter.
func (e *evaluator) domainSize(s sortID) int {
	switch e.sorts.kind(s) {
	case skBool:
		return 2
	case skBV:
		if w := e.sorts.width(s); w <= 20 {
			return 1 << uint(w)
		}
	}
	return 0
}

// arrayKey is a canonical text of a table: its default and the entries
// that differ from it; over a small finite index sort (Bool, bit-vectors
// up to 12 bits) the value at every index, since there a table may cover
// every index and its default then does not matter.
func (e *evaluator) arrayKey(v value) string {
	av := v.p.(*arrayVal)
	if av.fn != nil {
		return "(fn " + av.fn.name + ")"
	}
	var sb strings.Builder
	if v.s != noSort {
		idx := e.sorts.info(v.s).args[0]
		if n := e.domainSize(idx); n > 0 && n <= 4096 {
			sb.WriteString("(arr*")
			for i := 0; i < n; i++ {
				var iv value
				if e.sorts.kind(idx) == skBool {
					iv = boolVal(i == 1)
				} else {
					iv = e.mkBV64(uint64(i), e.sorts.width(idx))
				}
				val := av.def
				if en, ok := av.entries[e.valueKey(iv)]; ok {
					val = en.val
				}
				sb.WriteString(" ")
				sb.WriteString(e.valueKey(val))
			}
			sb.WriteString(")")
			return sb.String()
		}
	}
	var ks []string
	defKey := e.valueKey(av.def)
	for k, en := range av.entries {
		if vk := e.valueKey(en.val); vk != defKey {
			ks = append(ks, k+"="+vk)
		}
	}
	sort.Strings(ks)
	sb.WriteString("(arr ")
	sb.WriteString(defKey)
	for _, k := range ks {
		sb.WriteString(" ")
		sb.WriteString(k)
	}
	sb.WriteString(")")
	return sb.String()
}

// lambda makes an array value of z3's (lambda ((x S)) body).
func (e *evaluator) lambda(s *smtlib.Script, t smtlib.Term, envBase int32) value {
	if s.NumChildren(t) != 3 || s.Kind(s.Child(t, 1)) != smtlib.KindList {
		return undefVal(ReasonParseError, "malformed lambda")
	}
	vars := s.Child(t, 1)
	fn := &closure{name: "lambda", s: s, body: s.Child(t, 2), model: s == e.modelScript(), result: noSort}
	var idx []sortID
	for k := 0; k < s.NumChildren(vars); k++ {
		b := s.Child(vars, k)
		if s.Kind(b) != smtlib.KindList || s.NumChildren(b) != 2 {
			return undefVal(ReasonParseError, "malformed lambda parameter")
		}
		ps, err := e.resolveSort(s, s.Child(b, 1))
		if err != nil {
			return undefVal(ReasonSortError, err.Error())
		}
		fn.params = append(fn.params, s.Name(s.Child(b, 0)))
		fn.psorts = append(fn.psorts, ps)
		idx = append(idx, ps)
	}
	if int(envBase) < len(e.binds) {
		return undefVal(ReasonUnsupported, "a lambda under a binder")
	}
	if len(idx) != 1 {
		return undefVal(ReasonUnsupported, "a lambda of several parameters (arrays of several indices)")
	}
	return e.funArray(fn, noSort)
}

// funArray makes an array of a function, as a table when the function's
// body is an ite chain over its parameter (what solvers print).
func (e *evaluator) funArray(fn *closure, s sortID) value {
	if tab, ok := e.tabulate(fn); ok {
		tab.s = s
		return tab
	}
	return value{k: vArray, s: s, p: &arrayVal{fn: fn}}
}

// tabulate reads (ite (= x c1) v1 (ite (= x c2) v2 ... d)) with closed ci,
// vi and d as a table.
func (e *evaluator) tabulate(fn *closure) (value, bool) {
	if len(fn.params) != 1 {
		return value{}, false
	}
	s, t := fn.s, fn.body
	p := fn.params[0]
	closed := func(u smtlib.Term) (value, bool) {
		v := e.eval(s, u, len(e.binds))
		return v, v.k != vUndef
	}
	av := &arrayVal{entries: map[string]arrayEntry{}}
	for steps := 0; steps < 1<<20; steps++ {
		head, first, n := view(s, t)
		if head != smtlib.NoTerm && s.IsSymbol(head, "ite") && n == 3 {
			c := first
			ch, cf, cn := view(s, c)
			if ch == smtlib.NoTerm || !s.IsSymbol(ch, "=") || cn != 2 {
				return value{}, false
			}
			var kt smtlib.Term
			switch {
			case s.IsSymbol(cf, p):
				kt = cf + 1
			case s.IsSymbol(cf+1, p):
				kt = cf
			default:
				return value{}, false
			}
			k, ok1 := closed(kt)
			v, ok2 := closed(first + 1)
			if !ok1 || !ok2 {
				return value{}, false
			}
			kk := e.valueKey(k)
			if _, dup := av.entries[kk]; !dup {
				av.entries[kk] = arrayEntry{k, v}
				av.keys = append(av.keys, kk)
			}
			t = first + 2
			continue
		}
		d, ok := closed(t)
		if !ok {
			return value{}, false
		}
		av.def = d
		return value{k: vArray, p: av}, true
	}
	return value{}, false
}

// indexedConstant evaluates (_ f i ...) used as a constant.
func (e *evaluator) indexedConstant(s *smtlib.Script, t smtlib.Term) value {
	name, idx, nidx, _ := ident(s, t)
	if strings.HasPrefix(name, "bv") && nidx == 1 {
		if w, ok := indexInt(s, idx, nidx, 0); ok {
			if w == 0 || w > maxWidth {
				return undefVal(ReasonResource, "a bit-vector literal of width out of range")
			}
			digits := name[2:]
			if len(digits) > maxDigits {
				return undefVal(ReasonResource, "a bit-vector literal of too many digits")
			}
			b, ok := new(big.Int).SetString(digits, 10)
			if ok {
				return e.mkBV(b, w)
			}
		}
	}
	switch name {
	case "as-array":
		if nidx == 1 && s.Kind(idx) == smtlib.KindSymbol {
			sym := e.syms[s.Name(idx)]
			if sym != nil {
				sym.used = true
				if fn := e.modelFun(sym); fn != nil {
					return e.funArray(fn, noSort)
				}
			}
			return undefVal(ReasonMissingDefinition, "(_ as-array "+s.Name(idx)+"): the model does not define "+s.Name(idx))
		}
	case "+oo", "-oo", "+zero", "-zero", "NaN":
		return e.fpSpecial(s, name, idx, nidx)
	}
	return undefVal(ReasonUnsupported, "indexed constant "+clip(s.TermString(t), 60))
}

// qualifiedConstant evaluates (as c S): cvc5's abstract values (as @U_0 U),
// datatype constructors and any other constant with its sort.
func (e *evaluator) qualifiedConstant(s *smtlib.Script, t smtlib.Term, envBase int32) value {
	name, _, nidx, st := ident(s, t)
	if name == "" || nidx > 0 {
		return undefVal(ReasonUnsupported, "qualified identifier "+clip(s.TermString(t), 60))
	}
	srt, err := e.resolveSort(s, st)
	if err != nil {
		return undefVal(ReasonSortError, err.Error())
	}
	if v, ok := e.lookupBind(name, envBase); ok {
		return e.coerce(v, srt, name)
	}
	if sym := e.syms[name]; sym != nil {
		if sym.ctor != nil && len(sym.ctor.fields) == 0 {
			return e.construct(sym.ctor, nil, srt)
		}
		if sym.abstract != nil {
			return value{k: vAbs, s: srt, p: sym.abstract}
		}
		inner := s.Head(t)
		if s.Kind(t) == smtlib.KindList {
			inner = s.Child(t, 1)
		}
		return e.coerce(e.eval(s, inner, int(envBase)), srt, name)
	}
	if e.sorts.kind(srt) == skUninterp || isAbstractName(name) {
		return e.abstract(name, srt)
	}
	if v, ok := e.theoryConstant(name, s); ok {
		return e.coerce(v, srt, name)
	}
	return undefVal(ReasonUnsupported, "qualified identifier "+clip(s.TermString(t), 60))
}

// typeArray gives an array value built without a sort (z3's as-array and
// lambda, and its ((as const Array) v) inside datatype values) the sort
// want; a table's default, indices and values are coerced to want's.
func (e *evaluator) typeArray(v value, want sortID, what string) value {
	av := v.p.(*arrayVal)
	if e.sorts.kind(want) != skArray {
		return undefVal(ReasonSortError, fmt.Sprintf("%s has sort %s, its value is an array", clip(what, 60), e.sorts.String(want)))
	}
	if av.fn != nil {
		v.s = want
		return v
	}
	si := e.sorts.info(want)
	is, es := si.args[0], si.args[1]
	n := &arrayVal{def: e.coerce(av.def, es, what), keys: av.keys, entries: make(map[string]arrayEntry, len(av.entries))}
	if n.def.k == vUndef {
		return n.def
	}
	for k, en := range av.entries {
		i, x := e.coerce(en.idx, is, what), e.coerce(en.val, es, what)
		if i.k == vUndef {
			return i
		}
		if x.k == vUndef {
			return x
		}
		n.entries[k] = arrayEntry{i, x}
	}
	return value{k: vArray, s: want, p: n}
}

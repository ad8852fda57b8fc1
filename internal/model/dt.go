package model

import (
	"fmt"
	"strings"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// dtInfo is a declared datatype.
type dtInfo struct {
	name   string
	params []string
	ctors  []*ctorInfo
}

type ctorInfo struct {
	name   string
	dt     *dtInfo
	s      *smtlib.Script
	fields []fieldInfo
	sort   sortID // resolved on first use
	ready  bool
	err    error
}

type fieldInfo struct {
	name string
	sort smtlib.Term
	srt  sortID
}

type selInfo struct {
	ctor  *ctorInfo
	index int
}

// declareDatatypes registers (declare-datatype(s) ...) of the benchmark.
func (e *evaluator) declareDatatype(s *smtlib.Script, name string, decl smtlib.Term) error {
	dt := &dtInfo{name: name}
	if s.Kind(decl) == smtlib.KindPar {
		ps := s.Arg(decl, 0)
		for k := 0; k < s.NumArgs(ps); k++ {
			dt.params = append(dt.params, s.Name(s.Arg(ps, k)))
		}
		decl = s.Arg(decl, 1)
	}
	e.tables.dts[name] = dt
	e.forgetCaches() // a symbol may be replaced
	for k := 0; k < s.NumChildren(decl); k++ {
		c := s.Child(decl, k)
		ci := &ctorInfo{dt: dt, s: s}
		switch s.Kind(c) {
		case smtlib.KindSymbol:
			ci.name = s.Name(c)
		case smtlib.KindList:
			if s.NumChildren(c) == 0 {
				return fmt.Errorf("empty constructor declaration")
			}
			ci.name = s.Name(s.Child(c, 0))
			for j := 1; j < s.NumChildren(c); j++ {
				f := s.Child(c, j)
				if s.Kind(f) != smtlib.KindList || s.NumChildren(f) != 2 {
					return fmt.Errorf("malformed selector of %s", ci.name)
				}
				ci.fields = append(ci.fields, fieldInfo{name: s.Name(s.Child(f, 0)), sort: s.Child(f, 1)})
			}
		default:
			return fmt.Errorf("malformed constructor of %s", name)
		}
		dt.ctors = append(dt.ctors, ci)
		e.syms[ci.name] = &symbol{name: ci.name, ctor: ci, mdef: -1}
		e.syms["is-"+ci.name] = &symbol{name: "is-" + ci.name, mdef: -1, sel: &selInfo{ctor: ci, index: -1}}
		for j, f := range ci.fields {
			e.syms[f.name] = &symbol{name: f.name, mdef: -1, sel: &selInfo{ctor: ci, index: j}}
		}
	}
	return nil
}

// ready resolves a constructor's sorts.
func (e *evaluator) readyCtor(c *ctorInfo) error {
	if c.ready {
		return c.err
	}
	c.ready = true
	if len(c.dt.params) > 0 {
		c.err = fmt.Errorf("parametric datatype %s", c.dt.name)
		return c.err
	}
	c.sort = e.sorts.named(skDatatype, c.dt.name, nil)
	for k := range c.fields {
		srt, err := e.resolveSort(c.s, c.fields[k].sort)
		if err != nil {
			c.err = err
			return err
		}
		c.fields[k].srt = srt
	}
	return nil
}

func (e *evaluator) construct(c *ctorInfo, args []value) value {
	if err := e.readyCtor(c); err != nil {
		return undefVal(ReasonUnsupported, err.Error())
	}
	if len(args) != len(c.fields) {
		return undefVal(ReasonSortError, fmt.Sprintf("constructor %s applied to %d arguments", c.name, len(args)))
	}
	d := &dtVal{ctor: c.name, args: make([]value, len(args))}
	for k, a := range args {
		if a.k == vUndef {
			return a
		}
		a = e.coerce(a, c.fields[k].srt, "field "+c.fields[k].name)
		if a.k == vUndef {
			return a
		}
		d.args[k] = a
	}
	return value{k: vDT, s: c.sort, p: d}
}

func (e *evaluator) selectField(sym *symbol, args []value) value {
	if len(args) != 1 {
		return undefVal(ReasonSortError, sym.name+" takes one argument")
	}
	a := args[0]
	if a.k == vUndef {
		return a
	}
	if a.k != vDT {
		return e.sortErr(sym.name, a)
	}
	d := a.p.(*dtVal)
	sel := sym.sel
	if sel.index < 0 { // is-C
		return boolVal(d.ctor == sel.ctor.name)
	}
	if d.ctor != sel.ctor.name {
		return unspecified(sym.name+" "+e.valueKey(a), fmt.Sprintf("selector %s applied to %s, built by %s", sym.name, clip(e.show(a), 60), d.ctor))
	}
	return d.args[sel.index]
}

func (e *evaluator) tester(f *frame, a value) value {
	_, idx, nidx, _ := ident(f.s, f.head)
	if nidx != 1 || a.k != vDT {
		return e.sortErr("(_ is ...)", a)
	}
	return boolVal(a.p.(*dtVal).ctor == f.s.Name(idx))
}

func (e *evaluator) dtKey(v value) string {
	d := v.p.(*dtVal)
	if len(d.args) == 0 {
		return d.ctor
	}
	parts := []string{"(" + d.ctor}
	for _, a := range d.args {
		parts = append(parts, e.valueKey(a))
	}
	return strings.Join(parts, " ") + ")"
}

// resumeMatch evaluates (match t ((p1 t1) ...)): the first pattern that
// matches binds its variables for its term.
func (e *evaluator) resumeMatch(i int) {
	f := &e.frames[i]
	s := f.s
	switch f.state {
	case 0:
		f.state = 1
		e.pushTerm(s, s.Arg(f.t, 0), f.envBase)
	case 1:
		v := e.vals[len(e.vals)-1]
		if v.k == vUndef {
			e.pop(v)
			return
		}
		n := (s.NumArgs(f.t) - 1) / 2
		for k := 0; k < n; k++ {
			p, body := s.Arg(f.t, 1+2*k), s.Arg(f.t, 2+2*k)
			var binds []binding
			ok := false
			switch s.Kind(p) {
			case smtlib.KindSymbol:
				name := s.Name(p)
				if sym := e.syms[name]; sym != nil && sym.ctor != nil {
					ok = v.k == vDT && v.p.(*dtVal).ctor == name
				} else {
					ok = true
					binds = append(binds, binding{name, v})
				}
			case smtlib.KindApp:
				name := s.Name(s.Head(p))
				if v.k == vDT && v.p.(*dtVal).ctor == name && len(v.p.(*dtVal).args) == s.NumArgs(p) {
					ok = true
					for j := 0; j < s.NumArgs(p); j++ {
						binds = append(binds, binding{s.Name(s.Arg(p, j)), v.p.(*dtVal).args[j]})
					}
				}
			}
			if ok {
				e.vals = e.vals[:f.vbase]
				f.bmark = int32(len(e.binds))
				e.binds = append(e.binds, binds...)
				f.state = 2
				e.pushTerm(s, body, f.envBase)
				return
			}
		}
		e.pop(undefVal(ReasonSortError, "no pattern of match matches "+clip(e.show(v), 60)))
	default:
		v := e.vals[len(e.vals)-1]
		e.binds = e.binds[:f.bmark]
		e.pop(v)
	}
}

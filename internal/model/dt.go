package model

import (
	"errors"
	"fmt"
	"strings"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// dtInfo is a declared datatype. A parametric datatype's constructors are
// read once, with each parameter standing for a placeholder sort (skParam);
// an instance such as (List Int) gets its field sorts by substitution.
type dtInfo struct {
	name    string
	params  []string
	psorts  []sortID // the parameters' placeholder sorts
	pattern sortID   // (D P1 ... Pn) over the placeholders; the sort itself if n = 0
	ctors   []*ctorInfo
}

type ctorInfo struct {
	name   string
	dt     *dtInfo
	s      *smtlib.Script
	fields []fieldInfo
	ready  bool
	err    error
	insts  map[sortID][]sortID // field sorts per instance (the one of a non-parametric datatype too)
}

type fieldInfo struct {
	name string
	sort smtlib.Term
	srt  sortID // over the datatype's placeholders
}

type selInfo struct {
	ctor  *ctorInfo
	index int
}

// maxInstKey bounds the text of a datatype instance's sort: a nested
// datatype ((Nest T) with a field of sort (Nest (List T))) makes sorts
// grow with the depth of its values.
const maxInstKey = 4096

var errSortTooLarge = errors.New("a sort larger than the validator takes")

// instErr is the undefined value for an error of instFields.
func instErr(err error, detail string) value {
	if errors.Is(err, errSortTooLarge) {
		return undefVal(ReasonResource, detail)
	}
	return undefVal(ReasonSortError, detail)
}

// declareDatatype registers one datatype of (declare-datatype(s) ...) of
// the benchmark; arity is the number of parameters its declaration
// announces (-1 when it announces none).
func (e *evaluator) declareDatatype(s *smtlib.Script, name string, arity int, decl smtlib.Term) error {
	dt := &dtInfo{name: name}
	if s.Kind(decl) == smtlib.KindPar {
		ps := s.Arg(decl, 0)
		for k := 0; k < s.NumArgs(ps); k++ {
			p := s.Name(s.Arg(ps, k))
			dt.params = append(dt.params, p)
			dt.psorts = append(dt.psorts, e.sorts.intern(sortInfo{kind: skParam, name: p, w: k,
				key: "(par " + name + " " + itoa(k) + " " + p + ")"}))
		}
		decl = s.Arg(decl, 1)
	}
	if arity >= 0 && arity != len(dt.params) {
		return fmt.Errorf("datatype %s is declared with %d parameters and defined with %d", name, arity, len(dt.params))
	}
	dt.pattern = e.sorts.named(skDatatype, name, dt.psorts)
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

// readyCtor resolves a constructor's field sorts, over the datatype's
// placeholders when it has parameters.
func (e *evaluator) readyCtor(c *ctorInfo) error {
	if c.ready {
		return c.err
	}
	c.ready = true
	var params map[string]sortID
	if len(c.dt.params) > 0 {
		params = make(map[string]sortID, len(c.dt.params))
		for k, p := range c.dt.params {
			params[p] = c.dt.psorts[k]
		}
	}
	for k := range c.fields {
		srt, err := e.resolveSortIn(c.s, c.fields[k].sort, params, 0)
		if err != nil {
			c.err = err
			return err
		}
		c.fields[k].srt = srt
	}
	return nil
}

// instFields returns the field sorts of constructor c in instance inst of
// its datatype.
func (e *evaluator) instFields(c *ctorInfo, inst sortID) ([]sortID, error) {
	if fs, ok := c.insts[inst]; ok {
		return fs, nil
	}
	fs := make([]sortID, len(c.fields))
	if inst == c.dt.pattern && len(c.dt.params) == 0 {
		for k, f := range c.fields {
			fs[k] = f.srt
		}
	} else {
		si := e.sorts.info(inst)
		if si.kind != skDatatype || si.name != c.dt.name || len(si.args) != len(c.dt.params) || len(si.args) == 0 {
			return nil, fmt.Errorf("%s is a constructor of %s, not of sort %s", c.name, c.dt.name, e.sorts.String(inst))
		}
		args := si.args
		for k, f := range c.fields {
			fs[k] = e.sorts.subst(f.srt, args)
			if len(e.sorts.String(fs[k])) > maxInstKey {
				return nil, fmt.Errorf("field %s of %s in %s: %w", f.name, c.name, clip(e.sorts.String(inst), 60), errSortTooLarge)
			}
		}
	}
	if c.insts == nil {
		c.insts = map[sortID][]sortID{}
	}
	c.insts[inst] = fs
	return fs, nil
}

// construct applies constructor c to args. want is the instance the
// constructor is qualified with ((as C S)), or noSort: then the instance
// is found by matching the arguments' sorts with the fields' sorts, and a
// value whose parameters the arguments do not all determine (nil, or
// (cons nil nil)) gets no sort until its context gives one (coerce).
func (e *evaluator) construct(c *ctorInfo, args []value, want sortID) value {
	if err := e.readyCtor(c); err != nil {
		return undefVal(ReasonUnsupported, fmt.Sprintf("the fields of constructor %s: %v", c.name, err))
	}
	if len(args) != len(c.fields) {
		return undefVal(ReasonSortError, fmt.Sprintf("constructor %s applied to %d arguments", c.name, len(args)))
	}
	for _, a := range args {
		if a.k == vUndef {
			return a.derived()
		}
	}
	if want == noSort {
		if len(c.dt.params) == 0 {
			want = c.dt.pattern
		} else {
			binds := make([]sortID, len(c.dt.params))
			for k, a := range args {
				e.sorts.unify(c.fields[k].srt, a.s, binds)
			}
			for _, b := range binds {
				if b == noSort {
					return value{k: vDT, p: &dtVal{ctor: c.name, c: c, args: append([]value(nil), args...)}}
				}
			}
			want = e.sorts.named(skDatatype, c.dt.name, binds)
		}
	}
	fs, err := e.instFields(c, want)
	if err != nil {
		return instErr(err, err.Error())
	}
	d := &dtVal{ctor: c.name, c: c, args: make([]value, len(args))}
	for k, a := range args {
		a = e.coerce(a, fs[k], "field "+c.fields[k].name+" of "+c.name)
		if a.k == vUndef {
			return a
		}
		d.args[k] = a
	}
	return value{k: vDT, s: want, p: d}
}

// retype gives a datatype value built without a sort (its parameters
// undetermined) the sort want, and its fields theirs. The value is rebuilt
// top-down with an explicit stack: it may be a million levels deep.
func (e *evaluator) retype(v value, want sortID, what string) value {
	type job struct {
		d    *dtVal // the node without a sort
		want sortID
		what string
		into *value // where its rebuilt value goes
	}
	var root value
	stack := []job{{v.p.(*dtVal), want, what, &root}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := j.d
		fs, err := e.instFields(d.c, j.want)
		if err != nil {
			return instErr(err, fmt.Sprintf("%s has sort %s, its value %s: %v",
				clip(j.what, 60), clip(e.sorts.String(j.want), 80), clip(e.showDT(value{k: vDT, p: d}), 80), err))
		}
		nd := &dtVal{ctor: d.ctor, c: d.c, args: make([]value, len(d.args))}
		*j.into = value{k: vDT, s: j.want, p: nd}
		for k, a := range d.args {
			w := "field " + d.c.fields[k].name + " of " + d.ctor
			if a.k == vDT && a.s == noSort {
				stack = append(stack, job{a.p.(*dtVal), fs[k], w, &nd.args[k]})
				continue
			}
			if a = e.coerce(a, fs[k], w); a.k == vUndef {
				return a
			}
			nd.args[k] = a
		}
	}
	return root
}

func (e *evaluator) selectField(sym *symbol, args []value) value {
	if len(args) != 1 {
		return undefVal(ReasonSortError, sym.name+" takes one argument")
	}
	a := args[0]
	if a.k == vUndef {
		return a.derived()
	}
	sel := sym.sel
	if a.k != vDT || a.p.(*dtVal).c.dt != sel.ctor.dt {
		return e.sortErr(sym.name, a)
	}
	d := a.p.(*dtVal)
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
	name := f.s.Name(idx)
	if sym := e.syms[name]; sym == nil || sym.ctor == nil || sym.ctor.dt != a.p.(*dtVal).c.dt {
		return e.sortErr("(_ is "+clip(name, 60)+")", a)
	}
	return boolVal(a.p.(*dtVal).ctor == name)
}

// writeDT writes datatype value v as its constructor terms, with an
// explicit stack: in time linear in its size however deep it is. leaf
// writes the values that are not datatype values, nullary the
// constructors without fields; it stops once sb holds more than limit
// bytes (limit < 0: never), and reports whether it wrote all of v.
func writeDT(sb *strings.Builder, v value, leaf func(value), nullary func(value, *dtVal), limit int) bool {
	stack := []any{v} // values to write, and strings
	for len(stack) > 0 {
		if limit >= 0 && sb.Len() > limit {
			return false
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := top.(type) {
		case string:
			sb.WriteString(x)
		case value:
			if x.k != vDT {
				leaf(x)
				continue
			}
			d := x.p.(*dtVal)
			if len(d.args) == 0 {
				nullary(x, d)
				continue
			}
			sb.WriteString("(")
			sb.WriteString(d.ctor)
			stack = append(stack, ")")
			for k := len(d.args) - 1; k >= 0; k-- {
				stack = append(stack, d.args[k], " ")
			}
		}
	}
	return true
}

// dtKey is a datatype value's key: its constructor terms with the keys
// of other values at the leaves.
func (e *evaluator) dtKey(v value) string {
	var sb strings.Builder
	writeDT(&sb, v, func(x value) { sb.WriteString(e.valueKey(x)) }, func(_ value, d *dtVal) { sb.WriteString(d.ctor) }, -1)
	return sb.String()
}

// maxShow bounds the text show gives a datatype value.
const maxShow = 200

// showDT prints a datatype value for explanations, cut after maxShow
// bytes, so that a deep value costs no more than its first part.
func (e *evaluator) showDT(v value) string {
	var sb strings.Builder
	complete := writeDT(&sb, v, func(x value) { sb.WriteString(e.show(x)) }, func(x value, d *dtVal) {
		if x.s != noSort && len(d.c.dt.params) > 0 {
			sb.WriteString("(as " + d.ctor + " " + e.sorts.String(x.s) + ")")
		} else {
			sb.WriteString(d.ctor)
		}
	}, maxShow)
	if !complete {
		return clip(sb.String(), maxShow)
	}
	return sb.String()
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
			e.pop(v.derived())
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
				head := s.Head(p)
				sym := e.syms[s.Name(head)]
				if s.Kind(head) != smtlib.KindSymbol || sym == nil || sym.ctor == nil || len(sym.ctor.fields) != s.NumArgs(p) {
					e.pop(undefVal(ReasonSortError, "a pattern of match that is not a constructor applied to its fields' variables: "+clip(s.TermString(p), 60)))
					return
				}
				if v.k == vDT && v.p.(*dtVal).ctor == sym.ctor.name {
					ok = true
					for j := 0; j < s.NumArgs(p); j++ {
						binds = append(binds, binding{s.Name(s.Arg(p, j)), v.p.(*dtVal).args[j]})
					}
				}
			default:
				// (as nil (List Int)) and other forms SMT-LIB 2.6 patterns do
				// not have: skipping one could choose the wrong case.
				e.pop(undefVal(ReasonUnsupported, "a pattern of match of the form "+clip(s.TermString(p), 60)))
				return
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

package smtlib

import (
	"fmt"
	"strconv"
	"strings"
)

// Binding says what a symbol occurrence refers to.
type Binding uint8

// The things a symbol can refer to.
const (
	BindNone        Binding = iota // unresolved: an error was reported
	BindTheory                     // a symbol of a theory (Ref.Theory says which)
	BindDeclared                   // declare-fun, declare-const
	BindDefined                    // define-fun, define-fun-rec, define-funs-rec
	BindNamed                      // the name of a (! t :named n) term
	BindConstructor                // a datatype constructor
	BindSelector                   // a datatype selector
	BindTester                     // (_ is C)
	BindParam                      // a parameter of a defined function
	BindLet                        // a let variable (Ref.Value is its value)
	BindQuantified                 // a variable of forall or exists
	BindMatch                      // a variable of a match pattern
)

// Ref is what the checker resolved a symbol, or the head of an application,
// to.
type Ref struct {
	Bind   Binding
	Theory Theory
	Value  Term // the value of a let variable; NoTerm otherwise
}

type ref struct {
	bind   Binding
	theory Theory
	value  Term
}

// Checked is a sort-checked script: the sort of every term and what every
// symbol refers to. Terms the checker did not visit (attribute values,
// sorts) have NoSort and no Ref.
type Checked struct {
	Script *Script
	// Logic is the logic of the first set-logic command; all theories if
	// there is none.
	Logic Logic
	// Used tells which theories the script's terms use.
	Used [TheoryUF + 1]bool

	sorts *sortTable
	out   []Sort
	refs  []ref
	decls []Decl
}

// SortOf returns the sort of the term t.
func (c *Checked) SortOf(t Term) Sort {
	if t == NoTerm || int(t) >= len(c.out) {
		return NoSort
	}
	return c.out[t]
}

// Ref returns what the symbol t, or the head t of an application, refers to.
func (c *Checked) Ref(t Term) Ref {
	if t == NoTerm || int(t) >= len(c.refs) {
		return Ref{Value: NoTerm}
	}
	r := c.refs[t]
	if r.bind != BindLet {
		r.value = NoTerm
	}
	return Ref{Bind: r.bind, Theory: r.theory, Value: r.value}
}

// Decl is a function symbol the script declares or defines, with its rank:
// what lint needs to judge which sorts a logic's benchmarks may use.
type Decl struct {
	Name   string
	Bind   Binding
	Pos    Pos
	Params []Sort
	Result Sort
}

// Decls returns the symbols the script declares and defines, in order.
func (c *Checked) Decls() []Decl { return c.decls }

// ArrayOf returns the index and element sorts of an array sort.
func (c *Checked) ArrayOf(s Sort) (index, elem Sort, ok bool) {
	if c.sorts.class(s) != classArray {
		return NoSort, NoSort, false
	}
	d := c.sorts.data[s]
	return d.args[0], d.args[1], true
}

// IsFree reports whether s is a sort the script declared (declare-sort).
func (c *Checked) IsFree(s Sort) bool {
	d := c.sorts.data[s]
	return d.class == classUser && d.decl.dt == nil
}

// SortString writes a sort as SMT-LIB does.
func (c *Checked) SortString(s Sort) string { return c.sorts.String(s) }

// IsBitVec reports whether s is a bit-vector sort.
func (c *Checked) IsBitVec(s Sort) bool { return c.sorts.class(s) == classBitVec }

// Check sort-checks a script: every term against the signatures of the
// theories of its logic and of the symbols it declares, with push and pop
// scopes. It returns the checked script and the errors found, sorted by
// position and capped at ten unless mode has AllErrors. It walks terms with an
// explicit stack, so any depth the parser accepts is checked.
func Check(s *Script, mode Mode) (*Checked, error) {
	c := &checker{
		s:      s,
		mode:   mode,
		logic:  allTheories(""),
		sorts:  newSortTable(),
		decls:  make(map[string]*sortDecl),
		funcs:  make(map[string][]*fun),
		locals: make(map[string]int32),
	}
	c.logic.Known = false
	c.out = make([]Sort, len(s.slots))
	c.refs = make([]ref, len(s.slots))
	for _, cmd := range s.cmds {
		if c.full() {
			break
		}
		c.command(cmd)
	}
	c.errs.Sort()
	res := &Checked{Script: s, Logic: c.logic, Used: c.used, sorts: c.sorts, out: c.out, refs: c.refs, decls: c.funDecls}
	return res, c.errs.Err()
}

// fun is a function symbol the script declares or defines.
type fun struct {
	name    string
	bind    Binding
	params  []Sort
	result  Sort
	nparams int // sort parameters of a parametric datatype's symbols
	ctor    *constructor
}

type datatype struct {
	name   string
	params []string
	ctors  []*constructor
}

type constructor struct {
	name   string
	dt     *datatype
	fields []Sort // with the datatype's parameters as classParam sorts
	sels   []string
}

type local struct {
	name string
	sort Sort
	bind Binding
	val  Term
	prev int32
}

// undoRec restores one symbol table entry at pop.
type undoRec struct {
	isSort   bool
	name     string
	prevFuns []*fun
	prevSort *sortDecl
}

type checker struct {
	s        *Script
	mode     Mode
	logic    Logic
	logicSet bool
	sorts    *sortTable
	decls    map[string]*sortDecl
	funcs    map[string][]*fun
	locals   map[string]int32
	lstack   []local
	undo     []undoRec
	levels   []int
	global   bool
	nextID   int
	used     [TheoryUF + 1]bool
	out      []Sort
	refs     []ref
	errs     ErrorList
	stack    []checkFrame
	funDecls []Decl
	argBuf   []Sort
}

func (c *checker) full() bool {
	return c.mode&AllErrors == 0 && len(c.errs) >= maxErrors
}

func (c *checker) errorf(t Term, format string, args ...any) {
	if c.full() {
		return
	}
	c.errs.Add(c.s.Position(c.s.Pos(t)), fmt.Sprintf(format, args...))
}

func (c *checker) errorAt(p Pos, format string, args ...any) {
	if c.full() {
		return
	}
	c.errs.Add(c.s.Position(p), fmt.Sprintf(format, args...))
}

// quoteName writes a symbol in a message: in quotes, and with bars where
// SMT-LIB needs them.
func quoteName(name string) string { return "'" + QuoteSymbol(name) + "'" }

// logicName is how messages name the current logic.
func (c *checker) logicName() string {
	if c.logic.Name == "" {
		return "the logic"
	}
	return "logic " + c.logic.Name
}

func (c *checker) command(cmd Command) {
	s := c.s
	switch cmd.Kind {
	case CmdSetLogic:
		if !c.logicSet {
			c.logic = ParseLogic(s.Name(s.CmdArg(cmd, 0)))
			c.logicSet = true
		}
	case CmdSetOption:
		if s.Name(s.CmdArg(cmd, 0)) == ":global-declarations" && s.CmdNumArgs(cmd) > 1 {
			c.global = s.IsSymbol(s.CmdArg(cmd, 1), "true")
		}
	case CmdDeclareSort:
		name := s.CmdArg(cmd, 0)
		n, ok := c.numeral(s.CmdArg(cmd, 1))
		if !ok {
			return
		}
		c.declareSort(name, &sortDecl{name: s.Name(name), arity: int(n)})
	case CmdDefineSort:
		c.defineSort(cmd)
	case CmdDeclareFun, CmdDeclareConst:
		name := s.CmdArg(cmd, 0)
		var params []Sort
		res := s.CmdArg(cmd, 1)
		if cmd.Kind == CmdDeclareFun {
			list := s.CmdArg(cmd, 1)
			for i := 0; i < s.NumChildren(list); i++ {
				params = append(params, c.sort(s.Child(list, i), nil))
			}
			res = s.CmdArg(cmd, 2)
		}
		c.declareFun(name, &fun{name: s.Name(name), bind: BindDeclared, params: params, result: c.sort(res, nil)})
	case CmdDefineFun, CmdDefineFunRec:
		c.defineFun(cmd.Kind == CmdDefineFunRec, s.CmdArg(cmd, 0), s.CmdArg(cmd, 1), s.CmdArg(cmd, 2), s.CmdArg(cmd, 3))
	case CmdDefineFunsRec:
		c.defineFunsRec(s.CmdArg(cmd, 0), s.CmdArg(cmd, 1))
	case CmdDeclareDatatype:
		name := s.CmdArg(cmd, 0)
		c.declareDatatypes([]Term{name}, []int{-1}, []Term{s.CmdArg(cmd, 1)})
	case CmdDeclareDatatypes:
		heads, decls := s.CmdArg(cmd, 0), s.CmdArg(cmd, 1)
		var names, bodies []Term
		var arities []int
		for i := 0; i < s.NumChildren(heads); i++ {
			h := s.Child(heads, i)
			n, _ := c.numeral(s.Child(h, 1))
			names = append(names, s.Child(h, 0))
			arities = append(arities, int(n))
		}
		for i := 0; i < s.NumChildren(decls); i++ {
			bodies = append(bodies, s.Child(decls, i))
		}
		if len(names) != len(bodies) {
			c.errorAt(cmd.Pos, "declare-datatypes names %d datatypes but declares %d", len(names), len(bodies))
			return
		}
		c.declareDatatypes(names, arities, bodies)
	case CmdAssert:
		t := s.CmdArg(cmd, 0)
		if so := c.term(t); so != NoSort && so != SortBool {
			c.errorf(t, "assertion has sort %s, expected Bool", c.sorts.String(so))
		}
	case CmdCheckSatAssuming:
		list := s.CmdArg(cmd, 0)
		for i := 0; i < s.NumChildren(list); i++ {
			t := s.Child(list, i)
			if so := c.term(t); so != NoSort && so != SortBool {
				c.errorf(t, "assumption has sort %s, expected Bool", c.sorts.String(so))
			}
		}
	case CmdGetValue:
		list := s.CmdArg(cmd, 0)
		for i := 0; i < s.NumChildren(list); i++ {
			c.term(s.Child(list, i))
		}
	case CmdPush:
		n := uint64(1)
		if s.CmdNumArgs(cmd) > 0 {
			n, _ = c.numeral(s.CmdArg(cmd, 0))
		}
		for ; n > 0 && len(c.levels) < 1<<20; n-- {
			c.levels = append(c.levels, len(c.undo))
		}
	case CmdPop:
		n := uint64(1)
		if s.CmdNumArgs(cmd) > 0 {
			n, _ = c.numeral(s.CmdArg(cmd, 0))
		}
		for ; n > 0 && len(c.levels) > 0; n-- {
			c.popLevel()
		}
	case CmdResetAssertions:
		for len(c.levels) > 0 {
			c.popLevel()
		}
		if !c.global {
			c.undoTo(0)
		}
	case CmdReset:
		c.levels, c.undo, c.global = nil, nil, false
		c.decls = make(map[string]*sortDecl)
		c.funcs = make(map[string][]*fun)
		c.logicSet = false
		c.logic = allTheories("")
		c.logic.Known = false
	}
}

func (c *checker) popLevel() {
	at := c.levels[len(c.levels)-1]
	c.levels = c.levels[:len(c.levels)-1]
	if !c.global {
		c.undoTo(at)
	}
}

func (c *checker) undoTo(n int) {
	for len(c.undo) > n {
		u := c.undo[len(c.undo)-1]
		c.undo = c.undo[:len(c.undo)-1]
		switch {
		case u.isSort && u.prevSort == nil:
			delete(c.decls, u.name)
		case u.isSort:
			c.decls[u.name] = u.prevSort
		case u.prevFuns == nil:
			delete(c.funcs, u.name)
		default:
			c.funcs[u.name] = u.prevFuns
		}
	}
}

// numeral reads a numeral term (an index, an arity, a push level).
func (c *checker) numeral(t Term) (uint64, bool) {
	if c.s.Kind(t) != KindNumeral {
		c.errorf(t, "expected a numeral")
		return 0, false
	}
	n, err := strconv.ParseUint(c.s.Name(t), 10, 64)
	if err != nil {
		c.errorf(t, "numeral %s is too large", c.s.Name(t))
		return 0, false
	}
	return n, true
}

// builtinSort says which theory defines a sort symbol.
func builtinSort(name string) (Sort, Theory, bool) {
	switch name {
	case "Bool":
		return SortBool, TheoryCore, true
	case "Int":
		return SortInt, TheoryInts, true
	case "Real":
		return SortReal, TheoryReals, true
	case "String":
		return SortString, TheoryStrings, true
	case "RegLan":
		return SortRegLan, TheoryStrings, true
	case "RoundingMode":
		return SortRoundingMode, TheoryFloats, true
	case "Float16", "Float32", "Float64", "Float128", "Array", "BitVec", "FloatingPoint":
		return NoSort, TheoryNone, true
	}
	return NoSort, TheoryNone, false
}

// sortAllowed reports whether the logic has the theory of a built-in sort.
func (c *checker) sortAllowed(th Theory) bool {
	switch th {
	case TheoryInts:
		return c.logic.Ints
	case TheoryReals:
		return c.logic.Reals || c.logic.Floats
	case TheoryBitVectors:
		return c.logic.BitVectors || c.logic.Floats
	}
	return c.logic.has(th)
}

func (c *checker) declareSort(name Term, d *sortDecl) {
	n := d.name
	if _, _, ok := builtinSort(n); ok {
		c.errorf(name, "sort %s is predefined and cannot be declared", quoteName(n))
		return
	}
	if c.decls[n] != nil {
		c.errorf(name, "sort %s is already declared", quoteName(n))
		return
	}
	c.nextID++
	d.id = c.nextID
	c.undo = append(c.undo, undoRec{isSort: true, name: n})
	c.decls[n] = d
}

func (c *checker) defineSort(cmd Command) {
	s := c.s
	name, params, body := s.CmdArg(cmd, 0), s.CmdArg(cmd, 1), s.CmdArg(cmd, 2)
	d := &sortDecl{name: s.Name(name), macro: true, body: body}
	env := map[string]Sort{}
	for i := 0; i < s.NumChildren(params); i++ {
		p := s.Name(s.Child(params, i))
		d.params = append(d.params, p)
		env[p] = c.sorts.intern(sortData{class: classParam, n: uint32(i), name: p})
	}
	d.arity = len(d.params)
	if c.sort(body, env) == NoSort {
		return
	}
	c.declareSort(name, d)
}

// sortFrame is one pending sort term of the iterative sort resolver.
type sortFrame struct {
	t    Term
	done bool
}

// sort resolves a sort term. env binds sort parameters (of define-sort and
// par); it may be nil.
func (c *checker) sort(root Term, env map[string]Sort) Sort {
	s := c.s
	stack := []sortFrame{{t: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t := f.t
		switch s.Kind(t) {
		case KindSymbol:
			c.out[t] = c.sortSymbol(t, s.Name(t), nil, env)
		case KindIndexed:
			c.out[t] = c.indexedSort(t)
		case KindApp:
			if !f.done {
				stack = append(stack, sortFrame{t: t, done: true})
				for i := s.NumArgs(t) - 1; i >= 0; i-- {
					stack = append(stack, sortFrame{t: s.Arg(t, i)})
				}
				continue
			}
			head := s.Head(t)
			if s.Kind(head) != KindSymbol {
				c.errorf(head, "expected a sort symbol")
				c.out[t] = NoSort
				continue
			}
			args := make([]Sort, s.NumArgs(t))
			ok := true
			for i := range args {
				args[i] = c.out[s.Arg(t, i)]
				ok = ok && args[i] != NoSort
			}
			if !ok {
				c.out[t] = NoSort
				continue
			}
			c.out[t] = c.sortSymbol(head, s.Name(head), args, env)
		default:
			c.errorf(t, "expected a sort, found %s", s.Kind(t))
			c.out[t] = NoSort
		}
	}
	so := c.out[root]
	c.out[root] = NoSort // sorts are not terms: SortOf gives NoSort for them
	return so
}

func (c *checker) sortSymbol(t Term, name string, args []Sort, env map[string]Sort) Sort {
	if p, ok := env[name]; ok {
		if len(args) > 0 {
			c.errorf(t, "sort parameter %s takes no arguments", quoteName(name))
			return NoSort
		}
		return p
	}
	if so, th, ok := builtinSort(name); ok {
		if th == TheoryNone {
			th = TheoryFloats
			switch name {
			case "Array":
				th = TheoryArrays
			case "BitVec", "FloatingPoint":
				c.errorf(t, "sort %s needs indices: (_ %s ...)", name, name)
				return NoSort
			}
		}
		if !c.sortAllowed(th) {
			c.errorf(t, "sort %s (%s) is not in %s", name, th, c.logicName())
			return NoSort
		}
		switch name {
		case "Array":
			if len(args) != 2 {
				c.errorf(t, "sort Array takes 2 arguments, got %d", len(args))
				return NoSort
			}
			return c.sorts.array(args[0], args[1])
		case "Float16":
			so = c.sorts.float(5, 11)
		case "Float32":
			so = c.sorts.float(8, 24)
		case "Float64":
			so = c.sorts.float(11, 53)
		case "Float128":
			so = c.sorts.float(15, 113)
		}
		if len(args) > 0 {
			c.errorf(t, "sort %s takes no arguments", name)
			return NoSort
		}
		return so
	}
	d := c.decls[name]
	if d == nil {
		c.errorf(t, "unknown sort %s", quoteName(name))
		return NoSort
	}
	if len(args) != d.arity {
		c.errorf(t, "sort %s takes %s, got %d", quoteName(name), plural(d.arity, "argument"), len(args))
		return NoSort
	}
	if d.macro {
		menv := make(map[string]Sort, len(d.params))
		for i, p := range d.params {
			menv[p] = args[i]
		}
		return c.sort(d.body, menv)
	}
	return c.sorts.intern(sortData{class: classUser, decl: d, args: args})
}

func (c *checker) indexedSort(t Term) Sort {
	s := c.s
	name := s.Name(s.Head(t))
	idx, ok := c.indices(t)
	if !ok {
		return NoSort
	}
	switch name {
	case "BitVec":
		if !c.sortAllowed(TheoryBitVectors) {
			c.errorf(t, "sort BitVec (%s) is not in %s", TheoryBitVectors, c.logicName())
			return NoSort
		}
		if len(idx) != 1 || idx[0] == 0 || idx[0] > maxWidth {
			c.errorf(t, "BitVec takes one index of at least 1")
			return NoSort
		}
		return c.sorts.bitVec(uint32(idx[0]))
	case "FloatingPoint":
		if !c.sortAllowed(TheoryFloats) {
			c.errorf(t, "sort FloatingPoint (%s) is not in %s", TheoryFloats, c.logicName())
			return NoSort
		}
		if len(idx) != 2 {
			c.errorf(t, "FloatingPoint takes two indices")
			return NoSort
		}
		so, msg := c.floatSort(idx[0], idx[1])
		if msg != "" {
			c.errorf(t, "%s", msg)
		}
		return so
	}
	c.errorf(t, "unknown sort %s", quoteName(name))
	return NoSort
}

// indices reads the numeral indices of an indexed identifier.
func (c *checker) indices(t Term) ([]uint64, bool) {
	s := c.s
	idx := make([]uint64, s.NumArgs(t))
	for i := range idx {
		n, ok := c.numeral(s.Arg(t, i))
		if !ok {
			return nil, false
		}
		idx[i] = n
	}
	return idx, true
}

// declared reports whether name is already a function symbol in scope:
// declared by the script, or a theory symbol of the logic.
func (c *checker) declared(name string) bool {
	if len(c.funcs[name]) > 0 {
		return true
	}
	o, ok := ops()[name]
	return ok && o.indices < 0 && c.logic.has(o.theory)
}

func (c *checker) declareFun(name Term, f *fun) {
	if c.declared(f.name) {
		c.errorf(name, "%s is already declared", quoteName(f.name))
		return
	}
	for _, p := range f.params {
		if p == NoSort {
			return
		}
	}
	if f.result == NoSort {
		return
	}
	c.addFun(f)
	c.funDecls = append(c.funDecls, Decl{Name: f.name, Bind: f.bind, Pos: c.s.Pos(name), Params: f.params, Result: f.result})
}

func (c *checker) addFun(f *fun) {
	prev := c.funcs[f.name]
	c.undo = append(c.undo, undoRec{name: f.name, prevFuns: prev})
	c.funcs[f.name] = append(prev[:len(prev):len(prev)], f)
}

// bindParams binds the sorted variables ((x S) ...) of a definition or
// quantifier as locals and returns their sorts.
func (c *checker) bindParams(list Term, bind Binding) ([]Sort, bool) {
	s := c.s
	var sorts []Sort
	ok := true
	for i := 0; i < s.NumChildren(list); i++ {
		sv := s.Child(list, i)
		v, so := s.Child(sv, 0), c.sort(s.Child(sv, 1), nil)
		ok = ok && so != NoSort
		c.pushLocal(v, so, bind, NoTerm)
		sorts = append(sorts, so)
	}
	return sorts, ok
}

func (c *checker) pushLocal(v Term, so Sort, bind Binding, val Term) {
	name := c.s.Name(v)
	prev, ok := c.locals[name]
	if !ok {
		prev = -1
	}
	c.locals[name] = int32(len(c.lstack))
	c.lstack = append(c.lstack, local{name: name, sort: so, bind: bind, val: val, prev: prev})
	c.out[v] = so
	c.refs[v] = ref{bind: bind, value: val}
}

func (c *checker) popLocals(base int) {
	for len(c.lstack) > base {
		l := c.lstack[len(c.lstack)-1]
		c.lstack = c.lstack[:len(c.lstack)-1]
		if l.prev < 0 {
			delete(c.locals, l.name)
		} else {
			c.locals[l.name] = l.prev
		}
	}
}

func (c *checker) defineFun(rec bool, name, params, result, body Term) {
	base := len(c.lstack)
	sorts, ok := c.bindParams(params, BindParam)
	res := c.sort(result, nil)
	f := &fun{name: c.s.Name(name), bind: BindDefined, params: sorts, result: res}
	if rec && ok && res != NoSort {
		c.declareFun(name, f)
	}
	if got := c.term(body); got != NoSort && res != NoSort && got != res {
		c.errorf(body, "body of %s has sort %s, expected %s", quoteName(f.name), c.sorts.String(got), c.sorts.String(res))
	}
	c.popLocals(base)
	if !rec && ok && res != NoSort {
		c.declareFun(name, f)
	}
}

func (c *checker) defineFunsRec(decls, bodies Term) {
	s := c.s
	n := s.NumChildren(decls)
	if n != s.NumChildren(bodies) {
		c.errorf(bodies, "define-funs-rec declares %d functions but gives %d bodies", n, s.NumChildren(bodies))
		return
	}
	funs := make([]*fun, n)
	for i := range n {
		d := s.Child(decls, i)
		base := len(c.lstack)
		sorts, _ := c.bindParams(s.Child(d, 1), BindParam)
		c.popLocals(base)
		funs[i] = &fun{name: s.Name(s.Child(d, 0)), bind: BindDefined, params: sorts, result: c.sort(s.Child(d, 2), nil)}
		c.declareFun(s.Child(d, 0), funs[i])
	}
	for i := range n {
		d := s.Child(decls, i)
		base := len(c.lstack)
		c.bindParams(s.Child(d, 1), BindParam)
		body := s.Child(bodies, i)
		if got := c.term(body); got != NoSort && funs[i].result != NoSort && got != funs[i].result {
			c.errorf(body, "body of %s has sort %s, expected %s", quoteName(funs[i].name),
				c.sorts.String(got), c.sorts.String(funs[i].result))
		}
		c.popLocals(base)
	}
}

// declareDatatypes declares mutually recursive datatypes: first the sort
// symbols, then their constructors, selectors and testers. arity -1 means
// "as the body says" (declare-datatype).
func (c *checker) declareDatatypes(names []Term, arities []int, bodies []Term) {
	s := c.s
	if !c.logic.Datatypes {
		c.errorf(names[0], "datatypes are not in %s", c.logicName())
	}
	dts := make([]*datatype, len(names))
	for i, n := range names {
		body := bodies[i]
		dt := &datatype{name: s.Name(n)}
		if s.Kind(body) == KindPar {
			ps := s.Arg(body, 0)
			for j := 0; j < s.NumChildren(ps); j++ {
				dt.params = append(dt.params, s.Name(s.Child(ps, j)))
			}
		}
		if arities[i] >= 0 && arities[i] != len(dt.params) {
			c.errorf(n, "datatype %s is declared with %d parameters but its definition has %d",
				quoteName(dt.name), arities[i], len(dt.params))
		}
		dts[i] = dt
		c.declareSort(n, &sortDecl{name: dt.name, arity: len(dt.params), dt: dt})
	}
	for i, dt := range dts {
		body := bodies[i]
		env := map[string]Sort{}
		if s.Kind(body) == KindPar {
			for j, p := range dt.params {
				env[p] = c.sorts.intern(sortData{class: classParam, n: uint32(j), name: p})
			}
			body = s.Arg(body, 1)
		}
		d := c.decls[dt.name]
		if d == nil || d.dt != dt {
			continue // the sort name was rejected
		}
		self := c.sorts.intern(sortData{class: classUser, decl: d, args: paramSorts(c.sorts, dt.params)})
		for j := 0; j < s.NumChildren(body); j++ {
			c.declareConstructor(dt, self, s.Child(body, j), env)
		}
		if len(dt.ctors) == 0 {
			c.errorf(names[i], "datatype %s has no constructors", quoteName(dt.name))
		}
	}
}

func paramSorts(t *sortTable, params []string) []Sort {
	out := make([]Sort, len(params))
	for i, p := range params {
		out[i] = t.intern(sortData{class: classParam, n: uint32(i), name: p})
	}
	return out
}

func (c *checker) declareConstructor(dt *datatype, self Sort, ct Term, env map[string]Sort) {
	s := c.s
	if s.Kind(ct) != KindList || s.NumChildren(ct) == 0 {
		c.errorf(ct, "expected a constructor declaration (C (sel S) ...)")
		return
	}
	name := s.Child(ct, 0)
	k := &constructor{name: s.Name(name), dt: dt}
	for i := 1; i < s.NumChildren(ct); i++ {
		sel := s.Child(ct, i)
		so := c.sort(s.Child(sel, 1), env)
		if so == NoSort {
			return
		}
		k.fields = append(k.fields, so)
		k.sels = append(k.sels, s.Name(s.Child(sel, 0)))
	}
	np := len(dt.params)
	if len(c.funcs[k.name]) > 0 && c.funcs[k.name][0].bind != BindConstructor || c.declaredTheory(k.name) {
		c.errorf(name, "%s is already declared", quoteName(k.name))
		return
	}
	dt.ctors = append(dt.ctors, k)
	c.addFun(&fun{name: k.name, bind: BindConstructor, params: k.fields, result: self, nparams: np, ctor: k})
	for i, sel := range k.sels {
		f := &fun{name: sel, bind: BindSelector, params: []Sort{self}, result: k.fields[i], nparams: np, ctor: k}
		if c.declared(sel) {
			c.errorf(s.Child(s.Child(ct, i+1), 0), "%s is already declared", quoteName(sel))
			continue
		}
		c.addFun(f)
	}
}

func (c *checker) declaredTheory(name string) bool {
	o, ok := ops()[name]
	return ok && o.indices < 0 && c.logic.has(o.theory)
}

// The phases of a term on the checker's stack.
const (
	phVisit uint8 = iota
	phApp
	phLetBody
	phLetEnd
	phQuantEnd
	phMatchCase
	phMatchCaseEnd
	phAnnot
)

type checkFrame struct {
	t     Term
	phase uint8
	i     uint32
	base  uint32
}

func (c *checker) push(t Term, phase uint8, i, base int) {
	c.stack = append(c.stack, checkFrame{t: t, phase: phase, i: uint32(i), base: uint32(base)})
}

// term checks a term and returns its sort (NoSort after an error).
func (c *checker) term(root Term) Sort {
	s := c.s
	floor := len(c.stack)
	c.push(root, phVisit, 0, 0)
	for len(c.stack) > floor {
		f := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		t := f.t
		switch f.phase {
		case phVisit:
			c.visit(t)
		case phApp:
			c.out[t] = c.app(t)
		case phLetBody:
			n := (s.NumArgs(t) - 1) / 2
			base := len(c.lstack)
			// The variables of one let are pairwise distinct (SMT-LIB
			// 2.6, 3.6.1: the bindings are parallel). Solvers take the
			// last of two, and so do we after the error; a scrambler,
			// which shuffles bindings, changes such a term's meaning.
			for i := range n {
				v, val := s.Arg(t, 2*i), s.Arg(t, 2*i+1)
				if j, ok := c.locals[s.Name(v)]; ok && int(j) >= base {
					c.errorf(v, "let binds %s twice (the variables of one let must be pairwise distinct)", s.Name(v))
				}
				c.pushLocal(v, c.out[val], BindLet, val)
			}
			c.push(t, phLetEnd, 0, base)
			c.push(s.Arg(t, 2*n), phVisit, 0, 0)
		case phLetEnd:
			c.popLocals(int(f.base))
			c.out[t] = c.out[s.Arg(t, s.NumArgs(t)-1)]
		case phQuantEnd:
			c.popLocals(int(f.base))
			body := s.Arg(t, s.NumArgs(t)-1)
			c.out[t] = SortBool
			if so := c.out[body]; so != SortBool {
				if so != NoSort {
					c.errorf(body, "quantifier body has sort %s, expected Bool", c.sorts.String(so))
				}
				c.out[t] = NoSort
			}
		case phMatchCase:
			c.matchCase(t, int(f.i))
		case phMatchCaseEnd:
			c.popLocals(int(f.base))
			c.push(t, phMatchCase, int(f.i)+1, 0)
		case phAnnot:
			c.annotation(t)
		}
	}
	return c.out[root]
}

func (c *checker) visit(t Term) {
	s := c.s
	switch k := s.Kind(t); k {
	case KindSymbol:
		c.out[t] = c.symbol(t)
	case KindNumeral, KindDecimal, KindHex, KindBinary, KindString:
		c.out[t] = c.constant(t, k)
	case KindIndexed, KindQualified:
		c.out[t] = c.resolve(t, t, nil)
	case KindApp:
		c.push(t, phApp, 0, 0)
		for i := s.NumArgs(t) - 1; i >= 0; i-- {
			c.push(s.Arg(t, i), phVisit, 0, 0)
		}
	case KindLet:
		c.push(t, phLetBody, 0, 0)
		n := (s.NumArgs(t) - 1) / 2
		for i := n - 1; i >= 0; i-- {
			c.push(s.Arg(t, 2*i+1), phVisit, 0, 0)
		}
	case KindForall, KindExists:
		if !c.logic.Quantifiers {
			// Reported here once per quantifier: lint and the sort
			// checker agree that QF_ logics have none.
			c.errorf(t, "quantifier in quantifier-free %s", c.logicName())
		}
		base := len(c.lstack)
		n := (s.NumArgs(t) - 1) / 2
		for i := range n {
			v := s.Arg(t, 2*i)
			c.pushLocal(v, c.sort(s.Arg(t, 2*i+1), nil), BindQuantified, NoTerm)
		}
		c.push(t, phQuantEnd, 0, base)
		c.push(s.Arg(t, 2*n), phVisit, 0, 0)
	case KindMatch:
		if !c.logic.Datatypes {
			c.errorf(t, "match needs datatypes, which are not in %s", c.logicName())
		}
		c.push(t, phMatchCase, 0, 0)
		c.push(s.Arg(t, 0), phVisit, 0, 0)
	case KindAnnotated:
		c.push(t, phAnnot, 0, 0)
		for i := 1; i+1 < s.NumArgs(t); i += 2 {
			key, val := s.Arg(t, i), s.Arg(t, i+1)
			switch s.Name(key) {
			case ":pattern":
				for j := s.NumChildren(val) - 1; j >= 0; j-- {
					c.push(s.Child(val, j), phVisit, 0, 0)
				}
			case ":no-pattern":
				c.push(val, phVisit, 0, 0)
			}
		}
		c.push(s.Arg(t, 0), phVisit, 0, 0)
	default:
		c.errorf(t, "expected a term, found %s", k)
		c.out[t] = NoSort
	}
}

// constant gives the sort of a literal in the current logic.
func (c *checker) constant(t Term, k Kind) Sort {
	text := c.s.Name(t)
	switch k {
	case KindNumeral:
		switch {
		case c.logic.Ints:
			c.use(TheoryInts)
			c.refs[t] = ref{bind: BindTheory, theory: TheoryInts}
			return SortInt
		case c.logic.Reals:
			c.use(TheoryReals)
			c.refs[t] = ref{bind: BindTheory, theory: TheoryReals}
			return SortReal
		}
		c.errorf(t, "numeral %s in %s, which has no arithmetic", text, c.logicName())
	case KindDecimal:
		if c.logic.Reals || c.logic.Floats {
			c.use(TheoryReals)
			c.refs[t] = ref{bind: BindTheory, theory: TheoryReals}
			return SortReal
		}
		c.errorf(t, "decimal %s in %s, which has no reals", text, c.logicName())
	case KindHex, KindBinary:
		if c.logic.BitVectors || c.logic.Floats {
			c.use(TheoryBitVectors)
			w := len(text) - 2
			if k == KindHex {
				w *= 4
			}
			if w == 0 {
				c.errorf(t, "empty bit-vector literal")
				return NoSort
			}
			return c.sorts.bitVec(uint32(w))
		}
		c.errorf(t, "bit-vector literal in %s, which has no bit-vectors", c.logicName())
	case KindString:
		if c.logic.Strings {
			c.use(TheoryStrings)
			return SortString
		}
		c.errorf(t, "string literal in %s, which has no strings", c.logicName())
	}
	return NoSort
}

func (c *checker) use(th Theory) { c.used[th] = true }

// symbol resolves a symbol used as a term: a variable, a constant the
// script declares, or a theory constant.
func (c *checker) symbol(t Term) Sort {
	name := c.s.Name(t)
	if i, ok := c.locals[name]; ok {
		l := &c.lstack[i]
		c.refs[t] = ref{bind: l.bind, value: l.val}
		return l.sort
	}
	return c.resolve(t, t, nil)
}

// resolve finds the function an identifier names, given the sorts of its
// arguments, and returns the sort of the application. at is the term the
// result belongs to (for errors); id is a symbol, indexed or qualified
// identifier.
func (c *checker) resolve(at, id Term, args []Sort) Sort {
	s := c.s
	as := NoSort
	if s.Kind(id) == KindQualified {
		as = c.sort(s.Arg(id, 0), nil)
		if as == NoSort {
			return NoSort
		}
		id = s.Head(id)
	}
	var name string
	var idx []uint64
	indexed := false
	switch s.Kind(id) {
	case KindSymbol:
		name = s.Name(id)
	case KindIndexed:
		indexed = true
		name = s.Name(s.Head(id))
		if name == "is" {
			return c.tester(at, id, args)
		}
		var ok bool
		if idx, ok = c.indices(id); !ok {
			return NoSort
		}
	default:
		c.errorf(id, "expected a function symbol, found %s", s.Kind(id))
		return NoSort
	}
	head := id
	if s.Kind(at) == KindApp {
		head = s.Head(at)
	}
	if !indexed {
		if _, ok := c.locals[name]; ok && len(args) > 0 {
			c.errorf(id, "%s is a variable and cannot be applied to arguments", quoteName(name))
			return NoSort
		}
		if fs := c.funcs[name]; len(fs) > 0 {
			return c.applyUser(at, head, fs, args, as)
		}
	}
	if indexed && len(args) == 0 && strings.HasPrefix(name, "bv") && len(idx) == 1 {
		if isDigits(name[2:]) {
			return c.bvConst(at, head, idx[0])
		}
	}
	o, ok := ops()[name]
	if !ok || (o.indices >= 0) != indexed {
		switch {
		case ok && indexed:
			c.errorf(id, "%s is not an indexed symbol", quoteName(name))
		case ok:
			c.errorf(id, "%s needs indices: (_ %s ...)", quoteName(name), name)
		case indexed:
			c.errorf(id, "unknown indexed symbol %s", quoteName(name))
		case len(args) == 0:
			c.errorf(id, "unknown constant %s", quoteName(name))
		default:
			c.errorf(id, "unknown function symbol %s", quoteName(name))
		}
		return NoSort
	}
	if indexed && len(idx) != o.indices {
		c.errorf(id, "%s takes %s, got %d", quoteName(name), plural(o.indices, "index"), len(idx))
		return NoSort
	}
	call := opCall{name: name, idx: idx, args: args, as: as}
	res, th, msg := o.check(c, &call)
	if msg != "" {
		c.errorf(head, "%s: %s", quoteName(name), msg)
		return NoSort
	}
	if th == TheoryNone {
		th = o.theory
	}
	if !c.theoryAllowed(th) {
		c.errorf(head, "%s (%s) is not in %s", quoteName(name), th, c.logicName())
		return NoSort
	}
	c.use(th)
	c.refs[head] = ref{bind: BindTheory, theory: th}
	if as != NoSort && as != res {
		c.errorf(at, "%s has sort %s, not %s", quoteName(name), c.sorts.String(res), c.sorts.String(as))
		return NoSort
	}
	return res
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// theoryAllowed reports whether symbols of th may be used in the logic.
// Floats use the bit-vector symbols they are built from (fp takes
// bit-vectors) only through literals, so this is the plain membership test.
func (c *checker) theoryAllowed(th Theory) bool {
	return c.logic.has(th)
}

func (c *checker) bvConst(at, head Term, width uint64) Sort {
	if !c.logic.BitVectors && !c.logic.Floats {
		c.errorf(at, "bit-vector constant in %s, which has no bit-vectors", c.logicName())
		return NoSort
	}
	if width == 0 || width > maxWidth {
		c.errorf(at, "bit-vector width must be at least 1")
		return NoSort
	}
	c.use(TheoryBitVectors)
	c.refs[head] = ref{bind: BindTheory, theory: TheoryBitVectors}
	return c.sorts.bitVec(uint32(width))
}

// applyUser applies a symbol the script declared. Only datatype
// constructors may be overloaded (by different datatypes); the arguments,
// or an (as f S) qualification, choose among them.
func (c *checker) applyUser(at, head Term, fs []*fun, args []Sort, as Sort) Sort {
	var firstMsg string
	for _, f := range fs {
		res, msg := c.applyFun(f, args, as)
		if msg == "" {
			c.refs[head] = ref{bind: f.bind}
			if f.bind == BindDeclared && len(f.params) > 0 {
				c.use(TheoryUF)
			}
			if f.ctor != nil {
				c.use(TheoryDatatypes)
			}
			return res
		}
		if firstMsg == "" {
			firstMsg = msg
		}
	}
	c.errorf(head, "%s: %s", quoteName(fs[0].name), firstMsg)
	return NoSort
}

func (c *checker) applyFun(f *fun, args []Sort, as Sort) (Sort, string) {
	if len(args) != len(f.params) {
		if len(f.params) == 0 {
			return NoSort, fmt.Sprintf("is a constant, applied to %s", plural(len(args), "argument"))
		}
		return NoSort, fmt.Sprintf("expects %s, got %d", plural(len(f.params), "argument"), len(args))
	}
	if f.nparams == 0 {
		for i, a := range args {
			if a != f.params[i] {
				return NoSort, fmt.Sprintf("argument %d has sort %s, expected %s", i+1,
					c.sorts.String(a), c.sorts.String(f.params[i]))
			}
		}
		if as != NoSort && as != f.result {
			return NoSort, fmt.Sprintf("has sort %s, not %s", c.sorts.String(f.result), c.sorts.String(as))
		}
		return f.result, ""
	}
	env := make([]Sort, f.nparams)
	for i, a := range args {
		if !c.sorts.match(f.params[i], a, env) {
			return NoSort, fmt.Sprintf("argument %d has sort %s, expected %s", i+1,
				c.sorts.String(a), c.sorts.String(c.sorts.subst(f.params[i], env)))
		}
	}
	if as != NoSort && !c.sorts.match(f.result, as, env) {
		return NoSort, fmt.Sprintf("has sort %s, not %s", c.sorts.String(c.sorts.subst(f.result, env)), c.sorts.String(as))
	}
	res := c.sorts.subst(f.result, env)
	if c.sorts.hasParams(res) {
		return NoSort, fmt.Sprintf("has an ambiguous sort %s: qualify it with (as %s S)",
			c.sorts.String(res), QuoteSymbol(f.name))
	}
	return res, ""
}

// tester checks ((_ is C) t).
func (c *checker) tester(at, id Term, args []Sort) Sort {
	s := c.s
	if s.NumArgs(id) != 1 || s.Kind(s.Arg(id, 0)) != KindSymbol {
		c.errorf(id, "a tester is written (_ is C) with a constructor C")
		return NoSort
	}
	name := s.Name(s.Arg(id, 0))
	var ctor *fun
	for _, f := range c.funcs[name] {
		if f.bind == BindConstructor {
			ctor = f
			break
		}
	}
	if ctor == nil {
		c.errorf(id, "%s is not a constructor", quoteName(name))
		return NoSort
	}
	if len(args) != 1 {
		c.errorf(id, "tester expects 1 argument, got %d", len(args))
		return NoSort
	}
	env := make([]Sort, ctor.nparams)
	if !c.sorts.match(ctor.result, args[0], env) {
		c.errorf(id, "tester of %s applied to sort %s", quoteName(name), c.sorts.String(args[0]))
		return NoSort
	}
	c.use(TheoryDatatypes)
	head := id
	if s.Kind(at) == KindApp {
		head = s.Head(at)
	}
	c.refs[head] = ref{bind: BindTester}
	return SortBool
}

// app checks an application once its arguments are checked.
func (c *checker) app(t Term) Sort {
	s := c.s
	n := s.NumArgs(t)
	args := c.argBuf[:0]
	for i := range n {
		so := c.out[s.Arg(t, i)]
		if so == NoSort {
			c.argBuf = args
			return NoSort
		}
		args = append(args, so)
	}
	c.argBuf = args
	if n == 0 {
		c.errorf(t, "application without arguments")
		return NoSort
	}
	// Copy: resolve may check nested sorts that reuse argBuf.
	return c.resolve(t, s.Head(t), append([]Sort(nil), args...))
}

// matchCase checks case i of a match term (or finishes it once all cases
// are checked).
func (c *checker) matchCase(t Term, i int) {
	s := c.s
	n := (s.NumArgs(t) - 1) / 2
	scrut := c.out[s.Arg(t, 0)]
	if scrut == NoSort {
		c.out[t] = NoSort
		return
	}
	d := c.sorts.data[scrut]
	if d.class != classUser || d.decl.dt == nil {
		c.errorf(s.Arg(t, 0), "match on sort %s, which is not a datatype", c.sorts.String(scrut))
		c.out[t] = NoSort
		return
	}
	if i == n {
		res := NoSort
		for j := range n {
			so := c.out[s.Arg(t, 2+2*j)]
			if so == NoSort {
				c.out[t] = NoSort
				return
			}
			if res == NoSort {
				res = so
			} else if so != res {
				c.errorf(s.Arg(t, 2+2*j), "match case has sort %s, the first case %s", c.sorts.String(so), c.sorts.String(res))
				c.out[t] = NoSort
				return
			}
		}
		c.out[t] = res
		return
	}
	base := len(c.lstack)
	pat, body := s.Arg(t, 1+2*i), s.Arg(t, 2+2*i)
	c.bindPattern(pat, d)
	c.push(t, phMatchCaseEnd, i, base)
	c.push(body, phVisit, 0, 0)
}

func (c *checker) bindPattern(pat Term, d sortData) {
	s := c.s
	dt := d.decl.dt
	find := func(name string) *constructor {
		for _, k := range dt.ctors {
			if k.name == name {
				return k
			}
		}
		return nil
	}
	switch s.Kind(pat) {
	case KindSymbol:
		if k := find(s.Name(pat)); k != nil {
			if len(k.fields) > 0 {
				c.errorf(pat, "constructor %s takes %d arguments", quoteName(k.name), len(k.fields))
			}
			c.refs[pat] = ref{bind: BindConstructor}
			return
		}
		c.pushLocal(pat, c.sorts.intern(d), BindMatch, NoTerm)
	case KindApp:
		head := s.Head(pat)
		k := find(s.Name(head))
		if k == nil {
			c.errorf(head, "%s is not a constructor of %s", quoteName(s.Name(head)), quoteName(dt.name))
			return
		}
		c.refs[head] = ref{bind: BindConstructor}
		if s.NumArgs(pat) != len(k.fields) {
			c.errorf(pat, "constructor %s takes %d arguments, the pattern has %d", quoteName(k.name), len(k.fields), s.NumArgs(pat))
			return
		}
		for j := range k.fields {
			v := s.Arg(pat, j)
			c.pushLocal(v, c.sorts.subst(k.fields[j], d.args), BindMatch, NoTerm)
		}
	default:
		c.errorf(pat, "expected a pattern")
	}
}

// annotation finishes (! t attrs): the sort is that of t; :named defines a
// nullary function for the rest of the script.
func (c *checker) annotation(t Term) {
	s := c.s
	so := c.out[s.Arg(t, 0)]
	c.out[t] = so
	for i := 1; i+1 < s.NumArgs(t); i += 2 {
		key, val := s.Arg(t, i), s.Arg(t, i+1)
		if s.Name(key) != ":named" {
			continue
		}
		if s.Kind(val) != KindSymbol {
			c.errorf(val, ":named needs a symbol")
			continue
		}
		if so == NoSort {
			continue
		}
		c.declareFun(val, &fun{name: s.Name(val), bind: BindNamed, result: so})
		c.refs[val] = ref{bind: BindNamed}
	}
}

package model

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// closure is a function given by a definition: the benchmark's define-fun,
// the model's define-fun, or a lambda.
type closure struct {
	name   string
	s      *smtlib.Script
	params []string
	psorts []sortID
	// An applied closure with no parameters is evaluated once.
	memo    value
	result  sortID
	body    smtlib.Term
	active  int32
	model   bool // the body is the model's
	rec     bool // define-fun-rec: may call itself
	memoSet bool
}

// symbol is a function symbol of the benchmark or the model.
type symbol struct {
	name     string
	params   []sortID
	bdef     *closure // the benchmark's define-fun
	mfun     *closure // the model's definition, once resolved
	abstract *absVal  // a model's declare-fun of an abstract value
	ctor     *ctorInfo
	sel      *selInfo
	result   sortID
	adecl    smtlib.Term
	mdef     int32 // index of the model's definition in Defs, -1 if none
	declared bool  // declare-fun or declare-const in the benchmark
	mres     bool  // mfun resolved (or its problem reported)
	used     bool
}

type binding struct {
	name string
	v    value
}

// opcode is a theory operator, or a way of evaluating a term.
type opcode uint16

// frame is one term being evaluated on the explicit stack.
type frame struct {
	s       *smtlib.Script
	t       smtlib.Term
	first   smtlib.Term // the first argument
	nargs   int32
	state   int32
	vbase   int32
	envBase int32
	bmark   int32
	op      opcode
	neg     bool // implies: arguments before the last are negated
	head    smtlib.Term
	fn      *closure
	sym     *symbol
	pend    *undef // and/or/ite: why the first undefined operand is
}

// evaluator evaluates terms of the benchmark and of the model.
type evaluator struct {
	sorts    *sortTable
	realNums bool // numerals are Real (logics with reals and no integers)
	noInts   bool // the logic has no integers: quickInt is not tried
	syms     map[string]*symbol
	abs      map[string]*absVal
	named    map[string]bool // the names of :named terms
	model    *smtlib.Response
	tables   *tables

	frames []frame
	vals   []value
	binds  []binding

	steps    int
	calls    int // closures being evaluated
	nested   int
	deadline time.Time
	maxMem   uint64
	ctx      context.Context
	abort    *Result

	caches    [2]scriptCache
	nextCache int
	symGen    uint32 // incremented when a symbol is added
	defGen    uint32 // incremented when the benchmark defines a function
	// sortProblem is the first model definition whose sorts do not match
	// the benchmark's declaration.
	sortProblem *Result

	// Symbols and the model's closures are allocated in blocks: a model
	// of a thousand constants has a thousand of each.
	symBlock     []symbol
	closureBlock []closure
	blockHint    int // the first blocks' size: the model's definitions
}

// newSymbol returns a new symbol from the current block.
func (e *evaluator) newSymbol() *symbol {
	if len(e.symBlock) == cap(e.symBlock) {
		e.symBlock = make([]symbol, 0, blockSize(cap(e.symBlock), e.blockHint))
	}
	e.symBlock = append(e.symBlock, symbol{})
	return &e.symBlock[len(e.symBlock)-1]
}

// newClosure returns a new closure from the current block.
func (e *evaluator) newClosure() *closure {
	if len(e.closureBlock) == cap(e.closureBlock) {
		e.closureBlock = make([]closure, 0, blockSize(cap(e.closureBlock), e.blockHint))
	}
	e.closureBlock = append(e.closureBlock, closure{})
	return &e.closureBlock[len(e.closureBlock)-1]
}

// blockSize is the size of the block after one of size last: the hint
// first, then doubling, from 8 to 1024.
func blockSize(last, hint int) int {
	if last == 0 {
		return min(max(hint, 8), 1024)
	}
	return min(2*last, 1024)
}

func newEvaluator(ctx context.Context) *evaluator {
	return &evaluator{
		sorts: newSortTable(),
		syms:  map[string]*symbol{},
		abs:   map[string]*absVal{},
		named: map[string]bool{},
		ctx:   ctx,
		tables: &tables{
			sortDecl: map[string]int{},
			sortDef:  map[string]*sortDef{},
			dts:      map[string]*dtInfo{},
		},
	}
}

// checkLimits is called every few thousand steps.
func (e *evaluator) checkLimits() {
	if e.abort != nil {
		return
	}
	if err := e.ctx.Err(); err != nil {
		e.abort = &Result{Verdict: Unknown, Reason: ReasonResource, Detail: "validation stopped: " + err.Error()}
		return
	}
	if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		e.abort = &Result{Verdict: Unknown, Reason: ReasonResource, Detail: "the validator's time limit was reached"}
		return
	}
	if e.maxMem > 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > e.maxMem {
			e.abort = &Result{Verdict: Unknown, Reason: ReasonResource,
				Detail: fmt.Sprintf("the validator's memory limit (%d MB) was reached", e.maxMem>>20)}
		}
	}
}

// eval evaluates t of script s with the bindings from envBase on visible.
func (e *evaluator) eval(s *smtlib.Script, t smtlib.Term, envBase int) value {
	if e.nested > maxNested {
		return undefVal(ReasonResource, "definitions nested too deeply")
	}
	e.nested++
	defer func() { e.nested-- }()
	base := len(e.frames)
	vb := len(e.vals)
	e.pushTerm(s, t, int32(envBase))
	for len(e.frames) > base {
		e.steps++
		if e.steps&0x3fff == 0 {
			e.checkLimits()
		}
		if e.abort != nil {
			e.frames = e.frames[:base]
			e.vals = e.vals[:vb]
			return undefVal(ReasonResource, e.abort.Detail)
		}
		e.step(len(e.frames) - 1)
	}
	v := e.vals[len(e.vals)-1]
	e.vals = e.vals[:vb]
	return v
}

func (e *evaluator) push(v value) { grow(&e.vals, v) }

// grow appends x to *s, doubling the capacity when s is full (append alone
// grows a long stack by a quarter at a time, allocating about five times
// its final size on the way).
func grow[T any](s *[]T, x T) {
	if len(*s) == cap(*s) {
		*s = slices.Grow(*s, max(len(*s), 8))
	}
	*s = append(*s, x)
}

// pushTerm evaluates a leaf at once, or pushes a frame for t.
func (e *evaluator) pushTerm(s *smtlib.Script, t smtlib.Term, envBase int32) bool {
	if ci, ok := s.ConstIndex(t); ok {
		if v, ok := e.smallConst(s, ci, t, true); ok {
			grow(&e.vals, v)
			return false
		}
	}
	switch s.Kind(t) {
	case smtlib.KindSymbol:
		if v, ok := e.leafSymbol(s, t, envBase); ok {
			grow(&e.vals, v)
			return false
		}
	case smtlib.KindNumeral, smtlib.KindDecimal, smtlib.KindHex, smtlib.KindBinary:
		grow(&e.vals, e.constant(s, t))
		return false
	case smtlib.KindString:
		e.push(undefVal(ReasonUnsupported, "string literal "+clip(s.Name(t), 40)+" (strings are not evaluated)"))
		return false
	case smtlib.KindApp:
		if e.noInts {
			break
		}
		if n, ok := e.quickInt(s, t, envBase, quickDepth); ok {
			grow(&e.vals, intVal(n))
			return false
		}
	}
	grow(&e.frames, frame{s: s, t: t, vbase: int32(len(e.vals)), envBase: envBase, head: smtlib.NoTerm})
	return true
}

// quickDepth is how deep quickInt goes into nested applications.
const quickDepth = 4

// quickInt evaluates a small term of linear integer arithmetic, the bulk
// of QF_LIA benchmarks: +, - and * over Int numerals and constants whose
// values are already known, on int64 and without frames. It reports false,
// having changed nothing the general path would not, for anything else:
// another operator, a Real, a value not yet computed, an overflow (which
// the general path evaluates with math/big).
func (e *evaluator) quickInt(s *smtlib.Script, t smtlib.Term, envBase int32, depth int) (int64, bool) {
	if ci, ok := s.ConstIndex(t); ok {
		v, ok := e.smallNumeral(s, ci, t)
		return v.n, ok
	}
	if _, ok := s.SymbolIndex(t); ok {
		v, ok := e.leafSymbol(s, t, envBase)
		if !ok || v.k != vInt || v.b != nil {
			return 0, false
		}
		return v.n, true
	}
	if depth == 0 || s.Kind(t) != smtlib.KindApp {
		return 0, false
	}
	head, first, n := view(s, t)
	en := e.entry(s, head)
	if en == nil {
		return 0, false
	}
	info := en.op
	if info.indexed || n < int(info.min) || (info.max >= 0 && n > int(info.max)) {
		return 0, false
	}
	op := info.code
	if op != opAdd && op != opSub && op != opMul {
		return 0, false
	}
	acc, ok := e.quickInt(s, first, envBase, depth-1)
	if !ok {
		return 0, false
	}
	if n == 1 {
		if op == opSub {
			if acc == minInt64 {
				return 0, false
			}
			return -acc, true
		}
		return acc, true
	}
	for k := 1; k < n; k++ {
		a, ok := e.quickInt(s, first+smtlib.Term(k), envBase, depth-1)
		if !ok {
			return 0, false
		}
		if acc, ok = arith64(op, acc, a); !ok {
			return 0, false
		}
	}
	return acc, true
}

// lookupBind finds a let variable or parameter.
func (e *evaluator) lookupBind(name string, envBase int32) (value, bool) {
	for i := len(e.binds) - 1; i >= int(envBase); i-- {
		if e.binds[i].name == name {
			return e.binds[i].v, true
		}
	}
	return value{}, false
}

// leafSymbol evaluates a symbol that needs no frame: a bound variable, a
// constant already evaluated, a theory constant.
func (e *evaluator) leafSymbol(s *smtlib.Script, t smtlib.Term, envBase int32) (value, bool) {
	if int(envBase) < len(e.binds) {
		if v, ok := e.lookupBind(s.Name(t), envBase); ok {
			return v, true
		}
	}
	en := e.entry(s, t)
	if en == nil {
		return value{}, false
	}
	if sym := en.sym; sym != nil {
		if en.mset && en.mgen == e.defGen {
			return en.val, true
		}
		sym.used = true
		if sym.bdef != nil && len(sym.bdef.params) == 0 && sym.bdef.memoSet {
			return sym.bdef.memo, true
		}
		if sym.mfun != nil && len(sym.mfun.params) == 0 && sym.mfun.memoSet {
			// A constant's value, once computed, does not change: kept
			// in the entry until the benchmark defines a function.
			en.val, en.mset, en.mgen = sym.mfun.memo, true, e.defGen
			return sym.mfun.memo, true
		}
		return value{}, false
	}
	if !en.kset {
		en.val, en.kok = e.theoryConstant(s.Name(t), s)
		en.kset = true
	}
	return en.val, en.kok
}

func (e *evaluator) theoryConstant(name string, s *smtlib.Script) (value, bool) {
	switch name {
	case "true":
		return boolVal(true), true
	case "false":
		return boolVal(false), true
	}
	if rm, ok := rmByName[name]; ok {
		return value{k: vRM, s: sortRM, n: int64(rm)}, true
	}
	if a, ok := e.abs[name]; ok {
		return value{k: vAbs, p: a, s: noSort}, true
	}
	if isAbstractName(name) {
		return e.abstract(name, noSort), true
	}
	return value{}, false
}

type scriptCache struct {
	s       *smtlib.Script
	entries []symEntry
	consts  []constEntry
}

// constEntry caches a numeral of the script that fits an int64 (most of
// them: coefficients and bounds repeat) or a bit-vector literal of at
// most 64 bits, so that it is read once per script rather than at each
// occurrence.
type constEntry struct {
	state uint8  // 0 not yet read, 1 small numeral (n), 2 anything else, 3 small bit-vector (n, s)
	s     sortID // the bit-vector's sort
	n     int64
}

// symEntry caches what a symbol of the script being evaluated names: its
// function symbol (nil: none when gen was current) and theory operator.
type symEntry struct {
	sym *symbol
	// val is, without a symbol, the theory constant it names (when kset,
	// if kok); with one, the value of the model's constant sym, cached
	// while mgen is the evaluator's defGen (when mset).
	val  value
	op   opInfo
	gen  uint32
	mgen uint32
	set  bool
	kset bool
	kok  bool
	mset bool
}

// entry returns the cache entry of symbol t of script s, nil if t is not a
// symbol. Symbols are interned per script, so the cache is a slice indexed
// by the symbol's number: no hashing of names on the evaluation path.
func (e *evaluator) entry(s *smtlib.Script, t smtlib.Term) *symEntry {
	idx, ok := s.SymbolIndex(t)
	if !ok {
		return nil
	}
	var cache []symEntry
	if e.caches[0].s == s {
		cache = e.caches[0].entries
	}
	if idx >= len(cache) {
		// Another script, or the cache not made yet.
		if cache = e.cacheFor(s); idx >= len(cache) {
			return nil
		}
	}
	en := &cache[idx]
	if !en.set || (en.sym == nil && en.gen != e.symGen) {
		name := s.Name(t)
		en.set, en.gen, en.sym, en.kset = true, e.symGen, e.syms[name], false
		en.op = opByName[name]
	}
	return en
}

// cacheOf returns the caches of script s. Two scripts alternate (a chunk
// of the benchmark and the model), so two are kept.
func (e *evaluator) cacheOf(s *smtlib.Script) *scriptCache {
	if e.caches[0].s == s {
		return &e.caches[0]
	}
	if e.caches[1].s == s {
		return &e.caches[1]
	}
	return e.newCache(s)
}

// cacheFor returns the symbol cache of script s, made on first use (a
// model of constants is evaluated without looking up a symbol).
func (e *evaluator) cacheFor(s *smtlib.Script) []symEntry {
	c := e.cacheOf(s)
	if n := s.NumSymbols(); len(c.entries) < n {
		c.entries = zeroed(c.entries, n)
	}
	return c.entries
}

// zeroed returns n zero elements, in the array of s if it is large enough.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// newCache takes the older of the two caches for script s.
func (e *evaluator) newCache(s *smtlib.Script) *scriptCache {
	c := &e.caches[e.nextCache]
	e.nextCache = (e.nextCache + 1) % len(e.caches)
	c.s = s
	c.entries = c.entries[:0]
	c.consts = c.consts[:0]
	return c
}

// constCacheFor returns the numeral cache of script s.
func (e *evaluator) constCacheFor(s *smtlib.Script) []constEntry {
	c := e.cacheOf(s)
	if n := s.NumConsts(); len(c.consts) < n {
		c.consts = zeroed(c.consts, n)
	}
	return c.consts
}

// smallNumeral returns the value of constant ci of s if it is a numeral
// that fits an int64 in a logic where numerals are Int.
func (e *evaluator) smallNumeral(s *smtlib.Script, ci int, t smtlib.Term) (value, bool) {
	return e.smallConst(s, ci, t, false)
}

// smallConst is smallNumeral, and with bvs also gives a bit-vector
// literal of at most 64 bits.
func (e *evaluator) smallConst(s *smtlib.Script, ci int, t smtlib.Term, bvs bool) (value, bool) {
	if e.realNums {
		return value{}, false
	}
	cache := e.constCacheFor(s)
	en := &cache[ci]
	if en.state == 0 {
		en.state = 2
		switch s.Kind(t) {
		case smtlib.KindNumeral:
			if n, err := strconv.ParseInt(s.Name(t), 10, 64); err == nil {
				en.state, en.n = 1, n
			}
		case smtlib.KindHex, smtlib.KindBinary:
			if v := e.constant(s, t); v.k == vBV && v.b == nil {
				en.state, en.n, en.s = 3, v.n, v.s
			}
		}
	}
	switch {
	case en.state == 1:
		return intVal(en.n), true
	case en.state == 3 && bvs:
		return value{k: vBV, s: en.s, n: en.n}, true
	}
	return value{}, false
}

// forgetCaches drops the symbol caches (a symbol was replaced).
func (e *evaluator) forgetCaches() {
	for k := range e.caches {
		e.caches[k].s = nil
	}
}

// lookupSym finds the function symbol t of script s names.
func (e *evaluator) lookupSym(s *smtlib.Script, t smtlib.Term) *symbol {
	if en := e.entry(s, t); en != nil {
		return en.sym
	}
	return e.syms[s.Name(t)]
}

// sameUnspecified reports whether two undefined values are the same
// unspecified application.
func sameUnspecified(a, b value) bool {
	if a.k != vUndef || b.k != vUndef {
		return false
	}
	ua, ub := a.undefInfo(), b.undefInfo()
	return ua.ident != "" && ua.ident == ub.ident
}

// isAbstractName recognises the abstract values solvers print for
// uninterpreted sorts: z3's U!val!0, cvc4's @uc_U_0, cvc5's @U_0.
func isAbstractName(name string) bool {
	return strings.HasPrefix(name, "@") || strings.Contains(name, "!val!")
}

func (e *evaluator) abstract(name string, s sortID) value {
	a := e.abs[name]
	if a == nil {
		a = &absVal{name: name}
		e.abs[name] = a
	}
	return value{k: vAbs, s: s, p: a}
}

// constant evaluates a numeral, decimal, hexadecimal or binary.
func (e *evaluator) constant(s *smtlib.Script, t smtlib.Term) value {
	text := s.Name(t)
	switch s.Kind(t) {
	case smtlib.KindNumeral:
		var v value
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			v = intVal(n)
		} else {
			if len(text) > maxDigits {
				return undefVal(ReasonResource, fmt.Sprintf("a numeral of %d digits (the validator reads at most %d)", len(text), maxDigits))
			}
			b, _ := new(big.Int).SetString(text, 10)
			v = bigIntVal(b)
		}
		if e.realNums {
			return realVal(v.rat())
		}
		return v
	case smtlib.KindDecimal:
		if len(text) > maxDigits {
			return undefVal(ReasonResource, fmt.Sprintf("a decimal of %d digits (the validator reads at most %d)", len(text), maxDigits))
		}
		r, ok := new(big.Rat).SetString(text)
		if !ok {
			return undefVal(ReasonParseError, "bad decimal "+clip(text, 40))
		}
		return realVal(r)
	case smtlib.KindHex:
		if (len(text)-2)*4 > maxWidth {
			return undefVal(ReasonResource, "a bit-vector literal wider than the validator's limit")
		}
		if len(text)-2 <= 16 {
			// Most literals: read without math/big.
			if x, ok := parseBits(text[2:], 4); ok {
				return e.mkBV64(x, (len(text)-2)*4)
			}
		}
		b, _ := new(big.Int).SetString(text[2:], 16)
		return e.mkBV(b, (len(text)-2)*4)
	case smtlib.KindBinary:
		if len(text)-2 > maxWidth {
			return undefVal(ReasonResource, "a bit-vector literal wider than the validator's limit")
		}
		if len(text)-2 <= 64 {
			if x, ok := parseBits(text[2:], 1); ok {
				return e.mkBV64(x, len(text)-2)
			}
		}
		b, _ := new(big.Int).SetString(text[2:], 2)
		return e.mkBV(b, len(text)-2)
	}
	return undefVal(ReasonUnsupported, "constant "+clip(text, 40))
}

// parseBits reads the digits of a #x literal (bits 4) or a #b literal
// (bits 1) of at most 64 bits; false for no digits or a bad one.
func parseBits(digits string, bits uint) (uint64, bool) {
	if len(digits) == 0 {
		return 0, false
	}
	var x uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		d := c - '0'
		if d > 9 {
			// a-f and A-F to 10-15; anything else (byte arithmetic
			// wraps) outside.
			if d = (c | 0x20) - 'a' + 10; d < 10 || d > 15 {
				return 0, false
			}
		}
		if d>>bits != 0 {
			return 0, false
		}
		x = x<<bits | uint64(d)
	}
	return x, true
}

// maxCalls bounds the nesting of calls (the benchmark's define-fun-rec).
const maxCalls = 1 << 20

// maxNested bounds evaluations started from within an evaluation (tables
// of arrays given by functions, sorts of qualified terms).
const maxNested = 200

// maxDigits bounds numerals: Go's decimal conversion is quadratic.
const maxDigits = 100000

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// view returns how an application-like term is laid out: its head, its
// first argument and how many arguments it has. Model terms that are not
// SMT-LIB 2.6 terms (z3's lambda) are s-expressions, lists whose first
// element is the head.
func view(s *smtlib.Script, t smtlib.Term) (head, first smtlib.Term, n int) {
	switch s.Kind(t) {
	case smtlib.KindApp:
		n = s.NumChildren(t) - 1
		head = s.Child(t, 0)
		return head, head + 1, n
	case smtlib.KindList:
		n = s.NumChildren(t)
		if n == 0 {
			return smtlib.NoTerm, smtlib.NoTerm, 0
		}
		return s.Child(t, 0), s.Child(t, 1), n - 1
	}
	return smtlib.NoTerm, smtlib.NoTerm, 0
}

// step advances frame i.
func (e *evaluator) step(i int) {
	f := &e.frames[i]
	if f.state == 0 && f.op == 0 {
		e.start(i)
		return
	}
	e.resume(i)
}

func (e *evaluator) pop(v value) {
	f := &e.frames[len(e.frames)-1]
	e.vals = append(e.vals[:f.vbase], v)
	e.frames = e.frames[:len(e.frames)-1]
}

// replace turns frame i (the top) into the evaluation of t: a tail call.
func (e *evaluator) replace(s *smtlib.Script, t smtlib.Term) {
	f := e.frames[len(e.frames)-1]
	e.frames = e.frames[:len(e.frames)-1]
	e.vals = e.vals[:f.vbase]
	e.pushTerm(s, t, f.envBase)
}

// start looks at a frame's term the first time.
func (e *evaluator) start(i int) {
	f := &e.frames[i]
	s, t := f.s, f.t
	switch s.Kind(t) {
	case smtlib.KindSymbol:
		e.startSymbol(i)
		return
	case smtlib.KindApp:
		head, first, n := view(s, t)
		f.head, f.first, f.nargs = head, first, int32(n)
		e.startApp(i)
		return
	case smtlib.KindList:
		e.startList(i)
		return
	case smtlib.KindLet:
		f.op = opLet
		f.first = s.Arg(t, 0)
		f.nargs = int32(s.NumArgs(t)-1) / 2
		e.resume(i)
		return
	case smtlib.KindAnnotated:
		for k := 1; k+1 < s.NumArgs(t); k += 2 {
			if s.Name(s.Arg(t, k)) == ":named" {
				e.named[s.Name(s.Arg(t, k+1))] = true
			}
		}
		e.replace(s, s.Arg(t, 0))
		return
	case smtlib.KindForall, smtlib.KindExists:
		e.pop(undefVal(ReasonUnsupported, "quantifier ("+s.Kind(t).String()+")"))
		return
	case smtlib.KindMatch:
		f.op = opMatch
		e.resume(i)
		return
	case smtlib.KindIndexed:
		e.pop(e.indexedConstant(s, t))
		return
	case smtlib.KindQualified:
		e.pop(e.qualifiedConstant(s, t, f.envBase))
		return
	}
	e.pop(undefVal(ReasonUnsupported, "term of kind "+s.Kind(t).String()))
}

// startList evaluates an s-expression read from a model as a term.
func (e *evaluator) startList(i int) {
	f := &e.frames[i]
	s, t := f.s, f.t
	head, first, n := view(s, t)
	if head == smtlib.NoTerm {
		e.pop(undefVal(ReasonParseError, "empty list () as a term"))
		return
	}
	if s.Kind(head) == smtlib.KindSymbol {
		switch s.Name(head) {
		case "_":
			e.pop(e.indexedConstant(s, t))
			return
		case "as":
			e.pop(e.qualifiedConstant(s, t, f.envBase))
			return
		case "lambda":
			e.pop(e.lambda(s, t, f.envBase))
			return
		case "let":
			if n == 2 && s.Kind(first) == smtlib.KindList {
				f.op = opLetList
				f.first = first
				f.nargs = int32(s.NumChildren(first))
				e.resume(i)
				return
			}
			e.pop(undefVal(ReasonParseError, "malformed let"))
			return
		case "forall", "exists":
			e.pop(undefVal(ReasonUnsupported, "quantifier ("+s.Name(head)+")"))
			return
		case "!":
			if n >= 1 {
				e.replace(s, first)
				return
			}
		}
	}
	f.head, f.first, f.nargs = head, first, int32(n)
	e.startApp(i)
}

// startSymbol evaluates a symbol that needs a frame: a definition without
// parameters not evaluated yet.
func (e *evaluator) startSymbol(i int) {
	f := &e.frames[i]
	name := f.s.Name(f.t)
	sym := e.lookupSym(f.s, f.t)
	if sym == nil {
		if f.s != e.modelScript() {
			e.pop(undefVal(ReasonUnsupported, "unknown symbol "+clip(name, 60)))
			return
		}
		e.pop(undefVal(ReasonMissingDefinition, "the model uses "+clip(name, 60)+", which it does not define"))
		return
	}
	f.sym = sym
	f.nargs = 0
	e.call(i, sym)
}

func (e *evaluator) modelScript() *smtlib.Script {
	if e.model == nil {
		return nil
	}
	return e.model.Script
}

// call starts the evaluation of a function symbol on the arguments at
// vals[f.vbase:].
func (e *evaluator) call(i int, sym *symbol) {
	f := &e.frames[i]
	switch {
	case sym.ctor != nil:
		want := noSort
		if f.head != smtlib.NoTerm && f.s.Kind(f.head) != smtlib.KindSymbol {
			// ((as C S) args): the instance S of C's datatype.
			if _, _, _, qs := ident(f.s, f.head); qs != smtlib.NoTerm {
				srt, err := e.resolveSort(f.s, qs)
				if err != nil {
					e.pop(undefVal(ReasonSortError, err.Error()))
					return
				}
				want = srt
			}
		}
		e.pop(e.construct(sym.ctor, e.vals[f.vbase:], want))
		return
	case sym.sel != nil:
		e.pop(e.selectField(sym, e.vals[f.vbase:]))
		return
	case sym.abstract != nil:
		e.pop(value{k: vAbs, s: sym.result, p: sym.abstract})
		return
	}
	fn := sym.bdef
	if fn == nil {
		fn = e.modelFun(sym)
		if fn == nil {
			if r := e.abort; r != nil {
				e.pop(undefVal(r.Reason, r.Detail))
				return
			}
			if sym.declared {
				e.pop(undefVal(ReasonMissingDefinition, "the model does not define "+clip(sym.name, 60)))
				return
			}
			e.pop(undefVal(ReasonUnsupported, "no definition of "+clip(sym.name, 60)))
			return
		}
	}
	e.enter(i, fn)
}

// enter evaluates closure fn's body on the arguments at vals[f.vbase:].
func (e *evaluator) enter(i int, fn *closure) {
	f := &e.frames[i]
	args := e.vals[f.vbase:]
	if len(args) != len(fn.params) {
		e.pop(undefVal(ReasonSortError, fmt.Sprintf("%s takes %d arguments, applied to %d", clip(fn.name, 60), len(fn.params), len(args))))
		return
	}
	if fn.memoSet && (len(args) == 0 || fn.body == smtlib.NoTerm) {
		e.pop(fn.memo)
		return
	}
	for k, a := range args {
		if a.k == vUndef {
			e.pop(a.derived())
			return
		}
		if a.k == vDT && a.s == noSort && k < len(fn.psorts) {
			// nil as an argument: its parameter's sort is its sort.
			if a = e.coerce(a, fn.psorts[k], "parameter "+fn.params[k]+" of "+fn.name); a.k == vUndef {
				e.pop(a)
				return
			}
			args[k] = a
		}
	}
	if fn.active > 0 && !fn.rec {
		e.pop(undefVal(ReasonCyclicDefinition, "the definition of "+clip(fn.name, 60)+" refers to itself"))
		return
	}
	if e.calls >= maxCalls {
		e.pop(undefVal(ReasonResource, fmt.Sprintf("calls of recursive definitions nested more than %d deep", maxCalls)))
		return
	}
	e.calls++
	fn.active++
	f.fn = fn
	f.op = opCallBody
	f.bmark = int32(len(e.binds))
	for k, a := range args {
		e.binds = append(e.binds, binding{fn.params[k], a})
	}
	e.vals = e.vals[:f.vbase]
	body := fn.body
	s := fn.s
	bm := f.bmark
	e.pushTerm(s, body, bm)
}

// finishCall is reached when a closure's body has been evaluated.
func (e *evaluator) finishCall(i int) {
	f := &e.frames[i]
	fn := f.fn
	fn.active--
	e.calls--
	v := e.vals[len(e.vals)-1]
	e.binds = e.binds[:f.bmark]
	v = e.coerce(v, fn.result, fn.name)
	if len(fn.params) == 0 {
		fn.memo, fn.memoSet = v, true
	}
	e.pop(v)
}

// coerce checks that v has sort want, turning an Int into a Real where a
// Real is expected and giving abstract values of unknown sort theirs.
func (e *evaluator) coerce(v value, want sortID, what string) value {
	if v.k == vUndef || want == noSort || v.s == want {
		return v
	}
	switch {
	case v.k == vInt && want == sortReal:
		return realVal(v.rat())
	case v.k == vAbs && v.s == noSort && e.sorts.kind(want) == skUninterp:
		v.s = want
		return v
	case v.k == vArray && v.s == noSort:
		return e.typeArray(v, want, what)
	case v.k == vDT && v.s == noSort:
		return e.retype(v, want, what)
	}
	return undefVal(ReasonSortError, fmt.Sprintf("%s has sort %s, its value %s has sort %s",
		clip(what, 60), e.sorts.String(want), clip(e.show(v), 80), e.sorts.String(v.s)))
}

// resume advances a frame whose operator is known.
func (e *evaluator) resume(i int) {
	f := &e.frames[i]
	switch f.op {
	case opCallBody:
		e.finishCall(i)
		return
	case opCallArgs:
		if f.state < f.nargs {
			f.state++
			e.pushTerm(f.s, f.first+smtlib.Term(f.state-1), f.envBase)
			return
		}
		if f.fn != nil {
			e.enter(i, f.fn)
			return
		}
		e.call(i, f.sym)
		return
	case opLet:
		e.resumeLet(i, false)
		return
	case opLetList:
		e.resumeLet(i, true)
		return
	case opAnd, opOr, opImplies:
		e.resumeJunction(i)
		return
	case opIte:
		e.resumeIte(i)
		return
	case opMatch:
		e.resumeMatch(i)
		return
	}
	// A strict operator: evaluate every argument (leaves at once, in this
	// loop), then apply.
	for f.state < f.nargs {
		f.state++
		if e.pushTerm(f.s, f.first+smtlib.Term(f.state-1), f.envBase) {
			return
		}
		f = &e.frames[i]
	}
	args := e.vals[f.vbase:]
	if (f.op == opEq || f.op == opDistinct) && len(args) == 2 && sameUnspecified(args[0], args[1]) {
		// The same unspecified application: one value, whatever it is.
		e.pop(boolVal(f.op == opEq))
		return
	}
	for _, a := range args {
		if a.k == vUndef {
			e.pop(a.derived())
			return
		}
	}
	switch f.op {
	case opIntDiv, opMod, opRealDiv:
		if len(args) == 2 && isZero(args[1]) && (args[0].k == vInt || args[0].k == vReal) {
			if fn := e.partialDef(f.op); fn != nil && fn.active == 0 {
				e.enter(i, fn)
				return
			}
		}
	case opSelect:
		if args[0].k == vArray {
			if fn := args[0].p.(*arrayVal).fn; fn != nil {
				copy(args, args[1:])
				e.vals = e.vals[:len(e.vals)-1]
				e.enter(i, fn)
				return
			}
			e.pop(e.selectTable(args[0], args[1]))
			return
		}
		e.pop(e.sortErr("select", args[0]))
		return
	}
	e.pop(e.apply(f, args))
}

func (e *evaluator) resumeLet(i int, list bool) {
	f := &e.frames[i]
	s := f.s
	bindTerm := func(k int32) (name string, t smtlib.Term) {
		if list {
			b := s.Child(f.first, int(k))
			if s.Kind(b) != smtlib.KindList || s.NumChildren(b) != 2 {
				return "", smtlib.NoTerm
			}
			return s.Name(s.Child(b, 0)), s.Child(b, 1)
		}
		return s.Name(s.Arg(f.t, int(2*k))), s.Arg(f.t, int(2*k+1))
	}
	switch {
	case f.state < f.nargs:
		_, t := bindTerm(f.state)
		f.state++
		if t == smtlib.NoTerm {
			e.push(undefVal(ReasonParseError, "malformed let binding"))
			return
		}
		e.pushTerm(s, t, f.envBase)
	case f.state == f.nargs:
		f.state++
		f.bmark = int32(len(e.binds))
		for k := int32(0); k < f.nargs; k++ {
			name, _ := bindTerm(k)
			e.binds = append(e.binds, binding{name, e.vals[int(f.vbase)+int(k)]})
		}
		e.vals = e.vals[:f.vbase]
		var body smtlib.Term
		if list {
			body = s.Child(f.t, 2)
		} else {
			body = s.Arg(f.t, s.NumArgs(f.t)-1)
		}
		e.pushTerm(s, body, f.envBase)
	default:
		v := e.vals[len(e.vals)-1]
		e.binds = e.binds[:f.bmark]
		e.pop(v)
	}
}

// resumeJunction evaluates and, or and => left to right, stopping at a
// deciding operand; an undefined operand decides only if nothing else does
// (Kleene's strong three-valued logic).
func (e *evaluator) resumeJunction(i int) {
	f := &e.frames[i]
	decide := f.op != opAnd // or, =>: true decides
	if f.state > 0 {
		v := e.vals[len(e.vals)-1]
		e.vals = e.vals[:len(e.vals)-1]
		if f.neg && f.state < f.nargs && v.k == vBool {
			v.n ^= 1
		}
		switch {
		case v.k == vUndef:
			if f.pend == nil {
				f.pend = v.undefInfo()
			}
		case v.k != vBool:
			e.pop(undefVal(ReasonSortError, "a non-Boolean operand of "+f.s.TermString(f.head)))
			return
		case (v.n == 1) == decide:
			e.pop(boolVal(decide))
			return
		}
	}
	if f.state < f.nargs {
		f.state++
		t := f.first + smtlib.Term(f.state-1)
		if f.state == f.nargs && f.pend == nil && e.boolApp(f.s, t) {
			// Every other operand is neutral, and the last is Boolean or
			// undefined: its value is the junction's. It is evaluated in
			// the junction's place, so that a chain (and a (and b (and c
			// ...))) takes no stack.
			e.replace(f.s, t)
			return
		}
		e.pushTerm(f.s, t, f.envBase)
		return
	}
	if f.pend != nil {
		e.pop(value{k: vUndef, p: f.pend})
		return
	}
	e.pop(boolVal(!decide))
}

// boolApp reports whether t is an application of an operator whose value
// is a Boolean or undefined, never anything else: and, or, =>, not, xor,
// =, distinct and the arithmetic comparisons.
func (e *evaluator) boolApp(s *smtlib.Script, t smtlib.Term) bool {
	if s.Kind(t) != smtlib.KindApp {
		return false
	}
	en := e.entry(s, s.Head(t))
	if en == nil {
		return false
	}
	switch en.op.code {
	case opAnd, opOr, opImplies, opNot, opXor, opEq, opDistinct, opLe, opLt, opGe, opGt:
		return true
	}
	return false
}

func (e *evaluator) resumeIte(i int) {
	f := &e.frames[i]
	switch f.state {
	case 0:
		f.state = 1
		e.pushTerm(f.s, f.first, f.envBase)
	case 1:
		c := e.vals[len(e.vals)-1]
		switch {
		case c.isTrue():
			e.replace(f.s, f.first+1)
		case c.isFalse():
			e.replace(f.s, f.first+2)
		case c.k == vUndef:
			f.pend = c.undefInfo()
			e.vals = e.vals[:len(e.vals)-1]
			f.state = 2
			e.pushTerm(f.s, f.first+1, f.envBase)
		default:
			e.pop(undefVal(ReasonSortError, "a non-Boolean condition of ite"))
		}
	case 2:
		f.state = 3
		e.pushTerm(f.s, f.first+2, f.envBase)
	default:
		a, b := e.vals[len(e.vals)-2], e.vals[len(e.vals)-1]
		if (a.k != vUndef && b.k != vUndef && equal(a, b)) || sameUnspecified(a, b) {
			e.pop(a)
			return
		}
		e.pop(value{k: vUndef, p: f.pend})
	}
}

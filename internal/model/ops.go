package model

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/smtarena/smtarena/internal/smtlib"
)

const (
	opNone opcode = iota
	opCallArgs
	opCallBody
	opLet
	opLetList
	opMatch
	opAnd
	opOr
	opImplies
	opIte
	opNot
	opXor
	opEq
	opDistinct
	// arithmetic
	opAdd
	opSub
	opMul
	opIntDiv
	opMod
	opRealDiv
	opAbs
	opLe
	opLt
	opGe
	opGt
	opToReal
	opToInt
	opIsInt
	opDivisible
	// bit-vectors
	opConcat
	opExtract
	opRepeat
	opZeroExt
	opSignExt
	opRotL
	opRotR
	opBVNot
	opBVAnd
	opBVOr
	opBVXor
	opBVNand
	opBVNor
	opBVXnor
	opBVNeg
	opBVAdd
	opBVSub
	opBVMul
	opBVUdiv
	opBVUrem
	opBVSdiv
	opBVSrem
	opBVSmod
	opBVShl
	opBVLshr
	opBVAshr
	opBVUlt
	opBVUle
	opBVUgt
	opBVUge
	opBVSlt
	opBVSle
	opBVSgt
	opBVSge
	opBVComp
	opBV2Nat
	opNat2BV
	// arrays
	opSelect
	opStore
	opConst
	// datatypes
	opTester
	// floating point
	opFPFirst
)

type opInfo struct {
	code    opcode
	indexed bool
	min     int16 // fewest arguments
	max     int16 // most arguments, -1 for any
}

var opByName = map[string]opInfo{
	"and": {opAnd, false, 1, -1}, "or": {opOr, false, 1, -1}, "=>": {opImplies, false, 2, -1},
	"ite": {opIte, false, 3, 3}, "not": {opNot, false, 1, 1}, "xor": {opXor, false, 2, -1},
	"=": {opEq, false, 2, -1}, "distinct": {opDistinct, false, 2, -1},
	"+": {opAdd, false, 1, -1}, "-": {opSub, false, 1, -1}, "*": {opMul, false, 1, -1},
	"div": {opIntDiv, false, 2, -1}, "mod": {opMod, false, 2, 2}, "/": {opRealDiv, false, 2, -1},
	"abs": {opAbs, false, 1, 1}, "<=": {opLe, false, 2, -1}, "<": {opLt, false, 2, -1},
	">=": {opGe, false, 2, -1}, ">": {opGt, false, 2, -1}, "to_real": {opToReal, false, 1, 1},
	"to_int": {opToInt, false, 1, 1}, "is_int": {opIsInt, false, 1, 1},
	"divisible": {opDivisible, true, 1, 1},
	"concat":    {opConcat, false, 2, -1}, "extract": {opExtract, true, 1, 1},
	"repeat": {opRepeat, true, 1, 1}, "zero_extend": {opZeroExt, true, 1, 1},
	"sign_extend": {opSignExt, true, 1, 1}, "rotate_left": {opRotL, true, 1, 1},
	"rotate_right": {opRotR, true, 1, 1}, "bvnot": {opBVNot, false, 1, 1},
	"bvand": {opBVAnd, false, 2, -1}, "bvor": {opBVOr, false, 2, -1}, "bvxor": {opBVXor, false, 2, -1},
	"bvnand": {opBVNand, false, 2, 2}, "bvnor": {opBVNor, false, 2, 2}, "bvxnor": {opBVXnor, false, 2, 2},
	"bvneg": {opBVNeg, false, 1, 1}, "bvadd": {opBVAdd, false, 2, -1}, "bvsub": {opBVSub, false, 2, -1},
	"bvmul": {opBVMul, false, 2, -1}, "bvudiv": {opBVUdiv, false, 2, 2}, "bvurem": {opBVUrem, false, 2, 2},
	"bvsdiv": {opBVSdiv, false, 2, 2}, "bvsrem": {opBVSrem, false, 2, 2}, "bvsmod": {opBVSmod, false, 2, 2},
	"bvshl": {opBVShl, false, 2, 2}, "bvlshr": {opBVLshr, false, 2, 2}, "bvashr": {opBVAshr, false, 2, 2},
	"bvult": {opBVUlt, false, 2, 2}, "bvule": {opBVUle, false, 2, 2}, "bvugt": {opBVUgt, false, 2, 2},
	"bvuge": {opBVUge, false, 2, 2}, "bvslt": {opBVSlt, false, 2, 2}, "bvsle": {opBVSle, false, 2, 2},
	"bvsgt": {opBVSgt, false, 2, 2}, "bvsge": {opBVSge, false, 2, 2}, "bvcomp": {opBVComp, false, 2, 2},
	"bv2nat": {opBV2Nat, false, 1, 1}, "bv2int": {opBV2Nat, false, 1, 1},
	"nat2bv": {opNat2BV, true, 1, 1}, "int2bv": {opNat2BV, true, 1, 1},
	"select": {opSelect, false, 2, 2}, "store": {opStore, false, 3, 3},
	"is": {opTester, true, 1, 1},
}

// ident reads an identifier: a symbol, (_ f i...), (as f s), or their
// s-expression forms. idx is the first index and nidx their number.
func ident(s *smtlib.Script, h smtlib.Term) (name string, idx smtlib.Term, nidx int, sort smtlib.Term) {
	idx, sort = smtlib.NoTerm, smtlib.NoTerm
	for range 2 {
		switch s.Kind(h) {
		case smtlib.KindSymbol:
			return s.Name(h), idx, nidx, sort
		case smtlib.KindIndexed:
			return s.Name(s.Head(h)), s.Arg(h, 0), s.NumArgs(h), sort
		case smtlib.KindQualified:
			sort = s.Arg(h, 0)
			h = s.Head(h)
			continue
		case smtlib.KindList:
			n := s.NumChildren(h)
			if n >= 2 && s.IsSymbol(s.Child(h, 0), "_") {
				return s.Name(s.Child(h, 1)), s.Child(h, 2), n - 2, sort
			}
			if n == 3 && s.IsSymbol(s.Child(h, 0), "as") {
				sort = s.Child(h, 2)
				h = s.Child(h, 1)
				continue
			}
		}
		break
	}
	return "", idx, 0, sort
}

// indexInt reads index k of an indexed identifier as a non-negative number.
func indexInt(s *smtlib.Script, idx smtlib.Term, nidx, k int) (int, bool) {
	if k >= nidx {
		return 0, false
	}
	t := idx + smtlib.Term(k)
	if s.Kind(t) != smtlib.KindNumeral {
		return 0, false
	}
	n, err := strconv.Atoi(s.Name(t))
	if err != nil || n < 0 || n > 1<<40 {
		return 0, false
	}
	return n, true
}

// startApp resolves the head of an application.
func (e *evaluator) startApp(i int) {
	f := &e.frames[i]
	s := f.s
	// The common case first: a symbol that names a theory operator or a
	// function, found in the script's symbol cache.
	if en := e.entry(s, f.head); en != nil {
		if info := en.op; info.code != opNone && !info.indexed {
			if f.nargs >= int32(info.min) && (info.max < 0 || f.nargs <= int32(info.max)) {
				f.op = info.code
				f.neg = f.op == opImplies
				e.resume(i)
				return
			}
		} else if sym := en.sym; sym != nil && info.code == opNone {
			if _, ok := fpOps[sym.name]; !ok {
				sym.used = true
				f.op = opCallArgs
				f.sym = sym
				e.resume(i)
				return
			}
		}
	}
	name, _, nidx, qsort := ident(s, f.head)
	if name == "" {
		e.pop(undefVal(ReasonParseError, "an application whose head is not a function: "+clip(s.TermString(f.t), 80)))
		return
	}
	if qsort != smtlib.NoTerm && name == "const" && nidx == 0 {
		if f.nargs != 1 {
			e.pop(undefVal(ReasonSortError, "(as const ...) applied to other than one value"))
			return
		}
		f.op = opConst
		e.resume(i)
		return
	}
	plain := s.Kind(f.head) == smtlib.KindSymbol
	if info, ok := e.lookupOp(s, f.head, name, plain); ok && info.indexed == (nidx > 0) {
		if f.nargs < int32(info.min) || (info.max >= 0 && f.nargs > int32(info.max)) {
			e.pop(undefVal(ReasonSortError, fmt.Sprintf("%s applied to %d arguments", name, f.nargs)))
			return
		}
		f.op = info.code
		if f.op == opImplies {
			f.neg = true
		}
		e.resume(i)
		return
	}
	if fp, ok := fpOps[name]; ok && fp.indexed == (nidx > 0) {
		f.op = fp.code
		e.resume(i)
		return
	}
	var sym *symbol
	if plain {
		sym = e.lookupSym(s, f.head)
	} else {
		sym = e.syms[name]
	}
	if sym != nil && nidx == 0 {
		sym.used = true
		f.op = opCallArgs
		f.sym = sym
		e.resume(i)
		return
	}
	if _, ok := e.lookupBind(name, f.envBase); ok {
		e.pop(undefVal(ReasonSortError, "a variable applied as a function: "+clip(name, 60)))
		return
	}
	if s != e.modelScript() {
		e.pop(undefVal(ReasonUnsupported, "unknown function "+clip(name, 60)))
		return
	}
	e.pop(undefVal(ReasonMissingDefinition, "the model applies "+clip(name, 60)+", which it does not define"))
}

// apply computes a strict operator on defined arguments.
func (e *evaluator) apply(f *frame, args []value) value {
	switch {
	case f.op >= opFPFirst:
		return e.applyFP(f, args)
	case f.op >= opConcat && f.op <= opNat2BV:
		return e.applyBV(f, args)
	}
	switch f.op {
	case opNot:
		if args[0].k != vBool {
			return e.sortErr("not", args[0])
		}
		return boolVal(args[0].n == 0)
	case opXor:
		r := false
		for _, a := range args {
			if a.k != vBool {
				return e.sortErr("xor", a)
			}
			r = r != (a.n == 1)
		}
		return boolVal(r)
	case opEq:
		for k := 1; k < len(args); k++ {
			eq, ok := e.eq(args[0], args[k])
			if !ok.ok() {
				return ok.v
			}
			if !eq {
				return boolVal(false)
			}
		}
		return boolVal(true)
	case opDistinct:
		return e.distinct(args)
	case opAdd, opSub, opMul:
		return e.arith(f.op, args)
	case opIntDiv, opMod:
		return e.intDiv(f.op, args)
	case opRealDiv:
		return e.realDiv(args)
	case opAbs:
		a := args[0]
		switch a.k {
		case vInt:
			if a.b == nil && a.n != minInt64 {
				if a.n < 0 {
					return intVal(-a.n)
				}
				return a
			}
			return bigIntVal(new(big.Int).Abs(a.bigInt()))
		case vReal:
			return realVal(new(big.Rat).Abs(a.r))
		}
		return e.sortErr("abs", a)
	case opLe, opLt, opGe, opGt:
		return e.compare(f.op, args)
	case opToReal:
		if args[0].k != vInt && args[0].k != vReal {
			return e.sortErr("to_real", args[0])
		}
		return realVal(args[0].rat())
	case opToInt:
		a := args[0]
		if a.k == vInt {
			return a
		}
		if a.k != vReal {
			return e.sortErr("to_int", a)
		}
		q := new(big.Int)
		m := new(big.Int)
		q.DivMod(a.r.Num(), a.r.Denom(), m) // Euclidean, positive denominator: floor
		return bigIntVal(q)
	case opIsInt:
		a := args[0]
		if a.k == vInt {
			return boolVal(true)
		}
		if a.k != vReal {
			return e.sortErr("is_int", a)
		}
		return boolVal(a.r.IsInt())
	case opDivisible:
		_, idx, nidx, _ := ident(f.s, f.head)
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || n == 0 || args[0].k != vInt {
			return undefVal(ReasonSortError, "bad divisible")
		}
		m := new(big.Int).Mod(args[0].bigInt(), big.NewInt(int64(n)))
		return boolVal(m.Sign() == 0)
	case opStore:
		return e.store(args)
	case opConst:
		_, _, _, qsort := ident(f.s, f.head)
		if f.s.IsSymbol(qsort, "Array") {
			// z3 writes ((as const Array) v) inside datatype values: the
			// array's sort is its context's (coerce).
			return value{k: vArray, p: &arrayVal{def: args[0], entries: map[string]arrayEntry{}}}
		}
		srt, err := e.resolveSort(f.s, qsort)
		if err != nil {
			return undefVal(ReasonSortError, err.Error())
		}
		if e.sorts.kind(srt) != skArray {
			return undefVal(ReasonSortError, "(as const "+e.sorts.String(srt)+") is not an array sort")
		}
		el := e.coerce(args[0], e.sorts.info(srt).args[1], "the constant array's value")
		if el.k == vUndef {
			return el
		}
		return value{k: vArray, s: srt, p: &arrayVal{def: el, entries: map[string]arrayEntry{}}}
	case opTester:
		return e.tester(f, args[0])
	}
	return undefVal(ReasonUnsupported, "operator "+clip(f.s.TermString(f.head), 60))
}

const minInt64 = -1 << 63

func (e *evaluator) sortErr(op string, v value) value {
	return undefVal(ReasonSortError, fmt.Sprintf("%s applied to %s of sort %s", op, clip(e.show(v), 60), e.sorts.String(v.s)))
}

// tri is an equality's outcome when it may be undecidable.
type tri struct{ v value }

func (t tri) ok() bool { return t.v.p == nil }

// eq decides v = w; it fails for arrays given by functions it could not
// turn into tables, and for values of different sorts.
func (e *evaluator) eq(v, w value) (bool, tri) {
	if v.k == vArray || w.k == vArray {
		if v.k != w.k {
			return false, tri{undefVal(ReasonSortError, "an array compared with a non-array")}
		}
		if v.p.(*arrayVal).fn != nil || w.p.(*arrayVal).fn != nil {
			return false, tri{undefVal(ReasonUnsupported, "equality of arrays given by functions that are not tables")}
		}
		return e.arrayKey(v) == e.arrayKey(w), tri{}
	}
	if v.k != w.k && !((v.k == vInt || v.k == vReal) && (w.k == vInt || w.k == vReal)) {
		return false, tri{undefVal(ReasonSortError, fmt.Sprintf("= between %s of sort %s and %s of sort %s",
			clip(e.show(v), 60), e.sorts.String(v.s), clip(e.show(w), 60), e.sorts.String(w.s)))}
	}
	if v.k == vDT {
		switch {
		case v.s == w.s && v.s != noSort:
		case v.s == noSort && w.s == noSort:
			return false, tri{undefVal(ReasonSortError, fmt.Sprintf("= between %s and %s, whose sorts are not determined (a parametric constructor needs (as C S))",
				clip(e.show(v), 60), clip(e.show(w), 60)))}
		case v.s == noSort:
			if v = e.coerce(v, w.s, "the left side of ="); v.k == vUndef {
				return false, tri{v}
			}
		case w.s == noSort:
			if w = e.coerce(w, v.s, "the right side of ="); w.k == vUndef {
				return false, tri{w}
			}
		default:
			return false, tri{undefVal(ReasonSortError, fmt.Sprintf("= between %s of sort %s and %s of sort %s",
				clip(e.show(v), 60), e.sorts.String(v.s), clip(e.show(w), 60), e.sorts.String(w.s)))}
		}
		return e.dtKey(v) == e.dtKey(w), tri{}
	}
	if v.k == vFP {
		return fpStructEq(v, w), tri{}
	}
	return equal(v, w), tri{}
}

func (e *evaluator) distinct(args []value) value {
	if len(args) <= 16 {
		for a := 0; a < len(args); a++ {
			for b := a + 1; b < len(args); b++ {
				eq, ok := e.eq(args[a], args[b])
				if !ok.ok() {
					return ok.v
				}
				if eq {
					return boolVal(false)
				}
			}
		}
		return boolVal(true)
	}
	seen := make(map[string]bool, len(args))
	for k, a := range args {
		if k > 0 {
			if _, ok := e.eq(args[0], a); !ok.ok() {
				return ok.v
			}
		}
		kk := e.valueKey(a)
		if seen[kk] {
			return boolVal(false)
		}
		seen[kk] = true
	}
	return boolVal(true)
}

// valueKey is key with arrays and datatypes normalised.
func (e *evaluator) valueKey(v value) string {
	switch v.k {
	case vArray:
		return e.arrayKey(v)
	case vDT:
		return e.dtKey(v)
	case vInt, vReal:
		return v.rat().RatString()
	}
	return key(v)
}

func isNum(v value) bool { return v.k == vInt || v.k == vReal }

func (e *evaluator) arith(op opcode, args []value) value {
	real := false
	for _, a := range args {
		if !isNum(a) {
			return e.sortErr(opName(op), a)
		}
		if a.k == vReal {
			real = true
		}
	}
	if real {
		acc := new(big.Rat).Set(args[0].rat())
		if len(args) == 1 && op == opSub {
			return realVal(acc.Neg(acc))
		}
		for _, a := range args[1:] {
			switch op {
			case opAdd:
				acc.Add(acc, a.rat())
			case opSub:
				acc.Sub(acc, a.rat())
			case opMul:
				acc.Mul(acc, a.rat())
			}
		}
		return realVal(acc)
	}
	if len(args) == 1 {
		if op == opSub {
			if args[0].b == nil && args[0].n != minInt64 {
				return intVal(-args[0].n)
			}
			return bigIntVal(new(big.Int).Neg(args[0].bigInt()))
		}
		return args[0]
	}
	// Small integers while no step overflows.
	acc := args[0]
	for _, a := range args[1:] {
		if acc.b == nil && a.b == nil {
			if r, ok := arith64(op, acc.n, a.n); ok {
				acc = intVal(r)
				continue
			}
		}
		x := new(big.Int)
		switch op {
		case opAdd:
			x.Add(acc.bigInt(), a.bigInt())
		case opSub:
			x.Sub(acc.bigInt(), a.bigInt())
		case opMul:
			x.Mul(acc.bigInt(), a.bigInt())
		}
		acc = bigIntVal(x)
	}
	return acc
}

func opName(op opcode) string {
	for n, i := range opByName {
		if i.code == op {
			return n
		}
	}
	return "operator"
}

func isZero(v value) bool {
	switch v.k {
	case vInt:
		return v.b == nil && v.n == 0
	case vReal:
		return v.r.Sign() == 0
	}
	return false
}

// intDiv computes div and mod, Euclidean (the remainder is never negative).
// A zero divisor is handled by the caller (partial).
func (e *evaluator) intDiv(op opcode, args []value) value {
	for _, a := range args {
		if a.k != vInt {
			return e.sortErr(opName(op), a)
		}
	}
	acc := args[0]
	for _, d := range args[1:] {
		if isZero(d) {
			return unspecified(opName(op)+" "+e.valueKey(acc), fmt.Sprintf("(%s %s 0): the model does not define division by zero", opName(op), e.show(acc)))
		}
		if acc.b == nil && d.b == nil && acc.n != minInt64 && d.n != minInt64 {
			r := acc.n % d.n
			if r < 0 {
				if d.n > 0 {
					r += d.n
				} else {
					r -= d.n
				}
			}
			if op == opMod {
				return intVal(r)
			}
			acc = intVal((acc.n - r) / d.n)
			continue
		}
		q, m := new(big.Int), new(big.Int)
		q.DivMod(acc.bigInt(), d.bigInt(), m)
		if op == opMod {
			return bigIntVal(m)
		}
		acc = bigIntVal(q)
	}
	return acc
}

func (e *evaluator) realDiv(args []value) value {
	for _, a := range args {
		if !isNum(a) {
			return e.sortErr("/", a)
		}
	}
	acc := new(big.Rat).Set(args[0].rat())
	for _, d := range args[1:] {
		if isZero(d) {
			return unspecified("/ "+acc.RatString(), fmt.Sprintf("(/ %s 0.0): the model does not define division by zero", showRat(acc)))
		}
		acc.Quo(acc, d.rat())
	}
	return realVal(acc)
}

func cmpNum(a, b value) int {
	if a.k == vInt && b.k == vInt && a.b == nil && b.b == nil {
		switch {
		case a.n < b.n:
			return -1
		case a.n > b.n:
			return 1
		}
		return 0
	}
	if a.k == vInt && b.k == vInt {
		return a.bigInt().Cmp(b.bigInt())
	}
	return a.rat().Cmp(b.rat())
}

func (e *evaluator) compare(op opcode, args []value) value {
	for _, a := range args {
		if !isNum(a) {
			return e.sortErr(opName(op), a)
		}
	}
	for k := 0; k+1 < len(args); k++ {
		c := cmpNum(args[k], args[k+1])
		var ok bool
		switch op {
		case opLe:
			ok = c <= 0
		case opLt:
			ok = c < 0
		case opGe:
			ok = c >= 0
		case opGt:
			ok = c > 0
		}
		if !ok {
			return boolVal(false)
		}
	}
	return boolVal(true)
}

// arith64 applies +, - or * to two int64s; false on an overflow.
func arith64(op opcode, x, y int64) (int64, bool) {
	switch op {
	case opAdd:
		r := x + y
		return r, (r > x) == (y > 0)
	case opSub:
		r := x - y
		return r, (r < x) == (y > 0)
	case opMul:
		r := x * y
		return r, x == 0 || (r/x == y && !(x == -1 && y == minInt64) && !(y == -1 && x == minInt64))
	}
	return 0, false
}

// partialDef finds the model's value for a partial operator at a zero
// divisor: z3's div0, mod0 and /0, or a define-fun that shadows the
// operator itself.
func (e *evaluator) partialDef(op opcode) *closure {
	var names []string
	switch op {
	case opIntDiv:
		names = []string{"div0", "div"}
	case opMod:
		names = []string{"mod0", "mod"}
	case opRealDiv:
		names = []string{"/0", "/"}
	}
	for _, n := range names {
		if sym := e.syms[n]; sym != nil && !sym.declared && sym.bdef == nil {
			if fn := e.modelFun(sym); fn != nil && len(fn.params) == 2 {
				sym.used = true
				return fn
			}
		}
	}
	return nil
}

// lookupOp finds the theory operator of an application's head.
func (e *evaluator) lookupOp(s *smtlib.Script, head smtlib.Term, name string, plain bool) (opInfo, bool) {
	if plain {
		if en := e.entry(s, head); en != nil {
			return en.op, en.op.code != opNone
		}
	} else if s.Kind(head) == smtlib.KindIndexed {
		// (_ extract 7 0): the entry of the symbol extract.
		if en := e.entry(s, s.Head(head)); en != nil {
			return en.op, en.op.code != opNone
		}
	}
	info, ok := opByName[name]
	return info, ok
}

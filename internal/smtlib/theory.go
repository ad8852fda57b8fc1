package smtlib

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Theory names a theory of SMT-LIB, or the free symbols of UF, which a
// symbol of a term belongs to.
type Theory uint8

// The theories of SMT-LIB 2.6 the checker knows.
const (
	TheoryNone       Theory = iota
	TheoryCore              // Bool, =, ite, and, ...
	TheoryInts              // Int arithmetic
	TheoryReals             // Real arithmetic
	TheoryRealsInts         // to_real, to_int, is_int
	TheoryBitVectors        // FixedSizeBitVectors and the QF_BV extensions
	TheoryArrays            // ArraysEx
	TheoryFloats            // FloatingPoint
	TheoryStrings           // Strings and regular expressions
	TheoryDatatypes         // declare-datatype(s), match, testers
	TheoryUF                // declare-fun with arguments, declare-sort
)

var theoryNames = [...]string{"none", "Core", "Ints", "Reals", "Reals_Ints", "FixedSizeBitVectors",
	"ArraysEx", "FloatingPoint", "Strings", "Datatypes", "UF"}

func (t Theory) String() string {
	if int(t) < len(theoryNames) {
		return theoryNames[t]
	}
	return "theory?"
}

// opCall is one application of a theory symbol, as its check function sees it.
type opCall struct {
	name string
	idx  []uint64 // numeral indices of an indexed identifier
	args []Sort
	as   Sort // the sort of an (as f S) qualification, or NoSort
}

// opCheck returns the sort of an application, or an error message. It may
// refine the theory (+ is Ints or Reals according to its arguments).
type opCheck func(c *checker, call *opCall) (Sort, Theory, string)

type op struct {
	theory  Theory
	indices int // number of numeral indices; -1 for none (a plain symbol)
	check   opCheck
}

// ops is the table of theory symbols, built when first needed: every
// smtarena command pays for package initialisers at start, most of which
// never check a sort.
var ops = sync.OnceValue(buildOps)

func buildOps() map[string]op {
	ops := make(map[string]op, 256)
	def := func(th Theory, names string, indices int, check opCheck) {
		for _, n := range strings.Fields(names) {
			ops[n] = op{theory: th, indices: indices, check: check}
		}
	}
	// Core.
	def(TheoryCore, "true false", -1, fixed(SortBool))
	def(TheoryCore, "not", -1, fixed(SortBool, SortBool))
	def(TheoryCore, "and or xor =>", -1, nary(SortBool, SortBool, 2))
	def(TheoryCore, "= distinct", -1, chain(TheoryCore, 0))
	def(TheoryCore, "ite", -1, checkIte)

	// Ints, Reals, Reals_Ints: the symbols they share are told apart by the
	// sorts of the arguments.
	def(TheoryInts, "+ *", -1, arith(2, false))
	def(TheoryInts, "-", -1, arith(1, false))
	def(TheoryReals, "/", -1, realDiv)
	def(TheoryInts, "div", -1, intOp(2, -1, SortInt))
	def(TheoryInts, "mod", -1, intOp(2, 2, SortInt))
	def(TheoryInts, "abs", -1, intOp(1, 1, SortInt))
	def(TheoryInts, "<= < >= >", -1, arith(2, true))
	def(TheoryInts, "divisible", 1, intOp(1, 1, SortBool))
	def(TheoryRealsInts, "to_real", -1, fixed(SortReal, SortInt))
	def(TheoryRealsInts, "to_int", -1, fixed(SortInt, SortReal))
	def(TheoryRealsInts, "is_int", -1, fixed(SortBool, SortReal))

	// Arrays.
	def(TheoryArrays, "select", -1, checkSelect)
	def(TheoryArrays, "store", -1, checkStore)

	// Bit-vectors: the theory and the extensions of the QF_BV logic.
	def(TheoryBitVectors, "concat", -1, checkConcat)
	def(TheoryBitVectors, "extract", 2, checkExtract)
	def(TheoryBitVectors, "bvnot bvneg", -1, bvSame(1, 1))
	def(TheoryBitVectors, "bvand bvor bvadd bvmul bvxor", -1, bvSame(2, -1))
	def(TheoryBitVectors, "bvudiv bvurem bvshl bvlshr bvnand bvnor bvxnor bvsub bvsdiv bvsrem bvsmod bvashr", -1, bvSame(2, 2))
	def(TheoryBitVectors, "bvult bvule bvugt bvuge bvslt bvsle bvsgt bvsge", -1, bvPred)
	def(TheoryBitVectors, "bvcomp", -1, checkBVComp)
	def(TheoryBitVectors, "repeat zero_extend sign_extend rotate_left rotate_right", 1, checkBVIndexed)

	// Floating point.
	def(TheoryFloats, "RNE RNA RTP RTN RTZ roundNearestTiesToEven roundNearestTiesToAway roundTowardPositive roundTowardNegative roundTowardZero", -1, fixed(SortRoundingMode))
	def(TheoryFloats, "fp", -1, checkFP)
	def(TheoryFloats, "+oo -oo +zero -zero NaN", 2, checkFPConst)
	def(TheoryFloats, "fp.abs fp.neg", -1, fpSame(0, 1))
	def(TheoryFloats, "fp.add fp.sub fp.mul fp.div", -1, fpSame(1, 2))
	def(TheoryFloats, "fp.fma", -1, fpSame(1, 3))
	def(TheoryFloats, "fp.sqrt fp.roundToIntegral", -1, fpSame(1, 1))
	def(TheoryFloats, "fp.rem fp.min fp.max", -1, fpSame(0, 2))
	def(TheoryFloats, "fp.leq fp.lt fp.geq fp.gt fp.eq", -1, fpPred(2))
	def(TheoryFloats, "fp.isNormal fp.isSubnormal fp.isZero fp.isInfinite fp.isNaN fp.isNegative fp.isPositive", -1, fpPred(1))
	def(TheoryFloats, "to_fp", 2, checkToFP)
	def(TheoryFloats, "to_fp_unsigned", 2, checkToFPUnsigned)
	def(TheoryFloats, "fp.to_ubv fp.to_sbv", 1, checkFPToBV)
	def(TheoryFloats, "fp.to_real", -1, checkFPToReal)

	// Strings.
	S, I, B, R := SortString, SortInt, SortBool, SortRegLan
	def(TheoryStrings, "str.++", -1, nary(S, S, 2))
	def(TheoryStrings, "str.len", -1, fixed(I, S))
	def(TheoryStrings, "str.< str.<=", -1, nary(S, B, 2))
	def(TheoryStrings, "str.at", -1, fixed(S, S, I))
	def(TheoryStrings, "str.substr", -1, fixed(S, S, I, I))
	def(TheoryStrings, "str.prefixof str.suffixof str.contains", -1, fixed(B, S, S))
	def(TheoryStrings, "str.indexof", -1, fixed(I, S, S, I))
	def(TheoryStrings, "str.replace str.replace_all", -1, fixed(S, S, S, S))
	def(TheoryStrings, "str.replace_re str.replace_re_all", -1, fixed(S, S, R, S))
	def(TheoryStrings, "str.is_digit", -1, fixed(B, S))
	def(TheoryStrings, "str.to_code str.to_int", -1, fixed(I, S))
	def(TheoryStrings, "str.from_code str.from_int", -1, fixed(S, I))
	def(TheoryStrings, "str.to_re", -1, fixed(R, S))
	def(TheoryStrings, "str.in_re", -1, fixed(B, S, R))
	def(TheoryStrings, "re.none re.all re.allchar", -1, fixed(R))
	def(TheoryStrings, "re.++ re.union re.inter", -1, nary(R, R, 2))
	def(TheoryStrings, "re.* re.+ re.opt re.comp", -1, fixed(R, R))
	def(TheoryStrings, "re.diff", -1, fixed(R, R, R))
	def(TheoryStrings, "re.range", -1, fixed(R, S, S))
	def(TheoryStrings, "re.^", 1, fixed(R, R))
	def(TheoryStrings, "re.loop", 2, fixed(R, R))
	return ops
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// arity checks the number of arguments: at least min, at most max (-1: no
// limit).
func arity(call *opCall, min, max int) string {
	n := len(call.args)
	switch {
	case n < min && min == max:
		return fmt.Sprintf("expects %s, got %d", plural(min, "argument"), n)
	case n < min:
		return fmt.Sprintf("expects at least %s, got %d", plural(min, "argument"), n)
	case max >= 0 && n > max:
		return fmt.Sprintf("expects %s, got %d", plural(max, "argument"), n)
	}
	return ""
}

func (c *checker) argError(call *opCall, i int, want string) string {
	return fmt.Sprintf("argument %d has sort %s, expected %s", i+1, c.sorts.String(call.args[i]), want)
}

// fixed is a symbol of one rank: result and argument sorts.
func fixed(result Sort, args ...Sort) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, len(args), len(args)); msg != "" {
			return NoSort, 0, msg
		}
		for i, a := range call.args {
			if a != args[i] {
				return NoSort, 0, c.argError(call, i, c.sorts.String(args[i]))
			}
		}
		return result, 0, ""
	}
}

// nary is a symbol taking at least min arguments, all of sort arg.
func nary(arg, result Sort, min int) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, min, -1); msg != "" {
			return NoSort, 0, msg
		}
		for i, a := range call.args {
			if a != arg {
				return NoSort, 0, c.argError(call, i, c.sorts.String(arg))
			}
		}
		return result, 0, ""
	}
}

// chain is a :chainable or :pairwise symbol over any one sort, returning Bool.
// want restricts the sort class (0: any).
func chain(th Theory, want sortClass) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, 2, -1); msg != "" {
			return NoSort, 0, msg
		}
		first := call.args[0]
		if c.logic.Ints && c.logic.Reals && (first == SortInt || first == SortReal) {
			if _, msg := c.numericArgs(call); msg == "" {
				return SortBool, th, ""
			}
		}
		for i, a := range call.args {
			if a != first {
				return NoSort, 0, fmt.Sprintf("arguments have different sorts: %s and %s (argument %d)",
					c.sorts.String(first), c.sorts.String(a), i+1)
			}
		}
		return SortBool, th, ""
	}
}

func checkIte(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 3, 3); msg != "" {
		return NoSort, 0, msg
	}
	if call.args[0] != SortBool {
		return NoSort, 0, c.argError(call, 0, "Bool")
	}
	if call.args[1] != call.args[2] {
		return NoSort, 0, fmt.Sprintf("branches have different sorts: %s and %s",
			c.sorts.String(call.args[1]), c.sorts.String(call.args[2]))
	}
	return call.args[1], 0, ""
}

// arith is + - * and the comparisons: all arguments Int, or all Real. In
// logics with both Int and Real, an Int argument among Real ones stands for
// its to_real (the :extensions of AUFLIRA and the other mixed logics).
func arith(min int, pred bool) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, min, -1); msg != "" {
			return NoSort, 0, msg
		}
		res, msg := c.numericArgs(call)
		if msg != "" {
			return NoSort, 0, msg
		}
		th := TheoryInts
		if res == SortReal {
			th = TheoryReals
		}
		if pred {
			return SortBool, th, ""
		}
		return res, th, ""
	}
}

// numericArgs checks that the arguments are all Int or all Real (or, in
// mixed logics, a mix, which is Real) and returns their common sort.
func (c *checker) numericArgs(call *opCall) (Sort, string) {
	first := call.args[0]
	if first != SortInt && first != SortReal {
		return NoSort, c.argError(call, 0, "Int or Real")
	}
	mixed := c.logic.Ints && c.logic.Reals
	res := first
	for i, a := range call.args {
		switch {
		case a == first:
		case mixed && (a == SortInt || a == SortReal):
			res = SortReal
		default:
			return NoSort, c.argError(call, i, c.sorts.String(first)+" like argument 1")
		}
	}
	return res, ""
}

// realDiv is /: Real arguments; Int ones too in mixed logics.
func realDiv(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 2, -1); msg != "" {
		return NoSort, 0, msg
	}
	mixed := c.logic.Ints && c.logic.Reals
	for i, a := range call.args {
		if a != SortReal && !(mixed && a == SortInt) {
			return NoSort, 0, c.argError(call, i, "Real")
		}
	}
	return SortReal, TheoryReals, ""
}

// intOp is an Int-only symbol.
func intOp(min, max int, res Sort) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, min, max); msg != "" {
			return NoSort, 0, msg
		}
		for i, a := range call.args {
			if a != SortInt {
				return NoSort, 0, c.argError(call, i, "Int")
			}
		}
		return res, 0, ""
	}
}

func checkSelect(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 2, 2); msg != "" {
		return NoSort, 0, msg
	}
	d, msg := c.arrayIndex(call)
	if msg != "" {
		return NoSort, 0, msg
	}
	return d.args[1], 0, ""
}

func checkStore(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 3, 3); msg != "" {
		return NoSort, 0, msg
	}
	d, msg := c.arrayIndex(call)
	if msg != "" {
		return NoSort, 0, msg
	}
	if call.args[2] != d.args[1] {
		return NoSort, 0, c.argError(call, 2, c.sorts.String(d.args[1])+" (the element sort)")
	}
	return call.args[0], 0, ""
}

// arrayIndex checks the array and index arguments select and store share.
func (c *checker) arrayIndex(call *opCall) (sortData, string) {
	a := call.args[0]
	if c.sorts.class(a) != classArray {
		return sortData{}, c.argError(call, 0, "an array")
	}
	d := c.sorts.data[a]
	if call.args[1] != d.args[0] {
		return sortData{}, c.argError(call, 1, c.sorts.String(d.args[0])+" (the index sort)")
	}
	return d, ""
}

func (c *checker) bvArgs(call *opCall) string {
	for i, a := range call.args {
		if c.sorts.class(a) != classBitVec {
			return c.argError(call, i, "a bit-vector")
		}
	}
	return ""
}

func checkConcat(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 2, -1); msg != "" {
		return NoSort, 0, msg
	}
	if msg := c.bvArgs(call); msg != "" {
		return NoSort, 0, msg
	}
	var w uint64
	for _, a := range call.args {
		w += uint64(c.sorts.width(a))
	}
	if w > maxWidth {
		return NoSort, 0, "result is wider than the checker supports"
	}
	return c.sorts.bitVec(uint32(w)), 0, ""
}

// maxWidth bounds bit-vector and float widths: wider sorts exist in no
// benchmark, and the bound keeps width arithmetic exact.
const maxWidth = 1 << 30

func checkExtract(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 1, 1); msg != "" {
		return NoSort, 0, msg
	}
	if msg := c.bvArgs(call); msg != "" {
		return NoSort, 0, msg
	}
	i, j, m := call.idx[0], call.idx[1], uint64(c.sorts.width(call.args[0]))
	if !(j <= i && i < m) {
		return NoSort, 0, fmt.Sprintf("indices must satisfy %d > i >= j >= 0, got %d %d", m, i, j)
	}
	return c.sorts.bitVec(uint32(i - j + 1)), 0, ""
}

// bvSame is a bit-vector function whose arguments and result have one sort.
func bvSame(min, max int) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, min, max); msg != "" {
			return NoSort, 0, msg
		}
		if msg := c.bvArgs(call); msg != "" {
			return NoSort, 0, msg
		}
		for i, a := range call.args {
			if a != call.args[0] {
				return NoSort, 0, c.argError(call, i, c.sorts.String(call.args[0])+" like argument 1")
			}
		}
		return call.args[0], 0, ""
	}
}

func bvPred(c *checker, call *opCall) (Sort, Theory, string) {
	if _, _, msg := bvSame(2, 2)(c, call); msg != "" {
		return NoSort, 0, msg
	}
	return SortBool, 0, ""
}

func checkBVComp(c *checker, call *opCall) (Sort, Theory, string) {
	if _, _, msg := bvSame(2, 2)(c, call); msg != "" {
		return NoSort, 0, msg
	}
	return c.sorts.bitVec(1), 0, ""
}

func checkBVIndexed(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 1, 1); msg != "" {
		return NoSort, 0, msg
	}
	if msg := c.bvArgs(call); msg != "" {
		return NoSort, 0, msg
	}
	w, i := uint64(c.sorts.width(call.args[0])), call.idx[0]
	switch call.name {
	case "repeat":
		if i == 0 {
			return NoSort, 0, "index must be at least 1"
		}
		w *= i
	case "zero_extend", "sign_extend":
		w += i
	}
	if w > maxWidth || i > maxWidth {
		return NoSort, 0, "result is wider than the checker supports"
	}
	return c.sorts.bitVec(uint32(w)), 0, ""
}

func checkFP(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 3, 3); msg != "" {
		return NoSort, 0, msg
	}
	if msg := c.bvArgs(call); msg != "" {
		return NoSort, 0, msg
	}
	if c.sorts.width(call.args[0]) != 1 {
		return NoSort, 0, c.argError(call, 0, "(_ BitVec 1)")
	}
	eb, sb := c.sorts.width(call.args[1]), c.sorts.width(call.args[2])+1
	if eb < 2 || sb < 2 {
		return NoSort, 0, "exponent and significand must have at least 2 bits"
	}
	return c.sorts.float(eb, sb), 0, ""
}

func checkFPConst(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 0, 0); msg != "" {
		return NoSort, 0, msg
	}
	s, msg := c.floatSort(call.idx[0], call.idx[1])
	return s, 0, msg
}

func (c *checker) floatSort(eb, sb uint64) (Sort, string) {
	if eb < 2 || sb < 2 || eb > maxWidth || sb > maxWidth {
		return NoSort, fmt.Sprintf("float sort needs eb > 1 and sb > 1, got %d %d", eb, sb)
	}
	return c.sorts.float(uint32(eb), uint32(sb)), ""
}

// fpSame is a float function with an optional rounding mode first and n
// float arguments of one sort.
func fpSame(rm, n int) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		if msg := arity(call, rm+n, rm+n); msg != "" {
			return NoSort, 0, msg
		}
		if rm == 1 && call.args[0] != SortRoundingMode {
			return NoSort, 0, c.argError(call, 0, "RoundingMode")
		}
		first := call.args[rm]
		for i := rm; i < len(call.args); i++ {
			if c.sorts.class(call.args[i]) != classFloat || call.args[i] != first {
				return NoSort, 0, c.argError(call, i, "a float sort like argument "+strconv.Itoa(rm+1))
			}
		}
		return first, 0, ""
	}
}

func fpPred(n int) opCheck {
	return func(c *checker, call *opCall) (Sort, Theory, string) {
		min, max := n, n
		if n == 2 {
			max = -1 // the comparisons are chainable
		}
		if msg := arity(call, min, max); msg != "" {
			return NoSort, 0, msg
		}
		for i, a := range call.args {
			if c.sorts.class(a) != classFloat || a != call.args[0] {
				return NoSort, 0, c.argError(call, i, "a float sort like argument 1")
			}
		}
		return SortBool, 0, ""
	}
}

func checkToFP(c *checker, call *opCall) (Sort, Theory, string) {
	res, msg := c.floatSort(call.idx[0], call.idx[1])
	if msg != "" {
		return NoSort, 0, msg
	}
	if len(call.args) == 1 {
		// From a bit-vector of width eb+sb, read as IEEE 754.
		if c.sorts.width(call.args[0]) != uint32(call.idx[0]+call.idx[1]) {
			return NoSort, 0, c.argError(call, 0, fmt.Sprintf("(_ BitVec %d)", call.idx[0]+call.idx[1]))
		}
		return res, 0, ""
	}
	if msg := arity(call, 2, 2); msg != "" {
		return NoSort, 0, msg
	}
	if call.args[0] != SortRoundingMode {
		return NoSort, 0, c.argError(call, 0, "RoundingMode")
	}
	switch a := call.args[1]; {
	case a == SortReal, c.sorts.class(a) == classFloat, c.sorts.class(a) == classBitVec:
		return res, 0, ""
	}
	return NoSort, 0, c.argError(call, 1, "a float, Real or bit-vector")
}

func checkToFPUnsigned(c *checker, call *opCall) (Sort, Theory, string) {
	res, msg := c.floatSort(call.idx[0], call.idx[1])
	if msg != "" {
		return NoSort, 0, msg
	}
	if msg := arity(call, 2, 2); msg != "" {
		return NoSort, 0, msg
	}
	if call.args[0] != SortRoundingMode {
		return NoSort, 0, c.argError(call, 0, "RoundingMode")
	}
	if c.sorts.class(call.args[1]) != classBitVec {
		return NoSort, 0, c.argError(call, 1, "a bit-vector")
	}
	return res, 0, ""
}

func checkFPToBV(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 2, 2); msg != "" {
		return NoSort, 0, msg
	}
	if call.args[0] != SortRoundingMode {
		return NoSort, 0, c.argError(call, 0, "RoundingMode")
	}
	if c.sorts.class(call.args[1]) != classFloat {
		return NoSort, 0, c.argError(call, 1, "a float sort")
	}
	if call.idx[0] == 0 || call.idx[0] > maxWidth {
		return NoSort, 0, "width must be at least 1"
	}
	return c.sorts.bitVec(uint32(call.idx[0])), 0, ""
}

func checkFPToReal(c *checker, call *opCall) (Sort, Theory, string) {
	if msg := arity(call, 1, 1); msg != "" {
		return NoSort, 0, msg
	}
	if c.sorts.class(call.args[0]) != classFloat {
		return NoSort, 0, c.argError(call, 0, "a float sort")
	}
	return SortReal, 0, ""
}

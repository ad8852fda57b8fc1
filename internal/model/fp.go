package model

import (
	"fmt"
	"math/big"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// Rounding modes, in the order of rmNames.
const (
	rmRNE = iota
	rmRNA
	rmRTP
	rmRTN
	rmRTZ
)

var rmNames = [...]string{"RNE", "RNA", "RTP", "RTN", "RTZ"}

var rmByName = map[string]int{
	"RNE": rmRNE, "roundNearestTiesToEven": rmRNE,
	"RNA": rmRNA, "roundNearestTiesToAway": rmRNA,
	"RTP": rmRTP, "roundTowardPositive": rmRTP,
	"RTN": rmRTN, "roundTowardNegative": rmRTN,
	"RTZ": rmRTZ, "roundTowardZero": rmRTZ,
}

// fpVal is a floating-point value of (_ FloatingPoint eb sb) as its IEEE
// bit pattern (sign, eb exponent bits, sb-1 fraction bits); SMT-LIB has a
// single NaN, kept as one pattern.
type fpVal struct {
	eb, sb int
	bits   *big.Int
}

func (f *fpVal) key() string { return fmt.Sprintf("fp%d.%d:%s", f.eb, f.sb, f.bits.Text(16)) }

func (f *fpVal) literal() string {
	switch {
	case f.isNaN():
		return fmt.Sprintf("(_ NaN %d %d)", f.eb, f.sb)
	case f.isInf() && f.neg():
		return fmt.Sprintf("(_ -oo %d %d)", f.eb, f.sb)
	case f.isInf():
		return fmt.Sprintf("(_ +oo %d %d)", f.eb, f.sb)
	}
	sign := "#b0"
	if f.neg() {
		sign = "#b1"
	}
	exp := new(big.Int).And(new(big.Int).Rsh(f.bits, uint(f.sb-1)), mask(f.eb))
	frac := new(big.Int).And(f.bits, mask(f.sb-1))
	return "(fp " + sign + " " + bitsLiteral(exp, f.eb) + " " + bitsLiteral(frac, f.sb-1) + ")"
}

func bitsLiteral(b *big.Int, w int) string {
	s := b.Text(2)
	for len(s) < w {
		s = "0" + s
	}
	return "#b" + s
}

func (f *fpVal) neg() bool { return f.bits.Bit(f.eb+f.sb-1) == 1 }

func (f *fpVal) expBits() *big.Int {
	return new(big.Int).And(new(big.Int).Rsh(f.bits, uint(f.sb-1)), mask(f.eb))
}

func (f *fpVal) frac() *big.Int { return new(big.Int).And(f.bits, mask(f.sb-1)) }

func (f *fpVal) isNaN() bool { return f.expBits().Cmp(mask(f.eb)) == 0 && f.frac().Sign() != 0 }
func (f *fpVal) isInf() bool { return f.expBits().Cmp(mask(f.eb)) == 0 && f.frac().Sign() == 0 }
func (f *fpVal) isZero() bool {
	return f.expBits().Sign() == 0 && f.frac().Sign() == 0
}
func (f *fpVal) isSubnormal() bool { return f.expBits().Sign() == 0 && f.frac().Sign() != 0 }
func (f *fpVal) isNormal() bool {
	e := f.expBits()
	return e.Sign() != 0 && e.Cmp(mask(f.eb)) != 0
}

// bias and emin of a format.
func fpBias(eb int) int { return 1<<uint(eb-1) - 1 }
func fpEmin(eb int) int { return 1 - fpBias(eb) }

// rat returns the exact value of a finite float (zero for ±0).
func (f *fpVal) rat() *big.Rat {
	e := int(f.expBits().Int64())
	m := f.frac()
	if e == 0 {
		e = fpEmin(f.eb)
	} else {
		m.SetBit(m, f.sb-1, 1)
		e -= fpBias(f.eb)
	}
	r := mulPow2(new(big.Rat).SetInt(m), e-(f.sb-1))
	if f.neg() {
		r.Neg(r)
	}
	return r
}

func mulPow2(r *big.Rat, k int) *big.Rat {
	p := new(big.Int).Lsh(big.NewInt(1), uint(abs(k)))
	if k >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(p))
	}
	return r.Quo(r, new(big.Rat).SetInt(p))
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

func makeFP(eb, sb int, neg bool, exp, frac *big.Int) *fpVal {
	b := new(big.Int).Lsh(exp, uint(sb-1))
	b.Or(b, frac)
	if neg {
		b.SetBit(b, eb+sb-1, 1)
	}
	return &fpVal{eb: eb, sb: sb, bits: b}
}

func fpNaN(eb, sb int) *fpVal {
	return makeFP(eb, sb, false, mask(eb), new(big.Int).Lsh(big.NewInt(1), uint(sb-2)))
}
func fpInf(eb, sb int, neg bool) *fpVal { return makeFP(eb, sb, neg, mask(eb), new(big.Int)) }
func fpZero(eb, sb int, neg bool) *fpVal {
	return makeFP(eb, sb, neg, new(big.Int), new(big.Int))
}
func fpMax(eb, sb int, neg bool) *fpVal {
	return makeFP(eb, sb, neg, new(big.Int).Sub(mask(eb), big.NewInt(1)), mask(sb-1))
}

// roundRat rounds the exact value x (not zero) to the format; the sign of
// a result that rounds to zero is x's.
func roundRat(x *big.Rat, eb, sb, rm int) *fpVal {
	neg := x.Sign() < 0
	a := new(big.Rat).Abs(x)
	// E = floor(log2 a)
	E := a.Num().BitLen() - a.Denom().BitLen()
	if mulPow2(new(big.Rat).SetInt64(1), E).Cmp(a) > 0 {
		E--
	}
	emin, emax := fpEmin(eb), fpBias(eb)
	if E < emin {
		E = emin
	}
	q := mulPow2(new(big.Rat).Set(a), sb-1-E)
	n := new(big.Int).Quo(q.Num(), q.Denom())
	rem := new(big.Rat).Sub(q, new(big.Rat).SetInt(n))
	up := false
	half := big.NewRat(1, 2)
	switch rm {
	case rmRNE:
		c := rem.Cmp(half)
		up = c > 0 || (c == 0 && n.Bit(0) == 1)
	case rmRNA:
		up = rem.Cmp(half) >= 0
	case rmRTP:
		up = !neg && rem.Sign() > 0
	case rmRTN:
		up = neg && rem.Sign() > 0
	}
	if up {
		n.Add(n, big.NewInt(1))
	}
	if n.BitLen() > sb {
		n.Rsh(n, 1)
		E++
	}
	if E > emax {
		switch {
		case rm == rmRNE || rm == rmRNA, rm == rmRTP && !neg, rm == rmRTN && neg:
			return fpInf(eb, sb, neg)
		}
		return fpMax(eb, sb, neg)
	}
	if n.Sign() == 0 {
		return fpZero(eb, sb, neg)
	}
	if n.BitLen() < sb { // subnormal
		return makeFP(eb, sb, neg, new(big.Int), n)
	}
	n.SetBit(n, sb-1, 0)
	return makeFP(eb, sb, neg, big.NewInt(int64(E+fpBias(eb))), n)
}

// roundOrZero rounds x; an exact zero gets the sign the caller gives.
func roundOrZero(x *big.Rat, eb, sb, rm int, zeroNeg bool) *fpVal {
	if x.Sign() == 0 {
		return fpZero(eb, sb, zeroNeg)
	}
	return roundRat(x, eb, sb, rm)
}

const (
	opFPAbs opcode = opFPFirst + iota
	opFPNeg
	opFPAdd
	opFPSub
	opFPMul
	opFPDiv
	opFPFma
	opFPSqrt
	opFPRem
	opFPRoundToIntegral
	opFPMin
	opFPMax
	opFPLeq
	opFPLt
	opFPGeq
	opFPGt
	opFPEq
	opFPIsNormal
	opFPIsSubnormal
	opFPIsZero
	opFPIsInfinite
	opFPIsNaN
	opFPIsNegative
	opFPIsPositive
	opFPToReal
	opFPToUBV
	opFPToSBV
	opFPToFP
	opFPToFPUnsigned
	opFPLiteral
)

var fpOps = map[string]opInfo{
	"fp.abs": {opFPAbs, false, 1, 1}, "fp.neg": {opFPNeg, false, 1, 1}, "fp.add": {opFPAdd, false, 3, 3},
	"fp.sub": {opFPSub, false, 3, 3}, "fp.mul": {opFPMul, false, 3, 3}, "fp.div": {opFPDiv, false, 3, 3},
	"fp.fma": {opFPFma, false, 4, 4}, "fp.sqrt": {opFPSqrt, false, 2, 2}, "fp.rem": {opFPRem, false, 2, 2},
	"fp.roundToIntegral": {opFPRoundToIntegral, false, 2, 2}, "fp.min": {opFPMin, false, 2, 2},
	"fp.max": {opFPMax, false, 2, 2}, "fp.leq": {opFPLeq, false, 2, -1}, "fp.lt": {opFPLt, false, 2, -1},
	"fp.geq": {opFPGeq, false, 2, -1}, "fp.gt": {opFPGt, false, 2, -1}, "fp.eq": {opFPEq, false, 2, -1},
	"fp.isNormal": {opFPIsNormal, false, 1, 1}, "fp.isSubnormal": {opFPIsSubnormal, false, 1, 1},
	"fp.isZero": {opFPIsZero, false, 1, 1}, "fp.isInfinite": {opFPIsInfinite, false, 1, 1},
	"fp.isNaN": {opFPIsNaN, false, 1, 1}, "fp.isNegative": {opFPIsNegative, false, 1, 1},
	"fp.isPositive": {opFPIsPositive, false, 1, 1}, "fp.to_real": {opFPToReal, false, 1, 1},
	"fp.to_ubv": {opFPToUBV, true, 2, 2}, "fp.to_sbv": {opFPToSBV, true, 2, 2},
	"to_fp": {opFPToFP, true, 1, 2}, "to_fp_unsigned": {opFPToFPUnsigned, true, 2, 2},
	"fp": {opFPLiteral, false, 3, 3},
}

func (e *evaluator) fpValue(f *fpVal) value {
	if f.isNaN() {
		f = fpNaN(f.eb, f.sb)
	}
	return value{k: vFP, s: e.sorts.fp(f.eb, f.sb), p: f}
}

func fpStructEq(v, w value) bool { return v.p.(*fpVal).key() == w.p.(*fpVal).key() }

// fpSpecial evaluates (_ +oo eb sb) and the other special constants.
func (e *evaluator) fpSpecial(s *smtlib.Script, name string, idx smtlib.Term, nidx int) value {
	eb, ok1 := indexInt(s, idx, nidx, 0)
	sb, ok2 := indexInt(s, idx, nidx, 1)
	if !ok1 || !ok2 || eb < 2 || sb < 2 || eb > 30 || sb > maxWidth {
		return undefVal(ReasonSortError, "bad floating-point format in "+name)
	}
	switch name {
	case "+oo":
		return e.fpValue(fpInf(eb, sb, false))
	case "-oo":
		return e.fpValue(fpInf(eb, sb, true))
	case "+zero":
		return e.fpValue(fpZero(eb, sb, false))
	case "-zero":
		return e.fpValue(fpZero(eb, sb, true))
	}
	return e.fpValue(fpNaN(eb, sb))
}

func (e *evaluator) applyFP(f *frame, args []value) value {
	name, idx, nidx, _ := ident(f.s, f.head)
	rm := -1
	if len(args) > 0 && args[0].k == vRM {
		rm = int(args[0].n)
	}
	needRM := func() bool { return rm >= 0 }
	fps := make([]*fpVal, 0, 3)
	for _, a := range args {
		if a.k == vFP {
			fps = append(fps, a.p.(*fpVal))
		}
	}
	same := func(n int) bool {
		if len(fps) != n {
			return false
		}
		for _, x := range fps[1:] {
			if x.eb != fps[0].eb || x.sb != fps[0].sb {
				return false
			}
		}
		return true
	}
	bad := func() value {
		return undefVal(ReasonSortError, fmt.Sprintf("%s applied to arguments of the wrong sorts", name))
	}
	switch f.op {
	case opFPLiteral:
		for _, a := range args {
			if a.k != vBV {
				return bad()
			}
		}
		ws, we, wf := e.sorts.width(args[0].s), e.sorts.width(args[1].s), e.sorts.width(args[2].s)
		if ws != 1 || we < 2 || we > 30 {
			return bad()
		}
		return e.fpValue(makeFP(we, wf+1, bvUnsigned(args[0]).Sign() != 0, bvUnsigned(args[1]), bvUnsigned(args[2])))
	case opFPToFP, opFPToFPUnsigned:
		eb, ok1 := indexInt(f.s, idx, nidx, 0)
		sb, ok2 := indexInt(f.s, idx, nidx, 1)
		if !ok1 || !ok2 || eb < 2 || sb < 2 || eb > 30 || sb > maxWidth {
			return bad()
		}
		if len(args) == 1 { // from a bit pattern
			if args[0].k != vBV || e.sorts.width(args[0].s) != eb+sb {
				return bad()
			}
			b := bvUnsigned(args[0])
			return e.fpValue(&fpVal{eb: eb, sb: sb, bits: new(big.Int).Set(b)})
		}
		if !needRM() {
			return bad()
		}
		x := args[1]
		switch {
		case x.k == vFP:
			v := x.p.(*fpVal)
			switch {
			case v.isNaN():
				return e.fpValue(fpNaN(eb, sb))
			case v.isInf():
				return e.fpValue(fpInf(eb, sb, v.neg()))
			case v.isZero():
				return e.fpValue(fpZero(eb, sb, v.neg()))
			}
			return e.fpValue(roundRat(v.rat(), eb, sb, rm))
		case x.k == vReal || x.k == vInt:
			return e.fpValue(roundOrZero(x.rat(), eb, sb, rm, false))
		case x.k == vBV:
			var n *big.Int
			if f.op == opFPToFPUnsigned {
				n = bvUnsigned(x)
			} else {
				n = bvSigned(x, e.sorts.width(x.s))
			}
			return e.fpValue(roundOrZero(new(big.Rat).SetInt(n), eb, sb, rm, false))
		}
		return bad()
	}
	// Every other operator takes floats of one format (and maybe a rounding mode).
	nfp := len(args)
	if needRM() {
		nfp--
	}
	if !same(nfp) || nfp == 0 {
		return bad()
	}
	eb, sb := fps[0].eb, fps[0].sb
	x := fps[0]
	switch f.op {
	case opFPAbs:
		if x.isNaN() {
			return e.fpValue(x)
		}
		b := new(big.Int).SetBit(x.bits, eb+sb-1, 0)
		return e.fpValue(&fpVal{eb, sb, b})
	case opFPNeg:
		if x.isNaN() {
			return e.fpValue(x)
		}
		b := new(big.Int).Set(x.bits)
		b.SetBit(b, eb+sb-1, 1-x.bits.Bit(eb+sb-1))
		return e.fpValue(&fpVal{eb, sb, b})
	case opFPIsNormal:
		return boolVal(x.isNormal())
	case opFPIsSubnormal:
		return boolVal(x.isSubnormal())
	case opFPIsZero:
		return boolVal(x.isZero())
	case opFPIsInfinite:
		return boolVal(x.isInf())
	case opFPIsNaN:
		return boolVal(x.isNaN())
	case opFPIsNegative:
		return boolVal(!x.isNaN() && x.neg())
	case opFPIsPositive:
		return boolVal(!x.isNaN() && !x.neg())
	case opFPToReal:
		if x.isNaN() || x.isInf() {
			return unspecified("fp.to_real "+x.key(), "fp.to_real of "+x.literal()+" is unspecified")
		}
		return realVal(x.rat())
	case opFPLeq, opFPLt, opFPGeq, opFPGt, opFPEq:
		for k := 0; k+1 < len(fps); k++ {
			a, b := fps[k], fps[k+1]
			if a.isNaN() || b.isNaN() {
				return boolVal(false)
			}
			c := fpCmp(a, b)
			var ok bool
			switch f.op {
			case opFPLeq:
				ok = c <= 0
			case opFPLt:
				ok = c < 0
			case opFPGeq:
				ok = c >= 0
			case opFPGt:
				ok = c > 0
			case opFPEq:
				ok = c == 0
			}
			if !ok {
				return boolVal(false)
			}
		}
		return boolVal(true)
	case opFPMin, opFPMax:
		y := fps[1]
		switch {
		case x.isNaN():
			return e.fpValue(y)
		case y.isNaN():
			return e.fpValue(x)
		case x.isZero() && y.isZero() && x.neg() != y.neg():
			return unspecified(name+" "+x.key()+" "+y.key(), fmt.Sprintf("%s of +0 and -0 is unspecified", name))
		}
		c := fpCmp(x, y)
		if (f.op == opFPMin) == (c <= 0) {
			return e.fpValue(x)
		}
		return e.fpValue(y)
	case opFPRem:
		y := fps[1]
		switch {
		case x.isNaN() || y.isNaN() || x.isInf() || y.isZero():
			return e.fpValue(fpNaN(eb, sb))
		case y.isInf() || x.isZero():
			return e.fpValue(x)
		}
		q := new(big.Rat).Quo(x.rat(), y.rat())
		n := roundHalfEven(q)
		r := new(big.Rat).Sub(x.rat(), new(big.Rat).Mul(y.rat(), new(big.Rat).SetInt(n)))
		return e.fpValue(roundOrZero(r, eb, sb, rmRNE, x.neg()))
	}
	if !needRM() {
		return bad()
	}
	switch f.op {
	case opFPToUBV, opFPToSBV:
		m, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || m < 1 || m > maxWidth {
			return bad()
		}
		if x.isNaN() || x.isInf() {
			return unspecified(fmt.Sprintf("%s %d %d %s", name, m, rm, x.key()), fmt.Sprintf("%s of %s is unspecified", name, x.literal()))
		}
		n := roundToInt(x.rat(), rm)
		lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(m))
		if f.op == opFPToSBV {
			lo.Neg(new(big.Int).Lsh(big.NewInt(1), uint(m-1)))
			hi.Lsh(big.NewInt(1), uint(m-1))
		}
		if n.Cmp(lo) < 0 || n.Cmp(hi) >= 0 {
			return unspecified(fmt.Sprintf("%s %d %d %s", name, m, rm, x.key()), fmt.Sprintf("(_ %s %d) of %s is out of range, unspecified", name, m, x.literal()))
		}
		return e.mkBV(n, m)
	case opFPRoundToIntegral:
		if x.isNaN() || x.isInf() || x.isZero() {
			return e.fpValue(x)
		}
		n := roundToInt(x.rat(), rm)
		return e.fpValue(roundOrZero(new(big.Rat).SetInt(n), eb, sb, rm, x.neg()))
	case opFPSqrt:
		switch {
		case x.isNaN() || (x.neg() && !x.isZero()):
			return e.fpValue(fpNaN(eb, sb))
		case x.isZero() || x.isInf():
			return e.fpValue(x)
		}
		return e.fpValue(roundRat(sqrtApprox(x.rat(), sb, eb), eb, sb, rm))
	case opFPAdd, opFPSub, opFPMul, opFPDiv:
		y, op := fps[1], f.op
		if op == opFPSub {
			y, op = negFP(y), opFPAdd
		}
		return e.fpValue(fpArith(op, x, y, eb, sb, rm))
	case opFPFma:
		y, z := fps[1], fps[2]
		if x.isNaN() || y.isNaN() || z.isNaN() {
			return e.fpValue(fpNaN(eb, sb))
		}
		p := fpArith(opFPMul, x, y, eb, sb, rm) // only its special cases are used
		prodInf := (x.isInf() || y.isInf())
		if prodInf {
			if p.isNaN() || (z.isInf() && z.neg() != p.neg()) {
				return e.fpValue(fpNaN(eb, sb))
			}
			return e.fpValue(p)
		}
		if z.isInf() {
			return e.fpValue(z)
		}
		exact := new(big.Rat).Mul(x.rat(), y.rat())
		pneg := x.neg() != y.neg()
		sum := new(big.Rat).Add(exact, z.rat())
		if sum.Sign() == 0 {
			zeroNeg := rm == rmRTN
			if exact.Sign() == 0 && z.isZero() {
				zeroNeg = pneg && z.neg() || (pneg != z.neg() && rm == rmRTN)
			}
			return e.fpValue(fpZero(eb, sb, zeroNeg))
		}
		return e.fpValue(roundRat(sum, eb, sb, rm))
	}
	return undefVal(ReasonUnsupported, "floating-point operator "+name)
}

func negFP(y *fpVal) *fpVal {
	if y.isNaN() {
		return y
	}
	b := new(big.Int).Set(y.bits)
	b.SetBit(b, y.eb+y.sb-1, 1-y.bits.Bit(y.eb+y.sb-1))
	return &fpVal{y.eb, y.sb, b}
}

// fpArith computes x op y (add, mul, div) with IEEE 754's special cases.
func fpArith(op opcode, x, y *fpVal, eb, sb, rm int) *fpVal {
	if x.isNaN() || y.isNaN() {
		return fpNaN(eb, sb)
	}
	sign := x.neg() != y.neg()
	switch op {
	case opFPAdd:
		switch {
		case x.isInf() && y.isInf():
			if x.neg() != y.neg() {
				return fpNaN(eb, sb)
			}
			return x
		case x.isInf():
			return x
		case y.isInf():
			return y
		}
		s := new(big.Rat).Add(x.rat(), y.rat())
		if s.Sign() == 0 {
			if x.isZero() && y.isZero() && x.neg() == y.neg() {
				return fpZero(eb, sb, x.neg())
			}
			return fpZero(eb, sb, rm == rmRTN)
		}
		return roundRat(s, eb, sb, rm)
	case opFPMul:
		switch {
		case (x.isInf() && y.isZero()) || (x.isZero() && y.isInf()):
			return fpNaN(eb, sb)
		case x.isInf() || y.isInf():
			return fpInf(eb, sb, sign)
		case x.isZero() || y.isZero():
			return fpZero(eb, sb, sign)
		}
		return roundRat(new(big.Rat).Mul(x.rat(), y.rat()), eb, sb, rm)
	case opFPDiv:
		switch {
		case (x.isInf() && y.isInf()) || (x.isZero() && y.isZero()):
			return fpNaN(eb, sb)
		case x.isInf() || y.isZero():
			return fpInf(eb, sb, sign)
		case y.isInf() || x.isZero():
			return fpZero(eb, sb, sign)
		}
		return roundRat(new(big.Rat).Quo(x.rat(), y.rat()), eb, sb, rm)
	}
	return fpNaN(eb, sb)
}

// fpCmp compares two floats that are not NaN (-0 = +0).
func fpCmp(a, b *fpVal) int {
	switch {
	case a.isInf() && b.isInf():
		if a.neg() == b.neg() {
			return 0
		}
		if a.neg() {
			return -1
		}
		return 1
	case a.isInf():
		if a.neg() {
			return -1
		}
		return 1
	case b.isInf():
		if b.neg() {
			return 1
		}
		return -1
	}
	return a.rat().Cmp(b.rat())
}

// roundHalfEven rounds q to the nearest integer, ties to even.
func roundHalfEven(q *big.Rat) *big.Int {
	return roundToInt(q, rmRNE)
}

// roundToInt rounds q to an integer by the rounding mode.
func roundToInt(q *big.Rat, rm int) *big.Int {
	fl := new(big.Int)
	m := new(big.Int)
	fl.DivMod(q.Num(), q.Denom(), m) // floor
	if m.Sign() == 0 {
		return fl
	}
	frac := new(big.Rat).Sub(q, new(big.Rat).SetInt(fl)) // in (0, 1)
	c := frac.Cmp(big.NewRat(1, 2))
	up := false
	switch rm {
	case rmRNE:
		up = c > 0 || (c == 0 && fl.Bit(0) == 1)
	case rmRNA:
		up = c > 0 || (c == 0 && q.Sign() > 0)
	case rmRTP:
		up = true
	case rmRTN:
		up = false
	case rmRTZ:
		up = q.Sign() < 0
	}
	if up {
		fl.Add(fl, big.NewInt(1))
	}
	return fl
}

// sqrtApprox returns a rational that rounds as sqrt(a) does in any format
// of sb significand bits: sqrt(a) truncated to a grid far finer than the
// format's, plus a tiny amount when the truncation was not exact.
func sqrtApprox(a *big.Rat, sb, eb int) *big.Rat {
	E := a.Num().BitLen() - a.Denom().BitLen()
	t := max(sb+4-E/2, sb-fpEmin(eb)+4, 0)
	y := mulPow2(new(big.Rat).Set(a), 2*t)
	n := new(big.Int).Quo(y.Num(), y.Denom())
	r := new(big.Int).Sqrt(n)
	exact := y.IsInt() && new(big.Int).Mul(r, r).Cmp(n) == 0
	v := mulPow2(new(big.Rat).SetInt(r), -t)
	if !exact {
		v.Add(v, mulPow2(big.NewRat(1, 1), -(t+1)))
	}
	return v
}

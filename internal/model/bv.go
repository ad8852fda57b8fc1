package model

import (
	"fmt"
	"math/big"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// mkBV returns a bit-vector value of width w holding b mod 2^w.
func (e *evaluator) mkBV(b *big.Int, w int) value {
	if w <= 0 || w > maxWidth {
		return undefVal(ReasonResource, fmt.Sprintf("a bit-vector of width %d (the validator takes 1 to %d)", w, maxWidth))
	}
	s := e.sorts.bv(w)
	if b.Sign() < 0 || b.BitLen() > w {
		b = new(big.Int).And(b, mask(w))
	}
	if w <= 64 {
		return value{k: vBV, s: s, n: int64(b.Uint64())}
	}
	return value{k: vBV, s: s, b: b}
}

func (e *evaluator) mkBV64(x uint64, w int) value {
	if w < 64 {
		x &= 1<<uint(w) - 1
	}
	return value{k: vBV, s: e.sorts.bv(w), n: int64(x)}
}

var maskCache = map[int]*big.Int{}

func mask(w int) *big.Int {
	if m, ok := maskCache[w]; ok {
		return m
	}
	m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
	if w <= 4096 {
		maskCache[w] = m
	}
	return m
}

// bvUnsigned returns a bit-vector value as an unsigned number.
func bvUnsigned(v value) *big.Int {
	if v.b != nil {
		return v.b
	}
	return new(big.Int).SetUint64(uint64(v.n))
}

func bvSigned(v value, w int) *big.Int {
	u := bvUnsigned(v)
	if u.Bit(w-1) == 1 {
		return new(big.Int).Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return u
}

func (e *evaluator) applyBV(f *frame, args []value) value {
	// The operator's name and indices, read only where needed: most
	// operators have no indices and most applications no error.
	idx, nidx := smtlib.NoTerm, 0
	switch f.op {
	case opNat2BV, opExtract, opRepeat, opZeroExt, opSignExt, opRotL, opRotR:
		_, idx, nidx, _ = ident(f.s, f.head)
	}
	opName := func() string {
		name, _, _, _ := ident(f.s, f.head)
		return name
	}
	switch f.op {
	case opBV2Nat:
		if args[0].k != vBV {
			return e.sortErr(opName(), args[0])
		}
		if args[0].b == nil && args[0].n >= 0 {
			return intVal(args[0].n)
		}
		return bigIntVal(new(big.Int).Set(bvUnsigned(args[0])))
	case opNat2BV:
		w, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || args[0].k != vInt {
			return undefVal(ReasonSortError, "bad "+opName())
		}
		m := new(big.Int).Lsh(big.NewInt(1), uint(min(w, maxWidth+1)))
		if w > maxWidth {
			return e.mkBV(big.NewInt(0), w)
		}
		return e.mkBV(new(big.Int).Mod(args[0].bigInt(), m), w)
	}
	for _, a := range args {
		if a.k != vBV {
			return e.sortErr(opName(), a)
		}
	}
	w := e.sorts.width(args[0].s)
	if v, ok := e.bvShape64(f, args, w, idx, nidx); ok {
		return v
	}
	switch f.op {
	case opConcat:
		acc := bvUnsigned(args[0])
		tw := w
		for _, a := range args[1:] {
			aw := e.sorts.width(a.s)
			if tw+aw > maxWidth {
				return e.mkBV(acc, tw+aw)
			}
			acc = new(big.Int).Or(new(big.Int).Lsh(acc, uint(aw)), bvUnsigned(a))
			tw += aw
		}
		return e.mkBV(acc, tw)
	case opExtract:
		hi, ok1 := indexInt(f.s, idx, nidx, 0)
		lo, ok2 := indexInt(f.s, idx, nidx, 1)
		if !ok1 || !ok2 || nidx != 2 || hi < lo || hi >= w {
			return undefVal(ReasonSortError, fmt.Sprintf("extract out of range of a bit-vector of width %d", w))
		}
		return e.mkBV(new(big.Int).Rsh(bvUnsigned(args[0]), uint(lo)), hi-lo+1)
	case opRepeat:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || n < 1 {
			return undefVal(ReasonSortError, "repeat needs a positive index")
		}
		if n*w > maxWidth {
			return e.mkBV(big.NewInt(0), n*w)
		}
		acc, x := new(big.Int), bvUnsigned(args[0])
		for range n {
			acc.Lsh(acc, uint(w)).Or(acc, x)
		}
		return e.mkBV(acc, n*w)
	case opZeroExt, opSignExt:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok {
			return undefVal(ReasonSortError, "bad "+opName())
		}
		if f.op == opZeroExt {
			return e.mkBV(bvUnsigned(args[0]), w+n)
		}
		return e.mkBV(bvSigned(args[0], w), w+n)
	case opRotL, opRotR:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok {
			return undefVal(ReasonSortError, "bad "+opName())
		}
		n %= w
		if f.op == opRotR {
			n = (w - n) % w
		}
		x := bvUnsigned(args[0])
		r := new(big.Int).Lsh(x, uint(n))
		r.Or(r, new(big.Int).Rsh(x, uint(w-n)))
		return e.mkBV(r, w)
	}
	for _, a := range args[1:] {
		if e.sorts.width(a.s) != w {
			return undefVal(ReasonSortError, fmt.Sprintf("%s applied to bit-vectors of widths %d and %d", opName(), w, e.sorts.width(a.s)))
		}
	}
	if w <= 64 {
		if v, ok := e.bv64(f.op, args, w); ok {
			return v
		}
	}
	x := bvUnsigned(args[0])
	switch f.op {
	case opBVNot:
		return e.mkBV(new(big.Int).Xor(x, mask(w)), w)
	case opBVNeg:
		return e.mkBV(new(big.Int).Neg(x), w)
	case opBVAnd, opBVOr, opBVXor, opBVAdd, opBVMul, opBVSub:
		acc := new(big.Int).Set(x)
		for _, a := range args[1:] {
			y := bvUnsigned(a)
			switch f.op {
			case opBVAnd:
				acc.And(acc, y)
			case opBVOr:
				acc.Or(acc, y)
			case opBVXor:
				acc.Xor(acc, y)
			case opBVAdd:
				acc.Add(acc, y)
			case opBVSub:
				acc.Sub(acc, y)
			case opBVMul:
				acc.Mul(acc, y).And(acc, mask(w))
			}
		}
		return e.mkBV(acc, w)
	}
	y := bvUnsigned(args[1])
	switch f.op {
	case opBVNand:
		return e.mkBV(new(big.Int).Xor(new(big.Int).And(x, y), mask(w)), w)
	case opBVNor:
		return e.mkBV(new(big.Int).Xor(new(big.Int).Or(x, y), mask(w)), w)
	case opBVXnor:
		return e.mkBV(new(big.Int).Xor(new(big.Int).Xor(x, y), mask(w)), w)
	case opBVUdiv:
		return e.mkBV(udiv(x, y, w), w)
	case opBVUrem:
		return e.mkBV(urem(x, y), w)
	case opBVSdiv, opBVSrem, opBVSmod:
		return e.mkBV(signedDiv(f.op, x, y, w), w)
	case opBVShl, opBVLshr, opBVAshr:
		if y.Cmp(big.NewInt(int64(w))) >= 0 {
			if f.op == opBVAshr && x.Bit(w-1) == 1 {
				return e.mkBV(mask(w), w)
			}
			return e.mkBV(big.NewInt(0), w)
		}
		n := uint(y.Uint64())
		switch f.op {
		case opBVShl:
			return e.mkBV(new(big.Int).Lsh(x, n), w)
		case opBVLshr:
			return e.mkBV(new(big.Int).Rsh(x, n), w)
		}
		return e.mkBV(new(big.Int).Rsh(bvSigned(args[0], w), n), w)
	case opBVUlt:
		return boolVal(x.Cmp(y) < 0)
	case opBVUle:
		return boolVal(x.Cmp(y) <= 0)
	case opBVUgt:
		return boolVal(x.Cmp(y) > 0)
	case opBVUge:
		return boolVal(x.Cmp(y) >= 0)
	case opBVSlt, opBVSle, opBVSgt, opBVSge:
		c := bvSigned(args[0], w).Cmp(bvSigned(args[1], w))
		switch f.op {
		case opBVSlt:
			return boolVal(c < 0)
		case opBVSle:
			return boolVal(c <= 0)
		case opBVSgt:
			return boolVal(c > 0)
		}
		return boolVal(c >= 0)
	case opBVComp:
		if x.Cmp(y) == 0 {
			return e.mkBV64(1, 1)
		}
		return e.mkBV64(0, 1)
	}
	return undefVal(ReasonUnsupported, "bit-vector operator "+opName())
}

func udiv(x, y *big.Int, w int) *big.Int {
	if y.Sign() == 0 {
		return mask(w)
	}
	return new(big.Int).Quo(x, y)
}

func urem(x, y *big.Int) *big.Int {
	if y.Sign() == 0 {
		return x
	}
	return new(big.Int).Rem(x, y)
}

// signedDiv follows the definitions of bvsdiv, bvsrem and bvsmod in
// SMT-LIB's FixedSizeBitVectors theory, through bvudiv and bvurem.
func signedDiv(op opcode, s, t *big.Int, w int) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return signedDivision(op, s, t, s.Bit(w-1) == 1, t.Bit(w-1) == 1, unsignedOps[*big.Int]{
		neg:  func(x *big.Int) *big.Int { return new(big.Int).Mod(new(big.Int).Neg(x), m) },
		udiv: func(x, y *big.Int) *big.Int { return udiv(x, y, w) },
		urem: urem,
		add:  func(x, y *big.Int) *big.Int { return new(big.Int).Mod(new(big.Int).Add(x, y), m) },
		zero: func(x *big.Int) bool { return x.Sign() == 0 },
	})
}

// unsignedOps are the operations modulo 2^w, on a representation of
// bit-vectors, that the signed divisions are defined by.
type unsignedOps[T any] struct {
	neg             func(T) T
	udiv, urem, add func(T, T) T
	zero            func(T) bool
}

// signedDivision is bvsdiv, bvsrem or bvsmod of s and t (ns, nt: their
// sign bits) as SMT-LIB defines them, in any representation (big.Int for
// any width, uint64 up to 64 bits).
func signedDivision[T any](op opcode, s, t T, ns, nt bool, o unsignedOps[T]) T {
	switch op {
	case opBVSdiv:
		switch {
		case !ns && !nt:
			return o.udiv(s, t)
		case ns && !nt:
			return o.neg(o.udiv(o.neg(s), t))
		case !ns && nt:
			return o.neg(o.udiv(s, o.neg(t)))
		}
		return o.udiv(o.neg(s), o.neg(t))
	case opBVSrem:
		switch {
		case !ns && !nt:
			return o.urem(s, t)
		case ns && !nt:
			return o.neg(o.urem(o.neg(s), t))
		case !ns && nt:
			return o.urem(s, o.neg(t))
		}
		return o.neg(o.urem(o.neg(s), o.neg(t)))
	}
	as, at := s, t
	if ns {
		as = o.neg(s)
	}
	if nt {
		at = o.neg(t)
	}
	u := o.urem(as, at)
	switch {
	case o.zero(u) || (!ns && !nt):
		return u
	case ns && !nt:
		return o.add(o.neg(u), t)
	case !ns && nt:
		return o.add(u, t)
	}
	return o.neg(u)
}

// bvShape64 computes concat, extract, repeat, the extensions and the
// rotations without big.Int when the operand and the result are at most
// 64 bits wide; false for anything else (left to the general path, which
// also reports bad indices).
func (e *evaluator) bvShape64(f *frame, args []value, w int, idx smtlib.Term, nidx int) (value, bool) {
	if w > 64 {
		return value{}, false
	}
	x := uint64(args[0].n)
	switch f.op {
	case opConcat:
		tw := w
		for _, a := range args[1:] {
			aw := e.sorts.width(a.s)
			if tw+aw > 64 {
				return value{}, false
			}
			x = x<<uint(aw) | uint64(a.n)
			tw += aw
		}
		return e.mkBV64(x, tw), true
	case opExtract:
		hi, ok1 := indexInt(f.s, idx, nidx, 0)
		lo, ok2 := indexInt(f.s, idx, nidx, 1)
		if !ok1 || !ok2 || nidx != 2 || hi < lo || hi >= w {
			return value{}, false
		}
		return e.mkBV64(x>>uint(lo), hi-lo+1), true
	case opRepeat:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || n < 1 || n > 64 || n*w > 64 {
			return value{}, false
		}
		var acc uint64
		for range n {
			acc = acc<<uint(w) | x
		}
		return e.mkBV64(acc, n*w), true
	case opZeroExt, opSignExt:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok || n > 64 || w+n > 64 {
			return value{}, false
		}
		if f.op == opSignExt {
			x = uint64(int64(x<<(64-uint(w))) >> (64 - uint(w)))
		}
		return e.mkBV64(x, w+n), true
	case opRotL, opRotR:
		n, ok := indexInt(f.s, idx, nidx, 0)
		if !ok {
			return value{}, false
		}
		n %= w
		if f.op == opRotR {
			n = (w - n) % w
		}
		return e.mkBV64(x<<uint(n)|x>>uint(w-n), w), true
	}
	return value{}, false
}

// bv64 computes the common operators on widths up to 64 without big.Int.
func (e *evaluator) bv64(op opcode, args []value, w int) (value, bool) {
	x := uint64(args[0].n)
	m := ^uint64(0)
	if w < 64 {
		m = 1<<uint(w) - 1
	}
	switch op {
	case opBVNot:
		return e.mkBV64(^x, w), true
	case opBVNeg:
		return e.mkBV64(-x, w), true
	case opBVAnd, opBVOr, opBVXor, opBVAdd, opBVMul, opBVSub:
		for _, a := range args[1:] {
			y := uint64(a.n)
			switch op {
			case opBVAnd:
				x &= y
			case opBVOr:
				x |= y
			case opBVXor:
				x ^= y
			case opBVAdd:
				x += y
			case opBVSub:
				x -= y
			case opBVMul:
				x *= y
			}
		}
		return e.mkBV64(x, w), true
	}
	y := uint64(args[1].n)
	sx := int64(x<<(64-uint(w))) >> (64 - uint(w))
	sy := int64(y<<(64-uint(w))) >> (64 - uint(w))
	switch op {
	case opBVUlt:
		return boolVal(x < y), true
	case opBVUle:
		return boolVal(x <= y), true
	case opBVUgt:
		return boolVal(x > y), true
	case opBVUge:
		return boolVal(x >= y), true
	case opBVSlt:
		return boolVal(sx < sy), true
	case opBVSle:
		return boolVal(sx <= sy), true
	case opBVSgt:
		return boolVal(sx > sy), true
	case opBVSge:
		return boolVal(sx >= sy), true
	case opBVUdiv:
		if y == 0 {
			return e.mkBV64(m, w), true
		}
		return e.mkBV64(x/y, w), true
	case opBVUrem:
		if y == 0 {
			return e.mkBV64(x, w), true
		}
		return e.mkBV64(x%y, w), true
	case opBVShl:
		if y >= uint64(w) {
			return e.mkBV64(0, w), true
		}
		return e.mkBV64(x<<y, w), true
	case opBVLshr:
		if y >= uint64(w) {
			return e.mkBV64(0, w), true
		}
		return e.mkBV64(x>>y, w), true
	case opBVAshr:
		if y >= uint64(w) {
			y = uint64(w - 1)
		}
		return e.mkBV64(uint64(sx>>y), w), true
	case opBVNand:
		return e.mkBV64(^(x & y), w), true
	case opBVNor:
		return e.mkBV64(^(x | y), w), true
	case opBVXnor:
		return e.mkBV64(^(x ^ y), w), true
	case opBVComp:
		if x == y {
			return e.mkBV64(1, 1), true
		}
		return e.mkBV64(0, 1), true
	case opBVSdiv, opBVSrem, opBVSmod:
		return e.mkBV64(signedDiv64(op, x, y, w), w), true
	}
	return value{}, false
}

// signedDiv64 is signedDiv on widths up to 64: bvsdiv, bvsrem and bvsmod
// as SMT-LIB defines them through bvudiv and bvurem, modulo 2^w.
func signedDiv64(op opcode, s, t uint64, w int) uint64 {
	m := ^uint64(0)
	if w < 64 {
		m = 1<<uint(w) - 1
	}
	return signedDivision(op, s, t, s>>uint(w-1)&1 == 1, t>>uint(w-1)&1 == 1, unsignedOps[uint64]{
		neg: func(x uint64) uint64 { return -x & m },
		udiv: func(x, y uint64) uint64 {
			if y == 0 {
				return m
			}
			return x / y
		},
		urem: func(x, y uint64) uint64 {
			if y == 0 {
				return x
			}
			return x % y
		},
		add:  func(x, y uint64) uint64 { return (x + y) & m },
		zero: func(x uint64) bool { return x == 0 },
	})
}
